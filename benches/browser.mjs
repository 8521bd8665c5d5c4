// adk-wasm in headless Chromium, over real HTTP from 127.0.0.1 (the release pkg/). Run with `make bench`.
//
// 1. import + init(): a fresh browser context per sample (empty HTTP cache, no compiled-code
//    cache), timed in the page from before `import()` of the entry to the end of `await init()`,
//    for the full SDK and for adk-wasm/a2a.
// 2. wasm memory in a long-lived tab: a JS agent answering one event per run, 1 000 runs on one
//    session of 3 000 events, no forced garbage collection.
import { fileURLToPath } from 'node:url';

import { serve } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLES = 9;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const server = await serve(ROOT, 0);
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
try {
  console.log(`adk-wasm in Chromium ${browser.version()}, served from ${origin} (uncompressed, no-store)`);
  console.log(`1. import + init(), a new browser context per sample (ms; median of ${SAMPLES}, min, max)`);
  for (const entry of ['/pkg/index.js', '/pkg/a2a/index.js']) {
    const times = [];
    for (let s = 0; s < SAMPLES; s++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/benches/blank.html`);
      times.push(await page.evaluate(async (url) => {
        const start = performance.now();
        const sdk = await import(url);
        await sdk.default();
        return performance.now() - start;
      }, entry));
      await context.close();
    }
    const f = (x) => x.toFixed(1);
    console.log(`   ${entry.padEnd(20)} ${f(median(times)).padStart(7)}  (${f(Math.min(...times))}, ${f(Math.max(...times))})`);
  }

  const page = await browser.newPage();
  await page.goto(`${origin}/benches/blank.html`);
  const memory = await page.evaluate(async () => {
    const sdk = await import('/pkg/index.js');
    const wasm = await sdk.default();
    const MiB = (bytes) => +(bytes / 1048576).toFixed(1);
    const agent = (n) => ({
      name: 'bench',
      async *runAsyncImpl() {
        for (let i = 0; i < n; i++) yield { content: { role: 'model', parts: [{ text: `event ${i}` }] } };
      },
    });
    const message = { role: 'user', parts: [{ text: 'go' }] };
    const run = async (runner) => {
      for await (const _ of runner.runAsync({ userId: 'u', sessionId: 'long', newMessage: message }));
    };
    const service = new sdk.InMemorySessionService();
    await service.createSession({ appName: 'bench', userId: 'u', sessionId: 'long' });
    await run(new sdk.Runner({ appName: 'bench', agent: agent(2999), sessionService: service }));
    const runner = new sdk.Runner({ appName: 'bench', agent: agent(1), sessionService: service });
    const start = MiB(wasm.memory.buffer.byteLength);
    const marks = [];
    for (let r = 1; r <= 1000; r++) {
      await run(runner);
      if (r % 100 === 0) marks.push(MiB(wasm.memory.buffer.byteLength));
    }
    const session = await service.getSession({ appName: 'bench', userId: 'u', sessionId: 'long' });
    return { start, marks, events: session.events.length, json: MiB(JSON.stringify(session.events).length) };
  });
  console.log(`2. wasm memory, 1000 runs of a JS agent on one session (3 000 events at the start, ${memory.events} at the end), no forced GC`);
  console.log(`   after prefill ${memory.start} MiB; every 100 runs: ${memory.marks.join(', ')} MiB; the session's own JSON: ${memory.json} MiB`);
} finally {
  await browser.close();
  server.close();
}
