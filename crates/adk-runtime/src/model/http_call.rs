//! What the HTTP model adapters share: where requests go, how they are sent, how the answer is
//! read (one driver for both adapters' streams, each adapter a [`Decoder`]), and how a provider's
//! error body becomes an [`AdkError`].

use adk_core::json::{self, FromJson};
use std::rc::Rc;

use futures_util::StreamExt;
use serde_json::Value;

use super::LlmRequest;
use super::LlmResponseStream;
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest, HttpResponse};
use crate::or_break::or_break;
use crate::types::JsonObject;
use crate::types::{Content, Part};
use crate::{AdkError, ErrorCode, LlmResponse};

/// A server's base URL and the headers every request carries.
pub(super) struct Endpoint {
    pub client: Rc<dyn HttpClient>,
    pub base_url: String,
    pub headers: Vec<(String, String)>,
}

impl Endpoint {
    pub fn new(client: Rc<dyn HttpClient>, base_url: impl Into<String>) -> Self {
        Endpoint { client, base_url: base_url.into(), headers: Vec::new() }
    }

    /// A JSON `POST` of `body` to `path` under the base URL (a trailing `/` on the base is fine).
    pub fn post(&self, path: &str, body: String, auth: Option<(&str, String)>) -> HttpRequest {
        let url = format!("{}/{}", self.base_url.trim_end_matches('/'), path.trim_start_matches('/'));
        let mut request = HttpRequest::post_json(url, body);
        request.headers.extend(auth.map(|(name, value)| (name.to_string(), value)));
        request.headers.extend(self.headers.iter().cloned());
        request
    }
}

/// The model `request` goes to (a before-model callback may have switched it from `model`), its
/// contents made ready to send as ADK's Gemini and LiteLlm models make them.
pub(super) fn model_for(request: &mut LlmRequest, model: &str) -> String {
    end_on_user_turn(request);
    request.model.clone().unwrap_or_else(|| model.to_string())
}

/// Ends the request's contents on a user turn (`BaseLlm._maybe_append_user_content`): a model
/// asked with no contents (Gemini refuses them) or after a turn of its own (it may answer nothing)
/// is asked to go on.
fn end_on_user_turn(request: &mut LlmRequest) {
    let text = match request.contents.last() {
        None => "Handle the requests as specified in the System Instruction.",
        Some(last) if last.role.as_deref() != Some("user") => {
            "Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed."
        }
        Some(_) => return,
    };
    request.contents.push(Content::new("user", vec![Part::from_text(text)]));
}

/// How an adapter reads its server's answers.
pub(super) trait Decoder {
    /// The one response of a whole (not streamed) body.
    fn whole(&mut self, body: &str) -> Result<LlmResponse, AdkError>;
    /// One event's data: the partial response to show, if any.
    fn chunk(&mut self, data: &str) -> Result<Option<LlmResponse>, AdkError>;
    /// Whether the server said the stream is over (events after that are not read).
    fn ended(&self) -> bool {
        false
    }
    /// The complete response once the stream is over, or the error of a stream that was cut.
    fn finish(self: Box<Self>) -> Result<LlmResponse, AdkError>;
}

/// Sends `request` and reads the answer with `decoder`: a whole body's one response, or a stream's
/// partial responses and then the complete one. One stream for every adapter (a boxed decoder, not
/// a copy of this state machine per adapter).
pub(super) fn generate(
    client: Rc<dyn HttpClient>,
    request: Result<HttpRequest, AdkError>,
    cancellation: Rc<Cancellation>,
    stream: bool,
    provider: &'static str,
    mut decoder: Box<dyn Decoder>,
) -> LlmResponseStream {
    Box::pin(async_stream::try_stream! {
        // The body's events: out here, so that an error, and the complete response, are yielded
        // while the body is open (see `or_break!`).
        let mut events = None;
        // Errors leave the block here and are yielded once, below.
        let failed: Result<(), AdkError> = 'read: {
            let request = or_break!('read, request);
            let response = or_break!('read, send(client, request, cancellation, stream, provider).await);
            // The whole body's one response, or the stream's complete one after its partial ones.
            let last = if stream {
                let events = events.insert(response.events());
                while let Some(event) = events.next().await {
                    if let Some(partial) = or_break!('read, decoder.chunk(&or_break!('read, event).data)) {
                        yield partial;
                    }
                    if decoder.ended() {
                        break;
                    }
                }
                decoder.finish()
            } else {
                decoder.whole(&or_break!('read, response.text().await))
            };
            yield or_break!('read, last);
            Ok(())
        };
        failed?;
    })
}

/// Sends `request` and returns the response if it is a success of the expected kind (an event
/// stream when `stream`). An error status becomes an error carrying the server's own message.
async fn send(
    client: Rc<dyn HttpClient>,
    request: HttpRequest,
    cancellation: Rc<Cancellation>,
    stream: bool,
    provider: &str,
) -> Result<HttpResponse, AdkError> {
    let response = client.send(request, cancellation).await?;
    if !response.ok() {
        // The server's `Retry-After`, else what its error body says (Google's `RetryInfo`).
        let (status, retry_after_ms) = (response.status, response.retry_after_ms());
        let error = error_from_body(Some(status), &response.text().await?);
        return Err(AdkError { retry_after_ms: retry_after_ms.or(error.retry_after_ms), ..error });
    }
    if stream && !response.is_event_stream() {
        let content_type = response.header("content-type").unwrap_or("none").to_string();
        let body = response.text().await?;
        // Some servers answer a streaming request that failed with a plain JSON error body.
        return Err(match error_object(&body) {
            Some(error) => error_from_value(None, error, &body),
            None => AdkError::new(
                ErrorCode::Unimplemented,
                format!("{provider}: asked for a stream, the server answered with content type `{content_type}`"),
            ),
        });
    }
    Ok(response)
}

/// A response body or stream chunk that may instead hold the provider's `error` object.
pub(super) trait MaybeError {
    /// Takes the `error` member out, if the server sent one.
    fn take_error(&mut self) -> Option<Value>;
}

/// Parses one response (or stream chunk) of `provider`; an `error` sent in its place becomes the
/// error. A server sending something unreadable is not the caller's fault, so that error is
/// `UNKNOWN`, not `INVALID_ARGUMENT` (one too large to hold stays `RESOURCE_EXHAUSTED`).
pub(super) fn parse<T: FromJson + MaybeError>(provider: &str, text: &str) -> Result<T, AdkError> {
    let mut value: T = json::from_str(&[provider, " response"].concat(), text).map_err(unreadable)?;
    match value.take_error() {
        Some(error) => Err(error_from_value(None, error, text)),
        None => Ok(value),
    }
}

/// The error of a response that does not parse: one copy for every response type.
#[inline(never)]
fn unreadable(e: AdkError) -> AdkError {
    match e.code {
        ErrorCode::ResourceExhausted => e,
        _ => AdkError { code: ErrorCode::Unknown, ..e },
    }
}

/// The `error` member of a JSON body, also inside the one-element array Google sometimes sends.
fn error_object(body: &str) -> Option<Value> {
    let value: Value = json::parse("body", body).ok()?;
    let value = match value {
        Value::Array(items) => items.into_iter().next()?,
        value => value,
    };
    match value {
        Value::Object(mut object) => object.remove("error"),
        _ => None,
    }
}

/// The error for an HTTP error status with `body`.
pub(super) fn error_from_body(status: Option<u16>, body: &str) -> AdkError {
    match error_object(body) {
        Some(error) => error_from_value(status, error, body),
        None => {
            let message = if body.trim().is_empty() { format!("HTTP {}", status.unwrap_or(0)) } else { truncate(body) };
            AdkError {
                http_status: status,
                ..AdkError::new(status.map_or(ErrorCode::Unknown, ErrorCode::from_http_status), message)
            }
        }
    }
}

/// The error described by a provider's `error` value: Google's `google.rpc.Status`
/// (`{code, message, status}`), OpenAI's `{message, type, code}`, or a bare string (Ollama).
/// Mid-stream (`status` is `None`) Google's numeric `code` is the HTTP status it stands for.
pub(super) fn error_from_value(status: Option<u16>, error: Value, raw: &str) -> AdkError {
    let empty = JsonObject::new();
    // An empty message, status or type says nothing: the message then is the server's own text.
    let (object, text) = match &error {
        Value::Object(o) => (o, None),
        Value::String(s) if !s.is_empty() => (&empty, Some(s.clone())),
        _ => (&empty, None),
    };
    let str_field = |name: &str| object.get(name).and_then(Value::as_str).filter(|s| !s.is_empty());
    let numeric = object.get("code").and_then(Value::as_i64);
    let status = status.or_else(|| numeric.and_then(|c| u16::try_from(c).ok()).filter(|c| (400..600).contains(c)));
    let code = str_field("status")
        .and_then(ErrorCode::parse)
        .or(status.map(ErrorCode::from_http_status))
        .or_else(|| str_field("type").and_then(openai_error_type))
        .unwrap_or(ErrorCode::Unknown);
    let message = str_field("message").map(str::to_string).or(text).unwrap_or_else(|| truncate(raw));
    // Google's numeric code is the HTTP status again; only a different number is worth keeping.
    let rpc_code = numeric.filter(|n| status.map(i64::from) != Some(*n));
    AdkError { code, message, http_status: status, rpc_code, retry_after_ms: retry_delay_ms(object) }
}

/// The wait Google's `google.rpc.RetryInfo` detail asks for (`"retryDelay": "27s"`, a protobuf
/// duration: seconds with up to nine decimals), in milliseconds rounded up.
fn retry_delay_ms(error: &JsonObject) -> Option<u64> {
    let details = error.get("details")?.as_array()?;
    let is_retry_info =
        |d: &&Value| d.get("@type").and_then(Value::as_str).is_some_and(|t| t.ends_with("google.rpc.RetryInfo"));
    let delay = details.iter().find(is_retry_info)?.get("retryDelay")?.as_str()?.strip_suffix('s')?;
    let (seconds, fraction) = match delay.bytes().position(|b| b == b'.') {
        Some(dot) => (delay.get(..dot)?, delay.get(dot + 1..)?),
        None => (delay, ""),
    };
    if seconds.is_empty() || !seconds.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Sliced as bytes, with `get`: `str::split_at` would bring the panic formatter into the module.
    let digits = fraction.as_bytes();
    let (millis, rest) = (digits.get(..3).unwrap_or(digits), digits.get(3..).unwrap_or_default());
    let scale = match millis.len() {
        1 => 100,
        2 => 10,
        _ => 1,
    };
    let millis = adk_core::scan::decimal(millis)? * scale;
    let up = u64::from(rest.iter().any(|&b| b != b'0'));
    adk_core::scan::decimal(seconds.as_bytes())?.checked_mul(1000)?.checked_add(millis + up)
}

/// OpenAI's error types, for errors that come without an HTTP status (inside a stream).
fn openai_error_type(kind: &str) -> Option<ErrorCode> {
    Some(match kind {
        "invalid_request_error" => ErrorCode::InvalidArgument,
        "authentication_error" => ErrorCode::Unauthenticated,
        "permission_error" => ErrorCode::PermissionDenied,
        "not_found_error" => ErrorCode::NotFound,
        "rate_limit_error" | "rate_limit_exceeded" | "insufficient_quota" => ErrorCode::ResourceExhausted,
        "server_error" | "api_error" => ErrorCode::Internal,
        "overloaded_error" => ErrorCode::Unavailable,
        _ => return None,
    })
}

/// At most 500 characters of `text`, trimmed.
fn truncate(text: &str) -> String {
    adk_core::error::excerpt(text.trim(), 500)
}

/// `snake_case` setting names as Python ADK users write them, in the camelCase of the JSON API.
pub(super) fn camel_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        match c {
            '_' if !out.is_empty() => upper = true,
            // Setting names are ASCII; a full Unicode upper-casing would bring its tables in.
            c if upper => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn error_shapes() {
        let google = r#"[{"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED"}}]"#;
        let e = error_from_body(Some(429), google);
        assert_eq!(
            (e.code, e.message.as_str(), e.http_status, e.rpc_code),
            (ErrorCode::ResourceExhausted, "Quota exceeded", Some(429), None)
        );
        assert_eq!(e.retry_after_ms, None);
        let e = error_from_value(None, json!({"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}), "");
        assert_eq!((e.code, e.http_status), (ErrorCode::Unavailable, Some(503)));
        // Gemini's quota errors say how long to wait (google.rpc.RetryInfo), rounded up to a ms.
        for (delay, ms) in [
            ("27s", Some(27_000)),
            ("1.5s", Some(1_500)),
            ("0.0001s", Some(1)),
            ("2.000s", Some(2_000)),
            ("s", None),
            ("1.x5s", None),
            ("9", None),
        ] {
            let details = json!([{"@type": "type.googleapis.com/google.rpc.QuotaFailure"}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}]);
            let e = error_from_value(
                Some(429),
                json!({"code": 429, "status": "RESOURCE_EXHAUSTED", "details": details}),
                "",
            );
            assert_eq!(e.retry_after_ms, ms, "{delay}");
        }
        let e = error_from_value(None, json!({"message": "boom", "type": "server_error", "code": null}), "");
        assert_eq!((e.code, e.http_status, e.rpc_code), (ErrorCode::Internal, None, None));
        // An empty message (found by fuzzing a stream's error chunk) gives way to the server's text.
        let raw = r#" {"error": {"code": 503, "message": ""}} "#;
        let e = error_from_value(None, json!({"code": 503, "message": ""}), raw);
        assert_eq!((e.code, e.message.as_str()), (ErrorCode::Unavailable, raw.trim()));
        let e = error_from_value(None, json!(""), r#"{"error": ""}"#);
        assert_eq!(e.message, r#"{"error": ""}"#);
        let e = error_from_body(Some(404), r#"{"error": "model 'x' not found"}"#);
        assert_eq!((e.code, e.message.as_str()), (ErrorCode::NotFound, "model 'x' not found"));
        let html = format!("<html>{}</html>", "é".repeat(600));
        let e = error_from_body(Some(502), &html);
        assert_eq!((e.code, e.message.chars().count()), (ErrorCode::Unavailable, 501));
        assert_eq!(error_from_body(Some(500), "").message, "HTTP 500");
    }

    #[test]
    fn camel_case_keys() {
        assert_eq!(camel_case("max_output_tokens"), "maxOutputTokens");
        assert_eq!(camel_case("topP"), "topP");
        assert_eq!(camel_case("_private"), "_private");
    }
}
