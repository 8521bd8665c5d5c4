// `adk-wasm/worker`: a runner in a module Web Worker, its events streamed to the page. In the worker,
// `serveRunner(runner)` answers run requests; in the page, `connectRunner(worker).runAsync(request)`
// is a run as `Runner.runAsync` gives one (`for await`, `break`, `signal`). The page side loads no
// wasm: the worker holds the package, the page holds events (plain JSON, as `Event`s are).
// Messages: {type: 'adk-wasm/run', id, request} and {type: 'adk-wasm/abort', id} to the worker;
// {type: 'adk-wasm/event' | 'adk-wasm/end' | 'adk-wasm/error', id, …} back.

const RUN = 'adk-wasm/run';
const ABORT = 'adk-wasm/abort';
const EVENT = 'adk-wasm/event';
const END = 'adk-wasm/end';
const ERROR = 'adk-wasm/error';

/**
 * Serves `runner`'s runs to the page over `port` (the worker's global scope, or a MessagePort). Each
 * run stops when the page aborts or leaves it. Returns a function that stops serving.
 */
export function serveRunner(runner, port = globalThis) {
  const running = new Map();
  const listener = async ({ data }) => {
    if (data?.type === ABORT) {
      running.get(data.id)?.abort();
      return;
    }
    if (data?.type !== RUN) return;
    const controller = new AbortController();
    running.set(data.id, controller);
    try {
      for await (const event of runner.runAsync({ ...data.request, signal: controller.signal })) {
        port.postMessage({ type: EVENT, id: data.id, event });
      }
      port.postMessage({ type: END, id: data.id });
    } catch (e) {
      const error = { name: e?.name, code: e?.code, httpStatus: e?.httpStatus, message: String(e?.message ?? e) };
      port.postMessage({ type: ERROR, id: data.id, error });
    } finally {
      running.delete(data.id);
    }
  };
  port.addEventListener('message', listener);
  port.start?.();
  return () => port.removeEventListener('message', listener);
}

// Run ids unique in the page: two connections to one worker share its messages, and each serves
// only its own ids (another copy of this module draws another prefix).
const ids = `${Math.random().toString(36).slice(2)}-`;
let nextId = 0;

/** The page's side: runs of the runner a worker (or the other end of a MessagePort) serves. */
export function connectRunner(worker) {
  // A MessagePort delivers nothing to `addEventListener` listeners until started (only its
  // `onmessage` setter starts it); a Worker has no `start`.
  worker.start?.();
  // A worker whose script could not be loaded fires a plain `error` (an uncaught exception in a
  // running one, an ErrorEvent with a `message`, leaves it serving): its runs fail, and every later
  // one. A message that could not be read fires `messageerror`: the runs under way lost an event.
  const live = new Set();
  let broken;
  const onBroken = (event) => {
    if ('message' in event) return;
    const failed = event.type === 'error';
    const error = Object.assign(new Error(`adk-wasm/worker: the worker ${failed ? 'could not start' : 'sent a message that could not be read'}`), { name: 'AdkError', code: 'UNAVAILABLE' });
    if (failed) broken = error;
    for (const fail of live) fail(error);
  };
  worker.addEventListener('error', onBroken);
  worker.addEventListener('messageerror', onBroken);
  return {
    /** A run of `request` in the worker; `signal` (or `abortSignal`) and `break` stop it there. */
    runAsync(request) {
      const { signal: given, abortSignal, ...rest } = request;
      const signal = given ?? abortSignal;
      const id = ids + nextId++;
      const queue = [];
      const waiting = [];
      let done = false;
      let failure;
      const settle = () => {
        while (waiting.length && (queue.length || done)) {
          const { resolve, reject } = waiting.shift();
          if (queue.length) resolve({ value: queue.shift(), done: false });
          else if (failure) reject(failure);
          else resolve({ value: undefined, done: true });
        }
      };
      const finish = (error) => {
        if (done) return;
        done = true;
        failure = error;
        live.delete(finish);
        worker.removeEventListener('message', onMessage);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const onMessage = ({ data }) => {
        if (data?.id !== id) return;
        if (data.type === EVENT) queue.push(data.event);
        else if (data.type === END) return finish();
        else if (data.type === ERROR) return finish(Object.assign(new Error(data.error.message), data.error));
        settle();
      };
      const onAbort = () => {
        worker.postMessage({ type: ABORT, id });
        queue.length = 0;
        finish(signal.reason ?? new DOMException('The run was aborted.', 'AbortError'));
      };
      worker.addEventListener('message', onMessage);
      live.add(finish);
      if (broken) finish(broken);
      else if (signal?.aborted) onAbort();
      else {
        signal?.addEventListener('abort', onAbort, { once: true });
        // A request that cannot be copied to the worker (a function in it) fails the run, which
        // then leaves no listener behind.
        try {
          worker.postMessage({ type: RUN, id, request: rest });
        } catch (e) {
          finish(e);
        }
      }
      return {
        next: () => new Promise((resolve, reject) => {
          waiting.push({ resolve, reject });
          settle();
        }),
        return: async () => {
          if (!done) {
            worker.postMessage({ type: ABORT, id });
            finish();
          }
          // What had arrived and was not read goes with the run.
          queue.length = 0;
          return { value: undefined, done: true };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
  };
}
