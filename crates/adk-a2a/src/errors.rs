//! Turning what an A2A server reports into [`AdkError`]s: JSON-RPC error objects, HTTP+JSON
//! `google.rpc.Status` bodies and bare HTTP statuses.

use adk_core::json::{self, member};
use serde_json::Value;

use crate::{AdkError, ErrorCode};

/// The JSON-RPC codes and `ErrorInfo` reasons A2A defines (a2a-sdk's table), with the code each
/// becomes here. "Not supported" errors are `UNIMPLEMENTED`: the server cannot do it, retrying won't help.
const A2A_ERRORS: [(i64, &str, ErrorCode); 14] = [
    (-32700, "JSON_PARSE_ERROR", ErrorCode::InvalidArgument),
    (-32600, "INVALID_REQUEST", ErrorCode::InvalidArgument),
    (-32601, "METHOD_NOT_FOUND", ErrorCode::Unimplemented),
    (-32602, "INVALID_PARAMS", ErrorCode::InvalidArgument),
    (-32603, "INTERNAL_ERROR", ErrorCode::Internal),
    (-32001, "TASK_NOT_FOUND", ErrorCode::NotFound),
    (-32002, "TASK_NOT_CANCELABLE", ErrorCode::FailedPrecondition),
    (-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED", ErrorCode::Unimplemented),
    (-32004, "UNSUPPORTED_OPERATION", ErrorCode::Unimplemented),
    (-32005, "CONTENT_TYPE_NOT_SUPPORTED", ErrorCode::InvalidArgument),
    (-32006, "INVALID_AGENT_RESPONSE", ErrorCode::Internal),
    (-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED", ErrorCode::FailedPrecondition),
    (-32008, "EXTENSION_SUPPORT_REQUIRED", ErrorCode::FailedPrecondition),
    (-32009, "VERSION_NOT_SUPPORTED", ErrorCode::Unimplemented),
];

/// The JSON-RPC code of A2A error `reason` (as in a `google.rpc.ErrorInfo`).
fn rpc_code_of_reason(reason: &str) -> Option<i64> {
    A2A_ERRORS.iter().find(|(_, r, _)| *r == reason).map(|(c, _, _)| *c)
}

/// The error for a JSON-RPC `error` object.
pub fn from_rpc_error(error: &Value) -> AdkError {
    let Some(code) = member(error, "code").and_then(Value::as_i64) else {
        return AdkError::new(
            ErrorCode::Internal,
            format!("malformed JSON-RPC error object: {}", snippet(&json::to_string(error))),
        );
    };
    let known = A2A_ERRORS.iter().find(|(c, _, _)| *c == code);
    let kind = match known {
        Some((_, _, kind)) => *kind,
        // -32000..-32099 is reserved for implementation-defined server errors.
        None if (-32099..=-32000).contains(&code) => ErrorCode::Internal,
        None => ErrorCode::Unknown,
    };
    let message = match member(error, "message").and_then(Value::as_str).filter(|m| !m.is_empty()) {
        Some(m) => m.to_string(),
        // The code by the JSON writer: no `i64` formatter for this one message.
        None => known
            .map_or_else(|| format!("JSON-RPC error {}", json::to_string(&code)), |(_, reason, _)| reason.to_string()),
    };
    AdkError { rpc_code: Some(code), ..AdkError::new(kind, message) }
}

/// The error for an HTTP error response with body `body`: a `google.rpc.Status`
/// (`{"error":{"code","status","message","details"}}`), a JSON-RPC error, or anything else.
pub fn from_http(status: u16, body: &str) -> AdkError {
    let parsed: Option<Value> = json::parse("body", body).ok();
    let error = parsed.as_ref().and_then(|v| member(v, "error"));
    if let Some(error) =
        error.filter(|e| member(e, "code").is_some_and(Value::is_i64) && parsed_is_rpc(parsed.as_ref()))
    {
        return AdkError { http_status: Some(status), ..from_rpc_error(error) };
    }
    match error {
        Some(error) if error.is_object() => from_status(status, error),
        _ => {
            let text = body.trim();
            // As a `u32`: the `u16` formatter would be in the module for these alone.
            let status32 = u32::from(status);
            let message = if text.is_empty() {
                format!("HTTP {status32}")
            } else {
                format!("HTTP {status32}: {}", snippet(text))
            };
            AdkError::http(status, message)
        }
    }
}

fn parsed_is_rpc(value: Option<&Value>) -> bool {
    value.is_some_and(|v| member(v, "jsonrpc").is_some())
}

/// The error for a `google.rpc.Status` object. The A2A reason in its `ErrorInfo` detail (a2a-sdk
/// sends one) gives the JSON-RPC code; otherwise `status` or the HTTP status decide.
pub fn from_status(http_status: u16, error: &Value) -> AdkError {
    let reason = member(error, "details")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .find_map(|d| member(d, "reason").and_then(Value::as_str));
    let rpc_code = reason.and_then(rpc_code_of_reason);
    let code = match rpc_code.and_then(|c| A2A_ERRORS.iter().find(|(k, _, _)| *k == c)) {
        Some((_, _, kind)) => *kind,
        None => member(error, "status")
            .and_then(Value::as_str)
            .and_then(ErrorCode::parse)
            .unwrap_or_else(|| ErrorCode::from_http_status(http_status)),
    };
    let message = member(error, "message")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
        .map_or_else(|| format!("HTTP {}", u32::from(http_status)), str::to_string);
    AdkError { code, message, http_status: Some(http_status), rpc_code, retry_after_ms: None }
}

/// The error an `event: error` frame carries: a JSON-RPC response, a `google.rpc.Status`, or text.
pub fn from_error_event(data: &str) -> AdkError {
    let parsed: Option<Value> = json::parse("error", data).ok();
    match parsed.as_ref().and_then(|v| member(v, "error")) {
        Some(error) if parsed_is_rpc(parsed.as_ref()) => from_rpc_error(error),
        Some(error) if error.is_object() => {
            let status =
                member(error, "code").and_then(Value::as_u64).and_then(|c| u16::try_from(c).ok()).unwrap_or(500);
            from_status(status, error)
        }
        _ => AdkError::new(ErrorCode::Unknown, format!("the agent reported an error: {}", snippet(data))),
    }
}

/// `text` cut to a length fit for an error message.
pub(crate) fn snippet(text: &str) -> String {
    adk_core::error::excerpt(text, 300)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::from_rpc_error;
    use crate::ErrorCode;

    #[test]
    fn an_unknown_code_without_a_message_is_named_by_its_number() {
        for (code, kind, message) in [
            (-31999, ErrorCode::Unknown, "JSON-RPC error -31999"),
            (-32050, ErrorCode::Internal, "JSON-RPC error -32050"),
            (7, ErrorCode::Unknown, "JSON-RPC error 7"),
            (-32001, ErrorCode::NotFound, "TASK_NOT_FOUND"),
        ] {
            let e = from_rpc_error(&json!({"code": code, "message": ""}));
            assert_eq!((e.code, e.message.as_str(), e.rpc_code), (kind, message, Some(code)));
        }
    }
}
