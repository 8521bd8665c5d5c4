// `make demo`: serves the repository root (www/ and the freshly built pkg/) on 127.0.0.1.
import { serve } from './serve.mjs';

const port = Number(process.env.PORT ?? 8080);
const server = await serve(new URL('..', import.meta.url).pathname, port).catch((e) => {
  console.error(e.code === 'EADDRINUSE' ? `port ${port} is in use: run PORT=<another port> make demo` : e.message);
  process.exit(1);
});
console.log(`adk-wasm demo: http://127.0.0.1:${server.address().port}/www/   (Ctrl-C to stop)`);
