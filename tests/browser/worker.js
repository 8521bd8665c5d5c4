// @ts-check
// adk-wasm/worker in Chromium: the release package's runner in a module Web Worker
// (worker-agent.js), its events streamed to this page, which loads no wasm; a signal stops the run
// in the worker, and `break` too.
import { connectRunner } from '/pkg/worker.js';
import { assert, assertJsonEqual, finish, json, test } from './harness.js';

const worker = new Worker('./worker-agent.js', { type: 'module' });
await new Promise((resolve) => worker.addEventListener('message', (e) => e.data?.type === 'ready' && resolve(undefined)));
const runner = connectRunner(worker);
const text = (t) => ({ role: 'user', parts: [{ text: t }] });

await test('a run in the worker streams its events to the page, which has no wasm', async () => {
  assert(!performance.getEntriesByType('resource').some((r) => r.name.endsWith('.wasm')), 'the page fetched no wasm itself');
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 'hello', newMessage: text('hi') })) events.push(e);
  assert(json(events.at(-1)).content.parts[0].text === 'Hello from the worker ', JSON.stringify(events));
  assert(json(events.at(-1)).author === 'worker_agent');
});

await test('a signal stops the run in the worker: next() rejects with its AbortError, the tool saw it stopped', async () => {
  const controller = new AbortController();
  const started = Date.now();
  const events = [];
  const error = await (async () => {
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 'slow', newMessage: text('wait'), signal: controller.signal })) {
      events.push(e);
      if (events.length === 1) setTimeout(() => controller.abort(), 200);
    }
  })().then(() => null, (e) => e);
  assert(error?.name === 'AbortError' && Date.now() - started < 10_000, String(error));
  // The worker's own record, asked in another run: the stopped run's tool was told.
  let stopped = [];
  for (let i = 0; i < 20 && !stopped.includes('slow'); i += 1) {
    const answer = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: `ask${i}`, newMessage: text('report') })) answer.push(e);
    stopped = answer.flatMap((e) => json(e).content?.parts ?? []).map((p) => p.functionResponse?.response?.stopped).find(Boolean) ?? [];
    if (!stopped.includes('slow')) await new Promise((r) => setTimeout(r, 100));
  }
  assertJsonEqual(stopped.filter((s) => s === 'slow'), ['slow']);
});

await test('over a MessagePort (serveRunner\'s port, connectRunner given the other end), and abortSignal as the signal', async () => {
  const channel = new MessageChannel();
  worker.postMessage({ type: 'port' }, [channel.port1]);
  const overPort = connectRunner(channel.port2);
  const events = [];
  for await (const e of overPort.runAsync({ userId: 'u', sessionId: 'port', newMessage: text('hi') })) events.push(e);
  assert(json(events.at(-1)).author === 'port_agent' && json(events.at(-1)).content.parts[0].text === 'Hello over a port', JSON.stringify(events));
  const controller = new AbortController();
  controller.abort();
  const error = await overPort.runAsync({ userId: 'u', sessionId: 'port', newMessage: text('again'), abortSignal: controller.signal }).next().then(() => null, (e) => e);
  assert(error?.name === 'AbortError', String(error));
});

await test('an error in the worker rejects in the page with its code', async () => {
  const error = await (async () => {
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 'bad', newMessage: json({ role: 'user', parts: 'not a list' }) }));
  })().then(() => null, (e) => e);
  assert(error instanceof Error && error.name === 'AdkError' && json(error).code === 'INVALID_ARGUMENT', `${error?.name} ${json(error)?.code} ${error?.message}`);
});

finish();
