// @ts-check
// The session, memory and artifact services through the release package's JS API, in Chromium:
// the same ADK cases the native tests translate, plus isolation and Korean search.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, assertRejectsAdk, finish, test } from './harness.js';

await init();
const { InMemorySessionService, IndexedDbSessionService, InMemoryMemoryService, IndexedDbMemoryService, InMemoryArtifactService, IndexedDbArtifactService, createEvent } = adk;

const textEvent = (stateDelta = {}) =>
  createEvent({ author: 'user', invocationId: 'invocation', content: { role: 'user', parts: [{ text: 'text' }] }, actions: { stateDelta } });

// The same ADK cases against both session services: in memory, and in this origin's IndexedDB (a
// fresh database per case).
let databases = 0;
/** @type {[string, () => adk.SessionService][]} */
const sessionServices = [
  ['in memory', () => new InMemorySessionService()],
  ['IndexedDB', () => new IndexedDbSessionService({ databaseName: `adk-wasm-test-${Date.now()}-${databases++}` })],
];

for (const [label, make] of sessionServices) {
  await test(`${label}: test_get_empty_session`, async () => {
    const s = make();
    assert((await s.getSession({ appName: 'my_app', userId: 'test_user', sessionId: '123' })) === null);
  });

  await test(`${label}: test_create_get_session`, async () => {
    const s = make();
    const session = await s.createSession({ appName: 'my_app', userId: 'test_user', state: { key: 'value' } });
    assert(session.appName === 'my_app' && session.userId === 'test_user' && session.id.length === 36);
    assertJsonEqual(session.state, { key: 'value' });
    assertJsonEqual(session.events, []);
    assertJsonEqual(await s.getSession({ appName: 'my_app', userId: 'test_user', sessionId: session.id }), session);
    await s.deleteSession({ appName: 'my_app', userId: 'test_user', sessionId: session.id });
    assert((await s.getSession({ appName: 'my_app', userId: 'test_user', sessionId: session.id })) === null);
  });

  await test(`${label}: test_create_and_list_sessions`, async () => {
    const s = make();
    const ids = [0, 1, 2, 3, 4].map((i) => `session${i}`);
    for (const sessionId of ids) await s.createSession({ appName: 'my_app', userId: 'test_user', sessionId });
    const { sessions } = await s.listSessions({ appName: 'my_app', userId: 'test_user' });
    assertJsonEqual(sessions.map((x) => x.id), ids);
    assert(sessions.every((x) => x.events.length === 0));
  });

  await test(`${label}: test_session_state (appendEvent updates the JS session in place)`, async () => {
    const s = make();
    const s11 = await s.createSession({ appName: 'my_app', userId: 'user1', state: { key11: 'value11' }, sessionId: 'session11' });
    await s.createSession({ appName: 'my_app', userId: 'user1', state: { key12: 'value12' }, sessionId: 'session12' });
    await s.createSession({ appName: 'my_app', userId: 'user2', sessionId: 'session2' });
    const stored = await s.appendEvent({ session: s11, event: textEvent({ 'app:key': 'value', 'user:key1': 'value1', 'temp:key': 'temp', key11: 'value11_new' }) });
    assert(s11.state['app:key'] === 'value' && s11.state.key11 === 'value11_new' && s11.state['user:key1'] === 'value1');
    assert(s11.state['temp:key'] === 'temp', 'temp keys stay on the caller session for the invocation');
    assert(!('temp:key' in stored.actions.stateDelta), 'temp keys leave the stored event');
    assert(s11.events.length === 1 && s11.events[0].id === stored.id && s11.lastUpdateTime === stored.timestamp);
    const s12 = await s.getSession({ appName: 'my_app', userId: 'user1', sessionId: 'session12' });
    assert(s12.state.key12 === 'value12' && s12.state['user:key1'] === 'value1' && !('temp:key' in s12.state));
    const s2 = await s.getSession({ appName: 'my_app', userId: 'user2', sessionId: 'session2' });
    assert(s2.state['app:key'] === 'value' && !('user:key1' in s2.state));
    const again = await s.getSession({ appName: 'my_app', userId: 'user1', sessionId: 'session11' });
    assert(again.state.key11 === 'value11_new' && !('temp:key' in again.state));
  });

  await test(`${label}: test_create_new_session_will_merge_states`, async () => {
    const s = make();
    const s1 = await s.createSession({ appName: 'my_app', userId: 'user', state: { key1: 'value1' }, sessionId: 'session1' });
    await s.appendEvent({ session: s1, event: textEvent({ 'app:key': 'value', 'user:key1': 'value1', 'temp:key': 'temp' }) });
    const s2 = await s.createSession({ appName: 'my_app', userId: 'user', state: {}, sessionId: 'session2' });
    assertJsonEqual(s2.state, { 'app:key': 'value', 'user:key1': 'value1' });
  });

  await test(`${label}: test_get_session_with_config`, async () => {
    const s = make();
    const session = await s.createSession({ appName: 'my_app', userId: 'user' });
    for (let i = 1; i <= 5; i++) await s.appendEvent({ session, event: { author: 'user', timestamp: i } });
    const get = async (config) => (await s.getSession({ appName: 'my_app', userId: 'user', sessionId: session.id, config })).events.map((e) => e.timestamp);
    assertJsonEqual(await get(undefined), [1, 2, 3, 4, 5]);
    assertJsonEqual(await get({ numRecentEvents: 3 }), [3, 4, 5]);
    assertJsonEqual(await get({ afterTimestamp: 4 }), [4, 5]);
    assertJsonEqual(await get({ afterTimestamp: 50 }), []);
    assertJsonEqual(await get({ numRecentEvents: 3, afterTimestamp: 4 }), [4, 5]);
    assertJsonEqual(await get({ numRecentEvents: 0 }), []);
  });

  await test(`${label}: errors carry codes and change nothing`, async () => {
    const s = make();
    await s.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    await assertRejectsAdk(s.createSession({ appName: 'a', userId: 'u', sessionId: ' s ' }), 'ALREADY_EXISTS', 's');
    // @ts-expect-error deliberately the wrong type
    await assertRejectsAdk(s.createSession({ userId: 'u' }), 'INVALID_ARGUMENT', 'appName');
    await assertRejectsAdk(s.getSession({ appName: 'a', userId: 'u', sessionId: 's', config: { numRecentEvents: -1 } }), 'INVALID_ARGUMENT', 'numRecentEvents');
    const ghost = { id: 'ghost', appName: 'a', userId: 'u', state: {}, events: [], lastUpdateTime: 0 };
    await assertRejectsAdk(s.appendEvent({ session: ghost, event: textEvent({ 'app:x': 1 }) }), 'NOT_FOUND', 'ghost');
    assertJsonEqual(ghost, { id: 'ghost', appName: 'a', userId: 'u', state: {}, events: [], lastUpdateTime: 0 });
    // @ts-expect-error deliberately the wrong type
    await assertRejectsAdk(s.appendEvent({ session: {}, event: textEvent() }), 'INVALID_ARGUMENT', 'id');
    // @ts-expect-error deliberately the wrong type
    await assertRejectsAdk(s.appendEvent({ session: ghost, event: { author: 7 } }), 'INVALID_ARGUMENT', 'author');
    const fresh = await s.createSession({ appName: 'a', userId: 'u2' });
    assert(!('app:x' in fresh.state), 'a refused event leaks nothing');
    const partial = await s.appendEvent({ session: fresh, event: { ...textEvent({ k: 1 }), partial: true } });
    assert(partial.partial === true && fresh.events.length === 0 && !('k' in fresh.state), 'partial events are not stored');
    // A session object that cannot take the event (frozen, as an Immer or Redux store keeps it) is
    // refused before anything is stored: the event is not half-appended.
    for (const freeze of [(x) => Object.freeze(x), (x) => Object.freeze(x.events), (x) => Object.freeze(x.state)]) {
      const held = await s.createSession({ appName: 'a', userId: 'u3' });
      freeze(held);
      await assertRejectsAdk(s.appendEvent({ session: held, event: textEvent({ k: 1 }) }), 'INVALID_ARGUMENT', 'session object');
      const stored = await s.getSession({ appName: 'a', userId: 'u3', sessionId: held.id });
      assert(stored?.events.length === 0 && !('k' in stored.state), JSON.stringify(stored));
    }
  });

  await test(`${label}: isolation: users, apps`, async () => {
    const s = make();
    const alice = await s.createSession({ appName: 'app1', userId: 'alice', sessionId: 's' });
    await s.appendEvent({ session: alice, event: textEvent({ 'user:secret': 'a', 'app:motd': 'hi' }) });
    const bob = await s.createSession({ appName: 'app1', userId: 'bob', sessionId: 's' });
    assert(!('user:secret' in bob.state) && bob.state['app:motd'] === 'hi');
    assert((await s.getSession({ appName: 'app1', userId: 'bob', sessionId: 's' })).events.length === 0);
    const other = await s.createSession({ appName: 'app2', userId: 'alice' });
    assert(!('app:motd' in other.state) && !('user:secret' in other.state));
    assert((await s.listSessions({ appName: 'app1' })).sessions.length === 2);

    const m = new InMemoryMemoryService();
    await m.addSessionToMemory(await s.getSession({ appName: 'app1', userId: 'alice', sessionId: 's' }));
    assert((await m.searchMemory({ appName: 'app1', userId: 'alice', query: 'text' })).memories.length === 1);
    assert((await m.searchMemory({ appName: 'app1', userId: 'bob', query: 'text' })).memories.length === 0);
    assert((await m.searchMemory({ appName: 'app2', userId: 'alice', query: 'text' })).memories.length === 0);

    const a = new InMemoryArtifactService();
    await a.saveArtifact({ appName: 'app1', userId: 'alice', sessionId: 's', filename: 'user:note', artifact: { text: 'mine' } });
    assert((await a.loadArtifact({ appName: 'app1', userId: 'bob', sessionId: 's', filename: 'user:note' })) === null);
    assert((await a.loadArtifact({ appName: 'app2', userId: 'alice', sessionId: 's', filename: 'user:note' })) === null);
    assertJsonEqual(await a.listArtifactKeys({ appName: 'app1', userId: 'bob', sessionId: 's' }), []);
  });
}

const memoryOf = async (make, texts) => {
  const m = make();
  const events = texts.map((text, i) => createEvent({ author: 'user', id: `e${i}`, timestamp: 1000 + i, content: { role: 'user', parts: [{ text }] } }));
  await m.addSessionToMemory({ id: 's', appName: 'app', userId: 'u', state: {}, events, lastUpdateTime: 0 });
  return async (query) => (await m.searchMemory({ appName: 'app', userId: 'u', query })).memories;
};

// The same memory cases against both memory services; IndexedDB gets a fresh database per case.
let memoryDatabases = 0;
/** @type {[string, () => adk.MemoryService][]} */
const memoryServices = [
  ['in memory', () => new InMemoryMemoryService()],
  ['IndexedDB', () => new IndexedDbMemoryService({ databaseName: `adk-wasm-memory-${Date.now()}-${memoryDatabases++}` })],
];

for (const [label, make] of memoryServices) {
  await test(`${label}: memory: ADK cases, Korean and mixed-script search`, async () => {
    const search = await memoryOf(make, ['The ADK is a great toolkit.', 'I like to code in Python.', '서울 날씨 알려줘', '서울은 맑고 21°C입니다.', '私はPythonでADKを使っています', 'ADK로 에이전트를 만들었어요']);
    const ids = async (q) => (await search(q)).map((m) => m.id);
    assertJsonEqual(await ids('python'), ['e1', 'e4']);
    assertJsonEqual(await ids('thon'), []);
    assertJsonEqual(await ids('서울 날씨'), ['e2', 'e3']);
    assertJsonEqual(await ids('에이전트'), ['e5']);
    assertJsonEqual(await ids('使って'), ['e4']);
    assertJsonEqual(await ids('Café'.normalize('NFD')), []);
    const [first] = await search('toolkit');
    assert(first.author === 'user' && first.timestamp === '1970-01-01T00:16:40+00:00' && first.content.parts[0].text === 'The ADK is a great toolkit.', JSON.stringify(first));
  });

  await test(`${label}: events without ids get uuid4 ids: appendEvent, and addEventsToMemory keeps every one`, async () => {
    const sessions = new InMemorySessionService();
    const session = await sessions.createSession({ appName: 'app', userId: 'u' });
    const appended = await sessions.appendEvent({ session, event: { author: 'user', content: { role: 'user', parts: [{ text: 'no id' }] } } });
    assert(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(appended.id), appended.id);
    const memory = make();
    const said = (t) => ({ author: 'user', content: { role: 'user', parts: [{ text: t }] } });
    await memory.addEventsToMemory({ appName: 'app', userId: 'u', events: [said('alpha one'), said('alpha two'), { ...said('alpha three'), id: '' }] });
    const { memories } = await memory.searchMemory({ appName: 'app', userId: 'u', query: 'alpha' });
    assertJsonEqual(memories.map((m) => m.content.parts[0].text), ['alpha one', 'alpha two', 'alpha three']);
    assert(new Set(memories.map((m) => m.id)).size === 3, JSON.stringify(memories.map((m) => m.id)));
    // Deleted for good: not found, and not remembered again.
    await memory.deleteMemory({ appName: 'app', userId: 'u', memoryId: memories[0].id });
    await memory.addEventsToMemory({ appName: 'app', userId: 'u', events: [{ ...said('alpha one'), id: memories[0].id }] });
    const after = (await memory.searchMemory({ appName: 'app', userId: 'u', query: 'alpha' })).memories;
    assertJsonEqual(after.map((m) => m.content.parts[0].text), ['alpha two', 'alpha three']);
  });

  await test(`${label}: memory: ranking by matched words, at most ten`, async () => {
    const search = await memoryOf(make, ['The deploy is ready.', 'Ready.', 'The deploy status is ready.', ...Array.from({ length: 20 }, (_, i) => `ready ${i}`)]);
    const found = await search('deploy status ready');
    assert(found.length === 10, `${found.length} memories`);
    assertJsonEqual(found.slice(0, 3).map((m) => m.content.parts[0].text), ['The deploy status is ready.', 'The deploy is ready.', 'Ready.']);
  });
}

// The same cases against both artifact services; IndexedDB gets a fresh database per case.
let artifactDatabases = 0;
/** @type {[string, () => [adk.ArtifactService, string]][]} */
const artifactServices = [
  ['in memory', () => [new InMemoryArtifactService(), 'memory://']],
  ['IndexedDB', () => {
    const databaseName = `adk-wasm-artifacts-${Date.now()}-${artifactDatabases++}`;
    return [new IndexedDbArtifactService({ databaseName }), `indexeddb://${databaseName}/`];
  }],
];

for (const [label, make] of artifactServices) {
  await test(`${label}: artifacts: versions, metadata, user namespace, unsafe names`, async () => {
    const [a, scheme] = make();
    const key = { appName: 'app0', userId: 'user0', sessionId: '123', filename: 'file456' };
    assert((await a.loadArtifact(key)) === null);
    const png = adk.Part.fromInlineData(new Uint8Array([1, 2, 3]), 'image/png');
    assert((await a.saveArtifact({ ...key, artifact: png, customMetadata: { by: 'test' } })) === 0);
    assert((await a.saveArtifact({ ...key, artifact: { text: 'v1' } })) === 1);
    assertJsonEqual(await a.loadArtifact(key), { text: 'v1' });
    assertJsonEqual(await a.loadArtifact({ ...key, version: 0 }), png);
    assert((await a.loadArtifact({ ...key, version: 2 })) === null && (await a.loadArtifact({ ...key, version: -1 })) === null);
    assertJsonEqual(await a.listVersions(key), [0, 1]);
    const versions = await a.listArtifactVersions(key);
    assertJsonEqual(versions.map((v) => [v.version, v.mimeType]), [[0, 'image/png'], [1, 'text/plain']]);
    assert(versions[0].customMetadata.by === 'test' && versions[0].canonicalUri.startsWith(`${scheme}apps/app0/users/user0/sessions/123/`));
    assert((await a.getArtifactVersion(key)).version === 1);
    await a.saveArtifact({ ...key, sessionId: 'other', filename: 'user:avatar.png', artifact: png });
    assertJsonEqual(await a.listArtifactKeys({ appName: 'app0', userId: 'user0', sessionId: '123' }), ['file456', 'user:avatar.png']);
    await a.deleteArtifact(key);
    assert((await a.loadArtifact(key)) === null);
    for (const bad of [{ filename: '../x' }, { filename: '' }, { filename: '/abs' }, { sessionId: '../s' }, { userId: 'a/b' }, { sessionId: undefined }]) {
      await assertRejectsAdk(a.saveArtifact({ ...key, ...bad, artifact: { text: 'x' } }), 'INVALID_ARGUMENT');
    }
    await assertRejectsAdk(a.saveArtifact({ ...key, artifact: {} }), 'INVALID_ARGUMENT', 'Not supported');
    await assertRejectsAdk(a.saveArtifact({ ...key, artifact: { inlineData: { data: '!!' } } }), 'INVALID_ARGUMENT', 'artifact.inlineData.data');
  });
}

await test('one class per kind: the @google/adk class names make it; export and import', async () => {
  const name = `adk-wasm-test-kinds-${Date.now()}`;
  /** @type {['SessionService' | 'MemoryService' | 'ArtifactService', adk.SessionService | adk.MemoryService | adk.ArtifactService][]} */
  const made = [
    ['SessionService', new InMemorySessionService()], ['SessionService', new IndexedDbSessionService({ databaseName: name })],
    ['MemoryService', new InMemoryMemoryService()], ['MemoryService', new IndexedDbMemoryService({ databaseName: name })],
    ['ArtifactService', new InMemoryArtifactService()], ['ArtifactService', new IndexedDbArtifactService({ databaseName: name })],
    ['SessionService', adk.SessionService.inMemory()], ['MemoryService', adk.MemoryService.indexedDb()], ['ArtifactService', adk.ArtifactService.inMemory()],
  ];
  for (const [kind, service] of made) assert(service instanceof adk[kind], `${service.constructor.name} is a ${kind}`);
  const memory = adk.SessionService.inMemory();
  const session = await memory.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  await memory.appendEvent({ session, event: textEvent({ k: 1 }) });
  const exported = await memory.exportSession({ appName: 'app', userId: 'u', sessionId: 's' });
  await assertRejectsAdk(memory.importSession(exported), 'UNIMPLEMENTED', 'IndexedDB');
  const stored = adk.SessionService.indexedDb({ databaseName: name });
  const imported = await stored.importSession(exported);
  assertJsonEqual(imported.state, { k: 1 });
  assert(imported.events.length === 1);
  stored.free();
  for (const [, service] of made) service.free();
  await IndexedDbSessionService.deleteDatabase(name);
});

await test('IndexedDB: an append reads the session\'s row, not its stored events (the size counted once is read back)', async () => {
  const name = `adk-wasm-test-append-${Date.now()}`;
  const service = new IndexedDbSessionService({ databaseName: name });
  const events = Array.from({ length: 200 }, (_, i) => ({ ...adk.createEvent({ author: 'user' }), content: { role: 'user', parts: [{ text: `event ${i}` }] } }));
  await service.importSession({ id: 's', appName: 'app', userId: 'u', state: {}, events, lastUpdateTime: 1 });
  const session = await service.getSession({ appName: 'app', userId: 'u', sessionId: 's', config: { numRecentEvents: 1 } });
  assert(session !== null, 'imported');
  // Every read of the events store goes through getAll, a cursor or a count: watched for the appends.
  const reads = [];
  const watched = ['getAll', 'getAllKeys', 'openCursor', 'openKeyCursor', 'count'];
  const originals = watched.map((method) => IDBObjectStore.prototype[method]);
  watched.forEach((method, i) => {
    IDBObjectStore.prototype[method] = function (...args) {
      reads.push(`${this.name}.${method}`);
      return originals[i].apply(this, args);
    };
  });
  try {
    for (let i = 0; i < 3; i++) await service.appendEvent({ session, event: { ...adk.createEvent({ author: 'user' }), content: { role: 'user', parts: [{ text: 'more' }] } } });
  } finally {
    watched.forEach((method, i) => { IDBObjectStore.prototype[method] = originals[i]; });
  }
  assert(reads.length === 0, `appends read ${reads.join(', ')}`);
  const again = await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(again?.events.length === 203, `${again?.events.length} events`);
  service.free();
  await IndexedDbSessionService.deleteDatabase(name);
});

finish();
