//! `AdkServerClient` for JS: a client of an ADK server (`adk api_server`). Answers are plain
//! objects in ADK's JSON; `runSse` and `run` hand back [`StreamHandle`]s (the JS wrapper makes
//! them a `Run`, so `for await`, `break`, `toReadableStream()` and an `AbortSignal` work as for a
//! local run, and stopping closes the connection: the server stops a `/run_sse` run then, and
//! google-adk 2.x a `/run` one too).

use std::rc::Rc;

use adk_core::json::{self, FromJson, ToJson};
use futures_util::StreamExt;
use wasm_bindgen::prelude::*;

use super::convert::{from_js_core, js_error_to_core, promise, prop, to_js_core};
use super::http_options::{headers, http_client, text};
use super::stream::StreamHandle;
use super::to_js_error;
use crate::server::{
    decode, AdkServerClient, AdkServerOptions, ArtifactRef, CreateSessionRequest, RunAgentRequest, RunEvents,
    SaveArtifactRequest, ServerCall, Session, SessionRef, UpdateSessionRequest, UserRef,
};
use crate::{AdkError, Event, Part};

/// A run's events are handed to JS in batches: reading ahead of the caller changes nothing on the
/// server, which runs at its own pace.
const RUN_BATCH: usize = 64;

/// A client of one ADK server (`AdkServerClient` in JS).
#[wasm_bindgen]
pub struct AdkServerClientHandle {
    client: AdkServerClient,
}

/// `args[key]`, a string the call cannot do without.
fn required(what: &str, args: &JsValue, key: &str) -> Result<String, AdkError> {
    text(what, args, key)?.ok_or_else(|| AdkError::invalid(format!("{what}: {key} is required")))
}

fn user_ref(what: &str, args: &JsValue) -> Result<UserRef, AdkError> {
    Ok(UserRef { app_name: required(what, args, "appName")?, user_id: required(what, args, "userId")? })
}

fn session_ref(what: &str, args: &JsValue) -> Result<SessionRef, AdkError> {
    let UserRef { app_name, user_id } = user_ref(what, args)?;
    Ok(SessionRef { app_name, user_id, session_id: required(what, args, "sessionId")? })
}

fn artifact_ref(what: &str, args: &JsValue) -> Result<ArtifactRef, AdkError> {
    let SessionRef { app_name, user_id, session_id } = session_ref(what, args)?;
    let version = match prop(args, "version") {
        v if v.is_undefined() || v.is_null() => None,
        v => match v.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => Some(n as u64),
            _ => return Err(AdkError::invalid(format!("{what}: version: expected a whole number ≥ 0"))),
        },
    };
    Ok(ArtifactRef { app_name, user_id, session_id, filename: required(what, args, "filename")?, version })
}

/// How an answer's text becomes what JS gets.
type Shape = fn(&str, &str) -> Result<JsValue, AdkError>;

/// The answer decoded as `T` (checking it is one) and handed over in its ADK JSON.
fn shaped<T: FromJson + ToJson>(op: &str, text: &str) -> Result<JsValue, AdkError> {
    to_js_core(&decode::<T>(op, text)?)
}

/// The answer as the server wrote it (app info, an artifact version's metadata): JS parses it.
fn plain(op: &str, text: &str) -> Result<JsValue, AdkError> {
    js_sys::JSON::parse(text).map_err(|e| crate::server::unexpected(op, js_error_to_core(&e)))
}

/// A list (of app or artifact names, of versions) as the server wrote it; an answer that is not a
/// list is not one of these endpoints'.
fn list(op: &str, text: &str) -> Result<JsValue, AdkError> {
    let value = plain(op, text)?;
    match js_sys::Array::is_array(&value) {
        true => Ok(value),
        false => Err(crate::server::unexpected(op, AdkError::invalid("expected a list"))),
    }
}

/// No value (`deleteSession`).
fn nothing(_: &str, _: &str) -> Result<JsValue, AdkError> {
    Ok(JsValue::UNDEFINED)
}

impl AdkServerClientHandle {
    /// Sends the call its arguments describe and resolves to the answer in `shape`; an artifact
    /// that is not there is `null`. One future serves every method.
    fn exchange(&self, call: Result<ServerCall, AdkError>, shape: Shape) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let call = call?;
            let op = call.op;
            match client.text(call).await? {
                Some(text) => shape(op, &text),
                None => Ok(JsValue::NULL),
            }
        })
    }
}

#[wasm_bindgen]
impl AdkServerClientHandle {
    /// `{baseUrl, headers?, fetch?}`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<AdkServerClientHandle, JsValue> {
        const WHAT: &str = "AdkServerClient";
        let build = || -> Result<AdkServerClientHandle, AdkError> {
            let base_url =
                text(WHAT, &options, "baseUrl")?.ok_or_else(|| AdkError::invalid(format!("{WHAT}: give baseUrl")))?;
            // The page's origin, for the error a server that does not allow it causes.
            let origin = prop(&prop(&js_sys::global(), "location"), "origin").as_string();
            let settings = AdkServerOptions { headers: headers(WHAT, &options)?, origin };
            let client = AdkServerClient::new(&base_url, settings, http_client(WHAT, &options)?)?;
            Ok(AdkServerClientHandle { client })
        };
        build().map_err(to_js_error)
    }

    /// The server's base URL.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.client.base_url().to_string()
    }

    /// `GET /list-apps`.
    #[wasm_bindgen(js_name = listApps)]
    pub fn list_apps(&self) -> js_sys::Promise {
        self.exchange(Ok(ServerCall::list_apps()), list)
    }

    /// `GET /apps/{app}/app-info`.
    #[wasm_bindgen(js_name = getAppInfo)]
    pub fn get_app_info(&self, app_name: JsValue) -> js_sys::Promise {
        let app_name = match app_name.as_string() {
            Some(name) => Ok(name),
            None => Err(AdkError::invalid("getAppInfo: expected the app's name, a string")),
        };
        self.exchange(app_name.and_then(|name| ServerCall::get_app_info(&name)), plain)
    }

    /// `POST /apps/{app}/users/{user}/sessions`.
    #[wasm_bindgen(js_name = createSession)]
    pub fn create_session(&self, request: JsValue) -> js_sys::Promise {
        self.exchange(
            from_js_core::<CreateSessionRequest>("createSession", &request)
                .and_then(|a| ServerCall::create_session(&a)),
            shaped::<Session>,
        )
    }

    /// `GET …/sessions/{session}`.
    #[wasm_bindgen(js_name = getSession)]
    pub fn get_session(&self, session: JsValue) -> js_sys::Promise {
        self.exchange(session_ref("getSession", &session).and_then(|a| ServerCall::get_session(&a)), shaped::<Session>)
    }

    /// `GET /apps/{app}/users/{user}/sessions`.
    #[wasm_bindgen(js_name = listSessions)]
    pub fn list_sessions(&self, user: JsValue) -> js_sys::Promise {
        self.exchange(
            user_ref("listSessions", &user).and_then(|a| ServerCall::list_sessions(&a)),
            shaped::<Vec<Session>>,
        )
    }

    /// `DELETE …/sessions/{session}`; resolves to `undefined`.
    #[wasm_bindgen(js_name = deleteSession)]
    pub fn delete_session(&self, session: JsValue) -> js_sys::Promise {
        self.exchange(session_ref("deleteSession", &session).and_then(|a| ServerCall::delete_session(&a)), nothing)
    }

    /// `PATCH …/sessions/{session}` with a state delta.
    #[wasm_bindgen(js_name = updateSession)]
    pub fn update_session(&self, request: JsValue) -> js_sys::Promise {
        self.exchange(
            from_js_core::<UpdateSessionRequest>("updateSession", &request)
                .and_then(|a| ServerCall::update_session(&a)),
            shaped::<Session>,
        )
    }

    /// `GET …/sessions/{session}/artifacts`.
    #[wasm_bindgen(js_name = listArtifactNames)]
    pub fn list_artifact_names(&self, session: JsValue) -> js_sys::Promise {
        self.exchange(
            session_ref("listArtifactNames", &session).and_then(|a| ServerCall::list_artifact_names(&a)),
            list,
        )
    }

    /// `GET …/artifacts/{name}?version=`; resolves to `null` when there is no such artifact.
    #[wasm_bindgen(js_name = loadArtifact)]
    pub fn load_artifact(&self, artifact: JsValue) -> js_sys::Promise {
        self.exchange(
            artifact_ref("loadArtifact", &artifact).and_then(|a| ServerCall::load_artifact(&a)),
            shaped::<Part>,
        )
    }

    /// `POST …/sessions/{session}/artifacts`: resolves to the new version's metadata.
    #[wasm_bindgen(js_name = saveArtifact)]
    pub fn save_artifact(&self, request: JsValue) -> js_sys::Promise {
        self.exchange(
            from_js_core::<SaveArtifactRequest>("saveArtifact", &request).and_then(|a| ServerCall::save_artifact(&a)),
            plain,
        )
    }

    /// `DELETE …/artifacts/{name}`; resolves to `undefined`.
    #[wasm_bindgen(js_name = deleteArtifact)]
    pub fn delete_artifact(&self, artifact: JsValue) -> js_sys::Promise {
        self.exchange(artifact_ref("deleteArtifact", &artifact).and_then(|a| ServerCall::delete_artifact(&a)), nothing)
    }

    /// `GET …/artifacts/{name}/versions`.
    #[wasm_bindgen(js_name = listArtifactVersions)]
    pub fn list_artifact_versions(&self, artifact: JsValue) -> js_sys::Promise {
        self.exchange(
            artifact_ref("listArtifactVersions", &artifact).and_then(|a| ServerCall::list_artifact_versions(&a)),
            list,
        )
    }

    /// `POST /run_sse`: the run's events as they arrive.
    #[wasm_bindgen(js_name = runSse)]
    pub fn run_sse(&self, request: JsValue) -> Result<StreamHandle, JsValue> {
        let request: RunAgentRequest = from_js_core("runSse", &request).map_err(to_js_error)?;
        Ok(events_handle(self.client.run_sse(&request, Rc::default())))
    }

    /// `POST /run`: the run's events, all at its end.
    pub fn run(&self, request: JsValue) -> Result<StreamHandle, JsValue> {
        let request: RunAgentRequest = from_js_core("run", &request).map_err(to_js_error)?;
        Ok(events_handle(self.client.run(&request, Rc::default())))
    }
}

/// A run's events for JS, each as its ADK JSON.
fn events_handle(events: RunEvents) -> StreamHandle {
    fn event_json(event: Result<Event, AdkError>) -> Result<String, AdkError> {
        event.map(|e| json::to_string(&e))
    }
    StreamHandle::new(Box::pin(events.map(event_json)), RUN_BATCH)
}
