// `adk-wasm/a2a`: the event model and the A2A client only, in a wasm module about half the size of
// the full one. The API is the full package's, minus agents, runners, models and services.
export {
  default, initSync, onFatal, setLimits, getLimits, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, LlmResponse, A2AClient, A2AStream,
} from '../index.js';
import type { Part as PartShape, PartFactories } from '../index.js';
export type Part = PartShape;
/** The Part factories of the event model (the seeds' helpers are in the full package). */
export declare const Part: PartFactories;
export type {
  AdkError, ErrorCode, Limits, Event, EventInit, EventActions, Content, FunctionCall, FunctionResponse, JsonObject, JsonValue,
  AgentCard, AgentInterface, AgentSkill, A2APart, A2AMessage, A2AArtifact, Task, TaskState, TaskStatus,
  TaskStatusUpdateEvent, TaskArtifactUpdateEvent, A2AStreamResponse, SendMessageParams, A2AClientOptions,
} from '../index.js';
