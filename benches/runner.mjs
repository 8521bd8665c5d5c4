// Events per second through InMemoryRunner: adk-wasm (the release pkg/) against @google/adk (npm),
// in one Node process, each with a JS agent yielding N small text events per run.
// Run with `make bench` (builds pkg/ first). Prints the medians and their ratio.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import * as ours from '../pkg/index.js';
import * as theirs from '@google/adk';

const EVENTS_PER_RUN = 1000;
const RUNS_PER_SAMPLE = 5;
const SAMPLES = 7;

ours.initSync({ module: readFileSync(new URL('../pkg/adk_wasm_bg.wasm', import.meta.url)) });

class OurAgent extends ours.BaseAgent {
  async *runAsyncImpl() {
    for (let i = 0; i < EVENTS_PER_RUN; i++) yield { content: { role: 'model', parts: [{ text: `event ${i}` }] } };
  }
}

class TheirAgent extends theirs.BaseAgent {
  async *runAsyncImpl(ctx) {
    for (let i = 0; i < EVENTS_PER_RUN; i++) {
      yield theirs.createEvent({ invocationId: ctx.invocationId, author: this.name, content: { role: 'model', parts: [{ text: `event ${i}` }] } });
    }
  }
  async *runLiveImpl() {}
}

/** Median events/s over SAMPLES samples of RUNS_PER_SAMPLE runs, each on a fresh session. */
async function measure(label, runner) {
  let session = 0;
  const runOnce = async () => {
    const sessionId = `s${session++}`;
    await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId });
    let n = 0;
    for await (const _ of runner.runAsync({ userId: 'u', sessionId, newMessage: { role: 'user', parts: [{ text: 'go' }] } })) n++;
    if (n !== EVENTS_PER_RUN) throw new Error(`${label}: ${n} events, expected ${EVENTS_PER_RUN}`);
  };
  await runOnce(); // warm-up
  const rates = [];
  for (let s = 0; s < SAMPLES; s++) {
    const t = performance.now();
    for (let r = 0; r < RUNS_PER_SAMPLE; r++) await runOnce();
    rates.push((EVENTS_PER_RUN * RUNS_PER_SAMPLE) / ((performance.now() - t) / 1000));
  }
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(SAMPLES / 2)];
  console.log(`${label.padEnd(12)} ${Math.round(median).toString().padStart(9)} events/s  (min ${Math.round(rates[0])}, max ${Math.round(rates.at(-1))})`);
  return median;
}

console.log(`InMemoryRunner, a JS agent yielding ${EVENTS_PER_RUN} text events per run, ${RUNS_PER_SAMPLE} runs x ${SAMPLES} samples, Node ${process.version}`);
const a = await measure('adk-wasm', new ours.InMemoryRunner({ agent: new OurAgent({ name: 'bench' }), appName: 'bench' }));
const b = await measure('@google/adk', new theirs.InMemoryRunner({ agent: new TheirAgent({ name: 'bench' }), appName: 'bench' }));
console.log(`ratio adk-wasm / @google/adk: ${(a / b).toFixed(2)}`);
