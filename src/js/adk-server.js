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

  listApps() { return this.#handle.call('listApps'); }
  getAppInfo(appName) { return this.#handle.call('getAppInfo', appName); }
  createSession(request) { return this.#handle.call('createSession', request); }
  getSession(request) { return this.#handle.call('getSession', request); }
  listSessions(request) { return this.#handle.call('listSessions', request); }
  deleteSession(request) { return this.#handle.call('deleteSession', request); }
  updateSession(request) { return this.#handle.call('updateSession', request); }
  listArtifactNames(request) { return this.#handle.call('listArtifactNames', request); }
  loadArtifact(request) { return this.#handle.call('loadArtifact', request); }
  listArtifactVersions(request) { return this.#handle.call('listArtifactVersions', request); }
  saveArtifact(request) { return this.#handle.call('saveArtifact', request); }
  deleteArtifact(request) { return this.#handle.call('deleteArtifact', request); }

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
