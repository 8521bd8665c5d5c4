//! [`KvStore`] in memory, for the native tests of the services written over it (and for anyone
//! who wants them without a browser). A transaction works on its own copy of the records, so it
//! sees its writes, and a writing one replaces the records only when it commits; transactions are
//! not run side by side, which the single-threaded tests never need.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

use indexmap::IndexMap;
use serde_json::Value;

use super::{decode, KeyPart, KeyRange, KvStore, KvTransaction, StoreLayout};
use crate::{AdkError, ErrorCode};

/// One record: its key, its JSON, the bytes beside it.
type Entry = (Vec<KeyPart>, String, Option<Vec<u8>>);

/// Each object store's records, sorted by key.
type Records = IndexMap<&'static str, Vec<Entry>>;

/// Object stores kept in memory.
pub struct InMemoryStore {
    layout: &'static [StoreLayout],
    records: Rc<RefCell<Records>>,
}

impl InMemoryStore {
    /// An empty store with these object stores.
    pub fn new(layout: &'static [StoreLayout]) -> Self {
        let records = layout.iter().map(|s| (s.name, Vec::new())).collect();
        InMemoryStore { layout, records: Rc::new(RefCell::new(records)) }
    }

    fn begin(&self, writes: bool) -> Transaction {
        Transaction {
            layout: self.layout,
            records: RefCell::new(self.records.lend().clone()),
            target: writes.then(|| self.records.clone()),
        }
    }
}

impl KvStore for InMemoryStore {
    type Transaction = Transaction;

    async fn read(&self, _stores: &[&'static str]) -> Result<Transaction, AdkError> {
        Ok(self.begin(false))
    }

    async fn write(&self, _stores: &[&'static str]) -> Result<Transaction, AdkError> {
        Ok(self.begin(true))
    }
}

/// A transaction of an [`InMemoryStore`].
pub struct Transaction {
    layout: &'static [StoreLayout],
    records: RefCell<Records>,
    /// Where a writing transaction's records go when it commits.
    target: Option<Rc<RefCell<Records>>>,
}

fn order(a: &[KeyPart], b: &[KeyPart]) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// The parts of `record`'s fields `path`, as IndexedDB reads a key path.
fn key_of(record: &Value, path: &[&str], store: &str) -> Result<Vec<KeyPart>, AdkError> {
    path.iter()
        .map(|field| match record.get(*field) {
            Some(Value::String(s)) => Ok(KeyPart::Text(s.clone())),
            Some(Value::Number(n)) => Ok(KeyPart::Number(n.as_f64().unwrap_or_default())),
            _ => Err(AdkError::invalid(format!("{store}: the record has no key field {field}"))),
        })
        .collect()
}

impl Transaction {
    /// Puts `record`, and `bytes` beside it, at the key its fields make.
    fn write(&self, store: &str, record: &str, bytes: Option<Vec<u8>>) -> Result<(), AdkError> {
        let layout = self.layout(store)?;
        let value: Value = decode(store, record)?;
        let key = key_of(&value, layout.key_path, store)?;
        let mut records = self.records.lend_mut();
        let all = records.entry(layout.name).or_default();
        let entry = (key, record.to_string(), bytes);
        match all.binary_search_by(|(k, _, _)| order(k, &entry.0)) {
            Ok(at) => {
                if let Some(slot) = all.get_mut(at) {
                    *slot = entry;
                }
            }
            Err(at) => all.insert(at, entry),
        }
        Ok(())
    }

    fn layout(&self, store: &str) -> Result<&'static StoreLayout, AdkError> {
        self.layout
            .iter()
            .find(|s| s.name == store)
            .ok_or_else(|| AdkError::new(ErrorCode::NotFound, format!("no object store {store}")))
    }

    fn in_range(&self, store: &str, range: &KeyRange) -> Result<Vec<String>, AdkError> {
        let name = self.layout(store)?.name;
        let records = self.records.lend();
        let all = records.get(name).map(Vec::as_slice).unwrap_or_default();
        Ok(all.iter().filter(|(key, _, _)| range.contains(key)).map(|(_, text, _)| text.clone()).collect())
    }
}

impl KvTransaction for Transaction {
    async fn get(&self, store: &str, key: &[KeyPart]) -> Result<Option<String>, AdkError> {
        let name = self.layout(store)?.name;
        let records = self.records.lend();
        Ok(records.get(name).and_then(|all| all.iter().find(|(k, _, _)| k == key)).map(|(_, text, _)| text.clone()))
    }

    async fn get_all(&self, store: &str, range: &KeyRange) -> Result<Vec<String>, AdkError> {
        self.in_range(store, range)
    }

    async fn walk_back(
        &self,
        store: &str,
        range: &KeyRange,
        mut more: impl FnMut(&str) -> Result<bool, AdkError>,
    ) -> Result<(), AdkError> {
        let records = self.in_range(store, range)?;
        for text in records.iter().rev() {
            if !more(text)? {
                break;
            }
        }
        Ok(())
    }

    async fn get_all_by(&self, store: &str, index: &str, prefix: &[KeyPart]) -> Result<Vec<String>, AdkError> {
        let layout = self.layout(store)?;
        let (_, path) = layout
            .indexes
            .iter()
            .find(|(name, _)| *name == index)
            .ok_or_else(|| AdkError::new(ErrorCode::NotFound, format!("no index {index} on {store}")))?;
        let mut found = Vec::new();
        for (key, text, _) in self.records.lend().get(layout.name).map(Vec::as_slice).unwrap_or_default() {
            let record: Value = decode(store, text)?;
            let by = key_of(&record, path, store)?;
            if by.starts_with(prefix) {
                found.push((by, key.clone(), text.clone()));
            }
        }
        found.sort_by(|a, b| order(&a.0, &b.0).then_with(|| order(&a.1, &b.1)));
        Ok(found.into_iter().map(|(_, _, text)| text).collect())
    }

    async fn keys(&self, store: &str, range: &KeyRange) -> Result<Vec<Vec<KeyPart>>, AdkError> {
        let name = self.layout(store)?.name;
        let records = self.records.lend();
        let all = records.get(name).map(Vec::as_slice).unwrap_or_default();
        Ok(all.iter().filter(|(key, _, _)| range.contains(key)).map(|(key, _, _)| key.clone()).collect())
    }

    async fn get_with_bytes(
        &self,
        store: &str,
        key: &[KeyPart],
    ) -> Result<Option<(String, Option<Vec<u8>>)>, AdkError> {
        let name = self.layout(store)?.name;
        let records = self.records.lend();
        let found = records.get(name).and_then(|all| all.iter().find(|(k, _, _)| k == key));
        Ok(found.map(|(_, text, bytes)| (text.clone(), bytes.clone())))
    }

    fn put(&self, store: &str, record: &str) -> Result<(), AdkError> {
        self.write(store, record, None)
    }

    fn put_with_bytes(&self, store: &str, record: &str, bytes: &[u8]) -> Result<(), AdkError> {
        self.write(store, record, Some(bytes.to_vec()))
    }

    fn delete(&self, store: &str, range: &KeyRange) -> Result<(), AdkError> {
        let name = self.layout(store)?.name;
        if let Some(all) = self.records.lend_mut().get_mut(name) {
            all.retain(|(key, _, _)| !range.contains(key));
        }
        Ok(())
    }

    async fn commit(self, _doing: &str) -> Result<(), AdkError> {
        if let Some(target) = &self.target {
            *target.lend_mut() = std::mem::take(&mut *self.records.lend_mut());
        }
        Ok(())
    }
}
