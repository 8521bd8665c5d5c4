// @ts-check
// The JS API of the release package fed hostile values: cycles, BigInts, getters and Proxies that
// throw, frozen objects, wasm handles, lone surrogates, 10 000-deep nesting, and mutations of real
// events. Every call must return, or throw (or reject with) an AdkError; the instance must keep
// working. `?seconds=N` runs for N seconds from a random seed (`make fuzz`); without it, a fixed
// seed and a fixed count (what CI runs). `?seed=S` repeats a run.
import init, * as adk from '/pkg/index.js';
import { assert, finish, json, test } from './harness.js';

await init();
const { InMemoryRunner, BaseAgent, LlmAgent, ScriptedModel, FunctionTool, InMemorySessionService, Transcript, A2AClient } = adk;

const params = new URLSearchParams(location.search);
const seconds = Number(params.get('seconds') ?? 0);
const firstSeed = Number(params.get('seed') ?? (seconds ? Math.floor(Math.random() * 2 ** 31) : 20261122));
let seed = firstSeed;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (xs) => xs[Math.floor(random() * xs.length)];

const CODES = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'ABORTED', 'INTERNAL',
  'UNAUTHENTICATED', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'DEADLINE_EXCEEDED', 'UNIMPLEMENTED', 'UNKNOWN']);

// An agent whose every request is a 404 from the page's own server.
const a2a = A2AClient.fromCard({
  name: 'nobody', description: '', version: '1', capabilities: { streaming: true }, defaultInputModes: [], defaultOutputModes: [], skills: [],
  supportedInterfaces: [{ url: `${location.origin}/nowhere/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
}, { resume: { maxRetries: 0 } });
const service = new InMemorySessionService();
const session = await service.createSession({ appName: 'app', userId: 'u', sessionId: 'fuzz' });
const realEvent = { ...adk.createEvent({ author: 'model', invocationId: 'e-1' }), content: { role: 'model', parts: [{ text: 'hi' }, { functionCall: { id: 'c', name: 'f', args: { a: [1, { b: null }] } } }] }, actions: { stateDelta: { k: 'v' } } };

function deep(n, open) {
  /** @type {unknown} */
  let v = 'leaf';
  for (let i = 0; i < n; i++) v = open === '[' ? [v] : { x: v };
  return v;
}

/** A hostile value, built fresh each time. */
function hostile(depth = 0) {
  const cyclic = { author: 'a' };
  cyclic.self = cyclic;
  const makers = [
    () => cyclic,
    () => ({ author: 'a', n: 10n }),
    () => 10n,
    () => Object.defineProperty({ author: 'a' }, 'content', { enumerable: true, get() { throw new Error('getter threw'); } }),
    () => new Proxy({ author: 'a' }, { get() { throw new Error('proxy threw'); }, ownKeys() { throw new Error('ownKeys threw'); } }),
    () => new Proxy({}, { get: (_, k) => (k === 'toJSON' ? () => ({ author: 'proxied' }) : undefined) }),
    () => Object.freeze({ ...realEvent, content: Object.freeze({ role: 'model', parts: Object.freeze([{ text: 'frozen' }]) }) }),
    () => ({ ...realEvent, customMetadata: { handle: service } }),
    () => service,
    () => ({ author: '\ud800', content: { role: 'model', parts: [{ text: 'a\udfffb' }] } }),
    () => '\ud800',
    () => deep(10_000, '['),
    () => deep(10_000, '{'),
    () => ({ ...realEvent, content: { role: 'model', parts: [deep(5_000, '{')] } }),
    () => Symbol('s'),
    () => () => 1,
    () => new Date(0),
    () => new Map([[1, 2]]),
    () => new Uint8Array([1, 2, 3]),
    () => NaN,
    () => -0,
    () => Number.MAX_VALUE,
    () => null,
    () => undefined,
    () => '',
    () => 'x'.repeat(1 + Math.floor(random() * 100_000)),
    () => [],
    () => ({}),
    () => ({ toJSON() { throw new Error('toJSON threw'); } }),
    () => mutated(),
    () => JSON.stringify(mutated()),
    () => (depth < 3 ? { ...realEvent, [pick(['content', 'actions', 'author', 'id', 'timestamp', 'partial', 'longRunningToolIds'])]: hostile(depth + 1) } : 1),
  ];
  return pick(makers)();
}

/** A real event with one field changed to something of another type. */
function mutated() {
  const event = structuredClone(realEvent);
  const paths = [['author'], ['timestamp'], ['content', 'parts'], ['content', 'parts', 0, 'text'], ['content', 'parts', 1, 'functionCall', 'args'], ['actions', 'stateDelta'], ['actions'], ['id'], ['invocationId'], ['content', 'role']];
  const path = pick(paths);
  let at = event;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path.at(-1)] = pick([1, 'x', null, [], {}, true, -1e308, '\ud800', [[]], { a: 1 }]);
  return event;
}

const calls = [
  ['parseEvent', (v) => adk.parseEvent(v)],
  ['eventToJson', (v) => adk.eventToJson(v)],
  ['createEvent', (v) => adk.createEvent(v)],
  ['isFinalResponse', (v) => adk.isFinalResponse(v)],
  ['getFunctionCalls', (v) => adk.getFunctionCalls(v)],
  ['Part.fromText', (v) => adk.Part.fromText(v)],
  ['Part.fromJson', (v) => adk.Part.fromJson(v)],
  ['Part.fromFunctionCall', (v) => adk.Part.fromFunctionCall('f', v)],
  ['LlmResponse.fromParts', (v) => adk.LlmResponse.fromParts(v)],
  ['setLimits', (v) => adk.setLimits(v)],
  ['Transcript.add', (v) => new Transcript().add(v)],
  ['A2AClient.fromCard', (v) => A2AClient.fromCard(v)],
  ['createSession', (v) => service.createSession(v)],
  ['appendEvent', (v) => service.appendEvent({ session, event: v })],
  ['getSession', (v) => service.getSession(v)],
  ['JS agent yields', async (v) => {
    class Yields extends BaseAgent {
      async *runAsyncImpl() { yield v; }
    }
    const runner = new InMemoryRunner({ agent: new Yields({ name: 'y' }), appName: 'app', autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
  }],
  ['JS tool returns', async (v) => {
    const tool = new FunctionTool({ name: 't', execute: () => v });
    const model = new ScriptedModel([{ content: { role: 'model', parts: [{ functionCall: { name: 't', args: {} } }] } }, 'done']);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'l', model, tools: [tool] }), appName: 'app', autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
  }],
  ['isAgent', (v) => adk.isAgent(json(realEvent), v)],
  ['A2AClient methods', async (v) => {
    const method = pick(['getTask', 'cancelTask', 'subscribeToTask']);
    const result = a2a[method](v);
    if (method === 'subscribeToTask') await result.next();
    else await result;
  }],
  // A string is a URL to fetch: one the page's server answers 404, not the fuzzer's (a 100 kB URL).
  ['A2AClient.fromCardUrl', (v) => A2AClient.fromCardUrl(typeof v === 'string' ? '/nowhere/' : v)],
  ['a tool context', async (v) => {
    const method = pick(['state.get', 'state.set', 'state.has', 'getVariable', 'setVariable', 'removeVariable', 'saveArtifact', 'loadArtifact', 'searchMemory', 'callTool']);
    const tool = new FunctionTool({
      name: 't',
      execute: async (_args, context) => {
        if (method.startsWith('state.')) return { r: context.state[method.slice(6)](v, 1) ?? null };
        if (method === 'saveArtifact') return { r: await context.saveArtifact(v, adk.Part.fromText('x')) };
        if (method === 'callTool') return { r: (await context.callTool(v)).statusCode };
        return { r: (await context[method](v, 1)) ?? null };
      },
    });
    const model = new ScriptedModel([{ content: { role: 'model', parts: [{ functionCall: { name: 't', args: {} } }] } }, 'done']);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'l', model, tools: [tool] }), appName: 'app', autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
  }],
  ['JS model returns', async (v) => {
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'l', model: { generateContent: async () => v } }), appName: 'app', autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
  }],
];

await test('hostile values through the JS API: only AdkErrors, and the instance keeps working', async () => {
  const defaults = adk.getLimits();
  const started = performance.now();
  const counts = { calls: 0, errors: 0 };
  const bad = [];
  const fixedCount = 1500;
  while (seconds ? performance.now() - started < seconds * 1000 : counts.calls < fixedCount) {
    const [name, call] = pick(calls);
    const value = hostile();
    counts.calls += 1;
    try {
      await call(value);
    } catch (e) {
      counts.errors += 1;
      if (!(e instanceof Error) || e.name !== 'AdkError' || !CODES.has(json(e).code) || !e.message) {
        const shown = (() => { try { return String(JSON.stringify(value)).slice(0, 80); } catch { return typeof value; } })();
        bad.push(`${name}(${shown}): ${e?.name} ${e?.code}: ${String(e?.message).slice(0, 160)}`);
      }
    }
    adk.setLimits(defaults);
    // Still alive: a fresh event decodes.
    assert(adk.parseEvent(adk.eventToJson(realEvent)).id === realEvent.id, `after ${name}: the instance stopped working`);
  }
  const unique = [...new Set(bad.map((b) => b.replace(/\(.*?\):/, ':')))];
  window.__results.notes = [`seed ${firstSeed}: ${counts.calls} calls, ${counts.errors} AdkErrors, ${bad.length} other throws`];
  assert(bad.length === 0, `${bad.length} calls threw something else than an AdkError:\n${unique.slice(0, 20).join('\n')}\nfirst: ${bad[0]}`);
});

finish();
