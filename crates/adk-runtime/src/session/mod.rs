//! Sessions: one conversation's events and state, and the service that keeps them.

mod events;
mod in_memory;
mod state;
pub mod stored;

use std::rc::Rc;

use async_trait::async_trait;

use crate::types::JsonObject;
use crate::{AdkError, Event};

pub use events::{event_text, Events, Recorded};
pub use in_memory::InMemorySessionService;
pub use state::{scoped_view, split_state_delta, StateScopes, APP_PREFIX, TEMP_PREFIX, USER_PREFIX};
pub use stored::StoredSessionService;

adk_core::json_struct! {
    /// A conversation between a user and the agents of an app (ADK's `Session`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Session {
        /// Session id, unique per app and user.
        pub id: String => "id" req,
        /// The app the session belongs to.
        pub app_name: String => "appName" req,
        /// The user the session belongs to.
        pub user_id: String => "userId" req,
        /// Session state merged with the app (`app:`) and user (`user:`) state.
        pub state: JsonObject => "state" def,
        /// The events, oldest first.
        pub events: Events => "events" def,
        /// Seconds since the Unix epoch of the last appended event (or of creation).
        pub last_update_time: f64 => "lastUpdateTime" def,
    }
}

adk_core::json_struct! {
    /// Which events `get_session` returns (ADK's `GetSessionConfig`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct GetSessionConfig {
        /// At most this many of the most recent events; 0 gives none.
        pub num_recent_events: Option<u64> => "numRecentEvents" opt,
        /// Only events at or after this time (seconds).
        pub after_timestamp: Option<f64> => "afterTimestamp" opt,
    }
}

/// Stores sessions and applies events to them (ADK's `BaseSessionService`).
#[async_trait(?Send)]
pub trait SessionService {
    /// Creates a session. `app:` and `user:` keys of `state` go to the app-wide and per-user stores,
    /// `temp:` keys are dropped; an existing `session_id` is an `ALREADY_EXISTS` error.
    async fn create_session(
        &self,
        app_name: &str,
        user_id: &str,
        state: Option<JsonObject>,
        session_id: Option<&str>,
    ) -> Result<Session, AdkError>;

    /// The session with current app and user state, or `None` when it does not exist for this user.
    async fn get_session(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: &str,
        config: Option<&GetSessionConfig>,
    ) -> Result<Option<Session>, AdkError>;

    /// The sessions of an app (of one user, or of all users), without their events.
    async fn list_sessions(&self, app_name: &str, user_id: Option<&str>) -> Result<Vec<Session>, AdkError>;

    /// Deletes a session; deleting a missing session does nothing.
    async fn delete_session(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<(), AdkError>;

    /// Appends `event` to the stored session and to `session`, applying its state delta, and returns
    /// the event as stored. Partial events are returned untouched and not stored.
    async fn append_event(&self, session: &mut Session, event: Event) -> Result<Event, AdkError>;
}

impl Session {
    /// An empty session, standing in while the real one is with the session service.
    pub fn placeholder() -> Self {
        Session {
            id: String::new(),
            app_name: String::new(),
            user_id: String::new(),
            state: JsonObject::new(),
            events: Events::new(),
            last_update_time: 0.0,
        }
    }

    /// Applies a state delta to this copy of the session, every key included (`temp:` ones too).
    pub fn apply_state_delta(&mut self, delta: &JsonObject) {
        for (key, value) in delta {
            self.state.insert(key.clone(), value.clone());
        }
    }

    /// Records a stored event on this copy of the session.
    pub fn record_event(&mut self, event: Event) {
        self.last_update_time = event.timestamp;
        self.events.push(event);
    }

    /// Records a stored event, at `timestamp`, that another copy of the session holds too.
    pub fn record_shared(&mut self, event: Rc<Recorded>, timestamp: f64) {
        self.last_update_time = timestamp;
        self.events.push_shared(event);
    }
}

/// Refuses a session whose events' JSON would be `bytes` long, over the instance's
/// `maxSessionBytes`. Its name is spelled out only for the error (this runs on every append).
pub(crate) fn check_size(id: &str, bytes: u64) -> Result<(), AdkError> {
    let (bytes, limit) = (usize::try_from(bytes).unwrap_or(usize::MAX), adk_core::limits::Limit::session());
    if bytes > limit.bytes {
        limit.check(&["session ", id].concat(), bytes)?;
    }
    Ok(())
}

/// The error of creating a session under an id that is taken (ADK's words).
pub(crate) fn already_exists(id: &str) -> AdkError {
    AdkError::new(crate::ErrorCode::AlreadyExists, ["Session with id ", id, " already exists."].concat())
}

/// The error of appending to a session the service does not hold (ADK's words).
pub(crate) fn not_found(id: &str) -> AdkError {
    AdkError::new(crate::ErrorCode::NotFound, ["Session ", id, " not found."].concat())
}

/// Removes the `temp:` keys from an event's state delta: they are never stored.
pub fn trim_temp_delta(event: &mut Event) {
    event.actions.state_delta.retain(|key, _| !key.starts_with(TEMP_PREFIX));
}

/// What every session service does to the caller's copy of the session (ADK's base `append_event`)
/// before recording the event there: `temp:` keys are applied to the session for the rest of the
/// invocation but removed from the event (which is then as stored), and the remaining delta is applied.
pub fn apply_event(session: &mut Session, event: &mut Event) {
    session.apply_state_delta(&event.actions.state_delta);
    trim_temp_delta(event);
}
