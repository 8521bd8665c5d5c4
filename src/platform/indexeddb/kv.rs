//! The runtime's key-value transactions ([`adk_runtime::store`]) over IndexedDB: the services
//! written over them (sessions) keep their logic in the runtime, tested natively; here is only how
//! a key, a range, a record and a transaction are IndexedDB's. Records cross as the JSON objects
//! they were (`JSON.parse` of the record's text), so what is stored is what was stored before.

use adk_core::AdkError;
use adk_runtime::store::{KeyPart, KeyRange, KvStore, KvTransaction};
use wasm_bindgen::{JsCast, JsValue};

use super::schema::SCHEMA;
use super::{done, idb_error, key_range, Connection, IdbCursor, IdbTransaction, Writing};

/// One database (`databaseName`) as the runtime's key-value store.
pub struct IndexedDbStore {
    db: Connection,
}

impl IndexedDbStore {
    /// The database `database_name` (opened, and upgraded, on first use).
    pub fn new(database_name: &str) -> Self {
        IndexedDbStore { db: Connection::new(database_name, SCHEMA) }
    }
}

impl KvStore for IndexedDbStore {
    type Transaction = Transaction;

    async fn read(&self, stores: &[&'static str]) -> Result<Transaction, AdkError> {
        Ok(Transaction::Reading(self.db.read(stores).await?))
    }

    async fn write(&self, stores: &[&'static str]) -> Result<Transaction, AdkError> {
        Ok(Transaction::Writing(self.db.write(stores).await?))
    }
}

/// An IndexedDB transaction.
pub enum Transaction {
    /// `readonly`.
    Reading(IdbTransaction),
    /// `readwrite`, aborted when dropped uncommitted.
    Writing(Writing),
}

impl Transaction {
    fn tx(&self) -> &IdbTransaction {
        match self {
            Transaction::Reading(tx) => tx,
            Transaction::Writing(w) => w,
        }
    }

    fn store(&self, store: &str, doing: &str) -> Result<super::sys::IdbObjectStore, AdkError> {
        self.tx().object_store(store).map_err(|e| idb_error(&e, doing))
    }
}

fn part(part: &KeyPart) -> JsValue {
    match part {
        KeyPart::Number(n) => JsValue::from_f64(*n),
        KeyPart::Text(t) => JsValue::from_str(t),
    }
}

/// A key: a store keyed by one field takes that part alone, others an array.
fn key(parts: &[KeyPart]) -> JsValue {
    match parts {
        [one] => part(one),
        _ => parts.iter().map(part).collect::<js_sys::Array>().into(),
    }
}

/// `IDBKeyRange` from `[…prefix, from?]` to `[…prefix, to?, []]`: an array sorts after any number or
/// string in IndexedDB's key order, so the upper bound takes every longer key.
fn range(range: &KeyRange) -> Result<JsValue, AdkError> {
    let lower: js_sys::Array = range.prefix.iter().map(part).collect();
    let upper = lower.slice(0, lower.length());
    if let Some(from) = range.from {
        lower.push(&JsValue::from_f64(from as f64));
    }
    if let Some(to) = range.to {
        upper.push(&JsValue::from_f64(to as f64));
    }
    upper.push(&js_sys::Array::new());
    key_range(&lower, &upper)
}

/// A record as the JSON text the runtime reads.
fn text(value: &JsValue) -> Result<String, AdkError> {
    js_sys::JSON::stringify(value).map(String::from).map_err(|e| idb_error(&e, "reading a record"))
}

fn texts(values: &JsValue) -> Result<Vec<String>, AdkError> {
    js_sys::Array::from(values).iter().map(|v| text(&v)).collect()
}

impl KvTransaction for Transaction {
    async fn get(&self, store: &str, parts: &[KeyPart]) -> Result<Option<String>, AdkError> {
        let request = self.store(store, "reading")?.get(&key(parts)).map_err(|e| idb_error(&e, "reading"))?;
        let found = done(&request, "reading").await?;
        if found.is_undefined() {
            return Ok(None);
        }
        text(&found).map(Some)
    }

    async fn get_all(&self, store: &str, keys: &KeyRange) -> Result<Vec<String>, AdkError> {
        let request = self.store(store, "reading")?.get_all(&range(keys)?).map_err(|e| idb_error(&e, "reading"))?;
        texts(&done(&request, "reading").await?)
    }

    async fn walk_back(
        &self,
        store: &str,
        keys: &KeyRange,
        mut more: impl FnMut(&str) -> Result<bool, AdkError>,
    ) -> Result<(), AdkError> {
        let cursor =
            self.store(store, "reading")?.open_cursor(&range(keys)?, "prev").map_err(|e| idb_error(&e, "reading"))?;
        loop {
            let at = done(&cursor, "reading").await?;
            if at.is_null() || at.is_undefined() {
                return Ok(());
            }
            let at: IdbCursor = at.unchecked_into();
            if !more(&text(&at.value())?)? {
                return Ok(());
            }
            at.advance().map_err(|e| idb_error(&e, "reading"))?;
        }
    }

    async fn get_all_by(&self, store: &str, index: &str, prefix: &[KeyPart]) -> Result<Vec<String>, AdkError> {
        let keys = range(&KeyRange { prefix: prefix.to_vec(), from: None, to: None })?;
        let request = self
            .store(store, "reading")?
            .index(index)
            .and_then(|index| index.get_all(&keys))
            .map_err(|e| idb_error(&e, "reading"))?;
        texts(&done(&request, "reading").await?)
    }

    fn put(&self, store: &str, record: &str) -> Result<(), AdkError> {
        let value = js_sys::JSON::parse(record).map_err(|e| idb_error(&e, "encoding a record"))?;
        self.store(store, "writing")?.put(&value).map(|_| ()).map_err(|e| idb_error(&e, "writing"))
    }

    fn delete(&self, store: &str, keys: &KeyRange) -> Result<(), AdkError> {
        self.store(store, "deleting")?.delete(&range(keys)?).map(|_| ()).map_err(|e| idb_error(&e, "deleting"))
    }

    async fn commit(self, doing: &str) -> Result<(), AdkError> {
        match self {
            Transaction::Reading(_) => Ok(()),
            Transaction::Writing(w) => w.commit(doing).await,
        }
    }
}
