// MCP test server on the official TypeScript SDK (@modelcontextprotocol/sdk 1.32: McpServer over
// its StreamableHTTPServerTransport, one transport per session), the second real peer of the MCP
// tests beside tests/mcp/server.py. Its tools are the Python server's, written as a TypeScript
// server writes them (zod schemas):
//   add(a, b)  describe_city(city, units)  tag_all(tags)  server_time()  red_pixel()  fail_on_purpose()
//   slow(seconds)  cancellations()  echo_header(name)
// `POST /restart` drops every session and open connection, as a restarted server would have none.
// Usage: node tests/mcp/ts_server.mjs [--port N]   (prints `READY http://127.0.0.1:PORT`; MCP at /mcp)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const RED_PIXEL = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000'
  + '1f15c4890000000d49444154789c63f8cfc0f01f0005000201c92ebb8b0000000049454e44ae426082', 'hex').toString('base64');
const cancelled = [];
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const json = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });

function mcpServer() {
  const server = new McpServer({ name: 'adk-wasm-test-ts', version: '1.0.0' });
  server.registerTool('add', {
    description: 'Adds two integers.',
    inputSchema: { a: z.number().int(), b: z.number().int() },
    outputSchema: { result: z.number().int() },
  }, async ({ a, b }) => json({ result: a + b }));
  server.registerTool('describe_city', {
    description: "Describes a city's weather.",
    inputSchema: { city: z.string(), units: z.enum(['metric', 'imperial']).default('metric') },
  }, async ({ city, units }) => json({ city, temperature: units === 'metric' ? 21 : 70, units, sky: '맑음 ☀️' }));
  server.registerTool('tag_all', {
    description: 'Prefixes every tag with #.',
    inputSchema: { tags: z.array(z.string()) },
  }, async ({ tags }) => json({ result: tags.map((t) => `#${t}`) }));
  server.registerTool('server_time', { description: "The server's clock." }, async () => text('2026-11-25T12:00:00Z'));
  server.registerTool('red_pixel', { description: 'A red pixel.' },
    async () => ({ content: [{ type: 'image', data: RED_PIXEL, mimeType: 'image/png' }] }));
  server.registerTool('fail_on_purpose', { description: 'Always fails.' }, async () => {
    throw new Error('failed on purpose 💥');
  });
  server.registerTool('slow', {
    description: 'Sleeps, then answers.',
    inputSchema: { seconds: z.number() },
  }, async ({ seconds }, { signal }) => {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, seconds * 1000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        cancelled.push(seconds);
        reject(new Error('cancelled'));
      });
    });
    return text(`slept ${seconds}s`);
  });
  server.registerTool('cancellations', { description: 'The slow calls cancelled so far.' }, async () => json({ result: cancelled }));
  server.registerTool('echo_header', {
    description: 'The value of one header of this request.',
    inputSchema: { name: z.string() },
  }, async ({ name }, { requestInfo }) => text(String(requestInfo?.headers?.[name.toLowerCase()] ?? '')));
  return server;
}

const transports = new Map();

/** The request's JSON body, or undefined for a GET or DELETE. */
async function body(req) {
  if (req.method !== 'POST') return undefined;
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createServer(async (req, res) => {
  // Pages on any 127.0.0.1 port call it; the session id must be readable across origins.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id');
  if (req.method === 'OPTIONS') return res.writeHead(204).end();
  if (req.url === '/restart' && req.method === 'POST') {
    const open = [...transports.values()];
    transports.clear();
    res.writeHead(204).end(() => {
      open.forEach((t) => t.close());
      http.closeIdleConnections();
    });
    return;
  }
  if (!req.url?.startsWith('/mcp')) return res.writeHead(404).end();
  try {
    const parsed = await body(req);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport && !id && parsed && isInitializeRequest(parsed)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
      });
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
      await mcpServer().connect(transport);
    }
    if (!transport) {
      // An unknown session is 404, as the spec asks: the client begins a new one.
      return res.writeHead(id ? 404 : 400, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: id ? 'Session not found' : 'No session' } }));
    }
    await transport.handleRequest(req, res, parsed);
  } catch (e) {
    if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: String(e) }));
  }
});

const portArg = process.argv.indexOf('--port');
http.listen(portArg > 0 ? Number(process.argv[portArg + 1]) : 0, '127.0.0.1', () => {
  console.log(`READY http://127.0.0.1:${http.address().port}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
