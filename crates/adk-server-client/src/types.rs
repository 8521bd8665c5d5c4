//! What the client sends and receives: the server's pydantic models in ADK's JSON (camelCase,
//! which they accept and write), and what a path points at. A Rust caller's request is encoded
//! and read as a JS caller's arguments are ([`Args`](crate::call::Args)).

use adk_core::json_struct;
use adk_core::types::JsonObject;
use adk_core::{Content, Event, Part};

/// One user of an app (`listSessions`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserRef {
    /// The app (the agent's folder name on the server).
    pub app_name: String,
    /// The user.
    pub user_id: String,
}

/// One session (`getSession`, `deleteSession`, `listArtifactNames`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionRef {
    /// The app.
    pub app_name: String,
    /// The user.
    pub user_id: String,
    /// The session.
    pub session_id: String,
}

/// One artifact of a session, and optionally one version of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArtifactRef {
    /// The app.
    pub app_name: String,
    /// The user.
    pub user_id: String,
    /// The session.
    pub session_id: String,
    /// The artifact's name (`user:`-prefixed for the user's own artifacts).
    pub filename: String,
    /// A version; the latest when absent.
    pub version: Option<u64>,
}

json_struct! {
    /// `createSession`: the session's id (the server picks one when absent), its first state and
    /// events to start it with.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct CreateSessionRequest {
        /// The app.
        pub app_name: String => "appName" req,
        /// The user.
        pub user_id: String => "userId" req,
        /// The new session's id.
        pub session_id: Option<String> => "sessionId" opt,
        /// Its first state (`app:` and `user:` keys go to the app's and the user's state).
        pub state: Option<JsonObject> => "state" opt,
        /// Events to start the session with (a conversation carried over, say).
        pub events: Option<Vec<Event>> => "events" opt,
        /// google-adk 2.13: options the server hands its session service's `create_session`
        /// (one that takes none answers 400).
        pub options: Option<JsonObject> => "options" opt,
    }
}

json_struct! {
    /// `saveArtifact`: a new version of an artifact of a session (a file the user attached, say).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct SaveArtifactRequest {
        /// The app.
        pub app_name: String => "appName" req,
        /// The user.
        pub user_id: String => "userId" req,
        /// The session.
        pub session_id: String => "sessionId" req,
        /// The artifact's name (`user:`-prefixed for one every session of the user shares).
        pub filename: String => "filename" req,
        /// The content: inline data, usually.
        pub artifact: Part => "artifact" req,
        /// Metadata kept with the version.
        pub custom_metadata: Option<JsonObject> => "customMetadata" opt,
    }
}

json_struct! {
    /// `updateSession`: a state delta applied without running the agent (the server records it
    /// as an event of its own).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct UpdateSessionRequest {
        /// The app.
        pub app_name: String => "appName" req,
        /// The user.
        pub user_id: String => "userId" req,
        /// The session.
        pub session_id: String => "sessionId" req,
        /// The keys to set.
        pub state_delta: JsonObject => "stateDelta" req,
    }
}

json_struct! {
    /// A run of an app's root agent (`/run`, `/run_sse`): ADK's `RunAgentRequest`, sent as it is.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct RunAgentRequest {
        /// The app.
        pub app_name: String => "appName" req,
        /// The user.
        pub user_id: String => "userId" req,
        /// The session, which must exist.
        pub session_id: String => "sessionId" req,
        /// The user's message, if any (none resumes a paused invocation).
        pub new_message: Option<Content> => "newMessage" opt,
        /// Model output streamed as partial events (`/run_sse` only).
        pub streaming: bool => "streaming" def,
        /// State applied before the run.
        pub state_delta: Option<JsonObject> => "stateDelta" opt,
        /// The invocation to resume (a long-running tool's answer).
        pub invocation_id: Option<String> => "invocationId" opt,
        /// The event whose function call the new message answers (an OAuth callback, say).
        pub function_call_event_id: Option<String> => "functionCallEventId" opt,
        /// Metadata for the run (google-adk 2.x `RunConfig.custom_metadata`; 1.x ignores it).
        pub custom_metadata: Option<JsonObject> => "customMetadata" opt,
        /// The serving tier of the run's model calls (google-adk 2.13 `RunConfig.service_tier`:
        /// `flex`, `standard`, `priority`, `deferred`; 1.x ignores it).
        pub service_tier: Option<String> => "serviceTier" opt,
    }
}

json_struct! {
    /// A session as the server stores it. Members this version does not know are kept as they came.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Session {
        /// The session's id.
        pub id: String => "id" req,
        /// The app.
        pub app_name: String => "appName" req,
        /// The user.
        pub user_id: String => "userId" req,
        /// The state, with the app's and the user's keys merged in.
        pub state: JsonObject => "state" def,
        /// The events, oldest first (none in a listing).
        pub events: Vec<Event> => "events" def,
        /// When the last event was appended (seconds since the epoch).
        pub last_update_time: f64 => "lastUpdateTime" def,
        /// Members this version does not know.
        pub extra: JsonObject => "" extra,
    }
}
