//! IndexedDB, the browser's own database, for the persistent services: a connection opened (and
//! upgraded) once per service, transactions, and requests awaited as futures.
//!
//! A request settles through a Promise, so the code after an `await` runs in the microtask that
//! follows the request's success event: the transaction is still active there, and the next
//! request of the same transaction can be made. Every failure is a typed `AdkError`: a full disk
//! or quota is `RESOURCE_EXHAUSTED`, an upgrade another tab blocks is `FAILED_PRECONDITION`, no
//! IndexedDB at all (some private modes) is `UNAVAILABLE`.

mod events;
#[cfg(feature = "agents")]
pub mod kv;
#[cfg(feature = "agents")]
mod schema;
mod sys;

use adk_core::cell::Lend;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;
use std::task::Poll;

use adk_core::{AdkError, ErrorCode};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::interop::prop;
pub use sys::{IdbCursor, IdbDatabase, IdbRequest, IdbTransaction};

/// The schema: the current version, and what each upgrade step does.
pub struct Schema {
    /// The version the code expects.
    pub version: u32,
    /// Brings a database from `old_version` up to `version`, on the upgrade transaction.
    pub upgrade: fn(&IdbDatabase, &IdbTransaction, u32) -> Result<(), JsValue>,
}

/// What a `DOMException` from IndexedDB means to a caller.
pub fn idb_error(error: &JsValue, doing: &str) -> AdkError {
    if error.is_null() || error.is_undefined() {
        return AdkError::new(ErrorCode::Aborted, format!("IndexedDB: {doing}: the transaction was aborted"));
    }
    let name = prop(error, "name").as_string().unwrap_or_default();
    let message = prop(error, "message").as_string().filter(|m| !m.is_empty()).unwrap_or_else(|| name.clone());
    let code = match name.as_str() {
        "QuotaExceededError" => ErrorCode::ResourceExhausted,
        "ConstraintError" => ErrorCode::AlreadyExists,
        "VersionError" => ErrorCode::FailedPrecondition,
        "AbortError" => ErrorCode::Aborted,
        "InvalidStateError" | "SecurityError" | "UnknownError" | "NotFoundError" => ErrorCode::Unavailable,
        _ => ErrorCode::Internal,
    };
    AdkError::new(code, format!("IndexedDB: {doing}: {message}"))
}

/// An event handler set on an IndexedDB object for as long as this lives (the open request's
/// `upgradeneeded`, which runs the schema's upgrade here). Dropping it clears the handler and frees
/// its closure: one that never fires (no upgrade was needed) would otherwise keep what it holds.
struct Handler {
    target: JsValue,
    name: &'static str,
    _closure: Closure<dyn FnMut(JsValue)>,
}

impl Handler {
    fn new(target: &JsValue, name: &'static str, handler: impl FnMut(JsValue) + 'static) -> Self {
        let closure = Closure::new(handler);
        let _ = js_sys::Reflect::set(target, &JsValue::from_str(name), closure.as_ref());
        Handler { target: target.clone(), name, _closure: closure }
    }
}

impl Drop for Handler {
    fn drop(&mut self) {
        let _ = js_sys::Reflect::set(&self.target, &JsValue::from_str(self.name), &JsValue::NULL);
    }
}

/// Sets `target[name]` to a handler that lives until it fires: for a request this code no longer
/// waits for but that must still finish properly (an upgrade another tab held up).
fn on_until_fired(target: &JsValue, name: &str, handler: impl FnOnce(JsValue) + 'static) {
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(name), &Closure::once_into_js(handler));
}

/// Awaits `request`: its result, or its error as an `AdkError`.
pub async fn done(request: &IdbRequest, doing: &str) -> Result<JsValue, AdkError> {
    JsFuture::from(events::settled(request, events::REQUEST)).await.map_err(|e| idb_error(&e, doing))
}

/// Awaits the end of `tx`: `Ok` once everything it wrote is committed. A failed request aborts
/// the transaction; its cause is the transaction's error, set by the time `abort` fires.
async fn committed(tx: &IdbTransaction, doing: &str) -> Result<(), AdkError> {
    JsFuture::from(events::settled(tx, events::TRANSACTION)).await.map(drop).map_err(|e| idb_error(&e, doing))
}

/// A read-write transaction that commits only through [`Writing::commit`]: dropped before that (a
/// `?` on the way, or the caller's future dropped, say by a cancelled run), it aborts, so nothing
/// it wrote is kept. IndexedDB would otherwise commit whatever had been put.
pub struct Writing {
    tx: IdbTransaction,
    committing: bool,
}

impl Writing {
    /// Commits everything written; `Ok` once it is stored.
    pub async fn commit(mut self, doing: &str) -> Result<(), AdkError> {
        self.committing = true;
        committed(&self.tx, doing).await
    }
}

impl std::ops::Deref for Writing {
    type Target = IdbTransaction;

    fn deref(&self) -> &IdbTransaction {
        &self.tx
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        if !self.committing {
            let _ = self.tx.abort();
        }
    }
}

/// A connection to one database, opened on first use.
pub struct Connection {
    name: String,
    schema: Schema,
    /// The open database, which closes itself when another tab upgrades or deletes it.
    db: RefCell<Option<IdbDatabase>>,
    /// An upgrade another tab blocked is still waiting: calls fail at once until it goes through.
    held_up: Rc<Cell<bool>>,
}

/// A service freed (or dropped with its runner) closes its database at once: left to the garbage
/// collector, the open connection would block deleting the database ("clear all data") meanwhile.
impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(db) = self.db.get_mut().take() {
            db.close();
        }
    }
}

impl Connection {
    /// A connection to the database `name` with `schema`; nothing is opened yet.
    pub fn new(name: &str, schema: Schema) -> Self {
        Connection { name: name.to_string(), schema, db: RefCell::new(None), held_up: Rc::default() }
    }

    /// The open database, opening (and upgrading) it if needed.
    async fn database(&self) -> Result<IdbDatabase, AdkError> {
        if let Some(db) = self.db.lend().as_ref() {
            return Ok(db.clone());
        }
        if self.held_up.get() {
            return Err(blocked(&self.name));
        }
        let db = open(&self.name, &self.schema, &self.held_up).await?;
        // Another tab upgrading or deleting the database asks this connection to close; it does,
        // and the next call opens the database again.
        events::close_on_version_change(&db);
        *self.db.lend_mut() = Some(db.clone());
        Ok(db)
    }

    async fn begin(&self, stores: &[&str], mode: &str) -> Result<IdbTransaction, AdkError> {
        let db = self.database().await?;
        let names = js_sys::Array::new();
        for store in stores {
            names.push(&JsValue::from_str(store));
        }
        match db.transaction(&names, mode) {
            Ok(tx) => Ok(tx),
            // Closed by a version change (or by the browser): open again once.
            Err(_) => {
                self.db.lend_mut().take();
                let db = self.database().await?;
                db.transaction(&names, mode).map_err(|e| idb_error(&e, "starting a transaction"))
            }
        }
    }

    /// A read-only transaction over `stores`.
    pub async fn read(&self, stores: &[&str]) -> Result<IdbTransaction, AdkError> {
        self.begin(stores, "readonly").await
    }

    /// A read-write transaction over `stores`, aborted unless committed.
    pub async fn write(&self, stores: &[&str]) -> Result<Writing, AdkError> {
        Ok(Writing { tx: self.begin(stores, "readwrite").await?, committing: false })
    }
}

fn blocked(name: &str) -> AdkError {
    AdkError::new(
        ErrorCode::FailedPrecondition,
        format!("IndexedDB: database {name} needs an upgrade that another open tab blocks; close the other tabs of this app"),
    )
}

/// How long a request that fired `blocked` may still finish before it counts as blocked. `blocked`
/// fires while the other connections are still closing, also those that close when asked (this
/// SDK's, in this tab or another) or were just closed (a freed service): they let go within it.
const BLOCKED_GRACE_MS: u32 = 1000;

/// Awaits an open or delete `request`, or its `blocked` event and a grace period after it (another
/// tab holds the database open and will not let go): `None` then, while the request itself waits on.
async fn done_unless_blocked(request: &IdbRequest, doing: &str) -> Result<Option<JsValue>, AdkError> {
    let blocked_now = events::settled(request, events::BLOCKED);
    let finished = done(request, doing);
    let blocked = async move {
        let _ = JsFuture::from(blocked_now).await;
        super::sleep::sleep(BLOCKED_GRACE_MS).await;
    };
    let (mut finished, mut blocked) = (std::pin::pin!(finished), std::pin::pin!(blocked));
    // The request first, as `select` polls: a request that finished wins over the grace's end.
    let outcome = std::future::poll_fn(|cx| match finished.as_mut().poll(cx) {
        Poll::Ready(result) => Poll::Ready(Some(result)),
        Poll::Pending => blocked.as_mut().poll(cx).map(|()| None),
    })
    .await;
    outcome.map_or(Ok(None), |result| result.map(Some))
}

/// `indexedDB`, where there is one.
fn factory() -> Result<sys::IdbFactory, AdkError> {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("indexedDB"))
        .ok()
        .filter(JsValue::is_object)
        .map(JsCast::unchecked_into)
        .ok_or_else(|| AdkError::new(ErrorCode::Unavailable, "IndexedDB is not available in this browser context"))
}

/// Opens `name` at the schema's version, upgrading it first if it is older. When another tab holds
/// an older version open and will not close it, this fails with `FAILED_PRECONDITION` at once
/// rather than wait; the request goes on in the background (`held_up` says so meanwhile), runs the
/// upgrade when the other tab lets it, and closes the connection it then gets.
async fn open(name: &str, schema: &Schema, held_up: &Rc<Cell<bool>>) -> Result<IdbDatabase, AdkError> {
    let request = factory()?.open(name, schema.version).map_err(|e| idb_error(&e, "opening the database"))?;
    let upgrade = schema.upgrade;
    let run_upgrade = move |request: &IdbRequest, event: &JsValue| {
        let old = prop(event, "oldVersion").as_f64().unwrap_or(0.0) as u32;
        let db = request.result().unwrap_or(JsValue::UNDEFINED).unchecked_into::<IdbDatabase>();
        if let Some(tx) = request.transaction() {
            if upgrade(&db, &tx, old).is_err() {
                let _ = tx.abort();
            }
        }
    };
    let upgrading = request.clone();
    let handler = Handler::new(&request, "onupgradeneeded", move |event| run_upgrade(&upgrading, &event));
    let outcome = done_unless_blocked(&request, "opening the database").await;
    drop(handler);
    match outcome? {
        Some(db) => Ok(db.unchecked_into()),
        None => {
            held_up.set(true);
            let upgrading = request.clone();
            on_until_fired(&request, "onupgradeneeded", move |event| run_upgrade(&upgrading, &event));
            let (opened, finished) = (request.clone(), held_up.clone());
            on_until_fired(&request, "onsuccess", move |_| {
                if let Ok(db) = opened.result() {
                    db.unchecked_into::<IdbDatabase>().close();
                }
                finished.set(false);
            });
            let failed = held_up.clone();
            on_until_fired(&request, "onerror", move |_| failed.set(false));
            Err(blocked(name))
        }
    }
}

/// `IDBKeyRange.bound(lower, upper)`.
pub fn key_range(lower: &JsValue, upper: &JsValue) -> Result<JsValue, AdkError> {
    sys::key_range(lower, upper).map_err(|e| idb_error(&e, "making a key range"))
}

/// Deletes the database `name` (tests, and an app's "clear all data"). This SDK's own open
/// connections close themselves for it; one another tab keeps open is `FAILED_PRECONDITION` (the
/// deletion then happens when that tab closes it).
pub async fn delete_database(name: &str) -> Result<(), AdkError> {
    let request = factory()?.delete_database(name).map_err(|e| idb_error(&e, "deleting the database"))?;
    match done_unless_blocked(&request, "deleting the database").await? {
        Some(_) => Ok(()),
        None => Err(AdkError::new(
            ErrorCode::FailedPrecondition,
            format!("IndexedDB: database {name} is open in another tab; it is deleted once that tab closes it"),
        )),
    }
}
