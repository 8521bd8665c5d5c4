// Runs the in-page test suites against the release pkg/ in Debian's headless Chromium (never a
// downloaded browser) and prints "N passed, M failed". Usage: node tests/browser/run.mjs [page …]
import { launchChromium } from './chromium.mjs';
import { serve } from '../../scripts/serve.mjs';
import { replay } from './replay.mjs';
import { startPeers } from '../a2a/peers.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['tests/browser/events.html', 'tests/browser/services.html', 'tests/browser/runner.html', 'tests/browser/llm.html', 'tests/browser/flows.html', 'tests/browser/models.html', 'tests/browser/tools.html', 'tests/browser/a2a.html'];
const server = await serve(ROOT, 0, [replay]);
const base = `http://127.0.0.1:${server.address().port}`;
// The A2A page talks to real peers (a2a-sdk, google-adk's to_a2a, a cutting proxy), started here.
const peers = pages.some((p) => p.includes('a2a')) ? await startPeers() : null;
const query = peers ? `?${new URLSearchParams({ sdk: peers.sdkUrl, adk: peers.adkUrl, proxy: peers.proxyUrl })}` : '';
const browser = await launchChromium();
let passed = 0;
let failed = 0;
try {
  for (const page of pages) {
    const tab = await browser.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    // HTTP error statuses, cut streams and a refused connection are what some page tests ask for; Chromium logs each.
    const expected = /^Failed to load resource: (the server responded with a status of (4|5)\d\d|net::(ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_CONNECTION_REFUSED))/;
    tab.on('console', (m) => m.type() === 'error' && !expected.test(m.text()) && errors.push(`console error: ${m.text()}`));
    await tab.goto(`${base}/${page}${query}`);
    const results = await tab.waitForFunction(() => window.__results?.done && window.__results, null, { timeout: 120_000 })
      .then((h) => h.jsonValue())
      .catch((e) => ({ passed: 0, failed: 1, failures: [`${page} did not finish: ${e.message}`] }));
    for (const f of results.failures) console.log(`FAIL ${page}: ${f}`);
    for (const e of errors) console.log(`FAIL ${page}: ${e}`);
    console.log(`${page}: ${results.passed} passed, ${results.failed + errors.length} failed`);
    passed += results.passed;
    failed += results.failed + errors.length;
    await tab.close();
  }
} finally {
  await browser.close();
  server.close();
  await peers?.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
