// @ts-check
// Runner, agents, contexts and callbacks through the release package in Chromium: for await,
// break, AbortSignal, ReadableStream, JS agents and callbacks (including ones that throw).
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, assertRejectsAdk, assertThrowsAdk, collect, finish, json, jsSessionService, rejection, test } from './harness.js';

await init();
const { InMemoryRunner, Runner, BaseAgent, BasePlugin, SequentialAgent, ParallelAgent, LoopAgent, Transcript } = adk;

const text = (t) => ({ role: 'user', parts: [{ text: t }] });
const reply = (t, extra = {}) => ({ content: { role: 'model', parts: [{ text: t }] }, ...extra });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Echo extends BaseAgent {
  async *runAsyncImpl(ctx) {
    const said = ctx.userContent.parts[0].text;
    ctx.state.set('last_said', said);
    yield reply(`echo: ${said}`);
  }
}

async function setup(agent, sessionId = 's1') {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId });
  return runner;
}

async function stored(runner, sessionId = 's1') {
  return runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId });
}

await test('a JS agent streams events with for await; state writes land in its event', async () => {
  const runner = await setup(new Echo({ name: 'echo' }));
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('안녕') }));
  assert(events.length === 1 && events[0].author === 'echo' && events[0].content.parts[0].text === 'echo: 안녕');
  assert(events[0].invocationId.startsWith('e-') && events[0].actions.stateDelta.last_said === '안녕');
  const session = await stored(runner);
  assertJsonEqual(session.events.map((e) => e.author), ['user', 'echo']);
  assert(session.state.last_said === '안녕');
});

await test('plain objects and async generator functions are agents too', async () => {
  const plain = { name: 'plain', async *runAsyncImpl(ctx) { yield reply(`hi from ${ctx.agentName}`); } };
  async function* fn(ctx) { yield reply(`fn in ${ctx.branch ?? 'no branch'}`); }
  const seq = new SequentialAgent({ name: 'seq', subAgents: [plain, Object.assign(fn, { displayName: 'fn' })] });
  const runner = await setup(seq).catch((e) => e);
  // A function's `name` is read-only and is its JS name: `fn` is a valid agent name.
  assert(!(runner instanceof Error), String(runner));
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('go') }));
  assertJsonEqual(events.map((e) => [e.author, e.content.parts[0].text]), [['plain', 'hi from plain'], ['fn', 'fn in no branch']]);
});

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

await test('every event a JS agent yields gets a fresh uuid4 id, whatever kind of agent made it', async () => {
  const plain = { name: 'plain', async *runAsyncImpl() { yield reply('one'); yield { ...reply('two'), id: '' }; } };
  async function* fn() { yield reply('three'); }
  const seq = new SequentialAgent({ name: 'seq', subAgents: [new Echo({ name: 'echo' }), plain, fn] });
  const runner = await setup(seq);
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('go') }));
  const ids = events.map((e) => e.id);
  assert(ids.length === 4 && ids.every((id) => UUID4.test(id)) && new Set(ids).size === 4, JSON.stringify(ids));
  const session = await stored(runner);
  assertJsonEqual(session.events.slice(1).map((e) => e.id), ids);
  assert(UUID4.test(session.events[0].id), session.events[0].id);
});

await test('ParallelAgent branches, LoopAgent with maxIterations and escalate', async () => {
  const slow = new (class extends BaseAgent { async *runAsyncImpl() { await sleep(30); yield reply('slow'); } })({ name: 'slow' });
  const fast = new (class extends BaseAgent { async *runAsyncImpl() { yield reply('fast'); } })({ name: 'fast' });
  const par = new ParallelAgent({ name: 'par', subAgents: [slow, fast] });
  let events = await collect((await setup(par)).runAsync({ userId: 'u', sessionId: 's1', newMessage: text('go') }));
  assertJsonEqual(events.map((e) => [e.author, e.branch]), [['fast', 'par.fast'], ['slow', 'par.slow']]);

  let rounds = 0;
  const counter = new (class extends BaseAgent { async *runAsyncImpl() { rounds += 1; yield reply(`round ${rounds}`); } })({ name: 'counter' });
  events = await collect((await setup(new LoopAgent({ name: 'loop', maxIterations: 3, subAgents: [counter] }))).runAsync({ userId: 'u', sessionId: 's1', newMessage: text('go') }));
  assert(events.length === 3 && rounds === 3);

  const checker = new (class extends BaseAgent {
    async *runAsyncImpl(ctx) {
      const n = (ctx.state.get('n') ?? 0) + 1;
      ctx.state.set('n', n);
      yield reply(`n=${n}`, n >= 2 ? { actions: { escalate: true } } : {});
    }
  })({ name: 'checker' });
  const runner = await setup(new LoopAgent({ name: 'until', subAgents: [checker] }));
  events = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('go') }));
  assertJsonEqual(events.map((e) => e.content.parts[0].text), ['n=1', 'n=2']);
  assert(events[1].actions.escalate === true && (await stored(runner)).state.n === 2);

  // A count given as text is refused, not read as "no limit".
  let error;
  // @ts-expect-error deliberately the wrong type
  try { new LoopAgent({ name: 'texty', maxIterations: '3', subAgents: [] }); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('maxIterations'), `${error?.code}: ${error?.message}`);
});

await test('JS callbacks: sync and async, skip, append, state-only event', async () => {
  const calls = [];
  const agent = new Echo({
    name: 'echo',
    beforeAgentCallback: [(ctx) => { calls.push('b1'); ctx.state.set('seen', true); }, async () => { calls.push('b2'); }],
    afterAgentCallback: async (ctx) => { calls.push('a'); return { role: 'model', parts: [{ text: `after ${ctx.agentName}` }] }; },
  });
  const events = await collect((await setup(agent)).runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') }));
  assertJsonEqual(calls, ['b1', 'b2', 'a']);
  assertJsonEqual(events.map((e) => e.content?.parts[0].text ?? 'state-only'), ['state-only', 'echo: x', 'after echo']);
  assert(events[0].actions.stateDelta.seen === true);

  const skipping = new Echo({ name: 'skipped', beforeAgentCallback: () => ({ role: 'model', parts: [{ text: 'skipped!' }] }) });
  const seq = new SequentialAgent({ name: 'seq', subAgents: [skipping, new Echo({ name: 'next' })] });
  const got = await collect((await setup(seq)).runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') }));
  assertJsonEqual(got.map((e) => e.content.parts[0].text), ['skipped!', 'echo: x']);
});

await test('an exception in a JS callback rejects the iteration with its message; the runner keeps working', async () => {
  const agent = new Echo({ name: 'echo', beforeAgentCallback: () => { throw new TypeError('callback exploded'); } });
  const runner = await setup(agent);
  const error = await rejection(collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') })));
  assert(error.message.includes('callback exploded'), error.message);
  const good = await setup(new Echo({ name: 'echo' }), 's2');
  assert((await collect(good.runAsync({ userId: 'u', sessionId: 's2', newMessage: text('ok') }))).length === 1);
  // The same runner and session are usable again (the session lock was released).
  const again = await rejection(collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') })));
  assert(again.message.includes('callback exploded'));
});

await test('an exception thrown mid-stream by a JS agent keeps what was recorded', async () => {
  const flaky = new (class extends BaseAgent { async *runAsyncImpl() { yield reply('one'); throw new Error('agent broke'); } })({ name: 'flaky' });
  const runner = await setup(flaky);
  const seen = [];
  const error = await rejection((async () => { for await (const e of runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') })) seen.push(e); })());
  assert(error.message.includes('agent broke') && seen.length === 1);
  assertJsonEqual((await stored(runner)).events.map((e) => e.author), ['user', 'flaky']);
});

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
const abortableSleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
});

function slowAgent(log) {
  return new (class extends BaseAgent {
    async *runAsyncImpl(ctx) {
      try {
        yield reply('first');
        await abortableSleep(60_000, ctx.abortSignal);
        yield reply('never');
      } finally {
        log.push('finally');
      }
    }
  })({ name: 'slow' });
}

await test('AbortSignal stops a run mid-stream: the pending next rejects, nothing more is written', async () => {
  const log = [];
  const runner = await setup(slowAgent(log));
  const controller = new AbortController();
  const seen = [];
  const done = (async () => { for await (const e of runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x'), signal: controller.signal })) seen.push(e); })();
  await sleep(50);
  controller.abort();
  const error = await rejection(done);
  assert(error.name === 'AbortError', `${error.name}: ${error.message}`);
  await sleep(0);
  // ctx.abortSignal fired: the agent's in-flight wait was cut short and its finally block ran.
  assert(seen.length === 1 && log[0] === 'finally', JSON.stringify(log));
  assertJsonEqual((await stored(runner)).events.map((e) => e.content.parts[0].text), ['x', 'first']);
  // The session is free for the next run.
  const next = runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('again'), abortSignal: AbortSignal.timeout(100) });
  assert((await next.next()).value.content.parts[0].text === 'first');
  assert((await rejection(next.next())).name === 'TimeoutError');
});

await test('a signal aborted with a reason that is not an Error rejects with that reason', async () => {
  const runner = await setup(slowAgent([]));
  const controller = new AbortController();
  const run = runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x'), signal: controller.signal });
  assert((await run.next()).value.content.parts[0].text === 'first');
  const pending = run.next();
  controller.abort('the person pressed stop');
  assert((await rejection(pending)) === 'the person pressed stop');
  assert((await rejection(run.next())) === 'the person pressed stop', 'every later next() too');
});

await test('cancel() or return() while a next() is pending ends it, as a cancelled stream reader\'s read ends', async () => {
  for (const stop of ['cancel', 'return']) {
    const log = [];
    const runner = await setup(slowAgent(log), `s-${stop}`);
    const run = runner.runAsync({ userId: 'u', sessionId: `s-${stop}`, newMessage: text('x') });
    assert((await run.next()).value.content.parts[0].text === 'first');
    const pending = run.next();
    await sleep(20);
    await run[stop]();
    assertJsonEqual(await pending, { value: undefined, done: true });
    assertJsonEqual(await run.next(), { value: undefined, done: true });
    assert(log[0] === 'finally', stop);
  }
});

await test('an AbortError a callback throws, no signal fired, fails the run with its own message', async () => {
  const agent = new Echo({ name: 'echo' });
  const plugin = Object.assign(new BasePlugin('audit'), {
    beforeAgentCallback() { throw Object.assign(new Error('audit service unreachable'), { name: 'AbortError' }); },
  });
  const runner = new InMemoryRunner({ agent, appName: 'app', plugins: [plugin], autoCreateSession: true });
  const error = await rejection(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') }).next());
  assert(error.code === 'ABORTED' && error.message.includes('audit service unreachable'), `${error.code}: ${error.message}`);
});

await test('break out of for await stops the run', async () => {
  const log = [];
  const runner = await setup(slowAgent(log));
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') })) {
    assert(e.content.parts[0].text === 'first');
    break;
  }
  assert(log[0] === 'finally');
  assert((await stored(runner)).events.length === 2);
});

await test('toReadableStream, and a second concurrent run is refused', async () => {
  const log = [];
  const runner = await setup(slowAgent(log));
  const run = runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('x') });
  const reader = run.toReadableStream().getReader();
  assert((await reader.read()).value.content.parts[0].text === 'first');
  const second = await rejection(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('y') }).next());
  assert(second.code === 'FAILED_PRECONDITION', `${second.code} ${second.message}`);
  await reader.cancel();
  assert(log[0] === 'finally');
  const echo = await setup(new Echo({ name: 'echo' }), 's9');
  const all = [];
  const r2 = echo.runAsync({ userId: 'u', sessionId: 's9', newMessage: text('z') }).toReadableStream().getReader();
  for (let s = await r2.read(); !s.done; s = await r2.read()) all.push(s.value);
  assert(all.length === 1);
});

await test('bad runs are typed errors', async () => {
  const runner = await setup(new Echo({ name: 'echo' }));
  assert((await rejection(runner.runAsync({ userId: 'u', sessionId: 'nope', newMessage: text('x') }).next())).code === 'NOT_FOUND');
  assert((await rejection(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: { parts: [] } }).next())).message.includes('No parts'));
  let thrown;
  // @ts-expect-error (no newMessage)
  try { runner.runAsync({ userId: 'u', sessionId: 's1' }); } catch (e) { thrown = e; }
  assert(thrown?.code === 'INVALID_ARGUMENT' && thrown.message.includes('newMessage'), String(thrown?.message));
  let bad;
  try { new SequentialAgent({ name: 'not valid!' }); } catch (e) { bad = e; }
  assert(bad?.code === 'INVALID_ARGUMENT' && bad.message.includes('invalid agent name'));
  try { new SequentialAgent({ name: 'user' }); } catch (e) { bad = e; }
  assert(bad.message.includes('reserved'));
  const auto = new InMemoryRunner({ agent: new Echo({ name: 'echo' }), appName: 'app', autoCreateSession: true });
  assert((await collect(auto.runAsync({ userId: 'u', sessionId: 'fresh', newMessage: text('hi') }))).length === 1);
});

await test('context API: variables, last input/output, artifacts, memory', async () => {
  const agent = new (class extends BaseAgent {
    async *runAsyncImpl(ctx) {
      ctx.setVariable('a', 1);
      ctx.removeVariable('gone');
      const version = await ctx.saveArtifact('note.txt', { text: 'hello' });
      const loaded = await ctx.loadArtifact('note.txt');
      const memories = await ctx.searchMemory('nothing');
      yield reply(JSON.stringify({
        a: ctx.getVariable('a', 0), gone: ctx.getVariable('gone', 'default'), version, loaded,
        lastUser: ctx.getLastUserInput(), keys: await ctx.listArtifacts(), memories: memories.memories.length,
        vars: ctx.variables, parts: ctx.parts().length, sessionId: ctx.sessionId, userId: ctx.userId,
      }));
    }
  })({ name: 'ctxagent' });
  const runner = await setup(agent);
  await runner.sessionService.appendEvent({ session: await stored(runner), event: adk.createEvent({ author: 'user', actions: { stateDelta: { gone: 'here' } } }) });
  const [event] = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('q') }));
  const got = JSON.parse(event.content.parts[0].text);
  assertJsonEqual(got, { a: 1, gone: 'default', version: 0, loaded: { text: 'hello' }, lastUser: [{ text: 'q' }], keys: ['note.txt'],
    memories: 0, vars: { gone: null, a: 1 }, parts: 1, sessionId: 's1', userId: 'u' });
  assertJsonEqual(event.actions.artifactDelta, { 'note.txt': 0 });
  assertJsonEqual(event.actions.stateDelta, { a: 1, gone: null });
});

await test('a Runner over a session service written in JS', async () => {
  const sessions = new Map();
  const service = {
    async createSession({ appName, userId, sessionId }) { const s = { id: sessionId, appName, userId, state: {}, events: [], lastUpdateTime: 0 }; sessions.set(sessionId, s); return s; },
    async getSession({ sessionId }) { return sessions.get(sessionId) ?? null; },
    async listSessions() { return { sessions: [...sessions.values()] }; },
    async deleteSession({ sessionId }) { sessions.delete(sessionId); },
    async appendEvent({ session, event }) { Object.assign(session.state, event.actions.stateDelta); session.events.push(event); return event; },
  };
  const runner = new Runner({ appName: 'app', agent: new Echo({ name: 'echo' }), sessionService: service, autoCreateSession: true });
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 'js', newMessage: text('remote') }));
  assert(events.length === 1);
  assertJsonEqual(sessions.get('js').events.map((e) => e.author), ['user', 'echo']);
  assert(sessions.get('js').state.last_said === 'remote');
});

await test('Transcript folds partial chunks, the final event, tools and state', async () => {
  const t = new Transcript();
  const items = () => json(t.items);
  t.add(adk.createEvent({ author: 'bot', partial: true, content: { role: 'model', parts: [{ text: 'Hel' }] } }));
  t.add(adk.createEvent({ author: 'bot', partial: true, content: { role: 'model', parts: [{ text: 'lo' }] } }));
  assert(items().length === 1 && items()[0].text === 'Hello' && items()[0].partial === true);
  t.add(adk.createEvent({ author: 'bot', content: { role: 'model', parts: [{ text: 'Hello!' }] }, actions: { stateDelta: { 'user:x': 1 } } }));
  assertJsonEqual(items().map((i) => [i.kind, i.text ?? null, i.partial ?? null]), [['message', 'Hello!', false], ['state', null, null]]);
});

await test('memory and artifact services written in JS serve the runner; optional methods missing are UNIMPLEMENTED', async () => {
  const calls = [];
  const files = new Map();
  const memory = {
    addSessionToMemory(session) { calls.push(`remember ${session.id}`); },
    async searchMemory({ appName, userId, query }) { calls.push(`search ${appName}/${userId}/${query}`); return { memories: [{ content: text('kept'), customMetadata: {} }] }; },
  };
  /** @type {adk.BaseArtifactService} */
  const artifacts = {
    async saveArtifact({ filename, artifact }) { const versions = files.get(filename) ?? []; versions.push(artifact); files.set(filename, versions); return versions.length - 1; },
    loadArtifact({ filename, version }) { const versions = files.get(filename) ?? []; return versions[version ?? versions.length - 1] ?? null; },
    listArtifactKeys() { return [...files.keys()].sort(); },
    deleteArtifact({ filename }) { files.delete(filename); },
    listVersions({ filename }) { return (files.get(filename) ?? []).map((_, i) => i); },
  };
  const agent = new (class extends BaseAgent {
    async *runAsyncImpl(ctx) {
      const version = await ctx.saveArtifact('a.txt', { text: 'one' });
      const { memories } = await ctx.searchMemory('kept?');
      const loaded = await ctx.loadArtifact('a.txt');
      yield reply(JSON.stringify({ version, memories: memories.length, loaded, keys: await ctx.listArtifacts() }));
    }
  })({ name: 'files' });
  const runner = new Runner({ appName: 'app', agent, sessionService: adk.SessionService.inMemory(), artifactService: artifacts, memoryService: memory, autoCreateSession: true });
  const [event] = await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('go') }));
  assertJsonEqual(JSON.parse(event.content.parts[0].text), { version: 0, memories: 1, loaded: { text: 'one' }, keys: ['a.txt'] });
  assertJsonEqual(event.actions.artifactDelta, { 'a.txt': 0 });
  assertJsonEqual(calls, ['search app/u/kept?']);
  const wrapped = adk.MemoryService.fromJs(memory);
  await wrapped.addSessionToMemory(await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }));
  assert(calls.at(-1) === 'remember s', calls.at(-1));
  await assertRejectsAdk(wrapped.deleteMemory({ appName: 'app', userId: 'u', memoryId: 'x' }), 'UNIMPLEMENTED', 'memoryService.deleteMemory()');
  await assertRejectsAdk(adk.ArtifactService.fromJs(artifacts).listArtifactVersions({ appName: 'app', userId: 'u', sessionId: 's', filename: 'a.txt' }), 'UNIMPLEMENTED', 'listArtifactVersions');
  // @ts-expect-error (no searchMemory)
  assertThrowsAdk(() => adk.MemoryService.fromJs({ addSessionToMemory() {} }), 'INVALID_ARGUMENT', 'searchMemory');
  // @ts-expect-error (no methods)
  assertThrowsAdk(() => adk.ArtifactService.fromJs({}), 'INVALID_ARGUMENT', 'saveArtifact');
  const failing = adk.ArtifactService.fromJs({ ...artifacts, saveArtifact() { throw Object.assign(new Error('disk full'), { code: 'RESOURCE_EXHAUSTED' }); } });
  await assertRejectsAdk(failing.saveArtifact({ appName: 'app', userId: 'u', sessionId: 's', filename: 'b', artifact: { text: 'x' } }), 'RESOURCE_EXHAUSTED', 'artifactService.saveArtifact(): disk full');
});

await test('a JS session service gets its own session object and the event once; what it changes in the event is kept', async () => {
  const seen = [];
  const service = jsSessionService(({ session, event }) => {
    seen.push(service.sessions.get(session.id) === session);
    if (event.author === 'echo') {
      event.customMetadata = { stored: 'yes' };
      return event;
    }
    session.events.push(event);
    return undefined;
  });
  const runner = new Runner({ appName: 'app', agent: new Echo({ name: 'echo' }), sessionService: service, autoCreateSession: true });
  const [event] = await collect(runner.runAsync({ userId: 'u', sessionId: 'js', newMessage: text('hi') }));
  assertJsonEqual(event.customMetadata, { stored: 'yes' });
  assertJsonEqual(seen, [true, true]);
});

await test('a run over a JS session service yields each event as the service stored it, whatever it answers', async () => {
  // How the service answers: the event as lent, nothing, nothing after changing it in place, or another object.
  const answers = {
    same: (event) => event,
    nothing: () => undefined,
    changed: (event) => { event.customMetadata = { seen: 'in place' }; },
    other: (event) => ({ ...event, customMetadata: { seen: 'a copy' } }),
  };
  const jsService = (answer) => jsSessionService(({ session, event }) => {
    const answered = answer(event);
    session.events.push(answered ?? event);
    return answered;
  });
  const agent = (temp) => ({
    name: 'writer',
    async *runAsyncImpl() {
      for (let i = 0; i < 3; i++) yield { ...reply(`event ${i}`), actions: { stateDelta: temp ? { 'temp:t': i, k: i } : { k: i } } };
    },
  });
  const run = (service, temp) => collect(new Runner({ appName: 'app', agent: agent(temp), sessionService: service, autoCreateSession: true })
    .runAsync({ userId: 'u', sessionId: 's', newMessage: text('go') }));
  for (const [name, answer] of Object.entries(answers)) {
    const service = jsService(answer);
    const events = await run(service);
    assert(events.length === 3, name);
    assertJsonEqual(events, service.sessions.get('s').events.slice(1));
    if (name === 'changed' || name === 'other') assert(events.every((e) => e.customMetadata.seen), name);
  }
  // Nothing answered, temp: keys in the delta: what was stored is the event without them.
  const temp = jsService(answers.nothing);
  const trimmed = await run(temp, true);
  assertJsonEqual(trimmed.map((e) => e.actions.stateDelta), [{ k: 0 }, { k: 1 }, { k: 2 }]);
  assert(temp.sessions.get('s').events[1].actions.stateDelta['temp:t'] === 0);
});

await test('ctx.getSession() and ctx.getEvents() copy the history; the old getters still work', async () => {
  const agent = new (class extends BaseAgent {
    async *runAsyncImpl(ctx) {
      const session = ctx.getSession();
      const same = JSON.stringify(session) === JSON.stringify(ctx.session) && JSON.stringify(ctx.getEvents()) === JSON.stringify(ctx.events);
      yield reply(JSON.stringify({ id: session.id, events: ctx.getEvents().map((e) => e.author), same }));
    }
  })({ name: 'reader' });
  const runner = await setup(agent);
  const [event] = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('q') }));
  assertJsonEqual(JSON.parse(event.content.parts[0].text), { id: 's1', events: ['user'], same: true });
});

await test('a session a JS service hands out again is read as a log: the events after those read, its state and time', async () => {
  const service = jsSessionService(({ session, event }) => {
    Object.assign(session.state, event.actions.stateDelta);
    session.events.push(event);
    session.lastUpdateTime = event.timestamp;
    return event;
  });
  const sessions = service.sessions;
  const seen = [];
  const agent = new (class extends BaseAgent {
    async *runAsyncImpl(ctx) {
      seen.push({ texts: ctx.getEvents().map((e) => e.content?.parts?.[0]?.text), state: ctx.state.toObject() });
      ctx.state.set('turns', (ctx.state.get('turns') ?? 0) + 1);
      yield reply(`turn ${ctx.state.get('turns')}`);
    }
  })({ name: 'counter' });
  const runner = new Runner({ appName: 'app', agent, sessionService: service, autoCreateSession: true });
  for (const t of ['a', 'b']) await collect(runner.runAsync({ userId: 'u', sessionId: 'log', newMessage: text(t) }));
  // The app changes the state and rewrites the history behind the runner's back: a new object is read in full.
  sessions.get('log').state.note = 'set by the app';
  await collect(runner.runAsync({ userId: 'u', sessionId: 'log', newMessage: text('c') }));
  sessions.set('log', { ...sessions.get('log'), events: sessions.get('log').events.slice(-2) });
  await collect(runner.runAsync({ userId: 'u', sessionId: 'log', newMessage: text('d') }));
  assertJsonEqual(seen, [
    { texts: ['a'], state: {} },
    { texts: ['a', 'turn 1', 'b'], state: { turns: 1 } },
    { texts: ['a', 'turn 1', 'b', 'turn 2', 'c'], state: { turns: 2, note: 'set by the app' } },
    { texts: ['c', 'turn 3', 'd'], state: { turns: 3, note: 'set by the app' } },
  ]);
});

await test('an event of one text is the event its JSON text makes, whatever path it takes in', async () => {
  // Each pair: a one-text event, and the same JSON from an object read as JSON (an extra member
  // `JSON.stringify` leaves out). Same members, same order, same values, state included.
  const texts = ['a', 'é "quoted"\n\t😀 \u2028', '', 'lone \ud800 surrogate'];
  const shapes = (t) => [{ content: { role: 'model', parts: [{ text: t }] } }, { content: { parts: [{ text: t }] } }, { content: { parts: [{ text: t }], role: 'x' } }];
  const agent = {
    name: 'shapes',
    async *runAsyncImpl(ctx) {
      for (const t of texts) {
        for (const event of shapes(t)) {
          ctx.state.set('k', t);
          yield event;
          ctx.state.set('k', t);
          yield { ...event, partial: undefined };
        }
      }
    },
  };
  // Under a ParallelAgent, events carry a branch too.
  const runner = await setup(new ParallelAgent({ name: 'par', subAgents: [agent] }));
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 's1', newMessage: text('go') }));
  const bare = (e) => JSON.stringify({ ...e, id: undefined, timestamp: undefined });
  assert(events.length === 2 * texts.length * 3 && events[0].branch === 'par.shapes');
  for (let i = 0; i < events.length; i += 2) assert(bare(events[i]) === bare(events[i + 1]), `${bare(events[i])} != ${bare(events[i + 1])}`);
  const session = await stored(runner);
  assert(JSON.stringify(session.events.slice(1).map(bare)) === JSON.stringify(events.map(bare)));
  // Over the event size limit, either way the same error.
  const defaults = adk.setLimits({});
  try {
    adk.setLimits({ maxEventBytes: 80 });
    const long = 'x'.repeat(60);
    const errors = [];
    for (const event of [reply(long), { ...reply(long), partial: undefined }]) {
      const big = await setup({ name: 'big', async *runAsyncImpl() { yield event; } }, `big${errors.length}`);
      errors.push(await rejection(collect(big.runAsync({ userId: 'u', sessionId: `big${errors.length}`, newMessage: text('go') }))));
    }
    assert(errors[0].code === 'RESOURCE_EXHAUSTED' && errors[0].message === errors[1].message, `${errors[0].message} / ${errors[1].message}`);
  } finally {
    adk.setLimits(defaults);
  }
});

finish();
