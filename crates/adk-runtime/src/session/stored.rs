//! Sessions in a key-value store ([`crate::store`]): the browser's IndexedDB in the wasm crate,
//! [`crate::store::InMemoryStore`] in the native tests. The same semantics as
//! [`super::InMemorySessionService`] (scopes, `appendEvent` rules, listing order).
//!
//! Four object stores: `sessions` (a session's own state, its last update time, its event count
//! and the size of its events), `events` (one record per event, its ADK JSON kept as text so it
//! reads back byte for byte), `appState` and `userState`. Appending writes the event, the session
//! record and the changed shared state in one transaction, never the history again; reading the
//! last ten events reads those ten records.
//!
//! Two tabs: a session object is stale when another tab appended to the session after it was
//! read (its `lastUpdateTime` is older than the stored one). Appending through it is refused with
//! `FAILED_PRECONDITION` and nothing is written, as ADK's `DatabaseSessionService` refuses it; the
//! caller reads the session again and retries. Two appends never lose a write: each reads and
//! writes the session record inside its own transaction.

use async_trait::async_trait;

use super::{
    already_exists, apply_event, check_size, not_found, scoped_view, split_state_delta, trim_temp_delta, Events,
    GetSessionConfig, Session, SessionService,
};
use crate::store::{decode, get, key, put, KeyRange, KvStore, KvTransaction, StoreLayout};
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode, Event};

/// A session's record.
pub const SESSIONS: &str = "sessions";
/// One record per event.
pub const EVENTS: &str = "events";
/// An app's shared (`app:`) state.
pub const APP_STATE: &str = "appState";
/// A user's shared (`user:`) state.
pub const USER_STATE: &str = "userState";
/// Sessions by app and last update: listing reads them in ADK's order (oldest first; ties by user
/// and id, the record key).
pub const BY_UPDATE: &str = "byUpdateTime";

/// The object stores the sessions take.
pub const LAYOUT: &[StoreLayout] = &[
    StoreLayout {
        name: SESSIONS,
        key_path: &["appName", "userId", "id"],
        indexes: &[(BY_UPDATE, &["appName", "lastUpdateTime"])],
    },
    StoreLayout { name: EVENTS, key_path: &["appName", "userId", "sessionId", "seq"], indexes: &[] },
    StoreLayout { name: APP_STATE, key_path: &["appName"], indexes: &[] },
    StoreLayout { name: USER_STATE, key_path: &["appName", "userId"], indexes: &[] },
];

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

/// Sessions, with their events, state and shared state, in one store.
pub struct StoredSessionService<S> {
    db: S,
}

/// The shared state (an app's or a user's) at the key made of `parts` in `store`; empty when none
/// is stored.
async fn state_of(tx: &impl KvTransaction, store: &str, parts: &[&str]) -> Result<JsonObject, AdkError> {
    Ok(get::<StateRow>(tx, store, parts).await?.map(|r| r.state).unwrap_or_default())
}

/// `ALREADY_EXISTS` when a session is stored at `key`: creating and importing refuse it.
async fn refuse_taken(tx: &impl KvTransaction, key: [&str; 3]) -> Result<(), AdkError> {
    match get::<SessionRow>(tx, SESSIONS, &key).await? {
        Some(_) => Err(already_exists(key[2])),
        None => Ok(()),
    }
}

/// The size of the events a session stored before their size was counted, read once.
async fn stored_bytes(tx: &impl KvTransaction, key: &[&str; 3]) -> Result<u64, AdkError> {
    let mut bytes = 0u64;
    for text in tx.get_all(EVENTS, &KeyRange::numbered(key, 0)).await? {
        bytes = bytes.saturating_add(decode::<EventRow>("event", &text)?.event.len() as u64);
    }
    Ok(bytes)
}

impl<S: KvStore> StoredSessionService<S> {
    /// The service over `db`, whose object stores include [`LAYOUT`]'s.
    pub fn new(db: S) -> Self {
        StoredSessionService { db }
    }

    /// The app's and the user's shared state, read in `tx`.
    async fn shared(&self, tx: &S::Transaction, app: &str, user: &str) -> Result<(JsonObject, JsonObject), AdkError> {
        Ok((state_of(tx, APP_STATE, &[app]).await?, state_of(tx, USER_STATE, &[app, user]).await?))
    }

    /// Adds the deltas to the app's and the user's shared state, in `tx`; a scope without a delta
    /// is neither read nor written (most events change neither).
    async fn extend_shared(
        &self,
        tx: &S::Transaction,
        app: &str,
        user: &str,
        app_delta: JsonObject,
        user_delta: JsonObject,
    ) -> Result<(), AdkError> {
        if !app_delta.is_empty() {
            let mut state = state_of(tx, APP_STATE, &[app]).await?;
            state.extend(app_delta);
            put(tx, APP_STATE, &StateRow { app_name: app.into(), user_id: None, state })?;
        }
        if !user_delta.is_empty() {
            let mut state = state_of(tx, USER_STATE, &[app, user]).await?;
            state.extend(user_delta);
            put(tx, USER_STATE, &StateRow { app_name: app.into(), user_id: Some(user.into()), state })?;
        }
        Ok(())
    }

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
        refuse_taken(&tx, [app, user, id]).await?;
        let scopes = split_state_delta(&session.state);
        self.extend_shared(&tx, app, user, scopes.app, scopes.user).await?;
        let (mut seq, mut bytes) = (0, 0u64);
        for event in session.events.iter() {
            let text = event.to_json()?;
            bytes = bytes.saturating_add(text.len() as u64);
            // Over the limit, nothing is stored: the transaction is dropped uncommitted.
            check_size(id, bytes)?;
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
        let record = SessionRow {
            app_name: app.into(),
            user_id: user.into(),
            id: id.into(),
            state: scopes.session,
            last_update_time: session.last_update_time,
            seq,
            bytes: Some(bytes),
        };
        put(&tx, SESSIONS, &record)?;
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
/// those none older than `after_timestamp`. With a count, one read takes exactly the records it
/// needs (events are numbered, and the session record says how many there are); only
/// `after_timestamp` alone walks back from the newest.
async fn read_events(
    tx: &impl KvTransaction,
    row: &SessionRow,
    config: Option<&GetSessionConfig>,
) -> Result<Events, AdkError> {
    let key = [row.app_name.as_str(), row.user_id.as_str(), row.id.as_str()];
    let limit = config.and_then(|c| c.num_recent_events);
    let after = config.and_then(|c| c.after_timestamp);
    let mut rows: Vec<EventRow> = Vec::new();
    match (limit, after) {
        (Some(0), _) => {}
        (None, Some(after)) => {
            let mut failed = None;
            tx.walk_back(EVENTS, &KeyRange::prefix(&key), |text| match decode::<EventRow>("event", text) {
                Ok(event) if event.timestamp < after => Ok(false),
                Ok(event) => {
                    rows.push(event);
                    Ok(true)
                }
                Err(e) => {
                    failed = Some(e);
                    Ok(false)
                }
            })
            .await?;
            if let Some(e) = failed {
                return Err(e);
            }
            rows.reverse();
        }
        (limit, after) => {
            let first = limit.map_or(0, |n| row.seq.saturating_sub(n));
            for text in tx.get_all(EVENTS, &KeyRange::numbered(&key, first)).await? {
                rows.push(decode("event", &text)?);
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
        events.push(decode::<Event>("event", &row.event)?);
    }
    Ok(events)
}

#[async_trait(?Send)]
impl<S: KvStore> SessionService for StoredSessionService<S> {
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
                refuse_taken(&tx, [app_name, user_id, id]).await?;
                id.to_string()
            }
            None => crate::platform::new_uuid(),
        };
        let scopes = split_state_delta(&state.unwrap_or_default());
        self.extend_shared(&tx, app_name, user_id, scopes.app, scopes.user).await?;
        let (app, user) = self.shared(&tx, app_name, user_id).await?;
        let record = SessionRow {
            app_name: app_name.into(),
            user_id: user_id.into(),
            id,
            state: scopes.session,
            last_update_time: crate::platform::now_seconds(),
            seq: 0,
            bytes: Some(0),
        };
        put(&tx, SESSIONS, &record)?;
        tx.commit("creating a session").await?;
        Ok(view(&record, &app, &user, Events::new()))
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
        let Some(record) = get::<SessionRow>(&tx, SESSIONS, &key).await? else { return Ok(None) };
        let events = read_events(&tx, &record, config).await?;
        let (app, user) = self.shared(&tx, app_name, user_id).await?;
        Ok(Some(view(&record, &app, &user, events)))
    }

    async fn list_sessions(&self, app_name: &str, user_id: Option<&str>) -> Result<Vec<Session>, AdkError> {
        let tx = self.db.read(&[SESSIONS, APP_STATE, USER_STATE]).await?;
        let records = tx.get_all_by(SESSIONS, BY_UPDATE, &key(&[app_name])).await?;
        let app = state_of(&tx, APP_STATE, &[app_name]).await?;
        let mut users: Vec<(String, JsonObject)> = Vec::new();
        let mut sessions = Vec::new();
        for text in records {
            let record: SessionRow = decode("session", &text)?;
            if user_id.is_some_and(|u| u != record.user_id) {
                continue;
            }
            if !users.iter().any(|(u, _)| *u == record.user_id) {
                let state = state_of(&tx, USER_STATE, &[app_name, &record.user_id]).await?;
                users.push((record.user_id.clone(), state));
            }
            let user = users.iter().find(|(u, _)| *u == record.user_id).map(|(_, s)| s.clone()).unwrap_or_default();
            sessions.push(view(&record, &app, &user, Events::new()));
        }
        Ok(sessions)
    }

    async fn delete_session(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<(), AdkError> {
        let tx = self.db.write(&[SESSIONS, EVENTS]).await?;
        let key = [app_name, user_id, session_id.trim()];
        tx.delete(SESSIONS, &KeyRange::prefix(&key))?;
        tx.delete(EVENTS, &KeyRange::prefix(&key))?;
        tx.commit("deleting a session").await
    }

    async fn append_event(&self, session: &mut Session, mut event: Event) -> Result<Event, AdkError> {
        if event.partial == Some(true) {
            return Ok(event);
        }
        let tx = self.db.write(&[SESSIONS, EVENTS, APP_STATE, USER_STATE]).await?;
        let (app_name, user_id) = (session.app_name.clone(), session.user_id.clone());
        let key = [app_name.as_str(), user_id.as_str(), session.id.as_str()];
        let Some(mut record) = get::<SessionRow>(&tx, SESSIONS, &key).await? else {
            return Err(not_found(&session.id));
        };
        if record.last_update_time > session.last_update_time {
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
        let held = match record.bytes {
            Some(bytes) => bytes,
            None => stored_bytes(&tx, &key).await?,
        };
        let bytes = held.saturating_add(text.len() as u64);
        check_size(&session.id, bytes)?;
        let event_row = EventRow {
            app_name: app_name.clone(),
            user_id: user_id.clone(),
            session_id: session.id.clone(),
            seq: record.seq,
            timestamp: stored.timestamp,
            event: text,
        };
        put(&tx, EVENTS, &event_row)?;
        record.seq += 1;
        record.bytes = Some(bytes);
        record.state.extend(scopes.session);
        record.last_update_time = stored.timestamp;
        put(&tx, SESSIONS, &record)?;
        self.extend_shared(&tx, &app_name, &user_id, scopes.app, scopes.user).await?;
        tx.commit("appending an event").await?;
        // Only what is committed reaches the caller's copy of the session.
        apply_event(session, &mut event);
        session.record_event(event.clone());
        Ok(event)
    }
}
