// @ts-check
// The flows tests/fixtures/record_flows.py recorded from ADK Python 2.13.0, rebuilt through the
// release package's JS API (LlmAgent over models written in JS that record each request, JS tools
// and callbacks, workflow agents) and compared request for request and event for event with what
// ADK sent and yielded: ids by order of appearance, timestamps aside, as tests/flows.rs does natively.
import init, * as adk from '/pkg/index.js';
import { assert, finish, test } from './harness.js';

await init();
const {
  InMemoryRunner, LlmAgent, SequentialAgent, ParallelAgent, LoopAgent, FunctionTool, AgentTool, exitLoop, getUserChoiceTool,
  requestInputTool, getPendingUserInputRequests, createUserInputResponse,
} = adk;
const APP = 'flows';
const USER = 'user';

const golden = await (await fetch('/tests/fixtures/flows/adk-2.13.0.json')).json();

const reply = (text) => ({ content: { role: 'model', parts: [{ text }] } });
const part = (p) => (typeof p === 'string' ? { text: p } : p.part ?? { functionCall: { name: p.call, args: p.args ?? {} } });

/** The JSON Schema ADK derived for a Python tool, as a JS user writes it. */
function declaration(flow, name) {
  for (const requests of Object.values(flow.requests)) {
    for (const request of requests) {
      for (const group of request.config.tools ?? []) {
        const found = (group.functionDeclarations ?? []).find((d) => d.name === name);
        if (found) return found;
      }
    }
  }
  throw new Error(`no declaration of ${name} was recorded`);
}

const RUN = {
  add: ({ a, b }) => ({ sum: a + b }),
  multiply: ({ a, b }) => ({ product: a * b }),
  get_weather: ({ city }) => ({ city, weather: 'sunny' }),
  ask_for_approval: () => ({ status: 'pending', ticket: 'ticket-1' }),
  transfer_money: ({ to, amount }) => ({ status: 'sent', to, amount }),
  /** @type {(args: any, ctx: adk.Context) => any} */
  request_time_off: ({ days }, ctx) => {
    const confirmation = ctx.toolConfirmation;
    if (!confirmation) {
      ctx.requestConfirmation({ hint: 'Approve the time off.', payload: { approved_days: 0 } });
      return { status: 'Manager approval is required.' };
    }
    if (!confirmation.confirmed) return { status: 'rejected' };
    return { status: 'approved', days: /** @type {any} */ (confirmation.payload).approved_days };
  },
};

const INBOX_AUTH = { authScheme: { type: 'apiKey', in: 'header', name: 'X-Api-Key' }, rawAuthCredential: { authType: 'apiKey' } };
const CALENDAR_AUTH = {
  authScheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  rawAuthCredential: { authType: 'http', http: { scheme: 'bearer', credentials: {} } },
};
/** @type {Record<string, (args: any, ctx: adk.Context) => any>} */
const ASKING = {
  read_inbox: ({ folder }, ctx) => {
    const credential = ctx.getAuthResponse(INBOX_AUTH);
    if (!credential) {
      ctx.requestCredential(INBOX_AUTH);
      return { status: "Waiting for the user's key." };
    }
    return { folder, unread: 2, key_ends: String(credential.apiKey).slice(-3) };
  },
  read_calendar: ({ day }, ctx) => {
    const credential = ctx.getAuthResponse(CALENDAR_AUTH);
    if (!credential) {
      ctx.requestCredential(CALENDAR_AUTH);
      return { status: 'Waiting for sign-in.' };
    }
    return { day, events: 1, token_ends: String(credential.http?.credentials.token).slice(-3) };
  },
};
Object.assign(RUN, ASKING);

/** The tools whose calls wait for approval, by spec name: the tool they are, and when they ask. */
const CONFIRMED = {
  transfer_money: ['transfer_money', true],
  transfer_money_over_100: ['transfer_money', async (/** @type {any} */ { amount }) => amount > 100],
};

function tool(flow, spec, models) {
  if (spec.agent_tool) return new AgentTool({ agent: build(flow, spec.agent_tool, models) });
  if (spec === 'exit_loop') return exitLoop;
  if (spec === 'google_search') return adk.GOOGLE_SEARCH;
  if (spec === 'url_context') return adk.URL_CONTEXT;
  if (spec === 'load_artifacts') return adk.LOAD_ARTIFACTS;
  if (spec === 'get_user_choice') return getUserChoiceTool;
  if (spec === 'request_input') return requestInputTool;
  const [name, requireConfirmation] = CONFIRMED[spec] ?? [spec, false];
  const d = declaration(flow, name);
  return new FunctionTool({
    name: d.name, description: d.description, parameters: d.parametersJsonSchema,
    execute: (args, ctx) => RUN[name](args, ctx), isLongRunning: spec === 'ask_for_approval', requireConfirmation,
  });
}

/** What the plugins and the agents' logging callbacks saw, in order, as the recorder notes it. */
let HOOKS = [];
const note = (who, hook, what) => HOOKS.push(what ? `${who}.${hook}:${what}` : `${who}.${hook}`);

/** The recorder's plugin that notes every hook and answers none. */
class Recorder extends adk.BasePlugin {
  onUserMessageCallback() { note(this.name, 'on_user_message'); }
  beforeRunCallback() { note(this.name, 'before_run'); }
  onEventCallback({ event }) { note(this.name, 'on_event', event.author); }
  afterRunCallback() { note(this.name, 'after_run'); }
  beforeAgentCallback({ agent }) { note(this.name, 'before_agent', agent.name); }
  afterAgentCallback({ agent }) { note(this.name, 'after_agent', agent.name); }
  beforeModelCallback({ callbackContext }) { note(this.name, 'before_model', callbackContext.agentName); }
  afterModelCallback({ callbackContext }) { note(this.name, 'after_model', callbackContext.agentName); }
  onModelErrorCallback({ callbackContext }) { note(this.name, 'on_model_error', callbackContext.agentName); }
  beforeToolCallback({ tool }) { note(this.name, 'before_tool', tool.name); }
  afterToolCallback({ tool }) { note(this.name, 'after_tool', tool.name); }
  onToolErrorCallback({ tool }) { note(this.name, 'on_tool_error', tool.name); }
}

/** The recorder's plugins that answer at one hook each (their name). */
const ANSWERING = {
  answer_on_user_message: { async onUserMessageCallback() { return { role: 'user', parts: [{ text: 'Replaced by a plugin.' }] }; } },
  answer_before_run: { async beforeRunCallback() { return { role: 'model', parts: [{ text: 'Closed for maintenance.' }] }; } },
  answer_before_agent: { async beforeAgentCallback() { return { role: 'model', parts: [{ text: 'Answered before the agent.' }] }; } },
  answer_before_model: { async beforeModelCallback() { return reply('From the plugin.'); } },
  answer_before_tool: { async beforeToolCallback({ toolArgs }) { return { city: toolArgs.city, weather: 'plugin: foggy' }; } },
  tag_events: { async onEventCallback({ event }) { return { ...event, customMetadata: { tagged_by: 'plugin' } }; } },
};

function plugin(name) {
  if (name === 'global_instruction') return new adk.GlobalInstructionPlugin('Always answer in English, {user:name}.');
  if (ANSWERING[name]) return Object.assign(new adk.BasePlugin(name), ANSWERING[name]);
  return new Recorder(name);
}

const CALLBACKS = {
  log_before_agent: ['beforeAgentCallback', (context) => void note('agent', 'before_agent', context.agentName)],
  log_before_model: ['beforeModelCallback', ({ context }) => void note('agent', 'before_model', context.agentName)],
  log_before_tool: ['beforeToolCallback', ({ tool }) => void note('agent', 'before_tool', tool.name)],
  cached_weather: ['beforeToolCallback', ({ tool, args }) => (tool.name === 'get_weather' ? { city: args.city, weather: 'cached: rainy' } : undefined)],
  checked_sum: ['afterToolCallback', ({ tool, response }) => (tool.name === 'add' ? { sum: response.sum, checked: true } : undefined)],
  redact_text: ['afterModelCallback', ({ response }) => (response.content?.parts?.[0]?.text !== undefined ? reply('[redacted]') : undefined)],
  cache_from_state: ['beforeModelCallback', ({ context }) => {
    const cached = context.state.get('cached');
    return cached !== undefined && cached !== null && cached !== '' ? reply('From the cache.') : undefined;
  }],
};

/** A model written in JS answering from `script`, recording each request in `requests`. */
function scripted(name, script, requests) {
  const turns = script.slice();
  return {
    model: name,
    generateContent(request) {
      requests.push(request);
      // `{ prompt_tokens: N }` in a turn: the model reports a prompt of N tokens.
      const turn = turns.shift();
      const usage = turn.find((p) => p.prompt_tokens !== undefined);
      const content = { role: 'model', parts: turn.filter((p) => p !== usage).map(part) };
      return usage ? { content, usageMetadata: { promptTokenCount: usage.prompt_tokens } } : { content };
    },
  };
}

/** The flow's `App`: its compaction, summarized by a JS model recorded as `summarizer`'s. */
function app(spec, rootAgent, models) {
  const requests = [];
  models.push(['summarizer', requests]);
  const summarizer = new adk.LlmEventSummarizer({ llm: scripted('scripted-summarizer', spec.summarizer, requests), promptTemplate: spec.prompt_template });
  const eventsCompactionConfig = {
    compactionInterval: spec.compaction_interval, overlapSize: spec.overlap_size,
    tokenThreshold: spec.token_threshold, eventRetentionSize: spec.event_retention_size, summarizer,
  };
  return new adk.App({ name: APP, rootAgent, eventsCompactionConfig });
}

/** The session's compaction events as the recorder writes them: where each is, its range as positions of events. */
function compactions(session) {
  const stamps = session.events.map((e) => e.timestamp);
  return session.events.flatMap((event, at) => {
    if (!event.actions.compaction) return [];
    const dumped = JSON.parse(JSON.stringify(event));
    for (const key of ['startTimestamp', 'endTimestamp']) dumped.actions.compaction[key] = `<event ${stamps.indexOf(dumped.actions.compaction[key])}>`;
    return [{ at, event: dumped }];
  });
}

function build(flow, spec, models) {
  const subAgents = (spec.sub_agents ?? []).map((s) => build(flow, s, models));
  if (spec.sequential) return new SequentialAgent({ name: spec.sequential, subAgents });
  if (spec.parallel) return new ParallelAgent({ name: spec.parallel, subAgents });
  if (spec.loop) return new LoopAgent({ name: spec.loop, subAgents, maxIterations: spec.max_iterations });
  const requests = [];
  const model = scripted(spec.model ?? `scripted-${spec.llm}`, spec.script, requests);
  models.push([spec.llm, requests]);
  const options = { name: spec.llm, description: spec.description, model, subAgents };
  for (const key of ['instruction', 'globalInstruction', 'outputKey', 'includeContents', 'generateContentConfig', 'disallowTransferToParent', 'disallowTransferToPeers']) {
    const value = spec[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
    if (value !== undefined) options[key] = value;
  }
  options.tools = (spec.tools ?? []).map((t) => tool(flow, t, models));
  if (spec.output_schema) options.outputSchema = spec.output_schema;
  // The Pydantic model ADK took, as the JSON Schema it declared the agent's tool with.
  if (spec.input_schema) options.inputSchema = declaration(flow, spec.llm).parametersJsonSchema;
  if (spec.code_executor === 'built_in') options.codeExecutor = new adk.BuiltInCodeExecutor();
  if (spec.planner) {
    options.planner = spec.planner === 'plan_re_act' ? new adk.PlanReActPlanner() : new adk.BuiltInPlanner({ thinkingConfig: spec.planner.built_in });
  }
  for (const name of spec.callbacks ?? []) {
    const [key, callback] = CALLBACKS[name];
    // Two for one hook: the list form, as the recorder gave ADK.
    options[key] = key in options ? [options[key], callback].flat() : callback;
  }
  return new LlmAgent(options);
}

async function record(flow) {
  const models = [];
  HOOKS = [];
  const plugins = (flow.plugins ?? []).map(plugin);
  const agent = build(flow, flow.agent, models);
  const runner = flow.app ? new InMemoryRunner({ app: app(flow.app, agent, models) }) : new InMemoryRunner({ agent, appName: APP, plugins });
  await runner.sessionService.createSession({ appName: APP, userId: USER, sessionId: 's', state: flow.setup?.state });
  for (const [filename, body] of Object.entries(flow.setup?.artifacts ?? {})) {
    // Text, or a whole Part (media).
    const artifact = typeof body === 'string' ? { text: body } : body;
    await runner.artifactService.saveArtifact({ appName: APP, userId: USER, sessionId: 's', filename, artifact });
  }
  const events = [];
  const calls = [];
  const errors = [];
  for (const turn of flow.turns) {
    const value = turn.credential ? { .../** @type {any} */ (calls[turn.for].args).authConfig, exchangedAuthCredential: turn.credential } : turn.value;
    const parts = typeof turn === 'string'
      ? [{ text: turn }]
      : [{ functionResponse: { id: calls[turn.for].id, name: turn.response, response: value } }];
    let newMessage = { role: 'user', parts };
    // What the person answers, built as a page builds it: from the request the run paused on.
    const pending = getPendingUserInputRequests(events).find((r) => r.interruptId === calls[turn.for]?.id);
    // (A bare credential is a form only ADK 2.x takes; the helper sends the form both take.)
    if (pending && !('response' in value) && (pending.kind !== 'credential' || turn.credential)) {
      const answer = pending.kind === 'confirmation' || pending.kind === 'credential' ? (turn.credential ?? value) : value.result;
      newMessage = /** @type {any} */ (createUserInputResponse(pending, answer));
      assert(JSON.stringify(newMessage) === JSON.stringify({ role: 'user', parts }), JSON.stringify(newMessage));
    }
    try {
      for await (const event of runner.runAsync({ userId: USER, sessionId: 's', newMessage })) {
        calls.push(...adk.getFunctionCalls(event));
        events.push(JSON.parse(JSON.stringify(event)));
      }
      errors.push(null);
    } catch (e) {
      if (!flow.raises) throw e;
      errors.push(/** @type {any} */ (e).code);
    }
  }
  const session = await runner.sessionService.getSession({ appName: APP, userId: USER, sessionId: 's' });
  const byName = Object.fromEntries(models);
  const requests = Object.fromEntries(Object.keys(flow.requests).map((name) => [name, byName[name]]));
  const recorded = { requests: JSON.parse(JSON.stringify(requests)), events, state: session.state, ...(flow.plugins ? { hooks: HOOKS } : {}), ...(flow.app ? { compactions: compactions(session) } : {}) };
  return flow.raises ? { ...recorded, errors } : recorded;
}

/**
 * A run ADK ended by raising: ADK 2.x also stores an error event naming the exception's class, where
 * adk-wasm rejects the run with a typed error and stores nothing (as tests/flows.rs explains). The
 * error of each turn is the code that class maps to; ids are numbered again without the dropped events.
 */
function raisedAsRejections(flow, want) {
  if (!flow.errors) return want;
  const codes = { ValueError: 'INVALID_ARGUMENT' };
  const events = want.events.filter((e) => !String(e.errorCode ?? '').endsWith('Error'));
  const seen = [];
  const renumbered = JSON.stringify({ ...want, events }).replace(/<id \d+>/g, (id) => {
    if (!seen.includes(id)) seen.push(id);
    return `<id ${seen.indexOf(id) + 1}>`;
  });
  return { ...JSON.parse(renumbered), errors: flow.errors.map((e) => (e === null ? null : codes[e])) };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** `<id N>` numbered again by first appearance (the recorder numbered them in its own order of keys). */
function renumber(value, seen = []) {
  if (Array.isArray(value)) return value.map((v) => renumber(v, seen));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renumber(v, seen)]));
  if (typeof value === 'string') {
    return value.replace(/<id \d+>/g, (id) => {
      if (!seen.includes(id)) seen.push(id);
      return `<id ${seen.indexOf(id) + 1}>`;
    });
  }
  return value;
}

/** Ids become `<id N>` in order of first appearance, timestamps and ADK 2.x's `nodeInfo` go. */
function normalise(value, names = []) {
  if (Array.isArray(value)) return value.map((v) => normalise(v, names));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'timestamp' && k !== 'nodeInfo').map(([k, v]) => [normalise(k, names), normalise(v, names)]));
  }
  if (typeof value === 'string') {
    return value.replace(UUID, (id) => {
      if (!names.includes(id)) names.push(id);
      return `<id ${names.indexOf(id) + 1}>`;
    });
  }
  return value;
}

function firstDifference(want, got, path) {
  if (want && got && typeof want === 'object' && typeof got === 'object' && Array.isArray(want) === Array.isArray(got)) {
    const keys = Array.isArray(want) ? [...Array(Math.max(want.length, got.length)).keys()] : [...new Set([...Object.keys(want), ...Object.keys(got)])];
    for (const k of keys) {
      const d = firstDifference(want[k] ?? null, got[k] ?? null, `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return want === got ? null : `${path}\n  ADK:      ${JSON.stringify(want)}\n  adk-wasm: ${JSON.stringify(got)}`;
}

assert(golden.flows.length >= 12, `${golden.flows.length} flows`);
for (const flow of golden.flows) {
  await test(`${flow.name}: requests and events as ADK ${golden.adk}`, async () => {
    const want = raisedAsRejections(flow, { requests: flow.requests, events: flow.events, state: flow.state, ...(flow.plugins ? { hooks: flow.hooks } : {}), ...(flow.app && { compactions: flow.compactions }) });
    const got = await record(flow);
    const difference = firstDifference(renumber(normalise(want)), normalise(got), flow.name);
    assert(!difference, difference);
  });
}

// A session ADK Python compacted, imported into IndexedDB: the last turn sends what ADK sent (the
// summaries in place of what they cover) and compacts as ADK did; the session exports unchanged.
await test('a session ADK compacted, imported into IndexedDB, continues as in ADK', async () => {
  const flow = golden.flows.find((f) => f.name === 'compaction_sliding_window');
  const sessionService = new adk.IndexedDbSessionService({ databaseName: `compaction-${Date.now()}` });
  await sessionService.importSession(flow.session_json_before_last);
  const key = { appName: APP, userId: USER, sessionId: 's' };
  assert(await sessionService.exportSession(key) === flow.session_json_before_last, 'exported unchanged');
  const last = (list) => [list[list.length - 1]];
  const spec = { ...flow, agent: { ...flow.agent, script: last(flow.agent.script) }, app: { ...flow.app, summarizer: last(flow.app.summarizer) } };
  const models = [];
  const runner = new adk.Runner({ app: app(spec.app, build(spec, spec.agent, models), models), sessionService });
  for await (const event of runner.runAsync({ ...key, newMessage: { role: 'user', parts: [{ text: flow.turns[flow.turns.length - 1] }] } })) assert(!event.errorCode, JSON.stringify(event));
  for (const [name, requests] of models) {
    const want = flow.requests[name][flow.requests[name].length - 1];
    const difference = firstDifference(want, normalise(JSON.parse(JSON.stringify(requests[requests.length - 1]))), name);
    assert(!difference, difference);
  }
  const withoutIds = (list) => list.map(({ at, event: { id, invocationId, ...rest } }) => ({ at, event: rest }));
  const session = await sessionService.getSession(key);
  const difference = firstDifference(withoutIds(normalise(flow.compactions)), withoutIds(normalise(compactions(session))), 'compactions');
  assert(!difference, difference);
});

// ADK's refusals, typed.
await test('an App ADK would refuse throws INVALID_ARGUMENT with ADK\'s message', async () => {
  const rootAgent = new LlmAgent({ name: 'chat', model: new adk.ScriptedModel([]) });
  const refused = (options) => {
    try {
      new adk.App({ name: 'app', rootAgent, ...options });
    } catch (e) {
      return `${e.code}: ${e.message}`;
    }
    return 'accepted';
  };
  assert(refused({ eventsCompactionConfig: { compactionInterval: 2 } }) === 'INVALID_ARGUMENT: compaction_interval and overlap_size must be set together.', refused({ eventsCompactionConfig: { compactionInterval: 2 } }));
  assert(refused({ name: 'user' }) === 'INVALID_ARGUMENT: App name cannot be \'user\'; reserved for end-user input.');
  assert(refused({ eventsCompactionConfig: { tokenThreshold: 10 } }) === 'INVALID_ARGUMENT: token_threshold and event_retention_size must be set together.');
  assert(refused({ eventsCompactionConfig: { tokenThreshold: 10, eventRetentionSize: 2 } }) === 'accepted');
  assert(refused({ eventsCompactionConfig: { compactionInterval: 2, overlapSize: 1 } }) === 'accepted');
  const app = new adk.App({ name: 'app', rootAgent });
  let message = '';
  try {
    new InMemoryRunner(/** @type {any} */ ({ app, agent: rootAgent }));
  } catch (e) {
    message = e.message;
  }
  assert(message === 'Only one of app, agent, or node may be provided, but got: app=App, agent=LlmAgent. Pass exactly one to Runner().', message);
});

finish();
