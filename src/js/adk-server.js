// The client of an ADK server (`adk api_server`, `adk web`), shared by the full entry and
// `adk-wasm/server`: its runs are the same `Run`s a local runner gives.
import * as wasm from './adk_wasm.js';
import { needWasm, Run } from './core.js';

/**
 * A client of an ADK server (`adk api_server`, `adk web`): its apps, sessions and artifacts, and
 * runs of its agents, whose events are the same objects a local run yields.
 */
export class AdkServerClient {
  #handle;

  constructor(options) {
    needWasm('AdkServerClient');
    this.#handle = new wasm.AdkServerClientHandle(options);
  }

  get baseUrl() { return this.#handle.baseUrl; }

  // Each endpoint by its number in AdkServerClientHandle::call.

  listApps() { return this.#handle.call(0); }
  getAppInfo(appName) { return this.#handle.call(1, { appName }); }
  createSession(request) { return this.#handle.call(2, request); }
  getSession(request) { return this.#handle.call(3, request); }
  listSessions(request) { return this.#handle.call(4, request); }
  deleteSession(request) { return this.#handle.call(5, request); }
  updateSession(request) { return this.#handle.call(6, request); }
  listArtifactNames(request) { return this.#handle.call(7, request); }
  loadArtifact(request) { return this.#handle.call(8, request); }
  listArtifactVersions(request) { return this.#handle.call(9, request); }
  saveArtifact(request) { return this.#handle.call(10, request); }
  deleteArtifact(request) { return this.#handle.call(11, request); }

  /**
   * `POST /run_sse`: the run's events as the server sends them. `signal` (here or in the request,
   * as `Runner.runAsync` takes it), `break` or `cancel()` close the connection, which stops the run
   * on the server.
   */
  runSse({ signal, abortSignal, ...request } = {}, options = undefined) {
    return new Run(this.#handle.run(request, true), options?.signal ?? signal ?? abortSignal);
  }

  /** `POST /run`: every event of the run, once it is over. */
  async run({ signal, abortSignal, ...request } = {}, options = undefined) {
    const events = [];
    // The server's answer comes as one batch: the array of its events.
    for await (const event of new Run(this.#handle.run(request, false), options?.signal ?? signal ?? abortSignal)) events.push(event);
    return events;
  }
}
