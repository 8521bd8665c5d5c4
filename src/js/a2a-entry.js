// `adk-wasm/a2a`: the event model and the A2A client over the smaller wasm module built with the
// `a2a` feature only.
export {
  default, initSync, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, Part, LlmResponse, onFatal, setLimits, getLimits,
} from './core.js';
export { A2AClient, A2AStream } from './a2a.js';
