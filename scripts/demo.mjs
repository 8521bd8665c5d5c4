// `make demo`: serves the repository root (www/ and the freshly built pkg/) on 127.0.0.1, with a real
// A2A peer (a2a-sdk) beside it so the demo's A2A tab works out of the box. Ctrl-C stops both.
import { serve } from './serve.mjs';
import { startPeers } from '../tests/a2a/peers.mjs';

const port = Number(process.env.PORT ?? 8080);
const server = await serve(new URL('..', import.meta.url).pathname, port).catch((e) => {
  console.error(e.code === 'EADDRINUSE' ? `port ${port} is in use: run PORT=<another port> make demo` : e.message);
  process.exit(1);
});
const peers = await startPeers({ which: ['sdk'] }).catch((e) => {
  console.error(`the A2A peer did not start (the A2A tab will need another server): ${e.message}`);
  return null;
});
const page = `http://127.0.0.1:${server.address().port}/www/`;
console.log(`adk-wasm demo: ${peers ? `${page}?a2a=${encodeURIComponent(peers.sdkUrl)}` : page}   (Ctrl-C to stop)`);
if (peers) console.log(`A2A peer (a2a-sdk 1.3.0): ${peers.sdkUrl}`);
