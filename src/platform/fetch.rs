//! The core's [`HttpClient`] over `fetch` (the global one, or one the caller supplies: a proxy, an
//! auth wrapper, a test double). It is called as `fetch(url, init)`, as `@a2a-js/sdk`, the OpenAI
//! client and the AI SDK call theirs, with `init.headers` a plain object, so that the common wrapper
//! `(url, init) => fetch(url, {...init, headers: {...init.headers, Authorization}})` keeps the SDK's
//! own headers. The answer's status and headers are read from the `Response`, and its body chunk by
//! chunk through the stream reader. One `AbortController` per request is fired by the
//! run's cancellation and by dropping the body. Building `init` and reading the `Response` are
//! done by fetch.js: a few lines of JS there cost several kilobytes of bindings here.

use std::rc::Rc;

use async_trait::async_trait;
use futures_util::StreamExt;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::abort::AbortBridge;
use super::interop::{js_error_to_core, prop};
use super::iter::JsStream;
use adk_core::cancellation::Cancellation;
use adk_core::http::{ByteStream, HttpClient, HttpRequest, HttpResponse};
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
        body: Option<String>,
        signal: &web_sys::AbortSignal,
    ) -> js_sys::Promise;

    /// A body chunk as a `Uint8Array`.
    fn bytes(chunk: JsValue) -> js_sys::Uint8Array;

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

/// Aborts the request when the body is dropped before it was read to the end.
struct AbortOnDrop(AbortBridge);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A failed fetch or body read, as the caller sees it: aborted, or the network is unavailable.
fn network_error(url: &str, error: AdkError) -> AdkError {
    if error.code == ErrorCode::Aborted {
        return AdkError::new(ErrorCode::Aborted, format!("request to {url} was aborted"));
    }
    AdkError::new(ErrorCode::Unavailable, format!("request to {url} failed: {}", error.message))
}

/// The request's headers as fetch.js takes them: `[name, value, name, value, …]`.
fn header_list(request: &HttpRequest) -> js_sys::Array {
    let list = js_sys::Array::new();
    for (name, value) in &request.headers {
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
    let pairs: js_sys::Array = answer.get(1).unchecked_into();
    let mut headers = Vec::new();
    let (mut at, length) = (0, pairs.length());
    while at + 1 < length {
        let text = |at: u32| pairs.get(at).as_string().unwrap_or_default();
        headers.push((text(at), text(at + 1)));
        at += 2;
    }
    let reader = answer.get(2);
    let body: ByteStream = if reader.is_object() {
        Box::pin(JsStream::reader(reader)?.map(move |chunk| {
            // The request stays abortable while its body is read; dropping the body aborts it.
            let _reading = &guard;
            chunk.map(|chunk| bytes(chunk).to_vec()).map_err(|e| network_error(&url, e))
        }))
    } else {
        // No body at all (a 204, say).
        Box::pin(futures_util::stream::empty())
    };
    Ok(HttpResponse { status, headers, body })
}

#[async_trait(?Send)]
impl HttpClient for FetchClient {
    async fn send(&self, request: HttpRequest, cancellation: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        let Some(fetch) = self.fetch.dyn_ref::<js_sys::Function>() else {
            return Err(AdkError::new(ErrorCode::Unimplemented, "this JavaScript host has no fetch()"));
        };
        let guard = AbortOnDrop(AbortBridge::new(&cancellation)?);
        let headers = header_list(&request);
        let pending = send(fetch, &request.url, &request.method, headers, request.body, &guard.0.signal());
        let answer = wasm_bindgen_futures::JsFuture::from(pending)
            .await
            .map_err(|e| network_error(&request.url, js_error_to_core(&e)))?;
        respond(answer, guard, request.url)
    }

    // Only the agents' MCP client sends in the background: the slim entries keep the default.
    #[cfg(feature = "agents")]
    fn send_and_forget(&self, request: HttpRequest) {
        if let Some(fetch) = self.fetch.dyn_ref::<js_sys::Function>() {
            forget(fetch, &request.url, &request.method, header_list(&request), request.body);
        }
    }
}
