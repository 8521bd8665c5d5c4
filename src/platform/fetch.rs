//! [`HttpClient`] over the browser's `fetch` (or one the caller supplies: a proxy, a test double,
//! a polyfill). The body is read with the stream's reader chunk by chunk; one `AbortController`
//! per request is fired by the run's cancellation and by dropping the body.

use std::rc::Rc;

use async_trait::async_trait;
use wasm_bindgen::{JsCast, JsValue};

use super::interop::{call, js_error_to_core, method_of, object, prop, resolve};
use adk_core::cancellation::Cancellation;
use adk_core::http::{ByteStream, HttpClient, HttpRequest, HttpResponse};
use adk_core::{AdkError, ErrorCode};

/// Sends requests with a JS `fetch` function.
#[derive(Clone)]
pub struct FetchClient {
    fetch: js_sys::Function,
}

impl FetchClient {
    /// The global `fetch` (`window.fetch` or the worker's).
    pub fn global() -> Self {
        // Every browser and worker has fetch; if a host lacks it, send() reports that.
        let fetch = prop(&js_sys::global(), "fetch").unchecked_into();
        FetchClient { fetch }
    }

    /// A caller-supplied `fetch(url, init)`.
    pub fn with_fetch(fetch: js_sys::Function) -> Self {
        FetchClient { fetch }
    }
}

/// Aborts the request when the body is dropped before it was read to the end.
struct AbortOnDrop(web_sys::AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn network_error(url: &str, error: &JsValue) -> AdkError {
    let e = js_error_to_core(error);
    if e.code == ErrorCode::Aborted {
        return AdkError::new(ErrorCode::Aborted, format!("request to {url} was aborted"));
    }
    AdkError::new(ErrorCode::Unavailable, format!("request to {url} failed: {}", e.message))
}

/// Calls `f` on `this` and awaits what it returns; a throw or a rejection is a network error.
async fn settle(url: &str, f: &js_sys::Function, this: &JsValue, args: &[JsValue]) -> Result<JsValue, AdkError> {
    let args: js_sys::Array = args.iter().collect();
    let pending = f.apply(this, &args).map_err(|e| network_error(url, &e))?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&pending)).await.map_err(|e| network_error(url, &e))
}

#[async_trait(?Send)]
impl HttpClient for FetchClient {
    async fn send(&self, request: HttpRequest, cancellation: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        if !self.fetch.is_function() {
            return Err(AdkError::new(ErrorCode::Unimplemented, "this JavaScript host has no fetch()"));
        }
        let controller = web_sys::AbortController::new().map_err(|e| js_error_to_core(&e))?;
        let on_cancel = controller.clone();
        cancellation.on_cancel(move || on_cancel.abort());
        let guard = AbortOnDrop(controller);
        let headers: js_sys::Array = request
            .headers
            .iter()
            .map(|(k, v)| -> JsValue { js_sys::Array::of2(&k.into(), &v.into()).into() })
            .collect();
        let init = object(&[
            ("method", request.method.as_str().into()),
            ("headers", headers.into()),
            ("body", request.body.as_deref().map_or(JsValue::UNDEFINED, JsValue::from_str)),
            ("signal", guard.0.signal().into()),
        ]);
        let url = request.url;
        let response = settle(&url, &self.fetch, &JsValue::UNDEFINED, &[url.as_str().into(), init]).await?;
        let status = prop(&response, "status").as_f64().unwrap_or(0.0) as u16;
        let mut header_list = Vec::new();
        if let Ok(Some(entries)) = js_sys::try_iter(&prop(&response, "headers")) {
            for entry in entries.flatten() {
                let pair: js_sys::Array = entry.unchecked_into();
                if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                    header_list.push((k.to_ascii_lowercase(), v));
                }
            }
        }
        let stream = prop(&response, "body");
        let body: ByteStream = if stream.is_object() {
            let reader = match method_of(&stream, "getReader") {
                Some(get) => call(&get, &stream, &[])?,
                None => return Err(AdkError::invalid("fetch() returned a body without getReader()")),
            };
            Box::pin(async_stream::try_stream! {
                let _guard = guard;
                let read = method_of(&reader, "read").ok_or_else(|| AdkError::invalid("the body reader has no read()"))?;
                loop {
                    let step = settle(&url, &read, &reader, &[]).await?;
                    if prop(&step, "done").is_truthy() {
                        break;
                    }
                    let chunk = prop(&step, "value");
                    yield js_sys::Uint8Array::new(&chunk).to_vec();
                }
            })
        } else {
            // A response without a stream (a polyfill, or an empty body): read it as text.
            let text = match method_of(&response, "text") {
                Some(f) => resolve(call(&f, &response, &[])?).await?.as_string().unwrap_or_default(),
                None => String::new(),
            };
            Box::pin(futures_util::stream::once(async move { Ok(text.into_bytes()) }))
        };
        Ok(HttpResponse { status, headers: header_list, body })
    }
}
