"""Records what google-adk 2.13.0's McpToolset does against tests/mcp/server.py: the function
declarations an LlmAgent sends its model for the server's tools, and the function response of each
call, as the agent writes them. The browser test (tests/browser/mcp.html) holds adk-wasm's MCPToolset
to them. Run with the MCP venv: .venv/mcp/bin/python tests/mcp/record.py
(writes tests/fixtures/mcp/adk-2.13.0.json).
"""

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.mcp_tool import McpToolset, StreamableHTTPConnectionParams
from google.genai import types

HERE = Path(__file__).resolve().parent
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


class Scripted(BaseLlm):
    """Calls the next tool of CALLS, then answers; keeps the requests."""

    model: str = 'scripted-mcp'
    requests: list = []
    call: tuple = ('', {})

    async def generate_content_async(self, llm_request, stream=False):
        self.requests.append(llm_request)
        last = llm_request.contents[-1]
        if any(p.function_response for p in last.parts or []):
            yield LlmResponse(content=types.Content(role='model', parts=[types.Part(text='done')]))
            return
        name, args = self.call
        yield LlmResponse(content=types.Content(role='model', parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))]))


async def record(url: str) -> dict:
    model = Scripted()
    toolset = McpToolset(connection_params=StreamableHTTPConnectionParams(url=url))
    agent = LlmAgent(name='mcp_user', model=model, instruction='Use the tools.', tools=[toolset])
    runner = InMemoryRunner(agent=agent, app_name='app')
    session = await runner.session_service.create_session(app_name='app', user_id='u')
    calls = []
    for name, args in CALLS:
        model.call = (name, args)
        message = types.Content(role='user', parts=[types.Part(text=f'call {name}')])
        responses = []
        async for event in runner.run_async(user_id='u', session_id=session.id, new_message=message):
            for part in (event.content.parts if event.content else None) or []:
                if part.function_response:
                    responses.append(part.function_response.response)
        calls.append({'tool': name, 'args': args, 'response': responses[0]})
    tools = model.requests[0].config.tools
    declarations = [d.model_dump(mode='json', by_alias=True, exclude_none=True) for t in tools for d in t.function_declarations]
    await toolset.close()
    system_instruction = model.requests[0].config.system_instruction
    return {'systemInstruction': system_instruction, 'declarations': declarations, 'calls': calls}


def main() -> None:
    server = subprocess.Popen([sys.executable, str(HERE / 'server.py')], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith('READY '), line
        recorded = asyncio.run(record(line.split()[1] + '/mcp'))
    finally:
        server.terminate()
    OUT.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + '\n')
    print(f'wrote {OUT}')


if __name__ == '__main__':
    main()
