// The A2A client, shared by the full entry and `adk-wasm/a2a`: its streams are `Run`s of stream responses.
import * as wasm from './adk_wasm.js';
import { adkError, needWasm, Run } from './core.js';

/** An A2A stream in progress: an async iterable of stream responses, with `toReadableStream()`. */
export class A2AStream extends Run {}

/** A card URL relative to the page (`/a2a/`) made absolute, as `fetch` would read it. */
export const absoluteUrl = (url) => {
  try {
    return typeof url === 'string' ? new URL(url, globalThis.location?.href).href : url;
  } catch {
    return url;
  }
};

/** Where an `A2AClient` keeps its wasm handle (a `RemoteA2aAgent` takes the client's). */
export const CLIENT = Symbol('adk-wasm A2A client handle');

/** A client of one remote A2A agent: protocol 1.0 or 0.3, JSON-RPC or HTTP+JSON, as its card allows. */
export class A2AClient {
  /** Reads the agent card at `url` (the agent's base URL, or the card's own URL) and picks an interface. */
  static async fromCardUrl(url, options = {}) {
    needWasm('A2AClient');
    return new A2AClient(await wasm.A2AClientHandle.open(absoluteUrl(url), options, true));
  }

  /** A client for the agent a card object describes. */
  static fromCard(card, options = {}) {
    needWasm('A2AClient');
    return new A2AClient(wasm.A2AClientHandle.open(card, options, false));
  }

  constructor(handle) {
    if (!(handle instanceof wasm.A2AClientHandle)) {
      throw adkError('INVALID_ARGUMENT', 'A2AClient: use A2AClient.fromCardUrl(url) or A2AClient.fromCard(card)');
    }
    this[CLIENT] = handle;
  }

  // The handle's `run` is one export for the getters and the operations (see a2a.rs).
  get card() { return this[CLIENT].run(9); }
  get protocolVersion() { return this[CLIENT].run(6); }
  get binding() { return this[CLIENT].run(7); }
  get url() { return this[CLIENT].run(8); }

  sendMessage(params) { return this[CLIENT].run(0, params); }
  sendMessageStream(params, { signal } = {}) { return new A2AStream(this[CLIENT].run(4, params), signal); }
  getTask(id, { historyLength } = {}) { return this[CLIENT].run(1, id, historyLength); }
  cancelTask(id) { return this[CLIENT].run(2, id); }
  subscribeToTask(id, { signal } = {}) { return new A2AStream(this[CLIENT].run(5, id), signal); }
  listTasks(params) { return this[CLIENT].run(3, params); }
}
