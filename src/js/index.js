// The package entry: the wasm-bindgen exports, grouped and named as in @google/adk, plus the thin
// JS layer that makes runs async iterables / ReadableStreams and wires AbortSignals.
// Call `await init()` once (or `initSync(bytes)`) before anything else.
import * as wasm from './adk_wasm.js';
import { adkError, needWasm, Run, Part as EventPart, textBase64Url as base64Url } from './core.js';
import { absoluteUrl, CLIENT } from './a2a.js';

export {
  default, initSync, parseEvent, eventToJson, createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses,
  hasTrailingCodeExecutionResult, isUser, isAgent, hasError, LlmResponse, Run, setLimits, getLimits,
} from './core.js';
// From the entry, not through core.js: fetched a round trip sooner.
export { onFatal } from './fatal.js';
export { A2AClient, A2AStream } from './a2a.js';
export {
  getUserInputRequests, requiresUserInput, getPendingUserInputRequests, createUserInputResponse,
} from './user_input.js';
export { signIn } from './sign_in.js';
export { AdkServerClient } from './adk-server.js';

// The seeds' Part and Blob helpers, for tool and callback code (so not in the a2a entry). Built in
// JS as the Rust ones build them: they need no wasm code.

/** `text` quoted as Python's json.dumps quotes it: everything outside printable ASCII as \uXXXX. */
const pythonString = (text) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const Part = Object.freeze({
  ...EventPart,
  fromCustomizedResponse({ content = '', disableBargeIn = false, enableDtmf = false, dtmfFinishDigit = '#', dtmfEndpointingTimeout = 3 } = {}) {
    if (!Number.isSafeInteger(dtmfEndpointingTimeout)) {
      throw adkError('INVALID_ARGUMENT', 'Part.fromCustomizedResponse: dtmfEndpointingTimeout must be an integer number of seconds');
    }
    // The settings as Python's json.dumps writes them (key order, spacing, ASCII escapes).
    const text = `{"content": ${pythonString(String(content))}, "disableBargeIn": ${Boolean(disableBargeIn)}, "enableDtmf": ${Boolean(enableDtmf)}, `
      + `"dtmfFinishDigit": ${pythonString(String(dtmfFinishDigit))}, "dtmfEndpointingTimeout": ${dtmfEndpointingTimeout}}`;
    return { inlineData: { data: base64Url(text), mimeType: 'application/json+agentResponse' } };
  },
  // Plain reads of the part object: done in JS, so a large inline blob is never copied into wasm.
  textOrTranscript: (part) => part?.text ?? part?.inlineData?.transcript ?? null,
  hasFunctionCall: (part, name) => part?.functionCall?.name === name,
  hasFunctionResponse: (part, name) => part?.functionResponse?.name === name,
});

export const Blob = Object.freeze({
  fromJson: (data) => ({ data: base64Url(String(data)), mimeType: 'application/json' }),
  transcript: (blob) => blob?.transcript ?? null,
});

// One class per kind of service, whatever keeps the data: `SessionService.inMemory()`,
// `.indexedDb({databaseName})`, `.fromJs(object)`; likewise `MemoryService` and `ArtifactService`.
export const SessionService = wasm.SessionService;
export const MemoryService = wasm.MemoryService;
export const CredentialService = wasm.CredentialService;
export const ArtifactService = wasm.ArtifactService;
// How each service class is made is one wasm export (`make`, taking the kind's number), and
// its methods one more (`call`, taking the method's number, as the METHODS of session/mod.rs,
// artifact/mod.rs and memory/mod.rs number them, which tests/api/check.mjs holds to the lists
// here): two exports instead of one per maker and method, for a smaller module.
// The makers are methods (so named `inMemory`, …) defined as wasm-bindgen defines a static one:
// writable, configurable, not enumerable.
for (const service of [wasm.SessionService, wasm.ArtifactService, wasm.MemoryService, wasm.CredentialService]) {
  const methods = service === wasm.CredentialService ? {
    inMemory() { return service.make(0); },
    sessionState() { return service.make(1); },
  } : {
    inMemory() { return service.make(0); },
    indexedDb(options) { return service.make(1, options); },
    fromJs(object) { return service.make(2, object); },
  };
  for (const name in methods) Object.defineProperty(service, name, { value: methods[name], writable: true, configurable: true });
}
/** Names a service class's methods: each calls its one `call` export with the method's number. */
function callsByNumber(service, names) {
  names.forEach((name, n) => Object.defineProperty(service.prototype, name, { value(request) { return this.call(n, request); } }));
}
callsByNumber(wasm.SessionService, ['createSession', 'getSession', 'listSessions', 'deleteSession', 'appendEvent', 'exportSession', 'importSession']);
callsByNumber(wasm.ArtifactService, ['saveArtifact', 'loadArtifact', 'listArtifactKeys', 'deleteArtifact', 'listVersions', 'listArtifactVersions', 'getArtifactVersion']);
callsByNumber(wasm.MemoryService, ['addSessionToMemory', 'addEventsToMemory', 'searchMemory', 'deleteMemory']);

/** A class name `@google/adk` users know, making the one class of its kind. */
function serviceAlias(name, make) {
  return { [name]: class {
    constructor(options) {
      needWasm(name);
      return make(options);
    }
  } }[name];
}

export const InMemorySessionService = serviceAlias('InMemorySessionService', wasm.SessionService.inMemory);
export const IndexedDbSessionService = serviceAlias('IndexedDbSessionService', wasm.SessionService.indexedDb);
/** Deletes an IndexedDB database and everything in it (`SessionService.deleteDatabase`). */
IndexedDbSessionService.deleteDatabase = (name) => wasm.SessionService.deleteDatabase(name);
export const InMemoryMemoryService = serviceAlias('InMemoryMemoryService', wasm.MemoryService.inMemory);
export const IndexedDbMemoryService = serviceAlias('IndexedDbMemoryService', wasm.MemoryService.indexedDb);
export const InMemoryArtifactService = serviceAlias('InMemoryArtifactService', wasm.ArtifactService.inMemory);
export const IndexedDbArtifactService = serviceAlias('IndexedDbArtifactService', wasm.ArtifactService.indexedDb);
export const InMemoryCredentialService = serviceAlias('InMemoryCredentialService', wasm.CredentialService.inMemory);
export const SessionStateCredentialService = serviceAlias('SessionStateCredentialService', wasm.CredentialService.sessionState);
export const CredentialManager = wasm.CredentialManager;
// Its methods are one export, `act(n, ctx)`, numbered as credential.rs numbers them.
Object.defineProperties(wasm.CredentialManager.prototype, {
  getAuthCredential: { value(ctx) { return this.act(0, ctx); } },
  requestCredential: { value(ctx) { return this.act(1, ctx); } },
});
export const Transcript = wasm.Transcript;
export const Context = wasm.Context;
export const State = wasm.State;

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
    handle = wasm.AgentHandle.make(3, options, agent);
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
      this[HANDLE] = wasm.AgentHandle.make(3, options, this);
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

// `kind` as agent.rs numbers the workflow agents (one export for them and agents written in JS).
function workflow(kind) {
  return class extends BaseAgent {
    constructor(options) {
      super(options);
      this[HANDLE] = wasm.AgentHandle.make(kind, options);
      attach(this, options.subAgents);
    }
  };
}

/** Runs its sub-agents in order. */
export class SequentialAgent extends workflow(0) {}
/** Runs its sub-agents at once, each on branch `parent.child`. */
export class ParallelAgent extends workflow(1) {}
/** Runs its sub-agents again and again until one escalates or `maxIterations` rounds ran. */
export class LoopAgent extends workflow(2) {
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
    this[MODEL] = wasm.ModelHandle.make(0, responses);
    this.model = 'scripted';
  }

  /** The requests received so far (for tests). */
  get requests() {
    return this[MODEL].requests();
  }
}

// `kind` as llm.rs numbers the models (one export for the four).
function httpModel(name, kind) {
  return class {
    constructor(options) {
      needWasm(name);
      // The API key goes into wasm memory only; it is never kept on this object.
      this[MODEL] = wasm.ModelHandle.make(kind, options);
      this.model = options.model;
    }
  };
}

/** Gemini over its REST API, streamed with `fetch`. */
export class Gemini extends httpModel('gemini', 2) {}
/** Any `/chat/completions` server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio). */
export class OpenAICompatible extends httpModel('openAICompatible', 3) {}

const jsModels = new WeakMap();

function modelHandleOf(model, who) {
  if (model?.[MODEL]) return model[MODEL];
  if (model && typeof model.generateContent === 'function') {
    let handle = jsModels.get(model);
    if (!handle) jsModels.set(model, (handle = wasm.ModelHandle.make(1, model)));
    return handle;
  }
  throw adkError('INVALID_ARGUMENT', `${who}: model must be a ScriptedModel, Gemini, OpenAICompatible or an object with generateContent(request, {stream, signal})`);
}

// What tool and callback code reaches beyond itself with (the seeds' `tools` and `ces_requests`).

/** Thrown by `raiseForStatus()` when a response is not ok (the seeds' `StatusError`). */
export class StatusError extends Error {
  constructor(statusCode, reason = '') {
    super(reason ? `${statusCode} ${reason}` : `${statusCode}`);
    Object.assign(this, { name: 'StatusError', statusCode, reason });
  }
}

/** What another tool or an HTTP server answered (the seeds' `ExternalResponse`); never thrown. */
export class ExternalResponse {
  constructor({ statusCode, reason = '', text = '' }) {
    Object.assign(this, { statusCode, reason, text });
    Object.freeze(this);
  }

  get ok() {
    return this.statusCode < 400;
  }

  json() {
    try {
      return JSON.parse(this.text);
    } catch (e) {
      throw adkError('INVALID_ARGUMENT', `response body is not JSON: ${e.message}`);
    }
  }

  raiseForStatus() {
    if (!this.ok) throw new StatusError(this.statusCode, this.reason);
  }
}

/** `requests.get(url, options)` and the other methods, each sending through `send`. */
function requestsOver(send) {
  // A `null` or `undefined` value is left out, as Python's `requests` leaves out `None`.
  const pairs = (o) => Object.entries(o ?? {}).flatMap(([k, v]) => (v == null ? [] : [[k, String(v)]]));
  const methods = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'].map((m) => [m, async (url, options = {}) => {
    const fields = await send(m.toUpperCase(), String(url), { ...options, headers: pairs(options.headers), params: pairs(options.params) });
    return new ExternalResponse(fields);
  }]);
  return Object.freeze(Object.fromEntries(methods));
}

/** HTTP calls in the shape of Python's `requests`, outside a run (the seeds' `ces_requests`). */
export const requests = requestsOver((method, url, options) => wasm.http(0, method, url, options));

// The context is a wasm class whose read-only members are one export, `read(n)` (each export costs
// a shim): the first members here name them, in the order context.rs numbers them. The rest give
// back the JS response class, so they live here too, with the two getters that copied the history
// before it had methods named for that.
Object.defineProperties(wasm.Context.prototype, {
  invocationId: { get() { return this.read(0); } },
  agentName: { get() { return this.read(1); } },
  branch: { get() { return this.read(2); } },
  functionCallId: { get() { return this.read(3); } },
  toolConfirmation: { get() { return this.read(4); } },
  userContent: { get() { return this.read(5); } },
  userId: { get() { return this.read(6); } },
  sessionId: { get() { return this.read(7); } },
  variables: { get() { return this.read(8); } },
  // Set as wasm reads a `bool` argument: the value as a whole number (`| 0`), non-zero true.
  endInvocation: { get() { return this.read(9); }, set(end) { this.act(11, end | 0); } },
  abortSignal: { get() { return this.read(10); } },
  getSession: { value() { return this.read(11); } },
  getEvents: { value() { return this.read(12); } },
  getLastUserInput: { value() { return this.read(13); } },
  getLastAgentOutput: { value() { return this.read(14); } },
  parts: { value() { return this.read(15); } },
  state: { get() { return this.read(16); } },
  // The members that act are one export too, `act(n, …)`, numbered as context.rs numbers them.
  requestConfirmation: { value(options) { return this.act(0, options); } },
  requestCredential: { value(authConfig) { return this.act(1, authConfig); } },
  getAuthResponse: { value(authConfig) { return this.act(2, authConfig); } },
  saveCredential: { value(authConfig) { return this.act(3, authConfig); } },
  loadCredential: { value(authConfig) { return this.act(4, authConfig); } },
  saveArtifact: { value(filename, artifact) { return this.act(5, filename, artifact); } },
  // A version is read as a whole number ≥ 0 (`>>> 0`), as a `u32` argument of wasm-bindgen's is.
  loadArtifact: { value(filename, version) { return this.act(6, filename, version == null ? undefined : version >>> 0); } },
  listArtifacts: { value() { return this.act(7); } },
  searchMemory: { value(query) { return this.act(8, query); } },
  getVariable: { value(key, defaultValue) { return this.state.op(6, key, defaultValue); } },
  setVariable: { value(key, value) { this.state.op(7, key, value); } },
  removeVariable: { value(key) { this.state.op(8, key); } },
  session: { get() { return this.getSession(); } },
  events: { get() { return this.getEvents(); } },
  callTool: {
    value(name, args) {
      return this.act(9, String(name), args).then((fields) => new ExternalResponse(fields));
    },
  },
  tools: {
    get() {
      // `then` is left out so that awaiting the object does not call a tool.
      return new Proxy({}, { get: (_, name) => (typeof name === 'string' && name !== 'then' ? (args) => this.callTool(name, args) : undefined) });
    },
  },
  requests: {
    get() {
      return requestsOver((method, url, options) => this.act(10, method, url, options));
    },
  },
});

// The state's methods are one export, `op(n, arg, value)`, numbered as context.rs numbers them.
Object.defineProperties(wasm.State.prototype, {
  get: { value(key) { return this.op(0, key); } },
  set: { value(key, value) { return this.op(1, key, value); } },
  has: { value(key) { return this.op(2, key); } },
  update: { value(delta) { return this.op(3, delta); } },
  hasDelta: { value() { return this.op(4); } },
  toObject: { value() { return this.op(5); } },
});

/** A tool made of a JS function: `execute(args, toolContext)` may be async; its result goes back to the model. */
export class FunctionTool {
  constructor({ name, description = '', parameters, execute, isLongRunning = false, requireConfirmation = false }) {
    // Checked in JS, so tools can be declared at module level before init().
    if (typeof name !== 'string' || !name) throw adkError('INVALID_ARGUMENT', 'FunctionTool: name: expected a string');
    if (typeof execute !== 'function') throw adkError('INVALID_ARGUMENT', `FunctionTool \`${name}\`: execute must be a function`);
    if (typeof requireConfirmation !== 'boolean' && typeof requireConfirmation !== 'function') {
      throw adkError('INVALID_ARGUMENT', `FunctionTool \`${name}\`: requireConfirmation must be a boolean or a function`);
    }
    Object.assign(this, { name, description, parameters, execute, isLongRunning, requireConfirmation });
  }

  /** A fresh wasm handle for one agent. */
  toHandle() {
    return wasm.ToolHandle.make(0, this);
  }
}

/** An agent offered to the model as a tool (ADK's `AgentTool`): it answers `{request}` (or its agent's `inputSchema`) in a session of its own. */
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

/** One of ADK's built-in tools, by its name: a fresh wasm handle for each agent. */
const builtInTool = (name) => Object.freeze({ name, toHandle: () => wasm.ToolHandle.make(4, name) });

/** ADK's `exit_loop` tool: ends the enclosing LoopAgent. */
export const exitLoop = builtInTool('exit_loop');

/** ADK's `get_user_choice` tool: the model offers options, the run pauses until the person picks one. */
export const getUserChoiceTool = builtInTool('get_user_choice');

/** ADK 2.x's `request_input` tool (`adk_request_input`): the model asks the person a question and the run pauses. */
export const requestInputTool = builtInTool('adk_request_input');

/** A class of ADK's built-in tools named `className` (as ADK's), whose instances are the tool `name`. */
function builtIn(className, name) {
  return { [className]: class {
    name = name;

    /** A fresh wasm handle for one agent. */
    toHandle() {
      return wasm.ToolHandle.make(4, name);
    }
  } }[className];
}

/**
 * ADK's `PreloadMemoryTool`: before each model call, the user's memories matching their message are
 * put before it. The model never sees it as a tool.
 */
export const PreloadMemoryTool = builtIn('PreloadMemoryTool', 'preload_memory');

/** Gemini's own tools (ADK's `GoogleSearchTool`, …): the model runs them; a non-Gemini model refuses them. */
export const GoogleSearchTool = builtIn('GoogleSearchTool', 'google_search');
export const UrlContextTool = builtIn('UrlContextTool', 'url_context');
export const GoogleMapsGroundingTool = builtIn('GoogleMapsGroundingTool', 'google_maps_grounding');
export const GOOGLE_SEARCH = Object.freeze(new GoogleSearchTool());
export const URL_CONTEXT = Object.freeze(new UrlContextTool());
export const GOOGLE_MAPS_GROUNDING = Object.freeze(new GoogleMapsGroundingTool());

/**
 * ADK's `LoadArtifactsTool` (`LOAD_ARTIFACTS` in `@google/adk`): the model is told the session's artifact
 * names and loads the ones it needs into its next request.
 */
export const LoadArtifactsTool = builtIn('LoadArtifactsTool', 'load_artifacts');
export const LOAD_ARTIFACTS = Object.freeze(new LoadArtifactsTool());

/**
 * ADK's `load_web_page`: the readable text of a page, as ADK extracts it (its text pieces, one a
 * line, then only lines of more than three words). Never throws: a refused URL, a status other than
 * 200, a redirect (never followed) or a failed fetch is `Failed to fetch url: <url>`, a failed fetch
 * saying it may be CORS. Options: `fetch`, `signal`, `allowPrivateNetworkAccess`.
 */
export async function loadWebPage(url, options = {}) {
  const failed = `Failed to fetch url: ${url}`;
  // Checked and fetched as the browser reads it (tabs dropped, `%XX` and full-width hosts decoded).
  let target;
  try {
    target = new URL(String(url)).href;
  } catch {
    return failed;
  }
  if (wasm.http(1, target, options.allowPrivateNetworkAccess) !== undefined) return failed;
  let response;
  try {
    response = await (options.fetch ?? fetch)(target, { redirect: 'manual', signal: options.signal });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    return `${failed} (the site could not be reached, or does not allow this page's origin: CORS)`;
  }
  let html;
  try {
    // A body not read is let go rather than left to arrive.
    html = response.status === 200 ? await cappedText(response) : void response.body?.cancel().catch(() => {});
  } catch (e) {
    // The connection lost mid-page is a failure to fetch it, as before its headers.
    if (options.signal?.aborted) throw e;
  }
  if (html === undefined) return failed;
  return textOfPage(html).split('\n').filter((line) => line.split(/\s+/).filter(Boolean).length > 3).join('\n');
}

/** The body as text, or undefined past ADK's 10 MiB (checked before the body is read when declared). */
async function cappedText(response) {
  const LIMIT = 10 << 20;
  if (Number(response.headers.get('content-length') ?? 0) > LIMIT) return undefined;
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    size += part.value.length;
    if (size > LIMIT) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(part.value);
  }
  const bytes = new Uint8Array(size);
  chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0);
  return new TextDecoder().decode(bytes);
}

/** A page's text pieces, each trimmed, one a line (BeautifulSoup's `get_text('\n', strip=True)`). */
function textOfPage(html) {
  if (typeof DOMParser === 'undefined') {
    // No DOM (a worker): tags as line breaks, without scripts, styles and comments, in one pass.
    let text = '';
    for (let at = 0; at < html.length;) {
      const open = html.indexOf('<', at);
      if (open < 0) { text += html.slice(at); break; }
      text += html.slice(at, open);
      const skipped = /^<(script|style|template)\b/i.exec(html.slice(open, open + 10))?.[1];
      // Each search either consumes what it scanned or ends the pass: linear, whatever is unclosed.
      let end;
      if (html.startsWith('<!--', open)) end = html.indexOf('-->', open) + 2;
      else if (skipped) {
        const closer = new RegExp(`</${skipped}`, 'gi');
        closer.lastIndex = open;
        end = closer.exec(html)?.index ?? -1;
      } else end = html.indexOf('>', open);
      at = end < open ? html.length : html.indexOf('>', end) + 1 || html.length;
      text += '\n';
    }
    return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e])
      .split('\n').map((t) => t.trim()).filter(Boolean).join('\n');
  }
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
  const pieces = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (/^(SCRIPT|STYLE|TEMPLATE)$/.test(node.parentNode?.nodeName ?? '')) continue;
    const text = node.data.trim();
    if (text) pieces.push(text);
  }
  return pieces.join('\n');
}

/** ADK's `load_web_page` as a tool (`LOAD_WEB_PAGE` in `@google/adk`), declared as ADK Python declares it. */
export const LOAD_WEB_PAGE = new FunctionTool({
  name: 'load_web_page',
  description: 'Fetches the content in the url and returns the text in it.\n\nArgs:\n    url (str): The url to browse.\n\nReturns:\n    str: The text content of the url.',
  parameters: { properties: { url: { title: 'Url', type: 'string' } }, required: ['url'], title: 'load_web_pageParams', type: 'object' },
  execute: ({ url }, context) => loadWebPage(url, { signal: context?.abortSignal }),
});

/** ADK's `load_memory` tool (`LOAD_MEMORY` in `@google/adk`): the model searches the user's memories. */
export const LOAD_MEMORY = builtInTool('load_memory');

/**
 * The tools of an MCP server over Streamable HTTP or HTTP+SSE (`@google/adk`'s `MCPToolset`, ADK's `McpToolset`):
 * listed on each model call (once per invocation), each declared from its `inputSchema`, each call's
 * `CallToolResult` handed to the model as ADK hands it. `toolFilter`: names, or a predicate of
 * `{name, description}`; `prefix`: tools named `<prefix>_<name>`; `options.headerProvider(context)`:
 * headers for each request (ADK's `header_provider`).
 */
export class MCPToolset {
  #handle;

  constructor(connectionParams, toolFilter, prefix, options) {
    needWasm('MCPToolset');
    this.#handle = wasm.ToolHandle.make(2, connectionParams, toolFilter, prefix, options);
    Object.assign(this, { connectionParams, toolFilter, prefix });
  }

  /** A handle for one agent's `tools`; every agent shares this toolset's MCP session. */
  toHandle() {
    return this.#handle.share();
  }

  /** Ends the MCP session (`DELETE`, or the SSE stream closed). */
  close() {
    return this.#handle.close();
  }
}

/**
 * The operations of an OpenAPI 3 spec as tools (`@google/adk`'s `OpenAPIToolset`, ADK's): each named
 * and parameterised as ADK's `OperationParser` does, called through the runner's `fetch` with the
 * run's abort signal, its answer (JSON, else `{text}`, else ADK's error text) given to the model.
 */
export class OpenAPIToolset {
  #handle;

  constructor(options) {
    needWasm('OpenAPIToolset');
    this.#handle = wasm.ToolHandle.make(1, options);
    Object.assign(this, { toolFilter: options?.toolFilter, prefix: options?.prefix });
  }

  /** A handle for one agent's `tools`. */
  toHandle() {
    return this.#handle.share();
  }

  /** Nothing is held open; here for `BaseToolset`'s shape. */
  async close() {}
}

/**
 * ADK's `McpInstructionProvider`: an agent's `instruction` (or `globalInstruction`) fetched from an MCP
 * server's prompt on each turn, the prompt's arguments taken from the session state.
 */
export class McpInstructionProvider {
  #handle;

  constructor(connectionParams, promptName) {
    needWasm('McpInstructionProvider');
    this.#handle = new wasm.McpInstructionProviderHandle(connectionParams, promptName);
    Object.assign(this, { connectionParams, promptName });
  }

  /** The instruction for one turn. */
  getInstruction(context) {
    return this.#handle.text(context.state.toObject());
  }
}

/** An instruction as the wasm agent reads it: text, or a function of the context. */
const instructionOf = (i) => (i instanceof McpInstructionProvider ? (context) => i.getInstruction(context) : i);

/**
 * A source of tools written in JS (`@google/adk`'s `BaseToolset`): `getTools(context)` gives the tools
 * for each model call (`context`: `{invocationId, agentName, userId, sessionId}`); `toolFilter` (names
 * or a predicate) and `prefix` apply as to any toolset; `close()` when you are done.
 */
export class BaseToolset {
  constructor(toolFilter, prefix) {
    Object.assign(this, { toolFilter, prefix });
  }

  async getTools(_context) {
    throw adkError('UNIMPLEMENTED', `${this.constructor.name}: getTools is not implemented`);
  }

  async close() {}
}

/** Awaits a JS toolset's `getTools` (called with the toolset as `this`) into the wasm sink. */
async function resolveToolset(context, sink) {
  const tools = await this.getTools(context);
  if (!Array.isArray(tools)) throw adkError('INVALID_ARGUMENT', 'getTools must resolve to an array of tools');
  for (const tool of tools) sink.push(toolHandleOf(tool, context.agentName));
}

function toolHandleOf(tool, agentName) {
  if (tool && typeof tool.toHandle === 'function') return tool.toHandle();
  if (tool && typeof tool.getTools === 'function') return wasm.ToolHandle.make(3, tool, resolveToolset);
  if (tool && typeof tool.execute === 'function') return wasm.ToolHandle.make(0, tool);
  throw adkError('INVALID_ARGUMENT', `LlmAgent \`${agentName}\`: a tool must be a FunctionTool, an AgentTool, a toolset (MCPToolset, OpenAPIToolset, a BaseToolset) or {name, description, parameters, execute}`);
}

/** ADK's `BuiltInCodeExecutor`, an `LlmAgent`'s `codeExecutor`: Gemini runs the code it writes. */
export class BuiltInCodeExecutor {}

/** ADK's `BuiltInPlanner`, an `LlmAgent`'s `planner`: the model's own thinking, as `thinkingConfig` says. */
export class BuiltInPlanner {
  constructor({ thinkingConfig } = {}) {
    if (!thinkingConfig || typeof thinkingConfig !== 'object' || Array.isArray(thinkingConfig)) {
      throw adkError('INVALID_ARGUMENT', 'BuiltInPlanner: thinkingConfig must be an object ({includeThoughts, thinkingBudget, …})');
    }
    this.thinkingConfig = thinkingConfig;
  }
}

/** ADK's `PlanReActPlanner`, an `LlmAgent`'s `planner`: plans, reasoning and actions in tagged text, made thoughts. */
export class PlanReActPlanner {}

/** The planner as the wasm side reads it: a thinking config, `'PlanReAct'`, or none. */
function plannerOf({ planner, name }) {
  if (planner == null) return undefined;
  if (planner instanceof BuiltInPlanner) return { thinkingConfig: planner.thinkingConfig };
  if (planner instanceof PlanReActPlanner) return 'PlanReAct';
  throw adkError('INVALID_ARGUMENT', `LlmAgent \`${name}\`: planner must be a BuiltInPlanner or a PlanReActPlanner`);
}

/** An agent whose turns come from a model, with tools, callbacks and transfers (ADK's `LlmAgent`). */
export class LlmAgent extends BaseAgent {
  constructor(options) {
    super(options);
    Object.assign(this, {
      model: options.model, instruction: options.instruction, tools: options.tools ?? [], outputKey: options.outputKey,
      outputSchema: options.outputSchema, inputSchema: options.inputSchema,
      includeContents: options.includeContents ?? 'default', codeExecutor: options.codeExecutor,
    });
    this.planner = options.planner;
    const planner = plannerOf(options);
    // The only executor there is: a page has no sandbox to run the model's code in itself.
    if (options.codeExecutor != null && !(options.codeExecutor instanceof BuiltInCodeExecutor)) {
      throw adkError('INVALID_ARGUMENT', `LlmAgent \`${options.name}\`: codeExecutor must be a BuiltInCodeExecutor`);
    }
    const tools = this.tools.map((t) => toolHandleOf(t, options.name));
    const instructions = { instruction: instructionOf(options.instruction), globalInstruction: instructionOf(options.globalInstruction) };
    this[HANDLE] = wasm.AgentHandle.llm({ ...options, ...instructions, planner }, modelHandleOf(options.model, `LlmAgent \`${options.name}\``), tools);
    attach(this, options.subAgents);
  }
}

// ---------------------------------------------------------------------------------------------
// Runs.

const SUMMARIZER = Symbol('adk-wasm summarizer handle');
const APP = Symbol('adk-wasm app handle');

/** ADK's `LlmEventSummarizer`: writes compaction summaries with `llm` (any model), ADK's prompt or `promptTemplate`. */
export class LlmEventSummarizer {
  constructor({ llm, promptTemplate } = {}) {
    needWasm('LlmEventSummarizer');
    this.llm = llm;
    this.promptTemplate = promptTemplate;
    this[SUMMARIZER] = wasm.SummarizerHandle.llm(modelHandleOf(llm, 'LlmEventSummarizer'), promptTemplate);
  }
}

/** ADK's `App`: the root agent under a name, and when its sessions are compacted (`eventsCompactionConfig`). */
export class App {
  constructor({ name, rootAgent, plugins = [], eventsCompactionConfig }) {
    needWasm('App');
    const { summarizer, ...trigger } = eventsCompactionConfig ?? {};
    if (summarizer != null && !(summarizer instanceof LlmEventSummarizer)) {
      throw adkError('INVALID_ARGUMENT', 'App: eventsCompactionConfig.summarizer must be an LlmEventSummarizer');
    }
    this[APP] = new wasm.AppHandle(name, eventsCompactionConfig == null ? undefined : trigger);
    if (rootAgent == null) throw adkError('INVALID_ARGUMENT', 'root_agent must be provided.');
    if (summarizer != null) this[APP].useSummarizer(summarizer[SUMMARIZER]);
    Object.assign(this, { name, rootAgent, plugins, eventsCompactionConfig });
  }
}

/** An agent of the tree whose work happens on an A2A server (ADK's `RemoteA2aAgent`). */
export class RemoteA2aAgent extends BaseAgent {
  constructor(options) {
    super(options);
    const client = options.client?.[CLIENT];
    if (options.client !== undefined && !client) throw adkError('INVALID_ARGUMENT', `RemoteA2aAgent \`${options.name}\`: client must be an A2AClient`);
    this[HANDLE] = client
      ? wasm.AgentHandle.remoteA2aFromClient(options, client)
      : wasm.AgentHandle.remoteA2aFromCardUrl({ ...options, agentCardUrl: absoluteUrl(options.agentCardUrl) });
    this.agentCardUrl = options.agentCardUrl;
  }
}

// ---------------------------------------------------------------------------------------------
// Plugins.

/** The hooks of a plugin, as `@google/adk` names them. */
const PLUGIN_HOOKS = [
  'onUserMessageCallback', 'beforeRunCallback', 'onEventCallback', 'afterRunCallback', 'beforeAgentCallback', 'afterAgentCallback',
  'beforeModelCallback', 'afterModelCallback', 'onModelErrorCallback', 'beforeToolCallback', 'afterToolCallback', 'onToolErrorCallback',
];

/**
 * Base of every plugin (`@google/adk`'s `BasePlugin`): override the hooks you need; a hook that
 * returns a value stops the plugins after it (and, at the agent, model and tool hooks, the
 * agent's own callbacks). Give the plugins to a runner (`plugins: [...]`).
 */
export class BasePlugin {
  constructor(name) {
    this.name = name;
  }
}
for (const hook of PLUGIN_HOOKS) BasePlugin.prototype[hook] = async function () {};

/** A plugin's wasm handle: only the hooks it overrides cross over, each bound to it. */
function pluginHandleOf(plugin) {
  if (typeof plugin?.toHandle === 'function') return plugin.toHandle();
  if (typeof plugin?.name !== 'string') throw adkError('INVALID_ARGUMENT', 'Runner: a plugin must be a BasePlugin (or an object with a name and hooks)');
  const hooks = {};
  for (const hook of PLUGIN_HOOKS) {
    const f = plugin[hook];
    if (typeof f === 'function' && f !== BasePlugin.prototype[hook]) hooks[hook] = f.bind(plugin);
  }
  return wasm.PluginHandle.make(0, plugin.name, hooks);
}

/** ADK's `GlobalInstructionPlugin`: `globalInstruction` (a template or a function of the context) leads every model request's system instruction. */
export class GlobalInstructionPlugin extends BasePlugin {
  constructor(globalInstruction = '', name = 'global_instruction') {
    super(name);
    this.globalInstruction = globalInstruction;
  }

  toHandle() {
    return wasm.PluginHandle.make(1, this.name, instructionOf(this.globalInstruction));
  }
}

/** A content's texts and calls, briefly, for `LoggingPlugin`. */
const brief = (content) => (content?.parts ?? []).map((p) => (p.text !== undefined ? `text: '${p.text}'` : p.functionCall ? `function_call: ${p.functionCall.name}`
  : p.functionResponse ? `function_response: ${p.functionResponse.name}` : 'other part')).join(' | ') || 'None';

/** ADK's `LoggingPlugin`: a console line for each hook of a run, with ADK's headings; answers nothing. */
export class LoggingPlugin extends BasePlugin {
  constructor(name = 'logging_plugin') {
    super(name);
  }

  log(heading, detail) {
    console.log(`[${this.name}] ${heading} ${detail}`);
  }

  async onUserMessageCallback({ invocationContext, userMessage }) { this.log('🚀 USER MESSAGE RECEIVED', `invocation ${invocationContext.invocationId}: ${brief(userMessage)}`); }
  async beforeRunCallback({ invocationContext }) { this.log('🏃 INVOCATION STARTING', `agent ${invocationContext.agentName}`); }
  async onEventCallback({ event }) { this.log('📢 EVENT YIELDED', `${event.id} by ${event.author}: ${brief(event.content)}`); }
  async afterRunCallback({ invocationContext }) { this.log('✅ INVOCATION COMPLETED', invocationContext.invocationId); }
  async beforeAgentCallback({ agent }) { this.log('🤖 AGENT STARTING', agent.name); }
  async afterAgentCallback({ agent }) { this.log('🤖 AGENT COMPLETED', agent.name); }
  async beforeModelCallback({ callbackContext, llmRequest }) { this.log('🧠 LLM REQUEST', `${llmRequest.model ?? 'default'} for ${callbackContext.agentName}`); }
  async afterModelCallback({ callbackContext, llmResponse }) { this.log('🧠 LLM RESPONSE', `for ${callbackContext.agentName}: ${brief(llmResponse.content)}`); }
  async onModelErrorCallback({ callbackContext, error }) { this.log('🧠 LLM ERROR', `for ${callbackContext.agentName}: ${error.message}`); }
  async beforeToolCallback({ tool, toolArgs }) { this.log('🔧 TOOL STARTING', `${tool.name} ${JSON.stringify(toolArgs)}`); }
  async afterToolCallback({ tool, result }) { this.log('🔧 TOOL COMPLETED', `${tool.name}: ${JSON.stringify(result)}`); }
  async onToolErrorCallback({ tool, error }) { this.log('🔧 TOOL ERROR', `${tool.name}: ${error.message}`); }
}

/** A service of `kind` (`SessionService`, …) as it is, or an object implementing it in JS. */
function serviceOf(kind, service) {
  return service instanceof wasm[kind] ? service : wasm[kind].fromJs(service);
}

/** Runs an agent tree over sessions (ADK's `Runner`). */
export class Runner {
  #handle;

  constructor({ app, appName, agent, sessionService, artifactService, memoryService, credentialService, autoCreateSession = false, plugins }) {
    needWasm('Runner');
    if (app != null) {
      if (!(app instanceof App)) throw adkError('INVALID_ARGUMENT', 'Runner: app must be an App');
      if (agent != null) {
        throw adkError('INVALID_ARGUMENT', `Only one of app, agent, or node may be provided, but got: app=App, agent=${agent.constructor?.name ?? typeof agent}. Pass exactly one to Runner().`);
      }
      if (plugins != null) throw adkError('INVALID_ARGUMENT', 'When app is provided, plugins should not be provided and should be provided in the app instead.');
      appName ??= app.name;
      agent = app.rootAgent;
      plugins = app.plugins;
    }
    plugins ??= [];
    this.app = app;
    this.appName = appName;
    this.agent = agent;
    this.plugins = plugins;
    this.sessionService = sessionService;
    this.artifactService = artifactService;
    this.memoryService = memoryService;
    this.credentialService = credentialService;
    this.#handle = new wasm.RunnerHandle(appName, handleOf(agent), serviceOf('SessionService', sessionService), autoCreateSession);
    if (app != null) this.#handle.useApp(app[APP]);
    if (artifactService) this.#handle.useArtifactService(serviceOf('ArtifactService', artifactService));
    if (memoryService) this.#handle.useMemoryService(serviceOf('MemoryService', memoryService));
    if (credentialService) {
      if (!(credentialService instanceof wasm.CredentialService)) {
        throw adkError('INVALID_ARGUMENT', 'Runner: credentialService must be an InMemoryCredentialService or a SessionStateCredentialService');
      }
      this.#handle.useCredentialService(credentialService);
    }
    if (plugins.length) this.#handle.usePlugins(plugins.map(pluginHandleOf));
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
  constructor({ app, agent, appName = app == null ? 'InMemoryRunner' : undefined, credentialService, autoCreateSession = false, plugins }) {
    super({
      plugins,
      credentialService,
      app,
      appName,
      agent,
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      memoryService: new InMemoryMemoryService(),
      autoCreateSession,
    });
  }
}
