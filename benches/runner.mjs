// The runner, side by side with @google/adk (npm) in one Node process. Run with `make bench`
// (builds pkg/ first; Node runs with --expose-gc so that every sample starts from a collected heap).
//
// 1. Throughput: a JS agent yields 1 000 small text events per run through InMemoryRunner, fresh
//    session per run; samples alternate between the two libraries; the ratio is the median of the
//    per-sample ratios.
// 2. History: one run on a session that already holds 0, 1 000, 10 000 and 100 000 events: a
//    run's cost must not grow with the history it does not read.
// 3. A session service written in JS: the throughput of 1, each library's runner over the same
//    plain JS object (a Map of sessions), so every event crosses to the app's own storage; then
//    one run on such a session already holding 0, 10 000 and 100 000 events.
// 4. A JS beforeModelCallback: an LlmAgent over a JS model on a session holding 200 turns, one
//    model call per run, with and without a callback that reads the request.
// (wasm memory over many runs is measured in a browser tab, by benches/browser.mjs.)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import * as ours from '../pkg/index.js';
import * as theirs from '@google/adk';

const gc = globalThis.gc ?? (() => {});
ours.initSync({ module: readFileSync(new URL('../pkg/adk_wasm_bg.wasm', import.meta.url)) });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const message = { role: 'user', parts: [{ text: 'go' }] };

function ourAgent(eventsPerRun) {
  return new (class extends ours.BaseAgent {
    async *runAsyncImpl() {
      for (let i = 0; i < eventsPerRun; i++) yield { content: { role: 'model', parts: [{ text: `event ${i}` }] } };
    }
  })({ name: 'bench' });
}

function theirAgent(eventsPerRun) {
  return new (class extends theirs.BaseAgent {
    async *runAsyncImpl(ctx) {
      for (let i = 0; i < eventsPerRun; i++) {
        yield theirs.createEvent({ invocationId: ctx.invocationId, author: this.name, content: { role: 'model', parts: [{ text: `event ${i}` }] } });
      }
    }
    async *runLiveImpl() {}
  })({ name: 'bench' });
}

/** One run on `sessionId`; returns how many events it yielded. */
async function run(runner, sessionId) {
  let n = 0;
  for await (const _ of runner.runAsync({ userId: 'u', sessionId, newMessage: message })) n++;
  return n;
}

/** Events per second of `runs` runs of `runner`, each on a fresh session unless `sessionId` is given. */
async function sample(runner, runs, eventsPerRun, sessionId) {
  gc();
  const t = performance.now();
  for (let r = 0; r < runs; r++) {
    let id = sessionId;
    if (!id) {
      id = `s${r}`;
      await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: id });
    }
    const n = await run(runner, id);
    if (n !== eventsPerRun) throw new Error(`${n} events, expected ${eventsPerRun}`);
  }
  return (runs * eventsPerRun) / ((performance.now() - t) / 1000);
}

const libraries = {
  'adk-wasm': (events) => new ours.InMemoryRunner({ agent: ourAgent(events), appName: 'bench' }),
  '@google/adk': (events) => new theirs.InMemoryRunner({ agent: theirAgent(events), appName: 'bench' }),
};

async function throughput() {
  const EVENTS = 1000;
  const RUNS = 5;
  const SAMPLES = 15;
  // Each sample on a new runner: neither library's retained sessions weigh on the other's samples.
  for (const make of Object.values(libraries)) await sample(make(EVENTS), 1, EVENTS); // warm-up
  const rates = { 'adk-wasm': [], '@google/adk': [] };
  for (let s = 0; s < SAMPLES; s++) {
    const order = s % 2 ? ['@google/adk', 'adk-wasm'] : ['adk-wasm', '@google/adk'];
    for (const name of order) rates[name].push(await sample(libraries[name](EVENTS), RUNS, EVENTS));
  }
  const ratios = rates['adk-wasm'].map((r, i) => r / rates['@google/adk'][i]);
  console.log(`1. InMemoryRunner, a JS agent yielding ${EVENTS} text events per run, ${RUNS} runs (fresh sessions) x ${SAMPLES} interleaved samples, Node ${process.version}`);
  for (const [name, values] of Object.entries(rates)) {
    console.log(`   ${name.padEnd(12)} ${Math.round(median(values)).toString().padStart(7)} events/s  (min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))})`);
  }
  console.log(`   ratio adk-wasm / @google/adk: ${median(ratios).toFixed(2)} (median of per-sample ratios; min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)})`);
}

async function history() {
  const EVENTS = 1000;
  // @google/adk's in-memory service costs O(history) per appended event, so past 10 000 stored
  // events its runs take minutes; it is measured up to there.
  const THEIRS_UP_TO = 10000;
  console.log(`2. One run of ${EVENTS} events on a session that already holds N events (events/s; adk-wasm median of 5 runs, @google/adk one run)`);
  console.log(`   ${'N'.padStart(7)} ${'adk-wasm'.padStart(9)} ${'@google/adk'.padStart(12)}`);
  for (const stored of [0, 1000, 10000, 100000]) {
    const cells = [];
    for (const [name, lib, agent] of [['adk-wasm', ours, ourAgent], ['@google/adk', theirs, theirAgent]]) {
      if (name === '@google/adk' && stored > THEIRS_UP_TO) {
        cells.push('-');
        continue;
      }
      const runner = libraries[name](EVENTS);
      const sessionId = `history-${stored}`;
      await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId });
      if (stored) {
        const filler = new lib.Runner({ appName: 'bench', agent: agent(stored - 1), sessionService: runner.sessionService });
        await run(filler, sessionId); // the user message and stored - 1 events
      }
      const values = [];
      for (let s = 0; s < (name === 'adk-wasm' ? 5 : 1); s++) values.push(await sample(runner, 1, EVENTS, sessionId));
      cells.push(Math.round(median(values)));
    }
    console.log(`   ${String(stored).padStart(7)} ${String(cells[0]).padStart(9)} ${String(cells[1]).padStart(12)}`);
  }
}

/** A session service written in JS, as an app keeping sessions on its own would write it. */
function jsSessionService() {
  const sessions = new Map();
  return {
    createSession({ appName, userId, sessionId, state }) {
      const s = { id: sessionId, appName, userId, state: state ?? {}, events: [], lastUpdateTime: 0 };
      sessions.set(sessionId, s);
      return s;
    },
    getSession({ sessionId }) { return sessions.get(sessionId) ?? null; },
    listSessions() { return { sessions: [...sessions.values()] }; },
    deleteSession({ sessionId }) { sessions.delete(sessionId); },
    appendEvent({ session, event }) {
      if (event.partial) return event;
      Object.assign(session.state, event.actions?.stateDelta);
      session.events.push(event);
      session.lastUpdateTime = event.timestamp;
      return event;
    },
  };
}

/** Median events/s of each library over interleaved samples; prints them and their ratio. */
async function sideBySide(title, make, runs, eventsPerRun, samples) {
  for (const m of Object.values(make)) await sample(m(), 1, eventsPerRun); // warm-up
  const rates = Object.fromEntries(Object.keys(make).map((k) => [k, []]));
  for (let s = 0; s < samples; s++) {
    const order = s % 2 ? Object.keys(make).reverse() : Object.keys(make);
    for (const name of order) rates[name].push(await sample(make[name](), runs, eventsPerRun));
  }
  const [a, b] = Object.keys(make);
  const ratios = rates[a].map((r, i) => r / rates[b][i]);
  console.log(title);
  for (const [name, values] of Object.entries(rates)) {
    console.log(`   ${name.padEnd(12)} ${Math.round(median(values)).toString().padStart(7)} events/s  (min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))})`);
  }
  console.log(`   ratio ${a} / ${b}: ${median(ratios).toFixed(2)} (median of per-sample ratios; min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)})`);
}

async function jsSessions() {
  const EVENTS = 1000;
  await sideBySide(`3. Runner over a session service written in JS, a JS agent yielding ${EVENTS} events per run, 5 runs x 11 samples`, {
    'adk-wasm': () => new ours.Runner({ appName: 'bench', agent: ourAgent(EVENTS), sessionService: jsSessionService() }),
    '@google/adk': () => new theirs.Runner({ appName: 'bench', agent: theirAgent(EVENTS), sessionService: jsSessionService() }),
  }, 5, EVENTS, 11);
  console.log(`   one run of ${EVENTS} events on a session of N stored events (events/s, median of 5 runs): N adk-wasm @google/adk`);
  for (const stored of [0, 10000, 100000]) {
    const cells = [];
    for (const [lib, agent] of [[ours, ourAgent], [theirs, theirAgent]]) {
      const sessionService = jsSessionService();
      const runner = new lib.Runner({ appName: 'bench', agent: agent(EVENTS), sessionService });
      await sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: 'h' });
      if (stored) await run(new lib.Runner({ appName: 'bench', agent: agent(stored - 1), sessionService }), 'h');
      const values = [];
      for (let s = 0; s < 5; s++) values.push(await sample(runner, 1, EVENTS, 'h'));
      cells.push(Math.round(median(values)));
    }
    console.log(`   ${String(stored).padStart(7)} ${String(cells[0]).padStart(9)} ${String(cells[1]).padStart(12)}`);
  }
}

const answer = { content: { role: 'model', parts: [{ text: 'ok' }] } };
class TheirModel extends theirs.BaseLlm {
  async *generateContentAsync() { yield answer; }
  async connect() { throw new Error('not live'); }
}

/** A runner over one LlmAgent answering every turn, on session `s0` already holding `turns` turns. */
async function modelRunner(lib, callback, turns) {
  const options = { name: 'bench', instruction: 'Answer.' };
  if (callback) options.beforeModelCallback = callback;
  const agent = lib === ours
    ? new ours.LlmAgent({ ...options, model: { model: 'bench', generateContent: () => answer } })
    : new theirs.LlmAgent({ ...options, model: new TheirModel({ model: 'bench' }) });
  const runner = new lib.InMemoryRunner({ agent, appName: 'bench' });
  await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: 's0' });
  for (let t = 0; t < turns; t++) await run(runner, 's0');
  return runner;
}

async function callbacks() {
  const TURNS = 200;
  const RUNS = 20;
  const reads = ({ request }) => {
    if (request.contents.length === 0) throw new Error('no contents');
  };
  console.log(`4. An LlmAgent over a JS model, one model call per run on a session of ${TURNS} turns, ${RUNS} runs x 7 samples (model calls/s)`);
  const rates = {};
  for (const [name, lib] of [['adk-wasm', ours], ['@google/adk', theirs]]) {
    for (const callback of [null, reads]) {
      const runner = await modelRunner(lib, callback, TURNS);
      const values = [];
      for (let s = 0; s < 7; s++) values.push(await sample(runner, RUNS, 1, 's0'));
      rates[`${name}${callback ? ' + callback' : ''}`] = median(values);
    }
  }
  for (const [name, rate] of Object.entries(rates)) console.log(`   ${name.padEnd(24)} ${Math.round(rate).toString().padStart(6)} calls/s`);
  console.log(`   the callback costs adk-wasm ${((1 - rates['adk-wasm + callback'] / rates['adk-wasm']) * 100).toFixed(0)} % and @google/adk ${((1 - rates['@google/adk + callback'] / rates['@google/adk']) * 100).toFixed(0)} %; with it, adk-wasm / @google/adk: ${(rates['adk-wasm + callback'] / rates['@google/adk + callback']).toFixed(2)}`);
}

const only = process.argv[2];
if (!only || only === 'throughput') await throughput();
if (!only || only === 'history') await history();
if (!only || only === 'js-sessions') await jsSessions();
if (!only || only === 'callbacks') await callbacks();
