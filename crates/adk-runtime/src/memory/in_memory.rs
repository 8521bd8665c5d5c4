//! Keyword memory kept in memory (ADK's `InMemoryMemoryService`).

use std::cell::RefCell;

use async_trait::async_trait;
use indexmap::{IndexMap, IndexSet};

use super::search::{has_content, memory_text, rank, UNKNOWN_SESSION_ID};
use super::{MemoryService, SearchMemoryResponse};
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

type UserKey = (String, String);

#[derive(Debug, Default)]
struct Store {
    /// (app, user) → session id → remembered events, in insertion order.
    events: IndexMap<UserKey, IndexMap<String, Vec<Remembered>>>,
    /// Memory ids deleted with `delete_memory`, never re-added.
    deleted: IndexMap<UserKey, IndexSet<String>>,
}

/// Keyword search over remembered events: a search returns at most ten memories,
/// those sharing the most words with the query, ties in insertion order.
#[derive(Debug, Default)]
pub struct InMemoryMemoryService {
    store: RefCell<Store>,
}

fn key(app_name: &str, user_id: &str) -> UserKey {
    (app_name.to_string(), user_id.to_string())
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
        let mut store = self.store.borrow_mut();
        let user = key(&session.app_name, &session.user_id);
        let deleted = store.deleted.get(&user).cloned().unwrap_or_default();
        let remembered =
            session.events.iter().filter(|e| has_content(e) && !deleted.contains(&e.id)).map(Remembered::new).collect();
        store.events.entry(user).or_default().insert(session.id.clone(), remembered);
        Ok(())
    }

    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        events: &[Event],
        session_id: Option<&str>,
    ) -> Result<(), AdkError> {
        let mut store = self.store.borrow_mut();
        let user = key(app_name, user_id);
        let deleted = store.deleted.get(&user).cloned().unwrap_or_default();
        let session = session_id.filter(|s| !s.is_empty()).unwrap_or(UNKNOWN_SESSION_ID);
        let existing = store.events.entry(user).or_default().entry(session.to_string()).or_default();
        let mut ids: IndexSet<String> = existing.iter().map(|r| r.event.id.clone()).collect();
        for event in events.iter().filter(|e| has_content(e)) {
            if !deleted.contains(&event.id) && ids.insert(event.id.clone()) {
                existing.push(Remembered::new(event));
            }
        }
        Ok(())
    }

    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError> {
        let mut store = self.store.borrow_mut();
        let user = key(app_name, user_id);
        let mut found = false;
        for events in store.events.get_mut(&user).into_iter().flat_map(|s| s.values_mut()) {
            let before = events.len();
            events.retain(|r| r.event.id != memory_id);
            found |= events.len() != before;
        }
        if found {
            store.deleted.entry(user).or_default().insert(memory_id.to_string());
        }
        Ok(())
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, AdkError> {
        let store = self.store.borrow();
        let remembered = store.events.get(&key(app_name, user_id)).into_iter().flat_map(|s| s.values().flatten());
        Ok(rank(query, remembered.map(|r| (&r.event, r.text.as_str()))))
    }
}
