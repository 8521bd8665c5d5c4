//! The one seam to the network: an [`HttpClient`] sends a request and hands back the status, the
//! headers and the body, read as text or as server-sent events ([`Body`]). Models and the A2A
//! client are written against this trait only, so they build and are tested natively; the browser
//! implementation (`fetch`) is platform code and lives with the rest of it in the wasm crate.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use async_trait::async_trait;
use futures_core::Stream;
use futures_util::StreamExt;

use crate::cancellation::Cancellation;

mod external;
mod requests;
mod retry_after;
mod url;

use crate::sse::{SseEvent, SseParser};
use crate::{AdkError, ErrorCode};
pub use external::{reason_phrase, ExternalResponse};
pub use requests::{request, RequestOptions, METHODS};
pub use url::{encode_component, form, form_encode, query, query_params};

/// The largest body [`HttpResponse::text`] reads: 32 MiB.
pub const MAX_BODY_BYTES: usize = 32 << 20;

/// A response body. Dropping it releases the connection and aborts the request.
pub type ResponseBody = Pin<Box<dyn Body>>;

/// The server-sent events of a body; they end after the first error.
pub type SseStream = Pin<Box<dyn Stream<Item = Result<SseEvent, AdkError>>>>;

/// How a body is read: whole, as text, or as server-sent events. Any stream of byte chunks is a
/// body, decoded and framed here (natively, by tests, and in the browser where the A2A client is);
/// the platform may read it itself instead (the browser's `TextDecoder` and SSE framing in JS),
/// handing over text and no bytes.
pub trait Body {
    /// The whole body as text (lossy UTF-8), refusing one larger than [`MAX_BODY_BYTES`]: a
    /// broken or hostile server must not be able to exhaust the page's memory.
    fn text(self: Pin<Box<Self>>) -> Pin<Box<dyn Future<Output = Result<String, AdkError>>>>;

    /// The body as server-sent events. A stream cut in the middle of an event ends with an
    /// `UNAVAILABLE` error, so callers can tell it from a clean end.
    fn events(self: Pin<Box<Self>>) -> SseStream;
}

/// Body chunks as they arrive, behind one pointer: a body's decoding and framing are one instance
/// for every kind of stream.
type Chunks = Pin<Box<dyn Stream<Item = Result<Vec<u8>, AdkError>>>>;

impl<S: Stream<Item = Result<Vec<u8>, AdkError>> + 'static> Body for S {
    fn text(self: Pin<Box<Self>>) -> Pin<Box<dyn Future<Output = Result<String, AdkError>>>> {
        Box::pin(text(self))
    }

    fn events(self: Pin<Box<Self>>) -> SseStream {
        Box::pin(SseEvents { body: Some(self), parser: SseParser::default(), ready: Vec::new().into_iter() })
    }
}

/// [`Body::text`] of byte chunks.
async fn text(mut body: Chunks) -> Result<String, AdkError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk?;
        if bytes.len().saturating_add(chunk.len()) > MAX_BODY_BYTES {
            return Err(body_too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(crate::text::lossy_string(bytes))
}

/// A body over [`MAX_BODY_BYTES`].
pub fn body_too_large() -> AdkError {
    AdkError::new(
        ErrorCode::ResourceExhausted,
        format!("the response body is larger than {} MiB", MAX_BODY_BYTES >> 20),
    )
}

/// An HTTP request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpRequest {
    /// `GET`, `POST`, …
    pub method: String,
    /// The absolute URL.
    pub url: String,
    /// Header names and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body (JSON text here), if any.
    pub body: Option<String>,
}

impl HttpRequest {
    /// A `GET` of `url`.
    pub fn get(url: impl Into<String>) -> Self {
        HttpRequest { method: "GET".into(), url: url.into(), ..Default::default() }
    }

    /// A `POST` of JSON `body` to `url`.
    pub fn post_json(url: impl Into<String>, body: String) -> Self {
        HttpRequest {
            method: "POST".into(),
            url: url.into(),
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: Some(body),
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// A response whose body has not been read yet.
pub struct HttpResponse {
    /// The HTTP status.
    pub status: u16,
    /// Header names (lower-case) and values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: ResponseBody,
}

impl std::fmt::Debug for HttpResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpResponse").field("status", &self.status).field("headers", &self.headers).finish()
    }
}

impl HttpResponse {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// How long the server asked to wait before trying again (`Retry-After`), in milliseconds. A
    /// browser sees the header cross-origin only if the server lists it in
    /// `Access-Control-Expose-Headers`.
    pub fn retry_after_ms(&self) -> Option<u64> {
        retry_after::retry_after_ms(self.header("retry-after")?, crate::platform::now_seconds())
    }

    /// Whether the status is 2xx.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Whether the body is `text/event-stream`.
    pub fn is_event_stream(&self) -> bool {
        // The prefix compared without case, not the header lowercased: no copy, and no lowercasing
        // code of its own in the A2A module.
        const TYPE: &[u8] = b"text/event-stream";
        self.header("content-type")
            .is_some_and(|t| t.trim_start().as_bytes().get(..TYPE.len()).is_some_and(|p| p.eq_ignore_ascii_case(TYPE)))
    }

    /// The whole body as text: see [`Body::text`].
    pub fn text(self) -> Pin<Box<dyn Future<Output = Result<String, AdkError>>>> {
        self.body.text()
    }

    /// The body as server-sent events: see [`Body::events`].
    pub fn events(self) -> SseStream {
        self.body.events()
    }
}

/// The server-sent events of a stream of byte chunks, parsed as chunks arrive.
struct SseEvents {
    body: Option<Chunks>,
    parser: SseParser,
    /// The events of the last chunk not yet handed on: all of them are handed on before the next
    /// chunk is read, so the parser's list is walked as it is (a queue's code would be in the
    /// module for it).
    ready: std::vec::IntoIter<SseEvent>,
}

impl Stream for SseEvents {
    type Item = Result<SseEvent, AdkError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(event) = this.ready.next() {
                return Poll::Ready(Some(Ok(event)));
            }
            let Some(body) = this.body.as_mut() else { return Poll::Ready(None) };
            let parsed = match body.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => this.parser.push(&chunk).map_err(sse_error),
                Poll::Ready(Some(Err(e))) => Err(e),
                Poll::Ready(None) => {
                    this.body = None;
                    std::mem::take(&mut this.parser).finish().map_err(sse_error)
                }
            };
            match parsed {
                Ok(events) => this.ready = events.into_iter(),
                Err(e) => {
                    this.body = None;
                    return Poll::Ready(Some(Err(e)));
                }
            }
        }
    }
}

/// A framing error as the caller sees it.
pub fn sse_error(e: crate::sse::SseError) -> AdkError {
    let code = match e {
        crate::sse::SseError::Truncated => ErrorCode::Unavailable,
        crate::sse::SseError::EventTooLarge { .. } => ErrorCode::ResourceExhausted,
    };
    // `message`, not `to_string`: that would be a formatter's round trip, and its code, for this.
    AdkError::new(code, e.message())
}

/// Sends HTTP requests. Single-threaded (`?Send`), like everything in the browser.
#[async_trait(?Send)]
pub trait HttpClient {
    /// Sends `request`; resolves once the status and headers are in. `cancellation` aborts the
    /// request and the body stream (the body then ends with an `ABORTED` error). Network failures
    /// are `UNAVAILABLE`; HTTP error statuses are *not* errors here.
    async fn send(&self, request: HttpRequest, cancellation: Rc<Cancellation>) -> Result<HttpResponse, AdkError>;

    /// Sends `request` in the background, its answer unread, even as the run that sent it ends:
    /// for a protocol's last word when a run is stopped (MCP's `notifications/cancelled`). A client
    /// that cannot send in the background drops it, as a lost notification is dropped.
    fn send_and_forget(&self, request: HttpRequest) {
        drop(request);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;

    fn response(chunks: &[&[u8]]) -> HttpResponse {
        let chunks: Vec<Result<Vec<u8>, AdkError>> = chunks.iter().map(|c| Ok(c.to_vec())).collect();
        HttpResponse {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream; charset=utf-8".into())],
            body: Box::pin(futures_util::stream::iter(chunks)),
        }
    }

    #[test]
    fn events_across_chunks_and_a_cut_stream() {
        let r = response(&[b"data: {\"a\":", b"1}\n\ndata: x\n\n"]);
        assert!(r.is_event_stream() && r.ok());
        let events: Vec<_> = block_on(r.events().collect::<Vec<_>>());
        let data: Vec<_> = events.into_iter().map(|e| e.unwrap().data).collect();
        assert_eq!(data, ["{\"a\":1}", "x"]);

        let cut: Vec<_> = block_on(response(&[b"data: whole\n\ndata: ha"]).events().collect::<Vec<_>>());
        assert_eq!(cut.len(), 2);
        assert_eq!(cut[1].as_ref().unwrap_err().code, ErrorCode::Unavailable);
    }

    #[test]
    fn the_event_stream_type_is_read_without_case() {
        for (content_type, stream) in [
            ("text/event-stream", true),
            (" Text/Event-Stream; charset=utf-8", true),
            ("TEXT/EVENT-STREAMING", true),
            ("text/event-strea", false),
            ("application/json", false),
            ("ß/event-stream", false),
        ] {
            let r = HttpResponse { headers: vec![("Content-Type".into(), content_type.into())], ..response(&[]) };
            assert_eq!(r.is_event_stream(), stream, "{content_type}");
        }
    }

    #[test]
    fn text_and_status_codes() {
        assert_eq!(block_on(response(&[b"h\xC3", b"\xA9"]).text()).unwrap(), "h\u{e9}");
        let e = AdkError::http(429, "slow down");
        assert_eq!((e.code, e.http_status), (ErrorCode::ResourceExhausted, Some(429)));
        assert_eq!(ErrorCode::from_http_status(503), ErrorCode::Unavailable);
        assert_eq!(ErrorCode::parse("UNAVAILABLE"), Some(ErrorCode::Unavailable));
    }
}
