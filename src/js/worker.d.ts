// `adk-wasm/worker`: a runner in a module Web Worker, its events streamed to the page.
import type { Event, Runner, RunAsyncRequest } from './index.js';

/** Something that carries messages both ways: a `Worker`, a worker's global scope, a `MessagePort`. */
export interface MessageCarrier {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/**
 * In the worker: serves `runner`'s runs to the page over `port` (by default the worker's global
 * scope). Each run stops when the page aborts or leaves it. Returns a function that stops serving.
 */
export declare function serveRunner(runner: Pick<Runner, 'runAsync'>, port?: MessageCarrier): () => void;

/** A run in the worker, as the page reads it: its events (plain JSON), `break` or the signal stop it. */
export interface WorkerRun extends AsyncIterableIterator<Event> {
  next(): Promise<IteratorResult<Event, undefined>>;
  return(): Promise<IteratorResult<Event, undefined>>;
}

/**
 * In the page: runs of the runner the worker serves. `signal` rejects a pending `next()` with its
 * reason (an `AbortError`) and stops the run in the worker; an error there rejects with an `Error`
 * carrying its `name`, `code` and `httpStatus`. The page needs no wasm for this.
 */
export declare function connectRunner(worker: MessageCarrier): {
  runAsync(request: RunAsyncRequest): WorkerRun;
};
