// IndexedDbSessionService where only a real browser can test it: a page reload, two pages of one
// origin appending at once, a quota that runs out mid-append (Chromium's DevTools protocol gives the
// origin a tiny one), a schema upgrade from version 1, an upgrade another page blocks, and no
// IndexedDB at all. Each step runs in the page, through the release package.
import { launchChromiumProfile } from './chromium.mjs';
import { serve } from '../../scripts/serve.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const server = await serve(ROOT, 0);
const base = `http://127.0.0.1:${server.address().port}`;
// A profile of its own: an off-the-record context ignores the quota override the quota test sets.
const context = await launchChromiumProfile();
let passed = 0;
let failed = 0;

async function test(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** A page of the origin with the package loaded as `window.adk`. */
async function page() {
  const tab = await context.newPage();
  tab.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await tab.goto(`${base}/tests/browser/blank.html`);
  await tab.evaluate(async () => {
    const adk = await import('/pkg/index.js');
    await adk.default();
    window.adk = adk;
  });
  return tab;
}

/** `error.code` of what `body` rejects with in the page, or 'resolved'. */
const codeOf = (tab, body, arg) =>
  tab.evaluate(async ([source, arg]) => {
    try {
      await (0, eval)(source)(arg);
      return 'resolved';
    } catch (e) {
      return `${e.code}: ${e.message}`;
    }
  }, [body.toString(), arg]);

// A run that writes session, app:, user: and temp: state and several events, then everything read back.
const RUN_AND_READ = async (databaseName) => {
  const { IndexedDbSessionService, Runner, eventToJson } = window.adk;
  const sessionService = new IndexedDbSessionService({ databaseName });
  const agent = {
    name: 'writer',
    async *runAsyncImpl(ctx) {
      ctx.state.set('count', (ctx.state.get('count') ?? 0) + 1);
      ctx.state.set('app:motd', 'hello');
      ctx.state.set('user:lang', 'ko');
      ctx.state.set('temp:scratch', 'gone');
      yield { content: { role: 'model', parts: [{ text: '안녕하세요 👋' }] } };
      yield { content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 't', args: { a: [1, 2.5, null] } } }] } };
    },
  };
  const runner = new Runner({ appName: 'app', agent, sessionService });
  const session = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' })
    ?? await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { 'user:name': 'Minsu' } });
  for await (const _ of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'hi' }] } }));
  const read = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return { state: read.state, events: read.events.map(eventToJson), lastUpdateTime: read.lastUpdateTime };
};

const READ = async (databaseName) => {
  const { IndexedDbSessionService, eventToJson } = window.adk;
  const read = await new IndexedDbSessionService({ databaseName }).getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const last = await new IndexedDbSessionService({ databaseName }).getSession({ appName: 'app', userId: 'u', sessionId: 's', config: { numRecentEvents: 2 } });
  return { state: read.state, events: read.events.map(eventToJson), lastUpdateTime: read.lastUpdateTime, last: last.events.map(eventToJson) };
};

try {
  // First: Chromium applies a quota override only to an origin whose storage is not open yet.
  await test('a quota that runs out mid-append is RESOURCE_EXHAUSTED and leaves no half-written event', async () => {
    const tab = await page();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: base, quotaSize: 300 * 1024 });
    await tab.evaluate(async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'quota' });
      const session = await s.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
      await s.appendEvent({ session, event: { author: 'a', content: { role: 'model', parts: [{ text: 'small' }] } } });
    });
    const code = await codeOf(tab, async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'quota' });
      const session = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      // Random text: IndexedDB compresses values, so a repeated character would fit.
      const noise = new Uint8Array(1_500_000);
      for (let i = 0; i < noise.length; i += 65536) crypto.getRandomValues(noise.subarray(i, i + 65536));
      const text = btoa(Array.from(noise, (b) => String.fromCharCode(b)).join(''));
      await s.appendEvent({ session, event: { author: 'a', content: { role: 'model', parts: [{ text }] }, actions: { stateDelta: { big: 1, 'user:big': 1 } } } });
    });
    assert(code.startsWith('RESOURCE_EXHAUSTED'), code);
    const after = await tab.evaluate(async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'quota' });
      const session = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      return { events: session.events.length, state: session.state };
    });
    assert(after.events === 1 && JSON.stringify(after.state) === '{}', JSON.stringify(after));
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: base });
    await tab.close();
  });

  await test('a reload keeps every event byte for byte, and the state of every scope', async () => {
    const tab = await page();
    const written = await tab.evaluate(RUN_AND_READ, 'reload');
    assert(written.events.length === 3, `${written.events.length} events`);
    await tab.reload();
    await tab.evaluate(async () => { const adk = await import('/pkg/index.js'); await adk.default(); window.adk = adk; });
    const read = await tab.evaluate(READ, 'reload');
    assert(JSON.stringify(read.events) === JSON.stringify(written.events), 'the events read back differ');
    assert(JSON.stringify(read.last) === JSON.stringify(written.events.slice(1)), 'the last two events differ');
    assert(JSON.stringify(read.state) === JSON.stringify(written.state), `state ${JSON.stringify(read.state)}`);
    assert(read.state.count === 1 && read.state['app:motd'] === 'hello' && read.state['user:lang'] === 'ko' && read.state['user:name'] === 'Minsu', JSON.stringify(read.state));
    assert(!('temp:scratch' in read.state), 'a temp: key was stored');
    // A second run after the reload goes on from the stored session.
    const again = await tab.evaluate(RUN_AND_READ, 'reload');
    assert(again.events.length === 6 && again.state.count === 2, JSON.stringify(again.state));
    await tab.close();
  });

  await test('two pages appending to one session at once lose nothing; a stale copy is refused and writes nothing', async () => {
    const [a, b] = [await page(), await page()];
    await a.evaluate(async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'tabs' });
      await s.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    });
    // Each page reads the session afresh and appends, again and again; a refusal means another page
    // wrote first: read again and retry.
    const APPEND = async ([who, n]) => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'tabs' });
      let refused = 0;
      for (let i = 0; i < n; i++) {
        for (;;) {
          const session = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's', config: { numRecentEvents: 1 } });
          try {
            await s.appendEvent({ session, event: { author: who, content: { role: 'model', parts: [{ text: `${who}${i}` }] }, actions: { stateDelta: { [`${who}${i}`]: i, 'user:last': who } } } });
            break;
          } catch (e) {
            if (e.code !== 'FAILED_PRECONDITION') throw e;
            refused++;
          }
        }
      }
      return refused;
    };
    const refused = await Promise.all([a.evaluate(APPEND, ['a', 40]), b.evaluate(APPEND, ['b', 40])]);
    const read = await a.evaluate(async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'tabs' });
      const session = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      return { texts: session.events.map((e) => e.content.parts[0].text), keys: Object.keys(session.state).length };
    });
    const expected = [...Array(40).keys()].flatMap((i) => [`a${i}`, `b${i}`]).sort();
    assert(JSON.stringify([...read.texts].sort()) === JSON.stringify(expected), `${read.texts.length} events`);
    assert(read.keys === 81, `${read.keys} state keys`);
    console.log(`     (refusals of stale copies: ${refused.join(' and ')})`);
    const stale = await codeOf(b, async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'tabs' });
      const old = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      const fresh = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      await s.appendEvent({ session: fresh, event: { author: 'x', actions: { stateDelta: { fresh: 1 } } } });
      await s.appendEvent({ session: old, event: { author: 'x', actions: { stateDelta: { stale: 1 } } } });
    });
    assert(stale.startsWith('FAILED_PRECONDITION'), stale);
    const after = await b.evaluate(async () => {
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'tabs' });
      const session = await s.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      return { events: session.events.length, stale: 'stale' in session.state };
    });
    assert(after.events === 81 && !after.stale, JSON.stringify(after));
    await a.close();
    await b.close();
  });

  await test('exportSession gives ADK\'s session JSON; importSession stores it elsewhere, byte for byte, in one go', async () => {
    const tab = await page();
    await tab.evaluate(RUN_AND_READ, 'export');
    const result = await tab.evaluate(async () => {
      const { IndexedDbSessionService, eventToJson } = window.adk;
      const from = new IndexedDbSessionService({ databaseName: 'export' });
      const text = await from.exportSession({ appName: 'app', userId: 'u', sessionId: 's' });
      const to = new IndexedDbSessionService({ databaseName: 'import' });
      const imported = await to.importSession(text);
      const again = await to.importSession(JSON.parse(text)).then(() => 'resolved', (e) => e.code);
      const read = await to.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      const other = await to.createSession({ appName: 'app', userId: 'u' });
      const missing = await from.exportSession({ appName: 'app', userId: 'u', sessionId: 'nope' });
      return {
        keys: Object.keys(JSON.parse(text)).sort(),
        same: JSON.stringify(read.events.map(eventToJson)) === JSON.stringify(JSON.parse(text).events.map(eventToJson)),
        state: JSON.stringify(read.state) === JSON.stringify(JSON.parse(text).state),
        importedEvents: imported.events.length, again, shared: other.state, missing,
      };
    });
    assert(JSON.stringify(result.keys) === JSON.stringify(['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId']), JSON.stringify(result.keys));
    assert(result.same && result.state && result.importedEvents === 3, JSON.stringify(result));
    assert(result.again === 'ALREADY_EXISTS' && result.missing === null, JSON.stringify(result));
    assert(result.shared['app:motd'] === 'hello' && result.shared['user:lang'] === 'ko', JSON.stringify(result.shared));
    await tab.close();
  });

  await test('sessions ADK Python serialised (83, from both ADK lines; three compacted) import and export byte for byte', async () => {
    const tab = await page();
    const mismatches = await tab.evaluate(async () => {
      const { IndexedDbSessionService } = window.adk;
      const bad = [];
      let n = 0;
      for (const version of ['2.13.0', '1.39.1']) {
        const { flows } = await (await fetch(`/tests/fixtures/flows/adk-${version}.json`)).json();
        for (const flow of flows) {
          const s = new IndexedDbSessionService({ databaseName: `adk-session-${n++}` });
          await s.importSession(flow.session_json);
          const back = await s.exportSession({ appName: 'flows', userId: 'user', sessionId: 's' });
          if (back !== flow.session_json) bad.push(`${version} ${flow.name}`);
        }
      }
      return { bad, n };
    });
    assert(mismatches.n === 83 && mismatches.bad.length === 0, JSON.stringify(mismatches));
    await tab.close();
  });

  await test('artifacts survive a reload, their bytes stored as bytes (a Uint8Array), not base64 text', async () => {
    const tab = await page();
    await tab.evaluate(async () => {
      const a = new window.adk.IndexedDbArtifactService({ databaseName: 'files' });
      const key = { appName: 'app', userId: 'u', sessionId: 's', filename: 'photo.png' };
      await a.saveArtifact({ ...key, artifact: window.adk.Part.fromInlineData(new Uint8Array([0, 1, 2, 250, 255]), 'image/png'), customMetadata: { by: 'me' } });
      await a.saveArtifact({ ...key, filename: 'user:notes.txt', artifact: { text: '메모' } });
    });
    await tab.reload();
    const read = await tab.evaluate(async () => {
      const adk = await import('/pkg/index.js');
      await adk.default();
      const a = new adk.IndexedDbArtifactService({ databaseName: 'files' });
      const key = { appName: 'app', userId: 'u', sessionId: 's', filename: 'photo.png' };
      const photo = await a.loadArtifact(key);
      const notes = await a.loadArtifact({ ...key, sessionId: 'another', filename: 'user:notes.txt' });
      const [version] = await a.listArtifactVersions(key);
      const raw = await new Promise((resolve) => {
        const open = indexedDB.open('files');
        open.onsuccess = () => {
          const all = open.result.transaction('artifacts').objectStore('artifacts').getAll();
          all.onsuccess = () => { resolve(all.result); open.result.close(); };
        };
      });
      const stored = raw.find((r) => r.filename === 'photo.png');
      return {
        data: photo.inlineData.data, mime: photo.inlineData.mimeType, notes: notes.text,
        meta: version.customMetadata.by, isBinary: stored.bytes instanceof Uint8Array, storedBytes: [...stored.bytes], storedData: stored.part.inlineData.data ?? null,
      };
    });
    assert(read.data === 'AAEC-v8=' && read.mime === 'image/png' && read.notes === '메모' && read.meta === 'me', JSON.stringify(read));
    assert(read.isBinary && JSON.stringify(read.storedBytes) === '[0,1,2,250,255]' && read.storedData === null, JSON.stringify(read));
    await tab.close();
  });

  await test('memories survive a reload, found by the same search', async () => {
    const tab = await page();
    await tab.evaluate(async () => {
      const m = new window.adk.IndexedDbMemoryService({ databaseName: 'recall' });
      const said = (id, text) => ({ author: 'user', id, timestamp: 1000, content: { role: 'user', parts: [{ text }] } });
      await m.addSessionToMemory({ id: 's1', appName: 'app', userId: 'u', state: {}, events: [said('a', '서울 날씨 알려줘'), said('b', 'The deploy is ready.')], lastUpdateTime: 0 });
      await m.addEventsToMemory({ appName: 'app', userId: 'u', events: [said('c', '부산 날씨는 어때?')], sessionId: 's2' });
    });
    await tab.reload();
    const found = await tab.evaluate(async () => {
      const adk = await import('/pkg/index.js');
      await adk.default();
      const m = new adk.IndexedDbMemoryService({ databaseName: 'recall' });
      return (await m.searchMemory({ appName: 'app', userId: 'u', query: '날씨' })).memories.map((x) => x.id);
    });
    assert(JSON.stringify(found) === '["a","c"]', JSON.stringify(found));
    await tab.close();
  });

  await test('a run paused on a confirmation survives a reload: the answer after it runs the tool once and ends the invocation', async () => {
    const tab = await page();
    // The same agent on both sides of the reload: a transfer that asks, over a model written in JS.
    const SETUP = () => {
      const { IndexedDbSessionService, Runner, LlmAgent, FunctionTool } = window.adk;
      window.sent = 0;
      const transfer = new FunctionTool({
        name: 'transfer_money', parameters: { type: 'object', properties: { amount: { type: 'number' } } },
        execute: ({ amount }) => { window.sent++; return { status: 'sent', amount }; },
        requireConfirmation: ({ amount }) => amount > 100,
      });
      const model = {
        model: 'scripted',
        generateContent(request) {
          const last = request.contents.at(-1)?.parts?.[0];
          if (last?.functionResponse) return { content: { role: 'model', parts: [{ text: `Done: ${JSON.stringify(last.functionResponse.response)}` }] } };
          return { content: { role: 'model', parts: [{ functionCall: { name: 'transfer_money', args: { amount: 500 } } }] } };
        },
      };
      const agent = new LlmAgent({ name: 'banker', model, tools: [transfer] });
      return new Runner({ appName: 'bank', agent, sessionService: new IndexedDbSessionService({ databaseName: 'paused' }) });
    };
    const first = await tab.evaluate(async (setup) => {
      const runner = (0, eval)(setup)();
      await runner.sessionService.createSession({ appName: 'bank', userId: 'u', sessionId: 's' });
      const events = [];
      for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Send 500.' }] } })) events.push(e);
      const [request] = window.adk.getPendingUserInputRequests(events);
      return { request, sent: window.sent, invocation: events[0].invocationId };
    }, SETUP.toString());
    assert(first.request?.kind === 'confirmation' && first.request.toolName === 'transfer_money' && first.sent === 0, JSON.stringify(first));
    await tab.reload();
    await tab.evaluate(async () => {
      const adk = await import('/pkg/index.js');
      await adk.default();
      window.adk = adk;
    });
    const after = await tab.evaluate(async ([setup, request]) => {
      const runner = (0, eval)(setup)();
      const { sessionService } = runner;
      // The page reads what is pending from the stored session, as a reloaded UI does.
      const stored = await sessionService.getSession({ appName: 'bank', userId: 'u', sessionId: 's' });
      const pending = window.adk.getPendingUserInputRequests(stored.events);
      const answer = window.adk.createUserInputResponse(pending[0], { confirmed: true });
      const events = [];
      for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: answer })) events.push(e);
      const last = events.at(-1).content.parts[0].text;
      const again = [];
      for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: answer })) again.push(e);
      const end = await sessionService.getSession({ appName: 'bank', userId: 'u', sessionId: 's' });
      return { samePending: pending[0].interruptId === request.interruptId, invocations: [...new Set(events.map((e) => e.invocationId))],
        last, sent: window.sent, again: again.length, pendingAfter: window.adk.getPendingUserInputRequests(end.events).length };
    }, [SETUP.toString(), first.request]);
    assert(after.samePending && after.sent === 1 && after.again === 0 && after.pendingAfter === 0, JSON.stringify(after));
    assert(after.last === 'Done: {"status":"sent","amount":500}', after.last);
    // ADK 2.x: the answer continues the invocation that asked.
    assert(after.invocations.length === 1 && after.invocations[0] === first.invocation, JSON.stringify(after));
    await tab.close();
  });

  await test('a version-1 database is upgraded to version 3 (the index listSessions reads, the artifacts, the memory) and keeps its data', async () => {
    const tab = await page();
    const result = await tab.evaluate(async () => {
      const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
      const open = indexedDB.open('upgrade', 1);
      open.onupgradeneeded = () => {
        const db = open.result;
        db.createObjectStore('sessions', { keyPath: ['appName', 'userId', 'id'] });
        db.createObjectStore('events', { keyPath: ['appName', 'userId', 'sessionId', 'seq'] });
        db.createObjectStore('appState', { keyPath: 'appName' });
        db.createObjectStore('userState', { keyPath: ['appName', 'userId'] });
      };
      const v1 = await request(open);
      const tx = v1.transaction(['sessions', 'events'], 'readwrite');
      tx.objectStore('sessions').put({ appName: 'app', userId: 'u', id: 'old', state: { k: 'v' }, lastUpdateTime: 5, seq: 1 });
      tx.objectStore('events').put({ appName: 'app', userId: 'u', sessionId: 'old', seq: 0, timestamp: 5, event: '{"author":"user","id":"e1","invocationId":"i","timestamp":5,"actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{},"requestedToolConfirmations":{}}}' });
      await new Promise((resolve) => { tx.oncomplete = resolve; });
      v1.close();
      const s = new window.adk.IndexedDbSessionService({ databaseName: 'upgrade' });
      const session = await s.getSession({ appName: 'app', userId: 'u', sessionId: 'old' });
      const { sessions } = await s.listSessions({ appName: 'app' });
      const v2 = await request(indexedDB.open('upgrade'));
      const indexes = [...v2.transaction('sessions').objectStore('sessions').indexNames, ...v2.objectStoreNames];
      v2.close();
      return { state: session.state, ids: session.events.map((e) => e.id), listed: sessions.map((x) => x.id), version: v2.version, indexes };
    });
    assert(result.version === 3 && result.indexes.includes('byUpdateTime') && result.indexes.includes('artifacts') && result.indexes.includes('memories'), JSON.stringify(result));
    assert(result.state.k === 'v' && result.ids[0] === 'e1' && result.listed[0] === 'old', JSON.stringify(result));
    await tab.close();
  });

  await test('records as the version-3 services wrote them, before their logic moved to the runtime, read back and take new writes', async () => {
    const tab = await page();
    const result = await tab.evaluate(async () => {
      const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
      const { SessionService, MemoryService, ArtifactService } = window.adk;
      const made = SessionService.indexedDb({ databaseName: 'compat' });
      await made.getSession({ appName: 'app', userId: 'u', sessionId: 'none' }); // creates the version-3 stores
      made.free();
      const db = await request(indexedDB.open('compat'));
      const stores = ['sessions', 'events', 'appState', 'userState', 'artifacts', 'memories', 'memorySessions', 'memoryDeleted'];
      const tx = db.transaction(stores, 'readwrite');
      const event = (id, text) => `{"author":"user","id":"${id}","invocationId":"i","timestamp":5,"content":{"role":"user","parts":[{"text":"${text}"}]},"actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{},"requestedToolConfirmations":{}}}`;
      const e1 = event('e1', 'old weather');
      tx.objectStore('sessions').put({ appName: 'app', userId: 'u', id: 's', state: { k: 'v' }, lastUpdateTime: 5, seq: 1, bytes: e1.length });
      tx.objectStore('events').put({ appName: 'app', userId: 'u', sessionId: 's', seq: 0, timestamp: 5, event: e1 });
      tx.objectStore('userState').put({ appName: 'app', userId: 'u', state: { lang: 'ko' } });
      tx.objectStore('artifacts').put({ appName: 'app', userId: 'u', scope: 's', filename: 'f.bin', version: 0,
        meta: { version: 0, canonicalUri: 'indexeddb://compat/apps/app/users/u/sessions/s/artifacts/f.bin/versions/0', customMetadata: {}, createTime: 5, mimeType: 'application/octet-stream' },
        part: { inlineData: { mimeType: 'application/octet-stream' } }, bytes: new Uint8Array([1, 2, 255]) });
      tx.objectStore('memorySessions').put({ appName: 'app', userId: 'u', sessionId: 's', slot: 0 });
      tx.objectStore('memories').put({ appName: 'app', userId: 'u', slot: 0, seq: 0, id: 'e1', text: 'old weather', event: e1 });
      await new Promise((resolve) => { tx.oncomplete = resolve; });
      db.close();
      const sessions = SessionService.indexedDb({ databaseName: 'compat' });
      const memory = MemoryService.indexedDb({ databaseName: 'compat' });
      const artifacts = ArtifactService.indexedDb({ databaseName: 'compat' });
      const session = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      await sessions.appendEvent({ session, event: window.adk.createEvent({ author: 'user', actions: { stateDelta: { k: 'w' } } }) });
      const again = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      const loaded = await artifacts.loadArtifact({ appName: 'app', userId: 'u', sessionId: 's', filename: 'f.bin' });
      const version = await artifacts.saveArtifact({ appName: 'app', userId: 'u', sessionId: 's', filename: 'f.bin', artifact: { text: 'new' } });
      const found = await memory.searchMemory({ appName: 'app', userId: 'u', query: 'weather' });
      const raw = await request(indexedDB.open('compat'));
      const row = await request(raw.transaction('sessions').objectStore('sessions').get(['app', 'u', 's']));
      raw.close();
      for (const service of [sessions, memory, artifacts]) service.free();
      return { state: again.state, events: again.events.map((e) => e.id), seq: row.seq, data: loaded?.inlineData?.data, version, memories: found.memories.map((m) => m.id) };
    });
    assert(result.state.k === 'w' && result.state['user:lang'] === 'ko' && result.events.length === 2 && result.events[0] === 'e1' && result.seq === 2, JSON.stringify(result));
    assert(result.data === 'AQL_' && result.version === 1 && result.memories.join() === 'e1', JSON.stringify(result));
    await tab.close();
  });

  await test('an upgrade another page blocks, and no IndexedDB at all, are typed errors, never a hang', async () => {
    const holder = await page();
    // An old page holding version 1 open and ignoring requests to close.
    await holder.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open('blocked', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('sessions', { keyPath: 'id' });
      open.onsuccess = () => { window.held = open.result; resolve(); };
    }));
    const tab = await page();
    await tab.evaluate(() => { window.held = new window.adk.IndexedDbSessionService({ databaseName: 'blocked' }); });
    const read = () => window.held.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
    const blocked = await codeOf(tab, read);
    assert(blocked.startsWith('FAILED_PRECONDITION') && blocked.includes('other tabs'), blocked);
    // Asked again while the upgrade still waits: the same answer at once, not a hang.
    const again = await codeOf(tab, read);
    assert(again.startsWith('FAILED_PRECONDITION'), again);
    // Once the old page lets go, the upgrade goes through and the service works.
    await holder.evaluate(() => window.held.close());
    await tab.waitForFunction(() => window.held.getSession({ appName: 'a', userId: 'u', sessionId: 's' }).then((s) => s === null, () => false), null, { polling: 200, timeout: 10_000 });
    const none = await codeOf(tab, () => {
      Object.defineProperty(globalThis, 'indexedDB', { value: undefined });
      return new window.adk.IndexedDbSessionService({ databaseName: 'none' }).createSession({ appName: 'a', userId: 'u' });
    });
    assert(none.startsWith('UNAVAILABLE'), none);
    await holder.close();
    await tab.close();
  });

  await test('a freed service closes its database at once: deleting it then succeeds, in the same page', async () => {
    const tab = await page();
    const outcome = await tab.evaluate(async () => {
      const { IndexedDbSessionService, IndexedDbArtifactService } = window.adk;
      const sessions = new IndexedDbSessionService({ databaseName: 'freed' });
      const artifacts = new IndexedDbArtifactService({ databaseName: 'freed' });
      await sessions.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
      await artifacts.listArtifactKeys({ appName: 'a', userId: 'u', sessionId: 's' });
      sessions.free();
      artifacts.free();
      // Open connections would block the deletion (FAILED_PRECONDITION) until collected.
      await IndexedDbSessionService.deleteDatabase('freed');
      const again = new IndexedDbSessionService({ databaseName: 'freed' });
      return (await again.listSessions({ appName: 'a', userId: 'u' })).sessions.length;
    }).catch((e) => e.message);
    assert(outcome === 0, `${outcome}`);
    await tab.close();
  });
} finally {
  await context.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
