// Hand-written types for adk-wasm. Every shape is ADK Python's JSON wire format
// (`model_dump_json(exclude_none=True, by_alias=True)`): camelCase, bytes as URL-safe base64,
// timestamps in float seconds.

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Inline bytes. `data` is URL-safe base64 (standard base64 is accepted on input). */
export interface Blob {
  data?: string;
  displayName?: string;
  mimeType?: string;
  /** What an audio blob says, when the channel transcribed it (not a genai field; kept when set). */
  transcript?: string;
}

/** Helpers over blobs. */
export declare const Blob: {
  /** JSON text as a blob of MIME type `application/json`. */
  fromJson(data: string): Blob;
  /** The blob's transcript, or null. */
  transcript(blob: Blob): string | null;
};

/** Media referenced by URI. */
export interface FileData {
  displayName?: string;
  fileUri?: string;
  mimeType?: string;
}

export interface FunctionCall {
  /** `adk-` + uuid4 for calls ADK makes ids for. */
  id?: string;
  args?: JsonObject;
  name?: string;
  partialArgs?: JsonValue[];
  willContinue?: boolean;
}

export interface FunctionResponsePart {
  inlineData?: Blob;
  fileData?: FileData;
  mediaProcessing?: JsonValue;
}

export interface FunctionResponse {
  willContinue?: boolean;
  scheduling?: 'SCHEDULING_UNSPECIFIED' | 'SILENT' | 'WHEN_IDLE' | 'INTERRUPT' | (string & {});
  parts?: FunctionResponsePart[];
  id?: string;
  name?: string;
  /** By convention `{output: …}` or `{error: …}`; anything else is the output as a whole. */
  response?: JsonObject;
}

export interface ExecutableCode {
  code?: string;
  language?: 'LANGUAGE_UNSPECIFIED' | 'PYTHON' | (string & {});
  id?: string;
}

export interface CodeExecutionResult {
  outcome?: 'OUTCOME_UNSPECIFIED' | 'OUTCOME_OK' | 'OUTCOME_FAILED' | 'OUTCOME_DEADLINE_EXCEEDED' | (string & {});
  output?: string;
  id?: string;
}

/** One piece of a message; normally exactly one data field is set. */
export interface Part {
  mediaResolution?: JsonValue;
  codeExecutionResult?: CodeExecutionResult;
  executableCode?: ExecutableCode;
  fileData?: FileData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  inlineData?: Blob;
  text?: string;
  thought?: boolean;
  /** URL-safe base64. */
  thoughtSignature?: string;
  videoMetadata?: JsonValue;
  toolCall?: JsonValue;
  toolResponse?: JsonValue;
  partMetadata?: JsonObject;
  audioTranscription?: JsonValue;
  mediaProcessing?: JsonValue;
  speechMetadata?: JsonValue;
}

/** A message of the user or the model. */
export interface Content {
  parts?: Part[];
  role?: 'user' | 'model' | (string & {});
}

export interface ModalityTokenCount {
  modality?: string;
  tokenCount?: number;
}

export interface UsageMetadata {
  cacheTokensDetails?: ModalityTokenCount[];
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  candidatesTokensDetails?: ModalityTokenCount[];
  promptTokenCount?: number;
  promptTokensDetails?: ModalityTokenCount[];
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  toolUsePromptTokensDetails?: ModalityTokenCount[];
  totalTokenCount?: number;
  trafficType?: string;
}

export interface ToolConfirmation {
  hint: string;
  confirmed: boolean;
  payload?: JsonValue;
}

export interface EventCompaction {
  startTimestamp: number;
  endTimestamp: number;
  compactedContent: Content;
}

export interface UiWidget {
  id: string;
  provider: string;
  payload: JsonObject;
}

/** What an event does. The four maps are always present, even when empty. */
export interface EventActions {
  skipSummarization?: boolean;
  /** Keys may carry `app:`, `user:` or `temp:` prefixes. */
  stateDelta: JsonObject;
  /** File name → version. */
  artifactDelta: { [filename: string]: number };
  transferToAgent?: string;
  transferReason?: string;
  escalate?: boolean;
  requestedAuthConfigs: { [functionCallId: string]: JsonObject };
  requestedToolConfirmations: { [functionCallId: string]: ToolConfirmation };
  compaction?: EventCompaction;
  endOfAgent?: boolean;
  agentState?: JsonObject;
  rewindBeforeInvocationId?: string;
  renderUiWidgets?: UiWidget[];
  route?: JsonValue;
  setModelResponse?: JsonValue;
  /** From the seeds' runtime reference; ADK Python rejects it, adk-wasm never sets it itself. */
  endInvocation?: boolean;
}

/** A model's response for one call. */
export interface LlmResponse {
  modelVersion?: string;
  content?: Content;
  groundingMetadata?: JsonObject;
  partial?: boolean;
  turnComplete?: boolean;
  turnCompleteReason?: string;
  finishReason?: 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'RECITATION' | 'MALFORMED_FUNCTION_CALL' | 'OTHER' | (string & {});
  errorCode?: string;
  errorMessage?: string;
  interrupted?: boolean;
  interactionStatus?: string;
  customMetadata?: JsonObject;
  usageMetadata?: UsageMetadata;
  liveSessionResumptionUpdate?: JsonObject;
  liveSessionId?: string;
  goAway?: JsonObject;
  voiceActivity?: JsonValue;
  inputTranscription?: JsonObject;
  outputTranscription?: JsonObject;
  avgLogprobs?: number;
  logprobsResult?: JsonObject;
  cacheMetadata?: JsonObject;
  citationMetadata?: JsonObject;
  interactionId?: string;
  environmentId?: string;
}

/** One entry of a conversation, exactly as ADK Python serializes it. */
export interface Event extends LlmResponse {
  /** `e-` + uuid4. */
  invocationId: string;
  /** `user` or the name of the agent. */
  author: string;
  actions: EventActions;
  output?: JsonValue;
  nodeInfo?: JsonObject;
  longRunningToolIds?: string[];
  /** `agent_1.agent_2.…` */
  branch?: string;
  isolationScope?: string;
  /** uuid4. */
  id: string;
  /** Seconds since the Unix epoch. */
  timestamp: number;
}

/** What `createEvent` needs: an author; everything else is optional. */
export type EventInit = Partial<Omit<Event, 'actions'>> & { author: string; actions?: Partial<EventActions> };

/** Thrown by every function of this package. */
export interface AdkError extends Error {
  name: 'AdkError';
  code: ErrorCode;
  /** The HTTP status, when a server answered with an error. */
  httpStatus?: number;
  /** The server's numeric error code (a JSON-RPC `error.code`, e.g. -32001 for A2A's TaskNotFound). */
  rpcCode?: number;
  /** How long the server asked to wait before trying again (its `Retry-After`; a model's error body's Google `RetryInfo`), in milliseconds. */
  retryAfterMs?: number;
  /** `signIn`: the OAuth2 provider's `error` (e.g. `access_denied`) and its description. */
  oauthError?: string;
  oauthErrorDescription?: string;
}

/** The stable error codes (gRPC's canonical names). */
export type ErrorCode =
  | 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'FAILED_PRECONDITION' | 'ABORTED' | 'INTERNAL'
  | 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'RESOURCE_EXHAUSTED' | 'UNAVAILABLE' | 'DEADLINE_EXCEEDED'
  | 'UNIMPLEMENTED' | 'UNKNOWN';

/** What `init` loads the module from. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<Response>;

/**
 * Loads the WebAssembly module (by default `adk_wasm_bg.wasm` next to the JS file). Call once first.
 * Takes the input itself or wasm-bindgen's `{ module_or_path }` form.
 */
export default function init(moduleOrPath?: InitInput | { module_or_path: InitInput }): Promise<unknown>;
/** Loads the WebAssembly module synchronously from its bytes or a compiled module. */
export function initSync(module: { module: BufferSource | WebAssembly.Module }): unknown;
/**
 * Calls `listener` once if the WebAssembly instance stops (it trapped: out of memory, or a bug). From then on
 * every pending promise of the package rejects, and every call throws, an `AdkError` `FAILED_PRECONDITION`
 * whose `cause` is the trap; reloading the page starts a new instance. Returns a function that unsubscribes.
 */
export function onFatal(listener: (error: AdkError) => void): () => void;

/**
 * The instance's size limits, in bytes (UTF-8 JSON; for artifacts, their data). They protect the one wasm memory
 * every runner and service of the page shares (at most 4 GiB, never given back): a size is checked before it is
 * copied in. Over a limit is an `AdkError` `RESOURCE_EXHAUSTED` naming the option, except that a model response
 * becomes an error event and a tool result `{error}`, so the run goes on.
 */
export interface Limits {
  /** One event: appended, yielded by an agent, parsed (default 16 MiB). */
  maxEventBytes: number;
  /** One response of a model written in JS (default 16 MiB). */
  maxModelResponseBytes: number;
  /** One result of a tool written in JS (default 16 MiB). */
  maxToolResultBytes: number;
  /** One artifact version (default 64 MiB). */
  maxArtifactBytes: number;
  /** All the events of one session, as stored (default 256 MiB). */
  maxSessionBytes: number;
  /**
   * How many times its own size JSON may take once decoded, beyond a first 4 MiB (default 64): `{}` is 2 bytes of
   * JSON but hundreds decoded, so without this a 16 MiB event of empty parts would outgrow the wasm memory.
   */
  maxJsonExpansion: number;
}
/** Changes the limits given (whole numbers below 2³²; an unknown name is an error), for the whole instance; returns all of them. */
export function setLimits(limits: Partial<Limits>): Limits;
export function getLimits(): Limits;

/** Decodes an event (object or JSON text); throws an `AdkError` naming the bad field. */
export function parseEvent(input: Event | EventInit | string): Event;
/** The ADK wire JSON text of an event. */
export function eventToJson(event: Event | EventInit | string): string;
/** A new event with a fresh id and the current time (unless `init` gives them). */
export function createEvent(init: EventInit): Event;
/** ADK's `is_final_response()`. */
export function isFinalResponse(event: Event): boolean;
export function getFunctionCalls(event: Event): FunctionCall[];
export function getFunctionResponses(event: Event): FunctionResponse[];
export function hasTrailingCodeExecutionResult(event: Event): boolean;
export function isUser(event: Event): boolean;
export function isAgent(event: Event, agentName?: string): boolean;
export function hasError(event: Event): boolean;

/** The event model's Part factories (in both entries). */
export interface PartFactories {
  fromText(text: string): Part;
  fromFunctionCall(name: string, args?: JsonObject): Part;
  fromFunctionResponse(name: string, response: JsonObject): Part;
  fromInlineData(data: Uint8Array, mimeType: string): Part;
  /** Inline data with MIME type `application/json`. */
  fromJson(data: string): Part;
  /** A `transfer_to_agent` function call. */
  fromAgentTransfer(agent: string): Part;
  /** An `end_session` function call. */
  fromEndSession(options: { reason: string; escalated?: boolean }): Part;
}

/** The Part factories, and the seeds' helpers for tool and callback code (full package only). */
export declare const Part: PartFactories & {
  /**
   * A reply the voice channel plays with settings of its own: inline data of MIME type
   * `application/json+agentResponse` holding `{"content", "disableBargeIn", "enableDtmf",
   * "dtmfFinishDigit", "dtmfEndpointingTimeout"}` (the bytes Python's `json.dumps` writes).
   * Defaults: interruptible, no DTMF, `#` ends keypad input after 3 seconds.
   */
  fromCustomizedResponse(options?: {
    content?: string;
    disableBargeIn?: boolean;
    enableDtmf?: boolean;
    dtmfFinishDigit?: string;
    dtmfEndpointingTimeout?: number;
  }): Part;
  /** The part's text, else its inline data's transcript, else null. */
  textOrTranscript(part: Part): string | null;
  /** Whether the part calls the function `name`. */
  hasFunctionCall(part: Part, name: string): boolean;
  /** Whether the part answers a call of the function `name`. */
  hasFunctionResponse(part: Part, name: string): boolean;
};

export declare const LlmResponse: {
  fromParts(parts: Part[]): LlmResponse;
};

// ---------------------------------------------------------------------------------------------
// Services. Methods take one options object and return Promises, as in @google/adk. Missing things
// are `null`; failures reject with an `AdkError` (`NOT_FOUND`, `ALREADY_EXISTS`, `INVALID_ARGUMENT`).

/** A conversation: the session's own state merged with `app:` and `user:` state as of now. */
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: JsonObject;
  events: Event[];
  /** Seconds since the Unix epoch. */
  lastUpdateTime: number;
}

export interface GetSessionConfig {
  /** At most this many of the most recent events; 0 gives none. */
  numRecentEvents?: number;
  /** Only events at or after this time (seconds). */
  afterTimestamp?: number;
}

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

export interface CreateSessionRequest {
  appName: string;
  userId: string;
  /** `app:` and `user:` keys go to shared stores; `temp:` keys are dropped. */
  state?: JsonObject;
  /** Trimmed; a uuid4 when absent or blank. */
  sessionId?: string;
}

export interface ListSessionsResponse {
  /** Without events, oldest first (the last one is the most recently active). */
  sessions: Session[];
}

/**
 * A session service written in JS (`@google/adk`'s `BaseSessionService`), for `SessionService.fromJs`
 * or a runner's `sessionService`. `appendEvent` gets back the session object this service handed out
 * (never a copy of its history) and the event; an answer of nothing, or the same event object, means
 * "stored as given".
 */
export interface BaseSessionService {
  createSession(request: CreateSessionRequest): Promise<Session> | Session;
  getSession(request: SessionKey & { config?: GetSessionConfig }): Promise<Session | null | undefined> | Session | null | undefined;
  listSessions(request: { appName: string; userId?: string }): Promise<ListSessionsResponse> | ListSessionsResponse;
  deleteSession(request: SessionKey): Promise<void> | void;
  /** Stores `event` and updates `session` in place; partial events are not stored. */
  appendEvent(request: { session: Session; event: Event }): Promise<Event | void> | Event | void;
}

/**
 * Sessions, whatever keeps them: `SessionService.inMemory()`, `SessionService.indexedDb({databaseName})`
 * (the same semantics, kept across reloads in this origin's IndexedDB: each `appendEvent` is one
 * transaction, the event, the session's state, `app:` and `user:` state together or nothing;
 * `getSession({config: {numRecentEvents: 10}})` reads ten events; a session object that another tab
 * appended to after it was read is refused with `FAILED_PRECONDITION`; a full quota is
 * `RESOURCE_EXHAUSTED`, an upgrade blocked by another tab `FAILED_PRECONDITION`, no IndexedDB
 * `UNAVAILABLE`), or `SessionService.fromJs(object)` over a `BaseSessionService` written in JS.
 */
export declare class SessionService {
  private constructor();
  static inMemory(): SessionService;
  /** `databaseName` defaults to `adk-wasm`; give each app of an origin its own. Nothing opens until the first call. */
  static indexedDb(options?: { databaseName?: string }): SessionService;
  /** A missing method is an `INVALID_ARGUMENT` naming it. */
  static fromJs(service: BaseSessionService): SessionService;
  /** Deletes an IndexedDB database and everything in it (a "clear all data" control). */
  static deleteDatabase(databaseName: string): Promise<void>;
  createSession(request: CreateSessionRequest): Promise<Session>;
  getSession(request: SessionKey & { config?: GetSessionConfig }): Promise<Session | null>;
  listSessions(request: { appName: string; userId?: string }): Promise<ListSessionsResponse>;
  /** A missing session is not an error. */
  deleteSession(request: SessionKey): Promise<void>;
  /**
   * Stores `event` (without its `temp:` keys) and updates `session` in place: the whole state delta
   * applied, the stored event pushed, `lastUpdateTime` set. Rejects with `NOT_FOUND` when the session
   * does not exist, and with `INVALID_ARGUMENT` when `session`, its `state` or its `events` cannot be
   * changed (frozen, as an Immer or Redux store keeps it: pass a copy), each changing nothing.
   */
  appendEvent(request: { session: Session; event: Event | EventInit }): Promise<Event>;
  /** The session with every event as ADK's session JSON text (what an ADK server stores and serves); `null` when missing. */
  exportSession(request: SessionKey): Promise<string | null>;
  /**
   * IndexedDB only (others reject with `UNIMPLEMENTED`): stores a session given as ADK's session JSON
   * (text or object: `{id, appName, userId, state, events, lastUpdateTime}`) in one transaction; its
   * `app:` and `user:` keys go to the shared state. Rejects with `ALREADY_EXISTS` when the id is taken.
   */
  importSession(session: string | Session): Promise<Session>;
  /** Frees the wasm-side object (an IndexedDB service closes its connection); unusable afterwards. */
  free(): void;
}

/** `@google/adk`'s name: `new InMemorySessionService()` is `SessionService.inMemory()`. */
export declare const InMemorySessionService: { new (): SessionService };
export type InMemorySessionService = SessionService;
/** `new IndexedDbSessionService(options)` is `SessionService.indexedDb(options)`. */
export declare const IndexedDbSessionService: {
  new (options?: { databaseName?: string }): SessionService;
  /** `SessionService.deleteDatabase`. */
  deleteDatabase(databaseName: string): Promise<void>;
};
export type IndexedDbSessionService = SessionService;

export interface MemoryEntry {
  content: Content;
  customMetadata: JsonObject;
  /** Id of the event it came from. */
  id?: string;
  author?: string;
  /** ISO 8601 in UTC, e.g. `2025-11-21T10:15:00.250000+00:00`. */
  timestamp?: string;
}

export interface SearchMemoryResponse {
  /** At most ten, those sharing the most words with the query first. */
  memories: MemoryEntry[];
}

/** A memory service written in JS (`@google/adk`'s `BaseMemoryService`), for `MemoryService.fromJs`. */
export interface BaseMemoryService {
  addSessionToMemory(session: Session): Promise<void> | void;
  searchMemory(request: { appName: string; userId: string; query: string }): Promise<SearchMemoryResponse> | SearchMemoryResponse;
  /** Optional: without it, `addEventsToMemory` rejects with `UNIMPLEMENTED`. */
  addEventsToMemory?(request: { appName: string; userId: string; events: Event[]; sessionId?: string }): Promise<void> | void;
  /** Optional: without it, `deleteMemory` rejects with `UNIMPLEMENTED`. */
  deleteMemory?(request: { appName: string; userId: string; memoryId: string }): Promise<void> | void;
}

/**
 * Keyword memory over past sessions, scoped by app and user (Unicode-aware: Korean, Japanese, …):
 * `MemoryService.inMemory()`, `MemoryService.indexedDb({databaseName})` (the same search and ranking,
 * kept across reloads in the database of the other IndexedDB services of that name), or
 * `MemoryService.fromJs(object)`.
 */
export declare class MemoryService {
  private constructor();
  static inMemory(): MemoryService;
  static indexedDb(options?: { databaseName?: string }): MemoryService;
  static fromJs(service: BaseMemoryService): MemoryService;
  addSessionToMemory(session: Session): Promise<void>;
  /** Events without an `id` get one, as `createEvent` gives. */
  addEventsToMemory(request: { appName: string; userId: string; events: (Event | EventInit)[]; sessionId?: string }): Promise<void>;
  searchMemory(request: { appName: string; userId: string; query: string }): Promise<SearchMemoryResponse>;
  deleteMemory(request: { appName: string; userId: string; memoryId: string }): Promise<void>;
  free(): void;
}

/** `new InMemoryMemoryService()` is `MemoryService.inMemory()`. */
export declare const InMemoryMemoryService: { new (): MemoryService };
export type InMemoryMemoryService = MemoryService;
/** `new IndexedDbMemoryService(options)` is `MemoryService.indexedDb(options)`. */
export declare const IndexedDbMemoryService: { new (options?: { databaseName?: string }): MemoryService };
export type IndexedDbMemoryService = MemoryService;

export interface ArtifactVersion {
  version: number;
  canonicalUri: string;
  customMetadata: JsonObject;
  /** Seconds since the Unix epoch. */
  createTime: number;
  mimeType?: string;
}

/** `user:` file names are shared by every session of the user; others need `sessionId`. */
export interface ArtifactRequest {
  appName: string;
  userId: string;
  sessionId?: string;
  filename: string;
}

/** An artifact service written in JS (`@google/adk`'s `BaseArtifactService`), for `ArtifactService.fromJs`. */
export interface BaseArtifactService {
  saveArtifact(request: ArtifactRequest & { artifact: Part; customMetadata?: JsonObject }): Promise<number> | number;
  loadArtifact(request: ArtifactRequest & { version?: number }): Promise<Part | null | undefined> | Part | null | undefined;
  listArtifactKeys(request: { appName: string; userId: string; sessionId?: string }): Promise<string[]> | string[];
  deleteArtifact(request: ArtifactRequest): Promise<void> | void;
  listVersions(request: ArtifactRequest): Promise<number[]> | number[];
  /** Optional: without it, `listArtifactVersions` rejects with `UNIMPLEMENTED`. */
  listArtifactVersions?(request: ArtifactRequest): Promise<ArtifactVersion[]> | ArtifactVersion[];
  /** Optional: without it, `getArtifactVersion` rejects with `UNIMPLEMENTED`. */
  getArtifactVersion?(request: ArtifactRequest & { version?: number }): Promise<ArtifactVersion | null | undefined> | ArtifactVersion | null | undefined;
}

/**
 * Versioned artifacts: `ArtifactService.inMemory()`, `ArtifactService.indexedDb({databaseName})` (the
 * same semantics, kept across reloads in the database of the other IndexedDB services of that name,
 * inline data stored as bytes, canonical URIs `indexeddb://{databaseName}/apps/…`), or
 * `ArtifactService.fromJs(object)`.
 */
export declare class ArtifactService {
  private constructor();
  static inMemory(): ArtifactService;
  static indexedDb(options?: { databaseName?: string }): ArtifactService;
  static fromJs(service: BaseArtifactService): ArtifactService;
  /** Returns the new version: 0, 1, 2, … */
  saveArtifact(request: ArtifactRequest & { artifact: Part; customMetadata?: JsonObject }): Promise<number>;
  /** The latest version, or `version`; `null` when there is none. */
  loadArtifact(request: ArtifactRequest & { version?: number }): Promise<Part | null>;
  /** The session's file names and the user's `user:` ones, sorted. */
  listArtifactKeys(request: { appName: string; userId: string; sessionId?: string }): Promise<string[]>;
  deleteArtifact(request: ArtifactRequest): Promise<void>;
  listVersions(request: ArtifactRequest): Promise<number[]>;
  listArtifactVersions(request: ArtifactRequest): Promise<ArtifactVersion[]>;
  getArtifactVersion(request: ArtifactRequest & { version?: number }): Promise<ArtifactVersion | null>;
  free(): void;
}

/** `new InMemoryArtifactService()` is `ArtifactService.inMemory()`. */
export declare const InMemoryArtifactService: { new (): ArtifactService };
export type InMemoryArtifactService = ArtifactService;
/** `new IndexedDbArtifactService(options)` is `ArtifactService.indexedDb(options)`. */
export declare const IndexedDbArtifactService: { new (options?: { databaseName?: string }): ArtifactService };
export type IndexedDbArtifactService = ArtifactService;

// ---------------------------------------------------------------------------------------------
// Agents, contexts and runs.

/** The writable state seen through a context. Writes are visible at once and go into the next event. */
export declare class State {
  private constructor();
  get(key: string): JsonValue | undefined;
  set(key: string, value: JsonValue): void;
  has(key: string): boolean;
  update(delta: JsonObject): void;
  hasDelta(): boolean;
  toObject(): JsonObject;
}

/**
 * What JS agents, callbacks and tools receive. It is lent for the length of the run step or callback
 * it was given to: kept and used afterwards, every member throws an `AdkError` with code
 * `FAILED_PRECONDITION`.
 */
export declare class Context {
  private constructor();
  readonly invocationId: string;
  readonly agentName: string;
  readonly branch: string | undefined;
  /** The id of the function call a tool answers. */
  readonly functionCallId: string | undefined;
  /** The person's answer, when a tool runs again after asking for approval. */
  readonly toolConfirmation: ToolConfirmation | undefined;
  /** Asks the person to approve this tool call; the run pauses on an `adk_request_confirmation` call. */
  requestConfirmation(options?: { hint?: string; payload?: JsonValue }): void;
  /**
   * Asks the person for the credential `authConfig` describes; the run pauses on an
   * `adk_request_credential` call (the agent's own secrets are not in it), and the tool runs again
   * once it is answered.
   */
  requestCredential(authConfig: AuthConfig): void;
  /**
   * The credential the person gave for `authConfig`, or `undefined`. An OAuth2 code the person
   * brought back has already been exchanged for tokens (through `fetch`, with the PKCE verifier).
   */
  getAuthResponse(authConfig: AuthConfig): AuthCredential | undefined;
  /** Saves `authConfig.exchangedAuthCredential` in the runner's credential service (`FAILED_PRECONDITION` without one). */
  saveCredential(authConfig: AuthConfig): Promise<void>;
  /** The credential the runner's credential service holds for `authConfig`, or `undefined`. */
  loadCredential(authConfig: AuthConfig): Promise<AuthCredential | undefined>;
  readonly userContent: Content | null;
  readonly userId: string;
  readonly sessionId: string;
  /** A copy of the session, every event included: it costs the whole history. */
  getSession(): Session;
  /** A copy of the session's events so far (the seeds' `events`): it costs the whole history. */
  getEvents(): Event[];
  /** @deprecated `getSession()`: the same copy, named for what it costs. */
  readonly session: Session;
  /** @deprecated `getEvents()`: the same copy, named for what it costs. */
  readonly events: Event[];
  readonly state: State;
  /** The whole state as an object (the seeds' `variables`). */
  readonly variables: JsonObject;
  /**
   * Aborted when the run is stopped while the agent, tool or callback this context was given to is
   * still at work: pass it to your `fetch`es.
   */
  readonly abortSignal: AbortSignal;
  /** Set to stop this agent's run after the current event. */
  endInvocation: boolean;
  /** The value of `key`, or `defaultValue` when it is missing or null. */
  getVariable<T extends JsonValue>(key: string, defaultValue: T): JsonValue | T;
  setVariable(key: string, value: JsonValue): void;
  /** ADK state has no deletion: sets the key to null, which `getVariable` reads as missing. */
  removeVariable(key: string): void;
  getLastUserInput(): Part[];
  getLastAgentOutput(): Part[];
  parts(): Part[];
  /** Saves a new version; recorded in the next event's `artifactDelta`. */
  saveArtifact(filename: string, artifact: Part): Promise<number>;
  loadArtifact(filename: string, version?: number): Promise<Part | null>;
  listArtifacts(): Promise<string[]>;
  searchMemory(query: string): Promise<SearchMemoryResponse>;
  /**
   * Runs another tool of this agent by name, in this context (its state writes land in this
   * context's event) and without the tool callbacks. Success is status 200 with the tool's result
   * as JSON text; a failure has the status of its error code (INVALID_ARGUMENT 400, NOT_FOUND 404 —
   * also for an unknown tool —, FAILED_PRECONDITION 412, ABORTED 499, INTERNAL 500, …), the message
   * as `reason` and `{"error": message}` as text. Never rejects for a failed tool.
   */
  callTool(name: string, args?: JsonObject): Promise<ExternalResponse>;
  /** `context.tools.get_weather({city})`: `callTool` by property name (the seeds' `tools`). */
  readonly tools: { readonly [name: string]: (args?: JsonObject) => Promise<ExternalResponse> };
  /** HTTP calls stopped with the run (its abort signal); see `requests`. */
  readonly requests: Requests;
}

/** What an agent yields: an event, with `author`, `invocationId` and `branch` filled in when missing. */
export type YieldedEvent = Omit<EventInit, 'author'> & { author?: string };

/** A before/after-agent callback: return content to skip the agent (before) or add a reply (after). */
export type AgentCallback = (context: Context) => Content | null | undefined | void | Promise<Content | null | undefined | void>;

export interface BaseAgentOptions {
  /** An identifier (letters, digits, `_`), not `user`. */
  name: string;
  description?: string;
  subAgents?: AgentLike[];
  beforeAgentCallback?: AgentCallback | AgentCallback[];
  afterAgentCallback?: AgentCallback | AgentCallback[];
}

/** An agent written in JS without subclassing: an object with `runAsyncImpl`, or a named async generator function. */
export type JsAgent =
  | { name: string; description?: string; beforeAgentCallback?: AgentCallback | AgentCallback[]; afterAgentCallback?: AgentCallback | AgentCallback[];
      runAsyncImpl(context: Context): AsyncIterable<YieldedEvent> | Iterable<YieldedEvent> }
  | ((context: Context) => AsyncIterable<YieldedEvent> | Iterable<YieldedEvent>);

export type AgentLike = BaseAgent | JsAgent;

/** Base of every agent. Subclass it and implement `async *runAsyncImpl(ctx)` to write an agent in JS. */
export declare class BaseAgent {
  constructor(options: BaseAgentOptions);
  readonly name: string;
  readonly description: string;
  subAgents?: AgentLike[];
  parentAgent?: BaseAgent;
  readonly rootAgent: BaseAgent;
  findAgent(name: string): AgentLike | undefined;
  findSubAgent(name: string): AgentLike | undefined;
  runAsyncImpl?(context: Context): AsyncIterable<YieldedEvent> | Iterable<YieldedEvent>;
}

/** Runs its sub-agents in order. */
export declare class SequentialAgent extends BaseAgent {}
/** Runs its sub-agents at once; each on branch `parent.child`, events as they come. */
export declare class ParallelAgent extends BaseAgent {}
/** Runs its sub-agents again and again until one escalates or `maxIterations` rounds have run. */
export declare class LoopAgent extends BaseAgent {
  constructor(options: BaseAgentOptions & { maxIterations?: number });
  readonly maxIterations?: number;
}

export interface RunConfig {
  /** `sse`: partial events while the model streams. */
  streamingMode?: 'none' | 'sse';
  /** Default 500; 0 means no limit. */
  maxLlmCalls?: number;
  /** Merged into every event's `customMetadata`. */
  customMetadata?: JsonObject;
}

export interface RunAsyncRequest {
  userId: string;
  sessionId: string;
  newMessage: Content;
  /** Applied with the user's event. */
  stateDelta?: JsonObject;
  runConfig?: RunConfig;
  /**
   * Stops the run; a pending `next()`, and every later one, rejects with the signal's reason (an `AbortError`
   * unless `abort(reason)` gave another), and what had arrived but was not handed out is dropped.
   */
  signal?: AbortSignal;
  /** Alias of `signal`. */
  abortSignal?: AbortSignal;
}

/** A run in progress: `for await` its events (`break` stops it), or read it as a stream. */
export declare class Run implements AsyncIterableIterator<Event> {
  private constructor();
  next(): Promise<IteratorResult<Event, undefined>>;
  return(value?: undefined): Promise<IteratorResult<Event, undefined>>;
  /**
   * Stops the run at once; nothing more is written to the session nor handed out: a pending `next()` (and every
   * later one) resolves `{done: true}`, as a cancelled stream reader's read does. `return()` does the same.
   */
  cancel(): void;
  [Symbol.asyncIterator](): Run;
  /** The events as a ReadableStream; cancelling it stops the run. */
  toReadableStream(): ReadableStream<Event>;
}

/** The hooks' parameters, as `@google/adk`'s `BasePlugin` takes them; `tool` and `agent` are named only. */
export interface PluginRunParams { invocationContext: Context }
export interface PluginAgentParams { agent: { name: string }; callbackContext: Context }
export interface PluginToolParams { tool: { name: string }; toolArgs: JsonObject; toolContext: Context }

/**
 * Base of every plugin (`@google/adk`'s `BasePlugin`): hooks every run of a runner goes through,
 * for every agent, model call and tool call in it. Override the ones you need. Plugins run in the
 * order given, before the agents' own callbacks; the first hook to return a value stops the plugins
 * after it and (at the agent, model and tool hooks) the agents' callbacks, and its value is used.
 * A hook that throws fails the run with its error, the message naming the plugin and the hook.
 */
export declare class BasePlugin {
  constructor(name: string);
  /** Unique among a runner's plugins. */
  readonly name: string;
  /** Return content to replace the user's message (before it is stored). */
  onUserMessageCallback(params: PluginRunParams & { userMessage: Content }): MaybePromise<Content | undefined | void>;
  /** Return content to end the run with it, as its one event (authored `model`). */
  beforeRunCallback(params: PluginRunParams): MaybePromise<Content | undefined | void>;
  /** Return an event to replace `event` before it is stored and yielded (its id, invocation and timestamp stay). */
  onEventCallback(params: PluginRunParams & { event: Event }): MaybePromise<EventInit | undefined | void>;
  /** The run finished without an error. */
  afterRunCallback(params: PluginRunParams): MaybePromise<void>;
  /** Return content to answer for the agent instead of running it. */
  beforeAgentCallback(params: PluginAgentParams): MaybePromise<Content | undefined | void>;
  /** Return content to add as the agent's reply. */
  afterAgentCallback(params: PluginAgentParams): MaybePromise<Content | undefined | void>;
  /** Change `llmRequest` in place, or return a response to use instead of calling the model (the after-model hooks then do not run). */
  beforeModelCallback(params: { callbackContext: Context; llmRequest: LlmRequest }): MaybePromise<LlmResponse | undefined | void>;
  /** Return a response to replace the model's. */
  afterModelCallback(params: { callbackContext: Context; llmResponse: LlmResponse }): MaybePromise<LlmResponse | undefined | void>;
  /** Return a response to use instead of failing. */
  onModelErrorCallback(params: { callbackContext: Context; llmRequest: LlmRequest; error: AdkError }): MaybePromise<LlmResponse | undefined | void>;
  /** Change `toolArgs` in place, or return a result to use instead of running the tool. */
  beforeToolCallback(params: PluginToolParams): MaybePromise<JsonObject | undefined | void>;
  /** Return a result to replace the tool's. */
  afterToolCallback(params: PluginToolParams & { result: JsonValue }): MaybePromise<JsonObject | undefined | void>;
  /** Return a result to use instead of failing. */
  onToolErrorCallback(params: PluginToolParams & { error: AdkError }): MaybePromise<JsonObject | undefined | void>;
}

/** ADK's `GlobalInstructionPlugin`: its instruction, then a blank line, leads every model request's system instruction. */
export declare class GlobalInstructionPlugin extends BasePlugin {
  /** `globalInstruction`: a template filled from the state, or a function of the context. */
  constructor(globalInstruction?: string | ((context: Context) => MaybePromise<string>) | McpInstructionProvider, name?: string);
  readonly globalInstruction: string | ((context: Context) => MaybePromise<string>) | McpInstructionProvider;
}

/** ADK's `LoggingPlugin`: a `console.log` line for each hook of a run; it answers nothing. */
export declare class LoggingPlugin extends BasePlugin {
  constructor(name?: string);
}

/**
 * When an app compacts its sessions (ADK's `EventsCompactionConfig`), by either trigger or both:
 * - a sliding window: after every `compactionInterval` new invocations, a summary of them and of
 *   the `overlapSize` invocations before;
 * - a token budget: once the prompt reached `tokenThreshold` tokens (as the model last reported it
 *   in `usageMetadata.promptTokenCount`, or ADK's estimate of four characters a token when it did
 *   not), a summary of everything but the latest `eventRetentionSize` events, the previous summary
 *   folded in. Checked before each model call and after each invocation, as ADK checks it; it takes
 *   precedence over the window.
 *
 * Later requests carry the summary in place of those events (the session keeps them all). Each
 * pair is set together, one pair at least; otherwise `new App` throws `INVALID_ARGUMENT` with ADK's
 * message.
 */
export interface EventsCompactionConfig {
  /**
   * What writes the summaries; without one, an `LlmEventSummarizer` over the root agent's model (over
   * the calling agent's, for a token-triggered compaction before its model call).
   */
  summarizer?: LlmEventSummarizer;
  /** How many new invocations trigger a compaction (more than 0). */
  compactionInterval?: number;
  /** How many invocations before the new ones each summary also covers (0 or more). */
  overlapSize?: number;
  /** The prompt size, in tokens, that triggers a compaction (more than 0). */
  tokenThreshold?: number;
  /**
   * How many of the latest events a token-triggered compaction leaves as they are (0 or more); fewer
   * when keeping exactly that many would keep a tool's response without its call.
   */
  eventRetentionSize?: number;
}

/**
 * ADK's `LlmEventSummarizer`: asks `llm` (any model: `Gemini`, `ScriptedModel`, one written in JS)
 * for a summary of the events, with ADK's prompt or `promptTemplate`, whose one placeholder
 * `{conversation_history}` becomes the events (`{{`/`}}` for braces; anything else throws).
 * A summarizer that fails writes nothing: the run still succeeds, the history stays whole.
 */
export declare class LlmEventSummarizer {
  constructor(options: { llm: ModelLike; promptTemplate?: string });
  readonly llm: ModelLike;
  readonly promptTemplate?: string;
}

/**
 * ADK's `App`: the root agent under a name (a letter, then letters, digits, `_` or `-`; not
 * `user`), its plugins, and when its sessions are compacted. Give it to a `Runner` as `app`.
 */
export declare class App {
  constructor(options: { name: string; rootAgent: AgentLike; plugins?: BasePlugin[]; eventsCompactionConfig?: EventsCompactionConfig });
  readonly name: string;
  readonly rootAgent: AgentLike;
  /** Every run of the app goes through them, in order (ADK's `App.plugins`). */
  readonly plugins: BasePlugin[];
  readonly eventsCompactionConfig?: EventsCompactionConfig;
}

export interface RunnerOptions {
  /** The app to run (ADK's `Runner(app=…)`): its name (unless `appName` says another), root agent and compaction. */
  app?: App;
  /** Required without `app`. */
  appName?: string;
  /** Required without `app`; not with it. */
  agent?: AgentLike;
  /** Every run goes through them, in order; two with one name are refused with `INVALID_ARGUMENT`. Not with `app` (give the app's). */
  plugins?: BasePlugin[];
  sessionService: SessionService | BaseSessionService;
  artifactService?: ArtifactService | BaseArtifactService;
  memoryService?: MemoryService | BaseMemoryService;
  /** Where credentials outlive a sign-in (`ctx.saveCredential`, `CredentialManager`). */
  credentialService?: CredentialService;
  /** Create a missing session on first use instead of rejecting with `NOT_FOUND`. */
  autoCreateSession?: boolean;
}

/**
 * Runs an agent tree over sessions. Each event is recorded in the session before it is yielded
 * (partial chunks are yielded only). A second run on a session whose run is still going is
 * refused with `FAILED_PRECONDITION`.
 */
export declare class Runner {
  constructor(options: RunnerOptions & ({ app: App; agent?: undefined } | { app?: undefined; appName: string; agent: AgentLike }));
  readonly app?: App;
  readonly appName: string;
  readonly agent: AgentLike;
  readonly sessionService: SessionService | BaseSessionService;
  readonly artifactService?: ArtifactService | BaseArtifactService;
  readonly memoryService?: MemoryService | BaseMemoryService;
  readonly credentialService?: CredentialService;
  readonly plugins: BasePlugin[];
  runAsync(request: RunAsyncRequest): Run;
}

/** A `Runner` with in-memory session, artifact and memory services. */
export declare class InMemoryRunner extends Runner {
  constructor(options: ({ agent: AgentLike; app?: undefined; plugins?: BasePlugin[] } | { app: App; agent?: undefined; plugins?: undefined }) & { appName?: string; credentialService?: CredentialService; autoCreateSession?: boolean });
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService;
  readonly memoryService: MemoryService;
}

// ---------------------------------------------------------------------------------------------
// ADK servers (`adk api_server`, `adk web`). Failures reject with an `AdkError`; an error status sets
// `httpStatus` and the code of the status (`NOT_FOUND` 404, `ALREADY_EXISTS` 409, `INVALID_ARGUMENT`
// 400/422 with each bad field named, `PERMISSION_DENIED` 403 — a refused origin names the
// `--allow_origins` flag —, `INTERNAL` 500, `UNAVAILABLE` 502/503, `DEADLINE_EXCEEDED` 504). No answer
// at all is `UNAVAILABLE` (the server is down or, in a browser, does not allow the page's origin);
// the run failing on the server after its stream started is `INTERNAL`; an answer that is not an
// event stream is `UNIMPLEMENTED`, one that is not what ADK sends `UNKNOWN`; an empty app, user,
// session or file name is `INVALID_ARGUMENT` before anything is sent.

export interface AdkServerClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:8000` (a path prefix is kept). */
  baseUrl: string;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Used instead of the global `fetch`. */
  fetch?: typeof fetch;
}

/** A session as the server stores it; members a newer server adds are kept as they came. */
export interface ServerSession extends Session {
  [member: string]: JsonValue | Event[] | undefined;
}

export interface ServerArtifactRequest extends SessionKey {
  filename: string;
}

/** ADK's `ArtifactVersion`: what the server keeps about one version. */
export interface ServerArtifactVersion {
  version: number;
  canonicalUri?: string;
  mimeType?: string;
  /** Seconds since the Unix epoch. */
  createTime?: number;
  customMetadata?: JsonObject;
  [member: string]: JsonValue | undefined;
}

/** ADK's `RunAgentRequest`. */
export interface RunAgentRequest extends SessionKey {
  /** Absent to resume a paused invocation. */
  newMessage?: Content;
  /** Partial events for model output as it is generated (`runSse` only). */
  streaming?: boolean;
  stateDelta?: JsonObject;
  /** The invocation to resume (a long-running tool's answer). */
  invocationId?: string;
  /** The event whose function call `newMessage` answers. */
  functionCallEventId?: string;
  /** google-adk 2.x: `RunConfig.custom_metadata` of the run. */
  customMetadata?: JsonObject;
  /** google-adk 2.13: `RunConfig.service_tier` of the run's model calls (models on the interactions API; 1.x ignores it). */
  serviceTier?: 'flex' | 'standard' | 'priority' | 'deferred' | (string & {});
  /** Stops the run, as the second argument's `signal` does. */
  signal?: AbortSignal;
  /** The same as `signal` (the name `Runner.runAsync` takes too). */
  abortSignal?: AbortSignal;
}

export declare class AdkServerClient {
  constructor(options: AdkServerClientOptions);
  readonly baseUrl: string;
  /** `GET /list-apps`: the app (agent folder) names. */
  listApps(): Promise<string[]>;
  /** `GET /apps/{app}/app-info` (apps whose root agent is an `LlmAgent`; others are `INVALID_ARGUMENT`), as the server writes it. */
  getAppInfo(appName: string): Promise<{ name: string; rootAgentName: string; description: string; language: string; agents?: JsonObject } & JsonObject>;
  /**
   * The server picks a uuid when `sessionId` is absent; `events` start the session with a conversation;
   * `options` (google-adk 2.13) go to the server's session service (`INVALID_ARGUMENT` from one that takes none).
   */
  createSession(request: { appName: string; userId: string; sessionId?: string; state?: JsonObject; events?: (Event | EventInit)[]; options?: JsonObject }): Promise<ServerSession>;
  /** A missing session rejects with `NOT_FOUND`. */
  getSession(request: SessionKey): Promise<ServerSession>;
  /** Without their events. */
  listSessions(request: { appName: string; userId: string }): Promise<ServerSession[]>;
  deleteSession(request: SessionKey): Promise<void>;
  /** Applies `stateDelta` without running the agent (the server records it as an event of its own). */
  updateSession(request: SessionKey & { stateDelta: JsonObject }): Promise<ServerSession>;
  /** The session's artifact names and the user's `user:` ones. */
  listArtifactNames(request: SessionKey): Promise<string[]>;
  /** The latest version, or `version`; `null` when there is none. */
  loadArtifact(request: ServerArtifactRequest & { version?: number }): Promise<Part | null>;
  listArtifactVersions(request: ServerArtifactRequest): Promise<number[]>;
  /** A new version (a file the user attached, say); resolves to its metadata as the server writes it. */
  saveArtifact(request: ServerArtifactRequest & { artifact: Part; customMetadata?: JsonObject }): Promise<ServerArtifactVersion>;
  /** Every version; a missing artifact is no error. */
  deleteArtifact(request: ServerArtifactRequest): Promise<void>;
  /**
   * `POST /run_sse`: the events as the server streams them. Ends with an `AdkError` on the server's error frame
   * (`INTERNAL`) or a cut connection (`UNAVAILABLE`), after the events before it. `signal`, `break` or
   * `cancel()` close the connection, which stops the run on the server.
   */
  runSse(request: RunAgentRequest, options?: { signal?: AbortSignal }): Run;
  /** `POST /run`: every event, once the run is over. Stopping it closes the connection; google-adk 1.x finishes the run anyway. */
  run(request: RunAgentRequest, options?: { signal?: AbortSignal }): Promise<Event[]>;
}

/** One thing a chat UI shows. */
export type TranscriptItem =
  | { kind: 'message'; author: string; text: string; partial: boolean; eventId: string; invocationId: string }
  | { kind: 'toolCall'; author: string; id: string | null; name: string | null; args: JsonObject | null }
  | { kind: 'toolResult'; author: string; id: string | null; name: string | null; response: JsonObject | null }
  /** Code the model wrote and ran itself (`executableCode`), between the texts around it. */
  | { kind: 'code'; author: string; language: string | null; code: string }
  /** What running it gave (`codeExecutionResult`): `OUTCOME_OK`, `OUTCOME_FAILED`, … */
  | { kind: 'codeResult'; author: string; outcome: string | null; output: string | null }
  /**
   * What a grounded reply rests on (`groundingMetadata`): the searches made, the pages or places cited, and
   * Google's search suggestions as HTML (markup from the event: show it in a sandboxed iframe, never the page).
   */
  | { kind: 'grounding'; author: string; queries: string[]; sources: { uri: string | null; title: string | null }[]; searchEntryPoint: string | null }
  | { kind: 'state'; author: string; delta: JsonObject }
  | { kind: 'artifact'; author: string; delta: { [filename: string]: number } }
  | { kind: 'transfer'; author: string; to: string }
  | { kind: 'escalate'; author: string }
  | { kind: 'error'; author: string; code: string; message: string | null };

/** Folds events into chat items: consecutive partial chunks of one author merge; the final event replaces them. */
export declare class Transcript {
  constructor();
  /** Folds one event in; returns the items. */
  add(event: Event): TranscriptItem[];
  readonly items: TranscriptItem[];
  free(): void;
}

// ---------------------------------------------------------------------------------------------
// LLM agents, models and tools.

/** What an `LlmAgent` sends to its model. */
export interface LlmRequest {
  model?: string;
  contents: Content[];
  config: {
    /**
     * One string, as ADK builds it: global instruction, the agent's instruction, its identity, the transfer
     * instruction, joined by blank lines. A `Content` set by a callback is read as its texts.
     */
    systemInstruction?: string;
    tools?: LlmRequestTool[];
    /** `adk_agent_name` is added before each model call, as ADK does (for per-agent billing reports). */
    labels?: Record<string, string>;
    /** Any other generation setting (`temperature`, `maxOutputTokens`, …), passed through. */
    [setting: string]: JsonValue | Content | LlmRequestTool[] | undefined;
  };
}

/** An entry of `LlmRequest.config.tools` (genai's `Tool`): the function tools' declarations, or one Gemini built-in tool. */
export interface LlmRequestTool {
  functionDeclarations?: FunctionDeclaration[];
  googleSearch?: JsonObject;
  urlContext?: JsonObject;
  googleMaps?: JsonObject;
  codeExecution?: JsonObject;
  /** Any other genai tool (`googleSearchRetrieval`, `retrieval`, …), passed through. */
  [tool: string]: JsonObject | FunctionDeclaration[] | undefined;
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (a `FunctionTool`'s `parameters`), named as ADK 2.x declares it. */
  parametersJsonSchema?: JsonValue;
  /** JSON Schema of the result (an MCP tool's `outputSchema`). */
  responseJsonSchema?: JsonValue;
}

/** A model written in JS (WebLLM, transformers.js, your server's proxy, …). */
export interface JsModel {
  /** The model name put in requests. */
  model?: string;
  /**
   * Answer with one response, a Promise of one, or an (async) iterable: responses marked `partial: true` stream
   * (shown only in `streamingMode: 'sse'`) and are aggregated into the complete one unless you yield it yourself;
   * each complete response is an event of its own, as ADK takes each a model yields (a text, then a call).
   * Abort your work when `signal` fires.
   */
  generateContent(request: LlmRequest, options: { stream: boolean; signal: AbortSignal }):
    LlmResponse | Promise<LlmResponse> | AsyncIterable<LlmResponse> | Iterable<LlmResponse>;
}

export type ModelLike = ScriptedModel | Gemini | OpenAICompatible | JsModel;

/** A model answering from a script: one entry per call. */
export declare class ScriptedModel {
  constructor(responses: (string | LlmResponse | { chunks: (string | LlmResponse)[] })[]);
  readonly model: string;
  /** The requests received so far. */
  readonly requests: LlmRequest[];
}

/** Options shared by the models reached over `fetch`. */
export interface HttpModelOptions {
  /** The model name, e.g. `gemini-2.5-flash` or `gpt-4o-mini`. */
  model: string;
  /** Kept in memory only; sent as a header on each request. Leave it out when a proxy adds it. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

/**
 * Gemini over its REST API (`generateContent`, `streamGenerateContent?alt=sse`) from the browser.
 * `baseUrl` defaults to `https://generativelanguage.googleapis.com/v1beta`; point it at your proxy to keep the key
 * on a server. HTTP errors, safety blocks and unusual finish reasons become error events.
 */
export declare class Gemini {
  constructor(options: HttpModelOptions & { baseUrl?: string });
  readonly model: string;
}

/**
 * Any `/chat/completions` server: OpenAI, Ollama, llama.cpp, vLLM, LM Studio. `baseUrl` is the part before
 * `/chat/completions`, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.
 */
export declare class OpenAICompatible {
  constructor(options: HttpModelOptions & { baseUrl: string });
  readonly model: string;
}

export type ToolResult = JsonValue | void;

export interface FunctionToolOptions {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (the request declares it as `parametersJsonSchema`). */
  parameters?: JsonValue;
  /** Runs the tool; a non-object result reaches the model as `{result: …}`. */
  execute(args: JsonObject, toolContext: Context): ToolResult | Promise<ToolResult>;
  /** The run stops after the call; the app sends the function response later. */
  isLongRunning?: boolean;
  /**
   * Whether a call waits for the person's approval before `execute` runs: a flag, or a predicate of
   * the call's arguments (only `true` asks). The run pauses on an `adk_request_confirmation` call;
   * answer it with {@link createUserInputResponse}.
   */
  requireConfirmation?: boolean | ((args: JsonObject, toolContext: Context) => boolean | Promise<boolean>);
}

/** A tool made of a JS function. */
export declare class FunctionTool {
  constructor(options: FunctionToolOptions);
  readonly name: string;
  readonly description: string;
  readonly parameters?: JsonValue;
  readonly isLongRunning: boolean;
  readonly requireConfirmation: boolean | ((args: JsonObject, toolContext: Context) => boolean | Promise<boolean>);
}

/** What both ways of reaching an MCP server take besides their type and URL. */
export interface McpHttpOptions {
  /** Sent with every request (for HTTP+SSE: the stream's GET and every message). */
  headers?: Record<string, string>;
  /** @deprecated `@google/adk`'s older spelling of `headers`. */
  header?: Record<string, string>;
  /** Used instead of the global `fetch`, called as `fetch(url, init)` with `init.headers` a plain object. */
  fetch?: typeof fetch;
}

/** How to reach an MCP server from a page (`@google/adk`'s `StreamableHTTPConnectionParams`). */
export interface StreamableHTTPConnectionParams extends McpHttpOptions {
  type: 'StreamableHTTPConnectionParams';
  /** The server's Streamable HTTP endpoint, e.g. `http://127.0.0.1:8000/mcp`; it must allow the page's origin and expose `Mcp-Session-Id`. */
  url: string;
}

/**
 * How to reach an MCP server that speaks the older HTTP+SSE transport (MCP 2024-11-05; ADK's
 * `SseConnectionParams`): a stream the page GETs, which names where each message is POSTed and
 * carries the answers.
 */
export interface SseConnectionParams extends McpHttpOptions {
  type: 'SseConnectionParams';
  /** The server's SSE stream, e.g. `http://127.0.0.1:8000/sse`; it must allow the page's origin. The endpoint it names must be on the same origin. */
  url: string;
}

/** Either way to reach an MCP server from a page. */
export type MCPConnectionParams = StreamableHTTPConnectionParams | SseConnectionParams;

/**
 * The tools of an MCP server (`@google/adk`'s `MCPToolset`, ADK's `McpToolset`), in an agent's
 * `tools` beside other tools: listed once per invocation (again when the server says they changed),
 * sorted by name, each declared from its `inputSchema` and `outputSchema` with the server's
 * descriptions fenced as untrusted, each call's `CallToolResult` given to the model as ADK gives it.
 * A session the server forgot is begun again. A server that cannot be listed leaves the agent
 * without its tools, as in ADK.
 */
export declare class MCPToolset {
  constructor(
    connectionParams: MCPConnectionParams,
    toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean),
    prefix?: string,
    options?: {
      /**
       * Headers for each request, from the context it is made in (ADK's `header_provider`); one that
       * throws fails the listing (the agent then runs without these tools) or the call.
       */
      headerProvider?: (context: HeaderProviderContext) => Record<string, string>;
      /**
       * The credential every request carries (ADK's `auth_scheme`): resolved before each model call
       * (`CredentialManager`: the credential service, the person's answer, an OAuth2 exchange or
       * refresh); when there is none, the run asks the person (`adk_request_credential` for
       * `_adk_toolset_auth_McpToolset`) and ends, and the next run lists the tools with it. Sent as
       * `Authorization` (bearer, basic) or the API key's header, over any `headerProvider` header.
       */
      authScheme?: JsonObject & { type: string };
      /** The raw credential for it (an OAuth2 client, an API key, …; ADK's `auth_credential`). */
      authCredential?: AuthCredential;
      /** The key the credential is kept and asked for under. */
      credentialKey?: string;
      /**
       * Offers the server's resources through ADK's `load_mcp_resource` tool (ADK's
       * `use_mcp_resources`): their names in the system instruction, and the ones the model asks for
       * put into that request only, text as text and blobs as media.
       */
      useMcpResources?: boolean;
    },
  );
  readonly connectionParams: MCPConnectionParams;
  readonly toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean);
  readonly prefix?: string;
  /** Ends the MCP session: on the server over Streamable HTTP (`DELETE`), by closing the stream over HTTP+SSE; the next call begins a new one. */
  close(): Promise<void>;
}

/**
 * ADK's `McpInstructionProvider`, as an `LlmAgent`'s `instruction` or `globalInstruction`: on each turn
 * the MCP server's prompt `promptName` (its arguments taken from the session state by name, as ADK
 * does), the text of its messages joined. A prompt the server does not have, or one without
 * messages, fails the turn with `INVALID_ARGUMENT` (ADK's `ValueError`).
 */
export declare class McpInstructionProvider {
  constructor(connectionParams: StreamableHTTPConnectionParams | SseConnectionParams, promptName: string);
  readonly connectionParams: StreamableHTTPConnectionParams | SseConnectionParams;
  readonly promptName: string;
  getInstruction(context: Context): Promise<string>;
}

/**
 * A source of tools written in JS (`@google/adk`'s `BaseToolset`), in an agent's `tools` beside other
 * tools: `getTools(context)` is asked on each model call (ADK's per-invocation `get_tools`) and may
 * give different tools per user or session; `toolFilter` and `prefix` (`<prefix>_<name>`) apply to
 * what it gives; a `getTools` that throws leaves the agent without these tools for that step, as ADK
 * drops a failing toolset. Any object with a `getTools` method works the same way.
 */
export declare abstract class BaseToolset {
  constructor(toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean), prefix?: string);
  readonly toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean);
  readonly prefix?: string;
  /** The tools for one model call (tools, not toolsets, as ADK's `get_tools` gives `BaseTool`s). */
  abstract getTools(context: HeaderProviderContext): Promise<BaseToolLike[]>;
  /** Releases what the toolset holds. */
  close(): Promise<void>;
}

/** What makes a JS object a toolset in `tools`: a `getTools` method (a `BaseToolset` is one). */
export interface ToolsetLike {
  getTools(context: HeaderProviderContext): Promise<BaseToolLike[]>;
  toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean);
  prefix?: string;
  close?(): Promise<void>;
}

/** The context a toolset's `headerProvider` is called with. */
export interface HeaderProviderContext {
  invocationId: string;
  agentName: string;
  userId: string;
  sessionId: string;
}

/** How an `OpenAPIToolset` is made (`@google/adk`'s options, and ADK Python's `allow_private_network_access`). */
export interface OpenAPIToolsetOptions {
  /** The spec, parsed (OpenAPI 3.0 or 3.1). */
  specDict?: JsonObject;
  /** The spec as JSON text (used when `specDict` is not given). */
  specStr?: string;
  /** Only `'json'`: a YAML spec is `UNIMPLEMENTED`; parse it first and pass `specDict`. */
  specType?: 'json' | 'yaml';
  /** Names, or a predicate of the tool's `{name, description}`. */
  toolFilter?: string[] | ((tool: { name: string; description: string }) => boolean);
  /** Tools named `<prefix>_<name>`. */
  prefix?: string;
  /** Parameters named as the spec names them instead of in snake_case. */
  preservePropertyNames?: boolean;
  /** The security scheme of every operation (an OpenAPI security scheme object), in place of the spec's. */
  authScheme?: JsonObject & { type: string };
  /** Its credential: an API key, an HTTP credential, or an OAuth2 client (then the person signs in). */
  authCredential?: AuthCredential;
  /** The key the credential is kept and asked for under. */
  credentialKey?: string;
  /** Headers for each call, from the context it is made in; one that throws fails the call. */
  headerProvider?: (context: HeaderProviderContext) => Record<string, string>;
  /**
   * Lets tools call loopback, private and link-local hosts (`localhost`, `10.x`, `*.local`, …), which
   * are refused by default as in ADK (an error response the model sees). Checked on the URL as
   * written: a public name that resolves to a private address is left to the browser.
   */
  allowPrivateNetworkAccess?: boolean;
}

/**
 * The operations of an OpenAPI 3 spec as tools (`@google/adk`'s `OpenAPIToolset`, ADK's
 * `OpenAPIToolset` / `RestApiTool`): one per operation, named as ADK names it (snake_case
 * `operationId`, 60 characters at most, `_2`… for clashes), its parameters and request body's
 * properties as arguments. A call goes through the runner's `fetch` with the run's abort signal; a
 * JSON answer is the function response, any other is `{text}`, a failed status ADK's `{error}` text.
 * An operation whose security scheme has no credential yet asks the person for one (ADK's
 * `adk_request_credential`). A spec that cannot be read throws `INVALID_ARGUMENT` here. A service the
 * page cannot reach, or one that does not allow the page's origin (CORS), fails the call with
 * `UNAVAILABLE`, saying so.
 */
export declare class OpenAPIToolset {
  constructor(options: OpenAPIToolsetOptions);
  readonly toolFilter?: OpenAPIToolsetOptions['toolFilter'];
  readonly prefix?: string;
  close(): Promise<void>;
}

/**
 * Gemini's own tools (ADK's `GoogleSearchTool`, `UrlContextTool`, `GoogleMapsGroundingTool`): the model
 * runs them; the agent adds `{googleSearch: {}}`, `{urlContext: {}}` or `{googleMaps: {}}` to the
 * request, each as an entry of its own. A model whose name is not a Gemini one (`gemini-…`, also
 * under `models/`, a Vertex AI path or a provider prefix) refuses them with `INVALID_ARGUMENT`, as ADK
 * does.
 */
export declare class GoogleSearchTool {
  readonly name: 'google_search';
}
export declare class UrlContextTool {
  readonly name: 'url_context';
}
export declare class GoogleMapsGroundingTool {
  readonly name: 'google_maps_grounding';
}
/**
 * ADK's `BuiltInCodeExecutor`, an `LlmAgent`'s `codeExecutor`: Gemini runs the code it writes. The agent adds
 * `{codeExecution: {}}` to the request, saves images the code drew as artifacts (the reply then says `Saved as
 * artifact: <name>. `, and an event of their versions goes before it), and retells code or a lone result that
 * ended a reply as fenced text (`` ```tool_code `` / `` ```tool_output ``), as ADK does.
 */
export declare class BuiltInCodeExecutor {
  constructor();
}
/**
 * ADK's `BuiltInPlanner`, an `LlmAgent`'s `planner`: the model's own thinking. `thinkingConfig` (genai's
 * `ThinkingConfig`) is sent as the request's, replacing one in `generateContentConfig`; the thoughts the model
 * returns (`thought: true` parts) stay in later requests beside the answer they came with, and a reply that is
 * only thought is left out of them. A missing or non-object `thinkingConfig` is `INVALID_ARGUMENT`.
 */
export declare class BuiltInPlanner {
  constructor(options: { thinkingConfig: ThinkingConfig });
  readonly thinkingConfig: ThinkingConfig;
}
/** genai's `ThinkingConfig`, passed to the model as it is. */
export interface ThinkingConfig {
  includeThoughts?: boolean;
  /** Tokens; 0 turns thinking off, -1 lets the model decide. */
  thinkingBudget?: number;
  thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH' | (string & {});
  [key: string]: JsonValue | undefined;
}
/**
 * ADK's `PlanReActPlanner`, an `LlmAgent`'s `planner`: ADK's Plan-ReAct instruction is appended to the system
 * instruction, which asks for tagged text (the tags are PLANNING, REASONING, ACTION, REPLANNING and FINAL_ANSWER,
 * each written between a slash-star and a star-slash). A reply's text starting with one of the first four becomes a
 * thought (tags stripped); a text with a final-answer tag splits into a thought before its last one and the answer
 * after it; text after the reply's function calls is dropped. Later requests carry those thoughts as plain text.
 */
export declare class PlanReActPlanner {
  constructor();
}
export declare const GOOGLE_SEARCH: GoogleSearchTool;
export declare const URL_CONTEXT: UrlContextTool;
export declare const GOOGLE_MAPS_GROUNDING: GoogleMapsGroundingTool;

/** ADK's `exit_loop` tool: ends the enclosing LoopAgent. */
export declare const exitLoop: { readonly name: 'exit_loop' };

/** ADK's `get_user_choice` tool: the model offers `options`, the run pauses until the person picks one. */
export declare const getUserChoiceTool: { readonly name: 'get_user_choice' };

/** ADK 2.x's `request_input` tool: the model asks the person a question (`adk_request_input`) and the run pauses. */
export declare const requestInputTool: { readonly name: 'adk_request_input' };

/**
 * ADK's `AuthConfig`: an OpenAPI security scheme (`{type: 'apiKey', in, name}`,
 * `{type: 'http', scheme: 'bearer'}`, …) and the tool's raw credential; `credentialKey` is
 * computed as ADK computes it when not given.
 */
export interface AuthConfig {
  authScheme: JsonObject & { type: string };
  rawAuthCredential?: AuthCredential;
  exchangedAuthCredential?: AuthCredential;
  credentialKey?: string;
}

/** ADK's `AuthCredential`, as ADK writes it. */
export interface AuthCredential {
  authType: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'serviceAccount' | (string & {});
  apiKey?: string;
  http?: { scheme: string; credentials: { username?: string; password?: string; token?: string }; additionalHeaders?: Record<string, string> };
  oauth2?: OAuth2Auth;
  [extra: string]: JsonValue | OAuth2Auth | undefined;
}

/**
 * ADK's `OAuth2Auth`. A browser is a public client: give `clientId` (and `redirectUri` if the
 * provider needs a fixed one), no `clientSecret`; ADK then signs in with PKCE (S256).
 */
export interface OAuth2Auth {
  clientId?: string;
  clientSecret?: string;
  /** The URL the person signs in at, with `state` and the PKCE challenge (set by the agent). */
  authUri?: string;
  state?: string;
  redirectUri?: string;
  /** The redirect back from the provider, with its code (set by the person's side, e.g. `signIn`). */
  authResponseUri?: string;
  authCode?: string;
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
  /** Unix seconds. */
  expiresAt?: number;
  expiresIn?: number;
  audience?: string;
  prompt?: string;
  nonce?: string;
  codeVerifier?: string;
  codeChallengeMethod?: 'S256';
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt';
  [extra: string]: JsonValue | undefined;
}

/**
 * Where credentials outlive a sign-in (ADK's `BaseCredentialService`): in this page's memory, or
 * in the session's state (kept across reloads with `IndexedDbSessionService`; the tokens are
 * readable by anything that reads the session, as in ADK).
 */
export declare class CredentialService {
  private constructor();
  static inMemory(): CredentialService;
  static sessionState(): CredentialService;
}
/** ADK's `InMemoryCredentialService`. */
export declare const InMemoryCredentialService: { new (): CredentialService };
/** ADK's `SessionStateCredentialService`. */
export declare const SessionStateCredentialService: { new (): CredentialService };

/**
 * ADK's `CredentialManager`, for a tool that needs a usable token: `getAuthCredential(ctx)` loads
 * the credential service's copy or the person's answer, exchanges an OAuth2 code, refreshes an
 * expired token (a minute early), saves the result, and resolves to it, or to `undefined` when the
 * person must sign in, which `requestCredential(ctx)` asks for. An OAuth2 scheme with only an
 * `issuer_url`, or an `openIdConnect` scheme with only its `openIdConnectUrl`, has its endpoints
 * discovered first.
 */
export declare class CredentialManager {
  constructor(authConfig: AuthConfig);
  readonly authConfig: AuthConfig;
  getAuthCredential(ctx: Context): Promise<AuthCredential | undefined>;
  requestCredential(ctx: Context): void;
}

export interface SignInOptions {
  /**
   * Where the provider sends the person back: a page of your origin that posts its URL back, as
   * the package's `oauth-redirect.html` does (the default, next to the package). Registered with
   * the provider; ignored when the agent fixed one in `oauth2.redirectUri`.
   */
  redirectUri?: string;
  /** A window you opened yourself (in the click handler), to navigate instead of opening one. */
  popup?: Window;
  /** Stops waiting and closes the popup. */
  signal?: AbortSignal;
}

/**
 * Signs the person in for a `credential` request with an OAuth2 `authUri`: opens it in a popup,
 * waits for the redirect, checks its `state`, and resolves to the message that answers the request
 * (what adk-web sends: the auth config with `authResponseUri`); the agent exchanges the code. Call
 * it from a click handler. Rejects with `UNAUTHENTICATED` when the provider refused (`oauthError`,
 * e.g. `access_denied`) or the state is not this sign-in's, `ABORTED` when the window was closed,
 * the signal's reason when `signal` fired, `FAILED_PRECONDITION` when the popup was blocked.
 */
export declare function signIn(request: UserInputRequest, options?: SignInOptions): Promise<Content>;

/** What a paused run waits for: ADK's three kinds, and `choice` for a `get_user_choice` call. */
export type UserInputKind = 'input' | 'credential' | 'confirmation' | 'choice';

/** One request for the person, read off an event (`@google/adk`'s `UserInputRequest`). */
export interface UserInputRequest {
  kind: UserInputKind;
  /** The id to answer: the function call's. */
  interruptId: string;
  /** The name to answer with. */
  functionCallName: string;
  /** The agent that asked. */
  author?: string;
  /** The question, the credential prompt or the confirmation hint, when there is one. */
  message?: string;
  /** Data sent with the request (a confirmation's or an input's payload). */
  payload?: JsonValue;
  /** `input`: the JSON Schema the answer should satisfy. */
  responseSchema?: JsonValue;
  /** `confirmation`: the tool awaiting approval. */
  toolName?: string;
  /** `confirmation`: the arguments of the call awaiting approval. */
  toolArgs?: JsonObject;
  /**
   * `credential`: the auth config to complete (with an OAuth2 `authUri` when the person signs in:
   * see {@link signIn}). A remote A2A agent's sign-in has none: the person signs in where
   * `message` says, then answers with what to tell the agent.
   */
  authConfig?: AuthConfig;
  /** `choice`: what the person may pick. */
  options?: string[];
}

/** Every request for the person in one event, in part order. */
export declare function getUserInputRequests(event: Event): UserInputRequest[];
/** Whether the event asks the person for something. */
export declare function requiresUserInput(event: Event): boolean;
/** The requests in `events` not answered yet, in the order raised. */
export declare function getPendingUserInputRequests(events: readonly Event[]): UserInputRequest[];
/**
 * The user message answering `request`: a confirmation takes `{confirmed, payload?}`; input and a
 * choice take the answer (sent as `{result: answer}` unless it is a plain object); a credential the
 * credential (sent in the requested auth config) or a whole auth config; a remote A2A agent's
 * sign-in the text that continues its task. Send it as the next run's `newMessage`.
 */
export declare function createUserInputResponse(
  request: UserInputRequest,
  answer: { confirmed: boolean; payload?: JsonValue } | AuthCredential | AuthConfig | JsonValue,
): Content;

/**
 * An agent offered to the model as a tool (ADK's `AgentTool`): it answers `{request: string}` (or the arguments
 * of its `inputSchema`, sent to it as their JSON) in a session of its own; with an `outputSchema`, the result is
 * the value its reply holds.
 */
export declare class AgentTool {
  constructor(options: { agent: AgentLike; skipSummarization?: boolean });
  readonly name: string;
  readonly agent: AgentLike;
  readonly skipSummarization: boolean;
}

/**
 * ADK's `PreloadMemoryTool`: before each model call, the user's memories that match their message
 * (from the runner's memory service) are put before it, in ADK's words. Never declared to the model.
 */
export declare class PreloadMemoryTool {
  readonly name: 'preload_memory';
}

/**
 * ADK's `load_web_page`: the readable text of the page at `url`, as ADK extracts it (each text piece a
 * line, scripts and styles left out, then only the lines of more than three words). `http(s)` only; loopback,
 * private and link-local hosts are refused unless `allowPrivateNetworkAccess`; redirects are not
 * followed. Never rejects but for `signal`: a refusal, a status other than 200 or a failed fetch is
 * `Failed to fetch url: <url>` (a failed fetch adds that the site may not allow this page's origin:
 * most sites do not, so pass a `fetch` that goes through your proxy).
 */
export declare function loadWebPage(
  url: string,
  options?: { fetch?: typeof fetch; signal?: AbortSignal; allowPrivateNetworkAccess?: boolean },
): Promise<string>;

/** `loadWebPage` as a tool (`@google/adk`'s `LOAD_WEB_PAGE`), declared as ADK Python declares `load_web_page`. */
export declare const LOAD_WEB_PAGE: FunctionTool;

/**
 * ADK's `LoadArtifactsTool` (`load_artifacts`): declared as ADK declares it; before each model call
 * the session's and the user's artifact names are added to the system instruction (ADK's words), and
 * the artifacts the model asked for in its last call are added to that request only (never to the
 * session), as ADK makes them safe for the model: images, audio, video and PDF as they are, text-like
 * data as text, anything else a placeholder naming it. A name is honoured only if the artifact service
 * just listed it (`user:` added or dropped, as models do).
 */
export declare class LoadArtifactsTool {
  readonly name: 'load_artifacts';
}
export declare const LOAD_ARTIFACTS: LoadArtifactsTool;

/**
 * ADK's `load_memory` tool: declared as ADK declares it (`{query: string}`), it answers
 * `{result: {memories: [...]}}` as ADK's does, and tells the model it has memory.
 */
export declare const LOAD_MEMORY: { readonly name: 'load_memory' };

/** Thrown by `ExternalResponse.raiseForStatus()` (the seeds' `StatusError`). */
export declare class StatusError extends Error {
  constructor(statusCode: number, reason?: string);
  readonly name: 'StatusError';
  readonly statusCode: number;
  readonly reason: string;
}

/** What another tool or an HTTP server answered (the seeds' `ExternalResponse`). */
export declare class ExternalResponse {
  constructor(fields: { statusCode: number; reason?: string; text?: string });
  readonly statusCode: number;
  /** Why it failed (a tool's error message, an HTTP reason phrase); empty when ok. */
  readonly reason: string;
  /** The body. */
  readonly text: string;
  /** `statusCode < 400`. */
  readonly ok: boolean;
  /** The body parsed; an AdkError INVALID_ARGUMENT when it is not JSON. */
  json(): JsonValue;
  /** Throws a `StatusError` unless ok. */
  raiseForStatus(): void;
}

/** Options of one HTTP call. */
export interface RequestOptions {
  /** A `null` or `undefined` value leaves its header out, as Python's `requests` leaves out `None`. */
  headers?: Record<string, string | number | boolean | null | undefined>;
  /** Added to the URL's query, form-encoded; a `null` or `undefined` value is left out. */
  params?: Record<string, string | number | boolean | null | undefined>;
  /** A JSON body (with `Content-Type: application/json` unless `headers` set one). Not with `body`. */
  json?: JsonValue;
  /** A text body, sent as it is. */
  body?: string;
  /** Seconds; past them the call rejects with DEADLINE_EXCEEDED. */
  timeout?: number;
  /** A `fetch` to send with instead of the global one. */
  fetch?: (url: string, init: RequestInit & { headers: Record<string, string> }) => Promise<Response>;
}

/**
 * HTTP calls in the shape of Python's `requests` (the seeds' `ces_requests`). An error status is a
 * response (`ok` false, `reason` its phrase); only a failed exchange rejects (UNAVAILABLE, ABORTED
 * when the run stops, DEADLINE_EXCEEDED after `timeout`, INVALID_ARGUMENT for both `json` and `body`).
 */
export interface Requests {
  get(url: string, options?: RequestOptions): Promise<ExternalResponse>;
  post(url: string, options?: RequestOptions): Promise<ExternalResponse>;
  put(url: string, options?: RequestOptions): Promise<ExternalResponse>;
  delete(url: string, options?: RequestOptions): Promise<ExternalResponse>;
  patch(url: string, options?: RequestOptions): Promise<ExternalResponse>;
  head(url: string, options?: RequestOptions): Promise<ExternalResponse>;
  options(url: string, options?: RequestOptions): Promise<ExternalResponse>;
}

/** HTTP calls outside a run; from a tool or callback, prefer `context.requests` (stopped with the run). */
export declare const requests: Requests;

/** One tool (ADK's `BaseTool`): what a toolset's `getTools` gives. */
export type BaseToolLike = FunctionTool | FunctionToolOptions | AgentTool | GoogleSearchTool | UrlContextTool | GoogleMapsGroundingTool
  | PreloadMemoryTool | LoadArtifactsTool | typeof LOAD_WEB_PAGE | typeof exitLoop | typeof LOAD_MEMORY | typeof getUserChoiceTool
  | typeof requestInputTool;
/** What an agent's `tools` takes: tools and toolsets. */
export type ToolLike = BaseToolLike | MCPToolset | OpenAPIToolset | ToolsetLike;

type MaybePromise<T> = T | Promise<T>;
export type BeforeModelCallback = (params: { context: Context; request: LlmRequest }) => MaybePromise<LlmResponse | null | undefined | void>;
export type AfterModelCallback = (params: { context: Context; response: LlmResponse }) => MaybePromise<LlmResponse | null | undefined | void>;
export type OnModelErrorCallback = (params: { context: Context; request: LlmRequest; error: AdkError }) => MaybePromise<LlmResponse | null | undefined | void>;
export type BeforeToolCallback = (params: { tool: { name: string }; args: JsonObject; context: Context }) => MaybePromise<JsonObject | null | undefined | void>;
export type AfterToolCallback = (params: { tool: { name: string }; args: JsonObject; context: Context; response: JsonValue }) => MaybePromise<JsonObject | null | undefined | void>;
export type OnToolErrorCallback = (params: { tool: { name: string }; args: JsonObject; context: Context; error: AdkError }) => MaybePromise<JsonObject | null | undefined | void>;
type OneOrMany<T> = T | T[];

export interface LlmAgentOptions extends BaseAgentOptions {
  model: ModelLike;
  /** A template (`{key}`, `{key?}`, `{app:key}`, `{user:key}`, `{temp:key}`, `{artifact.name}`) or a function of the context. */
  instruction?: string | ((context: Context) => MaybePromise<string>) | McpInstructionProvider;
  /** For every LLM agent of the tree (read from the root agent). */
  globalInstruction?: string | ((context: Context) => MaybePromise<string>) | McpInstructionProvider;
  /** Sent first and never templated; `instruction` then goes to the end of the contents. */
  staticInstruction?: string | Content;
  tools?: ToolLike[];
  /** Saves the final text to this state key (with `outputSchema`, the value the text holds). */
  outputKey?: string;
  /**
   * The JSON Schema of the agent's answer (ADK's `output_schema`): the model is asked for JSON of it
   * (`responseSchema`), or, when the agent has tools, to answer through the `set_model_response` tool.
   * Not a JSON Schema object: `INVALID_ARGUMENT`. With `outputKey`, a reply that is not JSON rejects the run
   * with `INVALID_ARGUMENT` and is not stored; the JSON is not checked against the schema (as ADK).
   */
  outputSchema?: JsonObject;
  /** The JSON Schema of what the agent takes as an `AgentTool` (ADK's `input_schema`): the tool's parameters. */
  inputSchema?: JsonObject;
  includeContents?: 'default' | 'none';
  generateContentConfig?: JsonObject;
  /** Gemini runs the code it writes (ADK's `code_executor`); any other model is refused with `INVALID_ARGUMENT`. */
  codeExecutor?: BuiltInCodeExecutor;
  /** How the agent plans (ADK's `planner`); anything else is `INVALID_ARGUMENT`. */
  planner?: BuiltInPlanner | PlanReActPlanner;
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
  beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  afterModelCallback?: OneOrMany<AfterModelCallback>;
  onModelErrorCallback?: OneOrMany<OnModelErrorCallback>;
  beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  afterToolCallback?: OneOrMany<AfterToolCallback>;
  onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
}

/** An agent whose turns come from a model (ADK's `LlmAgent`). */
export declare class LlmAgent extends BaseAgent {
  constructor(options: LlmAgentOptions);
  readonly model: ModelLike;
  readonly instruction?: LlmAgentOptions['instruction'];
  readonly tools: ToolLike[];
  readonly outputKey?: string;
  readonly outputSchema?: JsonObject;
  readonly inputSchema?: JsonObject;
  readonly includeContents: 'default' | 'none';
  readonly codeExecutor?: BuiltInCodeExecutor;
  readonly planner?: BuiltInPlanner | PlanReActPlanner;
}

// ---------------------------------------------------------------------------------------------
// A2A. Every shape is protocol v1.0's JSON; a v0.3 server's answers are translated to it.

/** One way to reach an agent. */
export interface AgentInterface {
  url: string;
  protocolBinding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC' | (string & {});
  protocolVersion: string;
  /** The tenant the client names in every v1.0 request to this interface (in JSON-RPC params, as an HTTP+JSON path's first segment). */
  tenant?: string;
  [key: string]: unknown;
}

export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  [key: string]: unknown;
}

/** An agent's self-description (`/.well-known/agent-card.json`); v1.0 and v0.3 keys are both kept. */
export interface AgentCard {
  name: string;
  description: string;
  version: string;
  /** v1.0. */
  supportedInterfaces?: AgentInterface[];
  capabilities: { streaming?: boolean; pushNotifications?: boolean; [key: string]: unknown };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkill[];
  /** v0.3. */
  url?: string;
  preferredTransport?: string;
  additionalInterfaces?: { url: string; transport: string }[];
  protocolVersion?: string;
  [key: string]: unknown;
}

/** Exactly one of `text`, `raw` (base64), `url`, `data`. */
export type A2APart = (
  | { text: string; raw?: never; url?: never; data?: never }
  | { raw: string; text?: never; url?: never; data?: never }
  | { url: string; text?: never; raw?: never; data?: never }
  | { data: JsonValue; text?: never; raw?: never; url?: never }
) & { mediaType?: string; filename?: string; metadata?: JsonObject };

export interface A2AMessage {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: 'ROLE_USER' | 'ROLE_AGENT' | 'ROLE_UNSPECIFIED';
  parts: A2APart[];
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export type TaskState =
  | 'TASK_STATE_SUBMITTED' | 'TASK_STATE_WORKING' | 'TASK_STATE_COMPLETED' | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED' | 'TASK_STATE_INPUT_REQUIRED' | 'TASK_STATE_REJECTED' | 'TASK_STATE_AUTH_REQUIRED'
  | 'TASK_STATE_UNSPECIFIED';

export interface TaskStatus {
  state: TaskState;
  message?: A2AMessage;
  /** ISO 8601. */
  timestamp?: string;
}

export interface A2AArtifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2APart[];
  metadata?: JsonObject;
  extensions?: string[];
}

export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: A2AArtifact[];
  history?: A2AMessage[];
  metadata?: JsonObject;
}

export interface TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: JsonObject;
}

export interface TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: A2AArtifact;
  /** Continues the artifact; otherwise the chunk replaces it. */
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject;
}

/** One item of an A2A stream; `resumed` says a dropped stream was re-attached (nothing lost, nothing repeated). */
export type A2AStreamResponse =
  | { task: Task }
  | { message: A2AMessage }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent }
  | { resumed: { attempt: number } };

export interface SendMessageParams {
  /** `messageId` defaults to a new uuid, `role` to `ROLE_USER`. */
  message: Omit<A2AMessage, 'messageId' | 'role'> & Partial<Pick<A2AMessage, 'messageId' | 'role'>>;
  configuration?: { acceptedOutputModes?: string[]; historyLength?: number; returnImmediately?: boolean };
  metadata?: JsonObject;
}

export interface A2AClientOptions {
  /** Added to every request. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** Use only interfaces of this binding (default: JSON-RPC, then HTTP+JSON). */
  binding?: 'JSONRPC' | 'HTTP+JSON';
  /** Use only interfaces of this version (default: 1.0, then 0.3). */
  protocolVersion?: '1.0' | '0.3';
  /**
   * Runs (synchronously) before every request; may change `request.headers` (e.g. add a bearer token) in place or
   * replace it, also by a `Headers` or a `Map`; a `null` or `undefined` value leaves that header out. A hook that
   * throws leaves the request as it was. For a token fetched asynchronously, pass your own `fetch`.
   */
  onRequest?(request: {
    readonly method: string;
    readonly url: string;
    get headers(): Record<string, string | null | undefined>;
    set headers(value: Record<string, string | null | undefined> | Headers | Map<string, string | null | undefined>);
  }): void;
  /**
   * How a dropped stream is resumed. At most `maxRetries` attempts in a row without progress (an event not seen
   * before; default 3, 0 turns resuming off) and `maxTotalRetries` in all per stream (default 10). The wait before
   * an attempt starts at `backoffBaseMs` (default 500) and doubles, up to `maxBackoffMs` (default 30 000); each is
   * drawn between half and all of that. A `Retry-After` the agent sends is honoured (cross-origin only if the
   * agent exposes the header); one longer than `maxBackoffMs` ends the stream. The final error is `UNAVAILABLE`
   * and says how many attempts were made.
   */
  resume?: { maxRetries?: number; maxTotalRetries?: number; backoffBaseMs?: number; maxBackoffMs?: number };
}

/** A stream in progress: `for await`, `break` or the signal stop it (and abort the request). */
export declare class A2AStream implements AsyncIterableIterator<A2AStreamResponse> {
  private constructor();
  next(): Promise<IteratorResult<A2AStreamResponse, undefined>>;
  return(value?: undefined): Promise<IteratorResult<A2AStreamResponse, undefined>>;
  cancel(): void;
  [Symbol.asyncIterator](): A2AStream;
  toReadableStream(): ReadableStream<A2AStreamResponse>;
}

/** A client of one remote A2A agent. Errors are `AdkError`s with `httpStatus` and, for A2A errors, `rpcCode`. */
export declare class A2AClient {
  private constructor();
  /**
   * Reads the card at `url` (or under it, at `/.well-known/agent-card.json`; a relative URL is read against the
   * page's): over https, or plain http from a loopback host; a card whose chosen interface is on another origin
   * than the card's is refused (`INVALID_ARGUMENT`), as ADK 2.13 refuses it. `fromCard` takes a card as it is.
   */
  static fromCardUrl(url: string, options?: A2AClientOptions): Promise<A2AClient>;
  static fromCard(card: AgentCard, options?: A2AClientOptions): A2AClient;
  readonly card: AgentCard;
  readonly protocolVersion: '1.0' | '0.3';
  readonly binding: 'JSONRPC' | 'HTTP+JSON';
  readonly url: string;
  sendMessage(params: SendMessageParams): Promise<{ task: Task } | { message: A2AMessage }>;
  sendMessageStream(params: SendMessageParams, options?: { signal?: AbortSignal }): A2AStream;
  getTask(id: string, options?: { historyLength?: number }): Promise<Task>;
  cancelTask(id: string): Promise<Task>;
  subscribeToTask(id: string, options?: { signal?: AbortSignal }): A2AStream;
  /** Protocol 1.0 only. `statusTimestampAfter` (RFC 3339): only tasks whose status changed after it. */
  listTasks(params?: { contextId?: string; status?: TaskState; pageSize?: number; pageToken?: string; historyLength?: number; statusTimestampAfter?: string; includeArtifacts?: boolean }):
    Promise<{ tasks: Task[]; nextPageToken: string; pageSize: number; totalSize: number }>;
}

/** A remote agent's sub-agents are the server's business: it takes none. */
export type RemoteA2aAgentOptions = Omit<BaseAgentOptions, 'subAgents'> & (
  | { client: A2AClient; agentCardUrl?: never }
  | ({ agentCardUrl: string; client?: never } & A2AClientOptions)
);

/**
 * An agent whose work happens on an A2A server. Its events carry `customMetadata['a2a:task_id']`,
 * `['a2a:context_id']` and `['a2a:task_state']`; artifact chunks are partial events (`'a2a:replace'` marks one
 * that restarts the artifact) and the event that ends an artifact holds all of it; a partial event with
 * `'a2a:resumed'` says a dropped stream was resumed; a failed task is an error event (`A2A_TASK_FAILED`).
 */
export declare class RemoteA2aAgent extends BaseAgent {
  constructor(options: RemoteA2aAgentOptions);
  readonly agentCardUrl?: string;
}
