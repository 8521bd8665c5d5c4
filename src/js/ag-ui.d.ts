// `adk-wasm/ag-ui`: an AG-UI agent over a local runner, a session on an ADK server or a remote A2A agent.
import { AbstractAgent } from '@ag-ui/client';
import type { AgentConfig, BaseEvent, RunAgentInput } from '@ag-ui/client';
import type { Observable } from 'rxjs';
import type { AdkServerClient, HeaderProviderContext, FunctionToolOptions, RemoteA2aAgent, Runner } from './index.js';

/** Where the runs go: exactly one of a local `runner`, an ADK `server` app, or a remote `a2a` agent. */
export type ChatSourceOptions =
  /** A runner in this page (or its worker's page): the thread is a session of its session service. */
  | { runner: Runner; userId: string; server?: never; a2a?: never; appName?: never }
  /** An app on an ADK server (`adk api_server`): the thread is a session there. */
  | { server: AdkServerClient; appName: string; userId: string; runner?: never; a2a?: never }
  /** A remote A2A agent, run by an in-memory runner of its own (the full package is imported for it). */
  | { a2a: RemoteA2aAgent; userId?: string; runner?: never; server?: never; appName?: never };

export type AgUiAgentOptions = ChatSourceOptions & AgentConfig & {
  /**
   * Whether the model streams its text (partial events); default `true`, as `ag-ui-adk`'s SSE default. A remote A2A
   * agent streams as its card allows, whatever this says.
   */
  streaming?: boolean;
  /** Ends each run with a `MESSAGES_SNAPSHOT` of the whole session; default `false`, as `ag-ui-adk`. */
  emitMessagesSnapshot?: boolean;
  /**
   * Frames each agent's turn in `STEP_STARTED`/`STEP_FINISHED` named after it, so a hand-off between agents
   * shows; default `false`, as `ag-ui-adk` (which emits no steps).
   */
  emitSteps?: boolean;
  /** Lets `RunAgentInput.state` write `app:` and `user:` keys; default `false`: the front end's state is the session's. */
  allowScopedStateKeys?: boolean;
};

/**
 * An AG-UI agent (`@ag-ui/client`'s `AbstractAgent`) whose runs are ADK runs: the thread id is the ADK
 * session id; `RunAgentInput.messages` after the agent's last message are sent (the person's last
 * message, and `tool` messages answering calls the session holds open: front-end tools and
 * `adk_request_confirmation`); a new session first gets the earlier messages as its history and
 * `RunAgentInput.state` as its state, a later run sends the keys that changed as the run's `stateDelta`.
 * Events are translated as the `ag-ui-adk` middleware translates them. `abortRun()`, or unsubscribing,
 * stops the run.
 */
export declare class AgUiAgent extends AbstractAgent {
  constructor(options: AgUiAgentOptions);
  run(input: RunAgentInput): Observable<BaseEvent>;
  abortRun(): void;
  clone(): AgUiAgent;
}

/**
 * The front end's tools (`RunAgentInput.tools`) in an `LlmAgent`'s `tools`, as `ag-ui-adk`'s
 * `AGUIToolset`: each is a long-running tool whose call ends the run; the front end's `tool` message
 * answers it on the next run. Only a local runner can hold it (an ADK server's agents are its own).
 */
export declare class AGUIToolset {
  constructor(options?: { toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean); toolNamePrefix?: string });
  readonly toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean);
  readonly prefix?: string;
  getTools(context: HeaderProviderContext): Promise<FunctionToolOptions[]>;
}
