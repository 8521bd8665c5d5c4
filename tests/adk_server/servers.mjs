// Starts ADK Python's `adk api_server` on 127.0.0.1, once per google-adk version, serving the
// deterministic agents of tests/adk_server/agents/ (story, weather, failing, slow; no model key, no
// network), for test runners and the fixture recorder:
//   const { urls, stop } = await startAdkServers({ versions: ['2.13.0', '1.39.1'] });
//   urls['2.13.0'] → 'http://127.0.0.1:PORT'; await stop();
// Each version's venv (.venv/adk-<version>, pinned by requirements-<version>.txt) is installed first,
// a no-op once it is current. Sessions, artifacts and memory are in memory (nothing is written
// under the agents directory); cross-origin requests are allowed from any http://127.0.0.1:<port>.
// The port is the one uvicorn reports after binding port 0. Children die with this process.
//
// CLI: node tests/adk_server/servers.mjs [VERSION...]   starts them (default: all), prints their
//      URLs, runs until Ctrl-C.
import { pathToFileURL } from 'node:url';
import { childGroup, installVenv, ROOT, waitForOk } from '../common/processes.mjs';

export const VERSIONS = ['2.13.0', '1.39.1'];
/** The --allow_origins value the servers get: any page served from http://127.0.0.1:<port>. */
export const ALLOW_ORIGINS = 'regex:^http://127\\.0\\.0\\.1:[0-9]+$';
const AGENTS_DIR = 'tests/adk_server/agents';
const READY_PATH = '/list-apps';

/** `oidc`: the OpenID provider the `asking` agent's `whoami` signs in at (scripts/oidc.mjs), if any. */
export async function startAdkServers({ versions = VERSIONS, timeoutMs = 120_000, oidc } = {}) {
  const unknown = versions.filter((v) => !VERSIONS.includes(v));
  if (unknown.length) throw new Error(`no adk api_server setup for ${unknown.join(', ')} (known: ${VERSIONS.join(', ')})`);
  const children = childGroup();
  try {
    for (const v of versions) {
      await installVenv(`adk-${v}`, `tests/adk_server/requirements-${v}.txt`, 'import google.adk.cli.fast_api, uvicorn');
    }
    const urls = Object.fromEntries(
      await Promise.all(versions.map(async (v) => [v, await startServer(v, children, timeoutMs, oidc)])),
    );
    return { urls, stop: children.stop };
  } catch (e) {
    await children.stop();
    throw e;
  }
}

async function startServer(version, children, timeoutMs, oidc) {
  const args = [
    'api_server',
    '--host', '127.0.0.1',
    '--port', '0',
    '--no-reload',
    // In-memory services: the default (local storage) would write .adk/ under each agent.
    '--session_service_uri', 'memory://',
    '--artifact_service_uri', 'memory://',
    '--allow_origins', ALLOW_ORIGINS,
    AGENTS_DIR,
  ];
  const { child, stderr } = children.spawn(`${ROOT}.venv/adk-${version}/bin/adk`, args, {
    env: {
      // No __pycache__ in tests/adk_server/agents.
      PYTHONDONTWRITEBYTECODE: '1',
      // google-api-core's Python end-of-life notices and ADK's [EXPERIMENTAL] notices, at every
      // start, would push the lines that matter out of the stderr tail shown on failure.
      PYTHONWARNINGS: 'ignore::FutureWarning,ignore:[EXPERIMENTAL]',
      // Set in the caller's environment these would change routing and the services chosen.
      ADK_DEFAULT_APP_NAME: '',
      ...(oidc && { ADK_TEST_OIDC: oidc }),
      GOOGLE_CLOUD_AGENT_ENGINE_ID: '',
    },
  });
  const fail = (why) =>
    new Error(`adk api_server ${version} (.venv/adk-${version}) ${why}\n--- its stderr ---\n${stderr() || '(empty)'}`);

  const deadline = Date.now() + timeoutMs;
  // uvicorn logs the bound address, with the port it was given by the OS, to stderr.
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(fail(`did not report its address within ${timeoutMs} ms`)), timeoutMs);
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      const m = /Uvicorn running on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        child.stderr.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stderr.on('data', onData);
    // 'close', not 'exit': it waits for stderr to drain, so the error shows the server's last words.
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      reject(fail(`exited (${code ?? sig}) before it was ready`));
    });
  });
  await waitForOk(url + READY_PATH, { child, deadline, fail });
  return url;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const versions = process.argv.slice(2);
  const { urls } = await startAdkServers(versions.length ? { versions } : {});
  for (const [v, url] of Object.entries(urls)) console.log(`google-adk ${v.padEnd(7)} ${url}`);
  console.log(`agents: ${AGENTS_DIR} (story, weather, failing, slow); origins allowed: ${ALLOW_ORIGINS}`);
  console.log('Ctrl-C stops them.');
}
