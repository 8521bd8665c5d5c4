// Runs the in-page test suites against the release pkg/ in Debian's headless Chromium (never a
// downloaded browser) and prints "N passed, M failed". Usage: node tests/browser/run.mjs [page …]
import { launchChromium } from './chromium.mjs';
import { serve } from '../../scripts/serve.mjs';
import { replay } from './replay.mjs';
import { startPeers } from '../a2a/peers.mjs';
import { startAdkServers } from '../adk_server/servers.mjs';
import { startProxy } from '../a2a/proxy.mjs';
import { startOidcProvider } from '../../scripts/oidc.mjs';
import { startMcpServer, startTsMcpServer } from '../mcp/servers.mjs';
import { startOpenApiApp } from '../openapi/servers.mjs';
import { agUiValidator, installValidator } from '../ag_ui/validator.mjs';
import { bundlePages } from './bundle.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['tests/browser/events.html', 'tests/browser/services.html', 'tests/browser/runner.html', 'tests/browser/llm.html', 'tests/browser/flows.html', 'tests/browser/models.html', 'tests/browser/tools.html', 'tests/browser/plugins.html', 'tests/browser/mcp.html', 'tests/browser/openapi.html', 'tests/browser/oauth.html', 'tests/browser/a2a.html', 'tests/browser/adk_server.html', 'tests/browser/worker.html', 'tests/browser/ag-ui.html', 'tests/browser/ai-sdk.html', 'tests/browser/hostile.html', 'tests/browser/fuzz.html', 'tests/browser/memory.html', 'tests/browser/fatal.html'];
// Pages that import npm packages load their bundle from target/bundles/.
await bundlePages();
const server = await serve(ROOT, 0, [replay, agUiValidator]);
const base = `http://127.0.0.1:${server.address().port}`;
// The OAuth page, and the ADK server page's `whoami`, sign in at a real OpenID provider whose public
// clients redirect to the package's redirect page (both entries').
const oidc = pages.some((p) => p.includes('oauth') || p.includes('adk_server'))
  ? await startOidcProvider({ redirectUris: [`${base}/pkg/oauth-redirect.html`, `${base}/pkg/server/oauth-redirect.html`] })
  : null;
// The A2A page talks to real peers (a2a-sdk, google-adk's to_a2a, a cutting proxy) and the ADK
// server page to real `adk api_server`s (google-adk 2.13.0 and 1.39.1), all started here.
// The MCP page calls real MCP servers (the `mcp` SDK's and the TypeScript SDK's), the OpenAPI page a
// FastAPI app. The AI SDK page reaches the ADK servers and an A2A peer through its transport.
const [peers, adkServers, mcp, mcpTs, openapi] = await Promise.all([
  pages.some((p) => /a2a|ag-ui|ai-sdk/.test(p)) ? startPeers() : null,
  pages.some((p) => /adk_server|ag-ui|ai-sdk/.test(p)) ? startAdkServers({ oidc: oidc?.url }) : null,
  pages.some((p) => p.includes('mcp')) ? startMcpServer() : null,
  pages.some((p) => p.includes('mcp')) ? startTsMcpServer() : null,
  pages.some((p) => p.includes('openapi')) ? startOpenApiApp() : null,
  // The AG-UI page has its streams checked by AG-UI's own validator, which is Python.
  pages.some((p) => p.includes('ag-ui')) ? installValidator() : null,
]);
// The cutting proxy, in front of the 2.13.0 server, for a stream cut mid-run.
const adkProxy = adkServers && (await startProxy({ target: adkServers.urls['2.13.0'] }));
const query = new URLSearchParams({
  ...(peers && { sdk: peers.sdkUrl, adk: peers.adkUrl, proxy: peers.proxyUrl }),
  ...(oidc && { oidc: oidc.url }),
  ...(mcp && { mcp: mcp.url }),
  ...(mcpTs && { mcpTs: mcpTs.url }),
  ...(openapi && { openapi: openapi.url }),
  ...(adkServers && { adk2: adkServers.urls['2.13.0'], adk1: adkServers.urls['1.39.1'], adkProxy: adkProxy.url }),
}).toString();
// The ADK server page runs on both entries that have the client (the full one and
// adk-wasm/server), and once more from http://localhost (the same static server), an origin the
// ADK servers do not allow (they allow http://127.0.0.1:<port> only).
// `make fuzz` runs the fuzz page for FUZZ_SECONDS from a random seed instead of its fixed pass.
const fuzzSeconds = Number(process.env.FUZZ_SECONDS ?? 0);
const runs = pages.flatMap((p) => (p.includes('adk_server')
  ? [[base, p, ''], [base, p, '&entry=server'], [base.replace('127.0.0.1', 'localhost'), p, '']]
  : [[base, p, p.includes('fuzz') && fuzzSeconds ? `&seconds=${fuzzSeconds}` : '']]));
const browser = await launchChromium();
let passed = 0;
let failed = 0;
try {
  for (const [origin, page, extra] of runs) {
    const tab = await browser.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    // HTTP error statuses, cut streams and a refused connection are what some page tests ask for; Chromium logs each.
    const expected = /^Failed to load resource: (the server responded with a status of (4|5)\d\d|net::(ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_CONNECTION_REFUSED))/;
    // From an origin a server refuses, Chromium logs the CORS failures that page asks for.
    const refused = /^(Access to fetch at '.*' from origin '.*' has been blocked by CORS policy|Failed to load resource: net::ERR_FAILED)/;
    // The OpenAPI and tools pages call a server that does not allow their origin, on purpose.
    const allowed = (text) => expected.test(text) || ((origin !== base || /openapi|tools/.test(page)) && refused.test(text));
    tab.on('console', (m) => m.type() === 'error' && !allowed(m.text()) && errors.push(`console error: ${m.text()}`));
    await tab.goto(`${origin}/${page}?${query}${extra}`);
    const results = await tab.waitForFunction(() => window.__results?.done && window.__results, null, { timeout: 120_000 + fuzzSeconds * 1000 })
      .then((h) => h.jsonValue())
      .catch((e) => ({ passed: 0, failed: 1, failures: [`${page} did not finish: ${e.message}`] }));
    const label = `${page}${extra ? ` (${extra.slice(1)})` : ''}${origin === base ? '' : ` (from ${origin})`}`;
    for (const f of results.failures) console.log(`FAIL ${label}: ${f}`);
    for (const n of results.notes ?? []) console.log(`${label}: ${n}`);
    for (const e of errors) console.log(`FAIL ${label}: ${e}`);
    console.log(`${label}: ${results.passed} passed, ${results.failed + errors.length} failed`);
    passed += results.passed;
    failed += results.failed + errors.length;
    await tab.close();
  }
} finally {
  await browser.close();
  server.close();
  await Promise.all([peers?.stop(), adkProxy?.close(), adkServers?.stop(), oidc?.close(), mcp?.stop(), mcpTs?.stop(), openapi?.stop()]);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
