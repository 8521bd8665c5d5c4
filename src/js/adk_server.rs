//! `AdkServerClient` for JS: a client of an ADK server (`adk api_server`). A call's arguments are
//! stringified once and read in place ([`Args`]); answers, events included, are the server's own
//! JSON, parsed once by JS; `run` hands back [`StreamHandle`]s (the JS wrapper makes
//! them a `Run`, so `for await`, `break`, `toReadableStream()` and an `AbortSignal` work as for a
//! local run, and stopping closes the connection: the server stops a `/run_sse` run then, and
//! google-adk 2.x a `/run` one too).

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{js_error_to_core, json_text, promise, prop};
use super::http_options::{headers, http_client, text};
use super::stream::StreamHandle;
use super::to_js_error;
use crate::server::{AdkServerClient, AdkServerOptions, Args, Endpoint, ServerCall};
use crate::AdkError;

/// A run's events are handed to JS in batches: reading ahead of the caller changes nothing on the
/// server, which runs at its own pace.
const RUN_BATCH: usize = 64;

/// A client of one ADK server (`AdkServerClient` in JS).
#[wasm_bindgen]
pub struct AdkServerClientHandle {
    client: AdkServerClient,
}

/// The JSON text of a JS caller's arguments (none: `{}`), for [`Args`] to read in place.
fn args_text(endpoint: Endpoint, args: &JsValue) -> Result<String, AdkError> {
    match args.is_undefined() || args.is_null() {
        true => Ok("{}".into()),
        false => json_text(endpoint.op(), args),
    }
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
                text(WHAT, &options, "baseUrl")?.ok_or_else(|| AdkError::invalid("AdkServerClient: give baseUrl"))?;
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

    /// Every endpoint but the runs, by the JS method's number (`adk-server.js` lists them in
    /// [`Endpoint`]'s order) with its argument: one export for all (each export costs a shim), a
    /// number rather than the method's name (nothing to compare), each answer in the server's JSON.
    pub fn call(&self, method: u8, args: JsValue) -> js_sys::Promise {
        const SHAPES: [Shape; 12] =
            [list, plain, plain, plain, list, nothing, plain, list, plain, list, plain, nothing];
        let (call, shape) = match (Endpoint::from_index(method), SHAPES.get(usize::from(method))) {
            (Some(endpoint), Some(shape)) => {
                let call = args_text(endpoint, &args).and_then(|text| ServerCall::of(endpoint, &text));
                (call, *shape)
            }
            _ => (Err(AdkError::invalid("AdkServerClient: no such method")), nothing as Shape),
        };
        self.exchange(call, shape)
    }

    /// `POST /run_sse` (`stream`: the events as they arrive) or `POST /run` (all at its end), each
    /// event in the server's JSON.
    pub fn run(&self, request: JsValue, stream: bool) -> Result<StreamHandle, JsValue> {
        let endpoint = if stream { Endpoint::RUN_SSE } else { Endpoint::RUN };
        // A request that does not read (a name missing or not a string) throws here; one whose
        // names are empty fails the run, as any error before its first event does.
        let text = args_text(endpoint, &request).map_err(to_js_error)?;
        let args = Args::read(endpoint, &text).map_err(to_js_error)?;
        let events = self.client.run_call::<String>(ServerCall::new(&args), Rc::default());
        Ok(StreamHandle::new(Box::pin(events), RUN_BATCH))
    }
}
