// @ts-check
// The A2A client and RemoteA2aAgent in Chromium against real servers on 127.0.0.1 (started by
// tests/browser/run.mjs: an a2a-sdk 1.3.0 peer, a google-adk 2.13.0 to_a2a() peer, and a proxy that
// cuts streams): every {peer × version × binding} cell, errors, cancel, resubscribe, a cut stream
// resumed with every event delivered once, and agents in a runner.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, collect, finish, json, recordingFetch, rejection, rejects, test } from './harness.js';

await init();
const { A2AClient, RemoteA2aAgent, InMemoryRunner, SequentialAgent } = adk;
const peers = Object.fromEntries(new URLSearchParams(location.search));
const ARTIFACT = '안녕하세요 👋 A2A 세계 🌏!';

const states = (items) => items.flatMap((i) => i.task ? [i.task.status.state] : i.statusUpdate ? [i.statusUpdate.status.state] : []);
/** The artifact text as the stream built it: chunks appended, a non-append chunk replacing. */
function artifactText(items) {
  let text = '';
  for (const { artifactUpdate: u } of items.filter((i) => i.artifactUpdate)) {
    const piece = u.artifact.parts.map((p) => p.text ?? '').join('');
    text = u.append ? text + piece : piece;
  }
  return text;
}
const message = (text, extra = {}) => ({ message: { parts: [{ text }], ...extra } });

const sdkCells = [['1.0', 'JSONRPC'], ['1.0', 'HTTP+JSON'], ['0.3', 'JSONRPC'], ['0.3', 'HTTP+JSON']];

for (const [version, binding] of sdkCells) {
  await test(`a2a-sdk peer, v${version} ${binding}: stream, send, get, errors`, async () => {
    const client = await A2AClient.fromCardUrl(peers.sdk, { protocolVersion: /** @type {'1.0' | '0.3'} */ (version), binding: /** @type {'JSONRPC' | 'HTTP+JSON'} */ (binding) });
    assert(client.protocolVersion === version && client.binding === binding, `${client.protocolVersion} ${client.binding}`);
    assert(client.card.name === 'sdk_peer');
    const items = await collect(client.sendMessageStream(message('hello')));
    assertJsonEqual(states(items), ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    assert(artifactText(items) === ARTIFACT, artifactText(items));
    const working = items.find((i) => i.statusUpdate?.status.state === 'TASK_STATE_WORKING');
    assert(working.statusUpdate.status.message.parts[0].text === 'working on it ⏳');
    const taskId = items[0].task.id;

    const task = await client.getTask(taskId);
    assert(task.id === taskId && task.status.state === 'TASK_STATE_COMPLETED');
    assert(task.artifacts[0].parts.map((p) => p.text).join('') === ARTIFACT);
    // historyLength keeps the last messages only: the whole task has more than one.
    assert(task.history.length > 1, `history ${task.history.length}`);
    const short = await client.getTask(taskId, { historyLength: 1 });
    assert(short.id === taskId && short.history.length === 1, `historyLength 1: ${short.history.length}`);
    assert(client.url === client.card.supportedInterfaces?.[0].url, `url ${client.url}`);

    const sent = json(await client.sendMessage(message('echo 바로')));
    assert(sent.task?.status.state === 'TASK_STATE_COMPLETED', JSON.stringify(sent));
    assert(sent.task.artifacts[0].parts[0].text.startsWith('echo 바로'));
    // ListTasks is 1.0's: the page of the new task's context; 0.3 has no such call.
    const listing = client.listTasks({ contextId: sent.task.contextId });
    if (version === '1.0') {
      const page = await listing;
      assert(page.tasks.length === 1 && page.tasks[0].id === sent.task.id, JSON.stringify(page));
      // The other filters reach a2a-sdk as its ListTasks reads them: artifacts only when asked for,
      // history cut, a state and a time that match or not, and pages.
      assert(page.tasks[0].artifacts === undefined, 'no artifacts unless asked for');
      const full = (await client.listTasks({ contextId: sent.task.contextId, includeArtifacts: true, historyLength: 1 })).tasks[0];
      assert(full.artifacts?.[0].parts[0].text.startsWith('echo 바로') && full.history?.length === 1, JSON.stringify(full));
      const count = async (filter) => (await client.listTasks({ contextId: sent.task.contextId, ...filter })).tasks.length;
      assertJsonEqual(await Promise.all([
        count({ status: 'TASK_STATE_COMPLETED' }), count({ status: 'TASK_STATE_FAILED' }),
        count({ statusTimestampAfter: '2000-01-01T00:00:00Z' }), count({ statusTimestampAfter: '2999-01-01T00:00:00Z' }),
      ]), [1, 0, 1, 0]);
      const first = await client.listTasks({ pageSize: 1 });
      const second = await client.listTasks({ pageSize: 1, pageToken: first.nextPageToken });
      assert(first.tasks.length === 1 && first.nextPageToken && second.tasks.length === 1 && second.tasks[0].id !== first.tasks[0].id,
        `${first.tasks.length} ${first.nextPageToken} ${second.tasks.length}`);
    } else {
      await rejects(listing, (e) => assert(e.name === 'AdkError' && e.code === 'UNIMPLEMENTED', `${e.code}: ${e.message}`));
    }

    await rejects(client.getTask('no-such-task'), (e) => {
      assert(e.name === 'AdkError' && e.code === 'NOT_FOUND' && e.rpcCode === -32001, `${e.code} ${e.rpcCode} ${e.httpStatus}: ${e.message}`);
      if (binding === 'HTTP+JSON') assert(e.httpStatus === 404, `httpStatus ${e.httpStatus}`);
    });
    const failed = await collect(client.sendMessageStream(message('fail')));
    assert(states(failed).at(-1) === 'TASK_STATE_FAILED');
  });
}

await test('a caller\'s fetch is called as fetch(url, init): the common auth wrapper keeps the SDK\'s own headers (v1.0 against a2a-sdk)', async () => {
  const seen = [];
  /** @type {typeof fetch} */
  const withAuth = (url, init) => {
    const headers = { ...json(init?.headers), Authorization: 'Bearer wrapper-token' };
    seen.push({ url: String(url), headers });
    return fetch(url, { ...init, headers });
  };
  const client = await A2AClient.fromCardUrl(peers.sdk, { protocolVersion: '1.0', binding: 'JSONRPC', fetch: withAuth });
  const sent = json(await client.sendMessage(message('echo wrapped')));
  assert(sent.task?.status.state === 'TASK_STATE_COMPLETED', JSON.stringify(sent));
  const post = seen.find((r) => r.headers['Content-Type']);
  assert(post && post.headers['A2A-Version'] === '1.0' && post.headers.Authorization === 'Bearer wrapper-token', JSON.stringify(seen));
});

await test('onRequest may change the headers in place or replace them (an object, a Headers, a Map); null leaves one out; a throwing hook leaves the request as it was', async () => {
  const recording = recordingFetch();
  /** @type {{ method: string, url: string }[]} */
  const views = [];
  /** @type {NonNullable<import('/pkg/index.js').A2AClientOptions['onRequest']>[]} */
  const hooks = [
    (request) => {
      views.push({ method: request.method, url: request.url });
      request.headers.Authorization = 'Bearer in-place';
      request.headers['X-Left-Out'] = null;
    },
    (request) => {
      request.headers = { ...request.headers, Authorization: 'Bearer replaced' };
    },
    (request) => {
      const headers = new Headers(/** @type {Record<string, string>} */ (request.headers));
      headers.set('Authorization', 'Bearer headers');
      request.headers = headers;
    },
    (request) => {
      request.headers = new Map([...Object.entries(request.headers), ['Authorization', 'Bearer map']]);
    },
    () => {
      throw new Error('hook failed');
    },
  ];
  const card = (await A2AClient.fromCardUrl(peers.sdk, { protocolVersion: '1.0', binding: 'JSONRPC' })).card;
  for (const onRequest of hooks) {
    const client = A2AClient.fromCard(card, { protocolVersion: '1.0', binding: 'JSONRPC', fetch: recording.fetch, onRequest });
    const answer = json(await client.sendMessage(message('echo hooked')));
    assert(answer.task?.status.state === 'TASK_STATE_COMPLETED', JSON.stringify(answer));
  }
  assert(views.length === 1 && views[0].method === 'POST' && views[0].url === card.supportedInterfaces?.[0].url, JSON.stringify(views));
  // Names as they were sent: a Headers hands them on in lower case.
  const sent = recording.seen.map(({ headers }) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])));
  assertJsonEqual(sent.map((h) => h.authorization ?? null), ['Bearer in-place', 'Bearer replaced', 'Bearer headers', 'Bearer map', null]);
  assert(sent.every((h) => h['a2a-version'] === '1.0' && !('x-left-out' in h)), JSON.stringify(sent));
});

await test('a2a-sdk peer: cancel a slow task, then subscribe to a running one', async () => {
  for (const [version, binding] of sdkCells) {
    const client = await A2AClient.fromCardUrl(peers.sdk, { protocolVersion: /** @type {'1.0' | '0.3'} */ (version), binding: /** @type {'JSONRPC' | 'HTTP+JSON'} */ (binding) });
    const stream = client.sendMessageStream(message('slow:300 chunks:4'));
    const first = json((await stream.next()).value);
    const taskId = first.task.id;
    const watching = client.subscribeToTask(taskId);
    const snapshot = json((await watching.next()).value);
    assert(snapshot.task?.id === taskId, `${version} ${binding}: a subscription starts with the task: ${JSON.stringify(snapshot)}`);
    const canceled = await client.cancelTask(taskId);
    assert(canceled.status.state === 'TASK_STATE_CANCELED', `${version} ${binding}: ${canceled.status.state}`);
    const rest = await collect(stream);
    assert(states(rest).at(-1) === 'TASK_STATE_CANCELED', `${version} ${binding} stream: ${states(rest)}`);
    const watched = await collect(watching);
    assert(states(watched).at(-1) === 'TASK_STATE_CANCELED', `${version} ${binding} subscriber: ${states(watched)}`);
  }
});

await test("a2a-sdk peer: an interface's tenant reaches the agent in every v1.0 request, and on 0.3 none is sent", async () => {
  for (const [version, binding] of sdkCells) {
    const cell = `${version} ${binding}`;
    const client = await A2AClient.fromCardUrl(`${peers.sdk}/acme/`, { protocolVersion: /** @type {'1.0' | '0.3'} */ (version), binding: /** @type {'JSONRPC' | 'HTTP+JSON'} */ (binding) });
    assert(client.card.supportedInterfaces?.every((i) => i.tenant === 'acme'), JSON.stringify(client.card.supportedInterfaces));
    const expected = version === '1.0' ? 'tenant:acme' : 'tenant:';
    const items = await collect(client.sendMessageStream(message('tenant')));
    assert(artifactText(items).startsWith(expected), `${cell} stream: ${artifactText(items)}`);
    const sent = json(await client.sendMessage(message('tenant')));
    assert(sent.task?.artifacts[0].parts[0].text === expected, `${cell} send: ${JSON.stringify(sent)}`);
    // The task's other calls go to the same tenant (an HTTP+JSON path under /acme/).
    const task = await client.getTask(sent.task.id);
    assert(task.id === sent.task.id && task.status.state === 'TASK_STATE_COMPLETED', `${cell} get: ${JSON.stringify(task)}`);
    if (version === '1.0') {
      const page = await client.listTasks({ contextId: sent.task.contextId });
      assert(page.tasks.length === 1 && page.tasks[0].id === sent.task.id, `${cell} list: ${JSON.stringify(page)}`);
    }
  }
});

await test('google-adk to_a2a peer, v1.0 and v0.3 JSON-RPC', async () => {
  const v1 = await A2AClient.fromCardUrl(peers.adk);
  assert(v1.protocolVersion === '1.0' && v1.binding === 'JSONRPC');
  // to_a2a serves 0.3 on the same URL but its card does not say so: describe it the 0.3 way.
  const v03 = A2AClient.fromCard({ ...v1.card, url: peers.adk, protocolVersion: '0.3', preferredTransport: 'JSONRPC', supportedInterfaces: undefined });
  assert(v03.protocolVersion === '0.3');
  for (const client of [v1, v03]) {
    const items = await collect(client.sendMessageStream(message('ping')));
    assert(states(items).at(-1) === 'TASK_STATE_COMPLETED', `${client.protocolVersion}: ${states(items)}`);
    const text = artifactText(items);
    assert(text.includes('you said: ping'), `${client.protocolVersion}: ${text}`);
  }
});

await test('a stream cut at chosen offsets is resumed: every event once, and a resumed marker', async () => {
  const direct = await A2AClient.fromCardUrl(peers.sdk);
  const whole = await collect(direct.sendMessageStream(message('slow:40 chunks:6')));
  const cutAt = async (cut) => {
    await fetch(`${peers.proxy}/__faults`, { method: 'DELETE' });
    await fetch(`${peers.proxy}/__faults`, { method: 'POST', body: JSON.stringify({ cuts: [cut] }) });
    return A2AClient.fromCardUrl(peers.proxy, { resume: { backoffBaseMs: 50 } });
  };
  // Cut inside the first event, the task is not known yet: nothing to re-attach to, a clear error.
  await rejects(collect((await cutAt(150)).sendMessageStream(message('slow:40 chunks:6'))), (e) => {
    assert(e.code === 'UNAVAILABLE' && e.message.includes('cannot be resumed'), `${e.code}: ${e.message}`);
  });
  // Cuts after the task is named: inside the working status, inside an artifact chunk, near the end.
  for (const cut of [700, 1100, 1700]) {
    const client = await cutAt(cut);
    const items = await collect(client.sendMessageStream(message('slow:40 chunks:6')));
    const resumed = items.filter((i) => i.resumed);
    assert(resumed.length === 1 && resumed[0].resumed.attempt === 1, `cut ${cut}: ${JSON.stringify(resumed)}`);
    assert(artifactText(items) === artifactText(whole), `cut ${cut}: ${artifactText(items)} vs ${artifactText(whole)}`);
    const seen = states(items);
    assert(new Set(seen).size === seen.length, `cut ${cut}: a state twice: ${seen}`);
    assert(seen.at(-1) === 'TASK_STATE_COMPLETED', `cut ${cut}: ${seen}`);
  }
});

await test('a peer whose every resubscription drops at once gets maxRetries attempts, then UNAVAILABLE', async () => {
  await fetch(`${peers.proxy}/__faults`, { method: 'DELETE' });
  await fetch(`${peers.proxy}/__faults`, { method: 'POST', body: JSON.stringify({ cuts: [700, 0, 0, 0, 0, 0, 0, 0] }) });
  const client = await A2AClient.fromCardUrl(peers.proxy, { resume: { backoffBaseMs: 10 } });
  await rejects(collect(client.sendMessageStream(message('slow:40 chunks:6'))), (e) => {
    assert(e.code === 'UNAVAILABLE' && e.message.includes('after 3 attempts in a row without progress'), `${e.code}: ${e.message}`);
  });
  const { done, pending } = await (await fetch(`${peers.proxy}/__faults`)).json();
  assert(done.length === 4 && pending.length === 4, `the stream and 3 resubscriptions: ${JSON.stringify(done)}`);
});

await test('aborting a stream aborts the request; a subscription\'s signal stops it too', async () => {
  await fetch(`${peers.proxy}/__faults`, { method: 'DELETE' });
  const client = await A2AClient.fromCardUrl(peers.proxy);
  const controller = new AbortController();
  const stream = client.sendMessageStream(message('slow:2000 chunks:3'), { signal: controller.signal });
  await stream.next();
  controller.abort();
  await rejects(stream.next(), (e) => assert(e.name === 'AbortError', e.name));
  // The proxy in front of the peer saw the connection closed before the stream's end.
  let hangups = [];
  for (let i = 0; i < 20 && hangups.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    ({ hangups } = await (await fetch(`${peers.proxy}/__faults`)).json());
  }
  assert(hangups.length === 1, `hangups: ${JSON.stringify(hangups)}`);
  // subscribeToTask's signal stops a subscription the same way (the task goes on, here stopped after).
  const direct = await A2AClient.fromCardUrl(peers.sdk);
  const running = direct.sendMessageStream(message('slow:2000 chunks:3'));
  const taskId = json((await running.next()).value).task.id;
  const watcher = new AbortController();
  const watching = direct.subscribeToTask(taskId, { signal: watcher.signal });
  await watching.next();
  watcher.abort();
  await rejects(watching.next(), (e) => assert(e.name === 'AbortError', e.name));
  running.cancel();
  await direct.cancelTask(taskId);
});

await test('RemoteA2aAgent in a runner: whole artifact, task ids, the conversation continued', async () => {
  for (const url of [peers.sdk, peers.adk]) {
    const agent = new RemoteA2aAgent({ name: 'remote', agentCardUrl: url });
    const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
    const run = async (text) => {
      const events = [];
      for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] }, runConfig: { streamingMode: 'sse' } })) events.push(e);
      return events;
    };
    const first = await run('hello');
    const stored = first.filter((e) => !e.partial && e.content && !e.content.parts.every((p) => p.thought));
    const texts = stored.map((e) => e.content.parts.map((p) => p.text).join(''));
    if (url === peers.sdk) {
      // The artifact's last chunk ends an event holding all of it; the completion message follows.
      assertJsonEqual(texts, [ARTIFACT, 'done ✅']);
      assert(first.some((e) => e.partial), 'artifact chunks as partial events');
    } else {
      assert(texts.some((t) => t.includes('you said: hello')), JSON.stringify(texts));
    }
    const meta = first.filter((e) => !e.partial).at(-1).customMetadata;
    assert(meta['a2a:task_id'] && meta['a2a:context_id'] && meta['a2a:task_state'] === 'TASK_STATE_COMPLETED', JSON.stringify(meta));
    const second = await run('again');
    const contexts = new Set([...first, ...second].map((e) => e.customMetadata?.['a2a:context_id']).filter(Boolean));
    assert(contexts.size === 1, `one remote conversation: ${[...contexts]}`);
  }
});

await test('RemoteA2aAgent with agentCardUrl sends with its client options: headers, fetch and onRequest, for the card and the task', async () => {
  const { fetch: recording, seen } = recordingFetch();
  const agent = new RemoteA2aAgent({
    name: 'remote',
    agentCardUrl: peers.sdk,
    protocolVersion: '1.0',
    headers: { 'X-Caller': 'page' },
    fetch: recording,
    onRequest: (request) => { request.headers.Authorization = 'Bearer remote'; },
  });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const events = await collect(runner.runAsync({ userId: 'u', sessionId: 'options', newMessage: { role: 'user', parts: [{ text: 'hello' }] } }));
  assert(events.at(-1)?.customMetadata?.['a2a:task_state'] === 'TASK_STATE_COMPLETED', JSON.stringify(events.at(-1)));
  const card = seen.find((r) => r.method === 'GET');
  const post = seen.find((r) => r.method === 'POST');
  assert(card && card.headers['X-Caller'] === 'page', JSON.stringify(seen));
  assert(post && post.headers['X-Caller'] === 'page' && post.headers.Authorization === 'Bearer remote' && post.headers['A2A-Version'] === '1.0', JSON.stringify(seen));
});

await test('RemoteA2aAgent: a task that needs input pauses the run on a question; the answer continues that task', async () => {
  const { getPendingUserInputRequests, createUserInputResponse } = adk;
  const agent = new RemoteA2aAgent({ name: 'remote', agentCardUrl: peers.sdk });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const run = async (newMessage) => {
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 'asks', newMessage })) events.push(e);
    return events;
  };
  const first = await run({ role: 'user', parts: [{ text: 'input please' }] });
  const last = first.at(-1);
  assert(last.customMetadata['a2a:task_state'] === 'TASK_STATE_INPUT_REQUIRED', JSON.stringify(last));
  // As ADK 2.x: the peer's question becomes a long-running stand-in call.
  const [call] = adk.getFunctionCalls(last);
  assert(call?.name === 'mock_function_call_for_required_user_input' && last.longRunningToolIds?.includes(String(call.id)), JSON.stringify(last));
  assertJsonEqual(call.args, { input_required: 'need more input ✍️: reply on this task' });
  const [request, ...more] = getPendingUserInputRequests(first);
  assert(request?.kind === 'input' && request.message === 'need more input ✍️: reply on this task' && !more.length, JSON.stringify(request));
  const second = await run(createUserInputResponse(request, 'thanks'));
  const end = second.at(-1);
  assert(end.customMetadata['a2a:task_state'] === 'TASK_STATE_COMPLETED', JSON.stringify(end));
  assert(end.customMetadata['a2a:task_id'] === last.customMetadata['a2a:task_id'], 'the same remote task went on');
  assert(end.invocationId === last.invocationId, 'the answer continued the invocation that asked');
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'asks' });
  assert(getPendingUserInputRequests(session.events).length === 0, 'nothing pending');
});

await test('RemoteA2aAgent: a task that needs the person to sign in pauses on a credential request; their reply continues it', async () => {
  const { getPendingUserInputRequests, createUserInputResponse } = adk;
  const agent = new RemoteA2aAgent({ name: 'remote', agentCardUrl: peers.sdk });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const run = async (newMessage) => {
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 'signs-in', newMessage })) events.push(e);
    return events;
  };
  const first = await run({ role: 'user', parts: [{ text: 'auth please' }] });
  const last = first.at(-1);
  assert(last.customMetadata['a2a:task_state'] === 'TASK_STATE_AUTH_REQUIRED', JSON.stringify(last));
  const [request, ...more] = getPendingUserInputRequests(first);
  assert(request?.kind === 'credential' && request.functionCallName === 'mock_function_call_for_required_user_auth' && !more.length, JSON.stringify(request));
  assert(request.message === 'sign in at the bank 🔐, then reply on this task' && request.authConfig === undefined, JSON.stringify(request));
  const second = await run(createUserInputResponse(request, 'signed in now'));
  const end = second.at(-1);
  assert(end.customMetadata['a2a:task_state'] === 'TASK_STATE_COMPLETED', JSON.stringify(end));
  assert(end.customMetadata['a2a:task_id'] === last.customMetadata['a2a:task_id'], 'the same remote task went on');
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 'signs-in' });
  assert(getPendingUserInputRequests(session.events).length === 0, 'nothing pending');
});

await test('RemoteA2aAgent: a failed task is an error event; an unreachable agent too; the runner goes on', async () => {
  const client = await A2AClient.fromCardUrl(peers.sdk);
  const agent = new SequentialAgent({ name: 'root', subAgents: [new RemoteA2aAgent({ name: 'remote', client })] });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'fail' }] } })) events.push(e);
  const error = events.find((e) => e.errorCode);
  assert(error?.errorCode === 'A2A_TASK_FAILED' && error.errorMessage.includes('failed on purpose'), JSON.stringify(error));

  const nowhere = new RemoteA2aAgent({ name: 'nowhere', agentCardUrl: 'http://127.0.0.1:59999/' });
  const lonely = new InMemoryRunner({ agent: nowhere, appName: 'app', autoCreateSession: true });
  const out = [];
  for await (const e of lonely.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) out.push(e);
  assert(out.length === 1 && out[0].errorCode === 'UNAVAILABLE', JSON.stringify(out));
});

await test('a card read over the network may only aim requests at its own origin, as ADK 2.13 (the card passed in directly is the caller\'s choice)', async () => {
  // The a2a-sdk peer's card names its interfaces on 127.0.0.1; read through localhost, they are on another origin.
  const other = peers.sdk.replace('//127.0.0.1:', '//localhost:');
  assert(other !== peers.sdk, other);
  const { fetch: recording, seen } = recordingFetch();
  await rejects(A2AClient.fromCardUrl(other, { fetch: recording, headers: { Authorization: 'Bearer secret' } }), (e) =>
    assert(e.code === 'INVALID_ARGUMENT' && e.message.includes('another origin') && e.message.includes(other), e.message));
  assertJsonEqual(seen.map((r) => r.method), ['GET']);

  const agent = new RemoteA2aAgent({ name: 'remote', agentCardUrl: other, fetch: recording });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const out = await collect(runner.runAsync({ userId: 'u', sessionId: 'origin', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }));
  assert(out.length === 1 && out[0].errorCode === 'INVALID_ARGUMENT' && out[0].errorMessage.includes('another origin'), JSON.stringify(out));
  assertJsonEqual(seen.map((r) => r.method), ['GET', 'GET']);

  // A URL relative to the page is read against it, as fetch reads it (this page's server has no agent).
  await rejects(A2AClient.fromCardUrl('/no-agent/'), (e) =>
    assert(e.httpStatus === 404 && e.message.includes(`${location.origin}/no-agent/.well-known/agent-card.json`), `${e.code}: ${e.message}`));
  // Plain http is for loopback hosts only: refused before anything is sent.
  await rejects(A2AClient.fromCardUrl('http://192.0.2.1:8000', { fetch: recording }), (e) => assert(e.code === 'INVALID_ARGUMENT' && e.message.includes('https'), e.message));
  assert(seen.length === 2, JSON.stringify(seen));

  const card = (await A2AClient.fromCardUrl(peers.sdk)).card;
  const direct = A2AClient.fromCard(card);
  assert(direct.url.startsWith(peers.sdk), direct.url);
});

await test('what arrived in one batch is not handed out after the signal or return() stopped the stream', async () => {
  const client = await A2AClient.fromCardUrl(peers.sdk);
  const all = (await collect(client.sendMessageStream(message('hello')))).length;
  assert(all >= 4, `${all} items`);
  for (const stop of ['abort', 'return']) {
    const controller = new AbortController();
    const stream = client.sendMessageStream(message('hello'), { signal: controller.signal });
    assert(!(await stream.next()).done);
    // The rest arrives meanwhile: the next pull takes it all in one batch.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert(!(await stream.next()).done);
    if (stop === 'abort') {
      controller.abort('stopped by the page');
      assert((await rejection(stream.next())) === 'stopped by the page', 'the signal\'s reason, not the next buffered item');
    } else {
      await stream.return();
      assertJsonEqual(await stream.next(), { value: undefined, done: true });
    }
  }
});

await test('bad options are typed errors', async () => {
  // @ts-expect-error deliberately the wrong type
  await rejects(A2AClient.fromCardUrl(peers.sdk, { binding: 'GRPC-WEB' }), (e) => assert(e.code === 'INVALID_ARGUMENT' && e.message.includes('binding'), e.message));
  // A count given as text is refused, not left at its default without a word.
  // @ts-expect-error deliberately the wrong type
  await rejects(A2AClient.fromCardUrl(peers.sdk, { resume: { maxRetries: '0' } }), (e) => assert(e.code === 'INVALID_ARGUMENT' && e.message.includes('resume'), e.message));
  await rejects(A2AClient.fromCardUrl(`${peers.sdk}/nope/`), (e) => assert(e.httpStatus === 404, `${e.code} ${e.httpStatus}`));
  let error;
  // @ts-expect-error (no agentCardUrl nor client)
  try { new RemoteA2aAgent({ name: 'r' }); } catch (e) { error = e; }
  assert(error?.code === 'INVALID_ARGUMENT' && error.message.includes('agentCardUrl'), error?.message);
});

finish();
