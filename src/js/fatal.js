// A trapped instance (out of memory, a bug) must not run again: scripts/build.sh routes every export
// through `guard`, so the first trap rejects what was pending and every later call, and tells `onFatal`.

let stopped = null;
const listeners = new Set();
// The rejections of what is pending. Not a race against one never-settling promise: V8 would keep
// every race's reaction, and with it every value ever resolved, for the life of the page.
const pending = new Set();

function stop(trap) {
  if (stopped) return stopped;
  stopped = Object.assign(
    new Error(`the WebAssembly instance stopped: ${trap?.message ?? trap}; reload the page to use adk-wasm again`),
    { name: 'AdkError', code: 'FAILED_PRECONDITION', cause: trap },
  );
  for (const reject of pending) reject(stopped);
  pending.clear();
  for (const listener of listeners) {
    try {
      listener(stopped);
    } catch (e) {
      queueMicrotask(() => { throw e; });
    }
  }
  // Someone must hear of it.
  if (!listeners.size) console.error(stopped);
  listeners.clear();
  return stopped;
}

export function alive(promise) {
  if (stopped) return Promise.reject(stopped);
  return new Promise((resolve, reject) => {
    pending.add(reject);
    promise.then(
      (value) => { pending.delete(reject); resolve(value); },
      (error) => { pending.delete(reject); reject(error); },
    );
  });
}

export function onFatal(listener) {
  if (typeof listener !== 'function') throw new TypeError('onFatal: expected a function');
  if (stopped) {
    queueMicrotask(() => listener(stopped));
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// What a silenced call returns: a closure's shim that returns a result reads `[value, threw]`.
const NOTHING = Object.freeze([0, 0]);

// After the stop, freeing has nothing to free, and a callback (a settled promise, an IndexedDB
// event) has no caller to tell: the pending promises and the listeners are told instead. Told by
// the export's name; scripts/short-names.mjs keeps the part that says so when it shortens one.
export const quiet = (name) => name.endsWith('_free') || name.startsWith('__wbindgen_destroy') || name.includes('__closures_');

export function guard(exports) {
  const guarded = {};
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== 'function') {
      guarded[name] = value;
      continue;
    }
    const silent = quiet(name);
    guarded[name] = function (...args) {
      if (stopped) {
        if (silent) return NOTHING;
        throw stopped;
      }
      let result;
      try {
        result = value.apply(this, args);
      } catch (e) {
        if (!(e instanceof WebAssembly.RuntimeError) && !stopped) throw e;
        const error = stop(e);
        if (silent) return NOTHING;
        throw error;
      }
      return result instanceof Promise ? alive(result) : result;
    };
  }
  return guarded;
}
