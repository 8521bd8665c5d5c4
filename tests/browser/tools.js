// Built-in tools and what tool code can use, through the release package in Chromium: ADK's memory
// tools over the runner's InMemoryMemoryService.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, finish, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, ScriptedModel, PreloadMemoryTool, LOAD_MEMORY } = adk;

const text = (t) => ({ role: 'user', parts: [{ text: t }] });

/** A runner whose memory holds one earlier conversation about the user's cat. */
async function rememberingRunner(agent) {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  const old = await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 'old' });
  await runner.sessionService.appendEvent({ session: old, event: adk.createEvent({ author: 'user', content: text('my cat is named Tom') }) });
  await runner.memoryService.addSessionToMemory(old);
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return runner;
}

async function run(runner, message) {
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text(message) })) events.push(e);
  return events;
}

await test('PreloadMemoryTool puts past conversations before the user message, undeclared', async () => {
  const model = new ScriptedModel(['Tom.']);
  const runner = await rememberingRunner(new LlmAgent({ name: 'mem', model, tools: [new PreloadMemoryTool()] }));
  await run(runner, 'what is my cat called');
  const [request] = model.requests;
  const { memories: [memory] } = await runner.memoryService.searchMemory({ appName: 'app', userId: 'u', query: 'cat' });
  const expected = 'The following content is from your previous conversations with the user.\n'
    + "They may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n"
    + `Time: ${memory.timestamp}\nuser: my cat is named Tom\n</PAST_CONVERSATIONS>\n`;
  assertJsonEqual(request.contents, [text(expected), text('what is my cat called')]);
  assert(!request.config.tools, 'preload_memory is never declared');
});

await test('LOAD_MEMORY is declared as ADK declares it and answers {result: {memories}}', async () => {
  const call = { content: { role: 'model', parts: [{ functionCall: { name: 'load_memory', args: { query: 'cat' } } }] } };
  const model = new ScriptedModel([call, 'Your cat is Tom.']);
  const runner = await rememberingRunner(new LlmAgent({ name: 'mem', model, tools: [LOAD_MEMORY] }));
  const events = await run(runner, 'what is my cat called');
  const [declaration] = model.requests[0].config.tools[0].functionDeclarations;
  assert(declaration.name === 'load_memory');
  assertJsonEqual(declaration.parametersJsonSchema ?? declaration.parameters, { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] });
  const [response] = adk.getFunctionResponses(events[1]);
  const [memory] = response.response.result.memories;
  assert(memory.author === 'user' && memory.content.parts[0].text === 'my cat is named Tom', JSON.stringify(memory));
  assertJsonEqual(memory.custom_metadata, {});
});

finish();
