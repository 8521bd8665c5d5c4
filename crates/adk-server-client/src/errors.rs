//! Turning an ADK server's answers into [`AdkError`]s. The server is FastAPI: an error status
//! carries `{"detail": "…"}` (or, for a request it could not validate, a list of
//! `{loc, msg}`), and a run that fails after its stream started sends `data: {"error": "…"}`.

use adk_core::error::excerpt;
use adk_core::json::{self, FromJson};
use adk_core::{AdkError, ErrorCode};
use serde_json::Value;

/// The server's error for `op`, from the status and body of its answer. `origin` is the page's
/// own, when known: a 403 for it says which server flag lets it in.
pub(crate) fn from_status(op: &str, status: u16, body: &str, origin: Option<&str>) -> AdkError {
    let detail = json::parse("body", body).ok().and_then(|v| json::member(&v, "detail").map(detail_text));
    let said = detail.unwrap_or_else(|| match body.trim_ascii() {
        // As a `u32`: the module formats those anyway, and a `u16` formatter would be one more.
        "" => format!("HTTP {}", u32::from(status)),
        text => excerpt(text, 300),
    });
    // The words of ADK's origin check (`_OriginCheckMiddleware`), in both server lines.
    let message = if status == 403 && said.ends_with("origin not allowed") {
        format!("{op}: the ADK server does not allow requests from {} ({said}); {}", page(origin), allow_hint(origin))
    } else {
        format!("{op}: {said}")
    };
    AdkError::http(status, message)
}

/// A request that got no answer at all. In a browser that is also what a server that does not
/// allow the page's origin looks like (the CORS check fails before any status is seen).
pub(crate) fn unreachable(op: &str, base_url: &str, origin: Option<&str>, error: AdkError) -> AdkError {
    if error.code != ErrorCode::Unavailable || error.http_status.is_some() {
        return error;
    }
    let message = format!(
        "{op}: no answer from the ADK server at {base_url} ({}): is it running, and does it allow {}? {}",
        error.message,
        page(origin),
        allow_hint(origin)
    );
    AdkError { message, ..error }
}

/// A body that is not what the endpoint returns: the base URL is probably not an ADK server's.
pub fn unexpected(op: &str, error: AdkError) -> AdkError {
    if error.code == ErrorCode::ResourceExhausted {
        return AdkError { message: format!("{op}: the server's {}", error.message), ..error };
    }
    AdkError::new(
        ErrorCode::Unknown,
        format!("{op}: the answer is not what an ADK server sends ({}); is baseUrl an ADK server's?", error.message),
    )
}

/// The error a `data: {"error": "…"}` frame reports: the run failed on the server.
pub(crate) fn from_error_frame(data: &str) -> AdkError {
    let said = json::parse("error frame", data)
        .ok()
        .and_then(|v| json::member(&v, "error").map(detail_text))
        .unwrap_or_else(|| excerpt(data, 300));
    AdkError::new(ErrorCode::Internal, format!("runSse: the run failed on the ADK server: {said}"))
}

/// Whether an SSE frame's data is the server's error object rather than an event (an event never
/// has a top-level `error` member).
pub(crate) fn is_error_frame(data: &str) -> bool {
    data.trim_ascii_start().strip_prefix('{').is_some_and(|rest| rest.trim_ascii_start().starts_with("\"error\""))
}

/// A `detail` as text: a string as it is, a validation list as `loc: msg` items.
fn detail_text(detail: &Value) -> String {
    let Value::Array(items) = detail else {
        return match detail {
            Value::String(text) => text.clone(),
            other => excerpt(&json::to_string(other), 300),
        };
    };
    let mut text = String::new();
    for item in items {
        if !text.is_empty() {
            text.push_str("; ");
        }
        let loc = json::member(item, "loc").and_then(Value::as_array);
        for (i, step) in loc.into_iter().flatten().enumerate() {
            if i > 0 {
                text.push('.');
            }
            match step {
                Value::String(key) => text.push_str(key),
                other => text.push_str(&json::to_string(other)),
            }
        }
        if loc.is_some_and(|loc| !loc.is_empty()) {
            text.push_str(": ");
        }
        text.push_str(json::member(item, "msg").and_then(Value::as_str).unwrap_or("invalid"));
    }
    text
}

fn page(origin: Option<&str>) -> String {
    origin.map_or_else(|| "this page's origin".to_string(), |o| format!("origin {o}"))
}

fn allow_hint(origin: Option<&str>) -> String {
    let origin = origin.unwrap_or("<this page's origin>");
    format!("start it with `adk api_server --allow_origins={origin}` (or a 'regex:…' pattern)")
}

/// An answer's text decoded as `T`; one that does not decode says the server is not what it seemed.
pub fn decode<T: FromJson>(op: &str, text: &str) -> Result<T, AdkError> {
    json::from_str("answer", text).map_err(|e| unexpected(op, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detail_string_is_the_message() {
        let e = from_status("getSession", 404, r#"{"detail":"Session not found"}"#, None);
        assert_eq!(
            (e.code, e.http_status, e.message.as_str()),
            (ErrorCode::NotFound, Some(404), "getSession: Session not found")
        );
    }

    #[test]
    fn a_validation_list_names_each_field() {
        let body = r#"{"detail":[{"type":"missing","loc":["body","userId"],"msg":"Field required","input":{}},{"loc":["body","newMessage","parts",0],"msg":"bad"}]}"#;
        let e = from_status("runSse", 422, body, None);
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert_eq!(e.message, "runSse: body.userId: Field required; body.newMessage.parts.0: bad");
    }

    #[test]
    fn a_refused_origin_names_the_flag() {
        let e = from_status("listApps", 403, "Forbidden: origin not allowed", Some("http://localhost:5173"));
        assert_eq!(e.code, ErrorCode::PermissionDenied);
        assert!(e.message.contains("--allow_origins=http://localhost:5173"), "{}", e.message);
    }

    #[test]
    fn no_answer_suggests_the_server_or_its_origins() {
        let e = unreachable(
            "listApps",
            "http://127.0.0.1:8000",
            None,
            AdkError::new(ErrorCode::Unavailable, "Failed to fetch"),
        );
        assert_eq!(e.code, ErrorCode::Unavailable);
        assert!(e.message.contains("http://127.0.0.1:8000") && e.message.contains("--allow_origins"), "{}", e.message);
        let aborted = unreachable("listApps", "x", None, AdkError::new(ErrorCode::Aborted, "aborted"));
        assert_eq!(aborted.message, "aborted");
    }

    #[test]
    fn error_frames_are_told_from_events() {
        assert!(is_error_frame(r#"{"error": "ValueError: boom", "error_details": {}}"#));
        assert!(is_error_frame(r#" { "error":"x"}"#));
        assert!(!is_error_frame(r#"{"id":"e","author":"a","errorCode":"X"}"#));
        let e = from_error_frame(r#"{"error": "ValueError: boom"}"#);
        assert_eq!(
            (e.code, e.message.as_str()),
            (ErrorCode::Internal, "runSse: the run failed on the ADK server: ValueError: boom")
        );
    }
}
