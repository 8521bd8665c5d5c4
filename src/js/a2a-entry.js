// `adk-wasm/a2a`: the event model and the A2A client over the smaller wasm module built without
// agents. `sdk.js` is the full package's entry; only what this module can run is re-exported.
export {
  default, initSync, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, Part, LlmResponse, A2AClient, A2AStream,
} from './sdk.js';
