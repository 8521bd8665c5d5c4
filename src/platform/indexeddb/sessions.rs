//! Sessions in IndexedDB: the same semantics as `InMemorySessionService` (scopes, `appendEvent`
//! rules, listing order), kept across reloads.
//!
//! Four stores: `sessions` (a session's own state, its last update time and its event count),
//! `events` (one record per event, its ADK JSON kept as text so it reads back byte for byte),
//! `appState` and `userState`. Appending writes the event, the session record and the changed
//! shared state in one transaction, never the history again; reading the last ten events reads
//! those ten records.
//!
//! Two tabs: a session object is stale when another tab appended to the session after it was
//! read (its `lastUpdateTime` is older than the stored one). Appending through it is refused with
//! `FAILED_PRECONDITION` and nothing is written, as ADK's `DatabaseSessionService` refuses it; the
//! caller reads the session again and retries. Two appends never lose a write: each reads and
//! writes the session record inside its own transaction.

use std::rc::Rc;

use adk_runtime::session::{
    apply_event, scoped_view, split_state_delta, trim_temp_delta, Events, GetSessionConfig, Session, SessionService,
};
use async_trait::async_trait;
use wasm_bindgen::JsCast;

use super::records::{from_js, get, get_all, key, put};
use super::schema::{APP_STATE, BY_UPDATE, EVENTS, SCHEMA, SESSIONS, USER_STATE};
use super::{done, idb_error, numbered_range, prefix_range, Connection, IdbCursor, IdbTransaction};
use adk_core::limits::Limit;
use adk_core::types::JsonObject;
use adk_core::{AdkError, ErrorCode, Event};

adk_core::json_struct! {
    /// A session's record.
    struct SessionRow {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        id: String => "id" req,
        state: JsonObject => "state" def,
        last_update_time: f64 => "lastUpdateTime" req,
        /// How many events it holds: the next event's number.
        seq: u64 => "seq" def,
        /// The size of its events' JSON; absent in sessions stored before it was counted.
        bytes: Option<u64> => "bytes" opt,
    }
}

adk_core::json_struct! {
    /// One event of a session.
    struct EventRow {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        session_id: String => "sessionId" req,
        seq: u64 => "seq" req,
        timestamp: f64 => "timestamp" req,
        /// The event's ADK JSON, as text.
        event: String => "event" req,
    }
}

adk_core::json_struct! {
    /// An app's or a user's shared state.
    struct StateRow {
        app_name: String => "appName" req,
        user_id: Option<String> => "userId" opt,
        state: JsonObject => "state" def,
    }
}

/// Sessions, with their events, state and shared state, in one IndexedDB database.
pub struct IndexedDbSessionService {
    db: Connection,
}

/// The size of the events a session stored before their size was counted, read once.
async fn stored_bytes(tx: &IdbTransaction, key: &[&str; 3]) -> Result<u64, AdkError> {
    let events = get_all(tx, EVENTS, &numbered_range(key, 0, true)?, "reading events").await?;
    let mut bytes = 0u64;
    for value in events.iter() {
        bytes = bytes.saturating_add(from_js::<EventRow>("event", &value)?.event.len() as u64);
    }
    Ok(bytes)
}

impl IndexedDbSessionService {
    /// The service over the database `database_name` (created on first use).
    pub fn new(database_name: &str) -> Self {
        IndexedDbSessionService { db: Connection::new(database_name, SCHEMA) }
    }

    /// The app's and the user's shared state, read in `tx`.
    async fn shared(&self, tx: &IdbTransaction, app: &str, user: &str) -> Result<(JsonObject, JsonObject), AdkError> {
        let app_state: Option<StateRow> = get(tx, APP_STATE, &[app]).await?;
        let user_state: Option<StateRow> = get(tx, USER_STATE, &[app, user]).await?;
        Ok((app_state.map(|r| r.state).unwrap_or_default(), user_state.map(|r| r.state).unwrap_or_default()))
    }

    /// Adds the deltas to the app's and the user's shared state, in `tx`; a scope without a delta
    /// is neither read nor written (most events change neither).
    async fn extend_shared(
        &self,
        tx: &IdbTransaction,
        app: &str,
        user: &str,
        app_delta: JsonObject,
        user_delta: JsonObject,
    ) -> Result<(), AdkError> {
        if !app_delta.is_empty() {
            let mut state = get::<StateRow>(tx, APP_STATE, &[app]).await?.map(|r| r.state).unwrap_or_default();
            state.extend(app_delta);
            put(tx, APP_STATE, &StateRow { app_name: app.into(), user_id: None, state })?;
        }
        if !user_delta.is_empty() {
            let mut state = get::<StateRow>(tx, USER_STATE, &[app, user]).await?.map(|r| r.state).unwrap_or_default();
            state.extend(user_delta);
            put(tx, USER_STATE, &StateRow { app_name: app.into(), user_id: Some(user.into()), state })?;
        }
        Ok(())
    }
}

impl IndexedDbSessionService {
    /// Stores `session` as it is (ADK's session JSON: its state with `app:` and `user:` keys, its
    /// events), in one transaction: a conversation moved from an ADK server or another browser.
    /// A session with that id already there is `ALREADY_EXISTS`.
    /// Returns the id it is stored under (trimmed, as `getSession` reads it).
    pub async fn import_session(&self, session: &Session) -> Result<String, AdkError> {
        let id = session.id.trim();
        if id.is_empty() {
            return Err(AdkError::invalid("importSession: the session's id must not be blank"));
        }
        let tx = self.db.write(&[SESSIONS, EVENTS, APP_STATE, USER_STATE]).await?;
        let (app, user) = (session.app_name.as_str(), session.user_id.as_str());
        if get::<SessionRow>(&tx, SESSIONS, &[app, user, id]).await?.is_some() {
            return Err(AdkError::new(ErrorCode::AlreadyExists, format!("Session with id {id} already exists.")));
        }
        let scopes = split_state_delta(&session.state);
        self.extend_shared(&tx, app, user, scopes.app, scopes.user).await?;
        let (mut seq, mut bytes) = (0, 0u64);
        for event in session.events.iter() {
            let text = event.to_json()?;
            bytes = bytes.saturating_add(text.len() as u64);
            // Over the limit, nothing is stored: the transaction aborts uncommitted.
            Limit::session().check(&format!("session {id}"), usize::try_from(bytes).unwrap_or(usize::MAX))?;
            let record = EventRow {
                app_name: app.into(),
                user_id: user.into(),
                session_id: id.into(),
                seq,
                timestamp: event.timestamp,
                event: text,
            };
            put(&tx, EVENTS, &record)?;
            seq += 1;
        }
        let row = SessionRow {
            app_name: app.into(),
            user_id: user.into(),
            id: id.into(),
            state: scopes.session,
            last_update_time: session.last_update_time,
            seq,
            bytes: Some(bytes),
        };
        put(&tx, SESSIONS, &row)?;
        tx.commit("importing a session").await?;
        Ok(id.to_string())
    }
}

fn view(row: &SessionRow, app: &JsonObject, user: &JsonObject, events: Events) -> Session {
    Session {
        id: row.id.clone(),
        app_name: row.app_name.clone(),
        user_id: row.user_id.clone(),
        state: scoped_view(&row.state, Some(app), Some(user)),
        events,
        last_update_time: row.last_update_time,
    }
}

/// The events `config` asks for, oldest first: at most `num_recent_events` of the newest, and of
/// those none older than `after_timestamp`. With a count, one request reads exactly the records
/// it needs (events are numbered, and the session record says how many there are); only
/// `after_timestamp` alone walks a cursor back from the newest.
async fn read_events(
    tx: &IdbTransaction,
    row: &SessionRow,
    config: Option<&GetSessionConfig>,
) -> Result<Events, AdkError> {
    let key = [row.app_name.as_str(), row.user_id.as_str(), row.id.as_str()];
    let store = tx.object_store(EVENTS).map_err(|e| idb_error(&e, "reading events"))?;
    let limit = config.and_then(|c| c.num_recent_events);
    let after = config.and_then(|c| c.after_timestamp);
    let mut rows: Vec<EventRow> = Vec::new();
    match (limit, after) {
        (Some(0), _) => {}
        (None, Some(after)) => {
            let cursor =
                store.open_cursor(&prefix_range(&key)?, "prev").map_err(|e| idb_error(&e, "reading events"))?;
            loop {
                let at = done(&cursor, "reading events").await?;
                if at.is_null() || at.is_undefined() {
                    break;
                }
                let at: IdbCursor = at.unchecked_into();
                let row: EventRow = from_js("event", &at.value())?;
                if row.timestamp < after {
                    break;
                }
                rows.push(row);
                at.advance().map_err(|e| idb_error(&e, "reading events"))?;
            }
            rows.reverse();
        }
        (limit, after) => {
            let first = limit.map_or(0, |n| row.seq.saturating_sub(n));
            let range = numbered_range(&key, first, true)?;
            for value in get_all(tx, EVENTS, &range, "reading events").await?.iter() {
                rows.push(from_js("event", &value)?);
            }
            // Of those, the newest run at or after `after_timestamp`.
            if let Some(after) = after {
                let keep = rows.iter().rev().take_while(|r| r.timestamp >= after).count();
                rows.drain(..rows.len() - keep);
            }
        }
    }
    let mut events = Events::new();
    for row in rows {
        events.push_shared(Rc::new(Event::from_json(&row.event)?));
    }
    Ok(events)
}

#[async_trait(?Send)]
impl SessionService for IndexedDbSessionService {
    async fn create_session(
        &self,
        app_name: &str,
        user_id: &str,
        state: Option<JsonObject>,
        session_id: Option<&str>,
    ) -> Result<Session, AdkError> {
        let tx = self.db.write(&[SESSIONS, APP_STATE, USER_STATE]).await?;
        let id = match session_id.map(str::trim).filter(|id| !id.is_empty()) {
            Some(id) => {
                if get::<SessionRow>(&tx, SESSIONS, &[app_name, user_id, id]).await?.is_some() {
                    return Err(AdkError::new(
                        ErrorCode::AlreadyExists,
                        format!("Session with id {id} already exists."),
                    ));
                }
                id.to_string()
            }
            None => adk_core::platform::new_uuid(),
        };
        let scopes = split_state_delta(&state.unwrap_or_default());
        self.extend_shared(&tx, app_name, user_id, scopes.app, scopes.user).await?;
        let (app, user) = self.shared(&tx, app_name, user_id).await?;
        let row = SessionRow {
            app_name: app_name.into(),
            user_id: user_id.into(),
            id,
            state: scopes.session,
            last_update_time: adk_core::platform::now_seconds(),
            seq: 0,
            bytes: Some(0),
        };
        put(&tx, SESSIONS, &row)?;
        tx.commit("creating a session").await?;
        Ok(view(&row, &app, &user, Events::new()))
    }

    async fn get_session(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: &str,
        config: Option<&GetSessionConfig>,
    ) -> Result<Option<Session>, AdkError> {
        let tx = self.db.read(&[SESSIONS, EVENTS, APP_STATE, USER_STATE]).await?;
        let key = [app_name, user_id, session_id.trim()];
        let Some(row) = get::<SessionRow>(&tx, SESSIONS, &key).await? else { return Ok(None) };
        let events = read_events(&tx, &row, config).await?;
        let (app, user) = self.shared(&tx, app_name, user_id).await?;
        Ok(Some(view(&row, &app, &user, events)))
    }

    async fn list_sessions(&self, app_name: &str, user_id: Option<&str>) -> Result<Vec<Session>, AdkError> {
        let tx = self.db.read(&[SESSIONS, APP_STATE, USER_STATE]).await?;
        let index = tx
            .object_store(SESSIONS)
            .and_then(|s| s.index(BY_UPDATE))
            .map_err(|e| idb_error(&e, "listing sessions"))?;
        let rows = index.get_all(&prefix_range(&[app_name])?).map_err(|e| idb_error(&e, "listing sessions"))?;
        let rows = done(&rows, "listing sessions").await?;
        let app: Option<StateRow> = get(&tx, APP_STATE, &[app_name]).await?;
        let app = app.map(|r| r.state).unwrap_or_default();
        let mut users: Vec<(String, JsonObject)> = Vec::new();
        let mut sessions = Vec::new();
        for value in js_sys::Array::from(&rows).iter() {
            let row: SessionRow = from_js("session", &value)?;
            if user_id.is_some_and(|u| u != row.user_id) {
                continue;
            }
            if !users.iter().any(|(u, _)| *u == row.user_id) {
                let state: Option<StateRow> = get(&tx, USER_STATE, &[app_name, &row.user_id]).await?;
                users.push((row.user_id.clone(), state.map(|r| r.state).unwrap_or_default()));
            }
            let user = users.iter().find(|(u, _)| *u == row.user_id).map(|(_, s)| s.clone()).unwrap_or_default();
            sessions.push(view(&row, &app, &user, Events::new()));
        }
        Ok(sessions)
    }

    async fn delete_session(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<(), AdkError> {
        let tx = self.db.write(&[SESSIONS, EVENTS]).await?;
        let id = session_id.trim();
        let stores = tx.object_store(SESSIONS).and_then(|s| Ok((s, tx.object_store(EVENTS)?)));
        let (sessions, events) = stores.map_err(|e| idb_error(&e, "deleting a session"))?;
        sessions.delete(&key(&[app_name, user_id, id])).map_err(|e| idb_error(&e, "deleting a session"))?;
        events.delete(&prefix_range(&[app_name, user_id, id])?).map_err(|e| idb_error(&e, "deleting a session"))?;
        tx.commit("deleting a session").await
    }

    async fn append_event(&self, session: &mut Session, event: Event) -> Result<Event, AdkError> {
        if event.partial == Some(true) {
            return Ok(event);
        }
        let tx = self.db.write(&[SESSIONS, EVENTS, APP_STATE, USER_STATE]).await?;
        let (app_name, user_id) = (session.app_name.clone(), session.user_id.clone());
        let key = [app_name.as_str(), user_id.as_str(), session.id.as_str()];
        let Some(mut row) = get::<SessionRow>(&tx, SESSIONS, &key).await? else {
            return Err(AdkError::new(ErrorCode::NotFound, format!("Session {} not found.", session.id)));
        };
        if row.last_update_time > session.last_update_time {
            return Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                format!(
                    "Session {} was changed after this copy of it was read (by another tab?): get the session again \
                     and append to that",
                    session.id
                ),
            ));
        }
        let mut stored = event.clone();
        trim_temp_delta(&mut stored);
        let scopes = split_state_delta(&stored.actions.state_delta);
        let text = stored.to_json()?;
        let held = match row.bytes {
            Some(bytes) => bytes,
            None => stored_bytes(&tx, &key).await?,
        };
        let bytes = held.saturating_add(text.len() as u64);
        Limit::session().check(&format!("session {}", session.id), usize::try_from(bytes).unwrap_or(usize::MAX))?;
        let record = EventRow {
            app_name: app_name.clone(),
            user_id: user_id.clone(),
            session_id: session.id.clone(),
            seq: row.seq,
            timestamp: stored.timestamp,
            event: text,
        };
        put(&tx, EVENTS, &record)?;
        row.seq += 1;
        row.bytes = Some(bytes);
        row.state.extend(scopes.session);
        row.last_update_time = stored.timestamp;
        put(&tx, SESSIONS, &row)?;
        self.extend_shared(&tx, &app_name, &user_id, scopes.app, scopes.user).await?;
        tx.commit("appending an event").await?;
        // Only what is committed reaches the caller's copy of the session.
        Ok(Rc::unwrap_or_clone(apply_event(session, event)))
    }
}
