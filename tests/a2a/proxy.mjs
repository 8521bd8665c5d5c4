// A fault-injecting HTTP proxy in front of one A2A peer: it cuts a response's connection after a
// chosen number of body bytes, so tests can see what a client does with a truncated stream.
//
// Two ways to ask for a cut (offsets count body bytes as the client receives them, after
// de-chunking; 0 cuts right after the headers):
//   /cut/<offset>/<path>  forwards /<path> and cuts that response, whatever its type.
//   POST /__faults {"cuts":[120, 4000]}  cuts the next two text/event-stream responses, one
//                  offset each, in order. GET /__faults shows {pending, done, hangups} (hangups:
//                  streams the client closed before their end); DELETE clears.
// The agent card is never cut, and the peer's URLs in it are rewritten to the proxy (keeping a
// /cut/<offset> prefix), so a client that discovers the peer through the card stays behind the
// proxy. Everything else, CORS preflights included, passes through untouched.
//
// CLI: node tests/a2a/proxy.mjs --target http://127.0.0.1:PORT [--port 0]  → `READY <url>`
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HOST = '127.0.0.1';
const CARD_PATH = '/.well-known/agent-card.json';
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
};

export async function startProxy({ target, port = 0 }) {
  const upstream = new URL(target);
  const faults = { pending: [], done: [], hangups: [] };
  let origin;

  const server = http.createServer((req, res) => {
    if (req.url.startsWith('/__faults')) return control(req, res, faults);
    const m = /^\/cut\/(\d+)(\/.*)?$/.exec(req.url);
    const path = m ? m[2] ?? '/' : req.url;
    const prefix = m ? `/cut/${m[1]}` : '';
    forward(req, res, { upstream, path, prefix, origin, faults, pathCut: m ? Number(m[1]) : null });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, resolve);
  });
  origin = `http://${HOST}:${server.address().port}`;
  return {
    url: origin,
    faults,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function control(req, res, faults) {
  const reply = (status, body) => {
    res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  if (req.method === 'OPTIONS') return reply(204);
  if (req.method === 'GET') return reply(200, faults);
  if (req.method === 'DELETE') {
    faults.pending.length = 0;
    faults.done.length = 0;
    faults.hangups.length = 0;
    return reply(200, faults);
  }
  if (req.method !== 'POST') return reply(405, { error: 'use GET, POST or DELETE' });
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (s) => (body += s));
  req.on('end', () => {
    let cuts;
    try {
      cuts = JSON.parse(body).cuts;
    } catch {
      cuts = null;
    }
    if (!Array.isArray(cuts) || !cuts.every((n) => Number.isInteger(n) && n >= 0)) {
      return reply(400, { error: 'body must be {"cuts": [non-negative integer byte offsets]}' });
    }
    faults.pending.push(...cuts);
    reply(200, faults);
  });
}

function forward(req, res, { upstream, path, prefix, origin, faults, pathCut }) {
  const headers = { ...req.headers, host: upstream.host };
  // The card body is rewritten below, which needs it uncompressed.
  delete headers['accept-encoding'];
  const out = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path, headers, agent: false },
    (peer) => {
      const isCard = path.split('?')[0] === CARD_PATH && peer.statusCode === 200;
      if (isCard) return rewriteCard(peer, res, upstream.origin, origin + prefix);
      const isStream = String(peer.headers['content-type']).startsWith('text/event-stream');
      let cut = pathCut;
      if (cut === null && isStream && faults.pending.length) cut = faults.pending.shift();
      res.writeHead(peer.statusCode, peer.headers);
      let cutHere = false;
      // A stream the client hangs up on before its end (an aborted fetch) is noted for the tests.
      if (isStream) res.on('close', () => !res.writableFinished && !cutHere && faults.hangups.push(path));
      if (cut === null) return peer.pipe(res);
      cutAfter(peer, res, cut, () => {
        cutHere = true;
        faults.done.push({ path, offset: cut });
      });
    },
  );
  out.on('error', (e) => {
    if (res.headersSent) return res.destroy();
    res.writeHead(502, { ...CORS, 'content-type': 'text/plain' });
    res.end(`proxy: ${upstream.origin} unreachable: ${e.message}`);
  });
  // A client that goes away must not leave the peer streaming into nothing.
  res.on('close', () => out.destroy());
  req.pipe(out);
}

function cutAfter(peer, res, offset, onCut) {
  let sent = 0;
  const cut = () => {
    peer.destroy();
    onCut();
    res.destroy();
  };
  if (offset === 0) {
    res.flushHeaders();
    return res.socket.write('', cut);
  }
  peer.on('data', (chunk) => {
    const room = offset - sent;
    if (chunk.length < room) {
      sent += chunk.length;
      return res.write(chunk);
    }
    peer.pause();
    // Destroy only once the last allowed bytes are on the wire, or the client would miss them.
    res.write(chunk.subarray(0, room), cut);
  });
  // A response shorter than the offset is not cut; it ends normally.
  peer.on('end', () => res.end());
}

function rewriteCard(peer, res, from, to) {
  const chunks = [];
  peer.on('data', (c) => chunks.push(c));
  peer.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8').replaceAll(from, to);
    const headers = { ...peer.headers, 'content-length': Buffer.byteLength(body) };
    delete headers.etag; // it named the peer's bytes, not these
    res.writeHead(peer.statusCode, headers);
    res.end(body);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { target: { type: 'string' }, port: { type: 'string', default: '0' } } });
  if (!values.target) {
    console.error('usage: node tests/a2a/proxy.mjs --target http://127.0.0.1:PORT [--port N]');
    process.exit(2);
  }
  const proxy = await startProxy({ target: values.target, port: Number(values.port) });
  console.log(`READY ${proxy.url}`);
  const stop = () => proxy.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
