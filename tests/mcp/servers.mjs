// Starts the MCP test servers on 127.0.0.1 for test runners and `make demo`: tests/mcp/server.py (the
// `mcp` SDK's MCPServer over Streamable HTTP at /mcp and HTTP+SSE at /sse) and tests/mcp/ts_server.mjs
// (the TypeScript SDK's, Streamable HTTP):
//   const mcp = await startMcpServer();   mcp.url → 'http://127.0.0.1:PORT/mcp'; await mcp.stop();
// Its venv (.venv/mcp, tests/mcp/requirements.txt, which also has ADK's McpToolset for the recorder)
// is installed first, a no-op once current. The child dies with this process.
import { installVenv, ROOT, startReadyServer } from '../common/processes.mjs';

/** The MCP venv (the `mcp` SDK, ADK's McpToolset and OpenAPIToolset, FastAPI), installed once. */
export function installMcpVenv() {
  return installVenv('mcp', 'tests/mcp/requirements.txt', 'import mcp.server.mcpserver, google.adk.tools.mcp_tool, uvicorn');
}

export async function startMcpServer({ timeoutMs = 60_000 } = {}) {
  await installMcpVenv();
  const args = ['tests/mcp/server.py', '--port', '0'];
  const { base, stop } = await startReadyServer('MCP server (tests/mcp/server.py)', `${ROOT}.venv/mcp/bin/python`, args, { timeoutMs });
  return { url: `${base}/mcp`, stop };
}

// The TypeScript SDK's MCP server (tests/mcp/ts_server.mjs), the second real peer: the same tools,
// as a TypeScript server declares them.
export async function startTsMcpServer({ timeoutMs = 30_000 } = {}) {
  const args = ['tests/mcp/ts_server.mjs', '--port', '0'];
  const { base, stop } = await startReadyServer('MCP server (tests/mcp/ts_server.mjs)', process.execPath, args, { timeoutMs });
  return { url: `${base}/mcp`, stop };
}
