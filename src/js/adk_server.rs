//! `AdkServerClient` for JS: a client of an ADK server (`adk api_server`). Answers, events
//! included, are the server's own JSON, parsed once by JS; `run` hands back [`StreamHandle`]s (the JS wrapper makes
//! them a `Run`, so `for await`, `break`, `toReadableStream()` and an `AbortSignal` work as for a
//! local run, and stopping closes the connection: the server stops a `/run_sse` run then, and
//! google-adk 2.x a `/run` one too).

use std::rc::Rc;

use futures_util::StreamExt;
use wasm_bindgen::prelude::*;

use super::convert::{from_js_core, js_error_to_core, promise, prop};
use super::http_options::{headers, http_client, text};
use super::stream::StreamHandle;
use super::to_js_error;
use crate::server::{
    AdkServerClient, AdkServerOptions, ArtifactRef, CreateSessionRequest, EventsJson, RunAgentRequest,
    SaveArtifactRequest, ServerCall, SessionRef, UpdateSessionRequest, UserRef,
};
use crate::AdkError;

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

/// The answer as the server wrote it (a session, an artifact, app info): JS parses it, and nothing
/// is decoded only to be encoded back.
fn plain(op: &str, text: &str) -> Result<JsValue, AdkError> {
    js_sys::JSON::parse(text).map_err(|e| crate::server::unexpected(op, js_error_to_core(&e)))
}

/// A list (of apps, sessions, artifact names, versions) as the server wrote it; an answer that is
/// not a list is not one of these endpoints'.
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

    /// Every endpoint but the runs, by the JS method's number (`adk-server.js` lists them in this
    /// order) with its argument: one export for all (each export costs a shim), a number rather
    /// than the method's name (nothing to compare), each answer in the server's JSON.
    pub fn call(&self, method: u8, args: JsValue) -> js_sys::Promise {
        let (call, shape): (Result<ServerCall, AdkError>, Shape) = match method {
            0 => (Ok(ServerCall::list_apps()), list),
            1 => {
                let name =
                    args.as_string().ok_or_else(|| AdkError::invalid("getAppInfo: expected the app's name, a string"));
                (name.and_then(|name| ServerCall::get_app_info(&name)), plain)
            }
            2 => {
                let op = "createSession";
                (from_js_core::<CreateSessionRequest>(op, &args).and_then(|a| ServerCall::create_session(&a)), plain)
            }
            3 => (session_ref("getSession", &args).and_then(|a| ServerCall::get_session(&a)), plain),
            4 => (user_ref("listSessions", &args).and_then(|a| ServerCall::list_sessions(&a)), list),
            5 => (session_ref("deleteSession", &args).and_then(|a| ServerCall::delete_session(&a)), nothing),
            6 => {
                let op = "updateSession";
                (from_js_core::<UpdateSessionRequest>(op, &args).and_then(|a| ServerCall::update_session(&a)), plain)
            }
            7 => (session_ref("listArtifactNames", &args).and_then(|a| ServerCall::list_artifact_names(&a)), list),
            8 => (artifact_ref("loadArtifact", &args).and_then(|a| ServerCall::load_artifact(&a)), plain),
            9 => {
                let op = "listArtifactVersions";
                (artifact_ref(op, &args).and_then(|a| ServerCall::list_artifact_versions(&a)), list)
            }
            10 => {
                let op = "saveArtifact";
                (from_js_core::<SaveArtifactRequest>(op, &args).and_then(|a| ServerCall::save_artifact(&a)), plain)
            }
            11 => (artifact_ref("deleteArtifact", &args).and_then(|a| ServerCall::delete_artifact(&a)), nothing),
            _ => (Err(AdkError::invalid("AdkServerClient: no such method")), nothing),
        };
        self.exchange(call, shape)
    }

    /// `POST /run_sse` (`stream`: the events as they arrive) or `POST /run` (all at its end), each
    /// event in the server's JSON.
    pub fn run(&self, request: JsValue, stream: bool) -> Result<StreamHandle, JsValue> {
        let op = if stream { "runSse" } else { "run" };
        let request: RunAgentRequest = from_js_core(op, &request).map_err(to_js_error)?;
        let events = self.client.run_as::<EventsJson>(&request, stream, Rc::default());
        Ok(StreamHandle::new(Box::pin(events.map(|event| event.map(|EventsJson(text)| text))), RUN_BATCH))
    }
}
