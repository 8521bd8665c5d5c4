//! The core's [`HttpClient`] over `fetch` (the global one, or one the caller supplies: a proxy, an
//! auth wrapper, a test double). It is called as `fetch(url, init)`, as `@a2a-js/sdk`, the OpenAI
//! client and the AI SDK call theirs, with `init.headers` a plain object, so that the common wrapper
//! `(url, init) => fetch(url, {...init, headers: {...init.headers, Authorization}})` keeps the SDK's
//! own headers. The answer's status and headers are read from the `Response`, and its body through
//! the stream reader: chunk by chunk as bytes, or decoded and framed by body.js (see [`super::body`]).
//! One `AbortController` per request is fired by the run's cancellation and by dropping the body.
//! Building `init` and reading the `Response` are done by fetch.js: a few lines of JS there cost
//! several kilobytes of bindings here.

use std::rc::Rc;

use async_trait::async_trait;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::abort::AbortBridge;
use super::body::{body, network_error, AbortOnDrop};
use super::interop::{js_error_to_core, prop};
use adk_core::cancellation::Cancellation;
use adk_core::http::{HttpClient, HttpRequest, HttpResponse};
use adk_core::{AdkError, ErrorCode};

#[wasm_bindgen(module = "/src/platform/fetch.js")]
extern "C" {
    /// `fetch(url, init)`, settled to `undefined` (not a `Response`) or `[status, headers, reader,
    /// error]`.
    fn send(
        fetch: &js_sys::Function,
        url: &str,
        method: &str,
        headers: js_sys::Array,
        body: Option<&str>,
        signal: &web_sys::AbortSignal,
    ) -> js_sys::Promise;

    /// `fetch(url, init)`, its answer and failure ignored.
    #[cfg(feature = "agents")]
    fn forget(fetch: &js_sys::Function, url: &str, method: &str, headers: js_sys::Array, body: Option<String>);
}

/// Sends requests with a JS `fetch` function.
#[derive(Clone)]
pub struct FetchClient {
    fetch: JsValue,
}

impl FetchClient {
    /// The global `fetch` (`window.fetch` or the worker's).
    pub fn global() -> Self {
        // Every browser and worker has fetch; if a host lacks it, send() reports that.
        FetchClient { fetch: prop(&js_sys::global(), "fetch") }
    }

    /// A caller-supplied `fetch(url, init)`.
    pub fn with_fetch(fetch: js_sys::Function) -> Self {
        FetchClient { fetch: fetch.into() }
    }
}

/// Headers as the JS halves take them: `[name, value, name, value, …]`.
pub(crate) fn header_array(headers: &[(String, String)]) -> js_sys::Array {
    let list = js_sys::Array::new();
    for (name, value) in headers {
        list.push(&JsValue::from_str(name));
        list.push(&JsValue::from_str(value));
    }
    list
}

/// The response fetch.js read: its status, headers and body (whose reading `guard` keeps
/// abortable).
#[inline(never)]
fn respond(answer: JsValue, guard: AbortOnDrop, url: String) -> Result<HttpResponse, AdkError> {
    let Some(answer) = answer.dyn_ref::<js_sys::Array>() else {
        return Err(AdkError::new(
            ErrorCode::Internal,
            format!("fetch({url}) resolved to something that is not a Response"),
        ));
    };
    let failed = answer.get(3);
    if !failed.is_undefined() {
        return Err(js_error_to_core(&failed));
    }
    let status = answer.get(0).as_f64().unwrap_or_default() as u16;
    let headers = header_pairs(answer.get(1).unchecked_ref());
    let body = body(answer.get(2), guard, url)?;
    Ok(HttpResponse { status, headers, body })
}

/// Headers from the JS halves' `[name, value, name, value, …]`.
pub(crate) fn header_pairs(pairs: &js_sys::Array) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    let (mut at, length) = (0, pairs.length());
    while at + 1 < length {
        let text = |at: u32| pairs.get(at).as_string().unwrap_or_default();
        headers.push((text(at), text(at + 1)));
        at += 2;
    }
    headers
}

#[async_trait(?Send)]
impl HttpClient for FetchClient {
    async fn send(&self, request: HttpRequest, cancellation: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        let Some(fetch) = self.fetch.dyn_ref::<js_sys::Function>() else {
            return Err(AdkError::new(ErrorCode::Unimplemented, "this JavaScript host has no fetch()"));
        };
        let guard = AbortOnDrop(AbortBridge::new(&cancellation)?);
        let headers = header_array(&request.headers);
        let pending = send(fetch, &request.url, &request.method, headers, request.body.as_deref(), &guard.0.signal());
        let answer = wasm_bindgen_futures::JsFuture::from(pending)
            .await
            .map_err(|e| network_error(&request.url, js_error_to_core(&e)))?;
        respond(answer, guard, request.url)
    }

    // Only the agents' MCP client sends in the background: the slim entries keep the default.
    #[cfg(feature = "agents")]
    fn send_and_forget(&self, request: HttpRequest) {
        if let Some(fetch) = self.fetch.dyn_ref::<js_sys::Function>() {
            forget(fetch, &request.url, &request.method, header_array(&request.headers), request.body);
        }
    }
}
