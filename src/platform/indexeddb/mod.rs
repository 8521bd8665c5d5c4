//! IndexedDB, the browser's own database, for the persistent services: a connection opened (and
//! upgraded) once per service, transactions, and requests awaited as futures.
//!
//! A request settles through a Promise, so the code after an `await` runs in the microtask that
//! follows the request's success event: the transaction is still active there, and the next
//! request of the same transaction can be made. Every failure is a typed `AdkError`: a full disk
//! or quota is `RESOURCE_EXHAUSTED`, an upgrade another tab blocks is `FAILED_PRECONDITION`, no
//! IndexedDB at all (some private modes) is `UNAVAILABLE`.

#[cfg(feature = "agents")]
pub mod artifacts;
#[cfg(feature = "agents")]
pub mod memory;
#[cfg(feature = "agents")]
mod records;
#[cfg(feature = "agents")]
mod schema;
#[cfg(feature = "agents")]
pub mod sessions;
mod sys;

use std::cell::RefCell;

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

/// Sets `target[name]` to a one-shot handler.
fn on(target: &JsValue, name: &str, handler: impl FnOnce(JsValue) + 'static) {
    let handler = Closure::once_into_js(handler);
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(name), &handler);
}

/// Awaits `request`: its result, or its error as an `AdkError`.
pub async fn done(request: &IdbRequest, doing: &str) -> Result<JsValue, AdkError> {
    let settled = js_sys::Promise::new(&mut |resolve, reject| {
        let ok = request.clone();
        on(request, "onsuccess", move |_| {
            let _ = resolve.call1(&JsValue::UNDEFINED, &ok.result().unwrap_or(JsValue::UNDEFINED));
        });
        let failed = request.clone();
        on(request, "onerror", move |_| {
            let _ = reject.call1(&JsValue::UNDEFINED, &failed.error().unwrap_or(JsValue::UNDEFINED));
        });
    });
    JsFuture::from(settled).await.map_err(|e| idb_error(&e, doing))
}

/// Awaits the end of `tx`: `Ok` once everything it wrote is committed.
pub async fn committed(tx: &IdbTransaction, doing: &str) -> Result<(), AdkError> {
    let settled = js_sys::Promise::new(&mut |resolve, reject| {
        on(tx, "oncomplete", move |_| {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        let failed = tx.clone();
        let reject_too = reject.clone();
        on(tx, "onerror", move |_| {
            let _ = reject.call1(&JsValue::UNDEFINED, &failed.tx_error());
        });
        let aborted = tx.clone();
        on(tx, "onabort", move |_| {
            let _ = reject_too.call1(&JsValue::UNDEFINED, &aborted.tx_error());
        });
    });
    JsFuture::from(settled).await.map(|_| ()).map_err(|e| idb_error(&e, doing))
}

/// A connection to one database, opened on first use.
pub struct Connection {
    name: String,
    schema: Schema,
    db: RefCell<Option<IdbDatabase>>,
}

impl Connection {
    /// A connection to the database `name` with `schema`; nothing is opened yet.
    pub fn new(name: &str, schema: Schema) -> Self {
        Connection { name: name.to_string(), schema, db: RefCell::new(None) }
    }

    /// The open database, opening (and upgrading) it if needed.
    async fn database(&self) -> Result<IdbDatabase, AdkError> {
        if let Some(db) = self.db.borrow().clone() {
            return Ok(db);
        }
        let db = open(&self.name, &self.schema).await?;
        // Another tab upgrading the schema asks this connection to close; it does, and the next
        // call opens the new version.
        let closing = db.clone();
        on(&db, "onversionchange", move |_| closing.close());
        *self.db.borrow_mut() = Some(db.clone());
        Ok(db)
    }

    /// A transaction over `stores`, read-only or read-write.
    pub async fn transaction(&self, stores: &[&str], write: bool) -> Result<IdbTransaction, AdkError> {
        let db = self.database().await?;
        let names: js_sys::Array = stores.iter().map(|s| JsValue::from_str(s)).collect();
        let mode = if write { "readwrite" } else { "readonly" };
        match db.transaction(&names, mode) {
            Ok(tx) => Ok(tx),
            // Closed by a version change (or by the browser): open again once.
            Err(_) => {
                self.db.borrow_mut().take();
                let db = self.database().await?;
                db.transaction(&names, mode).map_err(|e| idb_error(&e, "starting a transaction"))
            }
        }
    }
}

/// `indexedDB`, where there is one.
fn factory() -> Result<sys::IdbFactory, AdkError> {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("indexedDB"))
        .ok()
        .filter(JsValue::is_object)
        .map(JsCast::unchecked_into)
        .ok_or_else(|| AdkError::new(ErrorCode::Unavailable, "IndexedDB is not available in this browser context"))
}

/// Opens `name` at the schema's version, upgrading it first if it is older.
async fn open(name: &str, schema: &Schema) -> Result<IdbDatabase, AdkError> {
    let request = factory()?.open(name, schema.version).map_err(|e| idb_error(&e, "opening the database"))?;
    let upgrade = schema.upgrade;
    let upgrading = request.clone();
    on(&request, "onupgradeneeded", move |event| {
        let old = prop(&event, "oldVersion").as_f64().unwrap_or(0.0) as u32;
        let db = upgrading.result().unwrap_or(JsValue::UNDEFINED).unchecked_into::<IdbDatabase>();
        if let Some(tx) = upgrading.transaction() {
            if upgrade(&db, &tx, old).is_err() {
                let _ = tx.abort();
            }
        }
    });
    let blocked = js_sys::Promise::new(&mut |resolve, _| {
        on(&request, "onblocked", move |_| {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
    });
    let opened = done(&request, "opening the database");
    let blocked = JsFuture::from(blocked);
    futures_util::pin_mut!(opened, blocked);
    match futures_util::future::select(opened, blocked).await {
        futures_util::future::Either::Left((db, _)) => Ok(db?.unchecked_into()),
        futures_util::future::Either::Right(_) => Err(AdkError::new(
            ErrorCode::FailedPrecondition,
            format!("IndexedDB: database {name} needs an upgrade that another open tab blocks; close the other tabs of this app"),
        )),
    }
}

/// `IDBKeyRange.bound(lower, upper)`.
pub fn key_range(lower: &JsValue, upper: &JsValue) -> Result<JsValue, AdkError> {
    sys::key_range(lower, upper).map_err(|e| idb_error(&e, "making a key range"))
}

/// `[…prefix]` to `[…prefix, []]`: every key that starts with `prefix` (an array sorts after any
/// number or string in IndexedDB's key order).
pub fn prefix_range(prefix: &[&str]) -> Result<JsValue, AdkError> {
    let lower: js_sys::Array = prefix.iter().map(|s| JsValue::from_str(s)).collect();
    let upper = lower.slice(0, lower.length());
    upper.push(&js_sys::Array::new());
    key_range(&lower, &upper)
}

/// The keys `[…prefix, n, …]`, or with `onwards` every key from `[…prefix, n]` to the end of the
/// prefix: records numbered under a prefix, as events in a session or memories in a slot.
pub fn numbered_range(prefix: &[&str], n: u64, onwards: bool) -> Result<JsValue, AdkError> {
    let lower: js_sys::Array = prefix.iter().map(|s| JsValue::from_str(s)).collect();
    let upper = lower.slice(0, lower.length());
    lower.push(&JsValue::from_f64(n as f64));
    if !onwards {
        upper.push(&JsValue::from_f64(n as f64));
    }
    // An array sorts after any number or string.
    upper.push(&js_sys::Array::new());
    key_range(&lower, &upper)
}

/// Deletes the database `name` (tests, and an app's "clear all data").
pub async fn delete_database(name: &str) -> Result<(), AdkError> {
    let request = factory()?.delete_database(name).map_err(|e| idb_error(&e, "deleting the database"))?;
    done(&request, "deleting the database").await.map(|_| ())
}
