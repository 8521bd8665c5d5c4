// A scripted HTTP peer for the model adapters' page tests: a page registers a scenario (the replies
// to give, in order: status, content type, body or fixture file, chunk size, delays, a cut), points a
// model's baseUrl at /replay/s/<id>, and later reads back the requests the model really sent.
// Bodies go out in separately flushed chunks, so boundaries fall inside JSON and inside UTF-8.
import { readFile } from 'node:fs/promises';

const FIXTURES = new URL('../fixtures/models/', import.meta.url);
const scenarios = new Map();
let next = 1;

async function readBody(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

async function bodyOf(reply) {
  if (reply.fixture) {
    if (!/^[\w.-]+$/.test(reply.fixture)) throw new Error(`bad fixture name ${reply.fixture}`);
    return readFile(new URL(reply.fixture, FIXTURES));
  }
  return Buffer.from(reply.body ?? '', 'utf8');
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function answer(scenario, req, res) {
  const body = await readBody(req);
  const record = { method: req.method, url: req.url, headers: req.headers, body, aborted: false };
  scenario.requests.push(record);
  // The client hanging up before the end (an aborted fetch) is recorded for the tests to see.
  res.on('close', () => {
    if (!res.writableFinished) record.aborted = true;
  });
  const reply = scenario.replies.shift();
  if (!reply) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    return res.end('replay: no reply left');
  }
  const bytes = await bodyOf(reply);
  res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/event-stream', 'cache-control': 'no-store' });
  const size = reply.chunkSize ?? bytes.length;
  const end = reply.cutAfter ?? bytes.length;
  res.flushHeaders();
  for (let at = 0; at < end && !record.aborted; at += size) {
    // Waiting for each write to be flushed keeps chunk boundaries real and lets a cut come after them.
    await new Promise((ok) => res.write(bytes.subarray(at, Math.min(at + size, end)), ok));
    if (reply.delayMs) await sleep(reply.delayMs);
  }
  // A cut is a connection destroyed mid-body: the browser's reader fails instead of ending.
  if (reply.cutAfter !== undefined) res.destroy();
  else res.end();
}

/** Handles /replay/… requests; returns false for anything else. */
export async function replay(req, res) {
  const url = new URL(req.url, 'http://x');
  if (req.method === 'POST' && url.pathname === '/replay/scenario') {
    const id = String(next++);
    scenarios.set(id, { replies: JSON.parse((await readBody(req)) || '{}').replies ?? [], requests: [] });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, baseUrl: `/replay/s/${id}` }));
    return true;
  }
  const requests = url.pathname.match(/^\/replay\/requests\/(\d+)$/);
  if (requests) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(scenarios.get(requests[1])?.requests ?? null));
    return true;
  }
  const scripted = url.pathname.match(/^\/replay\/s\/(\d+)\//);
  if (scripted && scenarios.has(scripted[1])) {
    await answer(scenarios.get(scripted[1]), req, res);
    return true;
  }
  return false;
}
