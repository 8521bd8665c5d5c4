//! A fetch answer's body as the core reads it ([`adk_core::http::Body`]): with the A2A client in,
//! its chunks as bytes, decoded and framed in the wasm; without it, read by body.js ([`js`]).

#[cfg(feature = "a2a")]
use futures_util::StreamExt;
#[cfg(feature = "a2a")]
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::abort::AbortBridge;
#[cfg(feature = "a2a")]
use super::iter::JsStream;
use adk_core::http::ResponseBody;
use adk_core::{AdkError, ErrorCode};

#[cfg(not(feature = "a2a"))]
mod js;

#[cfg(feature = "a2a")]
#[wasm_bindgen(module = "/src/platform/fetch.js")]
extern "C" {
    /// A body chunk as a `Uint8Array`.
    fn bytes(chunk: JsValue) -> js_sys::Uint8Array;
}

/// Aborts the request when the body is dropped before it was read to the end.
pub(super) struct AbortOnDrop(pub AbortBridge);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A failed fetch or body read, as the caller sees it: aborted, or the network is unavailable.
pub(super) fn network_error(url: &str, error: AdkError) -> AdkError {
    if error.code == ErrorCode::Aborted {
        return AdkError::new(ErrorCode::Aborted, format!("request to {url} was aborted"));
    }
    AdkError::new(ErrorCode::Unavailable, format!("request to {url} failed: {}", error.message))
}

/// With the A2A client in, a body's chunks come into the wasm as bytes, decoded and framed here:
/// its stream skim reads each event's UTF-8 here anyway, and JS strings copied back in cost more
/// than the framing they save (measured: README's Size section). Without it (`adk-wasm/server`),
/// body.js decodes and frames ([`js`]) and this module has neither a UTF-8 check nor an
/// SSE parser.
#[cfg(feature = "a2a")]
pub(super) fn body(reader: JsValue, guard: AbortOnDrop, url: String) -> Result<ResponseBody, AdkError> {
    if !reader.is_object() {
        // No body at all (a 204, say).
        return Ok(Box::pin(futures_util::stream::empty::<Result<Vec<u8>, AdkError>>()));
    }
    Ok(Box::pin(JsStream::reader(reader)?.map(move |chunk| {
        // The request stays abortable while its body is read; dropping the body aborts it.
        let _reading = &guard;
        chunk.map(|chunk| bytes(chunk).to_vec()).map_err(|e| network_error(&url, e))
    })))
}

#[cfg(not(feature = "a2a"))]
pub(super) fn body(reader: JsValue, guard: AbortOnDrop, url: String) -> Result<ResponseBody, AdkError> {
    Ok(Box::pin(js::JsBody { reader, _guard: guard, url }))
}
