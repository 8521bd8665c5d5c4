// A static file server for the demo and the page tests: 127.0.0.1 only, correct MIME types
// (application/wasm matters for streaming compilation), no directory escape.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.d.ts': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Serves `root` on 127.0.0.1:`port` (0 = any free port); resolves to the listening server. Each of
 * `handlers` (async (req, res) => handled) gets a request before the files do.
 */
export function serve(root, port = 0, handlers = []) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      for (const handle of handlers) if (await handle(req, res)) return;
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { status: 403 });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch (e) {
      res.writeHead(e.status ?? (e.code === 'ENOENT' ? 404 : 500), { 'content-type': 'text/plain' });
      res.end(String(e.message));
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root = '.', port = '8080'] = process.argv.slice(2);
  const server = await serve(root, Number(port));
  console.log(`serving ${resolve(root)} at http://127.0.0.1:${server.address().port}/`);
}
