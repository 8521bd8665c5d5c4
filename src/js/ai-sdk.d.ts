// `adk-wasm/ai-sdk`: an ADK agent behind the Vercel AI SDK's `useChat`, as a `ChatTransport`.
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import type { AdkServerClient, JsonObject, RemoteA2aAgent, Runner } from './index.js';

interface Streaming {
  /** Partial events while the model generates, streamed as text deltas. Default `true`. A remote A2A agent streams as its card allows. */
  streaming?: boolean;
}

/** Where the chat's turns go: exactly one of `runner`, `server` or `a2a`. */
export type AdkChatTransportOptions =
  /** A runner in this page; `chatId`s are sessions of its `appName` for `userId`. */
  | (Streaming & { runner: Runner; userId: string; server?: never; a2a?: never })
  /** An app on an ADK server (`adk api_server`), run over `/run_sse`. */
  | (Streaming & { server: AdkServerClient; appName: string; userId: string; runner?: never; a2a?: never })
  /** A remote A2A agent, in sessions of an in-memory runner of its own (`userId` defaults to `'user'`). */
  | (Streaming & { a2a: RemoteA2aAgent; userId?: string; runner?: never; server?: never });

/**
 * The data parts the transport streams: `data-state` with each event's `actions.stateDelta`, and
 * `data-artifacts` with its `actions.artifactDelta` (file name → version). For
 * `UIMessage<METADATA, AdkDataTypes, TOOLS>`.
 */
export type AdkDataTypes = {
  state: JsonObject;
  artifacts: { [filename: string]: number };
};

/**
 * A `ChatTransport` for `useChat` and `Chat` over an ADK agent. `chatId` is the ADK session id (a
 * missing session is created, seeded with the chat's earlier messages). Tools the agent runs come
 * as `providerExecuted` tool parts; long-running calls and confirmation requests
 * (`adk_request_confirmation`, answered `{confirmed: true}`) are left to the front end: answer them
 * with `addToolOutput`, and the next request sends the answers as function responses.
 * `regenerate-message` runs the last user message again as a new turn (sessions only grow).
 * `sendMessages` rejects when the session cannot be read or created; a failing run streams an
 * `error` chunk, a stopped one (`abortSignal`) an `abort` chunk.
 */
export declare class AdkChatTransport<UI_MESSAGE extends UIMessage = UIMessage> implements ChatTransport<UI_MESSAGE> {
  constructor(options: AdkChatTransportOptions);
  /** A reconnected stream replays the response from its `start`. */
  readonly resumeStreamIsReplay: true;
  sendMessages(options: Parameters<ChatTransport<UI_MESSAGE>['sendMessages']>[0]): Promise<ReadableStream<UIMessageChunk>>;
  /**
   * The run of `chatId` still going in this page (a runner or A2A source), replayed from its start
   * and continued; `null` when there is none, and always for a server (an `/run_sse` response has
   * one reader).
   */
  reconnectToStream(options: Parameters<ChatTransport<UI_MESSAGE>['reconnectToStream']>[0]): Promise<ReadableStream<UIMessageChunk> | null>;
}
