// @bundle
// adk-wasm/ai-sdk in Chromium: AdkChatTransport under the AI SDK's own code (`ai` 7: readUIMessageStream
// and the Chat behind useChat, AbstractChat), over a local runner, the real ADK servers (google-adk
// 2.13.0 and 1.39.1, started by run.mjs) and an a2a-sdk peer. Each case checks the exact UI messages.
// Bundled by tests/browser/bundle.mjs (the page loads /target/bundles/ai-sdk.js); /pkg/ stays the
// release package.
import { AbstractChat, lastAssistantMessageIsCompleteWithToolCalls, readUIMessageStream } from 'ai';
import init, * as adk from '/pkg/index.js';
import { AdkChatTransport } from '/pkg/ai-sdk.js';
import { assert, assertJsonEqual, finish, json, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, FunctionTool, ScriptedModel } = adk;
const params = new URLSearchParams(location.search);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const call = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });
const user = (id, text, more = []) => ({ id, role: 'user', parts: [{ type: 'text', text }, ...more] });
/** Plain JSON: the AI SDK leaves `undefined` members in its parts. */
const plain = (value) => JSON.parse(JSON.stringify(value));

function transportFor(agent, options = {}) {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  return { runner, transport: new AdkChatTransport({ runner, userId: 'u', ...options }) };
}

/**
 * One request, read as `useChat` reads it: the chunks, and the assistant message readUIMessageStream
 * builds from them (continuing the last message when it is the assistant's). `messages` gets it.
 * @param {AdkChatTransport} transport
 * @param {string} chatId
 * @param {any[]} messages
 * @param {{ trigger?: 'submit-message' | 'regenerate-message', abortSignal?: AbortSignal, onChunk?: (chunk: any) => void }} [options]
 */
async function send(transport, chatId, messages, { trigger = 'submit-message', abortSignal, onChunk } = {}) {
  const stream = await transport.sendMessages({ trigger, chatId, messageId: undefined, messages, abortSignal });
  const chunks = [];
  const tap = stream.pipeThrough(new TransformStream({ transform(chunk, controller) { chunks.push(chunk); onChunk?.(chunk); controller.enqueue(chunk); } }));
  const last = messages.at(-1);
  const continued = last?.role === 'assistant' ? structuredClone(last) : undefined;
  const errors = [];
  let message;
  for await (const m of readUIMessageStream({ message: continued, stream: tap, onError: (e) => errors.push(json(e).message) })) message = m;
  message = plain(message);
  if (continued) messages[messages.length - 1] = message;
  else if (message) messages.push(message);
  return { chunks, message, errors };
}

/** The ids the run gave its tool calls, in order. */
const callIds = (chunks) => chunks.filter((c) => c.type === 'tool-input-available').map((c) => c.toolCallId);
const types = (chunks) => chunks.map((c) => c.type);

/** A model that streams `pieces` slowly (`ms` apart), then, on later calls, answers `after`. */
function slowModel(pieces, ms, after = 'fast') {
  let calls = 0;
  return {
    async *generateContent(_request, { signal }) {
      if (calls++) {
        yield { content: { role: 'model', parts: [{ text: after }] } };
        return;
      }
      for (const text of pieces) {
        await sleep(ms);
        if (signal.aborted) throw signal.reason;
        yield { content: { role: 'model', parts: [{ text }] }, partial: true };
      }
    },
  };
}

await test('local runner: a tool loop with streamed text, as chunks and as the UI message', async () => {
  const add = new FunctionTool({ name: 'add', execute: ({ a, b }) => json(a) + json(b) });
  const { runner, transport } = transportFor(new LlmAgent({ name: 'math', tools: [add],
    model: new ScriptedModel([call('add', { a: 2, b: 40 }), { chunks: ['2 + 40', ' = 42'] }]) }));
  const file = { type: 'file', mediaType: 'text/plain', filename: 'note.txt', url: 'data:text/plain;base64,aGk=' };
  const messages = [user('u1', 'add 2 and 40', [file])];
  const { chunks, message } = await send(transport, 'chat-1', messages);
  const [id] = callIds(chunks);
  assertJsonEqual(chunks, [
    { type: 'start', messageId: message.id },
    { type: 'start-step' },
    { type: 'tool-input-available', toolCallId: id, toolName: 'add', input: { a: 2, b: 40 }, providerExecuted: true },
    { type: 'tool-output-available', toolCallId: id, output: { result: 42 }, providerExecuted: true },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'text-start', id: 'text-1' },
    { type: 'text-delta', id: 'text-1', delta: '2 + 40' },
    { type: 'text-delta', id: 'text-1', delta: ' = 42' },
    { type: 'text-end', id: 'text-1' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'stop' },
  ]);
  assertJsonEqual(message, { id: message.id, role: 'assistant', parts: [
    { type: 'step-start' },
    { type: 'tool-add', toolCallId: id, state: 'output-available', input: { a: 2, b: 40 }, output: { result: 42 }, providerExecuted: true },
    { type: 'step-start' },
    { type: 'text', text: '2 + 40 = 42', state: 'done' },
  ] });
  // chatId is the session; the user's file went inline.
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'chat-1' });
  assertJsonEqual(session?.events[0].content?.parts, [{ text: 'add 2 and 40' }, { inlineData: { data: 'aGk=', mimeType: 'text/plain', displayName: 'note.txt' } }]);
  assert(await transport.reconnectToStream({ chatId: 'chat-1' }) === null, 'nothing runs any more');
});

await test('thoughts stream as reasoning, once, whether the model streams or not', async () => {
  const thought = (text) => ({ content: { role: 'model', parts: [{ text, thought: true }] } });
  const script = () => [{ chunks: [thought('Adding '), thought('up.'), 'Four.'] }];
  const expected = (id) => ({ id, role: 'assistant', parts: [
    { type: 'step-start' },
    { type: 'reasoning', id: 'reasoning-1', text: 'Adding up.', state: 'done' },
    { type: 'text', text: 'Four.', state: 'done' },
  ] });
  for (const streaming of [true, false]) {
    const { transport } = transportFor(new LlmAgent({ name: 'thinker', model: new ScriptedModel(script()) }), { streaming });
    const { chunks, message } = await send(transport, 'chat', [user('u1', '2 + 2?')]);
    assertJsonEqual(message, expected(message.id), `streaming: ${streaming}`);
    assertJsonEqual(types(chunks), ['start', 'start-step', 'reasoning-start', ...(streaming ? ['reasoning-delta', 'reasoning-delta'] : ['reasoning-delta']),
      'reasoning-end', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish'], `streaming: ${streaming}`);
  }
});

await test('a ParallelAgent streaming two answers at once: each its own text part, each once, in one step', async () => {
  // The branches take turns, piece by piece (b0, b1, b0, …), then each sends its whole answer.
  let turn = 0;
  const waiting = [];
  const myTurn = (n) => new Promise((resolve) => {
    const check = () => (turn === n ? resolve() : waiting.push(check));
    check();
  });
  const pass = () => {
    turn++;
    for (const check of waiting.splice(0)) check();
  };
  const alternating = (pieces, branch) => ({
    async *generateContent() {
      for (const [i, text] of pieces.entries()) {
        await myTurn(2 * i + branch);
        pass();
        yield { content: { role: 'model', parts: [{ text }] }, partial: true };
      }
      yield { content: { role: 'model', parts: [{ text: pieces.join('') }] } };
    },
  });
  const branches = [['one ', 'two ', 'three'], ['uno ', 'dos ', 'tres']].map((pieces, i) => new LlmAgent({ name: `b${i}`, model: alternating(pieces, i) }));
  const { transport } = transportFor(new adk.ParallelAgent({ name: 'both', subAgents: branches }), { streaming: true });
  const { chunks, message } = await send(transport, 'chat', [user('u1', 'count')]);
  const deltas = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta);
  assertJsonEqual(deltas, ['one ', 'uno ', 'two ', 'dos ', 'three', 'tres'], 'interleaved, and no repeat from the whole answers');
  assertJsonEqual(message.parts.map((p) => (p.type === 'text' ? p.text : p.type)), ['step-start', 'one two three', 'uno dos tres'], JSON.stringify(chunks));
  assertJsonEqual(types(chunks).filter((t) => t.endsWith('step')), ['start-step', 'finish-step']);
});

await test('a branch that fails mid-stream ends only its own part; the next response starts a step of its own', async () => {
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const failing = {
    async *generateContent() {
      yield { content: { role: 'model', parts: [{ text: 'half ' }] }, partial: true };
      await released;
      yield { errorCode: 'UNAVAILABLE', errorMessage: 'cut' };
    },
  };
  const steady = {
    async *generateContent() {
      yield { content: { role: 'model', parts: [{ text: 'al' }] }, partial: true };
      release();
      await sleep(0);
      yield { content: { role: 'model', parts: [{ text: 'pha' }] }, partial: true };
      yield { content: { role: 'model', parts: [{ text: 'alpha' }] } };
    },
  };
  const after = new LlmAgent({ name: 'after', model: new ScriptedModel(['later']) });
  const both = new adk.ParallelAgent({ name: 'both', subAgents: [new LlmAgent({ name: 'f', model: failing }), new LlmAgent({ name: 's', model: steady })] });
  const { transport } = transportFor(new adk.SequentialAgent({ name: 'seq', subAgents: [both, after] }), { streaming: true });
  const { chunks, message } = await send(transport, 'chat', [user('u1', 'go')]);
  // The steady branch's text is one part, whatever the failing one did in between.
  assertJsonEqual(message.parts.filter((p) => p.type === 'text').map((p) => p.text), ['half ', 'alpha', 'later'], JSON.stringify(chunks));
  assert(chunks.some((c) => c.type === 'error' && c.errorText === 'UNAVAILABLE: cut'), JSON.stringify(chunks));
  assertJsonEqual(types(chunks).filter((t) => t.endsWith('step')), ['start-step', 'finish-step', 'start-step', 'finish-step']);
});

await test('an answer cut short at the token limit finishes with "length" and its text, streamed or not (no error)', async () => {
  const cut = { content: { role: 'model', parts: [{ text: 'upon a time' }] }, finishReason: 'MAX_TOKENS' };
  for (const streaming of [true, false]) {
    const { transport } = transportFor(new LlmAgent({ name: 'teller', model: new ScriptedModel([{ chunks: ['Once ', cut] }]) }), { streaming });
    const { chunks, message, errors } = await send(transport, 'chat', [user('u1', 'A story?')]);
    assertJsonEqual(errors, [], `streaming: ${streaming}`);
    assert(!chunks.some((c) => c.type === 'error') && chunks.at(-1).finishReason === 'length', `streaming ${streaming}: ${JSON.stringify(chunks)}`);
    assertJsonEqual(message.parts.filter((p) => p.type === 'text').map((p) => p.text), ['Once upon a time'], `streaming: ${streaming}`);
  }
  // Another finish reason with text (a call the model botched) is still an error.
  const botched = { content: { role: 'model', parts: [{ text: 'checking' }] }, finishReason: 'MALFORMED_FUNCTION_CALL' };
  const { transport } = transportFor(new LlmAgent({ name: 'teller', model: new ScriptedModel([{ chunks: ['Still ', botched] }]) }));
  const { chunks } = await send(transport, 'chat', [user('u1', 'A story?')]);
  assert(chunks.some((c) => c.type === 'error' && c.errorText.startsWith('MALFORMED_FUNCTION_CALL')), JSON.stringify(chunks));
});

await test('state and artifact deltas come as data-state and data-artifacts parts', async () => {
  const remember = new FunctionTool({ name: 'remember', execute: async ({ note }, ctx) => {
    ctx.state.set('note', note);
    await ctx.saveArtifact('note.txt', { text: String(note) });
    return { ok: true };
  } });
  const { transport } = transportFor(new LlmAgent({ name: 'notes', tools: [remember], model: new ScriptedModel([call('remember', { note: 'milk' }), 'Noted.']) }));
  const { chunks, message } = await send(transport, 'chat', [user('u1', 'remember milk')]);
  const [id] = callIds(chunks);
  assertJsonEqual(message.parts, [
    { type: 'step-start' },
    { type: 'tool-remember', toolCallId: id, state: 'output-available', input: { note: 'milk' }, output: { ok: true }, providerExecuted: true },
    { type: 'data-state', data: { note: 'milk' } },
    { type: 'data-artifacts', data: { 'note.txt': 0 } },
    { type: 'step-start' },
    { type: 'text', text: 'Noted.', state: 'done' },
  ]);
});

await test('a failing tool, a failing model: an error chunk, finish "error", and the chat goes on', async () => {
  let broken = true;
  const flaky = new FunctionTool({ name: 'flaky', execute: () => { if (broken) throw new RangeError('flaky broke 💥'); return 'fine'; } });
  const model = new ScriptedModel([call('flaky', {}), { errorCode: 'RESOURCE_EXHAUSTED', errorMessage: 'quota' }, call('flaky', {}), 'all good']);
  const { transport } = transportFor(new LlmAgent({ name: 'a', model, tools: [flaky] }));
  const messages = [user('u1', 'go')];
  let { chunks, message, errors } = await send(transport, 'chat', messages);
  const [id] = callIds(chunks);
  assert(errors.length === 1 && errors[0].includes('flaky broke 💥'), JSON.stringify(errors));
  assertJsonEqual(chunks.slice(-3).map((c) => c.type), ['error', 'finish-step', 'finish']);
  assert(chunks.at(-1).finishReason === 'error');
  assertJsonEqual(message.parts, [{ type: 'step-start' }, { type: 'tool-flaky', toolCallId: id, state: 'input-available', input: {}, providerExecuted: true }]);

  messages.push(user('u2', 'again'));
  ({ chunks, message, errors } = await send(transport, 'chat', messages));
  assertJsonEqual(errors, ['RESOURCE_EXHAUSTED: quota']);
  // An error event with no content is no model output: no step.
  assertJsonEqual(types(chunks), ['start', 'error', 'finish']);

  broken = false;
  messages.push(user('u3', 'once more'));
  ({ chunks, message, errors } = await send(transport, 'chat', messages));
  assert(!errors.length && message.parts.at(-1).text === 'all good' && chunks.at(-1).finishReason === 'stop', JSON.stringify(chunks));
});

await test('a tool answering {error} is a tool-output-error part', async () => {
  const lookup = new FunctionTool({ name: 'lookup', execute: () => ({ error: 'no such city' }) });
  const { transport } = transportFor(new LlmAgent({ name: 'a', tools: [lookup], model: new ScriptedModel([call('lookup', { city: 'Atlantis' }), 'Sorry.']) }));
  const { chunks, message } = await send(transport, 'chat', [user('u1', 'weather in Atlantis')]);
  const [id] = callIds(chunks);
  assertJsonEqual(message.parts[1], { type: 'tool-lookup', toolCallId: id, state: 'output-error', input: { city: 'Atlantis' }, errorText: 'no such city', providerExecuted: true });
});

await test('abortSignal stops the run: the stream ends with abort, and the chat goes on', async () => {
  const { runner, transport } = transportFor(new LlmAgent({ name: 'slow', model: slowModel(['one ', 'two ', 'three ', 'four'], 100) }));
  const controller = new AbortController();
  const messages = [user('u1', 'count')];
  const started = Date.now();
  const { chunks } = await send(transport, 'chat', messages, { abortSignal: controller.signal, onChunk: (c) => c.type === 'text-delta' && controller.abort() });
  assert(Date.now() - started < 1000, 'stopped at once');
  assertJsonEqual(types(chunks), ['start', 'start-step', 'text-start', 'text-delta', 'abort']);
  assert(typeof chunks.at(-1).reason === 'string', JSON.stringify(chunks.at(-1)));
  messages.push(user('u2', 'again'));
  const { message } = await send(transport, 'chat', messages);
  assert(message.parts.at(-1).text === 'fast', JSON.stringify(message));
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'chat' });
  assertJsonEqual(session?.events.map((e) => e.author), ['user', 'user', 'slow'], 'nothing of the stopped run was recorded but its message');
});

await test('a confirmation, answered with a tool output in the next request (readUIMessageStream)', async () => {
  let wiped = 0;
  const wipe = new FunctionTool({ name: 'wipe', execute: ({ disk }) => ({ wiped: disk, times: ++wiped }), requireConfirmation: true });
  const model = new ScriptedModel([call('wipe', { disk: 'C' }), 'Wiped C.']);
  const { transport } = transportFor(new LlmAgent({ name: 'admin', model, tools: [wipe] }));
  const messages = [user('u1', 'wipe C')];
  let { chunks, message } = await send(transport, 'chat', messages);
  const [wipeId, askId] = callIds(chunks);
  assert(chunks.at(-1).finishReason === 'tool-calls', JSON.stringify(chunks.at(-1)));
  const hint = 'Please approve or reject the tool call wipe() by responding with a FunctionResponse with an expected ToolConfirmation payload.';
  const request = { originalFunctionCall: { id: wipeId, args: { disk: 'C' }, name: 'wipe' }, toolConfirmation: { hint, confirmed: false } };
  assertJsonEqual(message.parts, [
    { type: 'step-start' },
    { type: 'tool-wipe', toolCallId: wipeId, state: 'input-available', input: { disk: 'C' }, providerExecuted: true },
    { type: 'step-start' },
    { type: 'tool-adk_request_confirmation', toolCallId: askId, state: 'input-available', input: request },
  ]);
  assert(wiped === 0);
  // What addToolOutput does to the part; the request continues the message.
  Object.assign(message.parts[3], { state: 'output-available', output: { confirmed: true } });
  ({ chunks, message } = await send(transport, 'chat', messages));
  assert(chunks[0].messageId === message.id && messages.length === 2, 'the same message went on');
  assertJsonEqual(message.parts, [
    { type: 'step-start' },
    { type: 'tool-wipe', toolCallId: wipeId, state: 'output-available', input: { disk: 'C' }, output: { wiped: 'C', times: 1 }, providerExecuted: true },
    { type: 'step-start' },
    { type: 'tool-adk_request_confirmation', toolCallId: askId, state: 'output-available', input: request, output: { confirmed: true } },
    { type: 'step-start' },
    { type: 'text', text: 'Wiped C.', state: 'done' },
  ]);
  assertJsonEqual(json(model).requests[1].contents.at(-1).parts, [{ functionResponse: { name: 'wipe', response: { wiped: 'C', times: 1 } } }], 'ADK strips the ids it made from model requests');
  // The answer was sent once: a new message sends only its text.
  messages.push(user('u2', 'thanks'));
  await send(transport, 'chat', messages).catch(() => {});
  assert(wiped === 1);
});

await test('a long-running tool: its own first answer is no output; the front end\'s is sent as the function response', async () => {
  const ask = new FunctionTool({ name: 'ask_manager', isLongRunning: true, execute: () => ({ status: 'asked' }) });
  const model = new ScriptedModel([call('ask_manager', { amount: 90 }), 'Waiting for your manager.', 'Approved, booking it.']);
  const { runner, transport } = transportFor(new LlmAgent({ name: 'travel', model, tools: [ask] }));
  const messages = [user('u1', 'book a trip')];
  let { chunks, message } = await send(transport, 'chat', messages);
  const [id] = callIds(chunks);
  assertJsonEqual(message.parts, [
    { type: 'step-start' },
    { type: 'tool-ask_manager', toolCallId: id, state: 'input-available', input: { amount: 90 } },
    { type: 'step-start' },
    { type: 'text', text: 'Waiting for your manager.', state: 'done' },
  ]);
  assert(chunks.at(-1).finishReason === 'tool-calls');
  Object.assign(message.parts[1], { state: 'output-available', output: 'approved' });
  ({ message } = await send(transport, 'chat', messages));
  assertJsonEqual(message.parts.slice(3), [{ type: 'text', text: 'Waiting for your manager.', state: 'done' }, { type: 'step-start' }, { type: 'text', text: 'Approved, booking it.', state: 'done' }]);
  assertJsonEqual(json(model).requests[2].contents.at(-1).parts, [{ functionResponse: { name: 'ask_manager', response: { result: 'approved' } } }]);
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'chat' });
  assertJsonEqual(session?.events.filter((e) => e.author === 'user').map((e) => e.content?.parts), [
    [{ text: 'book a trip' }],
    [{ functionResponse: { id, name: 'ask_manager', response: { result: 'approved' } } }],
  ]);
});

/** The Chat behind useChat, with its state in plain arrays. */
class Chat extends AbstractChat {
  constructor(init) {
    const state = { status: 'ready', error: undefined, messages: init.messages ?? [], snapshot: (v) => structuredClone(v),
      pushMessage(m) { state.messages = [...state.messages, m]; }, popMessage() { state.messages = state.messages.slice(0, -1); },
      replaceMessage(i, m) { state.messages = state.messages.map((old, j) => (j === i ? m : old)); } };
    super({ ...init, state: json(state) });
  }
}

/** Until `chat` is ready again with `count` messages. */
async function settled(chat, count) {
  for (let i = 0; i < 250 && (chat.status !== 'ready' || chat.messages.length !== count); i++) await sleep(20);
  assert(chat.status === 'ready' && chat.messages.length === count, `${chat.status} ${chat.error} ${chat.messages.length}`);
}

await test('useChat\'s Chat: a long-running call answered with addToolOutput goes out by itself', async () => {
  const ask = new FunctionTool({ name: 'ask_manager', isLongRunning: true, execute: () => undefined });
  const model = new ScriptedModel([call('ask_manager', { amount: 90 }), 'Approved, booking it.']);
  const { transport } = transportFor(new LlmAgent({ name: 'travel', model, tools: [ask] }));
  const toolCalls = [];
  const chat = new Chat({ id: 'trip', transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls, onToolCall: ({ toolCall }) => { toolCalls.push(toolCall.toolName); } });
  await chat.sendMessage({ text: 'book a trip' });
  await settled(chat, 2);
  const id = plain(chat.messages)[1].parts[1].toolCallId;
  assertJsonEqual(plain(chat.messages)[1].parts, [{ type: 'step-start' }, { type: 'tool-ask_manager', toolCallId: id, state: 'input-available', input: { amount: 90 } }]);
  assertJsonEqual(toolCalls, ['ask_manager'], 'onToolCall saw the call left to the front end');
  await chat.addToolOutput({ tool: 'ask_manager', toolCallId: id, output: 'approved' });
  await sleep(50);
  await settled(chat, 2);
  assertJsonEqual(plain(chat.messages)[1].parts, [
    { type: 'step-start' },
    { type: 'tool-ask_manager', toolCallId: id, state: 'output-available', input: { amount: 90 }, output: 'approved' },
    { type: 'step-start' },
    { type: 'text', text: 'Approved, booking it.', state: 'done' },
  ]);
  assertJsonEqual(json(model).requests[1].contents.at(-1).parts, [{ functionResponse: { name: 'ask_manager', response: { result: 'approved' } } }]);
});

await test('regenerate-message runs the last user message again as a new turn', async () => {
  const model = new ScriptedModel(['first', 'second']);
  const { runner, transport } = transportFor(new LlmAgent({ name: 'a', model }));
  const messages = [user('u1', 'hello')];
  await send(transport, 'chat', messages);
  messages.pop(); // what Chat.regenerate() does
  const { message } = await send(transport, 'chat', messages, { trigger: 'regenerate-message' });
  assertJsonEqual(message.parts, [{ type: 'step-start' }, { type: 'text', text: 'second', state: 'done' }]);
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'chat' });
  assertJsonEqual(session?.events.map((e) => [e.author, e.content?.parts?.[0].text]), [['user', 'hello'], ['a', 'first'], ['user', 'hello'], ['a', 'second']]);
});

await test('a chat restored from storage seeds its new session with the earlier messages', async () => {
  const model = new ScriptedModel(['It was 42.']);
  const { runner, transport } = transportFor(new LlmAgent({ name: 'math', model }));
  const messages = [
    user('u1', 'add 2 and 40'),
    { id: 'a1', role: 'assistant', parts: [
      { type: 'step-start' },
      { type: 'tool-add', toolCallId: 'call-1', state: 'output-available', input: { a: 2, b: 40 }, output: { result: 42 }, providerExecuted: true },
      { type: 'step-start' },
      { type: 'reasoning', text: 'easy', state: 'done' },
      { type: 'text', text: '42', state: 'done' },
    ] },
    user('u2', 'what was it?'),
  ];
  await send(transport, 'restored', json(messages));
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'restored' });
  assertJsonEqual(session?.events.map((e) => [e.author, e.content?.role, e.content?.parts]), [
    ['user', 'user', [{ text: 'add 2 and 40' }]],
    ['math', 'model', [{ functionCall: { id: 'call-1', name: 'add', args: { a: 2, b: 40 } } }]],
    ['math', 'user', [{ functionResponse: { id: 'call-1', name: 'add', response: { result: 42 } } }]],
    ['math', 'model', [{ text: '42' }]],
    ['user', 'user', [{ text: 'what was it?' }]],
    ['math', 'model', [{ text: 'It was 42.' }]],
  ]);
  assert(json(model).requests[0].contents.length === 5, 'the model saw the whole conversation');
});

await test('reconnectToStream: a running chat replays from its start and goes on; then null', async () => {
  const { transport } = transportFor(new LlmAgent({ name: 'slow', model: slowModel(['one ', 'two ', 'three'], 80) }));
  const first = send(transport, 'chat', [user('u1', 'count')]);
  await sleep(130);
  const stream = await transport.reconnectToStream({ chatId: 'chat' });
  assert(stream !== null, 'the run is going');
  const replayed = [];
  for await (const chunk of json(stream)) replayed.push(chunk);
  const { chunks } = await first;
  assertJsonEqual(replayed, chunks);
  assertJsonEqual(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta), ['one ', 'two ', 'three']);
  assert(await transport.reconnectToStream({ chatId: 'chat' }) === null, 'over');
  assert(transport.resumeStreamIsReplay === true);
});

await test('reconnectToStream through Chat.resumeStream: a second Chat shows the whole answer', async () => {
  const { transport } = transportFor(new LlmAgent({ name: 'slow', model: slowModel(['one ', 'two ', 'three'], 80) }));
  const chat = new Chat({ id: 'shared', transport });
  const sending = chat.sendMessage({ text: 'count' });
  await sleep(130);
  // Another view of the same chat (a remounted useChat({resume: true})), with what was stored so far.
  const other = new Chat({ id: 'shared', transport, messages: structuredClone(chat.messages) });
  await Promise.all([sending, other.resumeStream()]);
  assertJsonEqual(plain(other.messages), plain(chat.messages));
  assert(plain(other.messages)[1].parts.at(-1).text === 'one two three', JSON.stringify(other.messages));
});

const servers = [['2.13.0', params.get('adk2')], ['1.39.1', params.get('adk1')]];
for (const [version, baseUrl] of servers) {
  const server = new adk.AdkServerClient({ baseUrl: String(baseUrl) });
  const userId = `ai-sdk-${crypto.randomUUID().slice(0, 8)}`;
  const chatId = () => crypto.randomUUID();

  await test(`${version} server: weather streams its tool call, output and text`, async () => {
    const transport = new AdkChatTransport({ server, appName: 'weather', userId });
    const { chunks, message } = await send(transport, chatId(), [user('u1', 'Seoul')]);
    const [id] = callIds(chunks);
    const output = { city: 'Seoul', condition: 'sunny', temp_c: 21 };
    assertJsonEqual(message.parts, [
      { type: 'step-start' },
      { type: 'tool-get_weather', toolCallId: id, state: 'output-available', input: { city: 'Seoul' }, output, providerExecuted: true },
      { type: 'step-start' },
      { type: 'text', text: 'It is sunny and 21 °C in Seoul ☀️ (맑음).', state: 'done' },
    ]);
    assertJsonEqual(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta), ['It is sunny ', 'and 21 °C ', 'in Seoul ☀️ (맑음).']);
    assert(chunks.at(-1).finishReason === 'stop');
    assert(await transport.reconnectToStream({ chatId: 'any' }) === null, 'a server run has one reader');
  });

  await test(`${version} server: the failing agent's error ends the stream; the chat goes on`, async () => {
    const transport = new AdkChatTransport({ server, appName: 'failing', userId });
    const id = chatId();
    const messages = [user('u1', 'go')];
    const { chunks, message, errors } = await send(transport, id, messages);
    assertJsonEqual(message.parts, [{ type: 'step-start' }, { type: 'text', text: 'about to fail…', state: 'done' }]);
    assert(errors.length === 1 && errors[0].includes('scripted failure 💥'), JSON.stringify(errors));
    assertJsonEqual(types(chunks).slice(-3), ['error', 'finish-step', 'finish']);
    messages.push(user('u2', 'again'));
    const second = await send(transport, id, messages);
    assert(second.errors.length === 1 && second.message.parts[1].text === 'about to fail…', JSON.stringify(second));
  });

  await test(`${version} server: asking's confirmation answered through the transport`, async () => {
    const transport = new AdkChatTransport({ server, appName: 'asking', userId });
    const id = chatId();
    const messages = [user('u1', 'Send 500 to Bob.')];
    let { chunks, message } = await send(transport, id, messages);
    const ask = message.parts.find((p) => p.type === 'tool-adk_request_confirmation');
    const transfer = message.parts.find((p) => p.type === 'tool-transfer_money');
    assert(ask?.state === 'input-available' && !ask.providerExecuted && chunks.at(-1).finishReason === 'tool-calls', JSON.stringify(chunks));
    assert(transfer?.state === 'input-available' && transfer.providerExecuted, JSON.stringify(transfer));
    assertJsonEqual(ask.input.originalFunctionCall, { id: transfer.toolCallId, args: { to: 'Bob', amount: 500 }, name: 'transfer_money' });
    Object.assign(ask, { state: 'output-available', output: { confirmed: true } });
    ({ message } = await send(transport, id, messages));
    assertJsonEqual(message.parts.find((p) => p.type === 'tool-transfer_money'),
      { ...transfer, state: 'output-available', output: { status: 'sent', to: 'Bob', amount: 500 } });
    assert(message.parts.at(-1).text === 'Done: {"amount": 500, "status": "sent", "to": "Bob"}', JSON.stringify(message.parts.at(-1)));
  });
}

await test('A2A source: an a2a-sdk peer\'s streamed artifact and message', async () => {
  const transport = new AdkChatTransport({ a2a: new adk.RemoteA2aAgent({ name: 'remote', agentCardUrl: String(params.get('sdk')) }) });
  const { message, errors } = await send(transport, 'a2a-chat', [user('u1', 'hello')]);
  assert(!errors.length, JSON.stringify(errors));
  assertJsonEqual(message.parts.filter((p) => p.type === 'text').map((p) => p.text), ['안녕하세요 👋 A2A 세계 🌏!', 'done ✅']);
});

finish();
