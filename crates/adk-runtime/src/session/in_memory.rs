//! Sessions kept in memory, the browser tab being the database (ADK's `InMemorySessionService`).

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use adk_core::sort::sort_by;
use async_trait::async_trait;

use super::{
    already_exists, apply_event, check_size, event_text, not_found, scoped_view, split_state_delta, trim_temp_delta,
    Events, GetSessionConfig, Recorded, Session, SessionService, TEMP_PREFIX,
};
use crate::types::JsonObject;
use crate::{platform, AdkError, Event};

/// A stored session: its own keys only; app and user state live in their shared stores.
#[derive(Debug)]
struct Stored {
    state: JsonObject,
    events: Events,
    last_update_time: f64,
    /// The size of the events' JSON, held to `maxSessionBytes`.
    bytes: usize,
}

/// Sessions in one flat list sorted by their whole key (app, user, id), found by binary search;
/// the shared state in lists (a page has few apps and users). Lists rather than hashed maps: each
/// map type compiles a hash table of its own, several KB of download.
#[derive(Debug, Default)]
struct Store {
    /// ((app, user, session id), session), in key order.
    sessions: Vec<((String, String, String), Stored)>,
    /// ((app, ""), the app's state): keyed as user state is, so that both lists are one type.
    app_state: Vec<((String, String), JsonObject)>,
    /// ((app, user), the user's state).
    user_state: Vec<((String, String), JsonObject)>,
}

/// Keeps sessions, app state and user state in memory.
///
/// Appending is O(1) amortised; `get_session` copies only the events it returns, so asking for
/// the last ten costs the same whatever the length of the history.
#[derive(Debug, Default)]
pub struct InMemorySessionService {
    store: RefCell<Store>,
}

impl InMemorySessionService {
    /// An empty service.
    pub fn new() -> Self {
        Self::default()
    }

    /// The user-scoped state of `user_id` in `app_name`, keys without `user:` (ADK 2.x `get_user_state`).
    pub fn get_user_state(&self, app_name: &str, user_id: &str) -> JsonObject {
        shared(&self.store.lend().user_state, app_name, user_id).cloned().unwrap_or_default()
    }
}

impl Store {
    /// Where the session is (`Ok`), or where it would go (`Err`); nothing is allocated to look.
    fn find(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<usize, usize> {
        let key = (app_name, user_id, session_id);
        self.sessions.binary_search_by(|((app, user, id), _)| (app.as_str(), user.as_str(), id.as_str()).cmp(&key))
    }

    fn stored(&self, app_name: &str, user_id: &str, session_id: &str) -> Option<&Stored> {
        let i = self.find(app_name, user_id, session_id).ok()?;
        self.sessions.get(i).map(|(_, stored)| stored)
    }

    /// The session as callers see it: its own keys, then `app:` and `user:` keys as of now.
    fn view(&self, app_name: &str, user_id: &str, id: &str, stored: &Stored, events: Events) -> Session {
        let app = shared(&self.app_state, app_name, "");
        let user = shared(&self.user_state, app_name, user_id);
        let state = scoped_view(&stored.state, app, user);
        Session {
            id: id.to_string(),
            app_name: app_name.to_string(),
            user_id: user_id.to_string(),
            state,
            events,
            last_update_time: stored.last_update_time,
        }
    }

    fn apply_shared_state(&mut self, app_name: &str, user_id: &str, app: JsonObject, user: JsonObject) {
        add_shared(&mut self.app_state, app_name, "", app);
        add_shared(&mut self.user_state, app_name, user_id, user);
    }
}

/// The shared state of `(app, user)` in `list` (`user` empty for an app's).
fn shared<'a>(list: &'a [((String, String), JsonObject)], app: &str, user: &str) -> Option<&'a JsonObject> {
    list.iter().find(|((a, u), _)| a == app && u == user).map(|(_, state)| state)
}

/// Adds `delta` to the shared state of `(app, user)` in `list`.
fn add_shared(list: &mut Vec<((String, String), JsonObject)>, app: &str, user: &str, delta: JsonObject) {
    if delta.is_empty() {
        return;
    }
    match list.iter_mut().find(|((a, u), _)| a == app && u == user) {
        Some((_, state)) => state.extend(delta),
        None => list.push(((app.to_string(), user.to_string()), delta)),
    }
}

/// The index of the first event `get_session` returns, found without copying any event.
fn first_returned(events: &Events, config: Option<&GetSessionConfig>) -> usize {
    let Some(config) = config else { return 0 };
    let mut start = match config.num_recent_events {
        Some(n) => events.len().saturating_sub(usize::try_from(n).unwrap_or(usize::MAX)),
        None => 0,
    };
    if let Some(after) = config.after_timestamp {
        // Walk back from the newest event to the first one older than `after` (ADK does the same).
        let newer = events.iter().rev().take(events.len() - start).take_while(|e| e.timestamp >= after).count();
        start = events.len() - newer;
    }
    start
}

#[async_trait(?Send)]
impl SessionService for InMemorySessionService {
    async fn create_session(
        &self,
        app_name: &str,
        user_id: &str,
        state: Option<JsonObject>,
        session_id: Option<&str>,
    ) -> Result<Session, AdkError> {
        let mut store = self.store.lend_mut();
        let given = session_id.map(str::trim).filter(|id| !id.is_empty());
        let session_id = given.map_or_else(platform::new_uuid, str::to_string);
        let at = store.find(app_name, user_id, &session_id);
        if let (Some(id), Ok(_)) = (given, at) {
            return Err(already_exists(id));
        }
        let scopes = split_state_delta(&state.unwrap_or_default());
        store.apply_shared_state(app_name, user_id, scopes.app, scopes.user);
        let stored = Stored {
            state: scopes.session,
            events: Events::new(),
            last_update_time: platform::now_seconds(),
            bytes: 0,
        };
        let session = store.view(app_name, user_id, &session_id, &stored, Events::new());
        let at = match at {
            // Only a fresh id that happened to be taken gets here: it replaces, as a map's insert did.
            Ok(i) => {
                store.sessions.remove(i);
                i
            }
            Err(at) => at,
        };
        store.sessions.insert(at, ((app_name.to_string(), user_id.to_string(), session_id), stored));
        Ok(session)
    }

    async fn get_session(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: &str,
        config: Option<&GetSessionConfig>,
    ) -> Result<Option<Session>, AdkError> {
        let store = self.store.lend();
        let session_id = session_id.trim();
        let Some(stored) = store.stored(app_name, user_id, session_id) else { return Ok(None) };
        let events = stored.events.from_index(first_returned(&stored.events, config));
        Ok(Some(store.view(app_name, user_id, session_id, stored, events)))
    }

    async fn list_sessions(&self, app_name: &str, user_id: Option<&str>) -> Result<Vec<Session>, AdkError> {
        let store = self.store.lend();
        let mut sessions: Vec<Session> = Vec::new();
        for ((app, uid, id), stored) in store.sessions.iter() {
            if app == app_name && user_id.is_none_or(|u| u == uid.as_str()) {
                sessions.push(store.view(app_name, uid, id, stored, Events::new()));
            }
        }
        // Oldest first, so the last one is the most recently active (ADK 2.x order).
        Ok(sort_by(sessions, |a, b| {
            a.last_update_time
                .total_cmp(&b.last_update_time)
                .then_with(|| a.user_id.cmp(&b.user_id))
                .then_with(|| a.id.cmp(&b.id))
                .is_lt()
        }))
    }

    async fn delete_session(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<(), AdkError> {
        let mut store = self.store.lend_mut();
        if let Ok(i) = store.find(app_name, user_id, session_id.trim()) {
            store.sessions.remove(i);
        }
        Ok(())
    }

    /// Appends `event` as its JSON text: one encoding measures it, is stored, and is what a run
    /// hands JS; the event itself goes back to the caller, and is decoded again only if the
    /// session's history is read.
    async fn append_event(&self, session: &mut Session, mut event: Event) -> Result<Event, AdkError> {
        if event.partial == Some(true) {
            return Ok(event);
        }
        let mut store = self.store.lend_mut();
        // Found once: its index serves the update below (this runs on every append).
        let found = store.find(&session.app_name, &session.user_id, &session.id).ok();
        let Some((index, (_, stored))) = found.and_then(|i| Some((i, store.sessions.get(i)?))) else {
            return Err(not_found(&session.id));
        };
        let stored_bytes = stored.bytes;
        // Measured as stored, without its `temp:` keys (the copy's state still gets them).
        let text = if event.actions.state_delta.keys().any(|k| k.starts_with(TEMP_PREFIX)) {
            let mut kept = event.clone();
            trim_temp_delta(&mut kept);
            event_text(&kept)
        } else {
            event_text(&event)
        };
        let bytes = stored_bytes.saturating_add(text.len());
        check_size(&session.id, bytes as u64)?;
        apply_event(session, &mut event);
        let recorded = Rc::new(Recorded::of(&event, text));
        session.record_shared(recorded.clone(), event.timestamp);
        let scopes = split_state_delta(&event.actions.state_delta);
        store.apply_shared_state(&session.app_name, &session.user_id, scopes.app, scopes.user);
        if let Some((_, stored)) = store.sessions.get_mut(index) {
            stored.state.extend(scopes.session);
            stored.last_update_time = event.timestamp;
            stored.bytes = bytes;
            stored.events.push_shared(recorded);
        }
        Ok(event)
    }
}
