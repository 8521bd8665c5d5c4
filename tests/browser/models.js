// @ts-check
// Gemini and OpenAICompatible in Chromium, over the browser's real fetch, against a local HTTP
// peer (tests/browser/replay.mjs) that sends recorded provider streams in small flushed chunks:
// the tool loop end to end, streaming (partials then exactly one final event), HTTP errors as
// error events, a cut stream, a stopped run, and the requests the providers would receive.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, finish, recordingFetch, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, FunctionTool, Gemini, OpenAICompatible, BuiltInCodeExecutor, GOOGLE_SEARCH, Transcript } = adk;

/** Registers the replies the local peer gives, in order; returns the base URL and a reader of the requests. */
async function scenario(replies) {
  const { id, baseUrl } = await (await fetch('/replay/scenario', { method: 'POST', body: JSON.stringify({ replies }) })).json();
  return { baseUrl: `${location.origin}${baseUrl}`, requests: async () => (await fetch(`/replay/requests/${id}`)).json() };
}

const weather = new FunctionTool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async ({ city }) => ({ city, sky: city === 'Seoul' || city === '서울' ? 'clear' : 'cloudy' }),
});
const time = new FunctionTool({ name: 'get_time', description: 'The time.', execute: () => '12:00' });

async function runOnce(agent, message, runConfig, runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true })) {
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: message }] }, runConfig })) events.push(e);
  return { events, runner };
}

const finals = (events) => events.filter((e) => !e.partial);
const texts = (events) => events.map((e) => e.content?.parts?.map((p) => p.text ?? '').join('') ?? '');

await test('Gemini: tool loop with streamed chunks split inside JSON and UTF-8', async () => {
  const peer = await scenario([
    { fixture: 'gemini-stream-call.sse', chunkSize: 7, delayMs: 1 },
    { fixture: 'gemini-stream-text.sse', chunkSize: 5, delayMs: 1 },
  ]);
  const agent = new LlmAgent({ name: 'weather', model: new Gemini({ model: 'gemini-2.5-flash', apiKey: 'test-key', baseUrl: peer.baseUrl }), tools: [weather] });
  assert(!JSON.stringify(agent.model).includes('test-key'), 'the API key must not sit on the JS object');
  const { events } = await runOnce(agent, '서울 날씨?', { streamingMode: 'sse' });
  const whole = finals(events);
  assert(adk.getFunctionCalls(whole[0])[0].name === 'get_weather');
  assertJsonEqual(adk.getFunctionCalls(whole[0])[0].args, { city: 'Seoul' });
  assertJsonEqual(adk.getFunctionResponses(whole[1])[0].response, { city: 'Seoul', sky: 'clear' });
  const partials = events.filter((e) => e.partial);
  assert(partials.length >= 2, `expected partial events, got ${partials.length}`);
  assert(texts(partials).join('') === '서울은 맑고 21°C 입니다 ☀️🌤', texts(partials).join(''));
  assertJsonEqual(texts(whole.slice(2)), ['서울은 맑고 21°C 입니다 ☀️🌤'], 'exactly one final text event');
  assert(whole[2].usageMetadata.totalTokenCount === 21);

  const requests = await peer.requests();
  assert(requests.length === 2);
  assert(requests[0].url.endsWith('/models/gemini-2.5-flash:streamGenerateContent?alt=sse'), requests[0].url);
  assert(requests[0].headers['x-goog-api-key'] === 'test-key');
  const second = JSON.parse(requests[1].body);
  const response = second.contents.flatMap((c) => c.parts).find((p) => p.functionResponse);
  assert(response.functionResponse.name === 'get_weather' && response.functionResponse.response.sky === 'clear', JSON.stringify(second.contents));
  assert(second.tools[0].functionDeclarations[0].name === 'get_weather');
});

await test('Gemini runs its code and grounds its answer: the request asks for both, a Transcript shows code, result and sources in order', async () => {
  const peer = await scenario([{ fixture: 'gemini-stream-code-execution.sse', chunkSize: 9, delayMs: 1 }]);
  const model = new Gemini({ model: 'gemini-2.5-flash', apiKey: 'test-key', baseUrl: peer.baseUrl });
  const agent = new LlmAgent({ name: 'coder', model, tools: [GOOGLE_SEARCH], codeExecutor: new BuiltInCodeExecutor() });
  const { events } = await runOnce(agent, 'Sum of the first 10 primes?', { streamingMode: 'sse' });
  const [request] = await peer.requests();
  assertJsonEqual(JSON.parse(request.body).tools, [{ codeExecution: {} }, { googleSearch: {} }]);
  const transcript = new Transcript();
  for (const e of events) transcript.add(e);
  const items = transcript.items;
  transcript.free();
  assertJsonEqual(items.map((i) => i.kind), ['message', 'code', 'codeResult', 'message', 'grounding']);
  assert(items[1].kind === 'code' && items[1].language === 'PYTHON' && items[1].code.startsWith('primes = '), JSON.stringify(items[1]));
  assertJsonEqual(items[2], { kind: 'codeResult', author: 'coder', outcome: 'OUTCOME_OK', output: '129\n' });
  const grounding = items[4];
  if (grounding.kind !== 'grounding') throw new Error(JSON.stringify(grounding));
  assert(grounding.searchEntryPoint?.startsWith('<style>') === true, 'the search suggestions, as markup to frame');
  assertJsonEqual([grounding.queries, grounding.sources], [['first 10 prime numbers'], [{ uri: 'https://primes.example/first-ten', title: 'primes.example' }]]);
});

await test('codeExecutor: only a BuiltInCodeExecutor, and only on a Gemini model', async () => {
  let error;
  try { new LlmAgent({ name: 'coder', model: new Gemini({ model: 'gemini-2.5-flash', apiKey: 'k' }), codeExecutor: /** @type {any} */ ({}) }); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('BuiltInCodeExecutor'), String(error));
  const agent = new LlmAgent({ name: 'coder', model: new OpenAICompatible({ model: 'gpt-4o', baseUrl: 'http://127.0.0.1:9' }), codeExecutor: new BuiltInCodeExecutor() });
  error = undefined;
  try { await runOnce(agent, '2 + 2?'); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message === 'Gemini code execution tool is not supported for model gpt-4o', String(error?.message));
});

await test('Gemini: one request without streaming', async () => {
  const body = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '맑음' }] }, finishReason: 'STOP' }], usageMetadata: { totalTokenCount: 3 } });
  const peer = await scenario([{ body, contentType: 'application/json', chunkSize: 4 }]);
  const agent = new LlmAgent({ name: 'plain', model: new Gemini({ model: 'models/gemini-2.5-flash', baseUrl: peer.baseUrl }) });
  const { events } = await runOnce(agent, 'hi');
  assertJsonEqual(texts(events), ['맑음']);
  const [request] = await peer.requests();
  assert(request.url.endsWith('/models/gemini-2.5-flash:generateContent'), request.url);
  assert(request.headers['x-goog-api-key'] === undefined, 'no key, no header');
});

await test('a beforeModelCallback that only reads leaves numbers JS cannot spell as they were (past 2^53, 1.0, -0.0)', async () => {
  // The model's call carries them as Gemini wrote them; the next request sends them back from the
  // session's events, through the callback, as the core writes them.
  const args = '{"id": 12345678901234567891, "ratio": 1.0, "tilt": -0.0}';
  const peer = await scenario([
    { contentType: 'application/json', body: `{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "get_time", "args": ${args}}}]}}]}` },
    { contentType: 'application/json', body: '{"candidates": [{"content": {"role": "model", "parts": [{"text": "noon"}]}}]}' },
  ]);
  let seen = 0;
  const model = new Gemini({ model: 'gemini-2.5-flash', baseUrl: peer.baseUrl });
  const agent = new LlmAgent({ name: 'clock', model, tools: [time], beforeModelCallback: ({ request }) => { seen += request.contents.length; } });
  await runOnce(agent, 'time?');
  const requests = await peer.requests();
  assert(requests.length === 2 && seen === 4, `${requests.length} requests, ${seen} contents seen`);
  assert(requests[1].body.includes('"args":{"id":12345678901234567891,"ratio":1.0,"tilt":-0.0}'), requests[1].body);
});

await test('headers and fetch options: each model sends its headers, through the fetch it was given', async () => {
  const gemini = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'g' }] }, finishReason: 'STOP' }] });
  const openai = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'o' }, finish_reason: 'stop' }] });
  const peers = [await scenario([{ body: gemini, contentType: 'application/json' }]), await scenario([{ body: openai, contentType: 'application/json' }])];
  const { fetch: through, seen } = recordingFetch();
  const headers = { 'X-Proxy-Token': 'proxied ok' };
  const models = [
    new Gemini({ model: 'gemini-2.5-flash', baseUrl: peers[0].baseUrl, headers, fetch: through }),
    new OpenAICompatible({ model: 'gpt-4o-mini', baseUrl: peers[1].baseUrl, headers, fetch: through }),
  ];
  for (const [i, model] of models.entries()) {
    const { events } = await runOnce(new LlmAgent({ name: `m${i}`, model }), 'hi');
    assertJsonEqual(texts(events), [i ? 'o' : 'g']);
    const [request] = await peers[i].requests();
    assert(request.headers['x-proxy-token'] === 'proxied ok', JSON.stringify(request.headers));
  }
  const fetched = seen.map(({ url }) => url);
  assert(fetched.length === 2 && fetched[0].startsWith(peers[0].baseUrl) && fetched[1].startsWith(peers[1].baseUrl), JSON.stringify(fetched));
});

await test('OpenAI-compatible: tool-call deltas by index, then streamed text', async () => {
  const peer = await scenario([
    { fixture: 'openai-stream-tools.sse', chunkSize: 3, delayMs: 1 },
    { fixture: 'openai-stream-text.sse', chunkSize: 4, delayMs: 1 },
  ]);
  const agent = new LlmAgent({ name: 'local', model: new OpenAICompatible({ model: 'gpt-4o-mini', baseUrl: peer.baseUrl, apiKey: 'sk-test' }), tools: [weather, time] });
  const { events } = await runOnce(agent, '부산 날씨랑 시간', { streamingMode: 'sse' });
  const whole = finals(events);
  const calls = adk.getFunctionCalls(whole[0]);
  assertJsonEqual(calls.map((c) => [c.id, c.name, c.args]), [['call_a1', 'get_weather', { city: '서울' }], ['call_b2', 'get_time', {}]]);
  assertJsonEqual(texts(whole.slice(2)), ['부산은 흐려요 🌧️.']);
  assert(events.some((e) => e.partial), 'text streamed as partial events');

  const requests = await peer.requests();
  assert(requests[0].url.endsWith('/chat/completions'), requests[0].url);
  assert(requests[0].headers.authorization === 'Bearer sk-test');
  const first = JSON.parse(requests[0].body);
  assert(first.stream === true && first.model === 'gpt-4o-mini');
  assertJsonEqual(first.tools.map((t) => t.function.name), ['get_weather', 'get_time']);
  const messages = JSON.parse(requests[1].body).messages;
  const assistant = messages.find((m) => m.role === 'assistant');
  assertJsonEqual(assistant.tool_calls.map((c) => c.id), ['call_a1', 'call_b2']);
  const tools = messages.filter((m) => m.role === 'tool');
  assertJsonEqual(tools.map((m) => m.tool_call_id), ['call_a1', 'call_b2']);
  assertJsonEqual(JSON.parse(tools[0].content), { city: '서울', sky: 'clear' });
});

await test('HTTP errors become error events, and the session goes on', async () => {
  const status = JSON.stringify({ error: { code: 429, message: 'Quota exceeded for this key.', status: 'RESOURCE_EXHAUSTED' } });
  const peer = await scenario([
    { status: 429, body: status, contentType: 'application/json' },
    { fixture: 'gemini-stream-text.sse' },
  ]);
  const agent = new LlmAgent({ name: 'quota', model: new Gemini({ model: 'gemini-2.5-flash', baseUrl: peer.baseUrl }) });
  const { events, runner } = await runOnce(agent, 'hi', { streamingMode: 'sse' });
  assert(events.length === 1 && adk.hasError(events[0]), JSON.stringify(events));
  assert(events[0].errorCode === 'RESOURCE_EXHAUSTED' && events[0].errorMessage.includes('Quota exceeded'), events[0].errorMessage);
  const again = await runOnce(agent, 'again', { streamingMode: 'sse' }, runner);
  assertJsonEqual(texts(finals(again.events)), ['서울은 맑고 21°C 입니다 ☀️🌤']);
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(session.events.length === 4, 'user, error, user, answer');

  const openai = await scenario([{ status: 500, body: '{"error":{"message":"upstream broke","type":"server_error"}}', contentType: 'application/json' }]);
  const broken = new LlmAgent({ name: 'broken', model: new OpenAICompatible({ model: 'm', baseUrl: openai.baseUrl }) });
  const failed = (await runOnce(broken, 'hi')).events;
  assert(failed[0].errorCode === 'INTERNAL' && failed[0].errorMessage.includes('upstream broke'), JSON.stringify(failed[0]));
});

await test('a stream cut mid-event is an UNAVAILABLE error event, not a half answer', async () => {
  const peer = await scenario([{ fixture: 'gemini-stream-text.sse', chunkSize: 16, cutAfter: 200 }]);
  const agent = new LlmAgent({ name: 'cut', model: new Gemini({ model: 'gemini-2.5-flash', baseUrl: peer.baseUrl }) });
  const { events } = await runOnce(agent, 'hi', { streamingMode: 'sse' });
  const last = events[events.length - 1];
  assert(last.errorCode === 'UNAVAILABLE', JSON.stringify(last));
  assert(finals(events).length === 1, 'only the error is final');
});

await test('stopping a run aborts the fetch mid-stream', async () => {
  const peer = await scenario([{ fixture: 'openai-stream-text.sse', chunkSize: 40, delayMs: 150 }]);
  const agent = new LlmAgent({ name: 'slow', model: new OpenAICompatible({ model: 'm', baseUrl: peer.baseUrl }) });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const controller = new AbortController();
  const seen = [];
  let error;
  try {
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'x' }] }, runConfig: { streamingMode: 'sse' }, signal: controller.signal })) {
      seen.push(e);
      if (e.partial) controller.abort();
    }
  } catch (e) {
    error = e;
  }
  assert(error?.name === 'AbortError', `${error?.name}: ${error?.message} after ${JSON.stringify(seen.map((e) => [e.partial, e.content?.parts]))}`);
  assert(seen.filter((e) => !e.partial).length === 0, 'no final answer after the stop');
  await new Promise((r) => setTimeout(r, 300));
  const [request] = await peer.requests();
  assert(request.aborted, 'the peer saw the connection closed before the end of its stream');
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(session.events.length === 1, 'only the user message is stored');
});

await test('bad options are typed errors at construction', async () => {
  for (const [make, part] of /** @type {[() => unknown, string][]} */ ([
    // @ts-expect-error deliberately the wrong type
    [() => new Gemini({}), 'model'],
    // @ts-expect-error deliberately the wrong type
    [() => new OpenAICompatible({ model: 'm' }), 'baseUrl'],
    // @ts-expect-error deliberately the wrong type
    [() => new Gemini({ model: 'm', headers: { a: 1 } }), 'headers'],
  ])) {
    let error;
    try { make(); } catch (e) { error = e; }
    assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes(part), `${error?.code} ${error?.message}`);
  }
});

finish();
