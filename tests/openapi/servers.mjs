// Starts the OpenAPI test service (tests/openapi/app.py: a FastAPI app that echoes each request) on
// 127.0.0.1 for the browser tests:
//   const app = await startOpenApiApp();   app.url → 'http://127.0.0.1:PORT'; await app.stop();
// It runs in the MCP venv (.venv/mcp, tests/mcp/requirements.txt), which has FastAPI and ADK's
// OpenAPIToolset for the recorder. The child dies with this process.
import { ROOT, startReadyServer } from '../common/processes.mjs';
import { installMcpVenv } from '../mcp/servers.mjs';

export async function startOpenApiApp({ timeoutMs = 60_000 } = {}) {
  await installMcpVenv();
  const args = ['tests/openapi/app.py', '--port', '0'];
  const { base, stop } = await startReadyServer('OpenAPI app (tests/openapi/app.py)', `${ROOT}.venv/mcp/bin/python`, args, { timeoutMs });
  return { url: base, stop };
}
