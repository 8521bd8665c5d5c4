//! Memory in a key-value store ([`crate::store`]): the browser's IndexedDB in the wasm crate,
//! [`crate::store::InMemoryStore`] in the native tests. The same semantics as
//! [`super::InMemoryMemoryService`] (what is remembered, the same word search and ranking, ties in
//! the order things were remembered, deleted memories never coming back).
//!
//! Three object stores: `memories` (one record per remembered event, by user, then by the slot its
//! session got when first remembered, so a search sees them in the order they were remembered,
//! then by its order in the session), `memorySessions` (each remembered session's slot) and
//! `memoryDeleted` (the ids deleted for good).

use async_trait::async_trait;

use super::{has_content, memory_text, rank, MemoryService, SearchMemoryResponse, UNKNOWN_SESSION_ID};
use crate::session::Session;
use crate::store::{decode, get, put, KeyRange, KvStore, KvTransaction, StoreLayout};
use crate::{AdkError, Event};

/// Remembered events.
pub const MEMORIES: &str = "memories";
/// Each remembered session's slot.
pub const MEMORY_SESSIONS: &str = "memorySessions";
/// Memory ids deleted for good.
pub const MEMORY_DELETED: &str = "memoryDeleted";

/// The object stores the memory takes.
pub const LAYOUT: &[StoreLayout] = &[
    StoreLayout { name: MEMORIES, key_path: &["appName", "userId", "slot", "seq"], indexes: &[] },
    StoreLayout { name: MEMORY_SESSIONS, key_path: &["appName", "userId", "sessionId"], indexes: &[] },
    StoreLayout { name: MEMORY_DELETED, key_path: &["appName", "userId", "id"], indexes: &[] },
];

adk_core::json_struct! {
    /// One remembered event.
    struct MemoryRow {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        slot: u64 => "slot" req,
        seq: u64 => "seq" req,
        id: String => "id" req,
        /// What it is searched by ([`memory_text`]).
        text: String => "text" req,
        /// The event's ADK JSON, as text.
        event: String => "event" req,
    }
}

adk_core::json_struct! {
    /// A remembered session's slot, or a deleted memory's id.
    struct MarkRow {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        session_id: Option<String> => "sessionId" opt,
        slot: Option<u64> => "slot" opt,
        id: Option<String> => "id" opt,
    }
}

/// Keyword memory, with its slots and deletions, in one store.
pub struct StoredMemoryService<S> {
    db: S,
}

const STORES: [&str; 3] = [MEMORIES, MEMORY_SESSIONS, MEMORY_DELETED];

/// Every record of `store` under `prefix`, in key order.
async fn all(tx: &impl KvTransaction, store: &str, prefix: &[&str]) -> Result<Vec<String>, AdkError> {
    tx.get_all(store, &KeyRange::prefix(prefix)).await
}

/// The memories of one slot.
fn slot_range(app: &str, user: &str, slot: u64) -> KeyRange {
    KeyRange { from: Some(slot), to: Some(slot), ..KeyRange::prefix(&[app, user]) }
}

impl<S: KvStore> StoredMemoryService<S> {
    /// The service over `db`, whose object stores include [`LAYOUT`]'s.
    pub fn new(db: S) -> Self {
        StoredMemoryService { db }
    }

    /// The ids deleted for good for this user.
    async fn deleted(&self, tx: &S::Transaction, app: &str, user: &str) -> Result<Vec<String>, AdkError> {
        let rows = all(tx, MEMORY_DELETED, &[app, user]).await?;
        // A loop rather than collecting `Result`s: that adapter is code of its own per item type.
        let mut ids = Vec::new();
        for row in &rows {
            ids.push(decode::<MarkRow>("deleted memory", row)?.id.unwrap_or_default());
        }
        Ok(ids)
    }

    /// The slot of `session` for this user: the one it got when first remembered, else the next.
    async fn slot(&self, tx: &S::Transaction, app: &str, user: &str, session: &str) -> Result<u64, AdkError> {
        if let Some(mark) = get::<MarkRow>(tx, MEMORY_SESSIONS, &[app, user, session]).await? {
            return Ok(mark.slot.unwrap_or_default());
        }
        let slot = all(tx, MEMORY_SESSIONS, &[app, user]).await?.len() as u64;
        let mark = MarkRow {
            app_name: app.into(),
            user_id: user.into(),
            session_id: Some(session.into()),
            slot: Some(slot),
            id: None,
        };
        put(tx, MEMORY_SESSIONS, &mark)?;
        Ok(slot)
    }

    /// Writes `events` (those with content, not deleted) into `slot` from `seq` on; with `known`,
    /// only those whose ids are not known yet (adding events skips what is remembered, a whole
    /// session replaces it as it is).
    fn remember(
        tx: &S::Transaction,
        (app, user): (&str, &str),
        slot: u64,
        mut seq: u64,
        events: &[Event],
        deleted: &[String],
        mut known: Option<Vec<String>>,
    ) -> Result<(), AdkError> {
        for event in events.iter().filter(|e| has_content(e) && !deleted.contains(&e.id)) {
            if let Some(known) = known.as_mut() {
                if known.contains(&event.id) {
                    continue;
                }
                known.push(event.id.clone());
            }
            let row = MemoryRow {
                app_name: app.into(),
                user_id: user.into(),
                slot,
                seq,
                id: event.id.clone(),
                text: memory_text(event),
                event: event.to_json()?,
            };
            put(tx, MEMORIES, &row)?;
            seq += 1;
        }
        Ok(())
    }
}

#[async_trait(?Send)]
impl<S: KvStore> MemoryService for StoredMemoryService<S> {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), AdkError> {
        let (app, user) = (session.app_name.as_str(), session.user_id.as_str());
        let tx = self.db.write(&STORES).await?;
        let deleted = self.deleted(&tx, app, user).await?;
        let slot = self.slot(&tx, app, user, &session.id).await?;
        // What was remembered of the session is replaced.
        tx.delete(MEMORIES, &slot_range(app, user, slot))?;
        let events = session.events.to_vec();
        Self::remember(&tx, (app, user), slot, 0, &events, &deleted, None)?;
        tx.commit("remembering a session").await
    }

    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        events: &[Event],
        session_id: Option<&str>,
    ) -> Result<(), AdkError> {
        let session = session_id.filter(|s| !s.is_empty()).unwrap_or(UNKNOWN_SESSION_ID);
        let tx = self.db.write(&STORES).await?;
        let deleted = self.deleted(&tx, app_name, user_id).await?;
        let slot = self.slot(&tx, app_name, user_id, session).await?;
        let mut known = Vec::new();
        let mut next = 0;
        for row in tx.get_all(MEMORIES, &slot_range(app_name, user_id, slot)).await? {
            let row: MemoryRow = decode("memory", &row)?;
            known.push(row.id);
            next = next.max(row.seq + 1);
        }
        Self::remember(&tx, (app_name, user_id), slot, next, events, &deleted, Some(known))?;
        tx.commit("remembering events").await
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, AdkError> {
        let tx = self.db.read(&[MEMORIES]).await?;
        let mut remembered: Vec<(Event, String)> = Vec::new();
        for row in all(&tx, MEMORIES, &[app_name, user_id]).await? {
            let row: MemoryRow = decode("memory", &row)?;
            remembered.push((decode::<Event>("event", &row.event)?, row.text));
        }
        let mut pairs = Vec::with_capacity(remembered.len());
        for (event, text) in &remembered {
            pairs.push((event, text.as_str()));
        }
        Ok(rank(query, &pairs))
    }

    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError> {
        let tx = self.db.write(&STORES).await?;
        let mut found = false;
        for value in all(&tx, MEMORIES, &[app_name, user_id]).await? {
            let row: MemoryRow = decode("memory", &value)?;
            if row.id == memory_id {
                let key = vec![app_name.into(), user_id.into(), row.slot.into(), row.seq.into()];
                tx.delete(MEMORIES, &KeyRange { prefix: key, from: None, to: None })?;
                found = true;
            }
        }
        if found {
            let mark = MarkRow {
                app_name: app_name.into(),
                user_id: user_id.into(),
                session_id: None,
                slot: None,
                id: Some(memory_id.into()),
            };
            put(&tx, MEMORY_DELETED, &mark)?;
        }
        tx.commit("deleting a memory").await
    }
}
