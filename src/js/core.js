// What every entry shares (`adk-wasm`, `adk-wasm/a2a`, `adk-wasm/server`): loading the module, the
// event model and the stream wrapper (async iterable, ReadableStream, AbortSignal). `a2a.js` adds the
// A2A client, `adk-server.js` the client of an ADK server, `index.js` everything else.
import initWasm, * as wasm from './adk_wasm.js';
import { alive } from './fatal.js';

let ready = false;

/**
 * Loads the WebAssembly module; by default from `adk_wasm_bg.wasm` next to this file. Takes
 * wasm-bindgen's own `{ module_or_path }` form too, as bundler guides write it.
 */
export default async function init(moduleOrPath) {
  const bindgenForm = moduleOrPath !== null && typeof moduleOrPath === 'object' && 'module_or_path' in moduleOrPath;
  const exports = await initWasm(moduleOrPath === undefined || bindgenForm ? moduleOrPath : { module_or_path: moduleOrPath });
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

// The event model's calls are one wasm export, told apart by number (each export costs a shim and
// a wrapper): src/js/events.rs's numbers.
const MODEL = {
  parse: 0, toJson: 1, functionCalls: 2, functionResponses: 3, isAgent: 4, isFinalResponse: 5, isUser: 6,
  hasTrailingCodeExecutionResult: 7, hasError: 8, args: 9, response: 10, fromParts: 11, getLimits: 12, setLimits: 13,
};
export const setLimits = (changes) => wasm.eventModel(MODEL.setLimits, changes);
export const getLimits = () => wasm.eventModel(MODEL.getLimits);
export const parseEvent = (input) => wasm.eventModel(MODEL.parse, input);
export const eventToJson = (input) => wasm.eventModel(MODEL.toJson, input);
export const createEvent = (init) => wasm.eventModel(MODEL.parse, init);
export const getFunctionCalls = (input) => wasm.eventModel(MODEL.functionCalls, input);
export const getFunctionResponses = (input) => wasm.eventModel(MODEL.functionResponses, input);

// ADK's boolean predicates, read off the event as it is (nothing crosses into wasm for a boolean);
// what is not an object with a string `author`, or throws when read, is decoded in wasm instead.
function predicate(inWasm, inJs) {
  return (event, ...rest) => {
    try {
      if (event !== null && typeof event === 'object' && typeof event.author === 'string') return inJs(event, ...rest);
    } catch {}
    return inWasm(event, ...rest);
  };
}
const partsOf = (e) => (Array.isArray(e.content?.parts) ? e.content.parts : []);
const hasPart = (e, kind) => partsOf(e).some((p) => p?.[kind] != null);
const errorIn = (e) => typeof e.errorCode === 'string' && e.errorCode !== '';
const trailingCode = (e) => partsOf(e).at(-1)?.codeExecutionResult != null;

// ADK's tests in wasm, for events that are not plain objects.
const inWasm = (test) => (event, agentName) => wasm.eventModel(MODEL[test], event, agentName);
export const hasError = predicate(inWasm('hasError'), errorIn);
export const isUser = predicate(inWasm('isUser'), (e) => e.author === 'user');
export const hasTrailingCodeExecutionResult = predicate(inWasm('hasTrailingCodeExecutionResult'), trailingCode);
const isAgentInWasm = inWasm('isAgent');
export const isAgent = predicate(isAgentInWasm, (e, name) => {
  if (name !== undefined && name !== null && typeof name !== 'string') return isAgentInWasm(e, name);
  return e.author !== 'user' && (name === undefined || name === null || e.author === name);
});
export const isFinalResponse = predicate(inWasm('isFinalResponse'), (e) => {
  if (e.actions?.skipSummarization === true || (Array.isArray(e.longRunningToolIds) && e.longRunningToolIds.length)) return true;
  const partial = e.partial === true;
  const calls = hasPart(e, 'functionCall');
  if (errorIn(e) && !partial && !calls) return true;
  return !calls && !hasPart(e, 'functionResponse') && !partial && !trailingCode(e);
});

// The factories build the part in JS, as `Part::from_*` in Rust builds it (same keys in the same
// order, strings made well-formed as the copy into wasm makes them, the same errors): only the
// objects a function call or response carries are checked and normalised in wasm.
const wellFormed = (text) => text.replace(/[\ud800-\udfff]/gu, '\ufffd');
function string(what, value) {
  if (typeof value !== 'string') throw adkError('INVALID_ARGUMENT', `${what}: expected a string`);
  return wellFormed(value);
}

/** The URL-safe base64 (padded) of `bytes`, as the event model writes blob data. */
function base64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
/** [`base64Url`] of `text`'s UTF-8 bytes. */
export const textBase64Url = (text) => base64Url(new TextEncoder().encode(text));

const call = (name, args) => ({ functionCall: { args, name } });
export const Part = Object.freeze({
  fromText: (text) => ({ text: string('Part.fromText text', text) }),
  fromFunctionCall(name, args) {
    name = string('Part.fromFunctionCall name', name);
    return call(name, args === undefined ? {} : wasm.eventModel(MODEL.args, args));
  },
  fromFunctionResponse(name, response) {
    name = string('Part.fromFunctionResponse name', name);
    return { functionResponse: { name, response: wasm.eventModel(MODEL.response, response) } };
  },
  fromInlineData(data, mimeType) {
    if (!(data instanceof Uint8Array)) throw adkError('INVALID_ARGUMENT', 'Part.fromInlineData data: expected a Uint8Array');
    return { inlineData: { data: base64Url(data), mimeType: string('Part.fromInlineData mimeType', mimeType) } };
  },
  fromJson: (data) => ({ inlineData: { data: textBase64Url(string('Part.fromJson data', data)), mimeType: 'application/json' } }),
  fromAgentTransfer: (agent) => call('transfer_to_agent', { agent_name: string('Part.fromAgentTransfer agent', agent) }),
  fromEndSession(options) {
    const reason = options.reason, escalated = Boolean(options.escalated);
    return call('end_session', { reason: string('Part.fromEndSession reason', reason), escalated });
  },
});

export const LlmResponse = Object.freeze({
  fromParts: (parts) => wasm.eventModel(MODEL.fromParts, parts),
});

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
    const idle = () => {
      if (this.#queue === settled) this.#queue = null;
    };
    const settled = step.then(idle, idle);
    this.#queue = settled;
    return step;
  }

  async #step() {
    if (this.#done) {
      // Stopped by the signal: its reason, whatever it is, as `fetch` rejects.
      if (this.#aborted) throw this.#signal.reason;
      return { value: undefined, done: true };
    }
    if (this.#ready.length) return { value: this.#ready.shift(), done: false };
    let got;
    try {
      // The handle gives every item that is ready at once; they are handed out one by one.
      // A lone item comes as itself (items are objects), more as an array; `[]` is the end.
      got = await alive(new Promise((resolve, reject) => this.#handle.next(resolve, reject)));
    } catch (e) {
      // The run's own error, even one coded ABORTED (a callback's AbortError keeps its message),
      // unless the run was stopped first.
      if (!this.#done) {
        this.#finish();
        throw e;
      }
    }
    // Stopped while this step waited: by the signal (its reason), or by `cancel()` or `return()`
    // (the end, as a cancelled stream reader's pending read ends); what came is dropped.
    if (this.#done) return this.#step();
    if (Array.isArray(got) && got.length === 0) {
      this.#finish();
      return { value: undefined, done: true };
    }
    this.#ready = Array.isArray(got) ? got : [got];
    return { value: this.#ready.shift(), done: false };
  }

  /** Stops the run (what `break` in `for await` calls). */
  async return(value) {
    this.cancel();
    return { value, done: true };
  }

  /** Stops the run at once; nothing more is written to the session, nor handed out. */
  cancel() {
    if (this.#done) return;
    // Items of the last batch not handed out yet are dropped with the rest of the run.
    this.#ready.length = 0;
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
