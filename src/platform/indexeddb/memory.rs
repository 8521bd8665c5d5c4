//! Memory in IndexedDB: the same semantics as `InMemoryMemoryService` (what is remembered, the
//! same word search and ranking, ties in the order things were remembered, deleted memories never
//! coming back), kept across reloads.

use adk_core::{AdkError, Event};
use adk_runtime::memory::{has_content, memory_text, rank, MemoryService, SearchMemoryResponse, UNKNOWN_SESSION_ID};
use adk_runtime::session::Session;
use async_trait::async_trait;

use super::records::{from_js, get, get_all, put};
use super::schema::{MEMORIES, MEMORY_DELETED, MEMORY_SESSIONS, SCHEMA};
use super::{idb_error, numbered_key, numbered_range, prefix_range, Connection, IdbTransaction};

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

/// Keyword memory in one IndexedDB database.
pub struct IndexedDbMemoryService {
    db: Connection,
}

const STORES: [&str; 3] = [MEMORIES, MEMORY_SESSIONS, MEMORY_DELETED];

/// Every record of `store` under `prefix`, in key order.
async fn all(tx: &IdbTransaction, store: &str, prefix: &[&str]) -> Result<js_sys::Array, AdkError> {
    get_all(tx, store, &prefix_range(prefix)?, "reading the memory").await
}

impl IndexedDbMemoryService {
    /// The service over the database `database_name` (shared with the other services).
    pub fn new(database_name: &str) -> Self {
        IndexedDbMemoryService { db: Connection::new(database_name, SCHEMA) }
    }

    /// The ids deleted for good for this user.
    async fn deleted(&self, tx: &IdbTransaction, app: &str, user: &str) -> Result<Vec<String>, AdkError> {
        let rows = all(tx, MEMORY_DELETED, &[app, user]).await?;
        rows.iter().map(|r| from_js::<MarkRow>("deleted memory", &r).map(|m| m.id.unwrap_or_default())).collect()
    }

    /// The slot of `session` for this user: the one it got when first remembered, else the next.
    async fn slot(&self, tx: &IdbTransaction, app: &str, user: &str, session: &str) -> Result<u64, AdkError> {
        if let Some(mark) = get::<MarkRow>(tx, MEMORY_SESSIONS, &[app, user, session]).await? {
            return Ok(mark.slot.unwrap_or_default());
        }
        let slot = all(tx, MEMORY_SESSIONS, &[app, user]).await?.length().into();
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
        tx: &IdbTransaction,
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
impl MemoryService for IndexedDbMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), AdkError> {
        let (app, user) = (session.app_name.as_str(), session.user_id.as_str());
        let tx = self.db.write(&STORES).await?;
        let deleted = self.deleted(&tx, app, user).await?;
        let slot = self.slot(&tx, app, user, &session.id).await?;
        // What was remembered of the session is replaced.
        let store = tx.object_store(MEMORIES).map_err(|e| idb_error(&e, "remembering a session"))?;
        store
            .delete(&numbered_range(&[app, user], slot, false)?)
            .map_err(|e| idb_error(&e, "remembering a session"))?;
        let events: Vec<Event> = session.events.iter().map(Event::clone).collect();
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
        let range = numbered_range(&[app_name, user_id], slot, false)?;
        for row in get_all(&tx, MEMORIES, &range, "remembering events").await?.iter() {
            let row: MemoryRow = from_js("memory", &row)?;
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
        for row in all(&tx, MEMORIES, &[app_name, user_id]).await?.iter() {
            let row: MemoryRow = from_js("memory", &row)?;
            remembered.push((Event::from_json(&row.event)?, row.text));
        }
        Ok(rank(query, remembered.iter().map(|(event, text)| (event, text.as_str()))))
    }

    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError> {
        let tx = self.db.write(&STORES).await?;
        let store = tx.object_store(MEMORIES).map_err(|e| idb_error(&e, "deleting a memory"))?;
        let mut found = false;
        for value in all(&tx, MEMORIES, &[app_name, user_id]).await?.iter() {
            let row: MemoryRow = from_js("memory", &value)?;
            if row.id == memory_id {
                store
                    .delete(&numbered_key(&[app_name, user_id], &[row.slot, row.seq]))
                    .map_err(|e| idb_error(&e, "deleting a memory"))?;
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
