// @bundle
// @ts-check
// adk-wasm/ag-ui in Chromium, consumed by the real `@ag-ui/client` (its event verification runs on
// every stream): the three sources — a local runner, sessions on a real `adk api_server`
// (google-adk 2.13.0) and a remote A2A agent — each stream checked by AG-UI's own conformance
// validator (ag-ui-validate, through /ag-ui/validate) and, where `ag-ui-adk` 0.11 was recorded on the
// same agents (tests/fixtures/ag-ui), equal to what it emits, ids aside.
import init, * as adk from '/pkg/index.js';
import { AgUiAgent, AGUIToolset } from '/pkg/ag-ui.js';
import { assert, assertJsonEqual, finish, json, test } from './harness.js';
import recorded from '../fixtures/ag-ui/ag-ui-adk-0.11.0.json';

await init();
const { AdkServerClient, InMemoryRunner, LlmAgent, FunctionTool, ScriptedModel, BaseAgent, RemoteA2aAgent } = adk;
const params = Object.fromEntries(new URLSearchParams(location.search));
const server = new AdkServerClient({ baseUrl: params.adk2 });
const golden = json(recorded);
const fresh = (name) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

/** Runs `agent` once through `@ag-ui/client` and returns the events it received, each run validated. */
async function runOnce(agent, parameters) {
  const events = [];
  await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  const verdict = await fetch('/ag-ui/validate', { method: 'POST', body: JSON.stringify(events) }).then((r) => r.json());
  assert(verdict.ok, `ag-ui-validate:\n${verdict.report}`);
  return events;
}

/** Events with ids (and the thread) numbered in order of appearance, for comparing two producers. */
function normalized(events) {
  const ids = new Map();
  const id = (value) => {
    if (!ids.has(value)) ids.set(value, `<id ${ids.size}>`);
    return ids.get(value);
  };
  return events.map((event) => {
    const copy = { ...json(event) };
    for (const key of ['messageId', 'toolCallId', 'entityId', 'threadId']) if (copy[key] !== undefined) copy[key] = id(copy[key]);
    // `ag-ui-adk`'s own bookkeeping in the session state (the thread, app and user it keeps there, and
    // the calls it holds open) is not the agent's state: adk-wasm keeps none.
    if (copy.type === 'STATE_SNAPSHOT') {
      copy.snapshot = Object.fromEntries(Object.entries(copy.snapshot).filter(([k]) => !k.startsWith('_ag_ui_') && k !== 'pending_tool_calls'));
    }
    if (copy.type === 'TOOL_CALL_ARGS') copy.delta = copy.delta.replace(/adk-[0-9a-f-]{36}/g, id);
    return copy;
  });
}

/** `ag-ui-adk`'s events for a recorded run, with the one thing adk-wasm does differently on purpose. */
function expected(scenario, run) {
  const recorded = golden.scenarios.find((s) => s.name === scenario).runs[run];
  // A result for a call no event of this run started (the confirmed tool's, after a confirmation) is
  // what AG-UI's validator rejects (AGUI207); adk-wasm declares the call again first (its name from
  // the run's input).
  const started = new Set(recorded.events.filter((e) => e.type === 'TOOL_CALL_START').map((e) => e.toolCallId));
  const calls = recorded.input.messages.flatMap((m) => m.toolCalls ?? []);
  return recorded.events.flatMap((e) => {
    if (e.type !== 'TOOL_CALL_RESULT' || started.has(e.toolCallId)) return [e];
    const toolCallName = calls.find((c) => c.id === e.toolCallId)?.function.name;
    return [{ type: 'TOOL_CALL_START', toolCallId: e.toolCallId, toolCallName }, { type: 'TOOL_CALL_END', toolCallId: e.toolCallId }, e];
  });
}

const input = (scenario, run) => golden.scenarios.find((s) => s.name === scenario).runs[run].input;

function serverAgent(appName, scenario, options = {}) {
  const first = input(scenario, 0);
  return new AgUiAgent({ server, appName, userId: 'user', threadId: fresh(first.threadId), initialMessages: first.messages, initialState: first.state, ...options });
}

await test('server source: weather (streamed and not) and state from the front end, as ag-ui-adk emits them', async () => {
  for (const [scenario, options] of [['weather', {}], ['weather_nonstreaming', { streaming: false }], ['weather_state', {}]]) {
    const agent = serverAgent('weather', scenario, options);
    const events = await runOnce(agent, { runId: 'run-1' });
    assertJsonEqual(normalized(events), normalized(expected(scenario, 0)), scenario);
    const last = json(agent.messages.at(-1));
    assert(last.role === 'assistant' && last.content.startsWith('It is sunny'), JSON.stringify(agent.messages));
    if (scenario === 'weather_state') assertJsonEqual(agent.state, { theme: 'dark' });
  }
});

await test('server source: state and artifact deltas and non-ASCII text over two runs of one thread', async () => {
  const agent = serverAgent('story', 'story');
  assertJsonEqual(normalized(await runOnce(agent, { runId: 'run-1' })), normalized(expected('story', 0)));
  agent.addMessage({ id: 'm2', role: 'user', content: 'again' });
  assertJsonEqual(normalized(await runOnce(agent, { runId: 'run-2' })), normalized(expected('story', 1)));
  assert(json(agent.state).story_runs === 2, JSON.stringify(agent.state));
});

await test('server source: a failing agent ends the run with RUN_ERROR, as ag-ui-adk', async () => {
  const agent = serverAgent('failing', 'failing');
  const events = [];
  await agent.runAgent({ runId: 'run-1' }, { onEvent: ({ event }) => void events.push(event), onRunFailed: () => json({ stopPropagation: true }) }).catch(() => {});
  // ag-ui-adk runs the agent in its own process and sends the exception's text; here it comes
  // through the server's error frame, with the server's words around it.
  const error = json(events.at(-1));
  assert(error.message.includes('scripted failure 💥 after one event'), error.message);
  const without = (list) => normalized(list).map((e) => (e.type === 'RUN_ERROR' ? { ...e, message: '' } : e));
  assertJsonEqual(without(events), without(expected('failing', 0)));
});

await test('server source: a confirmation is a tool call the front end answers with a tool message', async () => {
  const agent = serverAgent('asking', 'confirmation');
  const first = await runOnce(agent, { runId: 'run-1' });
  assertJsonEqual(normalized(first), normalized(expected('confirmation', 0)));
  const ask = json(first.find((e) => e.type === 'TOOL_CALL_START' && e.toolCallName === 'adk_request_confirmation'));
  agent.addMessage({ id: 'm-tool-1', role: 'tool', toolCallId: ask.toolCallId, content: '{"confirmed": true}' });
  assertJsonEqual(normalized(await runOnce(agent, { runId: 'run-2' })), normalized(expected('confirmation', 1)));
  assert(String(json(agent.messages.at(-1)).content).startsWith('Done: {"amount": 500'), JSON.stringify(agent.messages.at(-1)));
});

const call = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });

/** The `weather` agent of tests/adk_server in the page; its model streams only when the run does, as Gemini. */
function weatherRunner() {
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Returns the current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => ({ city, condition: 'sunny', temp_c: 21 }),
  });
  const chunks = ['It is sunny ', 'and 21 °C ', 'in Seoul ☀️ (맑음).'];
  // Chunks either way: a run that does not stream gets only their aggregate, so the agent's `streaming` is what decides.
  const model = new ScriptedModel([call('get_weather', { city: 'Seoul' }), { chunks }]);
  return new InMemoryRunner({ agent: new LlmAgent({ name: 'weather', model, tools: [getWeather] }), appName: 'weather' });
}

await test('runner source: the same agent in the page gives the events ag-ui-adk gives for the server one', async () => {
  for (const [scenario, streaming] of /** @type {[string, boolean][]} */ ([['weather', true], ['weather_nonstreaming', false]])) {
    const agent = new AgUiAgent({ runner: weatherRunner(), userId: 'user', streaming, threadId: fresh('t'), initialMessages: input(scenario, 0).messages });
    assertJsonEqual(normalized(await runOnce(agent, { runId: 'run-1' })), normalized(expected(scenario, 0)), scenario);
  }
});

await test('runner source: front-end tools (AGUIToolset) and reasoning, as ag-ui-adk runs them', async () => {
  // tests/ag_ui/agents/frontend's script, recording the tools each request offers.
  const offered = [];
  const model = {
    generateContent(request) {
      offered.push(request.config.tools?.flatMap((t) => t.functionDeclarations) ?? []);
      return offered.length === 1
        ? { content: { role: 'model', parts: [{ text: 'The user wants a blue background.', thought: true }, { functionCall: { name: 'change_background', args: { color: 'blue' } } }] } }
        : { content: { role: 'model', parts: [{ text: 'Background changed to blue.' }] } };
    },
  };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'frontend', model, tools: [new AGUIToolset()] }), appName: 'frontend' });
  const first = input('frontend_tool', 0);
  const agent = new AgUiAgent({ runner, userId: 'user', threadId: fresh('t'), initialMessages: first.messages });
  const events = await runOnce(agent, { runId: 'run-1', tools: first.tools });
  assertJsonEqual(normalized(events), normalized(expected('frontend_tool', 0)));
  assertJsonEqual(offered[0], [{ name: 'change_background', description: 'Changes the page background.', parametersJsonSchema: first.tools[0].parameters }]);
  const callId = json(events.find((e) => e.type === 'TOOL_CALL_START')).toolCallId;
  agent.addMessage({ id: 'm-tool-1', role: 'tool', toolCallId: callId, content: '{"color": "blue", "done": true}' });
  assertJsonEqual(normalized(await runOnce(agent, { runId: 'run-2', tools: first.tools })), normalized(expected('frontend_tool', 1)));
  assert(offered.length === 2 && offered[1].length === 1, 'offered again on the next run, and only then');
  const session = await runner.sessionService.getSession({ appName: 'frontend', userId: 'user', sessionId: agent.threadId });
  const answer = session?.events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse);
  assertJsonEqual(answer?.functionResponse, { id: callId, name: 'change_background', response: { color: 'blue', done: true } });
});

await test('runner source, streaming: a front-end tool call streamed in chunks goes out once, with the id the session keeps', async () => {
  // ADK gives the call of each streamed chunk an id of its own; the answer must name the stored one.
  let turns = 0;
  const model = {
    async *generateContent() {
      if (turns++) {
        yield { content: { role: 'model', parts: [{ text: 'Done.' }] } };
        return;
      }
      yield { content: { role: 'model', parts: [{ text: 'Changing it.' }] }, partial: true };
      yield { content: { role: 'model', parts: [{ functionCall: { name: 'change_background', args: { color: 'blue' } } }] }, partial: true };
    },
  };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'frontend', model, tools: [new AGUIToolset()] }), appName: 'frontend' });
  const first = input('frontend_tool', 0);
  const agent = new AgUiAgent({ runner, userId: 'user', streaming: true, threadId: fresh('t'), initialMessages: first.messages });
  const events = await runOnce(agent, { runId: 'run-1', tools: first.tools });
  const starts = events.filter((e) => e.type === 'TOOL_CALL_START').map((e) => json(e).toolCallId);
  const key = { appName: 'frontend', userId: 'user', sessionId: agent.threadId };
  const stored = (await runner.sessionService.getSession(key))?.events.flatMap((e) => adk.getFunctionCalls(e)).map((c) => c.id);
  assertJsonEqual(starts, stored);
  agent.addMessage({ id: 'm-tool-1', role: 'tool', toolCallId: starts[0], content: '{"done": true}' });
  const second = await runOnce(agent, { runId: 'run-2', tools: first.tools });
  assert(second.some((e) => e.type === 'TEXT_MESSAGE_CONTENT' && json(e).delta === 'Done.'), JSON.stringify(second));
  const answer = (await runner.sessionService.getSession(key))?.events.flatMap((e) => adk.getFunctionResponses(e));
  assertJsonEqual(answer?.map((r) => [r.id, r.response]), [[starts[0], { done: true }]]);
});

await test('runner source: answers to two front-end calls made at once, each put after its own call\'s message (as CopilotKit does), both reach the agent', async () => {
  let turns = 0;
  const model = {
    generateContent(request) {
      if (turns++) return { content: { role: 'model', parts: [{ text: `answers: ${request.contents.at(-1).parts.length}` }] } };
      return { content: { role: 'model', parts: [
        { functionCall: { name: 'change_background', args: { color: 'blue' } } },
        { functionCall: { name: 'change_theme', args: { theme: 'dark' } } },
      ] } };
    },
  };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'frontend', model, tools: [new AGUIToolset()] }), appName: 'frontend' });
  const tools = [
    { name: 'change_background', description: 'Changes the background.', parameters: { type: 'object', properties: { color: { type: 'string' } } } },
    { name: 'change_theme', description: 'Changes the theme.', parameters: { type: 'object', properties: { theme: { type: 'string' } } } },
  ];
  const agent = new AgUiAgent({ runner, userId: 'user', threadId: fresh('t'), initialMessages: json([{ id: 'u1', role: 'user', content: 'blue and dark' }]) });
  await runOnce(agent, { runId: 'run-1', tools });
  const messages = json(agent.messages);
  const withCalls = messages.filter((m) => m.role === 'assistant' && m.toolCalls?.length);
  assert(withCalls.length === 2, `one message per call: ${JSON.stringify(messages)}`);
  const answered = messages.flatMap((m) => [m, ...(m.toolCalls ?? []).map((c) => ({ id: `t-${c.id}`, role: 'tool', toolCallId: c.id, content: '{"ok": true}' }))]);
  agent.setMessages(answered);
  const second = await runOnce(agent, { runId: 'run-2', tools });
  assert(second.some((e) => e.type === 'TEXT_MESSAGE_CONTENT' && json(e).delta === 'answers: 2'), JSON.stringify(second));
});

await test('runner source: AGUIToolset\'s toolFilter and toolNamePrefix shape the front-end tools the model is offered', async () => {
  const offered = [];
  const model = {
    generateContent(request) {
      offered.push((request.config.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name));
      return { content: { role: 'model', parts: [{ text: 'ok' }] } };
    },
  };
  const toolset = new AGUIToolset({ toolFilter: ['change_theme'], toolNamePrefix: 'ui' });
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'frontend', model, tools: [toolset] }), appName: 'frontend' });
  const agent = new AgUiAgent({ runner, userId: 'user', threadId: fresh('t'), initialMessages: json([{ id: 'a', role: 'user', content: 'dark, please' }]) });
  const tools = [
    { name: 'change_background', description: 'Changes the background.', parameters: { type: 'object', properties: { color: { type: 'string' } } } },
    { name: 'change_theme', description: 'Changes the theme.', parameters: { type: 'object', properties: { theme: { type: 'string' } } } },
  ];
  await runOnce(agent, { tools });
  assertJsonEqual(offered, [['ui_change_theme']]);
});

await test('runner source: earlier messages of a new thread become its history; nothing new is an empty run', async () => {
  const seen = [];
  const model = { async generateContent(request) { seen.push(request.contents); return { content: { role: 'model', parts: [{ text: 'ok' }] } }; } };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'chat', model }), appName: 'chat' });
  const messages = json([
    { id: 'a', role: 'user', content: 'My name is 민지.' },
    { id: 'b', role: 'assistant', content: 'Hello 민지!' },
    { id: 'c', role: 'user', content: 'What is my name?' },
  ]);
  const agent = new AgUiAgent({ runner, userId: 'user', threadId: fresh('t'), initialMessages: messages });
  await runOnce(agent, {});
  assertJsonEqual(json(seen[0]).map((c) => [c.role, c.parts[0].text]), [['user', 'My name is 민지.'], ['model', 'Hello 민지!'], ['user', 'What is my name?']]);
  const again = await runOnce(agent, {});
  assertJsonEqual(again.map((e) => e.type), ['RUN_STARTED', 'RUN_FINISHED']);
  assert(seen.length === 1, 'the agent was not asked again');
});

await test('runner source: the front end\'s state reaches the session without app: and user: keys unless allowScopedStateKeys', async () => {
  for (const allowScopedStateKeys of [false, true]) {
    const model = { async generateContent() { return { content: { role: 'model', parts: [{ text: 'ok' }] } }; } };
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'chat', model }), appName: 'chat' });
    const threadId = fresh('t');
    const agent = new AgUiAgent({
      runner, userId: 'user', threadId, allowScopedStateKeys,
      initialMessages: json([{ id: 'a', role: 'user', content: 'hi' }]),
      initialState: { theme: 'dark', 'user:plan': 'pro', 'app:flag': true },
    });
    await runOnce(agent, {});
    const session = await runner.sessionService.getSession({ appName: 'chat', userId: 'user', sessionId: threadId });
    const wanted = allowScopedStateKeys ? { theme: 'dark', 'user:plan': 'pro', 'app:flag': true } : { theme: 'dark' };
    assertJsonEqual(session?.state, wanted, `allowScopedStateKeys ${allowScopedStateKeys}`);
  }
});

await test('runner source: with emitSteps, a hand-off between agents is a step per agent; a messages snapshot on request; the context as custom metadata', async () => {
  const { SequentialAgent } = adk;
  const say = (name, text) => new LlmAgent({ name, model: new ScriptedModel([text]) });
  const runner = new InMemoryRunner({ agent: new SequentialAgent({ name: 'pipeline', subAgents: [say('drafter', 'A draft.'), say('editor', 'An edit.')] }), appName: 'pipeline' });
  const agent = new AgUiAgent({ runner, userId: 'user', emitSteps: true, emitMessagesSnapshot: true, threadId: fresh('t'), initialMessages: [{ id: 'a', role: 'user', content: 'write' }] });
  const events = await runOnce(agent, { context: [{ description: 'page', value: '/drafts' }] });
  const stored = await runner.sessionService.getSession({ appName: 'pipeline', userId: 'user', sessionId: agent.threadId });
  assertJsonEqual(stored?.events.at(-1)?.customMetadata, { ag_ui_context: [{ description: 'page', value: '/drafts' }] }, 'the context as the run\'s custom metadata, as ag-ui-adk');
  assertJsonEqual(events.map((e) => [e.type, json(e).stepName ?? json(e).delta]).filter(([type]) => /STEP|CONTENT/.test(type)), [
    ['STEP_STARTED', 'drafter'], ['TEXT_MESSAGE_CONTENT', 'A draft.'], ['STEP_FINISHED', 'drafter'],
    ['STEP_STARTED', 'editor'], ['TEXT_MESSAGE_CONTENT', 'An edit.'], ['STEP_FINISHED', 'editor'],
  ]);
  const snapshot = json(events.find((e) => e.type === 'MESSAGES_SNAPSHOT'));
  assertJsonEqual(snapshot.messages.map((m) => [m.role, m.name ?? null, m.content]), [['user', null, 'write'], ['assistant', 'drafter', 'A draft.'], ['assistant', 'editor', 'An edit.']]);
});

await test('runner source: abortRun() stops the run in the page; the thread takes the next message', async () => {
  const gate = { release: () => {} };
  const slow = {
    name: 'slow',
    async *runAsyncImpl() {
      yield { content: { role: 'model', parts: [{ text: 'thinking…' }] }, partial: true };
      await new Promise((resolve) => (gate.release = () => resolve(undefined)));
      yield { content: { role: 'model', parts: [{ text: 'too late' }] } };
    },
  };
  const runner = new InMemoryRunner({ agent: slow, appName: 'slow' });
  const agent = new AgUiAgent({ runner, userId: 'user', threadId: fresh('t'), initialMessages: [{ id: 'a', role: 'user', content: 'go' }] });
  const types = [];
  const running = agent.runAgent({}, { onEvent: ({ event }) => {
    types.push(event.type);
    if (event.type === 'TEXT_MESSAGE_CONTENT') agent.abortRun();
  } });
  await running;
  gate.release();
  assertJsonEqual(types, ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT']);
  const session = await runner.sessionService.getSession({ appName: 'slow', userId: 'user', sessionId: agent.threadId });
  assert(!session?.events.some((e) => JSON.stringify(e).includes('too late')), 'nothing written after the abort');
  const echo = new InMemoryRunner({ agent: { name: 'slow', async *runAsyncImpl() { yield { content: { role: 'model', parts: [{ text: 'back' }] } }; } }, appName: 'slow' });
  const next = new AgUiAgent({ runner: echo, userId: 'user', threadId: agent.threadId, initialMessages: [{ id: 'b', role: 'user', content: 'again' }] });
  const events = await runOnce(next, {});
  assert(events.some((e) => json(e).delta === 'back'), JSON.stringify(events));
});

await test('runner source: an agent that throws is RUN_ERROR with its message', async () => {
  class Failing extends BaseAgent {
    async *runAsyncImpl() {
      yield { content: { role: 'model', parts: [{ text: 'about to fail…' }] } };
      throw new Error('scripted failure 💥 after one event');
    }
  }
  const runner = new InMemoryRunner({ agent: new Failing({ name: 'failing' }), appName: 'failing' });
  const agent = new AgUiAgent({ runner, userId: 'user', threadId: fresh('t'), initialMessages: input('failing', 0).messages });
  const events = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event), onRunFailed: () => json({ stopPropagation: true }) }).catch(() => {});
  const error = json(events.at(-1));
  assert(error.type === 'RUN_ERROR' && error.code === 'BACKGROUND_EXECUTION_ERROR' && error.message.includes('scripted failure 💥'), JSON.stringify(error));
});

await test('A2A source: a remote agent (google-adk to_a2a) through AG-UI, two turns of one thread', async () => {
  const agent = new AgUiAgent({ a2a: new RemoteA2aAgent({ name: 'remote', agentCardUrl: params.adk }), threadId: fresh('t'), initialMessages: [{ id: 'a', role: 'user', content: 'hello' }] });
  await runOnce(agent, {});
  const said = agent.messages.filter((m) => m.role === 'assistant').map((m) => String(json(m).content));
  assert(said.some((t) => t.includes('you said: hello')), JSON.stringify(agent.messages));
  agent.addMessage({ id: 'b', role: 'user', content: 'again' });
  await runOnce(agent, {});
  assert(agent.messages.some((m) => m.role === 'assistant' && String(json(m).content).includes('you said: again')), JSON.stringify(agent.messages));
});

finish();
