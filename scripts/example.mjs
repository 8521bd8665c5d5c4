// `make example`: the React chat of examples/react-chat (Vite's dev server) with a real `adk api_server`
// (google-adk 2.13.0 over tests/adk_server/agents, whose `weather` app the chat's "ADK server" source
// talks to) beside it. Installs the example's dependencies first (a no-op once current). Ctrl-C stops both.
import { createServer } from 'vite';
import { installExample } from './example-install.mjs';
import { startAdkServers } from '../tests/adk_server/servers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const APP = `${ROOT}examples/react-chat`;

installExample();
const adk = await startAdkServers({ versions: ['2.13.0'] }).catch((e) => {
  console.error(`the ADK server did not start (the "ADK server" source will need another one): ${e.message}`);
  return null;
});
const vite = await createServer({ root: APP, configFile: `${APP}/vite.config.js`, server: { port: Number(process.env.PORT ?? 5173) } });
await vite.listen();
const page = new URL(vite.resolvedUrls.local[0]);
if (adk) page.searchParams.set('server', adk.urls['2.13.0']);
console.log(`adk-wasm React chat: ${page}   (Ctrl-C to stop)`);
if (adk) console.log(`ADK server (google-adk 2.13.0, apps of tests/adk_server/agents): ${adk.urls['2.13.0']}`);
const stop = async () => {
  await Promise.all([vite.close(), adk?.stop()]);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
