//! The runtime's key-value transactions ([`adk_runtime::store`]) over IndexedDB: the services
//! written over them (sessions, memory, artifacts) keep their logic in the runtime, tested
//! natively; here is only how a key, a range, a record and a transaction are IndexedDB's. Records
//! are stored as the JSON objects they are (`JSON.parse` of the record's text), bytes beside one as
//! a `Uint8Array` in its `bytes` field: what is stored is what was stored before.

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
        _ => array_of(parts).into(),
    }
}

/// The key parts as a JS array.
fn array_of(parts: &[KeyPart]) -> js_sys::Array {
    let array = js_sys::Array::new();
    for one in parts {
        array.push(&part(one));
    }
    array
}

/// `IDBKeyRange` from `[…prefix, from?]` to `[…prefix, to?, []]`: an array sorts after any number or
/// string in IndexedDB's key order, so the upper bound takes every longer key.
fn range(range: &KeyRange) -> Result<JsValue, AdkError> {
    let lower = array_of(&range.prefix);
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

/// The field that holds a record's bytes, beside its JSON.
const BYTES: &str = "bytes";

/// A record as the runtime reads it: its JSON text, and the bytes kept beside it (taken off the
/// record, a fresh object of this read, before it is stringified). Only a `Uint8Array` there is
/// bytes: a session's row has a member of that name in its JSON, the size of its events.
fn record(value: &JsValue) -> Result<(String, Option<Vec<u8>>), AdkError> {
    let bytes = js_sys::Reflect::get(value, &BYTES.into()).ok().filter(|b| b.is_instance_of::<js_sys::Uint8Array>());
    if bytes.is_some() {
        let _ = js_sys::Reflect::delete_property(value.unchecked_ref::<js_sys::Object>(), &BYTES.into());
    }
    let text = js_sys::JSON::stringify(value).map(String::from).map_err(|e| idb_error(&e, "reading a record"))?;
    Ok((text, bytes.map(|b| js_sys::Uint8Array::new(&b).to_vec())))
}

fn text(value: &JsValue) -> Result<String, AdkError> {
    record(value).map(|(text, _)| text)
}

fn texts(values: &JsValue) -> Result<Vec<String>, AdkError> {
    // A loop rather than collecting `Result`s: that adapter is code of its own per item type.
    let mut texts = Vec::new();
    for value in js_sys::Array::from(values).iter() {
        texts.push(text(&value)?);
    }
    Ok(texts)
}

/// A key read back: strings and numbers.
fn parts(key: &JsValue) -> Vec<KeyPart> {
    let one = |v: JsValue| match v.as_f64() {
        Some(n) => KeyPart::Number(n),
        None => KeyPart::Text(v.as_string().unwrap_or_default()),
    };
    match key.dyn_ref::<js_sys::Array>() {
        Some(parts) => {
            let mut key = Vec::new();
            for part in parts.iter() {
                key.push(one(part));
            }
            key
        }
        None => vec![one(key.clone())],
    }
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

    async fn keys(&self, store: &str, keys: &KeyRange) -> Result<Vec<Vec<KeyPart>>, AdkError> {
        let request =
            self.store(store, "reading")?.get_all_keys(&range(keys)?).map_err(|e| idb_error(&e, "reading"))?;
        let mut keys = Vec::new();
        for key in js_sys::Array::from(&done(&request, "reading").await?).iter() {
            keys.push(parts(&key));
        }
        Ok(keys)
    }

    async fn get_with_bytes(&self, store: &str, at: &[KeyPart]) -> Result<Option<(String, Option<Vec<u8>>)>, AdkError> {
        let request = self.store(store, "reading")?.get(&key(at)).map_err(|e| idb_error(&e, "reading"))?;
        let found = done(&request, "reading").await?;
        if found.is_undefined() {
            return Ok(None);
        }
        record(&found).map(Some)
    }

    fn put(&self, store: &str, record: &str) -> Result<(), AdkError> {
        let value = js_sys::JSON::parse(record).map_err(|e| idb_error(&e, "encoding a record"))?;
        self.store(store, "writing")?.put(&value).map(|_| ()).map_err(|e| idb_error(&e, "writing"))
    }

    fn put_with_bytes(&self, store: &str, record: &str, bytes: &[u8]) -> Result<(), AdkError> {
        let value = js_sys::JSON::parse(record).map_err(|e| idb_error(&e, "encoding a record"))?;
        js_sys::Reflect::set(&value, &BYTES.into(), &js_sys::Uint8Array::from(bytes))
            .map_err(|e| idb_error(&e, "encoding a record"))?;
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
