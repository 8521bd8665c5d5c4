"""Records what google-adk 2.13.0's McpToolset does against tests/mcp/server.py (the `mcp` SDK) and
tests/mcp/ts_server.mjs (the TypeScript SDK): the function declarations an LlmAgent sends its model
for each server's tools, and the function response of each call, as the agent writes them. The
browser test (tests/browser/mcp.html) holds adk-wasm's MCPToolset to them. Run with the MCP venv:
.venv/mcp/bin/python tests/mcp/record.py (writes tests/fixtures/mcp/adk-2.13.0.json and
adk-2.13.0-ts.json).
"""

import sys
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool import McpToolset, StreamableHTTPConnectionParams

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


async def record(base_url: str) -> dict:
    model = Scripted(model='scripted-mcp')
    toolset = McpToolset(connection_params=StreamableHTTPConnectionParams(url=base_url + '/mcp'))
    agent = LlmAgent(name='mcp_user', model=model, instruction='Use the tools.', tools=[toolset])
    recorded = await record_calls(agent, model, CALLS)
    await toolset.close()
    return {'systemInstruction': model.requests[0].config.system_instruction, **recorded}


if __name__ == '__main__':
    # The `mcp` SDK's server, then the TypeScript SDK's (tests/mcp/ts_server.mjs), each recorded.
    record_against(HERE / 'server.py', record, OUT)
    record_against(HERE / 'ts_server.mjs', record, OUT.with_name('adk-2.13.0-ts.json'))
