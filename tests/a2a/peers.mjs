// Starts the real A2A test peers on 127.0.0.1 for test runners and `make demo`:
//   const peers = await startPeers({ which: ['sdk', 'adk', 'proxy'] });
//   peers.sdkUrl, peers.adkUrl, peers.proxyUrl; await peers.stop();
// The proxy fronts the sdk peer unless `proxyTarget: 'adk'` is given.
// The Python venv is installed first (a no-op once it is current). Children die with this process.
//
// CLI: node tests/a2a/peers.mjs   starts all three, prints their URLs, runs until Ctrl-C.
import { pathToFileURL } from 'node:url';
import { childGroup, installVenv, readyUrl, ROOT, waitForOk } from '../common/processes.mjs';
import { startProxy } from './proxy.mjs';

const PYTHON = `${ROOT}.venv/a2a/bin/python`;
const SCRIPTS = { sdk: 'tests/a2a/sdk_peer.py', adk: 'tests/a2a/adk_peer.py' };
const CARD_PATH = '/.well-known/agent-card.json';

export async function startPeers({ which = ['sdk', 'adk', 'proxy'], proxyTarget = 'sdk', timeoutMs = 60_000 } = {}) {
  const want = new Set(which);
  if (want.has('proxy')) want.add(proxyTarget);
  const children = childGroup();
  let proxy;

  const stop = async () => {
    await proxy?.close();
    await children.stop();
  };

  try {
    if (want.has('sdk') || want.has('adk')) {
      await installVenv('a2a', 'tests/a2a/requirements.txt', 'import a2a, google.adk.a2a, uvicorn');
    }
    const names = ['sdk', 'adk'].filter((n) => want.has(n));
    const urls = Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, await startPython(n, children, timeoutMs)])),
    );
    if (want.has('proxy')) proxy = await startProxy({ target: urls[proxyTarget] });
    return { sdkUrl: urls.sdk, adkUrl: urls.adk, proxyUrl: proxy?.url, proxyFaults: proxy?.faults, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function startPython(name, children, timeoutMs) {
  const { child, stderr } = children.spawn(PYTHON, [SCRIPTS[name], '--port', '0']);
  const fail = (why) => new Error(`${name} peer (${SCRIPTS[name]}) ${why}\n--- its stderr ---\n${stderr() || '(empty)'}`);

  const deadline = Date.now() + timeoutMs;
  const url = await readyUrl(child, { timeoutMs, fail });

  // READY means the socket accepts; the card answering means the app's startup has finished too.
  await waitForOk(url + CARD_PATH, { child, deadline, fail });
  return url;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const peers = await startPeers();
  console.log(`sdk    ${peers.sdkUrl}   (a2a-sdk 1.3.0: JSON-RPC + HTTP+JSON, v1.0 + v0.3)`);
  console.log(`adk    ${peers.adkUrl}   (google-adk to_a2a: JSON-RPC, v1.0 + v0.3)`);
  console.log(`proxy  ${peers.proxyUrl}   (fault proxy in front of sdk: /cut/<offset>/..., POST /__faults)`);
  console.log('Ctrl-C stops them.');
}
