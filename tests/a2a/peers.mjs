// Starts the real A2A test peers on 127.0.0.1 for test runners and `make demo`:
//   const peers = await startPeers({ which: ['sdk', 'adk', 'proxy'] });
//   peers.sdkUrl, peers.adkUrl, peers.proxyUrl; await peers.stop();
// The proxy fronts the sdk peer unless `proxyTarget: 'adk'` is given.
// The Python venv is installed first (a no-op once it is current). Children die with this process.
//
// CLI: node tests/a2a/peers.mjs   starts all three, prints their URLs, runs until Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startProxy } from './proxy.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = `${ROOT}.venv/a2a/bin/python`;
const SCRIPTS = { sdk: 'tests/a2a/sdk_peer.py', adk: 'tests/a2a/adk_peer.py' };
const CARD_PATH = '/.well-known/agent-card.json';
const STDERR_KEEP = 8000;

export async function startPeers({ which = ['sdk', 'adk', 'proxy'], proxyTarget = 'sdk', timeoutMs = 60_000 } = {}) {
  const want = new Set(which);
  if (want.has('proxy')) want.add(proxyTarget);
  const children = [];
  let proxy;
  const killAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  const onSignal = (sig) => {
    killAll();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', killAll);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const stop = async () => {
    process.off('exit', killAll);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await proxy?.close();
    await Promise.all(children.map(terminate));
  };

  try {
    if (want.has('sdk') || want.has('adk')) installVenv();
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

function installVenv() {
  // stdout stays clean for callers that parse it; the venv script's progress goes to stderr.
  const r = spawnSync('bash', [`${ROOT}scripts/a2a-venv.sh`], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`scripts/a2a-venv.sh failed (exit ${r.status ?? r.signal})`);
}

async function startPython(name, children, timeoutMs) {
  const child = spawn(PYTHON, [SCRIPTS[name], '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s) => (stderr = (stderr + s).slice(-STDERR_KEEP)));
  const fail = (why) => new Error(`${name} peer (${SCRIPTS[name]}) ${why}\n--- its stderr ---\n${stderr || '(empty)'}`);

  const deadline = Date.now() + timeoutMs;
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(fail(`printed no READY line within ${timeoutMs} ms`)), timeoutMs);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const m = /^READY (http:\/\/\S+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    // 'close', not 'exit': it waits for stderr to drain, so the error shows the peer's last words.
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      reject(fail(`exited (${code ?? sig}) before it was ready`));
    });
  });

  // READY means the socket accepts; the card answering means the app's startup has finished too.
  for (;;) {
    try {
      const r = await fetch(url + CARD_PATH);
      if (r.ok) return url;
    } catch {
      // not accepting yet
    }
    if (child.exitCode !== null) throw fail(`exited (${child.exitCode}) before its agent card answered`);
    if (Date.now() > deadline) throw fail(`did not serve ${CARD_PATH} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function terminate(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const peers = await startPeers();
  console.log(`sdk    ${peers.sdkUrl}   (a2a-sdk 1.3.0: JSON-RPC + HTTP+JSON, v1.0 + v0.3)`);
  console.log(`adk    ${peers.adkUrl}   (google-adk to_a2a: JSON-RPC, v1.0 + v0.3)`);
  console.log(`proxy  ${peers.proxyUrl}   (fault proxy in front of sdk: /cut/<offset>/..., POST /__faults)`);
  console.log('Ctrl-C stops them.');
}
