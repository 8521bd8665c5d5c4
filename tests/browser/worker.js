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
  const texts = async (run) => {
    const seen = [];
    for await (const e of run) seen.push(json(e).content.parts[0].text);
    return seen;
  };
  assertJsonEqual(await texts(overPort.runAsync({ userId: 'u', sessionId: 'port', newMessage: text('hi') })), ['port 1', 'port 2', 'port 3']);
  const controller = new AbortController();
  controller.abort();
  const error = await overPort.runAsync({ userId: 'u', sessionId: 'port', newMessage: text('again'), abortSignal: controller.signal }).next().then(() => null, (e) => e);
  assert(error?.name === 'AbortError', String(error));

  // Two new connections to one port, their first runs started in the same tick: each gets its own events only.
  const [one, two] = [connectRunner(channel.port2), connectRunner(channel.port2)];
  const both = await Promise.all([texts(one.runAsync({ userId: 'u', sessionId: 'a', newMessage: text('a') })),
    texts(two.runAsync({ userId: 'u', sessionId: 'b', newMessage: text('b') }))]);
  assertJsonEqual(both, [['a 1', 'a 2', 'a 3'], ['b 1', 'b 2', 'b 3']]);

  // return() drops what had arrived and was not read.
  const run = overPort.runAsync({ userId: 'u', sessionId: 'c', newMessage: text('c') });
  assert(json((await run.next()).value).content.parts[0].text === 'c 1');
  await new Promise((resolve) => setTimeout(resolve, 100));
  await run.return();
  assertJsonEqual(await run.next(), { value: undefined, done: true });

  // A request the worker cannot be sent (a function in it) fails the run's first next(), not runAsync itself.
  const unsendable = overPort.runAsync({ userId: 'u', sessionId: 'd', newMessage: text('d'), runConfig: json({ hook() {} }) });
  const refused = await unsendable.next().then(() => null, (e) => e);
  assert(refused?.name === 'DataCloneError', String(refused));
});

await test('a worker that cannot start fails its runs with UNAVAILABLE, those under way and later ones, instead of leaving them pending', async () => {
  const broken = connectRunner(new Worker('./no-such-worker.js', { type: 'module' }));
  const settle = (run) => Promise.race([run.next().then(() => 'resolved', (e) => e), new Promise((r) => setTimeout(() => r('still pending'), 5000))]);
  const first = await settle(broken.runAsync({ userId: 'u', sessionId: 's', newMessage: text('hi') }));
  assert(first?.code === 'UNAVAILABLE' && first.message.includes('could not start'), String(first?.message ?? first));
  const later = await settle(broken.runAsync({ userId: 'u', sessionId: 's', newMessage: text('again') }));
  assert(later?.code === 'UNAVAILABLE', String(later?.message ?? later));
});

await test('an error in the worker rejects in the page with its code', async () => {
  const error = await (async () => {
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 'bad', newMessage: json({ role: 'user', parts: 'not a list' }) }));
  })().then(() => null, (e) => e);
  assert(error instanceof Error && error.name === 'AdkError' && json(error).code === 'INVALID_ARGUMENT', `${error?.name} ${json(error)?.code} ${error?.message}`);
});

finish();
