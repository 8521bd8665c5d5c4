// IndexedDB's events as Promises, for src/platform/indexeddb/events.rs: the handlers are JS
// functions, which go with the request or transaction they are set on.

// The event that resolves a request (0), a transaction (1) or an open or delete request held up
// by another connection (2), and the one that rejects it with the target's `error`. Indexed by
// events.rs's REQUEST, TRANSACTION and BLOCKED: keep the two in step.
const EVENTS = [['success', 'error'], ['complete', 'abort'], ['blocked']];

/** Settles when `target` fires the events of `kind`: a request resolves with its `result`. */
export function settled(target, kind) {
  const [ok, fail] = EVENTS[kind];
  return new Promise((resolve, reject) => {
    target[`on${ok}`] = () => resolve(kind === 0 ? target.result : undefined);
    if (fail) target[`on${fail}`] = () => reject(target.error);
  });
}

/** Closes `db` when another tab upgrades or deletes the database; the next call opens it again. */
export function closeOnVersionChange(db) {
  db.onversionchange = () => db.close();
}
