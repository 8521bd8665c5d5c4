// `adk-wasm/server`: the event model, `Transcript` and the client of an ADK server only, in a wasm
// module a third the size of the full one. The API is the full package's, minus everything else.
export {
  default, initSync, onFatal, setLimits, getLimits, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, LlmResponse, Run, AdkServerClient, Transcript,
  getUserInputRequests, requiresUserInput, getPendingUserInputRequests, createUserInputResponse, signIn,
} from '../index.js';
import type { Part as PartShape, PartFactories } from '../index.js';
export type Part = PartShape;
/** The Part factories of the event model (the seeds' helpers are in the full package). */
export declare const Part: PartFactories;
export type {
  UserInputRequest, UserInputKind, ToolConfirmation, AuthConfig, AuthCredential, OAuth2Auth, SignInOptions, AdkError, ErrorCode, Limits, Event, EventInit, EventActions, Content, FunctionCall, FunctionResponse, JsonObject, JsonValue,
  TranscriptItem, Session, SessionKey, AdkServerClientOptions, ServerSession, ServerArtifactRequest, ServerArtifactVersion,
  RunAgentRequest,
} from '../index.js';
