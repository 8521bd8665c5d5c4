// The package entry: the wasm-bindgen exports, grouped and named as in @google/adk.
// Call `await init()` once (or `initSync(bytes)`) before anything else.
import initWasm, * as wasm from './adk_wasm.js';

export { initSync } from './adk_wasm.js';

/** Loads the WebAssembly module; by default from `adk_wasm_bg.wasm` next to this file. */
export default function init(moduleOrPath) {
  return initWasm(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath });
}

export const parseEvent = wasm.parseEvent;
export const eventToJson = wasm.eventToJson;
export const createEvent = wasm.createEvent;
export const isFinalResponse = wasm.isFinalResponse;
export const getFunctionCalls = wasm.getFunctionCalls;
export const getFunctionResponses = wasm.getFunctionResponses;
export const hasTrailingCodeExecutionResult = wasm.hasTrailingCodeExecutionResult;
export const isUser = wasm.isUser;
export const isAgent = wasm.isAgent;
export const hasError = wasm.hasError;

export const InMemorySessionService = wasm.InMemorySessionService;
export const InMemoryMemoryService = wasm.InMemoryMemoryService;
export const InMemoryArtifactService = wasm.InMemoryArtifactService;

export const Part = Object.freeze({
  fromText: wasm.partFromText,
  fromFunctionCall: wasm.partFromFunctionCall,
  fromFunctionResponse: wasm.partFromFunctionResponse,
  fromInlineData: wasm.partFromInlineData,
  fromJson: wasm.partFromJson,
  fromAgentTransfer: wasm.partFromAgentTransfer,
  fromEndSession: (options) => wasm.partFromEndSession(options.reason, options.escalated ?? false),
});

export const LlmResponse = Object.freeze({
  fromParts: wasm.llmResponseFromParts,
});
