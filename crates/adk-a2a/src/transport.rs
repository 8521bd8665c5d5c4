//! The transport under the client and its streams: the chosen interface, requests built for it,
//! unary calls, and responses read as A2A events (server-sent or a lone JSON answer).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{ready, Context, Poll};

use adk_core::json::{self, FromJson, JsonError, Reader};
use futures_core::Stream;
use futures_util::StreamExt;
use serde_json::Value;

use super::card::{Binding, Endpoint, ProtocolVersion};
use super::codec::{malformed, Codec, Op};
use super::errors::{from_error_event, from_http, snippet};
use super::options::{A2aClientOptions, ResumePolicy};
use super::types::{StreamResponse, Task};
use super::{jsonrpc, rest};
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest, HttpResponse, SseEvents};
use crate::{AdkError, ErrorCode};

/// One interface of one agent, with what every request to it carries.
pub(crate) struct Transport {
    pub endpoint: Endpoint,
    pub options: A2aClientOptions,
    pub http: Rc<dyn HttpClient>,
    next_id: Cell<u64>,
}

impl Transport {
    pub(crate) fn new(endpoint: Endpoint, options: A2aClientOptions, http: Rc<dyn HttpClient>) -> Self {
        Transport { endpoint, options, http, next_id: Cell::new(1) }
    }
}

/// Adds the caller's headers and runs the interceptor.
pub(crate) fn prepare(request: &mut HttpRequest, options: &A2aClientOptions) {
    request.headers.extend(options.headers.iter().cloned());
    if let Some(interceptor) = &options.interceptor {
        interceptor(request);
    }
}

impl Transport {
    pub(crate) fn codec(&self) -> Codec {
        Codec { version: self.endpoint.version, binding: self.endpoint.binding }
    }

    pub(crate) fn resume_policy(&self) -> ResumePolicy {
        self.options.resume
    }

    pub(crate) fn sleep(&self, ms: u32) -> Pin<Box<dyn Future<Output = ()>>> {
        match &self.options.sleep {
            Some(sleep) if ms > 0 => sleep(ms),
            _ => Box::pin(std::future::ready(())),
        }
    }

    /// The request for `op`, and the JSON-RPC id it carries.
    fn request(&self, op: Op<'_>) -> Result<(HttpRequest, Option<u64>), AdkError> {
        let codec = self.codec();
        let (mut request, id) = match codec.binding {
            Binding::JsonRpc => {
                let id = self.next_id.replace(self.next_id.get() + 1);
                (jsonrpc::request(&self.endpoint.url, codec, op, id)?, Some(id))
            }
            Binding::HttpJson => (rest::request(&self.endpoint.url, codec, op)?, None),
        };
        // a2a-sdk reads a request without this header as 0.3.
        if codec.version == ProtocolVersion::V1_0 {
            request.headers.push(("A2A-Version".into(), "1.0".into()));
        }
        let accept =
            if matches!(op, Op::Stream(_) | Op::Subscribe { .. }) { "text/event-stream" } else { "application/json" };
        request.headers.push(("Accept".into(), accept.into()));
        prepare(&mut request, &self.options);
        Ok((request, id))
    }

    async fn send(&self, op: Op<'_>, cancellation: Rc<Cancellation>) -> Result<(HttpResponse, Option<u64>), AdkError> {
        let (request, id) = self.request(op)?;
        Ok((self.http.send(request, cancellation).await?, id))
    }

    /// Runs a unary operation; returns its result JSON.
    pub(crate) async fn call(&self, op: Op<'_>) -> Result<Value, AdkError> {
        let (response, id) = self.send(op, Rc::default()).await?;
        if !response.ok() {
            return Err(refused(response).await);
        }
        let text = response.text().await?;
        read_body(&text, id, "result", Reader::json_value).map(|(value, _)| value)
    }

    pub(crate) async fn get_task(&self, id: &str, history_length: Option<u32>) -> Result<Task, AdkError> {
        let value = self.call(Op::GetTask { id, history_length }).await?;
        self.codec().task(value)
    }

    /// Opens a stream: the events of the response, or the error it carries instead.
    pub(crate) async fn open(&self, op: Op<'_>, cancellation: Rc<Cancellation>) -> Result<Events, AdkError> {
        let (response, id) = self.send(op, cancellation).await?;
        if !response.ok() {
            return Err(refused(response).await);
        }
        let codec = self.codec();
        if response.is_event_stream() {
            return Ok(events(response, codec, id));
        }
        // Not a stream: a server reports errors found before streaming starts as a plain JSON
        // response (a2a-sdk does, e.g. for a finished task); a lone result is a one-event stream.
        let content_type = response.header("content-type").unwrap_or("none").to_string();
        let text = response.text().await?;
        let received = decode(&text, codec, id).map_err(|e| {
            // An error the agent stated stands, and so does one too large to read; anything else
            // means the body is not what was asked for.
            if e.rpc_code.is_some() || e.http_status.is_some() || e.code == ErrorCode::ResourceExhausted {
                return e;
            }
            let message = format!(
                "the agent answered a streaming request with '{content_type}' instead of text/event-stream: {}",
                snippet(&text)
            );
            AdkError::new(ErrorCode::Internal, message)
        })?;
        Ok(Box::pin(futures_util::stream::iter([Ok(received)])))
    }
}

/// One response body read in one pass: the result `read` decodes, with its own JSON text. A
/// JSON-RPC body is an envelope around it; an HTTP+JSON body is the result itself, or a
/// `google.rpc.Status` error.
fn read_body<'t, T>(
    text: &'t str,
    rpc_id: Option<u64>,
    what: &str,
    read: impl FnOnce(&mut Reader<'t>) -> Result<T, JsonError>,
) -> Result<(T, &'t str), AdkError> {
    if let Some(id) = rpc_id {
        return jsonrpc::read_response(text, id, what, read);
    }
    let mut reader = Reader::text(text);
    let read = reader.with_text(read).and_then(|found| reader.finish().map(|()| found));
    match read {
        Ok((value, raw)) => Ok((value, raw.unwrap_or_default())),
        Err(e) if e.is_too_large() => Err(malformed(e.into_adk(what))),
        Err(e) => match json::parse("body", text) {
            Ok(value) if value.get("error").is_some_and(Value::is_object) => Err(from_error_event(text)),
            Ok(_) => Err(malformed(e.into_adk(what))),
            Err(_) => Err(AdkError::new(
                ErrorCode::Internal,
                format!("the agent's response is not JSON ({e}): {}", snippet(text)),
            )),
        },
    }
}

/// The error an HTTP error response stands for, with the wait its `Retry-After` asks for.
async fn refused(response: HttpResponse) -> AdkError {
    let (status, retry_after_ms) = (response.status, response.retry_after_ms());
    match response.text().await {
        Ok(text) => AdkError { retry_after_ms, ..from_http(status, &text) },
        Err(e) => e,
    }
}

/// An event as it arrived: the typed event, and its v1.0 JSON text when the wire carried exactly
/// that (protocol 1.0), so a caller that wants JSON gets the server's own instead of a re-encoding.
#[derive(Debug)]
pub(crate) struct Received {
    pub event: Box<StreamResponse>,
    pub json: Option<String>,
}

/// The events of one HTTP response.
pub(crate) type Events = Pin<Box<dyn Stream<Item = Result<Received, AdkError>>>>;

/// The A2A events of an event-stream response; `rpc_id` is the JSON-RPC request id, if any.
pub(crate) fn events(response: HttpResponse, codec: Codec, rpc_id: Option<u64>) -> Events {
    Box::pin(EventStream { sse: Some(response.events()), codec, rpc_id })
}

/// Each server-sent event decoded as it comes; the stream ends after the first error.
struct EventStream {
    sse: Option<SseEvents>,
    codec: Codec,
    rpc_id: Option<u64>,
}

impl Stream for EventStream {
    type Item = Result<Received, AdkError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(sse) = self.sse.as_mut() else { return Poll::Ready(None) };
        let item = match ready!(sse.poll_next_unpin(cx)) {
            None => return Poll::Ready(None),
            Some(event) => event.and_then(|e| match e.event.as_str() {
                "error" => Err(from_error_event(&e.data)),
                _ => decode(&e.data, self.codec, self.rpc_id),
            }),
        };
        if item.is_err() {
            self.sse = None;
        }
        Poll::Ready(Some(item))
    }
}

/// One event's JSON: v1.0 is read straight into the model in one pass, keeping its text; v0.3 is
/// translated first.
fn decode(data: &str, codec: Codec, rpc_id: Option<u64>) -> Result<Received, AdkError> {
    if codec.version == ProtocolVersion::V1_0 {
        let (event, raw) = read_body(data, rpc_id, "event", |r| StreamResponse::read_json(r).map(Box::new))?;
        return Ok(Received { event, json: Some(raw.to_string()) });
    }
    let (value, _) = read_body(data, rpc_id, "event", Reader::json_value)?;
    Ok(Received { event: Box::new(codec.event(value)?), json: None })
}
