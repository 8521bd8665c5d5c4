// What both entries share (`adk-wasm` and `adk-wasm/a2a`): loading the module, the event model,
// the stream wrapper (async iterable, ReadableStream, AbortSignal) and the A2A client. `index.js`
// adds agents, models, tools, services and runners; `a2a/index.js` re-exports this file alone.
import initWasm, * as wasm from './adk_wasm.js';

let ready = false;

/** Loads the WebAssembly module; by default from `adk_wasm_bg.wasm` next to this file. */
export default async function init(moduleOrPath) {
  const exports = await initWasm(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath });
  ready = true;
  return exports;
}

/** Loads the WebAssembly module synchronously from its bytes or a compiled module. */
export function initSync(module) {
  const exports = wasm.initSync(module);
  ready = true;
  return exports;
}

export function adkError(code, message) {
  return Object.assign(new Error(message), { name: 'AdkError', code });
}

/** A clear error instead of wasm-bindgen's "reading properties of undefined" when init() was skipped. */
export function needWasm(what) {
  if (!ready) throw adkError('FAILED_PRECONDITION', `${what}: adk-wasm is not initialised yet; call \`await init()\` first`);
}

export const parseEvent = wasm.parseEvent;
export const eventToJson = wasm.eventToJson;
export const createEvent = wasm.createEvent;
export const isFinalResponse = wasm.isFinalResponse;
export const getFunctionCalls = wasm.getFunctionCalls;
export const getFunctionResponses = wasm.getFunctionResponses;
export const hasTrailingCodeExecutionResult = wasm.hasTrailingCodeExecutionResult;
export const isUser = wasm.isUser;
export const isAgent = wasm.isAgent;
export const hasError = wasm.hasError;

export const Part = Object.freeze({
  fromText: wasm.partFromText,
  fromFunctionCall: wasm.partFromFunctionCall,
  fromFunctionResponse: wasm.partFromFunctionResponse,
  fromInlineData: wasm.partFromInlineData,
  fromJson: wasm.partFromJson,
  fromAgentTransfer: wasm.partFromAgentTransfer,
  fromEndSession: (options) => wasm.partFromEndSession(options.reason, options.escalated ?? false),
});


export const LlmResponse = Object.freeze({
  fromParts: wasm.llmResponseFromParts,
});

function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError', code: 'ABORTED' });
}

/** A run in progress: an async iterable of events (`for await`, `break` stops it), with `toReadableStream()`. */
export class Run {
  #handle;
  /** The last pending `next()`, so that concurrent calls are served in order; null when idle. */
  #queue = null;
  #done = false;
  #signal;
  #onAbort;
  /** Stopped by the signal: every later `next()` rejects with its reason, as a fetch body's reader does. */
  #aborted = false;
  /** Items received in the last batch and not handed out yet. */
  #ready = [];

  constructor(handle, signal) {
    this.#handle = handle;
    this.#signal = signal;
    if (signal) {
      this.#onAbort = () => {
        this.#aborted = true;
        this.cancel();
      };
      if (signal.aborted) this.#onAbort();
      else signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /** The next event; `{done: true}` at the end. Calls are served one at a time. */
  next() {
    // Items already received go out at once: nothing is pending, so nothing can be overtaken.
    if (this.#queue === null && this.#ready.length) return Promise.resolve({ value: this.#ready.shift(), done: false });
    const step = this.#queue === null ? this.#step() : this.#queue.then(() => this.#step());
    const settled = step.then(() => {}, () => {});
    this.#queue = settled;
    settled.then(() => {
      if (this.#queue === settled) this.#queue = null;
    });
    return step;
  }

  async #step() {
    if (this.#done) {
      if (this.#aborted) throw abortError(this.#signal);
      return { value: undefined, done: true };
    }
    if (this.#ready.length) return { value: this.#ready.shift(), done: false };
    try {
      // The handle gives every item that is ready at once; they are handed out one by one.
      const batch = await new Promise((resolve, reject) => this.#handle.next(resolve, reject));
      if (batch.length === 0) {
        this.#finish();
        return { value: undefined, done: true };
      }
      this.#ready = batch;
      return { value: this.#ready.shift(), done: false };
    } catch (e) {
      this.#finish();
      if (e?.code === 'ABORTED') throw abortError(this.#signal);
      throw e;
    }
  }

  /** Stops the run (what `break` in `for await` calls). */
  async return(value) {
    this.cancel();
    return { value, done: true };
  }

  /** Stops the run at once; nothing more is written to the session. */
  cancel() {
    if (this.#done) return;
    this.#handle.cancel();
    this.#finish();
  }

  #finish() {
    this.#done = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** The events as a `ReadableStream`; cancelling the stream stops the run. */
  toReadableStream() {
    return new ReadableStream({
      pull: async (controller) => {
        try {
          const { value, done } = await this.next();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (e) {
          controller.error(e);
        }
      },
      cancel: () => this.cancel(),
    }, { highWaterMark: 0 });
  }
}

/** An A2A stream in progress: an async iterable of stream responses, with `toReadableStream()`. */
export class A2AStream extends Run {}

// ---------------------------------------------------------------------------------------------
// A2A.

/** Where an `A2AClient` keeps its wasm handle (a `RemoteA2aAgent` takes the client's). */
export const CLIENT = Symbol('adk-wasm A2A client handle');

/** A client of one remote A2A agent: protocol 1.0 or 0.3, JSON-RPC or HTTP+JSON, as its card allows. */
export class A2AClient {
  /** Reads the agent card at `url` (the agent's base URL, or the card's own URL) and picks an interface. */
  static async fromCardUrl(url, options = {}) {
    needWasm('A2AClient');
    return new A2AClient(await wasm.A2AClientHandle.fromCardUrl(url, options));
  }

  /** A client for the agent a card object describes. */
  static fromCard(card, options = {}) {
    needWasm('A2AClient');
    return new A2AClient(wasm.A2AClientHandle.fromCard(card, options));
  }

  constructor(handle) {
    if (!(handle instanceof wasm.A2AClientHandle)) {
      throw adkError('INVALID_ARGUMENT', 'A2AClient: use A2AClient.fromCardUrl(url) or A2AClient.fromCard(card)');
    }
    this[CLIENT] = handle;
  }

  get card() { return this[CLIENT].card; }
  get protocolVersion() { return this[CLIENT].protocolVersion; }
  get binding() { return this[CLIENT].binding; }
  get url() { return this[CLIENT].url; }

  sendMessage(params) { return this[CLIENT].sendMessage(params); }
  sendMessageStream(params, { signal } = {}) { return new A2AStream(this[CLIENT].sendMessageStream(params), signal); }
  getTask(id, { historyLength } = {}) { return this[CLIENT].getTask(id, historyLength); }
  cancelTask(id) { return this[CLIENT].cancelTask(id); }
  subscribeToTask(id, { signal } = {}) { return new A2AStream(this[CLIENT].subscribeToTask(id), signal); }
  listTasks(params) { return this[CLIENT].listTasks(params); }
}
