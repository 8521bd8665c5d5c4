// `make demo`: serves the repository root (www/ and the freshly built pkg/) on 127.0.0.1, with a real
// A2A peer (a2a-sdk), a real `adk api_server` (google-adk 2.13.0 over tests/adk_server/agents), a real
// MCP server (the `mcp` SDK's, tests/mcp/server.py, whose tools the offline agent uses) and a local
// OpenID provider (oidc-provider, for "Who am I?") beside it, so the demo's A2A and ADK server tabs,
// its MCP tools and its sign-in work out of the box and offline. The page gets their URLs injected. Each
// installs its venv first (a no-op once current). Ctrl-C stops them all.
import { readFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { startPeers } from '../tests/a2a/peers.mjs';
import { startAdkServers } from '../tests/adk_server/servers.mjs';
import { startOidcProvider } from './oidc.mjs';
import { startMcpServer } from '../tests/mcp/servers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const ADK_VERSION = '2.13.0';
/** Globals the page reads its preset server URLs from (www/agents/remote.js, server.js), once known. */
const presets = {};

/** The demo page with `presets` set before app.js runs, so the plain /www/ URL has them. */
async function withPresets(req, res) {
  const { pathname } = new URL(req.url, 'http://x');
  if (pathname !== '/www/' && pathname !== '/www/index.html') return false;
  const html = await readFile(`${ROOT}www/index.html`, 'utf8');
  const script = `<script>${Object.entries(presets).map(([name, url]) => `window.${name} = ${JSON.stringify(url)};`).join(' ')}</script>`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  // A classic script before the module one: modules run after it.
  res.end(html.replace('<script type="module"', `${script}\n<script type="module"`));
  return true;
}

const port = Number(process.env.PORT ?? 8080);
const server = await serve(ROOT, port, [withPresets]).catch((e) => {
  console.error(e.code === 'EADDRINUSE' ? `port ${port} is in use: run PORT=<another port> make demo` : e.message);
  process.exit(1);
});
const base = `http://127.0.0.1:${server.address().port}`;
// Its login and consent forms accept any name and password.
const oidc = await startOidcProvider({ redirectUris: [`${base}/pkg/oauth-redirect.html`], interactive: true });
presets.ADK_DEMO_OIDC_URL = oidc.url;
const [peers, adkServers, mcp] = await Promise.all([
  startPeers({ which: ['sdk'] }).catch((e) => {
    console.error(`the A2A peer did not start (the A2A tab will need another server): ${e.message}`);
    return null;
  }),
  startAdkServers({ versions: [ADK_VERSION], oidc: oidc.url }).catch((e) => {
    console.error(`the ADK server did not start (the ADK server tab will need another one): ${e.message}`);
    return null;
  }),
  startMcpServer().catch((e) => {
    console.error(`the MCP server did not start (the offline agent runs without its tools): ${e.message}`);
    return null;
  }),
]);
if (peers) presets.ADK_DEMO_A2A_URL = peers.sdkUrl;
if (adkServers) presets.ADK_DEMO_ADK_URL = adkServers.urls[ADK_VERSION];
if (mcp) presets.ADK_DEMO_MCP_URL = mcp.url;
console.log(`adk-wasm demo: ${base}/www/   (Ctrl-C to stop)`);
console.log(`OpenID provider (oidc-provider, any name and password): ${oidc.url}`);
if (peers) console.log(`A2A peer (a2a-sdk 1.3.0): ${peers.sdkUrl}`);
if (adkServers) console.log(`ADK server (google-adk ${ADK_VERSION}, apps of tests/adk_server/agents): ${adkServers.urls[ADK_VERSION]}`);
if (mcp) console.log(`MCP server (the mcp SDK's MCPServer, tests/mcp/server.py): ${mcp.url}`);
