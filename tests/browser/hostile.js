// @ts-check
// Hostile input through the release package in Chromium: each test is a row of the README's
// bad-input catalogue (the row's number is in the test's name), and the SDK must keep working after it.
import init, * as adk from '/pkg/index.js';
import { assert, assertRejectsAdk, assertThrowsAdk, collect, finish, json, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, BaseAgent, ScriptedModel, FunctionTool } = adk;

const text = (t) => ({ role: 'user', parts: [{ text: t }] });
const callOf = (name, args = {}) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });

/** A runner over `agent` with session `s` of user `u`. */
async function runnerOf(agent) {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return runner;
}

const runOf = (runner, message = 'go') => runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text(message) });
const stored = (runner) => runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });

/** The runner still works: a fresh agent answers on a fresh session. */
async function stillWorks() {
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ok', model: new ScriptedModel(['fine']) }), appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 'after' });
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 'after', newMessage: text('hi') }));
  assert(events.at(-1).content.parts[0].text === 'fine', 'a run after the hostile input answers');
}

await test('#4 a tool returning its ToolContext: INVALID_ARGUMENT, no heap address reaches the model or the session', async () => {
  const leaky = new FunctionTool({ name: 'leaky', execute: (_args, context) => json({ context }) });
  const model = new ScriptedModel([callOf('leaky'), 'done']);
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model, tools: [leaky] }));
  await assertRejectsAdk(collect(runOf(runner)), 'INVALID_ARGUMENT', 'tool result');
  const session = await stored(runner);
  assert(!JSON.stringify(session).includes('__wbg_ptr'), 'no wasm handle in the session');
  assert(model.requests.length === 1, 'the model never saw the result');
  await stillWorks();
});

await test('#5 a JS agent yielding its context, or a session handle, as event data: INVALID_ARGUMENT', async () => {
  class Leaky extends BaseAgent {
    async *runAsyncImpl(ctx) {
      yield { content: { role: 'model', parts: [{ text: 'x' }] }, customMetadata: { ctx } };
    }
  }
  const runner = await runnerOf(new Leaky({ name: 'leaky' }));
  await assertRejectsAdk(collect(runOf(runner)), 'INVALID_ARGUMENT', 'adk-wasm object');
  const session = await stored(runner);
  const handle = json({ author: 'x', customMetadata: { service: runner.sessionService } });
  assertThrowsAdk(() => adk.createEvent(handle), 'INVALID_ARGUMENT', 'adk-wasm object');
  const event = { ...adk.createEvent({ author: 'x' }), customMetadata: handle.customMetadata };
  await assertRejectsAdk(runner.sessionService.appendEvent({ session, event }), 'INVALID_ARGUMENT', 'adk-wasm object');
  assert(!JSON.stringify(await stored(runner)).includes('__wbg_ptr'), 'no wasm handle in the session');
  await stillWorks();
});

await test('#6 lone surrogates become U+FFFD in strings, objects, tool results and yielded events alike', async () => {
  const lone = 'a\ud800b\udfffc';
  const fixed = 'a\ufffdb\ufffdc';
  const echo = new FunctionTool({ name: 'echo', execute: () => ({ said: lone, [lone]: 1 }) });
  const model = new ScriptedModel([callOf('echo', { x: lone }), lone]);
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model, tools: [echo] }));
  const events = await collect(runOf(runner, lone));
  assert(events[0].content.parts[0].functionCall.args.x === fixed, 'model args');
  const { response } = adk.getFunctionResponses(events[1])[0];
  assert(response.said === fixed && response[fixed] === 1, `tool result: ${JSON.stringify(response)}`);
  assert(events[2].content.parts[0].text === fixed, 'model text');
  assert(model.requests[0].contents[0].parts[0].text === fixed, 'the user message as the model saw it');
  class Yields extends BaseAgent {
    async *runAsyncImpl() {
      yield { content: { role: 'model', parts: [{ text: lone }] }, customMetadata: { [lone]: lone } };
    }
  }
  const yielding = await runnerOf(new Yields({ name: 'y' }));
  const [event] = await collect(runOf(yielding));
  assert(event.content.parts[0].text === fixed && event.customMetadata[fixed] === fixed, JSON.stringify(event));
  assert(adk.parseEvent(JSON.stringify({ author: lone, id: 'x', invocationId: '', timestamp: 1, actions: {} })).author === fixed, 'parseEvent');
});

await test('#7 createEvent() without an invocationId, yielded by a JS agent, gets the run\'s', async () => {
  class Plain extends BaseAgent {
    async *runAsyncImpl() {
      yield adk.createEvent({ author: 'plain', content: { role: 'model', parts: [{ text: 'hi' }] } });
    }
  }
  const runner = await runnerOf(new Plain({ name: 'plain' }));
  const [event] = await collect(runOf(runner));
  const { events } = await stored(runner);
  assert(/^e-[0-9a-f-]{36}$/.test(event.invocationId), `invocationId ${JSON.stringify(event.invocationId)}`);
  assert(events[0].invocationId === event.invocationId && events[1].invocationId === event.invocationId, 'stored with the user event\'s id');
});

await test('#8 a thrown plain {code, message} keeps both; one without a message says what was thrown', async () => {
  const notFound = new FunctionTool({ name: 'lookup', execute: () => { throw { code: 'NOT_FOUND', message: 'no such user: kim' }; } });
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model: new ScriptedModel([callOf('lookup'), 'done']), tools: [notFound] }));
  await assertRejectsAdk(collect(runOf(runner)), 'NOT_FOUND', 'no such user: kim');
  const bare = new FunctionTool({ name: 'bare', execute: () => { throw { code: 'NOT_FOUND' }; } });
  const other = await runnerOf(new LlmAgent({ name: 'agent', model: new ScriptedModel([callOf('bare'), 'done']), tools: [bare] }));
  await assertRejectsAdk(collect(runOf(other)), 'NOT_FOUND', '{"code":"NOT_FOUND"}');
  assertThrowsAdk(() => adk.parseEvent('{"author": 1}'), 'INVALID_ARGUMENT', 'author');
});

const MiB = 2 ** 20;
const defaults = adk.getLimits();

/** Runs `fn` with `limits` in force, then the defaults again. */
async function withLimits(limits, fn) {
  adk.setLimits(limits);
  try {
    return await fn();
  } finally {
    adk.setLimits(defaults);
  }
}

await test('#9 the limits: defaults, setLimits changes only what it is given, bad values are refused', async () => {
  assert(JSON.stringify(defaults) === JSON.stringify({ maxEventBytes: 16 * MiB, maxModelResponseBytes: 16 * MiB, maxToolResultBytes: 16 * MiB, maxArtifactBytes: 64 * MiB, maxSessionBytes: 256 * MiB, maxJsonExpansion: 64 }), JSON.stringify(defaults));
  const changed = adk.setLimits({ maxToolResultBytes: 1000 });
  assert(changed.maxToolResultBytes === 1000 && changed.maxEventBytes === 16 * MiB, JSON.stringify(changed));
  adk.setLimits(defaults);
  assertThrowsAdk(() => adk.setLimits({ maxEventBytes: -1 }), 'INVALID_ARGUMENT', 'maxEventBytes');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.setLimits({ maxEventBytes: 'big' }), 'INVALID_ARGUMENT', 'maxEventBytes');
  // @ts-expect-error (a limit that does not exist)
  assertThrowsAdk(() => adk.setLimits({ maxEventByte: 1 }), 'INVALID_ARGUMENT', 'unknown limit `maxEventByte`');
  assert(adk.getLimits().maxEventBytes === 16 * MiB, 'a refused change changes nothing');
});

await test('#10 an event over maxEventBytes: RESOURCE_EXHAUSTED before it is copied, the session unchanged', async () => {
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model: new ScriptedModel(['ok']) }));
  const session = await stored(runner);
  const big = 'x'.repeat(16 * MiB);
  const event = { ...adk.createEvent({ author: 'user' }), content: { role: 'user', parts: [{ text: big }] } };
  await assertRejectsAdk(runner.sessionService.appendEvent({ session, event }), 'RESOURCE_EXHAUSTED', 'setLimits({maxEventBytes})');
  assertThrowsAdk(() => adk.parseEvent(JSON.stringify(event)), 'RESOURCE_EXHAUSTED', 'maxEventBytes');
  class Big extends BaseAgent {
    async *runAsyncImpl() { yield { content: { role: 'model', parts: [{ text: big }] } }; }
  }
  const yielding = await runnerOf(new Big({ name: 'big' }));
  await assertRejectsAdk(collect(runOf(yielding)), 'RESOURCE_EXHAUSTED', 'maxEventBytes');
  assert((await stored(runner)).events.length === 0, 'nothing appended');
  await withLimits({ maxEventBytes: 32 * MiB }, () => runner.sessionService.appendEvent({ session, event }));
  assert((await stored(runner)).events[0].content.parts[0].text.length === 16 * MiB, 'raised, it is stored');
});

await test('#11 a JS model response over maxModelResponseBytes becomes an error event and the run goes on', async () => {
  const model = { generateContent: async () => ({ content: { role: 'model', parts: [{ text: 'y'.repeat(2000) }] } }) };
  const agent = new adk.SequentialAgent({ name: 'seq', subAgents: [new LlmAgent({ name: 'big', model }), new LlmAgent({ name: 'next', model: new ScriptedModel(['after']) })] });
  const runner = await runnerOf(agent);
  const events = await withLimits({ maxModelResponseBytes: 1000 }, () => collect(runOf(runner)));
  assert(events[0].errorCode === 'RESOURCE_EXHAUSTED' && events[0].errorMessage.includes('maxModelResponseBytes'), JSON.stringify(events[0]).slice(0, 300));
  assert(events.at(-1).author === 'next' && events.at(-1).content.parts[0].text === 'after', 'the next agent ran');
});

await test('#12 a JS tool result over maxToolResultBytes reaches the model as {error} and the run goes on', async () => {
  const huge = new FunctionTool({ name: 'huge', execute: () => ({ data: 'z'.repeat(5000) }) });
  const model = new ScriptedModel([callOf('huge'), 'sorry']);
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model, tools: [huge] }));
  const events = await withLimits({ maxToolResultBytes: 1000 }, () => collect(runOf(runner)));
  const { response } = adk.getFunctionResponses(events[1])[0];
  assert(Object.keys(response).join() === 'error' && json(response).error.includes('maxToolResultBytes'), JSON.stringify(response));
  assert(model.requests.length === 2 && events.at(-1).content.parts[0].text === 'sorry', 'the model heard the error');
});

await test('#13 an artifact over maxArtifactBytes: RESOURCE_EXHAUSTED, no version saved', async () => {
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model: new ScriptedModel(['ok']) }));
  const key = { appName: 'app', userId: 'u', sessionId: 's', filename: 'big.bin' };
  const artifact = { inlineData: { mimeType: 'application/octet-stream', data: btoa('a'.repeat(3000)) } };
  await withLimits({ maxArtifactBytes: 2000 }, () => assertRejectsAdk(runner.artifactService.saveArtifact({ ...key, artifact }), 'RESOURCE_EXHAUSTED', 'maxArtifactBytes'));
  assert((await runner.artifactService.listVersions(key)).length === 0, 'no version');
  assert(await runner.artifactService.saveArtifact({ ...key, artifact }) === 0, 'within the default limit');
});

await test('#14 a session over maxSessionBytes: RESOURCE_EXHAUSTED, nothing half-written, in memory and in IndexedDB', async () => {
  const memory = new adk.InMemorySessionService();
  const idb = new adk.IndexedDbSessionService({ databaseName: `hostile-${Date.now()}` });
  for (const service of [memory, idb]) {
    const session = await service.createSession({ appName: 'app', userId: 'u' });
    const event = () => ({ ...adk.createEvent({ author: 'user', actions: { stateDelta: { n: 1 } } }), content: { role: 'user', parts: [{ text: 'w'.repeat(400) }] } });
    // Three events of ~600 bytes fit (their timestamps a few characters longer when the clock stood still), a fourth does not.
    await withLimits({ maxSessionBytes: 2100 }, async () => {
      for (let i = 0; i < 3; i++) await service.appendEvent({ session, event: event() });
      await assertRejectsAdk(service.appendEvent({ session, event: event() }), 'RESOURCE_EXHAUSTED', 'maxSessionBytes');
    });
    const again = await service.getSession({ appName: 'app', userId: 'u', sessionId: session.id });
    assert(again.events.length === 3 && session.events.length === 3, `${service.constructor.name}: ${again.events.length} stored`);
    await service.appendEvent({ session: again, event: event() });
  }
  // A session stored before sizes were counted (its row without `bytes`) is measured on its next append.
  const name = `hostile-old-${Date.now()}`;
  const old = new adk.IndexedDbSessionService({ databaseName: name });
  const session = await old.createSession({ appName: 'app', userId: 'u' });
  for (let i = 0; i < 3; i++) await old.appendEvent({ session, event: { ...adk.createEvent({ author: 'user' }), content: { role: 'user', parts: [{ text: 'w'.repeat(400) }] } } });
  const db = await new Promise((resolve, reject) => Object.assign(indexedDB.open(name), { onsuccess: (e) => resolve(e.target.result), onerror: reject }));
  await new Promise((resolve, reject) => {
    const store = db.transaction('sessions', 'readwrite').objectStore('sessions');
    store.openCursor().onsuccess = (e) => {
      const cursor = e.target.result;
      const { bytes, ...row } = cursor.value;
      assert(bytes > 1200, `counted: ${bytes}`);
      Object.assign(cursor.update(row), { onsuccess: resolve, onerror: reject });
    };
  });
  db.close();
  const stale = await old.getSession({ appName: 'app', userId: 'u', sessionId: session.id });
  await withLimits({ maxSessionBytes: 1500 }, () => assertRejectsAdk(old.appendEvent({ session: stale, event: adk.createEvent({ author: 'user' }) }), 'RESOURCE_EXHAUSTED', 'maxSessionBytes'));
  idb.free?.();
  old.free?.();
});

await test('#15 an event of millions of empty parts (6 MB of JSON, gigabytes decoded): RESOURCE_EXHAUSTED, not a trap', async () => {
  const empty = {};
  const event = { ...adk.createEvent({ author: 'x' }), content: { role: 'model', parts: new Array(2_000_000).fill(empty) } };
  assertThrowsAdk(() => adk.parseEvent(event), 'RESOURCE_EXHAUSTED', 'maxJsonExpansion');
  class Hostile extends BaseAgent {
    async *runAsyncImpl() { yield { content: event.content }; }
  }
  const runner = await runnerOf(new Hostile({ name: 'hostile' }));
  await assertRejectsAdk(collect(runOf(runner)), 'RESOURCE_EXHAUSTED', 'content.parts');
  await stillWorks();
});

await test('#16 a non-string where a string is expected (found by the fuzzer): INVALID_ARGUMENT, not a bare TypeError', async () => {
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.Part.fromText(42), 'INVALID_ARGUMENT', 'Part.fromText');
  assertThrowsAdk(() => adk.Part.fromJson(null), 'INVALID_ARGUMENT', 'Part.fromJson');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.Part.fromInlineData('x', 'text/plain'), 'INVALID_ARGUMENT', 'Uint8Array');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.Part.fromFunctionCall({}, {}), 'INVALID_ARGUMENT', 'name');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.isAgent(adk.createEvent({ author: 'a' }), 5), 'INVALID_ARGUMENT', 'agentName');
  const client = adk.A2AClient.fromCard({
    name: 'x', description: '', version: '1', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [],
    supportedInterfaces: [{ url: `${location.origin}/nowhere/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  });
  // @ts-expect-error deliberately the wrong type
  await assertRejectsAdk(client.getTask(5), 'INVALID_ARGUMENT', 'getTask id');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => client.subscribeToTask({ id: 't' }), 'INVALID_ARGUMENT', 'subscribeToTask id');
  // @ts-expect-error deliberately the wrong type
  await assertRejectsAdk(adk.IndexedDbSessionService.deleteDatabase(7), 'INVALID_ARGUMENT', 'deleteDatabase name');
  const seen = [];
  const probe = new FunctionTool({
    name: 'probe',
    execute: async (_args, context) => {
      // @ts-expect-error deliberately the wrong type
      for (const attempt of [() => context.state.get(1), () => context.getVariable(null, 0), () => context.saveArtifact(3, adk.Part.fromText('x')), () => context.searchMemory({})]) {
        try {
          await attempt();
          seen.push('no error');
        } catch (e) {
          seen.push(e.code);
        }
      }
      return { ok: true };
    },
  });
  const runner = await runnerOf(new LlmAgent({ name: 'agent', model: new ScriptedModel([callOf('probe'), 'done']), tools: [probe] }));
  await collect(runOf(runner));
  assert(seen.join() === 'INVALID_ARGUMENT,INVALID_ARGUMENT,INVALID_ARGUMENT,INVALID_ARGUMENT', seen.join());
});

finish();
