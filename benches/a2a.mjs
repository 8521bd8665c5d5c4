// Decoding a long recorded A2A stream in headless Chromium: adk-wasm's A2AClient (the release pkg/)
// against @a2a-js/sdk's client and a floor of fetch + TextDecoder + SSE split + JSON.parse, all in one
// page, all reading the same bytes over real HTTP from 127.0.0.1. Run with `make bench`.
// Numbers, not pass/fail, but it fails loudly if any consumer decodes the stream differently.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

import { serve } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = 'tests/fixtures/a2a/recorded/sdk-v1-jsonrpc-10k.sse';
// The recording's JSON-RPC id; each reply carries the id of the request it answers instead.
const RECORDED_ID = '"id": "smoke-35"';
const CONSUMERS = ['adk-wasm', '@a2a-js/sdk', 'floor'];
const SAMPLES = 11;

// What every consumer must see, decoded here independently of all three.
const recording = readFileSync(ROOT + FIXTURE, 'utf8');
const frames = recording.split(/\r\n\r\n|\n\n/).filter((f) => f.trim());
const expectedText = frames
  .map((f) => JSON.parse(f.replace(/^data: ?/, '')).result.artifactUpdate?.artifact.parts.map((p) => p.text ?? '').join('') ?? '')
  .join('');
const expected = { events: frames.length, length: expectedText.length, sha256: createHash('sha256').update(expectedText).digest('hex') };
// Encoded once, so a reply costs the server only copying bytes (a few ms), the same for every consumer.
const pieces = recording.split(RECORDED_ID).map((s) => Buffer.from(s));
if (pieces.length - 1 !== frames.length) throw new Error(`${FIXTURE}: ${pieces.length - 1} ids for ${frames.length} frames`);
const FRAMES_PER_WRITE = 100;

const requests = new Map(); // "method, A2A-Version" -> count: which protocol each request really spoke

async function benchAgent(req, res) {
  const { pathname } = new URL(req.url, 'http://x');
  if (req.method === 'GET' && pathname === '/bench/.well-known/agent-card.json') {
    json(res, card(`http://${req.headers.host}/bench/`));
    return true;
  }
  if (req.method !== 'POST' || pathname !== '/bench/') return false;
  let body = '';
  for await (const chunk of req) body += chunk;
  const rpc = JSON.parse(body);
  const key = `${rpc.method}, A2A-Version: ${req.headers['a2a-version'] ?? '(none)'}`;
  requests.set(key, (requests.get(key) ?? 0) + 1);
  if (rpc.method !== 'SendStreamingMessage') {
    json(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: `the bench agent only streams, not ${rpc.method}` } });
    return true;
  }
  // As fast as the socket takes it, so the clients are what is measured; written in ~30 KB slices
  // so the first events leave while later ids are still being rewritten.
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  const id = Buffer.from(`"id": ${JSON.stringify(rpc.id)}`);
  for (let i = 0; i < pieces.length; i += FRAMES_PER_WRITE) {
    res.write(Buffer.concat(pieces.slice(i, i + FRAMES_PER_WRITE).flatMap((p, k) => (i + k ? [id, p] : [p]))));
  }
  res.end();
  return true;
}

function json(res, value) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** A v1.0 card with one JSON-RPC interface; @a2a-js/sdk 1.3.0 speaks 1.0 natively, so no v0.3 fields. */
function card(url) {
  return {
    name: 'bench',
    description: 'Replays a recorded a2a-sdk 1.3.0 stream of 10 000 artifact chunks.',
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'replay', name: 'Replay', description: 'Replays the recording.', tags: ['bench'] }],
  };
}

function check(label, r) {
  for (const k of ['events', 'length', 'sha256']) {
    if (r[k] !== expected[k]) {
      throw new Error(`${label} decoded the stream wrongly: ${k} ${r[k]}, expected ${expected[k]}`);
    }
  }
}

// Bundled at run time so the page loads the SDK's own code, not a copy checked in here.
await build({
  stdin: { contents: "export { ClientFactory } from '@a2a-js/sdk/client';", resolveDir: ROOT, sourcefile: 'a2a-js-sdk-entry.js' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: ROOT + 'test-output/bench/a2a-js-sdk.js',
  logLevel: 'warning',
});

const server = await serve(ROOT, 0, [benchAgent]);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e));
  await page.goto(`http://127.0.0.1:${server.address().port}/benches/a2a.html`);
  const clients = await page.evaluate(() => window.bench.then((b) => b.clients));

  const rates = Object.fromEntries(CONSUMERS.map((c) => [c, []]));
  const firsts = Object.fromEntries(CONSUMERS.map((c) => [c, []]));
  // Round 0 warms up; each round rotates the order so no consumer always runs first (or after the same one).
  for (let round = 0; round <= SAMPLES; round++) {
    for (let i = 0; i < CONSUMERS.length; i++) {
      const label = CONSUMERS[(round + i) % CONSUMERS.length];
      const r = await page.evaluate((l) => window.bench.then((b) => b.run(l)), label);
      check(label, r);
      if (round === 0) continue;
      rates[label].push(r.events / (r.ms / 1000));
      firsts[label].push(r.firstMs);
    }
  }
  if (pageErrors.length) throw pageErrors[0];

  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const m = Object.fromEntries(CONSUMERS.map((c) => [c, median(rates[c])]));
  console.log(`A2A stream decoding in Chromium ${browser.version()}, ${availableParallelism()} CPUs: ${FIXTURE}`);
  console.log(`(${expected.events} events, ${(Buffer.byteLength(recording) / 1e6).toFixed(2)} MB), 1 warm-up + ${SAMPLES} samples, interleaved`);
  console.log(`  adk-wasm     A2AClient  v${clients.ours.protocolVersion} ${clients.ours.binding}`);
  console.log(`  @a2a-js/sdk  Client     v${clients.theirs.protocolVersion} ${clients.theirs.protocolName}`);
  console.log(`  requests seen: ${[...requests].map(([k, n]) => `${k} x${n}`).join('; ')}`);
  console.log('');
  console.log('consumer       median events/s        min        max   vs floor   first event (median ms)');
  for (const c of CONSUMERS) {
    const rs = rates[c];
    console.log(
      `${c.padEnd(14)} ${fmt(m[c]).padStart(15)} ${fmt(Math.min(...rs)).padStart(10)} ${fmt(Math.max(...rs)).padStart(10)}` +
        `   ${(m[c] / m.floor).toFixed(2).padStart(8)}   ${median(firsts[c]).toFixed(1).padStart(10)}`,
    );
  }
  console.log('');
  // Each round's consumers ran back to back, so a round's ratio is the least disturbed comparison.
  const ratio = (other) => {
    const rs = rates['adk-wasm'].map((r, i) => r / rates[other][i]);
    return `${median(rs).toFixed(2)} (median of the rounds' ratios; min ${Math.min(...rs).toFixed(2)}, max ${Math.max(...rs).toFixed(2)})`;
  };
  console.log(`ratio adk-wasm / @a2a-js/sdk: ${ratio('@a2a-js/sdk')}`);
  console.log(`ratio adk-wasm / floor:       ${ratio('floor')}`);
} finally {
  await browser.close();
  server.close();
}

function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}
