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
}

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
  code: 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'FAILED_PRECONDITION' | 'ABORTED' | 'INTERNAL';
}

/** Loads the WebAssembly module (by default `adk_wasm_bg.wasm` next to the JS file). Call once first. */
export default function init(
  moduleOrPath?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<Response>,
): Promise<unknown>;
/** Loads the WebAssembly module synchronously from its bytes or a compiled module. */
export function initSync(module: { module: BufferSource | WebAssembly.Module }): unknown;

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

export declare const Part: {
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
};

export declare const LlmResponse: {
  fromParts(parts: Part[]): LlmResponse;
};
