//! Keyword memory kept in memory (ADK's `InMemoryMemoryService`).

use adk_core::cell::Lend;
use std::cell::RefCell;

use async_trait::async_trait;

use super::search::{has_content, memory_text, rank, UNKNOWN_SESSION_ID};
use super::{MemoryService, SearchMemoryResponse};
use crate::pairs::entry;
use crate::session::Session;
use crate::{AdkError, Event};

#[derive(Debug)]
struct Remembered {
    event: Event,
    /// The event's text parts, joined, NFC-normalised and lower-cased once at insertion.
    text: String,
}

impl Remembered {
    fn new(event: &Event) -> Self {
        Remembered { event: event.clone(), text: memory_text(event) }
    }
}

/// (app, user, session id) or (app, user, memory id).
type Key = (String, String, String);

/// Lists rather than hashed maps (`crate::pairs`): every search reads all of them anyway.
#[derive(Debug, Default)]
struct Store {
    /// (app, user, session id) → remembered events, sessions in insertion order.
    events: Vec<(Key, Vec<Remembered>)>,
    /// Memory ids deleted with `delete_memory`, never re-added.
    deleted: Vec<Key>,
}

/// Keyword search over remembered events: a search returns at most ten memories,
/// those sharing the most words with the query, ties in insertion order.
#[derive(Debug, Default)]
pub struct InMemoryMemoryService {
    store: RefCell<Store>,
}

fn key(app_name: &str, user_id: &str, id: &str) -> Key {
    (app_name.to_string(), user_id.to_string(), id.to_string())
}

impl InMemoryMemoryService {
    /// An empty service.
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait(?Send)]
impl MemoryService for InMemoryMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), AdkError> {
        let mut store = self.store.lend_mut();
        let (app, user) = (&session.app_name, &session.user_id);
        let mut remembered = Vec::new();
        for event in session.events.iter() {
            if has_content(event) && !store.deleted.contains(&key(app, user, &event.id)) {
                remembered.push(Remembered::new(event));
            }
        }
        if let Some(slot) = entry(&mut store.events, key(app, user, &session.id)) {
            *slot = remembered;
        }
        Ok(())
    }

    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        events: &[Event],
        session_id: Option<&str>,
    ) -> Result<(), AdkError> {
        let mut store = self.store.lend_mut();
        let session = session_id.filter(|s| !s.is_empty()).unwrap_or(UNKNOWN_SESSION_ID);
        let Store { events: remembered, deleted } = &mut *store;
        let Some(existing) = entry(remembered, key(app_name, user_id, session)) else { return Ok(()) };
        for event in events.iter().filter(|e| has_content(e)) {
            let known = existing.iter().any(|r| r.event.id == event.id);
            if !known && !deleted.contains(&key(app_name, user_id, &event.id)) {
                existing.push(Remembered::new(event));
            }
        }
        Ok(())
    }

    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError> {
        let mut store = self.store.lend_mut();
        let mut found = false;
        for ((app, user, _), events) in store.events.iter_mut() {
            if app == app_name && user == user_id {
                let before = events.len();
                events.retain(|r| r.event.id != memory_id);
                found |= events.len() != before;
            }
        }
        let deleted = key(app_name, user_id, memory_id);
        if found && !store.deleted.contains(&deleted) {
            store.deleted.push(deleted);
        }
        Ok(())
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, AdkError> {
        let store = self.store.lend();
        let mut remembered = Vec::new();
        for ((app, user, _), events) in store.events.iter() {
            if app == app_name && user == user_id {
                for r in events {
                    remembered.push((&r.event, r.text.as_str()));
                }
            }
        }
        Ok(rank(query, &remembered))
    }
}
