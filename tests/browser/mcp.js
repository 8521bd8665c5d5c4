// @ts-check
// MCPToolset through the release package in Chromium, against two real MCP servers started by
// run.mjs: the `mcp` SDK's MCPServer 2.3, over Streamable HTTP (/mcp) and over the older HTTP+SSE
// (/sse) in turn, and the TypeScript SDK's McpServer 1.32 (Streamable HTTP). An LlmAgent over a
// scripted model lists and calls each server's tools, and what it declares to its model and the
// function responses it writes equal what google-adk 2.13.0's McpToolset produced against the same
// servers (tests/fixtures/mcp/adk-2.13.0.json and adk-2.13.0-ts.json, recorded by
// tests/mcp/record.py, which found the two transports' recordings equal).
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, finish, json, recordingFetch, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, ScriptedModel, MCPToolset } = adk;
const url = String(new URLSearchParams(location.search).get('mcp'));
const tsUrl = String(new URLSearchParams(location.search).get('mcpTs'));
const recorded = await (await fetch('/tests/fixtures/mcp/adk-2.13.0.json')).json();
const recordedTs = await (await fetch('/tests/fixtures/mcp/adk-2.13.0-ts.json')).json();
assertJsonEqual(recorded.transports, ['StreamableHTTPConnectionParams', 'SseConnectionParams']);
/** @type {import('/pkg/index.js').StreamableHTTPConnectionParams} */
const streamable = { type: 'StreamableHTTPConnectionParams', url };
/** @type {import('/pkg/index.js').SseConnectionParams} */
const sse = { type: 'SseConnectionParams', url: url.replace(/\/mcp$/, '/sse') };

const callOf = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });
const text = (t) => ({ role: 'user', parts: [{ text: t }] });

/** Runs each of `calls` in a turn of its own; the model and each turn's function response. */
async function runCalls(toolset, calls, name = 'mcp_user') {
  const model = new ScriptedModel(calls.flatMap(([tool, args]) => [callOf(tool, args), 'done']));
  const agent = new LlmAgent({ name, model, instruction: 'Use the tools.', tools: [toolset] });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const responses = [];
  for (const [tool] of calls) {
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text(`call ${tool}`) })) events.push(e);
    responses.push(events.flatMap((e) => adk.getFunctionResponses(e)).map((r) => r.response)[0]);
  }
  return { model, responses };
}

// Each server and transport: [label, params, ADK's recording there, seconds of its slow call]. The
// mcp SDK's server keeps one record of cancellations for both of its transports.
const cells = /** @type {const} */ ([
  ['Streamable HTTP', streamable, recorded, 30],
  ['HTTP+SSE', sse, recorded, 31],
  ['the TypeScript SDK', { type: 'StreamableHTTPConnectionParams', url: tsUrl }, recordedTs, 30],
]);
/** The slow calls cancelled so far on each server, by its recording. */
const cancelledOn = new Map();

for (const [cell, params, golden, seconds] of cells) {
  await test(`${cell}: the declarations and the system instruction are google-adk 2.13.0's (fenced descriptions, sorted by name)`, async () => {
    const toolset = new MCPToolset(params);
    const { model } = await runCalls(toolset, [['server_time', {}]]);
    const request = json(model.requests[0]);
    assertJsonEqual(request.config.tools[0].functionDeclarations, golden.declarations);
    assert(request.config.systemInstruction === golden.systemInstruction, JSON.stringify(request.config.systemInstruction));
    await toolset.close();
  });

  await test(`${cell}: every call's function response is google-adk 2.13.0's: JSON, text, arrays, an image, isError, a bad argument`, async () => {
    const toolset = new MCPToolset(params);
    const { responses } = await runCalls(toolset, golden.calls.map((c) => [c.tool, c.args]));
    golden.calls.forEach((call, i) => assertJsonEqual(responses[i], call.response, `${call.tool}(${JSON.stringify(call.args)})`));
    await toolset.close();
  });

  await test(`${cell}: a run stopped during a slow tool cancels the call on the server (notifications/cancelled)`, async () => {
    const toolset = new MCPToolset(params);
    const model = new ScriptedModel([callOf('slow', { seconds }), 'never']);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'waiter', model, tools: [toolset] }), appName: 'app', autoCreateSession: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    const started = Date.now();
    const error = await (async () => {
      for await (const _ of runner.runAsync({ userId: 'u', sessionId: 'slow', newMessage: text('wait'), signal: controller.signal }));
    })().then(() => null, (e) => e);
    assert(error?.name === 'AbortError' && Date.now() - started < 10_000, String(error));
    // The server's own record, asked through a second run: the slow call was cancelled there, and
    // nothing else was.
    const expected = [...(cancelledOn.get(golden) ?? []), seconds];
    cancelledOn.set(golden, expected);
    let cancelled = [];
    for (let i = 0; i < 20 && !cancelled.includes(seconds); i += 1) {
      const { responses } = await runCalls(toolset, [['cancellations', {}]], `asker${i}`);
      cancelled = json(responses[0]).structuredContent.result;
      if (!cancelled.includes(seconds)) await new Promise((r) => setTimeout(r, 100));
    }
    assertJsonEqual(cancelled, expected);
    await toolset.close();
  });
}

// What the mcp SDK's server's tools show, over each of its transports.
for (const [transport, params] of /** @type {const} */ ([['Streamable HTTP', streamable], ['HTTP+SSE', sse]])) {
  await test(`${transport}: toolFilter and prefix: only the named tools, as <prefix>_<name>, still fenced and callable`, async () => {
    const toolset = new MCPToolset(params, ['add', 'tag_all'], 'srv');
    const { model, responses } = await runCalls(toolset, [['srv_add', { a: 1, b: 2 }]]);
    const declarations = json(model.requests[0]).config.tools[0].functionDeclarations;
    assertJsonEqual(declarations.map((d) => d.name), ['srv_add', 'srv_tag_all']);
    assert(declarations[0].description.startsWith('<<<BEGIN_UNTRUSTED_TOOL_DESCRIPTION>>>'), declarations[0].description);
    assertJsonEqual(responses[0], { content: [{ type: 'text', text: '3' }], structuredContent: { result: 3 }, isError: false });
    const byPredicate = new MCPToolset(params, (tool) => tool.name.startsWith('s'));
    const { model: other } = await runCalls(byPredicate, [['slow', { seconds: 0 }]]);
    assertJsonEqual(json(other.requests[0]).config.tools[0].functionDeclarations.map((d) => d.name), ['server_time', 'slow']);
    await Promise.all([toolset.close(), byPredicate.close()]);
  });

  await test(`${transport}: a closed session is begun again on the next call; one toolset serves two agents`, async () => {
    const toolset = new MCPToolset(params);
    const first = await runCalls(toolset, [['add', { a: 20, b: 22 }]], 'one');
    await toolset.close();
    const second = await runCalls(toolset, [['add', { a: 20, b: 22 }]], 'two');
    assertJsonEqual(first.responses[0], recorded.calls[0].response);
    assertJsonEqual(second.responses[0], recorded.calls[0].response);
    await toolset.close();
  });

  await test(`${transport}: headers: the static ones and headerProvider's, per request, reach the server; a provider that throws fails the call`, async () => {
    const seen = [];
    const toolset = new MCPToolset({ ...params, headers: { 'X-Static': 'yes' } }, undefined, undefined, {
      headerProvider: (context) => {
        seen.push(context);
        return { 'X-Tenant': `tenant-of-${context.userId}` };
      },
    });
    const { responses } = await runCalls(toolset, [['echo_header', { name: 'x-tenant' }], ['echo_header', { name: 'x-static' }]]);
    assertJsonEqual(responses.map((r) => json(r).structuredContent.result), ['tenant-of-u', 'yes']);
    assert(seen.length >= 2 && seen.every((c) => c.userId === 'u' && c.sessionId === 's' && c.agentName === 'mcp_user'), JSON.stringify(seen));
    await toolset.close();
    let calls = 0;
    const failing = new MCPToolset(params, undefined, undefined, {
      headerProvider: () => {
        calls += 1;
        if (calls > 1) throw new Error('no tenant');
        return {};
      },
    });
    const error = await runCalls(failing, [['server_time', {}]], 'failing').then(() => null, (e) => e);
    assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('no tenant'), String(error?.message ?? error));
    await failing.close();
  });

  await test(`${transport}: fetch, and @google/adk's older spelling header: every request goes through the given fetch, carrying it`, async () => {
    const recorder = recordingFetch();
    const toolset = new MCPToolset({ ...params, header: { 'X-Old': 'old' }, fetch: recorder.fetch });
    const { responses } = await runCalls(toolset, [['echo_header', { name: 'x-old' }]]);
    assertJsonEqual(responses.map((r) => json(r).structuredContent.result), ['old']);
    // At least: begin the session, list the tools, call one.
    assert(recorder.seen.length >= 3 && recorder.seen.every((r) => r.headers['X-Old'] === 'old'), JSON.stringify(recorder.seen));
    await toolset.close();
  });

  await test(`${transport}: a URL that is not an MCP server: the agent runs without that toolset's tools, as ADK's does`, async () => {
    const toolset = new MCPToolset({ ...params, url: `${location.origin}/tests/browser/blank.html` });
    const model = new ScriptedModel(['no tools here']);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [toolset] }), appName: 'app', autoCreateSession: true });
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('hi') })) events.push(e);
    assert(!json(model.requests[0]).config.tools, JSON.stringify(model.requests[0]));
    assert(events.at(-1)?.content?.parts?.[0]?.text === 'no tools here');
  });
}

await test('a server restarted mid-session (its sessions gone): the next listing and call begin a new session', async () => {
  const toolset = new MCPToolset({ type: 'StreamableHTTPConnectionParams', url: tsUrl });
  const model = new ScriptedModel([callOf('add', { a: 1, b: 2 }), 'one', callOf('add', { a: 3, b: 4 }), 'two']);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [toolset] }), appName: 'app', autoCreateSession: true });
  const turn = async (t) => {
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 'restart', newMessage: text(t) })) events.push(e);
    return events.flatMap((e) => adk.getFunctionResponses(e)).map((r) => json(r.response).structuredContent);
  };
  assertJsonEqual(await turn('first'), [{ result: 3 }]);
  const restarted = await fetch(tsUrl.replace(/\/mcp$/, '/restart'), { method: 'POST' });
  assert(restarted.status === 204, `restart: ${restarted.status}`);
  assertJsonEqual(await turn('second'), [{ result: 7 }]);
  await toolset.close();
});

await test('authScheme: the run asks the person for the toolset\'s credential first (ADK\'s toolset auth); the next lists and calls with it', async () => {
  const toolset = new MCPToolset(streamable, undefined, undefined, { authScheme: { type: 'http', scheme: 'bearer' } });
  const model = new ScriptedModel([callOf('echo_header', { name: 'authorization' }), 'done']);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'keyed', model, tools: [toolset] }), appName: 'app', autoCreateSession: true });
  const run = async (message) => {
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 'auth', newMessage: message })) events.push(e);
    return events;
  };
  const asked = await run(text('who am I?'));
  const call = asked.flatMap((e) => adk.getFunctionCalls(e)).find((c) => c.name === 'adk_request_credential');
  const args = json(call?.args);
  assert(args?.functionCallId === '_adk_toolset_auth_McpToolset' && model.requests.length === 0, JSON.stringify(asked));
  assert(json(asked.at(-1)).content.role === undefined, 'the request is the framework\'s, without a role');
  const answer = { ...args.authConfig, exchangedAuthCredential: { authType: 'http', http: { scheme: 'bearer', credentials: { token: 'T-42' } } } };
  const events = await run({ role: 'user', parts: [{ functionResponse: { id: call?.id, name: 'adk_request_credential', response: answer } }] });
  const responses = events.flatMap((e) => adk.getFunctionResponses(e)).map((r) => json(r.response));
  assertJsonEqual(responses.map((r) => r.content?.[0]?.text), ['Bearer T-42']);
  await toolset.close();
});

await test('useMcpResources: load_mcp_resource lists the server\'s resources and puts the asked ones into that request, as google-adk 2.13.0 does', async () => {
  const golden = recorded.resources;
  const toolset = new MCPToolset(streamable, undefined, undefined, { useMcpResources: true });
  const model = new ScriptedModel([callOf('load_mcp_resource', golden.args), 'done']);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'mcp_user', model, instruction: 'Use the tools.', tools: [toolset] }), appName: 'app', autoCreateSession: true });
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 'res', newMessage: text('call load_mcp_resource') })) events.push(e);
  const declarations = json(model.requests[0]).config.tools[0].functionDeclarations;
  assertJsonEqual(declarations.at(-1), golden.declaration);
  assertJsonEqual(events.flatMap((e) => adk.getFunctionResponses(e)).map((r) => r.response), [golden.response]);
  const after = json(model.requests[1]);
  assert(after.config.systemInstruction === golden.systemInstruction, JSON.stringify(after.config.systemInstruction));
  // The ids ADK gives calls stay out of requests, in both.
  assertJsonEqual(after.contents, golden.contents);
  await toolset.close();
});

await test('McpInstructionProvider: the instruction is the server\'s prompt, its arguments from the state, as google-adk 2.13.0 makes it', async () => {
  const golden = recorded.prompt;
  const model = new ScriptedModel(['ok']);
  const instruction = new adk.McpInstructionProvider(streamable, 'shopkeeper');
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'keeper', model, instruction }), appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 'p', state: golden.state });
  for await (const _ of runner.runAsync({ userId: 'u', sessionId: 'p', newMessage: text('hello') }));
  assert(json(model.requests[0]).config.systemInstruction === golden.systemInstruction, JSON.stringify(model.requests[0]));
  const missing = new adk.McpInstructionProvider(streamable, 'no_such_prompt');
  const failing = new InMemoryRunner({ agent: new LlmAgent({ name: 'k', model: new ScriptedModel(['x']), instruction: missing }), appName: 'app', autoCreateSession: true });
  const error = await (async () => { for await (const _ of failing.runAsync({ userId: 'u', sessionId: 'q', newMessage: text('hi') })); })().then(() => null, (e) => e);
  assert(error?.name === 'AdkError', String(error));
});

await test('bad MCPToolset options are refused where they are given', async () => {
  const refused = (f) => { try { f(); return null; } catch (e) { return e; } };
  assert(refused(() => new MCPToolset(json({ type: 'StdioConnectionParams', serverParams: {} })))?.code === 'UNIMPLEMENTED');
  assert(refused(() => new MCPToolset(json({ type: 'StreamableHTTPConnectionParams' })))?.code === 'INVALID_ARGUMENT');
  assert(refused(() => new MCPToolset(json({ type: 'SseConnectionParams' })))?.code === 'INVALID_ARGUMENT');
  assert(refused(() => new MCPToolset(streamable, json([1])))?.code === 'INVALID_ARGUMENT');
});

finish();
