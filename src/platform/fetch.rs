//! The core's [`HttpClient`] over `fetch` (the global one, or one the caller supplies: a proxy, an
//! auth wrapper, a test double). It is called as `fetch(url, init)`, as `@a2a-js/sdk`, the OpenAI
//! client and the AI SDK call theirs, with `init.headers` a plain object, so that the common wrapper
//! `(url, init) => fetch(url, {...init, headers: {...init.headers, Authorization}})` keeps the SDK's
//! own headers. The answer's status and headers are read from the `Response`, and its body chunk by
//! chunk through the stream reader. One `AbortController` per request is fired by the
//! run's cancellation and by dropping the body.

use std::rc::Rc;

use async_trait::async_trait;
use futures_util::StreamExt;
use wasm_bindgen::{JsCast, JsValue};

use super::abort::AbortBridge;
use super::interop::{call, js_error_to_core, prop, resolve};
use super::iter::JsStream;
use super::sys::ReadableStream;
use adk_core::cancellation::Cancellation;
use adk_core::http::{ByteStream, HttpClient, HttpRequest, HttpResponse};
use adk_core::{AdkError, ErrorCode};

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

/// The response's headers, names in lower case: `[name, value]` pairs as `Array.from(headers)`
/// gives them.
fn headers(response: &web_sys::Response) -> Vec<(String, String)> {
    js_sys::Array::from(&prop(response, "headers"))
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            let text = |at: u32| pair.get(at).as_string().unwrap_or_default();
            (text(0).to_ascii_lowercase(), text(1))
        })
        .collect()
}

/// The `init` of `fetch(url, init)`: method, headers as a plain object (a repeated name joined
/// with ", ", as `Headers` joins it), body, and `signal` if given.
fn init(request: &HttpRequest, signal: Option<&web_sys::AbortSignal>) -> web_sys::RequestInit {
    let init = web_sys::RequestInit::new();
    init.set_method(&request.method);
    if let Some(signal) = signal {
        init.set_signal(Some(signal));
    }
    let headers = js_sys::Object::new();
    for (name, value) in &request.headers {
        let key = JsValue::from_str(name);
        let joined = match js_sys::Reflect::get(&headers, &key).ok().and_then(|v| v.as_string()) {
            Some(earlier) => [earlier.as_str(), ", ", value].concat(),
            None => value.clone(),
        };
        // Setting a field of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&headers, &key, &JsValue::from_str(&joined));
    }
    init.set_headers(&headers);
    if let Some(body) = &request.body {
        init.set_body(&JsValue::from_str(body));
    }
    init
}

/// Starts the fetch: what it answers (a Promise, as a rule), and the abort that goes with it.
/// Out of line, like [`respond`], so that the future of `send` holds only the wait between them.
#[inline(never)]
fn start(
    fetch: &JsValue,
    request: &HttpRequest,
    cancellation: &Rc<Cancellation>,
) -> Result<(JsValue, AbortOnDrop), AdkError> {
    let Some(fetch) = fetch.dyn_ref::<js_sys::Function>() else {
        return Err(AdkError::new(ErrorCode::Unimplemented, "this JavaScript host has no fetch()"));
    };
    let guard = AbortOnDrop(AbortBridge::new(cancellation)?);
    let init = init(request, Some(&guard.0.signal()));
    let pending = call(fetch, &JsValue::UNDEFINED, &[JsValue::from_str(&request.url), init.into()])
        .map_err(|e| network_error(&request.url, e))?;
    Ok((pending, guard))
}

/// The response `fetch` resolved to: its status, headers and body (whose reading `guard` keeps
/// abortable).
#[inline(never)]
fn respond(answer: JsValue, guard: AbortOnDrop, url: String) -> Result<HttpResponse, AdkError> {
    let response: web_sys::Response = answer.dyn_into().map_err(|_| {
        AdkError::new(ErrorCode::Internal, format!("fetch({url}) resolved to something that is not a Response"))
    })?;
    let stream = prop(&response, "body");
    let status = response.status();
    let headers = headers(&response);
    let body: ByteStream = if stream.is_object() {
        let reader = stream.unchecked_into::<ReadableStream>().get_reader().map_err(|e| js_error_to_core(&e))?;
        Box::pin(JsStream::reader(reader)?.map(move |chunk| {
            // The request stays abortable while its body is read; dropping the body aborts it.
            let _reading = &guard;
            // A body's chunks are Uint8Arrays already: read in place (`new Uint8Array(chunk)`
            // would copy each first); anything else a custom fetch yields is viewed as bytes.
            let bytes = |chunk: JsValue| match chunk.dyn_into::<js_sys::Uint8Array>() {
                Ok(bytes) => bytes.to_vec(),
                Err(other) => js_sys::Uint8Array::new(&other).to_vec(),
            };
            chunk.map(bytes).map_err(|e| network_error(&url, e))
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
        let (pending, guard) = start(&self.fetch, &request, &cancellation)?;
        let answer = resolve(pending).await.map_err(|e| network_error(&request.url, e))?;
        respond(answer, guard, request.url)
    }

    // Only the agents' MCP client sends in the background: the slim entries keep the default.
    #[cfg(feature = "agents")]
    fn send_and_forget(&self, request: HttpRequest) {
        thread_local! {
            // One handler for every forgotten request's failure: nothing is waiting for it.
            static IGNORE: wasm_bindgen::closure::Closure<dyn FnMut(JsValue)> =
                wasm_bindgen::closure::Closure::new(|_: JsValue| {});
        }
        let Some(fetch) = self.fetch.dyn_ref::<js_sys::Function>() else { return };
        let init = init(&request, None);
        if let Ok(pending) = call(fetch, &JsValue::UNDEFINED, &[JsValue::from_str(&request.url), init.into()]) {
            if let Ok(pending) = pending.dyn_into::<js_sys::Promise>() {
                IGNORE.with(|ignore| drop(pending.catch(ignore)));
            }
        }
    }
}
