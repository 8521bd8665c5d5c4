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

  listApps() { return this.#handle.listApps(); }
  getAppInfo(appName) { return this.#handle.getAppInfo(appName); }
  createSession(request) { return this.#handle.createSession(request); }
  getSession(request) { return this.#handle.getSession(request); }
  listSessions(request) { return this.#handle.listSessions(request); }
  deleteSession(request) { return this.#handle.deleteSession(request); }
  updateSession(request) { return this.#handle.updateSession(request); }
  listArtifactNames(request) { return this.#handle.listArtifactNames(request); }
  loadArtifact(request) { return this.#handle.loadArtifact(request); }
  listArtifactVersions(request) { return this.#handle.listArtifactVersions(request); }
  saveArtifact(request) { return this.#handle.saveArtifact(request); }
  deleteArtifact(request) { return this.#handle.deleteArtifact(request); }

  /**
   * `POST /run_sse`: the run's events as the server sends them. `signal` (here or in the request,
   * as `Runner.runAsync` takes it), `break` or `cancel()` close the connection, which stops the run
   * on the server.
   */
  runSse({ signal, abortSignal, ...request } = {}, options = undefined) {
    return new Run(this.#handle.runSse(request), options?.signal ?? signal ?? abortSignal);
  }

  /** `POST /run`: every event of the run, once it is over. */
  async run({ signal, abortSignal, ...request } = {}, options = undefined) {
    const events = [];
    for await (const event of new Run(this.#handle.run(request), options?.signal ?? signal ?? abortSignal)) events.push(event);
    return events;
  }
}
