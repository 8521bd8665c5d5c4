"""Records what google-adk 2.13.0's McpToolset does against tests/mcp/server.py (the `mcp` SDK) and
tests/mcp/ts_server.mjs (the TypeScript SDK): the function declarations an LlmAgent sends its model
for each server's tools, and the function response of each call, as the agent writes them; for the
`mcp` SDK's server over Streamable HTTP (/mcp) and over HTTP+SSE (/sse), whose recordings must be
equal (asserted here, so one is written), and with `use_mcp_resources` (the request after the model
loads resources). The browser test (tests/browser/mcp.html) holds adk-wasm's MCPToolset to them.
Run with the MCP venv: .venv/mcp/bin/python tests/mcp/record.py (writes
tests/fixtures/mcp/adk-2.13.0.json and adk-2.13.0-ts.json).
"""

import sys
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.agents.mcp_instruction_provider import McpInstructionProvider
from google.adk.runners import InMemoryRunner
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.mcp_tool import McpToolset, SseConnectionParams, StreamableHTTPConnectionParams
from google.genai import types

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / 'common'))
from record_tools import Scripted, record_against, record_calls  # noqa: E402  (shared recorder code)
OUT = HERE.parent / 'fixtures' / 'mcp' / 'adk-2.13.0.json'

# (tool, args): each called once, in a turn of its own.
CALLS = [
    ('add', {'a': 2, 'b': 40}),
    ('describe_city', {'city': 'Seoul'}),
    ('describe_city', {'city': 'Boston', 'units': 'imperial'}),
    ('tag_all', {'tags': ['wasm', '에이전트']}),
    ('server_time', {}),
    ('red_pixel', {}),
    ('fail_on_purpose', {}),
    ('add', {'a': 'not a number', 'b': 1}),
]


async def record_over(connection_params) -> dict:
    model = Scripted(model='scripted-mcp')
    toolset = McpToolset(connection_params=connection_params)
    agent = LlmAgent(name='mcp_user', model=model, instruction='Use the tools.', tools=[toolset])
    recorded = await record_calls(agent, model, CALLS)
    await toolset.close()
    return {'systemInstruction': model.requests[0].config.system_instruction, **recorded}


async def record(base_url: str) -> dict:
    streamable = await record_over(StreamableHTTPConnectionParams(url=base_url + '/mcp'))
    sse = await record_over(SseConnectionParams(url=base_url + '/sse'))
    assert sse == streamable, 'ADK over HTTP+SSE differs from ADK over Streamable HTTP'
    resources = await record_resources(base_url)
    prompt = await record_prompt(base_url)
    return {'transports': ['StreamableHTTPConnectionParams', 'SseConnectionParams'], **streamable, 'resources': resources,
            'prompt': prompt}


async def record_prompt(base_url: str) -> dict:
    """An agent whose instruction is ADK's McpInstructionProvider over the `shopkeeper` prompt, its
    argument from the session state: the system instruction of its request."""
    model = Scripted(model='scripted-mcp')
    provider = McpInstructionProvider(StreamableHTTPConnectionParams(url=base_url + '/mcp'), 'shopkeeper')
    agent = LlmAgent(name='keeper', model=model, instruction=provider)
    runner = InMemoryRunner(agent=agent, app_name='app')
    state = {'shop': 'tea', 'other': 'not an argument'}
    session = await runner.session_service.create_session(app_name='app', user_id='u', state=state)
    message = types.Content(role='user', parts=[types.Part(text='hello')])
    async for _ in runner.run_async(user_id='u', session_id=session.id, new_message=message):
        pass
    return {'state': state, 'systemInstruction': model.requests[0].config.system_instruction}


async def record_ts(base_url: str) -> dict:
    return await record_over(StreamableHTTPConnectionParams(url=base_url + '/mcp'))


class CallsOnce(Scripted):
    """Calls its tool in the first request only: after load_mcp_resource the request ends with the
    resources, not with the function response Scripted looks for."""

    async def generate_content_async(self, llm_request, stream=False):
        if self.requests:
            self.requests.append(llm_request)
            yield LlmResponse(content=types.Content(role='model', parts=[types.Part(text='done')]))
            return
        async for response in super().generate_content_async(llm_request, stream):
            yield response


async def record_resources(base_url: str) -> dict:
    """With `use_mcp_resources`: the request after the model loads resources (the instruction listing
    them, the contents added)."""
    model = CallsOnce(model='scripted-mcp', requests=[])
    toolset = McpToolset(connection_params=StreamableHTTPConnectionParams(url=base_url + '/mcp'), use_mcp_resources=True)
    agent = LlmAgent(name='mcp_user', model=model, instruction='Use the tools.', tools=[toolset])
    args = {'resource_names': ['notes', 'pixel', 'missing']}
    recorded = await record_calls(agent, model, [('load_mcp_resource', args)])
    await toolset.close()
    after = model.requests[1]
    return {'args': args, 'response': recorded['calls'][0]['response'],
            'declaration': next(d for d in recorded['declarations'] if d['name'] == 'load_mcp_resource'),
            'systemInstruction': after.config.system_instruction,
            'contents': [c.model_dump(mode='json', by_alias=True, exclude_none=True) for c in after.contents]}


if __name__ == '__main__':
    # The `mcp` SDK's server, then the TypeScript SDK's (tests/mcp/ts_server.mjs), each recorded.
    record_against(HERE / 'server.py', record, OUT)
    record_against(HERE / 'ts_server.mjs', record_ts, OUT.with_name('adk-2.13.0-ts.json'))
