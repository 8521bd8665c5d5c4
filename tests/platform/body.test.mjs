// src/platform/body.js, the body reader of the entries without the A2A client (adk-wasm/server), in
// Node: its server-sent-event framing held to the vectors adk-core's native parser is tested with
// (crates/adk-core/src/sse/tests.rs: line endings, UTF-8 and lines cut anywhere, comments, ids,
// retry, the BOM, the size cap, a stream cut inside an event, the recorded streams split
// everywhere), and its text decoding to HttpResponse::text's (lossy, the BOM kept, the size cap).
// The adk_server browser page runs it against real ADK servers (`&entry=server`). Run with
// `node tests/platform/body.test.mjs` (node:test).
import { deepStrictEqual } from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { events, text } from '../../src/platform/body.js';

const ROOT = new URL('../../', import.meta.url);
const utf8 = (s) => new TextEncoder().encode(s);
const MAX = 16 << 20;

function reader(chunks) {
  let i = 0;
  return { read: async () => (i < chunks.length ? { done: false, value: chunks[i++] } : { done: true }), cancel: async () => {} };
}

/** The events of `chunks` as [type, data, id, retry], or the framing error. */
async function parse(chunks, max = MAX) {
  const source = events(reader(chunks), max);
  const out = [];
  for (;;) {
    const { done, value } = await source.read();
    if (done) return out;
    if (typeof value === 'number') return value === 0 ? 'too large' : 'cut';
    const fields = value.split('\r');
    for (let i = 0; i + 4 < fields.length; i += 4) out.push([fields[i], fields[i + 3], fields[i + 1], fields[i + 2]]);
  }
}

/** Every way of cutting `bytes` in two and in three gives the same events as one chunk. */
async function sameForEverySplit(bytes, { threes = true } = {}) {
  const whole = JSON.stringify(await parse([bytes]));
  for (let i = 0; i <= bytes.length; i++) {
    equal(await parse([bytes.subarray(0, i), bytes.subarray(i)]), JSON.parse(whole), `split at ${i}`);
    for (let j = i; threes && j <= bytes.length; j++) {
      equal(await parse([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]), JSON.parse(whole), `split at ${i},${j}`);
    }
  }
  return JSON.parse(whole);
}

const equal = (actual, expected, what) => deepStrictEqual(actual, expected, what);
const ev = (type, data, id = '', retry = '') => [type, data, id, retry];

test('line endings: LF, CRLF, a lone CR', async () => {
  for (const nl of ['\n', '\r\n', '\r']) {
    const s = utf8(`data: a${nl}data: b${nl}${nl}event: x${nl}data: c${nl}${nl}`);
    equal(await sameForEverySplit(s), [ev('message', 'a\nb'), ev('x', 'c')], JSON.stringify(nl));
  }
});

test('UTF-8 cut inside a sequence', async () => {
  equal(await sameForEverySplit(utf8('data: 안녕하세요 😀\n\n')), [ev('message', '안녕하세요 😀')], 'utf8');
});

test('comments, ids, retry, the BOM', async () => {
  const s = utf8('\uFEFF: keep-alive\nid: 7\nretry: 3000\ndata:{"x":1}\n\n:ping\n\ndata: next\n\n');
  equal(await sameForEverySplit(s), [ev('message', '{"x":1}', '7', '3000'), ev('message', 'next', '7', '3000')], 'the last id and retry carry over');
});

test('the format\'s details', async () => {
  equal(await parse([utf8('data\n\ndata:x\nfoo: bar\nid: a\0b\n\nevent: only-type\n\n')]), [ev('message', ''), ev('message', 'x')], 'no colon, unknown field, NUL id, no data');
  equal((await parse([utf8('data:  two\n\n')]))[0][1], ' two', 'only the first space goes');
  equal((await parse([utf8('retry: 1a\ndata: x\n\n')]))[0][3], '', 'retry is digits only');
});

test('a clean end and a cut one', async () => {
  equal(await parse([utf8('data: a\n\n')]), [ev('message', 'a')], 'clean');
  equal(await parse([utf8(': just a comment\n')]), [], 'a comment');
  equal(await parse([utf8(': just a comment')]), [], 'a comment without its line break');
  for (const cut of ['data: a\n', 'data: a\n\ndata: partial', 'event: x\n']) equal(await parse([utf8(cut)]), 'cut', cut);
  const frame = (id, end) => `data: {"task":{"id":"${id}","contextId":"ctx-你好"}}${end}`;
  equal(await parse([utf8(frame('task-1', '\n\n') + frame('task-2', '\n'))]), 'cut', 'the complete event, then the cut');
  const source = events(reader([utf8(frame('task-1', '\n\n') + frame('task-2', '\n'))]), MAX);
  equal(typeof (await source.read()).value, 'string', 'the complete event before the cut one is delivered');
  equal((await source.read()).value, 1, '…then the cut');
  equal((await sameForEverySplit(utf8(frame('task-2', '\r\n\r\n')))).length, 1, 'CRLF');
});

test('the size cap', async () => {
  equal(await parse([utf8('data: 0123456789abcdef\n')], 16), 'too large', 'a line');
  equal(await parse([utf8('data: 01234567\ndata: 01234567\n')], 16), 'too large', 'an event');
  equal(await parse([utf8('data: 01234567'), utf8('89abcdef')], 16), 'too large', 'a long partial line');
  const bytes = (s) => [...utf8(s)].map((b) => Uint8Array.of(b));
  equal(await parse(bytes('data: 1234\rdata: 5678\r\r'), 10), [ev('message', '1234\n5678')], 'within, a byte at a time');
  equal(await parse(bytes('data: 1234\rdata: 5678\rdata: 90\r\r'), 10), 'too large', 'over, a byte at a time');
  equal(await parse([utf8(`data: ${'é'.repeat(6)}\n\n`)], 16), 'too large', 'counted in bytes where it matters');
});

test('a2a-js\'s vectors', async () => {
  equal(await sameForEverySplit(utf8('event: update\rdata: first\r\ndata: second\n\rdata: third\r\n\r\n')), [ev('update', 'first\nsecond'), ev('message', 'third')], 'mixed');
  equal(await parse([utf8('data: ready\r\r')]), [ev('message', 'ready')], 'CR CR');
});

test('invalid UTF-8 is replaced in values and matches no field', async () => {
  const s = Uint8Array.from([...utf8('data: a'), 0xff, ...utf8(':b'), 0xf0, 0x9f, 10, 0xff, ...utf8('data: x\nevent: '), 0xc3, 10, 10]);
  equal(await parse([s]), [ev('\uFFFD', 'a\uFFFD:b\uFFFD')], 'invalid');
});

test('recorded Gemini, OpenAI and A2A streams split everywhere', async () => {
  for (const file of ['models/gemini-stream-text.sse', 'models/openai-stream-tools.sse', 'a2a/v10-jsonrpc-stream.sse', 'a2a/v03-rest-stream.sse']) {
    const bytes = new Uint8Array(readFileSync(new URL(`tests/fixtures/${file}`, ROOT)));
    const whole = await sameForEverySplit(bytes, { threes: false });
    if (whole.length < 3) throw new Error(`${file}: ${whole.length} events`);
  }
});

test('text: lossy UTF-8 across chunks, the BOM kept, the size cap', async () => {
  equal(await text(reader([Uint8Array.of(0x68, 0xc3), Uint8Array.of(0xa9)]), 100), 'h\u00e9', 'a sequence across chunks');
  equal(await text(reader([Uint8Array.of(0x61, 0xff)]), 100), 'a\uFFFD', 'invalid');
  equal(await text(reader([utf8('\uFEFF{}')]), 100), '\uFEFF{}', 'the BOM');
  equal(await text(reader([utf8('12345'), utf8('678')]), 8), '12345678', 'at the cap');
  equal(await text(reader([utf8('12345'), utf8('678')]), 7), null, 'over it');
});
