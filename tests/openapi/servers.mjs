// Starts the OpenAPI test service (tests/openapi/app.py: a FastAPI app that echoes each request) on
// 127.0.0.1 for the browser tests:
//   const app = await startOpenApiApp();   app.url → 'http://127.0.0.1:PORT'; await app.stop();
// It runs in the MCP venv (.venv/mcp, tests/mcp/requirements.txt), which has FastAPI and ADK's
// OpenAPIToolset for the recorder. The child dies with this process.
import { childGroup, installVenv, readyUrl, ROOT } from '../common/processes.mjs';

export async function startOpenApiApp({ timeoutMs = 60_000 } = {}) {
  await installVenv('mcp', 'tests/mcp/requirements.txt', 'import mcp.server.mcpserver, google.adk.tools.mcp_tool, uvicorn');
  const children = childGroup();
  const { child, stderr } = children.spawn(`${ROOT}.venv/mcp/bin/python`, ['tests/openapi/app.py', '--port', '0']);
  const fail = (why) => new Error(`OpenAPI app (tests/openapi/app.py) ${why}\n--- its stderr ---\n${stderr() || '(empty)'}`);
  const url = await readyUrl(child, { timeoutMs, fail });
  return { url, stop: children.stop };
}
