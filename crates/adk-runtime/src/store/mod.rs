//! The key-value transactions a persistent service runs on: the browser's IndexedDB in the wasm
//! crate, [`InMemoryStore`] natively. The services' own logic (records, numbering, staleness,
//! byte accounting) is written once over this, and tested natively against the in-memory store.
//!
//! A store holds named object stores of records: each record a JSON object whose key is made of
//! some of its fields (the store's key path), strings and numbers, ordered part by part with
//! numbers before strings, as IndexedDB orders array keys, and perhaps bytes kept beside it. A transaction sees its own writes;
//! one that writes keeps nothing unless committed.

mod in_memory;

use adk_core::json::{self, FromJson, JsonError, ToJson};

use crate::{AdkError, ErrorCode};

pub use in_memory::InMemoryStore;

/// One part of a key.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
pub enum KeyPart {
    /// A number (IndexedDB sorts numbers before strings).
    Number(f64),
    /// A string.
    Text(String),
}

impl From<&str> for KeyPart {
    fn from(text: &str) -> Self {
        KeyPart::Text(text.to_string())
    }
}

impl From<u64> for KeyPart {
    fn from(n: u64) -> Self {
        KeyPart::Number(n as f64)
    }
}

/// The keys a read or a delete covers: every key that starts with `prefix`, and, with `from`,
/// whose next part is a number of at least `from` (and at most `to`, when given).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyRange {
    /// The parts every key in the range starts with.
    pub prefix: Vec<KeyPart>,
    /// The least number the part after the prefix may be.
    pub from: Option<u64>,
    /// The greatest number the part after the prefix may be.
    pub to: Option<u64>,
}

impl KeyRange {
    /// Every key that starts with `prefix`.
    pub fn prefix(prefix: &[&str]) -> Self {
        KeyRange { prefix: key(prefix), from: None, to: None }
    }

    /// The keys `[…prefix, n, …]` for `n` from `from` on: records numbered under a prefix.
    pub fn numbered(prefix: &[&str], from: u64) -> Self {
        KeyRange { from: Some(from), ..KeyRange::prefix(prefix) }
    }

    /// Whether `key` is in the range.
    pub fn contains(&self, key: &[KeyPart]) -> bool {
        if !key.starts_with(&self.prefix) {
            return false;
        }
        if self.from.is_none() && self.to.is_none() {
            return true;
        }
        match key.get(self.prefix.len()) {
            Some(KeyPart::Number(n)) => {
                self.from.is_none_or(|from| *n >= from as f64) && self.to.is_none_or(|to| *n <= to as f64)
            }
            _ => false,
        }
    }
}

/// What a store is: its object stores and their key paths.
#[derive(Debug, Clone, Copy)]
pub struct StoreLayout {
    /// The object store's name.
    pub name: &'static str,
    /// The record fields its key is made of, in order.
    pub key_path: &'static [&'static str],
    /// Its indexes: a name and the fields they order records by (ties by the key).
    pub indexes: &'static [(&'static str, &'static [&'static str])],
}

/// A database of object stores. Its methods are `async fn`s, not boxed: each service is written
/// for one store type, and the wasm module carries one copy of it, for IndexedDB.
#[allow(async_fn_in_trait)] // single-threaded: no `Send` bound is wanted
pub trait KvStore {
    /// A transaction of this store.
    type Transaction: KvTransaction;
    /// A transaction that only reads `stores`.
    async fn read(&self, stores: &[&'static str]) -> Result<Self::Transaction, AdkError>;
    /// A transaction over `stores` whose writes are kept only if it commits.
    async fn write(&self, stores: &[&'static str]) -> Result<Self::Transaction, AdkError>;
}

/// One transaction: records as JSON text.
#[allow(async_fn_in_trait)] // single-threaded: no `Send` bound is wanted
pub trait KvTransaction {
    /// The record at `key` in `store`.
    async fn get(&self, store: &str, key: &[KeyPart]) -> Result<Option<String>, AdkError>;
    /// The records of `store` in `range`, in key order.
    async fn get_all(&self, store: &str, range: &KeyRange) -> Result<Vec<String>, AdkError>;
    /// The records of `store` in `range`, newest key first, for as long as `more` says so.
    async fn walk_back(
        &self,
        store: &str,
        range: &KeyRange,
        more: impl FnMut(&str) -> Result<bool, AdkError>,
    ) -> Result<(), AdkError>;
    /// The records of `store` whose `index` fields start with `prefix`, in the index's order.
    async fn get_all_by(&self, store: &str, index: &str, prefix: &[KeyPart]) -> Result<Vec<String>, AdkError>;
    /// The keys of `store` in `range`, in order (no record is read).
    async fn keys(&self, store: &str, range: &KeyRange) -> Result<Vec<Vec<KeyPart>>, AdkError>;
    /// The record at `key` in `store` and the bytes stored beside it, if any.
    async fn get_with_bytes(&self, store: &str, key: &[KeyPart])
        -> Result<Option<(String, Option<Vec<u8>>)>, AdkError>;
    /// Writes `record` (its key is in it) into `store`.
    fn put(&self, store: &str, record: &str) -> Result<(), AdkError>;
    /// Writes `record` with `bytes` stored beside it as bytes (an artifact's inline data), not in
    /// its JSON as base64 text.
    fn put_with_bytes(&self, store: &str, record: &str, bytes: &[u8]) -> Result<(), AdkError>;
    /// Deletes the records of `store` in `range`.
    fn delete(&self, store: &str, range: &KeyRange) -> Result<(), AdkError>;
    /// Keeps everything written; `Ok` once it is stored. A writing transaction dropped without
    /// this keeps nothing.
    async fn commit(self, doing: &str) -> Result<(), AdkError>;
}

/// The key made of `parts`.
pub fn key(parts: &[&str]) -> Vec<KeyPart> {
    let mut key = Vec::new();
    for part in parts {
        key.push(KeyPart::from(*part));
    }
    key
}

/// A record read back as `T`; one that does not decode means the store is damaged (`INTERNAL`).
/// It is text this SDK wrote, read as its own (as the in-memory services read what they keep as
/// text): a value nested as deep as input allows reads back from the record that holds it a few
/// levels deeper, and limits lowered since cannot make a stored session unreadable.
pub fn decode<T: FromJson>(what: &str, text: &str) -> Result<T, AdkError> {
    json::read_own_text(text).map_err(|e| damaged(what, e))
}

/// The error of a record that does not decode: one copy for every record type.
#[inline(never)]
fn damaged(what: &str, e: JsonError) -> AdkError {
    AdkError::new(ErrorCode::Internal, format!("a stored {what} is damaged: {}", e.into_adk(what).message))
}

/// The record of `store` at the key made of `parts`, as `T` (`store` names it if it is damaged).
pub async fn get<T: FromJson>(tx: &impl KvTransaction, store: &str, parts: &[&str]) -> Result<Option<T>, AdkError> {
    tx.get(store, &key(parts)).await?.map(|text| decode(store, &text)).transpose()
}

/// Writes `record` (its key is in it) into `store`.
pub fn put(tx: &impl KvTransaction, store: &str, record: &dyn ToJson) -> Result<(), AdkError> {
    tx.put(store, &json::to_string(record))
}
