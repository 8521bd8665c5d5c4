//! [`ServerCall`]: one request to an ADK server, described before it is sent. Each endpoint is a
//! plain function building one, so one shared future sends them all. The names a call is built
//! from (app, user, session, artifact) must not be empty: an empty path segment would address
//! another endpoint (`…/sessions/` is the listing), so it is refused here, before anything is sent.

use std::future::Future;
use std::pin::Pin;

use adk_core::http::{encode_component, query};
use adk_core::json::{self, Writer};
use adk_core::AdkError;

use crate::types::{
    ArtifactRef, CreateSessionRequest, RunAgentRequest, SaveArtifactRequest, SessionRef, UpdateSessionRequest, UserRef,
};

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

type Built = Result<ServerCall, AdkError>;

fn get(op: &'static str, path: String) -> ServerCall {
    ServerCall { op, method: "GET", path, body: None, absent_when_missing: false }
}

/// Refuses the first of `names` (name, value) whose value is empty.
fn check(op: &str, names: &[(&str, &str)]) -> Result<(), AdkError> {
    match names.iter().find(|(_, value)| value.is_empty()) {
        Some((name, _)) => Err(AdkError::invalid(format!("{op}: {name} is required (an empty one names nothing)"))),
        None => Ok(()),
    }
}

fn users_path(app_name: &str, user_id: &str) -> String {
    format!("/apps/{}/users/{}/sessions", encode_component(app_name), encode_component(user_id))
}

/// `…/sessions/{session}`, once its names are checked.
fn session_path(op: &str, app_name: &str, user_id: &str, session_id: &str) -> Result<String, AdkError> {
    check(op, &[("appName", app_name), ("userId", user_id), ("sessionId", session_id)])?;
    Ok(format!("{}/{}", users_path(app_name, user_id), encode_component(session_id)))
}

fn artifact_path(op: &str, a: &ArtifactRef, rest: &str) -> Result<String, AdkError> {
    check(op, &[("filename", &a.filename)])?;
    Ok(format!(
        "{}/artifacts/{}{rest}",
        session_path(op, &a.app_name, &a.user_id, &a.session_id)?,
        encode_component(&a.filename)
    ))
}

/// A JSON object of the members `write` adds.
fn body(write: impl FnOnce(&mut json::ObjectWriter<'_>)) -> Option<String> {
    let mut out = Writer::new();
    let mut object = out.object();
    write(&mut object);
    object.end();
    Some(out.into_string())
}

impl ServerCall {
    /// `GET /list-apps`.
    pub fn list_apps() -> Self {
        get("listApps", "/list-apps".into())
    }

    /// `GET /apps/{app}/app-info`.
    pub fn get_app_info(app_name: &str) -> Built {
        const OP: &str = "getAppInfo";
        check(OP, &[("appName", app_name)])?;
        Ok(get(OP, format!("/apps/{}/app-info", encode_component(app_name))))
    }

    /// `POST /apps/{app}/users/{user}/sessions` with `{sessionId?, state?, events?}`.
    pub fn create_session(r: &CreateSessionRequest) -> Built {
        const OP: &str = "createSession";
        let id = r.session_id.as_deref().unwrap_or("-");
        check(
            OP,
            &[
                ("appName", &r.app_name),
                ("userId", &r.user_id),
                ("sessionId (or none, for the server to pick one)", id),
            ],
        )?;
        Ok(ServerCall {
            method: "POST",
            body: body(|o| {
                if let Some(id) = &r.session_id {
                    o.field("sessionId", id);
                }
                if let Some(state) = &r.state {
                    o.field("state", state);
                }
                if let Some(events) = &r.events {
                    o.field("events", events);
                }
            }),
            ..get(OP, users_path(&r.app_name, &r.user_id))
        })
    }

    /// `GET …/sessions/{session}`.
    pub fn get_session(s: &SessionRef) -> Built {
        const OP: &str = "getSession";
        Ok(get(OP, session_path(OP, &s.app_name, &s.user_id, &s.session_id)?))
    }

    /// `GET /apps/{app}/users/{user}/sessions`.
    pub fn list_sessions(u: &UserRef) -> Built {
        const OP: &str = "listSessions";
        check(OP, &[("appName", &u.app_name), ("userId", &u.user_id)])?;
        Ok(get(OP, users_path(&u.app_name, &u.user_id)))
    }

    /// `DELETE …/sessions/{session}`.
    pub fn delete_session(s: &SessionRef) -> Built {
        const OP: &str = "deleteSession";
        Ok(ServerCall { method: "DELETE", ..get(OP, session_path(OP, &s.app_name, &s.user_id, &s.session_id)?) })
    }

    /// `PATCH …/sessions/{session}` with `{stateDelta}`.
    pub fn update_session(r: &UpdateSessionRequest) -> Built {
        const OP: &str = "updateSession";
        Ok(ServerCall {
            method: "PATCH",
            body: body(|o| {
                o.field("stateDelta", &r.state_delta);
            }),
            ..get(OP, session_path(OP, &r.app_name, &r.user_id, &r.session_id)?)
        })
    }

    /// `GET …/sessions/{session}/artifacts`.
    pub fn list_artifact_names(s: &SessionRef) -> Built {
        const OP: &str = "listArtifactNames";
        Ok(get(OP, format!("{}/artifacts", session_path(OP, &s.app_name, &s.user_id, &s.session_id)?)))
    }

    /// `GET …/artifacts/{name}?version=`.
    pub fn load_artifact(a: &ArtifactRef) -> Built {
        const OP: &str = "loadArtifact";
        let version = query(&[("version", a.version.map(|v| v.to_string()))]);
        Ok(ServerCall { absent_when_missing: true, ..get(OP, artifact_path(OP, a, &version)?) })
    }

    /// `POST …/sessions/{session}/artifacts` with `{filename, artifact, customMetadata?}`.
    pub fn save_artifact(r: &SaveArtifactRequest) -> Built {
        const OP: &str = "saveArtifact";
        check(OP, &[("filename", &r.filename)])?;
        Ok(ServerCall {
            method: "POST",
            body: body(|o| {
                o.field("filename", &r.filename).field("artifact", &r.artifact);
                if let Some(metadata) = &r.custom_metadata {
                    o.field("customMetadata", metadata);
                }
            }),
            ..get(OP, format!("{}/artifacts", session_path(OP, &r.app_name, &r.user_id, &r.session_id)?))
        })
    }

    /// `DELETE …/artifacts/{name}`: every version.
    pub fn delete_artifact(a: &ArtifactRef) -> Built {
        const OP: &str = "deleteArtifact";
        Ok(ServerCall { method: "DELETE", ..get(OP, artifact_path(OP, a, "")?) })
    }

    /// `GET …/artifacts/{name}/versions`.
    pub fn list_artifact_versions(a: &ArtifactRef) -> Built {
        const OP: &str = "listArtifactVersions";
        Ok(get(OP, artifact_path(OP, a, "/versions")?))
    }

    /// `POST /run_sse` (`stream`) or `POST /run` with the request as it is.
    pub fn run(request: &RunAgentRequest, stream: bool) -> Built {
        let (op, path) = if stream { ("runSse", "/run_sse") } else { ("run", "/run") };
        check(op, &[("appName", &request.app_name), ("userId", &request.user_id), ("sessionId", &request.session_id)])?;
        Ok(ServerCall { method: "POST", body: Some(json::to_string(request)), ..get(op, path.into()) })
    }

    /// Whether this runs the agent with events streamed as they happen (`/run_sse`).
    pub fn streams(&self) -> bool {
        self.path == "/run_sse"
    }
}
