// @ts-check
// A tiny in-page test harness: collects named checks and publishes the results on `window.__results`
// for tests/browser/run.mjs to read.
const results = { passed: 0, failed: 0, failures: [], done: false };
window.__results = results;

/** A value a test reads as untyped JSON (a tool's result, a response body, a wire object). */
export const json = (/** @type {unknown} */ value) => /** @type {any} */ (value);

export async function test(name, fn) {
  try {
    await fn();
    results.passed += 1;
  } catch (e) {
    results.failed += 1;
    results.failures.push(`${name}: ${e && e.stack ? e.stack : e}`);
  }
}

export function finish() {
  results.done = true;
}

export function assert(cond, message) {
  if (!cond) throw new Error(message ?? 'assertion failed');
}

/** Canonical JSON: object keys sorted, so two values compare equal regardless of key order. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function assertJsonEqual(actual, expected, message) {
  const [a, b] = [canonical(actual), canonical(expected)];
  if (a !== b) throw new Error(`${message ?? 'values differ'}\n actual:   ${a}\n expected: ${b}`);
}

/** Checks that `error` is an AdkError with `code` (and a message mentioning `messagePart`); returns it. */
function checkAdk(error, code, messagePart) {
  assert(error instanceof Error, `expected an Error, got ${error}`);
  assert(error.name === 'AdkError' && error.code === code, `expected AdkError ${code}, got ${error.name} ${error.code}: ${error.message}`);
  if (messagePart) assert(error.message.includes(messagePart), `message "${error.message}" does not mention "${messagePart}"`);
  return error;
}

/** Runs `fn`, expecting it to throw an AdkError with `code`; returns the error. */
export function assertThrowsAdk(fn, code, messagePart) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert(error, `expected an AdkError ${code}, nothing was thrown`);
  return checkAdk(error, code, messagePart);
}

/** What `promise` rejects with; fails if it resolves. */
export async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection, the promise resolved');
}

/** What `promise` rejects with, after `check(error)`; fails if it resolves. */
export async function rejects(promise, check) {
  const error = await rejection(promise);
  check(error);
  return error;
}

/** Awaits `promise`, expecting it to reject with an AdkError with `code`; returns the error. */
export async function assertRejectsAdk(promise, code, messagePart) {
  return checkAdk(await rejection(promise), code, messagePart);
}

/** Every item of an async iterable (a run, a stream). */
export async function collect(items) {
  const all = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * A session service written in JS, as an app keeping its sessions in a `Map` (`sessions`) writes
 * one; `appendEvent` is the test's (by default: push the event, answer it).
 * @param {(request: { session: any, event: any }) => any} [appendEvent]
 */
export function jsSessionService(appendEvent = ({ session, event }) => { session.events.push(event); return event; }) {
  const sessions = new Map();
  return {
    sessions,
    createSession({ appName, userId, sessionId }) { const s = { id: sessionId, appName, userId, state: {}, events: [], lastUpdateTime: 0 }; sessions.set(sessionId, s); return s; },
    getSession({ sessionId }) { return sessions.get(sessionId) ?? null; },
    listSessions() { return { sessions: [...sessions.values()] }; },
    deleteSession({ sessionId }) { sessions.delete(sessionId); },
    appendEvent,
  };
}

/**
 * A `fetch` to hand an SDK option, and what it sent: each request's method, URL and headers (as
 * the SDK gave them), in order, before it goes on to the real `fetch`.
 */
export function recordingFetch() {
  /** @type {{ method: string, url: string, headers: Record<string, string> }[]} */
  const seen = [];
  /** @type {typeof fetch} */
  const recording = (url, init) => {
    seen.push({ method: init?.method ?? 'GET', url: String(url), headers: json(init?.headers) ?? {} });
    return fetch(url, init);
  };
  return { fetch: recording, seen };
}
