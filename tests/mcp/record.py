"""Records what google-adk 2.13.0's McpToolset does against tests/mcp/server.py: the function
declarations an LlmAgent sends its model for the server's tools, and the function response of each
call, as the agent writes them, over Streamable HTTP (/mcp) and over HTTP+SSE (/sse). The two
recordings must be equal (asserted here), so one is written; the browser test
(tests/browser/mcp.html) holds adk-wasm's MCPToolset to it over both transports.
Run with the MCP venv: .venv/mcp/bin/python tests/mcp/record.py
(writes tests/fixtures/mcp/adk-2.13.0.json).
"""

import sys
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool import McpToolset, SseConnectionParams, StreamableHTTPConnectionParams

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
    return {'transports': ['StreamableHTTPConnectionParams', 'SseConnectionParams'], **streamable}


if __name__ == '__main__':
    record_against(HERE / 'server.py', record, OUT)
