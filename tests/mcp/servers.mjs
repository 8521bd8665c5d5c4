// Starts the MCP test server (tests/mcp/server.py: the `mcp` SDK's MCPServer over Streamable HTTP)
// on 127.0.0.1 for test runners and `make demo`:
//   const mcp = await startMcpServer();   mcp.url → 'http://127.0.0.1:PORT/mcp'; await mcp.stop();
// Its venv (.venv/mcp, tests/mcp/requirements.txt, which also has ADK's McpToolset for the recorder)
// is installed first, a no-op once current. The child dies with this process.
import { createInterface } from 'node:readline';
import { childGroup, installVenv, ROOT } from '../common/processes.mjs';

export async function startMcpServer({ timeoutMs = 60_000 } = {}) {
  await installVenv('mcp', 'tests/mcp/requirements.txt', 'import mcp.server.mcpserver, google.adk.tools.mcp_tool, uvicorn');
  const children = childGroup();
  const { child, stderr } = children.spawn(`${ROOT}.venv/mcp/bin/python`, ['tests/mcp/server.py', '--port', '0']);
  const base = await new Promise((resolve, reject) => {
    const fail = (why) => reject(new Error(`MCP server (tests/mcp/server.py) ${why}\n--- its stderr ---\n${stderr() || '(empty)'}`));
    const timer = setTimeout(() => fail(`printed no READY line within ${timeoutMs} ms`), timeoutMs);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^READY (http:\/\/\S+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      fail(`exited (${code ?? sig}) before it was ready`);
    });
  });
  return { url: `${base}/mcp`, stop: children.stop };
}
