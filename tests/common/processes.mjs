// Helpers for the Node scripts that run Python test servers (tests/a2a/peers.mjs,
// tests/adk_server/servers.mjs, tests/mcp/servers.mjs): installing their venv, spawning children that die with this
// process, keeping each child's stderr tail for error messages, reading the URL it reports ready
// at, polling a URL until it answers,
// and stopping children (SIGTERM, then SIGKILL after 3 s).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STDERR_KEEP = 8000;

/** The installs begun in this process, by venv: two servers of one venv share the one install. */
const installs = new Map();

/**
 * Creates or updates `.venv/<name>` from a requirements file (a no-op once current). Asynchronous:
 * an install takes minutes on a new machine, and a blocked event loop would stall the timers and
 * pipes of servers another caller is starting meanwhile. Callers that ask for the same venv at once
 * (the MCP server and the OpenAPI app) wait for one install: two pips writing one venv break it.
 */
export function installVenv(name, requirements, importCheck) {
  if (!installs.has(name)) installs.set(name, runVenvScript(name, requirements, importCheck));
  return installs.get(name);
}

function runVenvScript(name, requirements, importCheck) {
  return new Promise((resolve, reject) => {
    // stdout stays clean for callers that parse it; the venv script's progress goes to stderr.
    const child = spawn('bash', [`${ROOT}scripts/venv.sh`, name, requirements, importCheck], {
      cwd: ROOT,
      stdio: ['ignore', 2, 2],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`scripts/venv.sh ${name} failed (exit ${code ?? signal})`)));
  });
}

/**
 * A set of child processes that are SIGKILLed if this process exits or gets SIGINT/SIGTERM before
 * `stop()`, which ends them gracefully and removes the handlers.
 */
export function childGroup() {
  const children = [];
  const killAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  const onSignal = (sig) => {
    killAll();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', killAll);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    /**
     * Spawns `command` from the repository root with stdout and stderr piped (stderr as utf8).
     * Returns the child and `stderr()`, the last 8000 characters it wrote there.
     */
    spawn(command, args, { env = {} } = {}) {
      const child = spawn(command, args, {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, PYTHONUNBUFFERED: '1', ...env },
      });
      children.push(child);
      let tail = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (s) => (tail = (tail + s).slice(-STDERR_KEEP)));
      return { child, stderr: () => tail };
    },
    async stop() {
      process.off('exit', killAll);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await Promise.all(children.map(terminate));
    },
  };
}

/**
 * The URL a Python test server prints as `READY <url>` (tests/a2a/_serve.py) once its socket
 * accepts. Rejects with `fail(why)` if it exits first or prints none within `timeoutMs`.
 */
export function readyUrl(child, { timeoutMs, fail }) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(fail(`printed no READY line within ${timeoutMs} ms`)), timeoutMs);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^READY (http:\/\/\S+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    // 'close', not 'exit': it waits for stderr to drain, so the error shows the server's last words.
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      reject(fail(`exited (${code ?? sig}) before it was ready`));
    });
  });
}

/**
 * Starts a test server that prints `READY <url>` (`command args`, from the repository root) in a
 * group of its own; `{ base, stop }` once it is ready. `what` names it in errors, with its stderr.
 */
export async function startReadyServer(what, command, args, { timeoutMs }) {
  const children = childGroup();
  const { child, stderr } = children.spawn(command, args);
  const fail = (why) => new Error(`${what} ${why}\n--- its stderr ---\n${stderr() || '(empty)'}`);
  return { base: await readyUrl(child, { timeoutMs, fail }), stop: children.stop };
}

/**
 * Polls `url` every 100 ms until it answers 2xx. Throws `fail(why)` if `child` exits first or
 * nothing answers before `deadline` (a Date.now() value).
 */
export async function waitForOk(url, { child, deadline, fail }) {
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not accepting yet
    }
    if (child.exitCode !== null) throw fail(`exited (${child.exitCode}) before ${url} answered`);
    if (Date.now() > deadline) throw fail(`did not answer ${url} by the deadline`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, then SIGKILL after 3 s; resolves once the child has exited. */
export function terminate(child) {
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
