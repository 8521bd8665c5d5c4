//! The body read by body.js: the text decoded there (`TextDecoder`), the server-sent events framed
//! there, so no bytes cross and the wasm neither checks UTF-8 nor frames.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use futures_core::Stream;
use futures_util::StreamExt;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::super::interop::js_error_to_core;
use super::super::iter::JsStream;
use super::{network_error, AbortOnDrop};
use adk_core::http::{body_too_large, sse_error, Body, SseStream, MAX_BODY_BYTES};
use adk_core::sse::{SseError, SseEvent, DEFAULT_MAX_EVENT_BYTES};
use adk_core::AdkError;

#[wasm_bindgen(module = "/src/platform/body.js")]
extern "C" {
    /// The body read whole as text; `null` past `max` bytes.
    fn text(reader: &JsValue, max: usize) -> js_sys::Promise;

    /// A reader of the body's server-sent events, framed in JS (see body.js).
    fn events(reader: &JsValue, max: usize) -> JsValue;
}

/// A body read by body.js. The request stays abortable while it is read; dropping it aborts.
pub(super) struct JsBody {
    pub reader: JsValue,
    pub _guard: AbortOnDrop,
    pub url: String,
}

impl Body for JsBody {
    fn text(self: Pin<Box<Self>>) -> Pin<Box<dyn Future<Output = Result<String, AdkError>>>> {
        Box::pin(async move {
            if !self.reader.is_object() {
                return Ok(String::new());
            }
            let read = wasm_bindgen_futures::JsFuture::from(text(&self.reader, MAX_BODY_BYTES))
                .await
                .map_err(|e| network_error(&self.url, js_error_to_core(&e)))?;
            read.as_string().ok_or_else(body_too_large)
        })
    }

    fn events(self: Pin<Box<Self>>) -> SseStream {
        let body = *Pin::into_inner(self);
        // No body (a `204`, say): no events, as a stream already read to its end.
        let (reads, failed) = match body.reader.is_object() {
            true => match JsStream::reader(events(&body.reader, DEFAULT_MAX_EVENT_BYTES)) {
                Ok(reads) => (Some(reads), None),
                Err(e) => (None, Some(e)),
            },
            false => (None, None),
        };
        Box::pin(JsEvents { reads, failed, text: String::new(), at: 0, body })
    }
}

fn too_large() -> SseError {
    SseError::EventTooLarge { limit: DEFAULT_MAX_EVENT_BYTES }
}

/// The four CR-ended fields at the start of `text`, if they are all there (the shared byte scan:
/// `str`'s pattern splitters cost the module most of a kilobyte).
fn fields(mut text: &str) -> Option<[&str; 4]> {
    let mut fields = [""; 4];
    for field in &mut fields {
        let end = adk_core::scan::find2(text.as_bytes(), b'\r', b'\r')?;
        let (value, rest) = text.split_at_checked(end)?;
        *field = value;
        text = rest.get(1..)?;
    }
    Some(fields)
}

/// The events body.js framed: each read one string of events (see body.js), read one event at
/// a time; it ends after the first error.
struct JsEvents {
    reads: Option<JsStream>,
    /// The reader could not be had: the one item, an error (no stream type of its own for it).
    failed: Option<AdkError>,
    text: String,
    at: usize,
    body: JsBody,
}

impl Stream for JsEvents {
    type Item = Result<SseEvent, AdkError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if let Some(e) = this.failed.take() {
            return Poll::Ready(Some(Err(e)));
        }
        loop {
            // Four fields, each ended by CR: the type, the last id, the retry digits, the data.
            if let Some([event, id, retry, data]) = fields(this.text.get(this.at..).unwrap_or_default()) {
                this.at += event.len() + id.len() + retry.len() + data.len() + 4;
                // The data's size in bytes, which body.js counts in UTF-16 units where it is small.
                if data.len() >= DEFAULT_MAX_EVENT_BYTES {
                    this.reads = None;
                    return Poll::Ready(Some(Err(sse_error(too_large()))));
                }
                let retry = adk_core::scan::decimal(retry.as_bytes());
                return Poll::Ready(Some(Ok(SseEvent {
                    event: event.to_string().into(),
                    data: data.into(),
                    id: id.into(),
                    retry,
                })));
            }
            let Some(reads) = this.reads.as_mut() else { return Poll::Ready(None) };
            let failed = match ready!(reads.poll_next_unpin(cx)) {
                None => return Poll::Ready(None),
                Some(Ok(read)) => match read.as_string() {
                    Some(text) => {
                        (this.text, this.at) = (text, 0);
                        continue;
                    }
                    None if read.as_f64() == Some(0.0) => sse_error(too_large()),
                    None => sse_error(SseError::Truncated),
                },
                Some(Err(e)) => network_error(&this.body.url, e),
            };
            this.reads = None;
            return Poll::Ready(Some(Err(failed)));
        }
    }
}
