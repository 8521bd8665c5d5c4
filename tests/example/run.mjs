// The example app's check: builds examples/react-chat with its own Vite (as `npm run build` would, against
// its own install of adk-wasm from pkg/) and serves the build, then runs Vite's dev server on it (what
// `make example` opens); in each, chats in Debian's headless Chromium with both sources: the agent in
// the page, and the `weather` app of a real `adk api_server` (google-adk 2.13.0).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { installExample } from '../../scripts/example-install.mjs';
import { serve } from '../../scripts/serve.mjs';
import { startAdkServers } from '../adk_server/servers.mjs';
import { launchChromium } from '../browser/chromium.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const APP = `${ROOT}examples/react-chat`;
const OUT = `${ROOT}test-output/example`;

installExample();
rmSync(OUT, { recursive: true, force: true });
execFileSync(`${APP}/node_modules/.bin/vite`, ['build', '--outDir', OUT, '--emptyOutDir', '--logLevel', 'error'], { cwd: APP, stdio: ['ignore', 2, 2] });
console.log('example: vite build: ok');

const { createServer } = await import(`${APP}/node_modules/vite/dist/node/index.js`);
const adk = await startAdkServers({ versions: ['2.13.0'] });
const server = await serve(OUT);
const dev = await createServer({ root: APP, configFile: `${APP}/vite.config.js`, logLevel: 'error', server: { port: 0 } });
await dev.listen();
const browser = await launchChromium();
let failed = 0;
try {
  for (const [how, origin] of [['built', `http://127.0.0.1:${server.address().port}`], ['dev server', dev.resolvedUrls.local[0].replace(/\/$/, '')]]) {
    failed += await chat(how, origin);
  }
} finally {
  await browser.close();
  server.close();
  await dev.close();
  await adk.stop();
}
console.log(failed ? `example: ${failed} failed` : 'example: all passed');
process.exit(failed ? 1 : 0);

async function chat(how, origin) {
  let failed = 0;
  const tab = await browser.newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  // A new chat is a session the server does not have yet: the transport's first read of it is a 404
  // (which Chromium logs), then it creates it. Any other failed request is an error.
  const newSession = (r) => r.status() === 404 && r.request().method() === 'GET' && /\/apps\/weather\/users\/me\/sessions\/[^/]+$/.test(r.url());
  tab.on('console', (m) => m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 404/.test(m.text()) && errors.push(m.text()));
  tab.on('response', (r) => r.status() >= 400 && !newSession(r) && errors.push(`${r.status()} ${r.url()}`));
  await tab.goto(`${origin}/?server=${encodeURIComponent(adk.urls['2.13.0'])}`);

  const ask = async (text, answer) => {
    await tab.getByLabel('message').fill(text);
    await tab.getByRole('button', { name: 'Send' }).click();
    await tab.locator('li.assistant', { hasText: answer }).waitFor({ timeout: 30_000 });
  };
  const check = async (name, fn) => {
    try {
      await fn();
      console.log(`ok   ${how}: ${name}`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${how}: ${name}: ${e.message}`);
    }
  };
  await check('the agent in the page: a tool call, then the streamed answer', async () => {
    await ask('Seoul', 'It is sunny and 21 °C in Seoul.');
    await tab.locator('li.assistant .tool', { hasText: 'get_weather({"city":"Seoul"})' }).waitFor({ timeout: 5_000 });
  });
  await check('the ADK server: the same chat against the weather app of adk api_server', async () => {
    await tab.getByLabel('source').selectOption('server');
    await ask('Paris', 'It is sunny and 21 °C in Paris ☀️ (맑음).');
    await tab.locator('li.assistant .tool', { hasText: '"temp_c":21' }).waitFor({ timeout: 5_000 });
  });
  await check('no page errors', async () => {
    if (errors.length) throw new Error(errors.join('\n'));
  });
  await tab.close();
  return failed;
}
