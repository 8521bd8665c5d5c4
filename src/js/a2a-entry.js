// `adk-wasm/a2a`: the event model and the A2A client over the smaller wasm module built without
// agents. `core.js` is the part of the full package's entry this module can run.
export {
  default, initSync, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, Part, LlmResponse, A2AClient, A2AStream,
} from './core.js';
