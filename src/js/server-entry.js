// `adk-wasm/server`: the event model, `Transcript` and the client of an ADK server, over the smaller
// wasm module built with only the `server` feature: what the web front end of an agent served by
// `adk api_server` needs.
import * as wasm from './adk_wasm.js';

export {
  default, initSync, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, Part, LlmResponse, setLimits, getLimits, Run,
} from './core.js';
// From the entry, not through core.js: fetched a round trip sooner.
export { onFatal } from './fatal.js';
export { AdkServerClient } from './adk-server.js';
export {
  getUserInputRequests, requiresUserInput, getPendingUserInputRequests, createUserInputResponse,
} from './user_input.js';
export { signIn } from './sign_in.js';
export const Transcript = wasm.Transcript;
