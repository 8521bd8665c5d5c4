//! The seeds' `ExternalResponse`: what tool and callback code gets back from something outside it,
//! another tool or an HTTP server. It is always a value, never an error: code looks at `ok` or
//! calls [`raise_for_status`](ExternalResponse::raise_for_status), as with Python's `requests`.

use serde_json::Value;

use crate::json;
use crate::AdkError;

/// A status, a reason when it is an error, and the body as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalResponse {
    /// The HTTP status; for a tool, 200 or the status of its error's code.
    pub status_code: u16,
    /// Why it failed; empty when it did not.
    pub reason: String,
    /// The body.
    pub text: String,
}

impl ExternalResponse {
    /// A tool's outcome: its result as JSON text with status 200, or its error with the status
    /// of the error's code (or the HTTP status it carries), the message as the reason and
    /// `{"error": message}` as the body, the shape ADK gives a model for a failed tool.
    pub fn from_tool_result(result: Result<Value, AdkError>) -> Self {
        match result {
            Ok(value) => ExternalResponse { status_code: 200, reason: String::new(), text: json::to_string(&value) },
            Err(e) => {
                let text = json::to_string(&json::object([("error", e.message.as_str().into())]));
                ExternalResponse { status_code: e.http_status.unwrap_or(e.code.http_status()), reason: e.message, text }
            }
        }
    }

    /// Whether the status is below 400.
    pub fn ok(&self) -> bool {
        self.status_code < 400
    }

    /// The body parsed as JSON; INVALID_ARGUMENT when it is not JSON.
    pub fn json(&self) -> Result<Value, AdkError> {
        json::parse("response body", &self.text)
    }

    /// The seeds' `StatusError` when the response is not ok: an error carrying the status, with
    /// the code that status stands for.
    pub fn raise_for_status(&self) -> Result<(), AdkError> {
        if self.ok() {
            return Ok(());
        }
        let mut message = String::from(json::Digits::new(u64::from(self.status_code)).as_str());
        if !self.reason.is_empty() {
            message.push(' ');
            message.push_str(&self.reason);
        }
        Err(AdkError::http(self.status_code, message))
    }
}

/// The standard reason phrase of an HTTP error status (empty below 400, as the seeds' `reason` is
/// when nothing failed).
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        0..=399 => "",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        412 => "Precondition Failed",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ if status < 500 => "Client Error",
        _ => "Server Error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    #[test]
    fn tool_results_map_to_statuses() {
        let ok = ExternalResponse::from_tool_result(Ok(serde_json::json!({"a": 1})));
        assert!(ok.ok() && ok.reason.is_empty() && ok.raise_for_status().is_ok());
        assert_eq!(ok.json().unwrap(), serde_json::json!({"a": 1}));
        let missing = ExternalResponse::from_tool_result(Err(AdkError::new(ErrorCode::NotFound, "no tool `x`")));
        assert_eq!((missing.status_code, missing.reason.as_str()), (404, "no tool `x`"));
        assert_eq!(missing.json().unwrap(), serde_json::json!({"error": "no tool `x`"}));
        let raised = missing.raise_for_status().unwrap_err();
        assert_eq!(
            (raised.code, raised.http_status, raised.message.as_str()),
            (ErrorCode::NotFound, Some(404), "404 no tool `x`")
        );
        let upstream = ExternalResponse::from_tool_result(Err(AdkError::http(502, "bad gateway")));
        assert_eq!(upstream.status_code, 502);
    }

    #[test]
    fn every_code_survives_its_status() {
        for code in [
            ErrorCode::InvalidArgument,
            ErrorCode::NotFound,
            ErrorCode::AlreadyExists,
            ErrorCode::FailedPrecondition,
            ErrorCode::Aborted,
            ErrorCode::Internal,
            ErrorCode::Unauthenticated,
            ErrorCode::PermissionDenied,
            ErrorCode::ResourceExhausted,
            ErrorCode::Unavailable,
            ErrorCode::DeadlineExceeded,
            ErrorCode::Unimplemented,
        ] {
            assert_eq!(ErrorCode::from_http_status(code.http_status()), code);
        }
        assert_eq!((reason_phrase(200), reason_phrase(404), reason_phrase(418)), ("", "Not Found", "Client Error"));
    }
}
