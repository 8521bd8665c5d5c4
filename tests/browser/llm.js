// @ts-check
// LlmAgent with JS tools in Chromium, on the scripted model and on a model written in JS:
// the tool loop, a transfer to a specialist whose tool writes state, a LoopAgent ended by
// exit_loop, streaming (chunks then exactly one final event), callbacks, and failures.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, finish, json, jsSessionService, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, LoopAgent, FunctionTool, ScriptedModel, exitLoop, Transcript } = adk;

const text = (t) => ({ role: 'user', parts: [{ text: t }] });
const call = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });

async function runAll(agent, message, runConfig) {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { 'user:name': 'Minsu' } });
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text(message), runConfig })) events.push(e);
  return { events, runner, session: await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }) };
}

const calculator = new FunctionTool({
  name: 'calculator',
  description: 'Evaluates a + b.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: async ({ a, b }) => json(a) + json(b),
});

await test('a tool result as deeply nested as input may be reaches the next model call, over every kind of session service, and reads again wherever it went out to JS and came back', async () => {
  // 128 levels at its own root, the most input may have: six more in the event that carries it.
  /** @type {adk.JsonValue} */
  let deep = 1;
  for (let i = 0; i < 127; i++) deep = [deep];
  const tool = new FunctionTool({ name: 'deep', description: 'Nests.', execute: () => ({ r: deep }) });
  const services = [adk.SessionService.inMemory(), jsSessionService(), adk.SessionService.indexedDb({ databaseName: `deep-${Date.now()}` })];
  for (const sessionService of services) {
    const model = new ScriptedModel([call('deep', {}), 'done', 'again']);
    const runner = new adk.Runner({ appName: 'app', agent: new LlmAgent({ name: 'nester', model, tools: [tool] }), sessionService, autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('go') }));
    const sent = json(model).requests[1].contents.at(-1).parts[0].functionResponse;
    assertJsonEqual(sent?.response, { r: deep });
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    assertJsonEqual(session.events[2].content.parts[0].functionResponse.response, { r: deep });
    // What holds the value and went to JS and back reads again: the session, by the same runner
    // and by a new one over the same service (a JS service is asked for it whole), a request a
    // callback edited, an event a plugin gave back changed.
    /** @param {adk.Runner} again @param {() => any} request what the model was sent */
    const rerun = async (again, request) => {
      for await (const _ of again.runAsync({ userId: 'u', sessionId: 's', newMessage: text('again') }));
      const resent = request()?.contents.find((c) => c.parts[0].functionResponse)?.parts[0].functionResponse;
      assertJsonEqual(resent?.response, { r: deep });
    };
    await rerun(runner, () => json(model).requests[2]);
    // The new runner's model calls the tool again: the plugin gives back that event changed too.
    const edited = new ScriptedModel([call('deep', {}), 'again']);
    const agent = new LlmAgent({ name: 'nester', model: edited, tools: [tool], beforeModelCallback: ({ request }) => { request.config.temperature = 0.5; } });
    class Tag extends adk.BasePlugin {
      /** @param {{ event: adk.Event }} params */
      onEventCallback({ event }) { return { ...event, customMetadata: { tagged: true } }; }
    }
    await rerun(new adk.Runner({ appName: 'app', agent, sessionService, plugins: [new Tag('tag')] }), () => json(edited).requests[0]);
    const tagged = json(edited).requests[1].contents.at(-1).parts[0].functionResponse;
    assertJsonEqual(tagged?.response, { r: deep });
    // The event as the page meets it: folded into a Transcript, its function responses read, its
    // JSON text parsed again.
    const [response] = adk.getFunctionResponses(session.events[2]);
    assertJsonEqual(response.response, { r: deep });
    new Transcript().add(session.events[2]);
    assert(JSON.stringify(adk.parseEvent(adk.eventToJson(session.events[2]))) === JSON.stringify(session.events[2]));
    // And so does the session as exported, imported again.
    const exported = 'exportSession' in sessionService && await sessionService.exportSession({ appName: 'app', userId: 'u', sessionId: 's' });
    if (exported) {
      const copy = adk.SessionService.indexedDb({ databaseName: `deep-copy-${Date.now()}` });
      const imported = await copy.importSession(exported);
      assertJsonEqual(imported.events[2].content.parts[0].functionResponse.response, { r: deep });
    }
    // An event a run yielded, appended to another service, and the session added to memory.
    const other = adk.SessionService.inMemory();
    const copy = await other.createSession({ appName: 'app', userId: 'u' });
    const appended = await other.appendEvent({ session: copy, event: session.events[2] });
    assertJsonEqual(appended.content.parts[0].functionResponse.response, { r: deep });
    await adk.MemoryService.inMemory().addSessionToMemory(session);
  }
});

await test('tool loop with a JS tool on the scripted model', async () => {
  const model = new ScriptedModel([call('calculator', { a: 2, b: 40 }), '2 + 40 = 42']);
  const agent = new LlmAgent({ name: 'math', model, instruction: 'Help {user:name} with sums.', tools: [calculator], outputKey: 'answer' });
  const { events, session } = await runAll(agent, 'what is 2 + 40?');
  assertJsonEqual(events.map((e) => [e.author, e.content.role]), [['math', 'model'], ['math', 'user'], ['math', 'model']]);
  const [callPart] = adk.getFunctionCalls(events[0]);
  const [response] = adk.getFunctionResponses(events[1]);
  assert(callPart.id.startsWith('adk-') && response.id === callPart.id);
  assertJsonEqual(response.response, { result: 42 });
  assert(session.state.answer === '2 + 40 = 42');
  const [first] = model.requests;
  const identity = 'You are an agent. Your internal name is "math".';
  assert(first.config.systemInstruction === `Help Minsu with sums.\n\n${identity}`, first.config.systemInstruction);
  assertJsonEqual(json(first.config.tools[0].functionDeclarations[0].parametersJsonSchema).required, ['a', 'b']);
  assertJsonEqual(first.config.labels, { adk_agent_name: 'math' });
});

await test('coordinator transfers to a specialist whose tool writes user: state', async () => {
  const notes = new FunctionTool({
    name: 'save_note',
    description: 'Saves a note for the user.',
    execute: (args, ctx) => { ctx.state.set('user:note', args.note); return { saved: true }; },
  });
  const specialist = new LlmAgent({ name: 'notes', description: 'Keeps notes.', tools: [notes],
    model: new ScriptedModel([call('save_note', { note: '우유 사기' }), 'Saved: 우유 사기']) });
  const coordinator = new LlmAgent({ name: 'coordinator', description: 'Routes requests.', subAgents: [specialist],
    model: new ScriptedModel([call('transfer_to_agent', { agent_name: 'notes' })]) });
  const { events, session } = await runAll(coordinator, 'note: buy milk');
  assertJsonEqual(events.map((e) => e.author), ['coordinator', 'coordinator', 'notes', 'notes', 'notes']);
  assert(events[1].actions.transferToAgent === 'notes');
  assert(session.state['user:note'] === '우유 사기');
  const kinds = new Transcript();
  for (const e of events) kinds.add(e);
  assertJsonEqual(kinds.items.map((i) => i.kind), ['toolCall', 'toolResult', 'transfer', 'toolCall', 'toolResult', 'state', 'message']);
});

await test('a LoopAgent stops when the critic calls exit_loop', async () => {
  const writer = new LlmAgent({ name: 'writer', model: new ScriptedModel(['draft 1', 'draft 2']) });
  const critic = new LlmAgent({ name: 'critic', tools: [exitLoop], model: new ScriptedModel(['more detail please', call('exit_loop', {})]) });
  const { events } = await runAll(new LoopAgent({ name: 'refine', maxIterations: 5, subAgents: [writer, critic] }), 'write');
  assert(events.length === 5 && events.at(-1).actions.escalate === true && events.at(-1).actions.skipSummarization === true);
});

await test("streaming: chunks arrive as partial events, then exactly one final event", async () => {
  const agent = new LlmAgent({ name: 'poet', model: new ScriptedModel([{ chunks: ['Roses ', 'are ', 'red.'] }]) });
  const { events, session } = await runAll(agent, 'poem', { streamingMode: 'sse' });
  assertJsonEqual(events.map((e) => [e.partial === true, e.content.parts[0].text]), [[true, 'Roses '], [true, 'are '], [true, 'red.'], [false, 'Roses are red.']]);
  assert(events.filter((e) => adk.isFinalResponse(e)).length === 1);
  assert(session.events.length === 2, 'partial events are not stored');
});

await test('a model written in JS: async generator with partial chunks, and a plain Promise', async () => {
  const seen = [];
  const streaming = {
    model: 'my-webllm',
    async *generateContent(request, { stream, signal }) {
      seen.push({ stream, aborted: signal.aborted, last: request.contents.at(-1).parts[0].text, model: request.model });
      for (const piece of ['안녕', '하세요']) yield { content: { role: 'model', parts: [{ text: piece }] }, partial: true };
    },
  };
  let { events } = await runAll(new LlmAgent({ name: 'local', model: streaming }), 'hi', { streamingMode: 'sse' });
  assertJsonEqual(events.map((e) => e.content.parts[0].text), ['안녕', '하세요', '안녕하세요']);
  assertJsonEqual(seen, [{ stream: true, aborted: false, last: 'hi', model: 'my-webllm' }]);
  ({ events } = await runAll(new LlmAgent({ name: 'local', model: streaming }), 'hi'));
  assertJsonEqual(events.map((e) => e.content.parts[0].text), ['안녕하세요']);
  const proxy = { generateContent: async () => ({ content: { role: 'model', parts: [{ text: 'from proxy' }] }, usageMetadata: { totalTokenCount: 7 } }) };
  ({ events } = await runAll(new LlmAgent({ name: 'proxied', model: proxy }), 'hi'));
  assert(events[0].content.parts[0].text === 'from proxy' && events[0].usageMetadata.totalTokenCount === 7);
});

await test('a model written in JS that yields two whole responses (a text, then a call) gives two events, as ADK takes each', async () => {
  let turns = 0;
  const model = {
    async *generateContent() {
      if (turns++) {
        yield { content: { role: 'model', parts: [{ text: 'It is ' }] }, partial: true };
        yield { content: { role: 'model', parts: [{ text: '2.' }] }, partial: true };
        return;
      }
      yield { content: { role: 'model', parts: [{ text: 'Che' }] }, partial: true };
      yield { content: { role: 'model', parts: [{ text: 'Checking.' }] } };
      yield { content: { role: 'model', parts: [{ functionCall: { name: 'calculator', args: { a: 1, b: 1 } } }] } };
    },
  };
  for (const streamingMode of ['sse', 'none']) {
    turns = 0;
    const { events } = await runAll(new LlmAgent({ name: 'local', model, tools: [calculator] }), 'sum', { streamingMode });
    const shown = events.map((e) => [e.partial === true, e.content.parts[0].text ?? e.content.parts[0].functionCall?.name ?? 'response']);
    const partials = streamingMode === 'sse';
    assertJsonEqual(shown, [
      ...(partials ? [[true, 'Che']] : []), [false, 'Checking.'], [false, 'calculator'], [false, 'response'],
      ...(partials ? [[true, 'It is '], [true, '2.']] : []), [false, 'It is 2.'],
    ]);
  }
});

await test('aborting a run aborts the JS model request', async () => {
  /** @type {AbortSignal | undefined} */
  let signalSeen;
  const slow = { generateContent: (request, { signal }) => { signalSeen = signal; return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))); } };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'slow', model: slow }), appName: 'app', autoCreateSession: true });
  const controller = new AbortController();
  const pending = runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('x'), signal: controller.signal }).next();
  await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  let error;
  try { await pending; } catch (e) { error = e; }
  assert(error?.name === 'AbortError' && signalSeen?.aborted, `${error?.name} ${signalSeen?.aborted}`);
});

await test('model and tool callbacks in JS', async () => {
  const log = [];
  const agent = new LlmAgent({
    name: 'guarded',
    model: new ScriptedModel([call('calculator', { a: 1, b: 1 }), 'model text']),
    tools: [calculator],
    beforeModelCallback: ({ context, request }) => { log.push(`before model ${context.agentName}`); request.config.temperature = 0.1; },
    afterModelCallback: ({ response }) => (response.content.parts[0].text === 'model text' ? { content: { role: 'model', parts: [{ text: 'edited' }] } } : undefined),
    beforeToolCallback: ({ tool, args }) => { log.push(`before tool ${tool.name}`); args.b = 10; },
    afterToolCallback: ({ response }) => ({ result: json(response) * 100 }), // the raw result, as ADK passes it
  });
  const { events } = await runAll(agent, 'x');
  assertJsonEqual(adk.getFunctionResponses(events[1])[0].response, { result: 1100 });
  assert(events[2].content.parts[0].text === 'edited');
  assertJsonEqual(log, ['before model guarded', 'before tool calculator', 'before model guarded']);
  assert(json(agent.model).requests[0].config.temperature === 0.1);
});

await test('a throwing tool rejects the run with its message unless onToolErrorCallback answers', async () => {
  const broken = new FunctionTool({ name: 'broken', execute: () => { throw new RangeError('division by zero'); } });
  const model = () => new ScriptedModel([call('broken', {}), 'recovered']);
  let error;
  try { await runAll(new LlmAgent({ name: 'a', model: model(), tools: [broken] }), 'x'); } catch (e) { error = e; }
  assert(error?.message.includes('division by zero'), String(error));
  const { events } = await runAll(new LlmAgent({ name: 'a', model: model(), tools: [broken],
    onToolErrorCallback: ({ error: e }) => ({ error: e.message }) }), 'x');
  assert(json(adk.getFunctionResponses(events[1])[0].response).error.includes('division by zero'));
  assert(events[2].content.parts[0].text === 'recovered');
});

await test('runConfig.maxLlmCalls ends a run past that many model calls (ADK\'s LlmCallsLimitExceededError), the calls made kept', async () => {
  const model = new ScriptedModel([call('calculator', { a: 1, b: 1 }), call('calculator', { a: 2, b: 2 }), call('calculator', { a: 3, b: 3 })]);
  const events = [];
  let error;
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [calculator] }), appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  try {
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('add'), runConfig: { maxLlmCalls: 2 } })) events.push(e);
  } catch (e) {
    error = e;
  }
  assert(error?.name === 'AdkError' && error.message.includes('limit of `2`'), String(error?.message ?? error));
  assert(model.requests.length === 2 && events.length === 4, `${model.requests.length} calls, ${events.length} events`);
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(session.events.length === 5, `the user's message and the four events stored: ${session.events.length}`);
});

await test('bad LlmAgent options are typed errors', async () => {
  const bad = (options) => { try { new LlmAgent(options); } catch (e) { return e; } return null; };
  assert(bad({ name: 'x' })?.code === 'INVALID_ARGUMENT');
  assert(bad({ name: 'x', model: new ScriptedModel([]), includeContents: 'some' })?.message.includes('includeContents'));
  assert(bad({ name: 'x', model: new ScriptedModel([]), tools: [{ name: 't' }] })?.code === 'INVALID_ARGUMENT');
  let error;
  try { await runAll(new LlmAgent({ name: 'x', model: new ScriptedModel([]), instruction: 'Hi {missing}' }), 'x'); } catch (e) { error = e; }
  assert(error?.code === 'NOT_FOUND' && error.message.includes('missing'), String(error?.message));
});

await test('planner: only a BuiltInPlanner with an object thinkingConfig, or a PlanReActPlanner; the SDK goes on', async () => {
  const bad = (make) => { try { make(); } catch (e) { return e; } return null; };
  const agent = (planner) => new LlmAgent({ name: 'p', model: new ScriptedModel([]), planner });
  for (const planner of [{}, 'plan_re_act', { thinkingConfig: { includeThoughts: true } }, adk.PlanReActPlanner]) {
    const error = bad(() => agent(/** @type {any} */ (planner)));
    assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('planner must be'), String(error?.message));
  }
  for (const options of [undefined, {}, { thinkingConfig: 'high' }, { thinkingConfig: [1] }]) {
    const error = bad(() => new adk.BuiltInPlanner(/** @type {any} */ (options)));
    assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('thinkingConfig'), String(error?.message));
  }
  // Changed after it was made: the wasm side reads it as an object or refuses it.
  const changed = new adk.BuiltInPlanner({ thinkingConfig: {} });
  /** @type {any} */ (changed).thinkingConfig = 7;
  assert(bad(() => agent(changed))?.code === 'INVALID_ARGUMENT');
  const model = new ScriptedModel(['/*PLANNING*/Look it up./*FINAL_ANSWER*/Done.']);
  const { events } = await runAll(new LlmAgent({ name: 'p', model, planner: new adk.PlanReActPlanner() }), 'x');
  assertJsonEqual(events[0].content.parts, [{ text: 'Look it up.', thought: true }, { text: 'Done.' }]);
  const thinking = new ScriptedModel(['ok']);
  await runAll(new LlmAgent({ name: 't', model: thinking, planner: new adk.BuiltInPlanner({ thinkingConfig: { thinkingBudget: 0 } }) }), 'x');
  assertJsonEqual(thinking.requests[0].config.thinkingConfig, { thinkingBudget: 0 });
});

await test('outputSchema: a schema that is not a JSON Schema object is refused; a reply that is not JSON rejects the run and is not stored', async () => {
  const trip = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  for (const outputSchema of ['object', [trip], { type: 'dict' }, { properties: { city: 'string' } }, { required: 'city' }]) {
    let error;
    // What a JS caller without types can pass.
    try { new LlmAgent({ name: 'bad', model: new ScriptedModel([]), outputSchema: /** @type {any} */ (outputSchema) }); } catch (e) { error = e; }
    assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('outputSchema'), `${JSON.stringify(outputSchema)}: ${error?.message}`);
  }
  let error;
  try { new LlmAgent({ name: 'bad', model: new ScriptedModel([]), generateContentConfig: { responseSchema: trip } }); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('outputSchema'), String(error?.message));
  const model = new ScriptedModel(['Sorry, where to?', '{"city": "Seoul"}']);
  const agent = new LlmAgent({ name: 'extractor', model, outputSchema: trip, outputKey: 'trip' });
  assertJsonEqual(agent.outputSchema, trip);
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  const turn = async (message) => {
    const events = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: text(message) })) events.push(event);
    return events;
  };
  error = undefined;
  try { await turn('Plan my trip.'); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('not valid JSON'), String(error?.message));
  const stored = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: session.id });
  assert(stored.events.length === 1 && !('trip' in stored.state), JSON.stringify(stored));
  await turn('Seoul.');
  assertJsonEqual((await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: session.id })).state.trip, { city: 'Seoul' });
  assertJsonEqual(model.requests[0].config.responseSchema, trip);
  assert(model.requests[0].config.responseMimeType === 'application/json');
});

await test('AgentTool: an agent answers the model\'s request in a session of its own', async () => {
  const translator = new LlmAgent({ name: 'translator', description: 'Translates to Korean.', model: new ScriptedModel(['안녕하세요']) });
  const tool = new adk.AgentTool({ agent: translator });
  const model = new ScriptedModel([call('translator', { request: 'hello' }), 'It is 안녕하세요.']);
  const { events } = await runAll(new LlmAgent({ name: 'root', model, tools: [tool] }), 'say hello in Korean');
  assertJsonEqual(adk.getFunctionResponses(events[1])[0].response, { result: '안녕하세요' });
  assert(events[2].content.parts[0].text === 'It is 안녕하세요.');
  const declaration = model.requests[0].config.tools[0].functionDeclarations[0];
  assert(declaration.name === 'translator' && declaration.description === 'Translates to Korean.', JSON.stringify(declaration));
  assertJsonEqual(json(declaration.parametersJsonSchema).required, ['request']);
});

await test('an empty staticInstruction is none; tools or a system instruction in generateContentConfig are refused', async () => {
  const model = new ScriptedModel(['ok']);
  await runAll(new LlmAgent({ name: 'plain', model, instruction: 'Be brief.', staticInstruction: '' }), 'hi');
  const [request] = model.requests;
  assert(request.config.systemInstruction.startsWith('Be brief.'), request.config.systemInstruction);
  assert(request.contents.length === 1, JSON.stringify(request.contents));
  for (const generateContentConfig of [{ tools: [] }, { systemInstruction: 'x' }]) {
    let error;
    try {
      new LlmAgent({ name: 'bad', model: new ScriptedModel([]), generateContentConfig });
    } catch (e) {
      error = e;
    }
    assert(error?.code === 'INVALID_ARGUMENT' && /LlmAgent/.test(error.message), String(error?.message));
  }
});

await test('a beforeModelCallback that edits the request in place changes what the model gets; one that reads changes nothing', async () => {
  const edited = new ScriptedModel(['a']);
  await runAll(new LlmAgent({ name: 'edits', model: edited, beforeModelCallback: ({ request }) => { request.config.temperature = 0.25; request.contents.push(text('added')); } }), 'x');
  assert(edited.requests[0].config.temperature === 0.25 && edited.requests[0].contents.at(-1).parts[0].text === 'added', JSON.stringify(edited.requests[0]));
  const plain = new ScriptedModel(['a']);
  const read = new ScriptedModel(['a']);
  let contents = 0;
  await runAll(new LlmAgent({ name: 'same', model: plain }), 'x');
  await runAll(new LlmAgent({ name: 'same', model: read, beforeModelCallback: ({ request }) => { contents = request.contents.length; } }), 'x');
  assert(contents === 1);
  assertJsonEqual(read.requests, plain.requests);
});

finish();
