// `adk-wasm/a2a`: the event model and the A2A client over the smaller wasm module built with the
// `a2a` feature only.
export {
  default, initSync, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, Part, LlmResponse, setLimits, getLimits,
} from './core.js';
// From the entry, not through core.js and a2a.js: fetched a round trip or two sooner.
import './adk_wasm.js';
export { onFatal } from './fatal.js';
export { A2AClient, A2AStream } from './a2a.js';
