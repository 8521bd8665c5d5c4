// @ts-check
// AdkServerClient in Chromium, through the release package, against real `adk api_server`s
// (google-adk 2.13.0 and 1.39.1, started by tests/browser/run.mjs over tests/adk_server/agents):
// every method on both versions, streamed runs read back from the server's own session, a tool
// call, abort (the server stops), the typed errors, and a page origin the server does not allow.
// run.mjs loads it through the full entry, through `adk-wasm/server` (`?entry=server`), and from
// http://localhost, which the servers do not allow.
import { assert, assertJsonEqual, assertThrowsAdk, collect, finish, json, recordingFetch, rejects, test } from './harness.js';

const params = new URLSearchParams(location.search);
const adk = await import(params.get('entry') === 'server' ? '/pkg/server/index.js' : '/pkg/index.js');
await adk.default();
const { AdkServerClient, Transcript, parseEvent } = adk;
const servers = [['2.13.0', params.get('adk2')], ['1.39.1', params.get('adk1')]];
const user = (text) => ({ role: 'user', parts: [{ text }] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const isAdkError = (e, code, status) =>
  assert(e.name === 'AdkError' && e.code === code && e.httpStatus === status, `${e.name} ${e.code} ${e.httpStatus}: ${e.message}`);
/** Events as stored: each streamed event once (the server sends an artifact delta as a frame of its own). */
const stored = (events) => events.filter((e, i) => !e.partial && events.findIndex((o) => o.id === e.id && !o.partial) === i);
const texts = (e) => (e.content?.parts ?? []).map((p) => p.text ?? '').join('');

if (location.hostname === 'localhost') {
  // The same servers answer this page's requests from http://127.0.0.1 (the other runs of it); from
  // here the browser sees only a refused CORS check, which is what a page must explain.
  await test('a page origin the server does not allow: UNAVAILABLE naming --allow_origins', async () => {
    for (const [version, baseUrl] of servers) {
      const client = new AdkServerClient({ baseUrl });
      const e = await rejects(client.listApps(), (e) => assert(e.code === 'UNAVAILABLE', `${version}: ${e.code} ${e.message}`));
      assert(e.message.includes(`--allow_origins=${location.origin}`), `${version}: ${e.message}`);
      assert(e.message.includes(baseUrl), `${version}: ${e.message}`);
      // A POST needs a preflight, which the server refuses just the same.
      const run = client.runSse({ appName: 'story', userId: 'u', sessionId: 's', newMessage: user('hi') });
      await rejects(collect(run), (e) => assert(e.code === 'UNAVAILABLE' && e.message.includes('--allow_origins'), e.message));
    }
  });
} else {
  for (const [version, baseUrl] of servers) {
    const client = new AdkServerClient({ baseUrl: `${baseUrl}/`, headers: { 'X-Test-Client': 'adk-wasm' } });
    // The page runs more than once against the same servers: each run is a user of its own.
    const userId = `user-${version}-${crypto.randomUUID().slice(0, 8)}`;

    await test(`${version}: apps, app info`, async () => {
      assert(client.baseUrl === baseUrl, client.baseUrl);
      // The options' headers go with each request, through the options' fetch when one is given.
      const { fetch: recording, seen } = recordingFetch();
      const wrapped = new AdkServerClient({ baseUrl, headers: { 'X-Test-Client': 'adk-wasm' }, fetch: recording });
      assert((await wrapped.listApps()).includes('weather') && seen.length === 1 && seen[0].headers['X-Test-Client'] === 'adk-wasm', JSON.stringify(seen));
      assertJsonEqual(await client.listApps(), ['asking', 'failing', 'slow', 'story', 'weather']);
      const info = await client.getAppInfo('weather');
      assert(info.name === 'weather' && info.rootAgentName === 'weather' && info.language === 'python', JSON.stringify(info));
      // A root that is not an LlmAgent: the server's own 400.
      await rejects(client.getAppInfo('story'), (e) => isAdkError(e, 'INVALID_ARGUMENT', 400));
    });

    await test(`${version}: create, get, list, update, delete sessions`, async () => {
      const created = await client.createSession({ appName: 'weather', userId, sessionId: 'sé ssion #1?', state: { theme: 'dark', 'user:name': 'Ada' } });
      assert(created.id === 'sé ssion #1?' && created.appName === 'weather' && created.userId === userId, JSON.stringify(created));
      assertJsonEqual(created.state, { theme: 'dark', 'user:name': 'Ada' });
      const picked = await client.createSession({ appName: 'weather', userId });
      assert(/^[0-9a-f-]{36}$/.test(picked.id), picked.id);
      await rejects(client.createSession({ appName: 'weather', userId, sessionId: 'sé ssion #1?' }), (e) => isAdkError(e, 'ALREADY_EXISTS', 409));

      const got = await client.getSession({ appName: 'weather', userId, sessionId: 'sé ssion #1?' });
      assert(got.id === created.id && got.events.length === 0, JSON.stringify(got));
      const listed = await client.listSessions({ appName: 'weather', userId });
      assertJsonEqual(listed.map((s) => s.id).sort(), [created.id, picked.id].sort());

      const updated = await client.updateSession({ appName: 'weather', userId, sessionId: created.id, stateDelta: { theme: 'light' } });
      assert(updated.state.theme === 'light', JSON.stringify(updated.state));
      const after = await client.getSession({ appName: 'weather', userId, sessionId: created.id });
      assert(after.state.theme === 'light' && after.events.length === 1 && after.events[0].author === 'user', JSON.stringify(after));

      assert((await client.deleteSession({ appName: 'weather', userId, sessionId: created.id })) === undefined);
      await rejects(client.getSession({ appName: 'weather', userId, sessionId: created.id }), (e) => {
        isAdkError(e, 'NOT_FOUND', 404);
        assert(e.message === 'getSession: Session not found', e.message);
      });
      await client.deleteSession({ appName: 'weather', userId, sessionId: picked.id });
    });

    for (const streaming of [false, true]) {
      await test(`${version}: runSse with a tool call, streaming ${streaming}, read back from the server`, async () => {
        const session = await client.createSession({ appName: 'weather', userId });
        const key = { appName: 'weather', userId, sessionId: session.id };
        const events = await collect(client.runSse({ ...key, newMessage: user('Seoul'), streaming }));
        const call = events.find((e) => e.content?.parts?.some((p) => p.functionCall));
        const answer = events.find((e) => e.content?.parts?.some((p) => p.functionResponse));
        assert(call?.content.parts[0].functionCall.name === 'get_weather', JSON.stringify(events));
        assertJsonEqual(call.content.parts[0].functionCall.args, { city: 'Seoul' });
        assert(answer.content.parts[0].functionResponse.id === call.content.parts[0].functionCall.id);
        assert(adk.getFunctionCalls(call).length === 1 && adk.getFunctionResponses(answer).length === 1);
        const partials = events.filter((e) => e.partial);
        assert(streaming ? partials.length === 3 : partials.length === 0, `${partials.length} partial events`);
        const last = events.at(-1);
        assert(adk.isFinalResponse(last) && texts(last).includes('21'), JSON.stringify(last));
        if (streaming) assert(partials.map(texts).join('') === texts(last), 'the partial chunks add up to the final text');
        // The same objects parseEvent gives.
        for (const e of events) assertJsonEqual(parseEvent(e), e);

        // The server's own session: the user's message, then every event streamed, same ids, same content.
        const back = await client.getSession(key);
        assert(back.events[0].author === 'user' && texts(back.events[0]) === 'Seoul', JSON.stringify(back.events[0]));
        assertJsonEqual(back.events.slice(1), stored(events));

        // A transcript of the stream and one of the stored session end the same.
        const live = new Transcript();
        for (const e of events) live.add(e);
        const replay = new Transcript();
        for (const e of back.events.slice(1)) replay.add(e);
        assertJsonEqual(live.items, replay.items);
        assert(live.items.some((i) => i.kind === 'toolCall' && i.name === 'get_weather'));
        assert(live.items.some((i) => i.kind === 'toolResult'));
        assert(live.items.at(-1).kind === 'message' && !live.items.at(-1).partial);
        live.free();
        replay.free();
      });
    }

    await test(`${version}: the server's agent asks: a confirmation and a choice, answered through the helpers`, async () => {
      const { getPendingUserInputRequests, createUserInputResponse } = adk;
      const session = await client.createSession({ appName: 'asking', userId });
      const key = { appName: 'asking', userId, sessionId: session.id };
      const first = await collect(client.runSse({ ...key, newMessage: user('Send 500 to Bob.') }));
      const [request, ...more] = getPendingUserInputRequests(first);
      assert(request && more.length === 0, JSON.stringify(first));
      assert(request.kind === 'confirmation' && request.functionCallName === 'adk_request_confirmation', JSON.stringify(request));
      assert(request.toolName === 'transfer_money' && request.author === 'asking', JSON.stringify(request));
      assertJsonEqual(request.toolArgs, { to: 'Bob', amount: 500 });
      assert(request.message?.startsWith('Please approve or reject the tool call transfer_money()'), request.message);
      // Nothing was sent yet: the tool answered that it waits.
      assert(!first.some((e) => adk.getFunctionResponses(e).some((r) => r.response?.status === 'sent')));

      const approved = await collect(client.runSse({ ...key, newMessage: createUserInputResponse(request, { confirmed: true }) }));
      const sent = approved.flatMap((e) => adk.getFunctionResponses(e)).find((r) => r.name === 'transfer_money');
      assertJsonEqual(sent?.response, { status: 'sent', to: 'Bob', amount: 500 });
      assert(texts(approved.at(-1)) === 'Done: {"amount": 500, "status": "sent", "to": "Bob"}', texts(approved.at(-1)));
      // The server's session: the answer stored as the person's, and nothing pending any more.
      const back = await client.getSession(key);
      assert(getPendingUserInputRequests(back.events).length === 0, JSON.stringify(back.events));
      const answer = back.events.find((e) => e.author === 'user' && adk.getFunctionResponses(e).length);
      assertJsonEqual(adk.getFunctionResponses(answer)[0], { id: request.interruptId, name: 'adk_request_confirmation', response: { confirmed: true } });

      const asked = await collect(client.runSse({ ...key, newMessage: user('Pick a colour.') }));
      const [choice] = getPendingUserInputRequests(asked);
      assert(choice?.kind === 'choice', JSON.stringify(asked));
      assertJsonEqual(choice.options, ['red', 'blue']);
      const picked = await collect(client.runSse({ ...key, newMessage: createUserInputResponse(choice, 'blue') }));
      assert(texts(picked.at(-1)) === 'Done: {"result": "blue"}', texts(picked.at(-1)));

      const locked = await collect(client.runSse({ ...key, newMessage: user('Read my mail.') }));
      const [credential] = getPendingUserInputRequests(locked);
      assert(credential?.kind === 'credential' && credential.authConfig?.authScheme.type === 'apiKey', JSON.stringify(locked));
      // The key adk-wasm computes is the server's: the same credential is found on both sides.
      assert(/^adk_apiKey_[0-9a-f]{16}_apiKey_[0-9a-f]{16}$/.test(String(credential.authConfig?.credentialKey)), JSON.stringify(credential));
      const keyGiven = createUserInputResponse(credential, { authType: 'apiKey', apiKey: 'secret-123' });
      const read = await collect(client.runSse({ ...key, newMessage: keyGiven }));
      assert(texts(read.at(-1)) === 'Done: {"folder": "inbox", "key_ends": "123", "unread": 2}', texts(read.at(-1)));
      // The key is in the person's answer only (as ADK stores it), not in the session's state.
      const after = await client.getSession(key);
      assert(!JSON.stringify(after.state).includes('secret-123'), JSON.stringify(after.state));
    });

    await test(`${version}: the server's agent asks for an OAuth2 sign-in: signIn answers it, the server exchanges the code`, async () => {
      const { getPendingUserInputRequests, signIn } = adk;
      const session = await client.createSession({ appName: 'asking', userId });
      const key = { appName: 'asking', userId, sessionId: session.id };
      const asked = await collect(client.runSse({ ...key, newMessage: user('Who am I?') }));
      const [request] = getPendingUserInputRequests(asked);
      const oauth2 = request?.authConfig?.exchangedAuthCredential?.oauth2;
      assert(request?.kind === 'credential' && oauth2?.authUri?.startsWith(`${params.get('oidc')}/auth?`), JSON.stringify(asked));
      // ADK built the URL (authlib): for 2.x's public client with PKCE and no secret in sight; 1.x
      // needs a confidential client, and sends the page its secret in the request (2.x stopped that).
      const pkce = new URL(oauth2.authUri).searchParams.get('code_challenge_method');
      const v1 = version.startsWith('1.');
      assert(v1 ? pkce === null && oauth2.clientSecret === 'adk-server-secret' : pkce === 'S256' && !('clientSecret' in oauth2), JSON.stringify(oauth2));
      // The scheme's scopes are data: `offline_access` is asked for and answered as it is.
      const scopes = (config) => Object.keys(config.authScheme.flows.authorizationCode.scopes);
      assertJsonEqual(scopes(request.authConfig), ['openid', 'profile', 'offline_access']);
      const answer = await signIn(request);
      assertJsonEqual(scopes(json(answer.parts?.[0].functionResponse?.response)), ['openid', 'profile', 'offline_access']);
      const signedIn = await collect(client.runSse({ ...key, newMessage: answer }));
      assert(texts(signedIn.at(-1)) === 'Done: {"name": "Alice"}', texts(signedIn.at(-1)));
      const back = await client.getSession(key);
      assert(getPendingUserInputRequests(back.events).length === 0, JSON.stringify(back.events));
    });

    await test(`${version}: functionCallEventId reaches the server: it streams an event with an artifact delta whole, not split`, async () => {
      const session = await client.createSession({ appName: 'story', userId });
      const key = { appName: 'story', userId, sessionId: session.id };
      // adk-web sends the id of the event whose call a message answers; the server then does not split.
      const whole = await collect(client.runSse({ ...key, newMessage: user('tell me'), functionCallEventId: 'answered-call' }));
      const split = await collect(client.runSse({ ...key, newMessage: user('again') }));
      const withDelta = (events, version) => events.filter((e) => e.actions.artifactDelta?.['story.txt'] === version);
      assert(withDelta(whole, 0).length === 1 && withDelta(whole, 0)[0].content?.parts?.length, JSON.stringify(whole));
      assert(withDelta(split, 1).length === 1 && !withDelta(split, 1)[0].content, JSON.stringify(split));
      assert(whole.length === split.length - 1, `${whole.length} events whole, ${split.length} split`);
    });

    await test(`${version}: createSession's options and a run's serviceTier and customMetadata reach the server`, async () => {
      const options = { ttl_seconds: 60 };
      if (version === '2.13.0') {
        // 2.13 hands the options to its session service; the in-memory one takes none and says so.
        await rejects(client.createSession({ appName: 'story', userId, options }), (e) => {
          isAdkError(e, 'INVALID_ARGUMENT', 400);
          assert(e.message.includes('Session options are not supported'), e.message);
        });
      } else {
        assert((await client.createSession({ appName: 'story', userId, options })).id, '1.39.1 ignores options');
      }
      const session = await client.createSession({ appName: 'story', userId });
      const key = { appName: 'story', userId, sessionId: session.id };
      const request = { ...key, newMessage: user('tell me'), serviceTier: 'flex', customMetadata: { from: 'page' } };
      for (const events of [await collect(client.runSse(request)), await client.run(request)]) {
        const told = events.map(texts).filter((t) => t.startsWith('run config: '));
        assertJsonEqual(told, version === '2.13.0' ? ['run config: {"custom_metadata": {"from": "page"}, "service_tier": "flex"}'] : []);
      }
    });

    await test(`${version}: run (all events at the end), state and artifact deltas, artifacts`, async () => {
      const session = await client.createSession({ appName: 'story', userId });
      const key = { appName: 'story', userId, sessionId: session.id };
      const first = await client.run({ ...key, newMessage: user('tell me') });
      assert(Array.isArray(first) && first.every((e) => e.author === 'story'), JSON.stringify(first));
      assert(first.some((e) => e.actions.stateDelta['user:reader'] === 'ada'), 'a state delta');
      assert(first.some((e) => e.actions.artifactDelta['story.txt'] === 0), 'an artifact delta');
      assert(texts(first.at(-1)) === '끝! 안녕히 가세요 👋🌏 (The end.)', texts(first.at(-1)));
      // The second run streams; the server sends an event with content and an artifact delta as two frames.
      const second = await collect(client.runSse({ ...key, newMessage: user('again') }));
      const delta = second.filter((e) => e.actions.artifactDelta['story.txt'] === 1);
      assert(delta.length === 1, JSON.stringify(second));

      assertJsonEqual(await client.listArtifactNames(key), ['story.txt']);
      assertJsonEqual(await client.listArtifactVersions({ ...key, filename: 'story.txt' }), [0, 1]);
      const latest = await client.loadArtifact({ ...key, filename: 'story.txt' });
      const v0 = await client.loadArtifact({ ...key, filename: 'story.txt', version: 0 });
      const text = (part) => new TextDecoder().decode(Uint8Array.from(atob(part.inlineData.data.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));
      assert(latest.inlineData.mimeType === 'text/plain' && text(latest).startsWith('Chapter 2'), JSON.stringify(latest));
      assert(text(v0).startsWith('Chapter 1') && text(v0).includes('날씨가 좋았다 ☀️'), text(v0));
      assert((await client.loadArtifact({ ...key, filename: 'story.txt', version: 9 })) === null);
      assert((await client.loadArtifact({ ...key, filename: 'none.txt' })) === null);

      const back = await client.getSession(key);
      assert(back.state['user:reader'] === 'ada' && back.state.story_runs === 2, JSON.stringify(back.state));

      // A file the user attaches, then removes.
      const upload = { ...key, filename: 'notes.txt', artifact: adk.Part.fromInlineData(new TextEncoder().encode('메모 ✍️'), 'text/plain'), customMetadata: { from: 'upload' } };
      const saved = await client.saveArtifact(upload);
      assert(saved.version === 0 && saved.mimeType === 'text/plain', JSON.stringify(saved));
      assert(text(await client.loadArtifact({ ...key, filename: 'notes.txt' })) === '메모 ✍️');
      assertJsonEqual(await client.listArtifactNames(key), ['notes.txt', 'story.txt']);
      assert((await client.deleteArtifact({ ...key, filename: 'notes.txt' })) === undefined);
      assertJsonEqual(await client.listArtifactNames(key), ['story.txt']);
    });

    await test(`${version}: abort mid-stream closes the connection and the server stops`, async () => {
      const session = await client.createSession({ appName: 'slow', userId });
      const key = { appName: 'slow', userId, sessionId: session.id };
      const controller = new AbortController();
      const run = client.runSse({ ...key, newMessage: user('go') }, { signal: controller.signal });
      const seen = [];
      const error = await rejects((async () => {
        for await (const e of run) {
          seen.push(e);
          if (seen.length === 3) controller.abort();
        }
      })(), (e) => assert(e.name === 'AbortError', `${e.name}: ${e.message}`));
      assert(seen.length === 3 && error);
      await sleep(1500);
      const stored1 = (await client.getSession(key)).events.length;
      await sleep(1000);
      const stored2 = (await client.getSession(key)).events.length;
      // 1 user event + 60 ticks if the run went on; a stopped run keeps only what it had written.
      assert(stored1 < 12 && stored2 === stored1, `stored ${stored1}, then ${stored2} events`);

      // `break` closes it too: nothing more is stored once the server has seen it.
      for await (const _ of client.runSse({ ...key, newMessage: user('again') })) break;
      await sleep(800);
      const stored3 = (await client.getSession(key)).events.length;
      await sleep(1000);
      const stored4 = (await client.getSession(key)).events.length;
      assert(stored3 > stored2 && stored4 === stored3, `stored ${stored3}, then ${stored4} events after a break`);
    });

    await test(`${version}: the run's own error frame, and errors before the stream`, async () => {
      const session = await client.createSession({ appName: 'failing', userId });
      const key = { appName: 'failing', userId, sessionId: session.id };
      const events = [];
      await rejects((async () => {
        for await (const e of client.runSse({ ...key, newMessage: user('go') })) events.push(e);
      })(), (e) => {
        assert(e.name === 'AdkError' && e.code === 'INTERNAL' && e.httpStatus === undefined, `${e.code}: ${e.message}`);
        assert(e.message.includes('scripted failure 💥 after one event'), e.message);
      });
      assert(events.length === 1 && texts(events[0]) === 'about to fail…', JSON.stringify(events));

      await rejects(collect(client.runSse({ appName: 'weather', userId, sessionId: 'no-such-session', newMessage: user('hi') })), (e) => {
        isAdkError(e, 'NOT_FOUND', 404);
        assert(e.message.startsWith('runSse: Session not found'), e.message);
      });
      // Arguments are checked before anything is sent.
      assertThrowsAdk(() => client.runSse({ appName: 'weather', sessionId: 'x', newMessage: user('hi') }), 'INVALID_ARGUMENT', 'userId');
      // The server's own validation (422), here of a body a proxy stripped of its userId.
      const stripping = new AdkServerClient({
        baseUrl,
        fetch: async (url, init) => {
          const { userId: _, ...body } = JSON.parse(String(init?.body));
          return fetch(url, { ...init, body: JSON.stringify(body) });
        },
      });
      await rejects(collect(stripping.runSse({ ...key, newMessage: user('hi') })), (e) => {
        isAdkError(e, 'INVALID_ARGUMENT', 422);
        assert(e.message === 'runSse: body.userId: Field required', e.message);
      });
      await rejects(client.getSession({ appName: 'weather', userId }), (e) =>
        assert(e.code === 'INVALID_ARGUMENT' && e.message === 'getSession: sessionId is required', e.message));
      await rejects(client.loadArtifact({ ...key, filename: 'x', version: -1 }), (e) => assert(e.code === 'INVALID_ARGUMENT', e.message));
      // An empty name would address another endpoint: refused before anything is sent.
      await rejects(client.getSession({ appName: 'weather', userId, sessionId: '' }), (e) =>
        assert(e.code === 'INVALID_ARGUMENT' && e.message.startsWith('getSession: sessionId is required'), e.message));
      await rejects(client.getAppInfo(), (e) => assert(e.code === 'INVALID_ARGUMENT', e.message));
      assertThrowsAdk(() => client.runSse(), 'INVALID_ARGUMENT', 'appName');
      await rejects(collect(client.runSse({ appName: 'weather', userId, sessionId: '', newMessage: user('hi') })), (e) =>
        assert(e.code === 'INVALID_ARGUMENT' && e.message.startsWith('runSse: sessionId is required'), e.message));
    });

    await test(`${version}: toReadableStream and run() with an aborted signal`, async () => {
      const session = await client.createSession({ appName: 'story', userId });
      const key = { appName: 'story', userId, sessionId: session.id };
      const reader = client.runSse({ ...key, newMessage: user('hi') }).toReadableStream().getReader();
      const got = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) got.push(r.value);
      assert(got.length >= 3 && got.every((e) => e.author === 'story'), JSON.stringify(got));
      const controller = new AbortController();
      controller.abort();
      await rejects(client.run({ ...key, newMessage: user('hi') }, { signal: controller.signal }), (e) => assert(e.name === 'AbortError', e.name));
    });
  }

  await test('2.13.0: a stream cut mid-run: UNAVAILABLE after the events before the cut', async () => {
    const direct = new AdkServerClient({ baseUrl: servers[0][1] });
    const session = await direct.createSession({ appName: 'slow', userId: 'cut' });
    // The proxy forwards /cut/<n>/<path> and drops the connection after n bytes of the body.
    const cutting = new AdkServerClient({ baseUrl: `${params.get('adkProxy')}/cut/1000` });
    const events = [];
    await rejects((async () => {
      for await (const e of cutting.runSse({ appName: 'slow', userId: 'cut', sessionId: session.id, newMessage: user('go') })) events.push(e);
    })(), (e) => {
      assert(e.code === 'UNAVAILABLE' && e.message.startsWith('runSse: the stream from the ADK server was cut'), `${e.code}: ${e.message}`);
    });
    assert(events.length >= 2 && events.every((e, i) => texts(e) === `tick ${i + 1}/60`), JSON.stringify(events.map(texts)));
  });

  await test('no server there: UNAVAILABLE, and the SDK goes on working', async () => {
    const client = new AdkServerClient({ baseUrl: 'http://127.0.0.1:65535' });
    await rejects(client.listApps(), (e) => assert(e.code === 'UNAVAILABLE' && e.message.includes('no answer from the ADK server at http://127.0.0.1:65535'), e.message));
    const ok = new AdkServerClient({ baseUrl: servers[0][1] });
    assert((await ok.listApps()).length === 5);
  });
}

finish();
