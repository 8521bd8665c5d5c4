//! The A2A client and `RemoteA2aAgent` for JS. Requests go out with `fetch` (or the caller's);
//! streams come back as [`StreamHandle`]s of v1.0 stream responses (`{task}`, `{message}`,
//! `{statusUpdate}`, `{artifactUpdate}`), plus `{resumed: {attempt}}` when a dropped stream was
//! re-attached.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use adk_core::json;
use futures_core::Stream;
use futures_util::StreamExt;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[cfg(feature = "agents")]
use super::agent::{core_from, AgentHandle};
use super::convert::{from_js_core, json_text, parse_json, promise, prop, string_arg, to_js_core};
use super::http_options::{headers, http_client, text};
use super::stream::StreamHandle;
#[cfg(feature = "agents")]
use super::sys::AgentOptions;
use super::to_js_error;
use crate::a2a::{
    A2aClient, A2aClientOptions, AgentCard, Binding, Delivered, DeliveredStream, ListTasksParams, ProtocolVersion,
    ResumePolicy, SendMessageParams, StreamRequest, Unary,
};
#[cfg(feature = "agents")]
use crate::agent::RemoteA2aAgent;
use crate::cancellation::Cancellation;
use crate::http::HttpRequest;
use crate::platform::fetch::{header_array, header_pairs};
use crate::AdkError;
use adk_core::platform;

/// Reads `{headers, fetch, binding, protocolVersion, onRequest, resume: {maxRetries, maxTotalRetries,
/// backoffBaseMs, maxBackoffMs}}`.
fn client_options(options: &JsValue) -> Result<A2aClientOptions, AdkError> {
    const WHAT: &str = "A2AClient options";
    let mut resume = ResumePolicy::default();
    let given = prop(options, "resume");
    for (key, field, max) in [
        ("maxRetries", &mut resume.max_retries, 100.0),
        ("maxTotalRetries", &mut resume.max_total_retries, 1000.0),
        ("backoffBaseMs", &mut resume.backoff_base_ms, 60_000.0),
        ("maxBackoffMs", &mut resume.max_backoff_ms, 600_000.0),
    ] {
        let value = prop(&given, key);
        match value.as_f64() {
            // Not `clamp`: with a bound that is not a constant, its check for NaN bounds brings
            // float formatting (8 KB) into the module. NaN is 0.
            Some(n) => *field = n.max(0.0).min(max) as u32,
            None if value.is_undefined() || value.is_null() => {}
            None => return Err(AdkError::invalid("A2AClient options: resume: expected numbers")),
        }
    }
    let unknown = |key: &str, value: &str| AdkError::invalid(format!("{WHAT}: {key}: unknown `{value}`"));
    let binding = text(WHAT, options, "binding")?
        .map(|b| Binding::parse(&b).ok_or_else(|| unknown("binding", &b)))
        .transpose()?;
    let protocol_version = text(WHAT, options, "protocolVersion")?
        .map(|v| ProtocolVersion::parse(&v).ok_or_else(|| unknown("protocolVersion", &v)))
        .transpose()?;
    Ok(A2aClientOptions {
        headers: headers(WHAT, options)?,
        binding,
        protocol_version,
        interceptor: interceptor(&prop(options, "onRequest"))?,
        resume,
        sleep: Some(Rc::new(sleep)),
    })
}

#[wasm_bindgen(module = "/src/platform/fetch.js")]
extern "C" {
    /// Runs the hook on a view of the request; the headers it leaves, or `undefined` to keep them.
    fn intercept(hook: &js_sys::Function, method: &str, url: &str, headers: js_sys::Array) -> JsValue;
}

/// `onRequest(request)`: a JS function that may change `request.headers` (e.g. add a bearer token).
fn interceptor(value: &JsValue) -> Result<Option<crate::a2a::Interceptor>, AdkError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let f: js_sys::Function =
        value.clone().dyn_into().map_err(|_| AdkError::invalid("A2AClient options: onRequest: expected a function"))?;
    Ok(Some(Rc::new(move |request: &mut HttpRequest| {
        // A throwing hook leaves the request as it was; the server's answer will say what is missing.
        let headers = intercept(&f, &request.method, &request.url, header_array(&request.headers));
        if let Some(pairs) = headers.dyn_ref::<js_sys::Array>() {
            request.headers = header_pairs(pairs);
        }
    })))
}

/// The resume backoff's timer; dropping the wait (a cancelled stream) clears the timeout.
fn sleep(ms: u32) -> Pin<Box<dyn Future<Output = ()>>> {
    Box::pin(crate::platform::sleep::sleep(ms))
}

/// `{message, configuration?, metadata?}`; the message's `messageId` and `role` may be left out.
fn send_params(params: &JsValue) -> Result<SendMessageParams, AdkError> {
    let mut value = json::parse("message params", &json_text("message params", params)?)?;
    if let Some(message) = json::member_mut(&mut value, "message").and_then(Value::as_object_mut) {
        // Looked up by a scan, as the rest of the client finds members (the insert itself is
        // serde_json's ordered map's).
        if json::field(message, "messageId").is_none() {
            message.insert("messageId".into(), platform::new_uuid().into());
        }
        if json::field(message, "role").is_none() {
            message.insert("role".into(), "ROLE_USER".into());
        }
    }
    json::from_value("message params", value)
}

/// Items that have arrived are handed to JS in batches: an A2A stream has no side effects to hold back.
const A2A_BATCH: usize = 256;

/// Each item goes to JS as its v1.0 JSON: the server's own text where it needed no translation.
fn stream_handle(client: &A2aClient, request: StreamRequest) -> StreamHandle {
    let items = client.open_stream(request, Rc::new(Cancellation::default()));
    StreamHandle::new(Box::pin(Json(items)), A2A_BATCH)
}

/// The items' JSON (a stream of its own: `map`'s adapter is more code).
struct Json(DeliveredStream);

impl Stream for Json {
    type Item = Result<String, AdkError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_next_unpin(cx).map(|item| item.map(|item| item.map(Delivered::into_json)))
    }
}

/// A client of one remote A2A agent (`A2AClient` in JS).
#[wasm_bindgen]
pub struct A2AClientHandle {
    client: A2aClient,
}

#[wasm_bindgen]
impl A2AClientHandle {
    /// The two constructors, one export (each export costs a shim): with `from_url`, a promise of
    /// the client of the card read at `source` (a base URL or the card's own URL); else the client
    /// of the card object `source`, at once.
    pub fn open(source: JsValue, options: JsValue, from_url: bool) -> Result<JsValue, JsValue> {
        if from_url {
            return Ok(promise(async move {
                let url = string_arg("A2AClient.fromCardUrl url", &source)?;
                let http = http_client("A2AClient", &options)?;
                let client = A2aClient::from_card_url(&url, client_options(&options)?, http).await?;
                Ok(A2AClientHandle { client }.into())
            })
            .into());
        }
        let build = || -> Result<A2AClientHandle, AdkError> {
            let card = AgentCard::from_json(&json_text("agent card", &source)?)?;
            let client = A2aClient::from_card(card, client_options(&options)?, http_client("A2AClient", &options)?)?;
            Ok(A2AClientHandle { client })
        };
        build().map(JsValue::from).map_err(to_js_error)
    }

    /// The operations and the getters, one export (each export costs a shim): `op` 0 is
    /// `SendMessage(arg)`, a promise of `{task}` or `{message}`; 1 `GetTask(arg, historyLength)`;
    /// 2 `CancelTask(arg)`; 3 `ListTasks(arg)` (protocol 1.0); 4 `SendStreamingMessage(arg)` and 5
    /// `SubscribeToTask(arg)` (`tasks/resubscribe` on 0.3), a stream at once; 6 the protocol
    /// version in use (`1.0`, `0.3`), 7 its binding (`JSONRPC`, `HTTP+JSON`), 8 its URL, 9 the card;
    /// any other `op` an `INVALID_ARGUMENT` error.
    pub fn run(&self, op: u8, arg: JsValue, history_length: Option<u32>) -> Result<JsValue, JsValue> {
        match op {
            6 => return Ok(self.client.protocol_version().as_str().into()),
            7 => return Ok(self.client.binding().as_str().into()),
            8 => return Ok(self.client.url().into()),
            9 => return to_js_core(self.client.card()).map_err(to_js_error),
            _ => {}
        }
        if op >= 4 {
            let request = match op {
                4 => send_params(&arg).map(|params| StreamRequest::SendMessage(Box::new(params))),
                5 => string_arg("subscribeToTask id", &arg).map(StreamRequest::SubscribeToTask),
                _ => Err(AdkError::invalid("A2AClient: no such operation")),
            };
            return Ok(stream_handle(&self.client, request.map_err(to_js_error)?).into());
        }
        let client = self.client.clone();
        Ok(promise(async move {
            let (params, id, list);
            let call = match op {
                0 => {
                    params = send_params(&arg)?;
                    Unary::SendMessage(&params)
                }
                1 => {
                    id = string_arg("getTask id", &arg)?;
                    Unary::GetTask { id: &id, history_length }
                }
                2 => {
                    id = string_arg("cancelTask id", &arg)?;
                    Unary::CancelTask(&id)
                }
                _ => {
                    list = match arg.is_undefined() {
                        true => ListTasksParams::default(),
                        false => from_js_core("list params", &arg)?,
                    };
                    Unary::ListTasks(&list)
                }
            };
            // The result as the server wrote it (1.0), parsed by JS.
            parse_json(&client.call_json(call).await?)
        })
        .into())
    }
}

#[cfg(feature = "agents")]
#[wasm_bindgen]
impl AgentHandle {
    /// `RemoteA2aAgent` over an existing client.
    #[wasm_bindgen(js_name = remoteA2aFromClient)]
    pub fn remote_a2a_from_client(options: JsValue, client: &A2AClientHandle) -> Result<AgentHandle, JsValue> {
        let core = core_from(&AgentOptions::new(options.clone())).map_err(to_js_error)?;
        Ok(AgentHandle::wrap(Rc::new(RemoteA2aAgent::new(core, client.client.clone()))))
    }

    /// `RemoteA2aAgent` whose card is read from `options.agentCardUrl` on its first run.
    #[wasm_bindgen(js_name = remoteA2aFromCardUrl)]
    pub fn remote_a2a_from_card_url(options: JsValue) -> Result<AgentHandle, JsValue> {
        let build = || -> Result<AgentHandle, AdkError> {
            let core = core_from(&AgentOptions::new(options.clone()))?;
            let url = text("RemoteA2aAgent", &options, "agentCardUrl")?
                .ok_or_else(|| AdkError::invalid("RemoteA2aAgent: give agentCardUrl or client"))?;
            let http = http_client("RemoteA2aAgent", &options)?;
            Ok(AgentHandle::wrap(Rc::new(RemoteA2aAgent::from_card_url(core, &url, client_options(&options)?, http))))
        };
        build().map_err(to_js_error)
    }
}
