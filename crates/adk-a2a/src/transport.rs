//! The transport under the client and its streams: the chosen interface, requests built for it,
//! unary calls, and responses read as A2A events (server-sent or a lone JSON answer).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{ready, Context, Poll};

use adk_core::json::{self, JsonError, Reader};
use futures_core::Stream;
use futures_util::StreamExt;
use serde_json::Value;

use super::card::{Binding, Endpoint, ProtocolVersion};
use super::codec::{malformed, Codec, Op};
use super::errors::{from_error_event, from_http, snippet};
use super::options::{A2aClientOptions, ResumePolicy};
use super::repeat::LastChunk;
use super::skim::{self, Skim, TaskSkim};
use super::{jsonrpc, rest, v03};
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest, HttpResponse, SseStream};
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
        Codec::of(&self.endpoint)
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
                (jsonrpc::request(&self.endpoint, op, id)?, Some(id))
            }
            Binding::HttpJson => (rest::request(&self.endpoint, op)?, None),
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

    /// Sends `op`; an HTTP error status is the error it stands for. Boxed: one instance for the
    /// calls, the streams and the task a resumed stream reads, not one inlined in each.
    fn send<'a>(&'a self, op: Op<'a>, cancellation: Rc<Cancellation>) -> Sent<'a> {
        Box::pin(async move {
            let (request, id) = self.request(op)?;
            let response = self.http.send(request, cancellation).await?;
            if !response.ok() {
                return Err(refused(response).await);
            }
            Ok((response, id))
        })
    }

    /// Sends a unary operation; returns the response body and the JSON-RPC id it must carry.
    async fn unary(&self, op: Op<'_>) -> Result<(String, Option<u64>), AdkError> {
        let (response, id) = self.send(op, Rc::default()).await?;
        Ok((response.text().await?, id))
    }

    /// Runs a unary operation; returns its result as v1.0 JSON (the server's own text on 1.0),
    /// read as far as the client reads it: a `SendMessage` result must be a task or a message.
    /// Boxed: one instance for JS, the typed methods and a resumed stream reading its task.
    pub(crate) fn call_json<'a>(&'a self, op: Op<'a>) -> Pin<Box<dyn Future<Output = Result<String, AdkError>> + 'a>> {
        Box::pin(async move {
            let (text, id) = self.unary(op).await?;
            let (shape, mut event) = match op {
                Op::Send(_) => (Shape::Event, false),
                Op::List(_) => (Shape::Page, true),
                _ => (Shape::Task, true),
            };
            let (codec, mut translated) = (self.codec(), String::new());
            let (json, _) = result(codec, &text, id, shape, &mut translated, &mut |r| {
                match shape {
                    Shape::Stream | Shape::Event => {
                        // A placeholder: on `Ok`, `skim::event` has written the one event read.
                        let mut read = Skim::Message;
                        skim::event(r, &mut read)?;
                        event = matches!(read, Skim::Task(_) | Skim::Message);
                    }
                    Shape::Task => drop(skim::task(r)?),
                    Shape::Page => r.skip()?,
                }
                Ok(())
            })?;
            if !event {
                let message = format!(
                    "the agent answered SendMessage with an event instead of a task or message: {}",
                    snippet(json)
                );
                return Err(AdkError::new(ErrorCode::Internal, message));
            }
            // A v0.3 answer's JSON is its translation, moved on; a 1.0 one is part of the server's text.
            Ok(if codec.dialect().is_some() { translated } else { json.to_string() })
        })
    }

    /// Opens a stream: the events of the response, or the error it carries instead.
    pub(crate) async fn open(&self, op: Op<'_>, cancellation: Rc<Cancellation>) -> Result<Events, AdkError> {
        let (response, id) = self.send(op, cancellation).await?;
        let codec = self.codec();
        if response.is_event_stream() {
            return Ok(events(response, codec, id));
        }
        // Not a stream: a server reports errors found before streaming starts as a plain JSON
        // response (a2a-sdk does, e.g. for a finished task); a lone result is a one-event stream.
        // Read here to tell an error from an event, and again by the stream that receives it. A
        // resumed stream tells its caller first, who may lower `setLimits` before the second read:
        // that read then refuses what this one took, and the stream ends with its error.
        let content_type = response.header("content-type").unwrap_or("none").to_string();
        let mut frame = Frame::new(response.text().await?, codec, id);
        if let Err(e) = frame.read(&mut LastChunk::default(), &mut Skim::Message) {
            // An error the agent stated stands, and so does one too large to read; anything else
            // means the body is not what was asked for.
            if e.rpc_code.is_some() || e.http_status.is_some() || e.code == ErrorCode::ResourceExhausted {
                return Err(e);
            }
            let message = format!(
                "the agent answered a streaming request with '{content_type}' instead of text/event-stream: {}",
                snippet(&frame.text)
            );
            return Err(AdkError::new(ErrorCode::Internal, message));
        }
        Ok(Box::pin(Lone(Some(frame))))
    }
}

/// A sent request: its response, and the JSON-RPC id the response must carry.
type Sent<'a> = Pin<Box<dyn Future<Output = Result<(HttpResponse, Option<u64>), AdkError>> + 'a>>;

/// One response body read in one pass: the result `read` decodes, with its own JSON text. A
/// JSON-RPC body is an envelope around it; an HTTP+JSON body is the result itself, or a
/// `google.rpc.Status` error.
fn read_body<'t>(text: &'t str, rpc_id: Option<u64>, what: &str, read: Read<'_, 't>) -> Result<&'t str, AdkError> {
    if let Some(id) = rpc_id {
        return jsonrpc::read_response(text, id, what, read);
    }
    let mut reader = Reader::text(text);
    let read = reader.with_text(|r| read(r)).and_then(|found| reader.finish().map(|()| found));
    match read {
        Ok(((), raw)) => Ok(raw.unwrap_or_default()),
        Err(e) if e.is_too_large() => Err(malformed(e.into_adk(what))),
        Err(e) => match json::parse("body", text) {
            Ok(value) if json::member(&value, "error").is_some_and(Value::is_object) => Err(from_error_event(text)),
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

/// An event as it arrived (a server-sent event's data, or a lone JSON answer), read where the
/// stream keeps it: what the client reads of it is borrowed from its text.
#[derive(Debug)]
pub(crate) struct Frame {
    text: String,
    /// A v0.3 event's translation to v1.0, once read.
    translated: String,
    codec: Codec,
    rpc_id: Option<u64>,
}

impl Frame {
    fn new(text: String, codec: Codec, rpc_id: Option<u64>) -> Frame {
        Frame { text, translated: String::new(), codec, rpc_id }
    }

    /// Reads what the client reads of the event into `event`, and where its v1.0 JSON is (the
    /// server's own text on 1.0); the JSON-RPC envelope in the same pass. On `Ok`, `event` is the
    /// event read: a stream response has exactly one member, whose reader writes it, so what the
    /// caller put there is a placeholder, never seen.
    ///
    /// A v1.0 artifact chunk like `last` but for its text is read by comparison with it; one read
    /// whole may become `last` (see [`LastChunk`]).
    pub(crate) fn read<'f>(
        &'f mut self,
        last: &mut LastChunk,
        event: &mut Skim<'f>,
    ) -> Result<EventJson<'f>, AdkError> {
        let Frame { text, translated, codec, rpc_id } = self;
        let (text, v1): (&'f str, bool) = (text, codec.dialect().is_none());
        if let Some(json) = v1.then(|| last.read(text, *rpc_id, event)).flatten() {
            return Ok(EventJson::InText(json));
        }
        let (json, ends) = result(*codec, text, *rpc_id, Shape::Stream, translated, &mut |r| skim::event(r, event))?;
        if let Skim::StatusUpdate { status, last, .. } = event {
            *last = ends && !status.state.ends_stream();
        }
        if !v1 {
            return Ok(EventJson::Translated);
        }
        last.learn(text, *rpc_id, event, json);
        Ok(EventJson::InText(json))
    }

    /// The event's translation from v0.3, when [`Frame::read`] says it is the JSON.
    pub(crate) fn into_translated(self) -> String {
        self.translated
    }
}

/// Where an event's v1.0 JSON is: in the text it came in (copied out to be kept: a JSON-RPC
/// result is part of it), or its translation from v0.3 (moved on).
pub(crate) enum EventJson<'f> {
    InText(&'f str),
    Translated,
}

/// The events of one HTTP response.
pub(crate) type Events = Pin<Box<dyn Stream<Item = Result<Frame, AdkError>>>>;

/// The A2A events of an event-stream response; `rpc_id` is the JSON-RPC request id, if any.
pub(crate) fn events(response: HttpResponse, codec: Codec, rpc_id: Option<u64>) -> Events {
    Box::pin(EventStream { sse: Some(response.events()), codec, rpc_id })
}

/// Each server-sent event handed on as it comes, as a [`Frame`] the stream reads; it ends after
/// the first transport error or `error` event.
struct EventStream {
    sse: Option<SseStream>,
    codec: Codec,
    rpc_id: Option<u64>,
}

impl Stream for EventStream {
    type Item = Result<Frame, AdkError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let (codec, rpc_id) = (self.codec, self.rpc_id);
        let Some(sse) = self.sse.as_mut() else { return Poll::Ready(None) };
        let item = match ready!(sse.poll_next_unpin(cx)) {
            None => return Poll::Ready(None),
            Some(event) => event.and_then(|e| match &*e.event {
                "error" => Err(from_error_event(&e.data)),
                _ => Ok(Frame::new(e.data, codec, rpc_id)),
            }),
        };
        if item.is_err() {
            self.sse = None;
        }
        Poll::Ready(Some(item))
    }
}

/// A lone JSON answer as a stream of one event (an iterator's stream adapter is more code).
struct Lone(Option<Frame>);

impl Stream for Lone {
    type Item = Result<Frame, AdkError>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.take().map(Ok))
    }
}

/// What a result is: how it reads, and how it is translated from 0.3.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// An event of a stream.
    Stream,
    /// A `SendMessage` result: a stream response too (a task or a message).
    Event,
    Task,
    /// A `ListTasks` page (1.0 only).
    Page,
}

/// A reading of JSON text `'t` into the caller's locals (which may borrow from it): through `dyn`,
/// the reading around it (envelopes, errors) is one instance for every result it reads.
type Read<'r, 't> = &'r mut dyn FnMut(&mut Reader<'t>) -> Result<(), JsonError>;

/// A result as v1.0 JSON, read by `read`: the server's own text on 1.0, translated from 0.3 into
/// `translated` (with whether it was a status update marked `final`, which v1.0 JSON does not say).
fn result<'t>(
    codec: Codec,
    text: &'t str,
    rpc_id: Option<u64>,
    shape: Shape,
    translated: &'t mut String,
    read: Read<'_, 't>,
) -> Result<(&'t str, bool), AdkError> {
    let (what, body) = match shape {
        Shape::Stream => ("event", "event"),
        Shape::Event => ("event", "result"),
        Shape::Task => ("task", "result"),
        Shape::Page => ("ListTasks result", "result"),
    };
    let Some(dialect) = codec.dialect() else {
        return read_body(text, rpc_id, what, read).map(|raw| (raw, false));
    };
    let mut value = Value::Null;
    read_body(text, rpc_id, body, &mut |r| {
        value = r.json_value()?;
        Ok(())
    })?;
    let (value, last) = match shape {
        Shape::Stream | Shape::Event => v03::event_to_v1(value, dialect).map_err(malformed)?,
        Shape::Task => (v03::task_to_v1(value, dialect), false),
        Shape::Page => (value, false),
    };
    *translated = json::to_string(&value);
    let json: &'t str = translated;
    read_text(json, &codec.name(what), read)?;
    Ok((json, last))
}

/// The task a `GetTask` answered with, as [`Transport::call_json`] gave it.
pub(crate) fn task_of(json: &str) -> Result<TaskSkim, AdkError> {
    let mut task = TaskSkim::default();
    read_text(json, "task", &mut |r| {
        task = skim::task(r)?;
        Ok(())
    })?;
    Ok(task)
}

/// `text` read whole by `read`; `what` names it in the error when it does not read.
fn read_text<'t>(text: &'t str, what: &str, read: Read<'_, 't>) -> Result<(), AdkError> {
    let mut reader = Reader::text(text);
    read(&mut reader).and_then(|()| reader.finish()).map_err(|e| malformed(e.into_adk(what)))
}

#[cfg(test)]
mod tests {
    use super::super::card::{Binding, ProtocolVersion};
    use super::super::codec::Codec;
    use super::super::repeat::{LastChunk, MAX_CHUNK};
    use super::super::skim::Skim;
    use super::{EventJson, Frame};

    const IDS: &str = r#""taskId": "t-1", "contextId": "c-1""#;

    fn chunk(text: &str, rest: &str) -> String {
        format!(
            r#"{{"artifactUpdate": {{{IDS}, "artifact": {{"artifactId": "answer", "parts": [{{"text": "{text}"}}]}}{rest}}}}}"#
        )
    }

    /// What `frame` reads as: its event and v1.0 JSON, or the error.
    fn read(frame: &str, rpc_id: Option<u64>, last: &mut LastChunk) -> Result<(String, String), String> {
        let codec = Codec { version: ProtocolVersion::V1_0, binding: Binding::JsonRpc };
        let mut frame = Frame::new(frame.to_string(), codec, rpc_id);
        let mut event = Skim::Message;
        match frame.read(last, &mut event) {
            Ok(EventJson::InText(json)) => Ok((format!("{event:?}"), json.to_string())),
            Ok(EventJson::Translated) => Err("translated".into()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn a_chunk_read_by_comparison_reads_as_it_reads_whole() {
        let envelope = |event: &str, id: u64| format!(r#"{{"result": {event}, "id": {id}, "jsonrpc": "2.0"}}"#);
        let append = r#", "append": true"#;
        // Each frame, and whether it is read by comparison with the chunk before it.
        let frames = [
            (chunk("a", ""), false),
            (chunk("b", append), false),
            (chunk("c", append), true),
            (chunk(r#"q \"\n\u00e9 \ud83d\ude00 안녕 /\/"#, append), true),
            (chunk(r#"\ud800 lone"#, append), true),
            (chunk(r#"\"}]}, \"append\": false}}"#, append), true),
            (chunk("", append), true),
            (chunk("a\u{1}b", append), false),
            (chunk(r#"\x"#, append), false),
            (chunk(r#"\u12"#, append), false),
            (chunk("d", append).replace("answer", "answez"), false),
            (chunk("e", append), false),
            (chunk("e", r#", "append": true, "lastChunk": true"#), false),
            (chunk("e", r#", "append": false"#), false),
            (chunk("f", r#", "append": false"#), true),
            (chunk("f", r#", "append": false"#).replace(r#"{"text": "f"}"#, r#"{"text": "f"}, {"text": "g"}"#), false),
            (chunk("g", r#", "append": false"#), true),
            (chunk("g", r#", "append": false"#).replace("t-1", r"t\u002d1"), false),
            (chunk("h", r#", "append": false"#), true),
            (
                r#"{"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}"#
                    .into(),
                false,
            ),
            (chunk("i", r#", "append": false"#), true),
            (chunk("i", r#", "append": false} "#), false),
            (chunk(r#"j"#, r#", "append": false"#).replace(r#"j"}"#, r#"j"#), false),
            (chunk("k", r#", "append": false"#), true),
            // What follows the text changed, its length not.
            (chunk("k", r#", "append": true "#), false),
            (chunk("k", r#", "append": false"#), false),
            // An id after the text: read whole, and not compared with.
            (
                chunk("l", r#", "append": false"#).replace(
                    r#""artifactId": "answer", "parts": [{"text": "l"}]"#,
                    r#""parts": [{"text": "l"}], "artifactId": "answer""#,
                ),
                false,
            ),
            (
                chunk("m", r#", "append": false"#).replace(
                    r#""artifactId": "answer", "parts": [{"text": "m"}]"#,
                    r#""parts": [{"text": "m"}], "artifactId": "answer""#,
                ),
                false,
            ),
        ];
        for rpc_id in [None, Some(7)] {
            let mut last = LastChunk::default();
            for (i, (event, compared)) in frames.iter().enumerate() {
                let frame = match rpc_id {
                    Some(id) => envelope(event, id),
                    None => event.clone(),
                };
                let by_comparison = last.read(&frame, rpc_id, &mut Skim::Message).is_some();
                assert_eq!(by_comparison, *compared, "frame {i}, id {rpc_id:?}: {frame}");
                let whole = read(&frame, rpc_id, &mut LastChunk::default());
                assert_eq!(read(&frame, rpc_id, &mut last), whole, "frame {i}, id {rpc_id:?}: {frame}");
                assert!(whole.is_ok() || !compared, "frame {i}");
            }
            // The JSON-RPC id expected is part of what is compared.
            if let Some(id) = rpc_id {
                let frame = envelope(&chunk("k", r#", "append": false"#), id);
                assert!(last.read(&frame, Some(id + 1), &mut Skim::Message).is_none());
                assert!(read(&frame, Some(id + 1), &mut last).is_err());
            }
        }
    }

    #[test]
    fn the_limits_in_force_refuse_a_chunk_as_they_refuse_it_whole() {
        use adk_core::limits::{limits, set_limits, Limits};
        let envelope = |event: &str, before: &str| format!(r#"{{{before}"result": {event}, "id": 3}}"#);
        let mut last = LastChunk::default();
        // Read whole, a short chunk charges less than any limits allow, whatever the densest JSON
        // before it (a JSON value per two bytes, a part per fourteen).
        set_limits(Limits { max_json_expansion: 0, ..limits() });
        let values = format!(r#""id": [{}0], "#, "0,".repeat(MAX_CHUNK / 2 - 200));
        let parts = r#"{"text": ""}, "#.repeat(MAX_CHUNK / 14 - 30);
        let parts =
            chunk("a", "").replace(r#""artifactId""#, &format!(r#""parts": [{parts}{{"text": ""}}], "artifactId""#));
        for (event, before) in [(chunk("a", ""), values.as_str()), (parts, "")] {
            let frame = envelope(&event, before);
            assert!(frame.len() <= MAX_CHUNK && frame.len() > MAX_CHUNK - 300, "{}", frame.len());
            assert!(read(&frame, Some(3), &mut LastChunk::default()).is_ok(), "{}", &frame[..60]);
        }
        // A longer one may not read whole once the limits are lowered: it is never compared with.
        set_limits(Limits::default());
        let parts = r#"{"text": "x"}, "#.repeat(30_000);
        let long = |text: &str| {
            chunk(text, "").replace(r#""artifactId""#, &format!(r#""parts": [{parts}{{"text": ""}}], "artifactId""#))
        };
        assert!(read(&envelope(&long("a"), ""), Some(3), &mut last).is_ok());
        set_limits(Limits { max_json_expansion: 0, ..limits() });
        let frame = envelope(&long("b"), "");
        assert!(last.read(&frame, Some(3), &mut Skim::Message).is_none());
        let refused = read(&frame, Some(3), &mut last);
        assert!(refused.as_ref().is_err_and(|e| e.contains("maxJsonExpansion")), "{refused:?}");
        set_limits(Limits::default());
    }

    #[test]
    fn a_recorded_stream_is_read_mostly_by_comparison() {
        let recording = include_str!("../../../tests/fixtures/a2a/recorded/sdk-v1-jsonrpc-10k.sse");
        let mut last = LastChunk::default();
        let mut compared = 0;
        let frames: Vec<_> = recording.split("\r\n\r\n").filter_map(|f| f.trim_end().strip_prefix("data: ")).collect();
        for frame in &frames {
            let frame = frame.replace(r#""id": "smoke-35""#, r#""id": 3"#);
            compared += usize::from(last.read(&frame, Some(3), &mut Skim::Message).is_some());
            assert_eq!(read(&frame, Some(3), &mut last), read(&frame, Some(3), &mut LastChunk::default()), "{frame}");
        }
        // All but the task, its two statuses, and three of its 10 000 chunks: the first (no
        // `append`), the second (the first with it, read whole to be compared with) and the last
        // (`lastChunk`).
        assert_eq!((frames.len(), compared), (10_003, 9_997));
    }
}
