// @ts-check
// Built-in tools and what tool code can use, through the release package in Chromium: ADK's memory
// tools over the runner's InMemoryMemoryService; a tool calling other tools by name; HTTP calls
// (`requests`, `context.requests`) against the local replay server; `loadWebPage` against this
// page's own server, its text equal to what google-adk's load_web_page extracts from the same page.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, finish, json, rejects, test } from './harness.js';

// wasm-bindgen's own `{ module_or_path }` form, as bundler guides write it.
await init({ module_or_path: new URL('/pkg/adk_wasm_bg.wasm', location.href) });
const { InMemoryRunner, LlmAgent, ScriptedModel, PreloadMemoryTool, LOAD_MEMORY, FunctionTool, ExternalResponse, StatusError, requests } = adk;

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
  assertJsonEqual(declaration.parametersJsonSchema ?? json(declaration).parameters, { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] });
  const [response] = adk.getFunctionResponses(events[1]);
  const [memory] = json(response.response).result.memories;
  assert(memory.author === 'user' && memory.content.parts[0].text === 'my cat is named Tom', JSON.stringify(memory));
  assertJsonEqual(memory.custom_metadata, {});
});

const callOf = (name, args = {}) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });

/** Runs `tool` once (the scripted model calls it) next to `others`; the function response. */
async function runTool(tool, others = [], signal) {
  const agent = new LlmAgent({ name: 'agent', model: new ScriptedModel([callOf(tool.name), 'done']), tools: [tool, ...others] });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('go'), signal })) events.push(e);
  return { response: adk.getFunctionResponses(events[1])[0].response, event: events[1] };
}

const weather = new FunctionTool({
  name: 'get_weather',
  execute: ({ city }, context) => { context.state.set('asked', city); return { city, sky: 'clear' }; },
});
const broken = new FunctionTool({ name: 'broken', execute: () => { throw Object.assign(new Error('no sky'), { code: 'FAILED_PRECONDITION' }); } });

await test('a tool calls other tools by name and gets ExternalResponses', async () => {
  const planner = new FunctionTool({
    name: 'planner',
    execute: async (args, context) => {
      const byName = await context.tools.get_weather({ city: 'Seoul' });
      const called = await context.callTool('get_weather', { city: 'Busan' });
      const failed = await context.callTool('broken');
      const missing = await context.tools.nowhere();
      let raised;
      try { missing.raiseForStatus(); } catch (e) { raised = e; }
      assert(byName instanceof ExternalResponse && raised instanceof StatusError && raised.statusCode === 404, String(raised));
      return [byName, called, failed, missing].map((r) => ({ ok: r.ok, status: r.statusCode, reason: r.reason, body: r.json() }));
    },
  });
  const { response, event } = await runTool(planner, [weather, broken]);
  assertJsonEqual(response.result, [
    { ok: true, status: 200, reason: '', body: { city: 'Seoul', sky: 'clear' } },
    { ok: true, status: 200, reason: '', body: { city: 'Busan', sky: 'clear' } },
    { ok: false, status: 412, reason: 'no sky', body: { error: 'no sky' } },
    { ok: false, status: 404, reason: 'agent `agent` has no tool `nowhere`', body: { error: 'agent `agent` has no tool `nowhere`' } },
  ]);
  assert(event.actions.stateDelta.asked === 'Busan', 'the called tool wrote state in the caller\'s event');
});

/** Registers replies on the local replay server; its base URL and a reader of what it received. */
async function peer(replies) {
  const { id, baseUrl } = await (await fetch('/replay/scenario', { method: 'POST', body: JSON.stringify({ replies }) })).json();
  return { url: `${location.origin}${baseUrl}/`, received: async () => (await fetch(`/replay/requests/${id}`)).json() };
}

await test('requests: params, JSON body, headers (a null or undefined value left out, as requests leaves out None), and an error status as a response', async () => {
  const server = await peer([
    { status: 200, contentType: 'application/json', body: '{"temp": 21}' },
    { status: 404, contentType: 'application/json', body: '{"error": "no city"}' },
  ]);
  const got = await requests.get(`${server.url}weather`, { params: { city: 'Seoul Gangnam', n: 2, unit: undefined, day: null }, headers: { 'x-api-key': 'k', 'x-none': null } });
  assert(got.ok && got.statusCode === 200 && got.reason === '' && json(got.json()).temp === 21);
  const missing = await requests.post(`${server.url}weather`, { json: { city: '부산' } });
  assert(!missing.ok && missing.statusCode === 404 && missing.reason === 'Not Found' && missing.text === '{"error": "no city"}');
  let raised;
  try { missing.raiseForStatus(); } catch (e) { raised = e; }
  assert(raised instanceof StatusError && raised.statusCode === 404 && raised.reason === 'Not Found');
  const [first, second] = await server.received();
  assert(first.method === 'GET' && first.url.endsWith('/weather?city=Seoul+Gangnam&n=2') && first.headers['x-api-key'] === 'k', first.url);
  assert(!('x-none' in first.headers), JSON.stringify(first.headers));
  assert(second.method === 'POST' && second.headers['content-type'] === 'application/json');
  assertJsonEqual(JSON.parse(second.body), { city: '부산' });
});

await test('requests: a timeout rejects with DEADLINE_EXCEEDED; json and body together, or a timeout not a number, with INVALID_ARGUMENT', async () => {
  const server = await peer([{ status: 200, contentType: 'text/plain', body: 'slow body', chunkSize: 1, delayMs: 400 }]);
  let error;
  try { await requests.get(server.url, { timeout: 0.2 }); } catch (e) { error = e; }
  assert(error?.code === 'DEADLINE_EXCEEDED', `${error?.code}: ${error?.message}`);
  error = undefined;
  try { await requests.put(server.url, { json: {}, body: 'x' }); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT', `${error?.code}: ${error?.message}`);
  // A timeout given as text is refused, not dropped (the request would wait for ever).
  error = undefined;
  // @ts-expect-error deliberately the wrong type
  try { await requests.get(server.url, { timeout: '0.2' }); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('timeout'), `${error?.code}: ${error?.message}`);
});

await test('context.requests from a tool is stopped with the run', async () => {
  const server = await peer([{ status: 200, contentType: 'text/plain', body: 'never finishing', chunkSize: 1, delayMs: 1000 }]);
  const fetcher = new FunctionTool({ name: 'fetcher', execute: async (args, context) => (await context.requests.get(server.url)).text });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  let error;
  try { await runTool(fetcher, [], controller.signal); } catch (e) { error = e; }
  assert(error?.name === 'AbortError', `${error?.name}: ${error?.message}`);
  await new Promise((r) => setTimeout(r, 200));
  const [request] = await server.received();
  assert(request.aborted, 'the HTTP request was aborted with the run');
});

await test('requireConfirmation: only true asks, a throwing predicate fails the run with its message, a bad option is refused', async () => {
  /** @param {any} requireConfirmation */
  const agentWith = (requireConfirmation) => {
    let ran = 0;
    const tool = new FunctionTool({ name: 'wipe', execute: () => ({ wiped: ++ran }), requireConfirmation });
    const model = new ScriptedModel([{ content: { role: 'model', parts: [{ functionCall: { name: 'wipe', args: {} } }] } }, 'ok']);
    return { agent: new LlmAgent({ name: 'a', model, tools: [tool] }), ran: () => ran };
  };
  const session = async (agent) => {
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    return runner;
  };
  // A truthy answer that is not `true` lets the call through, as ADK's gate does.
  const truthy = agentWith(async () => 'yes');
  const events = await run(await session(truthy.agent), 'wipe');
  assert(truthy.ran() === 1 && adk.getPendingUserInputRequests(events).length === 0, JSON.stringify(events));
  // A predicate that throws: the run rejects with its message; the tool never ran.
  const throwing = agentWith(() => { throw new Error('cannot decide'); });
  let message = '';
  try {
    await run(await session(throwing.agent), 'wipe');
  } catch (e) {
    message = e.message;
  }
  assert(message.includes('cannot decide') && throwing.ran() === 0, message);
  // Anything but a flag or a function is refused where the tool is made.
  let code = '';
  try {
    // @ts-expect-error deliberate bad input
    new FunctionTool({ name: 'x', execute: () => 1, requireConfirmation: 'always' });
  } catch (e) {
    code = e.code;
  }
  assert(code === 'INVALID_ARGUMENT', code);
});

await test('loadWebPage: ADK\'s text of a page, private hosts refused unless allowed, a CORS refusal said, a proxy fetch, a stopped signal', async () => {
  const url = `${location.origin}/tests/fixtures/web/page.html`;
  const expected = await (await fetch('/tests/fixtures/web/page.expected.txt')).text();
  assert(await adk.loadWebPage(url) === `Failed to fetch url: ${url}`, 'a 127.0.0.1 page is refused by default');
  const got = await adk.loadWebPage(url, { allowPrivateNetworkAccess: true });
  assert(got === expected, `got:\n${got}\nexpected:\n${expected}`);
  assert(await adk.loadWebPage('file:///etc/passwd', { allowPrivateNetworkAccess: true }) === 'Failed to fetch url: file:///etc/passwd');
  assert(await adk.loadWebPage(`${location.origin}/nowhere.html`, { allowPrivateNetworkAccess: true }) === `Failed to fetch url: ${location.origin}/nowhere.html`);
  // This page's server under another name: cross-origin, and it sends no CORS headers.
  const elsewhere = url.replace('127.0.0.1', 'localhost');
  const refused = await adk.loadWebPage(elsewhere, { allowPrivateNetworkAccess: true });
  assert(refused.startsWith(`Failed to fetch url: ${elsewhere}`) && refused.includes('CORS'), refused);
  // The way round CORS the docs give: a fetch that goes through a proxy (here: back to this origin).
  /** @type {string[]} */
  const proxied = [];
  /** @type {typeof fetch} */
  const proxy = (target, init) => {
    proxied.push(String(target));
    return fetch(String(target).replace('localhost', '127.0.0.1'), init);
  };
  assert(await adk.loadWebPage(elsewhere, { allowPrivateNetworkAccess: true, fetch: proxy }) === expected, 'through the proxy');
  assertJsonEqual(proxied, [elsewhere]);
  // A stopped caller's signal stops the fetch, and the call rejects rather than answering a failure.
  const stop = new AbortController();
  stop.abort();
  await rejects(adk.loadWebPage(url, { allowPrivateNetworkAccess: true, signal: stop.signal }), (e) => assert(e.name === 'AbortError', `${e.name}: ${e.message}`));
  // A connection lost in the middle of the page is a failure to fetch it, not a rejection; a page
  // not read (a 404) has its body let go, not left open.
  const server = await peer([
    { status: 200, contentType: 'text/html', body: '<p>one two three four five</p>'.repeat(100), chunkSize: 100, cutAfter: 500 },
    { status: 404, contentType: 'text/html', body: '<p>gone</p>'.repeat(20_000), chunkSize: 1000, delayMs: 20 },
  ]);
  assert(await adk.loadWebPage(`${server.url}cut`, { allowPrivateNetworkAccess: true }) === `Failed to fetch url: ${server.url}cut`);
  assert(await adk.loadWebPage(`${server.url}gone`, { allowPrivateNetworkAccess: true }) === `Failed to fetch url: ${server.url}gone`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const [, gone] = await server.received();
  assert(gone.aborted, 'the unread body was cancelled');
});

await test('LOAD_WEB_PAGE and LOAD_ARTIFACTS are declared as google-adk 2.13.0 declares them', async () => {
  const model = new ScriptedModel(['ok']);
  const agent = new LlmAgent({ name: 'a', model, tools: [adk.LOAD_WEB_PAGE, adk.LOAD_ARTIFACTS] });
  await run(await rememberingRunner(agent), 'hi');
  const declarations = json(model.requests[0]).config.tools[0].functionDeclarations;
  assertJsonEqual(declarations[0], {
    description: 'Fetches the content in the url and returns the text in it.\n\nArgs:\n    url (str): The url to browse.\n\nReturns:\n    str: The text content of the url.',
    name: 'load_web_page',
    parametersJsonSchema: { properties: { url: { title: 'Url', type: 'string' } }, required: ['url'], title: 'load_web_pageParams', type: 'object' },
  });
  assert(declarations[1].name === 'load_artifacts', JSON.stringify(declarations[1]));
});

await test('a toolset written in JS: getTools per model call in the run\'s context, toolFilter and prefix applied, a throwing one dropped', async () => {
  const seen = [];
  class PerUser extends adk.BaseToolset {
    async getTools(context) {
      seen.push(`${context.agentName}/${context.userId}/${context.sessionId}`);
      const greet = new FunctionTool({ name: 'greet', description: 'Greets.', execute: () => ({ hello: context.userId }) });
      const hidden = new FunctionTool({ name: 'hidden', description: 'Never offered.', execute: () => ({}) });
      return [greet, hidden];
    }
  }
  const model = new ScriptedModel([{ content: { role: 'model', parts: [{ functionCall: { name: 'my_greet', args: {} } }] } }, 'done']);
  const broken = { getTools: async () => { throw new Error('offline'); } };
  const agent = new LlmAgent({ name: 'host', model, tools: [new PerUser(['greet'], 'my'), broken] });
  const events = await run(await rememberingRunner(agent), 'hi');
  assertJsonEqual(json(model.requests[0]).config.tools[0].functionDeclarations.map((d) => d.name), ['my_greet']);
  assertJsonEqual(events.flatMap((e) => adk.getFunctionResponses(e)).map((r) => r.response), [{ hello: 'u' }]);
  assert(seen.length === 2 && seen.every((s) => s === 'host/u/s'), JSON.stringify(seen));
});

finish();
