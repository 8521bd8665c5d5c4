// @ts-check
// A WebAssembly instance that traps must say so: forced here with a real out-of-memory (an event
// whose decoding outgrows the 4 GiB of wasm memory), with another run pending.
// Its own page: the instance cannot be used after this.
import init, * as adk from '/pkg/index.js';
import { assert, assertThrowsAdk, finish, rejection, test } from './harness.js';

await init();
const { InMemoryRunner, BaseAgent } = adk;

const text = (t) => ({ role: 'user', parts: [{ text: t }] });

await test('a trap rejects every pending promise and every later call with FAILED_PRECONDITION; onFatal hears it once', async () => {
  const heard = [];
  adk.onFatal((e) => heard.push(e));
  const unsubscribed = [];
  adk.onFatal((e) => unsubscribed.push(e))();

  // A run waiting on its JS agent, which never answers.
  class Waiting extends BaseAgent {
    async *runAsyncImpl() {
      await new Promise(() => {});
    }
  }
  const waiting = new InMemoryRunner({ agent: new Waiting({ name: 'waiting' }), appName: 'app', autoCreateSession: true });
  const pending = waiting.runAsync({ userId: 'u', sessionId: 'w', newMessage: text('wait') }).next();

  // A run whose JS agent yields an event of 8 million empty parts: 24 MB of JSON, but each part is
  // a few hundred bytes in wasm memory: more than 4 GiB (maxEventBytes and maxJsonExpansion, which
  // refuse it, are lifted here).
  const empty = {};
  class Hostile extends BaseAgent {
    async *runAsyncImpl() {
      yield { content: { role: 'model', parts: new Array(8_000_000).fill(empty) } };
    }
  }
  const runner = new InMemoryRunner({ agent: new Hostile({ name: 'hostile' }), appName: 'app', autoCreateSession: true });
  adk.setLimits({ maxEventBytes: 2 ** 30, maxJsonExpansion: 2 ** 20 });
  const error = await rejection((async () => {
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('go') }));
  })());
  assert(error.name === 'AdkError' && error.code === 'FAILED_PRECONDITION', `${error.name} ${error.code}: ${error.message}`);
  assert(error.message.startsWith('the WebAssembly instance stopped: '), error.message);
  assert(error.cause instanceof WebAssembly.RuntimeError, `cause: ${error.cause}`);
  const other = await rejection(pending);
  assert(other.code === 'FAILED_PRECONDITION', `the pending run: ${other.code}: ${other.message}`);
  assert(heard.length === 1 && heard[0].code === 'FAILED_PRECONDITION', `onFatal: ${heard.length}`);
  assert(unsubscribed.length === 0, 'an unsubscribed listener is not called');

  assertThrowsAdk(() => adk.createEvent({ author: 'a' }), 'FAILED_PRECONDITION', 'the WebAssembly instance stopped');
  const later = await rejection((async () => waiting.sessionService.createSession({ appName: 'app', userId: 'u' }))());
  assert(later.code === 'FAILED_PRECONDITION', `createSession after: ${later.code}: ${later.message}`);
  const late = await new Promise((resolve) => adk.onFatal(resolve));
  assert(late === heard[0], 'a listener added after the stop hears it at once');
});

finish();
