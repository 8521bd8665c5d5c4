// The package entry: the wasm-bindgen exports, grouped and named as in @google/adk, plus the thin
// JS layer that makes runs async iterables / ReadableStreams and wires AbortSignals.
// Call `await init()` once (or `initSync(bytes)`) before anything else.
import initWasm, * as wasm from './adk_wasm.js';

let ready = false;

/** Loads the WebAssembly module; by default from `adk_wasm_bg.wasm` next to this file. */
export default async function init(moduleOrPath) {
  const exports = await initWasm(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath });
  ready = true;
  return exports;
}

/** Loads the WebAssembly module synchronously from its bytes or a compiled module. */
export function initSync(module) {
  const exports = wasm.initSync(module);
  ready = true;
  return exports;
}

function adkError(code, message) {
  return Object.assign(new Error(message), { name: 'AdkError', code });
}

/** A clear error instead of wasm-bindgen's "reading properties of undefined" when init() was skipped. */
function needWasm(what) {
  if (!ready) throw adkError('FAILED_PRECONDITION', `${what}: adk-wasm is not initialised yet; call \`await init()\` first`);
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
export const Transcript = wasm.Transcript;
export const Context = wasm.Context;
export const State = wasm.State;

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

// ---------------------------------------------------------------------------------------------
// Agents. Each class holds a wasm AgentHandle; sub-agents are attached in order.

const HANDLE = Symbol('adk-wasm agent handle');
const plainAgents = new WeakMap();

function handleOf(agent) {
  if (agent && agent[HANDLE]) return agent[HANDLE];
  // A plain object or function written in JS: {name, runAsyncImpl(ctx)} or a named async generator
  // function. The same object is the same agent wherever it is used.
  let handle = plainAgents.get(agent);
  if (!handle) {
    const options = { name: agent?.name, description: agent?.description,
      beforeAgentCallback: agent?.beforeAgentCallback, afterAgentCallback: agent?.afterAgentCallback };
    handle = wasm.AgentHandle.fromJs(agent, options);
    plainAgents.set(agent, handle);
  }
  return handle;
}

function attach(parent, subAgents = []) {
  const subs = [...subAgents];
  for (const sub of subs) parent[HANDLE].addSubAgent(handleOf(sub));
  parent.subAgents = subs;
  for (const sub of subs) if (sub && typeof sub === 'object') sub.parentAgent = parent;
}

/** Base of every agent. Subclass it and implement `async *runAsyncImpl(ctx)` for an agent in JS. */
export class BaseAgent {
  constructor(options) {
    needWasm(`agent \`${options?.name}\``);
    this.name = options.name;
    this.description = options.description ?? '';
    this.beforeAgentCallback = options.beforeAgentCallback;
    this.afterAgentCallback = options.afterAgentCallback;
    if (new.target !== BaseAgent && this[HANDLE] === undefined && typeof this.runAsyncImpl === 'function') {
      this[HANDLE] = wasm.AgentHandle.fromJs(this, options);
      attach(this, options.subAgents);
    }
  }

  /** This agent or a descendant named `name`. */
  findAgent(name) {
    if (this.name === name) return this;
    return this.findSubAgent(name);
  }

  /** A descendant named `name`. */
  findSubAgent(name) {
    for (const sub of this.subAgents ?? []) {
      const found = sub.name === name ? sub : sub.findSubAgent?.(name);
      if (found) return found;
    }
    return undefined;
  }

  /** The top of the tree. */
  get rootAgent() {
    let agent = this;
    while (agent.parentAgent) agent = agent.parentAgent;
    return agent;
  }
}

function workflow(kind) {
  return class extends BaseAgent {
    constructor(options) {
      super(options);
      this[HANDLE] = wasm.AgentHandle[kind](options);
      attach(this, options.subAgents);
    }
  };
}

/** Runs its sub-agents in order. */
export class SequentialAgent extends workflow('sequential') {}
/** Runs its sub-agents at once, each on branch `parent.child`. */
export class ParallelAgent extends workflow('parallel') {}
/** Runs its sub-agents again and again until one escalates or `maxIterations` rounds ran. */
export class LoopAgent extends workflow('loop') {
  constructor(options) {
    super(options);
    this.maxIterations = options.maxIterations;
  }
}

// ---------------------------------------------------------------------------------------------
// LLM agents, models and tools.

const MODEL = Symbol('adk-wasm model handle');

/** A model answering from a script: strings, LlmResponse-shaped objects, or `{chunks: [...]}` that stream. */
export class ScriptedModel {
  constructor(responses) {
    needWasm('ScriptedModel');
    this[MODEL] = wasm.ModelHandle.scripted(responses);
    this.model = 'scripted';
  }

  /** The requests received so far (for tests). */
  get requests() {
    return this[MODEL].requests();
  }
}

function httpModel(kind) {
  return class {
    constructor(options) {
      needWasm(kind);
      // The API key goes into wasm memory only; it is never kept on this object.
      this[MODEL] = wasm.ModelHandle[kind](options);
      this.model = options.model;
    }
  };
}

/** Gemini over its REST API, streamed with `fetch`. */
export class Gemini extends httpModel('gemini') {}
/** Any `/chat/completions` server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio). */
export class OpenAICompatible extends httpModel('openAICompatible') {}

const jsModels = new WeakMap();

function modelHandleOf(model, agentName) {
  if (model?.[MODEL]) return model[MODEL];
  if (model && typeof model.generateContent === 'function') {
    let handle = jsModels.get(model);
    if (!handle) jsModels.set(model, (handle = wasm.ModelHandle.fromJs(model)));
    return handle;
  }
  throw adkError('INVALID_ARGUMENT', `LlmAgent \`${agentName}\`: model must be a ScriptedModel, Gemini, OpenAICompatible or an object with generateContent(request, {stream, signal})`);
}

/** A tool made of a JS function: `execute(args, toolContext)` may be async; its result goes back to the model. */
export class FunctionTool {
  constructor({ name, description = '', parameters, execute, isLongRunning = false }) {
    // Checked in JS, so tools can be declared at module level before init().
    if (typeof name !== 'string' || !name) throw adkError('INVALID_ARGUMENT', 'FunctionTool: name: expected a string');
    if (typeof execute !== 'function') throw adkError('INVALID_ARGUMENT', `FunctionTool \`${name}\`: execute must be a function`);
    Object.assign(this, { name, description, parameters, execute, isLongRunning });
  }

  /** A fresh wasm handle for one agent. */
  toHandle() {
    return wasm.ToolHandle.function(this);
  }
}

/** An agent offered to the model as a tool (ADK's `AgentTool`): it answers `{request}` in a session of its own. */
export class AgentTool {
  constructor({ agent, skipSummarization = false }) {
    Object.assign(this, { agent, skipSummarization, name: agent?.name });
    handleOf(agent);
  }

  /** A fresh wasm handle for one agent. */
  toHandle() {
    return wasm.ToolHandle.agent(handleOf(this.agent), this.skipSummarization);
  }
}

/** ADK's `exit_loop` tool: ends the enclosing LoopAgent. */
export const exitLoop = Object.freeze({ name: 'exit_loop', toHandle: () => wasm.ToolHandle.exitLoop() });

function toolHandleOf(tool, agentName) {
  if (tool && typeof tool.toHandle === 'function') return tool.toHandle();
  if (tool && typeof tool.execute === 'function') return wasm.ToolHandle.function(tool);
  throw adkError('INVALID_ARGUMENT', `LlmAgent \`${agentName}\`: a tool must be a FunctionTool, an AgentTool or {name, description, parameters, execute}`);
}

/** An agent whose turns come from a model, with tools, callbacks and transfers (ADK's `LlmAgent`). */
export class LlmAgent extends BaseAgent {
  constructor(options) {
    super(options);
    Object.assign(this, {
      model: options.model, instruction: options.instruction, tools: options.tools ?? [], outputKey: options.outputKey,
      includeContents: options.includeContents ?? 'default',
    });
    const tools = this.tools.map((t) => toolHandleOf(t, options.name));
    this[HANDLE] = wasm.AgentHandle.llm(options, modelHandleOf(options.model, options.name), tools);
    attach(this, options.subAgents);
  }
}

// ---------------------------------------------------------------------------------------------
// Runs.

function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError', code: 'ABORTED' });
}

/** A run in progress: an async iterable of events (`for await`, `break` stops it), with `toReadableStream()`. */
export class Run {
  #handle;
  /** The last pending `next()`, so that concurrent calls are served in order; null when idle. */
  #queue = null;
  #done = false;
  #signal;
  #onAbort;
  /** Stopped by the signal: every later `next()` rejects with its reason, as a fetch body's reader does. */
  #aborted = false;
  /** Items received in the last batch and not handed out yet. */
  #ready = [];

  constructor(handle, signal) {
    this.#handle = handle;
    this.#signal = signal;
    if (signal) {
      this.#onAbort = () => {
        this.#aborted = true;
        this.cancel();
      };
      if (signal.aborted) this.#onAbort();
      else signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /** The next event; `{done: true}` at the end. Calls are served one at a time. */
  next() {
    // Items already received go out at once: nothing is pending, so nothing can be overtaken.
    if (this.#queue === null && this.#ready.length) return Promise.resolve({ value: this.#ready.shift(), done: false });
    const step = this.#queue === null ? this.#step() : this.#queue.then(() => this.#step());
    const settled = step.then(() => {}, () => {});
    this.#queue = settled;
    settled.then(() => {
      if (this.#queue === settled) this.#queue = null;
    });
    return step;
  }

  async #step() {
    if (this.#done) {
      if (this.#aborted) throw abortError(this.#signal);
      return { value: undefined, done: true };
    }
    if (this.#ready.length) return { value: this.#ready.shift(), done: false };
    try {
      // The handle gives every item that is ready at once; they are handed out one by one.
      const batch = await new Promise((resolve, reject) => this.#handle.next(resolve, reject));
      if (batch.length === 0) {
        this.#finish();
        return { value: undefined, done: true };
      }
      this.#ready = batch;
      return { value: this.#ready.shift(), done: false };
    } catch (e) {
      this.#finish();
      if (e?.code === 'ABORTED') throw abortError(this.#signal);
      throw e;
    }
  }

  /** Stops the run (what `break` in `for await` calls). */
  async return(value) {
    this.cancel();
    return { value, done: true };
  }

  /** Stops the run at once; nothing more is written to the session. */
  cancel() {
    if (this.#done) return;
    this.#handle.cancel();
    this.#finish();
  }

  #finish() {
    this.#done = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** The events as a `ReadableStream`; cancelling the stream stops the run. */
  toReadableStream() {
    return new ReadableStream({
      pull: async (controller) => {
        try {
          const { value, done } = await this.next();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (e) {
          controller.error(e);
        }
      },
      cancel: () => this.cancel(),
    }, { highWaterMark: 0 });
  }
}

/** An A2A stream in progress: an async iterable of stream responses, with `toReadableStream()`. */
export class A2AStream extends Run {}

// ---------------------------------------------------------------------------------------------
// A2A.

const CLIENT = Symbol('adk-wasm A2A client handle');

/** A client of one remote A2A agent: protocol 1.0 or 0.3, JSON-RPC or HTTP+JSON, as its card allows. */
export class A2AClient {
  /** Reads the agent card at `url` (the agent's base URL, or the card's own URL) and picks an interface. */
  static async fromCardUrl(url, options = {}) {
    needWasm('A2AClient');
    return new A2AClient(await wasm.A2AClientHandle.fromCardUrl(url, options));
  }

  /** A client for the agent a card object describes. */
  static fromCard(card, options = {}) {
    needWasm('A2AClient');
    return new A2AClient(wasm.A2AClientHandle.fromCard(card, options));
  }

  constructor(handle) {
    if (!(handle instanceof wasm.A2AClientHandle)) {
      throw adkError('INVALID_ARGUMENT', 'A2AClient: use A2AClient.fromCardUrl(url) or A2AClient.fromCard(card)');
    }
    this[CLIENT] = handle;
  }

  get card() { return this[CLIENT].card; }
  get protocolVersion() { return this[CLIENT].protocolVersion; }
  get binding() { return this[CLIENT].binding; }
  get url() { return this[CLIENT].url; }

  sendMessage(params) { return this[CLIENT].sendMessage(params); }
  sendMessageStream(params, { signal } = {}) { return new A2AStream(this[CLIENT].sendMessageStream(params), signal); }
  getTask(id, { historyLength } = {}) { return this[CLIENT].getTask(id, historyLength); }
  cancelTask(id) { return this[CLIENT].cancelTask(id); }
  subscribeToTask(id, { signal } = {}) { return new A2AStream(this[CLIENT].subscribeToTask(id), signal); }
  listTasks(params) { return this[CLIENT].listTasks(params); }
}

/** An agent of the tree whose work happens on an A2A server (ADK's `RemoteA2aAgent`). */
export class RemoteA2aAgent extends BaseAgent {
  constructor(options) {
    super(options);
    const client = options.client?.[CLIENT];
    if (options.client !== undefined && !client) throw adkError('INVALID_ARGUMENT', `RemoteA2aAgent \`${options.name}\`: client must be an A2AClient`);
    this[HANDLE] = client ? wasm.AgentHandle.remoteA2aFromClient(options, client) : wasm.AgentHandle.remoteA2aFromCardUrl(options);
    this.agentCardUrl = options.agentCardUrl;
  }
}

function sessionServiceOf(handle, service) {
  if (service instanceof wasm.InMemorySessionService) handle.useInMemorySessionService(service);
  else handle.useJsSessionService(service);
}

/** Runs an agent tree over sessions (ADK's `Runner`). */
export class Runner {
  #handle;

  constructor({ appName, agent, sessionService, artifactService, memoryService, autoCreateSession = false }) {
    needWasm('Runner');
    this.appName = appName;
    this.agent = agent;
    this.sessionService = sessionService;
    this.artifactService = artifactService;
    this.memoryService = memoryService;
    this.#handle = new wasm.RunnerHandle(appName, handleOf(agent), autoCreateSession);
    sessionServiceOf(this.#handle, sessionService);
    if (artifactService) this.#handle.useInMemoryArtifactService(artifactService);
    if (memoryService) this.#handle.useInMemoryMemoryService(memoryService);
  }

  /**
   * Runs one invocation for `newMessage`; yields every event as it happens (each already recorded
   * in the session, partial chunks aside). `signal` (or `abortSignal`) stops it.
   */
  runAsync({ userId, sessionId, newMessage, stateDelta, runConfig, signal, abortSignal }) {
    const handle = this.#handle.runAsync({ userId, sessionId, newMessage, stateDelta, runConfig });
    return new Run(handle, signal ?? abortSignal);
  }
}

/** A `Runner` with in-memory session, artifact and memory services. */
export class InMemoryRunner extends Runner {
  constructor({ agent, appName = 'InMemoryRunner', autoCreateSession = false }) {
    super({
      appName,
      agent,
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      memoryService: new InMemoryMemoryService(),
      autoCreateSession,
    });
  }
}
