// Smoke test of the A2A peers' real wire behaviour, for every {peer × version × binding} cell they
// serve: streaming, non-streaming, get, cancel, resubscribe, CORS, and the proxy's cuts.
//   node tests/a2a/smoke.mjs            checks only
//   node tests/a2a/smoke.mjs --record   also rewrites tests/fixtures/a2a/recorded/ with the raw
//                                       bytes received (and the 10 000-chunk stream)
// The request shapes below are the ones tests/a2a/README.md documents.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startPeers } from './peers.mjs';

const RECORD = process.argv.includes('--record') || process.env.A2A_RECORD === '1';
const OUT = new URL('../fixtures/a2a/recorded/', import.meta.url);
const RECORD_LIMIT = 3_000_000;
const SDK_TEXT = '안녕하세요 👋 A2A 세계 🌏!';
const EXT_V2 = 'https://google.github.io/adk-docs/a2a/a2a-extension/';

let n = 0;
const mid = () => `smoke-${++n}`;
const JSON_CT = { 'Content-Type': 'application/json' };
const V1 = { 'A2A-Version': '1.0' };
const rpc = (method, params, headers = {}) => ({
  method: 'POST',
  path: '/',
  headers: { ...JSON_CT, ...headers },
  body: { jsonrpc: '2.0', id: mid(), method, params },
});
const rest = (method, path, body, headers = {}) => ({
  method,
  path,
  headers: body ? { ...JSON_CT, ...headers } : headers,
  body,
});
const v1Message = (text, extra = {}) => ({ messageId: mid(), role: 'ROLE_USER', parts: [{ text }], ...extra });

// One entry per cell: how to ask for each operation, and how to read what comes back.
const CELLS = {
  'v1-jsonrpc': {
    send: (text) => rpc('SendMessage', { message: v1Message(text) }, V1),
    stream: (text, h) => rpc('SendStreamingMessage', { message: v1Message(text) }, { ...V1, ...h }),
    get: (id) => rpc('GetTask', { id }, V1),
    cancel: (id) => rpc('CancelTask', { id }, V1),
    subscribe: (id) => rpc('SubscribeToTask', { id }, V1),
    unwrap: (j) => j.result,
    event: v1Event,
  },
  'v1-rest': {
    send: (text) => rest('POST', '/message:send', { message: v1Message(text) }, V1),
    stream: (text) => rest('POST', '/message:stream', { message: v1Message(text) }, V1),
    get: (id) => rest('GET', `/tasks/${id}`, null, V1),
    cancel: (id) => rest('POST', `/tasks/${id}:cancel`, {}, V1),
    subscribe: (id) => rest('GET', `/tasks/${id}:subscribe`, null, V1),
    unwrap: (j) => j,
    event: v1Event,
  },
  'v03-jsonrpc': {
    send: (text) => rpc('message/send', { message: v03Message(text) }),
    stream: (text) => rpc('message/stream', { message: v03Message(text) }),
    get: (id) => rpc('tasks/get', { id }),
    cancel: (id) => rpc('tasks/cancel', { id }),
    subscribe: (id) => rpc('tasks/resubscribe', { id }),
    unwrap: (j) => j.result,
    event: v03Event,
  },
  'v03-rest': {
    send: (text) => rest('POST', '/v1/message:send', { message: v03RestMessage(text) }),
    stream: (text) => rest('POST', '/v1/message:stream', { message: v03RestMessage(text) }),
    get: (id) => rest('GET', `/v1/tasks/${id}`),
    cancel: (id) => rest('POST', `/v1/tasks/${id}:cancel`, {}),
    subscribe: (id) => rest('GET', `/v1/tasks/${id}:subscribe`),
    unwrap: (j) => j,
    event: v1Event, // v0.3 REST is proto JSON too: same envelope, `content` instead of `parts`
    canceled: 'cancelled', // the v0.3 proto spells it TASK_STATE_CANCELLED
  },
};

function v03Message(text) {
  return { kind: 'message', messageId: mid(), role: 'user', parts: [{ kind: 'text', text }] };
}
function v03RestMessage(text) {
  return { messageId: mid(), role: 'ROLE_USER', content: [{ text }] };
}

// Each event as a short word, e.g. `task:submitted`, `status:working`, `artifact+append+last`,
// plus its id and text, so sequences read like the README's.
function v1Event(e) {
  const [kind, body] = Object.entries(e)[0];
  const parts = (p) => (p?.parts ?? p?.content ?? []).map((x) => x.text ?? '').join('');
  if (kind === 'task') return { word: `task:${state(body.status)}`, id: body.id, text: '' };
  if (kind === 'statusUpdate')
    return { word: `status:${state(body.status)}`, id: body.taskId, text: parts(body.status.message) };
  if (kind === 'artifactUpdate')
    return { word: artifactWord(body), id: body.taskId, text: parts(body.artifact) };
  return { word: kind, id: body.taskId, text: parts(body) };
}
function v03Event(e) {
  const text = (p) => (p?.parts ?? []).map((x) => x.text ?? '').join('');
  if (e.kind === 'task') return { word: `task:${state(e.status)}`, id: e.id, text: '' };
  if (e.kind === 'status-update') return { word: `status:${state(e.status)}`, id: e.taskId, text: text(e.status.message) };
  if (e.kind === 'artifact-update') return { word: artifactWord(e), id: e.taskId, text: text(e.artifact) };
  return { word: e.kind, id: e.taskId, text: text(e) };
}
const state = (s) => s.state.replace(/^TASK_STATE_/, '').toLowerCase().replace('_', '-');
const artifactWord = (a) => `artifact${a.append ? '+append' : ''}${a.lastChunk ? '+last' : ''}`;

async function call(base, req, signal) {
  return fetch(base + req.path, {
    method: req.method,
    headers: req.headers,
    body: req.body ? JSON.stringify(req.body) : undefined,
    signal,
  });
}

// Reads a body to its end or to the error that ends it, keeping the bytes that did arrive.
async function readAll(res, onChunk) {
  const chunks = [];
  let error = null;
  try {
    for await (const c of res.body) {
      chunks.push(c);
      onChunk?.(Buffer.concat(chunks));
    }
  } catch (e) {
    error = e;
  }
  return { bytes: Buffer.concat(chunks), error };
}

function sseData(bytes) {
  return bytes
    .toString('utf8')
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()))
    .filter((lines) => lines.length)
    .map((lines) => JSON.parse(lines.join('\n')));
}

async function stream(base, cell, req) {
  const res = await call(base, req);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/event-stream/);
  const { bytes, error } = await readAll(res);
  assert.equal(error, null);
  const events = sseData(bytes).map((j) => cell.event(cell.unwrap(j)));
  return { bytes, events, words: events.map((e) => e.word) };
}

function record(name, data) {
  if (!RECORD) return;
  mkdirSync(OUT, { recursive: true });
  writeFileSync(new URL(name, OUT), data);
}

const json = async (res) => {
  const text = await res.text();
  return { text, body: JSON.parse(text) };
};

let peers;
before(async () => {
  peers = await startPeers({ which: ['sdk', 'adk', 'proxy'] });
});
after(() => peers?.stop());

const SDK_SEQUENCE = ['task:submitted', 'status:working', 'artifact', 'artifact+append+last', 'status:completed'];

describe('sdk peer (a2a-sdk 1.3.0)', () => {
  test('agent card: v1.0 supportedInterfaces and the v0.3 fields', async () => {
    const { text, body } = await json(await fetch(`${peers.sdkUrl}/.well-known/agent-card.json`));
    const ifaces = body.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`);
    assert.deepEqual(ifaces, ['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
    assert.equal(body.protocolVersion, '0.3');
    assert.equal(body.url, peers.sdkUrl);
    assert.equal(body.preferredTransport, 'JSONRPC');
  });

  for (const [name, cell] of Object.entries(CELLS)) {
    describe(name, () => {
      test('stream: submitted, working, two artifact chunks, completed', async () => {
        const { bytes, events, words } = await stream(peers.sdkUrl, cell, cell.stream('hello'));
        assert.deepEqual(words, SDK_SEQUENCE);
        const chunks = events.filter((e) => e.word.startsWith('artifact')).map((e) => e.text);
        assert.equal(chunks.join(''), SDK_TEXT);
      });

      test('send (non-streaming) returns the completed task', async () => {
        const res = await call(peers.sdkUrl, cell.send('hello'));
        assert.equal(res.status, 200);
        const { text, body } = await json(res);
        const result = cell.unwrap(body);
        const task = result.task ?? result; // v1.0 wraps it in {task}, v0.3 JSON-RPC does not
        assert.equal(state(task.status), 'completed');
      });

      test('subscribe replays the task snapshot, then live events; cancel ends in canceled', async () => {
        const first = await call(peers.sdkUrl, cell.stream('slow:400 chunks:20'));
        let seen;
        const idKnown = new Promise((resolve) => (seen = resolve));
        const firstRead = readAll(first, (bytes) => seen(firstEvent(bytes, cell)?.id));
        firstRead.then(() => seen(null));
        const id = await idKnown;
        assert.ok(id, 'the stream starts with an event naming the task');
        await sleep(900); // so the snapshot a subscriber gets differs from the first event
        const sub = await call(peers.sdkUrl, cell.subscribe(id));
        assert.match(sub.headers.get('content-type'), /^text\/event-stream/);
        const subRead = readAll(sub);
        await sleep(500);

        const cancel = await json(await call(peers.sdkUrl, cell.cancel(id)));
        const canceled = cell.canceled ?? 'canceled';
        assert.equal(state(cell.unwrap(cancel.body).status), canceled);

        const subWords = sseData((await subRead).bytes).map((j) => cell.event(cell.unwrap(j)).word);
        assert.equal(subWords[0], 'task:working', 'a resubscribe starts with the current task');
        assert.equal(subWords.at(-1), `status:${canceled}`);
        const firstWords = sseData((await firstRead).bytes).map((j) => cell.event(cell.unwrap(j)).word);
        assert.equal(firstWords.at(-1), `status:${canceled}`);

        const got = await json(await call(peers.sdkUrl, cell.get(id)));
        assert.equal(state(cell.unwrap(got.body).status), canceled);
      });
    });
  }

  test('fail: failed status with a message after the first chunk', async () => {
    const cell = CELLS['v1-jsonrpc'];
    const { bytes, events, words } = await stream(peers.sdkUrl, cell, cell.stream('fail'));
    assert.deepEqual(words, ['task:submitted', 'status:working', 'artifact', 'status:failed']);
    assert.match(events.at(-1).text, /failed on purpose/);
  });

  test('input: ends in input-required; a follow-up on the task completes it', async () => {
    const cell = CELLS['v1-jsonrpc'];
    const { events, words } = await stream(peers.sdkUrl, cell, cell.stream('input echo 안녕 😀'));
    assert.equal(words.at(-1), 'status:input-required');
    assert.equal(events[2].text, 'input echo 안녕 😀');
    const follow = rpc('SendStreamingMessage', { message: v1Message('more', { taskId: events[0].id }) }, V1);
    const next = await stream(peers.sdkUrl, cell, follow);
    assert.deepEqual(next.words, SDK_SEQUENCE.slice(1));
  });

  test('chunks:200 streams 200 artifact chunks', async () => {
    const cell = CELLS['v1-rest'];
    const { words } = await stream(peers.sdkUrl, cell, cell.stream('chunks:200'));
    assert.equal(words.filter((w) => w.startsWith('artifact')).length, 200);
    assert.equal(words.at(-2), 'artifact+append+last');
  });

  test('a v1.0 method without A2A-Version is refused as version 0.3', async () => {
    const req = rpc('SendStreamingMessage', { message: v1Message('hello') });
    const { text, body } = await json(await call(peers.sdkUrl, req));
    assert.equal(body.error.code, -32009);
  });

  test(
    'chunks:10000 (recorded only with --record, if small enough)',
    { skip: !RECORD && 'benchmark fixture: run with --record' },
    async () => {
      const cell = CELLS['v1-jsonrpc'];
      const { bytes, words } = await stream(peers.sdkUrl, cell, cell.stream('chunks:10000'));
      assert.equal(words.length, 10_003);
      console.log(`# 10k stream: ${bytes.length} bytes`);
      if (bytes.length < RECORD_LIMIT) record('sdk-v1-jsonrpc-10k.sse', bytes);
    },
  );
});

describe('adk peer (google-adk 2.13.0 to_a2a)', () => {
  const ADK_SEQUENCE = [
    'task:submitted',
    'status:working',
    'status:working',
    'status:working',
    'status:working',
    'artifact+last',
    'status:completed',
  ];

  test('agent card: one JSONRPC 1.0 interface and no v0.3 fields', async () => {
    const { text, body } = await json(await fetch(`${peers.adkUrl}/.well-known/agent-card.json`));
    assert.deepEqual(body.supportedInterfaces, [{ url: peers.adkUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
    assert.equal(body.url, undefined);
    record('adk.card.json', text);
  });

  for (const name of ['v1-jsonrpc', 'v03-jsonrpc']) {
    const cell = CELLS[name];
    test(`${name} stream: partial ADK events arrive as working status messages`, async () => {
      const { bytes, events, words } = await stream(peers.adkUrl, cell, cell.stream('hi 안녕'));
      assert.deepEqual(words, ADK_SEQUENCE);
      assert.deepEqual(
        events.slice(2, 4).map((e) => e.text),
        ['안녕하세요 👋 ', 'you said: hi 안녕'],
      );
      assert.equal(events[5].text, '안녕하세요 👋 you said: hi 안녕 🌏');
      record(`adk-${name}-stream.sse`, bytes);
    });

    test(`${name} send (non-streaming)`, async () => {
      const { text, body } = await json(await call(peers.adkUrl, cell.send('hi')));
      const result = cell.unwrap(body);
      assert.equal(state((result.task ?? result).status), 'completed');
      record(`adk-${name}-send.json`, text);
    });
  }

  test('v1-jsonrpc with the ADK extension: partial events become artifact chunks', async () => {
    const cell = CELLS['v1-jsonrpc'];
    const req = cell.stream('hi', { 'A2A-Extensions': EXT_V2 });
    const { bytes, words } = await stream(peers.adkUrl, cell, req);
    assert.deepEqual(words, ['task:submitted', 'status:working', 'artifact', 'artifact+append', 'artifact+last', 'status:completed']);
    record('adk-v1-jsonrpc-ext-stream.sse', bytes);
  });

  test('no HTTP+JSON binding', async () => {
    const res = await call(peers.adkUrl, CELLS['v1-rest'].stream('hi'));
    assert.equal(res.status, 404);
  });
});

describe('CORS', () => {
  for (const peer of ['sdk', 'adk', 'proxy']) {
    test(`${peer}: preflight admits A2A-Version, Authorization, Content-Type; responses expose headers`, async () => {
      const base = peers[`${peer}Url`];
      const pre = await fetch(`${base}/`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://127.0.0.1:9',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'a2a-version, authorization, content-type',
        },
      });
      assert.equal(pre.status, 200);
      assert.equal(pre.headers.get('access-control-allow-origin'), '*');
      assert.match(pre.headers.get('access-control-allow-methods'), /POST/);
      for (const h of ['a2a-version', 'authorization', 'content-type']) {
        assert.match(pre.headers.get('access-control-allow-headers').toLowerCase(), new RegExp(h));
      }
      const res = await fetch(`${base}/.well-known/agent-card.json`, { headers: { Origin: 'http://127.0.0.1:9' } });
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('access-control-expose-headers'), /A2A-Version/);
      await res.body.cancel();
    });
  }
});

describe('proxy', () => {
  const cell = CELLS['v1-rest'];

  test('card URLs point at the proxy, keeping a /cut/ prefix', async () => {
    const plain = (await json(await fetch(`${peers.proxyUrl}/.well-known/agent-card.json`))).body;
    assert.ok(plain.supportedInterfaces.every((i) => i.url === peers.proxyUrl));
    const cut = (await json(await fetch(`${peers.proxyUrl}/cut/10/.well-known/agent-card.json`))).body;
    assert.ok(cut.supportedInterfaces.every((i) => i.url === `${peers.proxyUrl}/cut/10`));
  });

  test('/cut/<offset>/ ends the stream after exactly that many bytes', async () => {
    const res = await call(peers.proxyUrl, { ...cell.stream('hello'), path: '/cut/300/message:stream' });
    assert.equal(res.status, 200);
    const { bytes, error } = await readAll(res);
    assert.equal(bytes.length, 300);
    assert.ok(error, 'the body ends in an error, not a clean end');
  });

  test('POST /__faults cuts the next streaming responses in order, then passes through', async () => {
    await fetch(`${peers.proxyUrl}/__faults`, { method: 'DELETE' });
    const set = await fetch(`${peers.proxyUrl}/__faults`, { method: 'POST', body: JSON.stringify({ cuts: [0, 700] }) });
    assert.deepEqual((await set.json()).pending, [0, 700]);
    const sizes = [];
    for (let i = 0; i < 3; i++) {
      const { bytes, error } = await readAll(await call(peers.proxyUrl, cell.stream('hello')));
      sizes.push(error ? bytes.length : 'whole');
    }
    assert.deepEqual(sizes, [0, 700, 'whole']);
    const state = await (await fetch(`${peers.proxyUrl}/__faults`)).json();
    assert.deepEqual(state.done.map((d) => d.offset), [0, 700]);
  });
});

// The first complete SSE event of a stream still being read, or null before it has arrived.
function firstEvent(bytes, cell) {
  const text = bytes.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return end < 0 ? null : cell.event(cell.unwrap(sseData(Buffer.from(text.slice(0, end)))[0]));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
