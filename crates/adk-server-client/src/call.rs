//! [`ServerCall`]: one request to an ADK server, described before it is sent. Each endpoint is a
//! plain function building one, so one shared future sends them all.

use std::future::Future;
use std::pin::Pin;

use adk_core::http::{encode_component, query};
use adk_core::json::{self, Writer};
use adk_core::AdkError;

use crate::types::{ArtifactRef, CreateSessionRequest, SaveArtifactRequest, SessionRef, UpdateSessionRequest, UserRef};

/// A future of the client's, boxed: every endpoint awaits the same one instead of its own copy.
pub type Pending<T> = Pin<Box<dyn Future<Output = Result<T, AdkError>>>>;

/// A request to an ADK server: the operation's name (for errors), method, path and JSON body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCall {
    /// The operation, as the JS method is named (`getSession`): errors start with it.
    pub op: &'static str,
    /// `GET`, `POST`, `PATCH` or `DELETE`.
    pub method: &'static str,
    /// The path below the base URL, segments encoded.
    pub path: String,
    /// The JSON body, if any.
    pub body: Option<String>,
    /// A `404` here means "there is none" (an artifact), not an error.
    pub absent_when_missing: bool,
}

fn get(op: &'static str, path: String) -> ServerCall {
    ServerCall { op, method: "GET", path, body: None, absent_when_missing: false }
}

fn users_path(app_name: &str, user_id: &str) -> String {
    format!("/apps/{}/users/{}/sessions", encode_component(app_name), encode_component(user_id))
}

fn session_path(app_name: &str, user_id: &str, session_id: &str) -> String {
    format!("{}/{}", users_path(app_name, user_id), encode_component(session_id))
}

fn artifact_path(a: &ArtifactRef, rest: &str) -> String {
    format!(
        "{}/artifacts/{}{rest}",
        session_path(&a.app_name, &a.user_id, &a.session_id),
        encode_component(&a.filename)
    )
}

impl ServerCall {
    /// `GET /list-apps`.
    pub fn list_apps() -> Self {
        get("listApps", "/list-apps".into())
    }

    /// `GET /apps/{app}/app-info`.
    pub fn get_app_info(app_name: &str) -> Self {
        get("getAppInfo", format!("/apps/{}/app-info", encode_component(app_name)))
    }

    /// `POST /apps/{app}/users/{user}/sessions` with `{sessionId?, state?, events?}`.
    pub fn create_session(r: &CreateSessionRequest) -> Self {
        let mut body = Writer::new();
        let mut object = body.object();
        if let Some(id) = &r.session_id {
            object.field("sessionId", id);
        }
        if let Some(state) = &r.state {
            object.field("state", state);
        }
        if let Some(events) = &r.events {
            object.field("events", events);
        }
        object.end();
        ServerCall {
            op: "createSession",
            method: "POST",
            path: users_path(&r.app_name, &r.user_id),
            body: Some(body.into_string()),
            absent_when_missing: false,
        }
    }

    /// `GET …/sessions/{session}`.
    pub fn get_session(s: &SessionRef) -> Self {
        get("getSession", session_path(&s.app_name, &s.user_id, &s.session_id))
    }

    /// `GET /apps/{app}/users/{user}/sessions`.
    pub fn list_sessions(u: &UserRef) -> Self {
        get("listSessions", users_path(&u.app_name, &u.user_id))
    }

    /// `DELETE …/sessions/{session}`.
    pub fn delete_session(s: &SessionRef) -> Self {
        ServerCall { method: "DELETE", ..get("deleteSession", session_path(&s.app_name, &s.user_id, &s.session_id)) }
    }

    /// `PATCH …/sessions/{session}` with `{stateDelta}`.
    pub fn update_session(r: &UpdateSessionRequest) -> Self {
        let mut body = Writer::new();
        let mut object = body.object();
        object.field("stateDelta", &r.state_delta);
        object.end();
        ServerCall {
            method: "PATCH",
            body: Some(body.into_string()),
            ..get("updateSession", session_path(&r.app_name, &r.user_id, &r.session_id))
        }
    }

    /// `GET …/sessions/{session}/artifacts`.
    pub fn list_artifact_names(s: &SessionRef) -> Self {
        get("listArtifactNames", format!("{}/artifacts", session_path(&s.app_name, &s.user_id, &s.session_id)))
    }

    /// `GET …/artifacts/{name}?version=`.
    pub fn load_artifact(a: &ArtifactRef) -> Self {
        let version = query(&[("version", a.version.map(|v| v.to_string()))]);
        ServerCall { absent_when_missing: true, ..get("loadArtifact", artifact_path(a, &version)) }
    }

    /// `POST …/sessions/{session}/artifacts` with `{filename, artifact, customMetadata?}`.
    pub fn save_artifact(r: &SaveArtifactRequest) -> Self {
        let mut body = Writer::new();
        let mut object = body.object();
        object.field("filename", &r.filename).field("artifact", &r.artifact);
        if let Some(metadata) = &r.custom_metadata {
            object.field("customMetadata", metadata);
        }
        object.end();
        ServerCall {
            method: "POST",
            body: Some(body.into_string()),
            ..get("saveArtifact", format!("{}/artifacts", session_path(&r.app_name, &r.user_id, &r.session_id)))
        }
    }

    /// `DELETE …/artifacts/{name}`: every version.
    pub fn delete_artifact(a: &ArtifactRef) -> Self {
        ServerCall { method: "DELETE", ..get("deleteArtifact", artifact_path(a, "")) }
    }

    /// `GET …/artifacts/{name}/versions`.
    pub fn list_artifact_versions(a: &ArtifactRef) -> Self {
        get("listArtifactVersions", artifact_path(a, "/versions"))
    }

    /// `POST /run` (`stream: false`) or `POST /run_sse` with the request as it is.
    pub fn run(request: &crate::RunAgentRequest, stream: bool) -> Self {
        let (op, path) = if stream { ("runSse", "/run_sse") } else { ("run", "/run") };
        ServerCall {
            op,
            method: "POST",
            path: path.into(),
            body: Some(json::to_string(request)),
            absent_when_missing: false,
        }
    }
}
