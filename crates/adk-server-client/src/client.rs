//! [`AdkServerClient`]: one method per endpoint of ADK's web server that a front end needs.

use std::rc::Rc;

use adk_core::cancellation::Cancellation;
use adk_core::http::{HttpClient, HttpRequest, HttpResponse};
use adk_core::json::{self, FromJson, ToJson};
use adk_core::{AdkError, Part};
use serde_json::Value;

use crate::call::{Endpoint, Pending, ServerCall};
use crate::errors::{self, decode};
use crate::run_events::{RunEvents, RunItem};
use crate::types::{
    ArtifactRef, CreateSessionRequest, RunAgentRequest, SaveArtifactRequest, Session, SessionRef, UpdateSessionRequest,
    UserRef,
};

/// How the client talks to the server.
#[derive(Debug, Clone, Default)]
pub struct AdkServerOptions {
    /// Headers every request carries (an `Authorization` for a server behind a proxy, say).
    pub headers: Vec<(String, String)>,
    /// The calling page's origin, named in the error a server that does not allow it causes.
    pub origin: Option<String>,
}

struct Server {
    base_url: String,
    options: AdkServerOptions,
    http: Rc<dyn HttpClient>,
}

/// A client of one ADK server (`adk api_server`, `adk web`, or the same app deployed elsewhere).
/// Cloning is cheap: clones share the connection settings.
#[derive(Clone)]
pub struct AdkServerClient {
    server: Rc<Server>,
}

impl std::fmt::Debug for AdkServerClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdkServerClient").field("base_url", &self.server.base_url).finish()
    }
}

impl AdkServerClient {
    /// A client of the server at `base_url` (`http://127.0.0.1:8000`; a path prefix is kept).
    pub fn new(base_url: &str, options: AdkServerOptions, http: Rc<dyn HttpClient>) -> Result<Self, AdkError> {
        let mut base_url = base_url.trim_ascii();
        while let Some(shorter) = base_url.strip_suffix('/') {
            base_url = shorter;
        }
        if base_url.is_empty() {
            return Err(AdkError::invalid("AdkServerClient: baseUrl is empty"));
        }
        Ok(AdkServerClient { server: Rc::new(Server { base_url: base_url.to_string(), options, http }) })
    }

    /// The server's base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        &self.server.base_url
    }

    /// Sends `call`; resolves to the answer if its status is a success, else to the server's error.
    pub fn send(&self, call: ServerCall, cancellation: Rc<Cancellation>) -> Pending<HttpResponse> {
        let server = self.server.clone();
        Box::pin(async move {
            let url = format!("{}{}", server.base_url, call.path);
            let mut request = HttpRequest { method: call.method.into(), url, headers: Vec::new(), body: None };
            if let Some(body) = call.body {
                request.headers.push(("Content-Type".into(), "application/json".into()));
                request.body = Some(body);
            }
            request.headers.extend(server.options.headers.iter().cloned());
            let origin = server.options.origin.as_deref();
            let response = server
                .http
                .send(request, cancellation)
                .await
                .map_err(|e| errors::unreachable(call.op, &server.base_url, origin, e))?;
            if response.ok() {
                return Ok(response);
            }
            let status = response.status;
            Err(errors::from_status(call.op, status, &response.text().await?, origin))
        })
    }

    /// Sends `call` and reads the whole answer; `None` for a call whose `404` means "there is none".
    pub fn text(&self, call: ServerCall) -> Pending<Option<String>> {
        self.read(call, Rc::default())
    }

    /// [`text`](Self::text), stopped by `cancellation`: `/run`'s answer is read by this future too,
    /// so that the module holds one copy of the code reading an answer.
    fn read(&self, call: ServerCall, cancellation: Rc<Cancellation>) -> Pending<Option<String>> {
        let absent_when_missing = call.absent_when_missing;
        let sent = self.send(call, cancellation);
        Box::pin(async move {
            match sent.await {
                Ok(response) => response.text().await.map(Some),
                // The server's words for an artifact (or version) it does not have; any other 404
                // (a wrong path prefix, say) stays an error.
                Err(e)
                    if absent_when_missing
                        && e.http_status == Some(404)
                        && e.message.ends_with(": Artifact not found") =>
                {
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        })
    }

    /// Sends `call` and decodes the answer as `T`.
    async fn answer<T: FromJson>(&self, call: Result<ServerCall, AdkError>) -> Result<T, AdkError> {
        let call = call?;
        let op = call.op;
        // Only a call that allows it (an artifact) is answered with none; it would not decode.
        decode(op, &self.text(call).await?.unwrap_or_default())
    }

    /// The apps (agents) the server serves: `GET /list-apps`.
    pub async fn list_apps(&self) -> Result<Vec<String>, AdkError> {
        self.answer(ServerCall::of(Endpoint::LIST_APPS, "{}")).await
    }

    /// An app's root agent and its sub-agents: `GET /apps/{app}/app-info` (for apps whose root is
    /// an `LlmAgent`; others are a `400`). Passed on as the server wrote it.
    pub async fn get_app_info(&self, app_name: &str) -> Result<Value, AdkError> {
        self.answer(ServerCall::of(Endpoint::GET_APP_INFO, &ServerCall::names(&[app_name], None))).await
    }

    /// Creates a session: `POST /apps/{app}/users/{user}/sessions`.
    pub async fn create_session(&self, request: &CreateSessionRequest) -> Result<Session, AdkError> {
        self.answer(call(Endpoint::CREATE_SESSION, request)).await
    }

    /// A session with its events. A missing one is `NOT_FOUND`.
    pub async fn get_session(&self, session: &SessionRef) -> Result<Session, AdkError> {
        self.answer(session_call(Endpoint::GET_SESSION, session)).await
    }

    /// A user's sessions, without their events.
    pub async fn list_sessions(&self, user: &UserRef) -> Result<Vec<Session>, AdkError> {
        self.answer(ServerCall::of(Endpoint::LIST_SESSIONS, &ServerCall::names(&[&user.app_name, &user.user_id], None)))
            .await
    }

    /// Deletes a session (a missing one too).
    pub async fn delete_session(&self, session: &SessionRef) -> Result<(), AdkError> {
        self.text(session_call(Endpoint::DELETE_SESSION, session)?).await.map(drop)
    }

    /// Applies a state delta without running the agent (the server records it as an event of its
    /// own, authored by `user`).
    pub async fn update_session(&self, request: &UpdateSessionRequest) -> Result<Session, AdkError> {
        self.answer(call(Endpoint::UPDATE_SESSION, request)).await
    }

    /// The names of a session's artifacts (the user's own, `user:`-prefixed, included).
    pub async fn list_artifact_names(&self, session: &SessionRef) -> Result<Vec<String>, AdkError> {
        self.answer(session_call(Endpoint::LIST_ARTIFACT_NAMES, session)).await
    }

    /// An artifact's latest version, or the one asked for; `None` when there is no such artifact.
    pub async fn load_artifact(&self, artifact: &ArtifactRef) -> Result<Option<Part>, AdkError> {
        let call = artifact_call(Endpoint::LOAD_ARTIFACT, artifact)?;
        let op = call.op;
        self.text(call).await?.map(|text| decode(op, &text)).transpose()
    }

    /// Saves a new version of an artifact; resolves to its metadata as the server wrote it
    /// (`{version, canonicalUri, mimeType, createTime, customMetadata}`).
    pub async fn save_artifact(&self, request: &SaveArtifactRequest) -> Result<Value, AdkError> {
        self.answer(call(Endpoint::SAVE_ARTIFACT, request)).await
    }

    /// Deletes every version of an artifact (a missing one too).
    pub async fn delete_artifact(&self, artifact: &ArtifactRef) -> Result<(), AdkError> {
        self.text(artifact_call(Endpoint::DELETE_ARTIFACT, artifact)?).await.map(drop)
    }

    /// The versions of an artifact, oldest first.
    pub async fn list_artifact_versions(&self, artifact: &ArtifactRef) -> Result<Vec<u64>, AdkError> {
        self.answer(artifact_call(Endpoint::LIST_ARTIFACT_VERSIONS, artifact)).await
    }

    /// Runs the agent: `POST /run`. The server answers once the run is over, so the events all
    /// come at the end. Dropping the stream (or cancelling `cancellation`) closes the connection;
    /// google-adk 2.x stops the run then, 1.x finishes it.
    pub fn run(&self, request: &RunAgentRequest, cancellation: Rc<Cancellation>) -> RunEvents {
        self.run_as(request, false, cancellation)
    }

    /// Runs the agent and streams its events as they happen: `POST /run_sse`. Dropping the stream
    /// (or cancelling `cancellation`) closes the connection, which stops the run on the server.
    pub fn run_sse(&self, request: &RunAgentRequest, cancellation: Rc<Cancellation>) -> RunEvents {
        self.run_as(request, true, cancellation)
    }

    /// [`run_sse`](Self::run_sse) (`stream`) or [`run`](Self::run), with the events as `T`:
    /// decoded, or the server's JSON for a caller that parses it itself ([`RunItem`]).
    pub fn run_as<T: RunItem>(
        &self,
        request: &RunAgentRequest,
        stream: bool,
        cancellation: Rc<Cancellation>,
    ) -> RunEvents<T> {
        let endpoint = if stream { Endpoint::RUN_SSE } else { Endpoint::RUN };
        self.run_call(call(endpoint, request), cancellation)
    }

    /// The events of `call`, a run (`/run_sse` or `/run`) or why it could not start.
    pub fn run_call<T: RunItem>(
        &self,
        call: Result<ServerCall, AdkError>,
        cancellation: Rc<Cancellation>,
    ) -> RunEvents<T> {
        match call {
            Ok(call) if call.streams() => {
                let (op, url) = (call.op, format!("{}{}", self.base_url(), call.path));
                RunEvents::open(op, url, self.send(call, cancellation))
            }
            Ok(call) => RunEvents::answer(call.op, self.read(call, cancellation)),
            Err(e) => RunEvents::failed(e),
        }
    }
}

/// The call of `endpoint` with a Rust caller's typed arguments, read as a JS caller's are.
fn call(endpoint: Endpoint, args: &dyn ToJson) -> Result<ServerCall, AdkError> {
    ServerCall::of(endpoint, &json::to_string(args))
}

/// The call of `endpoint` on one session.
fn session_call(endpoint: Endpoint, s: &SessionRef) -> Result<ServerCall, AdkError> {
    ServerCall::of(endpoint, &ServerCall::names(&[&s.app_name, &s.user_id, &s.session_id], None))
}

/// The call of `endpoint` on one artifact (and version).
fn artifact_call(endpoint: Endpoint, a: &ArtifactRef) -> Result<ServerCall, AdkError> {
    ServerCall::of(endpoint, &ServerCall::names(&[&a.app_name, &a.user_id, &a.session_id, &a.filename], a.version))
}
