//! One error type for the whole SDK, with a stable machine-readable code.

use std::fmt;

/// Stable error codes; the JS boundary exposes them as `error.code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The caller passed something malformed (bad JSON, a wrong type, a missing field, an unsafe name).
    InvalidArgument,
    /// The thing asked for does not exist.
    NotFound,
    /// The thing to create exists already.
    AlreadyExists,
    /// The call is valid but the current state does not allow it.
    FailedPrecondition,
    /// The operation was stopped by its caller.
    Aborted,
    /// An internal failure: a bug in adk-wasm, or a server reporting one (HTTP 500).
    Internal,
    /// The caller is not authenticated (HTTP 401).
    Unauthenticated,
    /// The caller may not do this (HTTP 403).
    PermissionDenied,
    /// A quota or size limit was hit (HTTP 429, an oversized event).
    ResourceExhausted,
    /// The server or the network is unavailable, or a stream was cut (HTTP 502/503, a dropped connection).
    Unavailable,
    /// A deadline passed (HTTP 504).
    DeadlineExceeded,
    /// The server does not support the operation or protocol version.
    Unimplemented,
    /// Anything else a server reported.
    Unknown,
}

impl ErrorCode {
    /// The code as its wire / JS spelling, e.g. `INVALID_ARGUMENT`. Out of line: inlined, each
    /// caller carried its own table of the names.
    #[inline(never)]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::AlreadyExists => "ALREADY_EXISTS",
            ErrorCode::FailedPrecondition => "FAILED_PRECONDITION",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::Unauthenticated => "UNAUTHENTICATED",
            ErrorCode::PermissionDenied => "PERMISSION_DENIED",
            ErrorCode::ResourceExhausted => "RESOURCE_EXHAUSTED",
            ErrorCode::Unavailable => "UNAVAILABLE",
            ErrorCode::DeadlineExceeded => "DEADLINE_EXCEEDED",
            ErrorCode::Unimplemented => "UNIMPLEMENTED",
            ErrorCode::Unknown => "UNKNOWN",
        }
    }

    /// The code spelled `text`, if it is one.
    pub fn parse(text: &str) -> Option<Self> {
        [
            Self::InvalidArgument,
            Self::NotFound,
            Self::AlreadyExists,
            Self::FailedPrecondition,
            Self::Aborted,
            Self::Internal,
            Self::Unauthenticated,
            Self::PermissionDenied,
            Self::ResourceExhausted,
            Self::Unavailable,
            Self::DeadlineExceeded,
            Self::Unimplemented,
            Self::Unknown,
        ]
        .into_iter()
        .find(|c| c.as_str() == text)
    }

    /// The code for an HTTP error status (the mapping gRPC gateways use).
    pub fn from_http_status(status: u16) -> Self {
        match status {
            400 | 422 => Self::InvalidArgument,
            401 => Self::Unauthenticated,
            403 => Self::PermissionDenied,
            404 => Self::NotFound,
            409 => Self::AlreadyExists,
            412 => Self::FailedPrecondition,
            429 => Self::ResourceExhausted,
            499 => Self::Aborted,
            500 => Self::Internal,
            501 => Self::Unimplemented,
            502 | 503 => Self::Unavailable,
            504 => Self::DeadlineExceeded,
            _ => Self::Unknown,
        }
    }
}

impl ErrorCode {
    /// The HTTP status that stands for the code: [`from_http_status`](Self::from_http_status)
    /// read backwards, so a status made from a code gives the code back.
    pub fn http_status(self) -> u16 {
        match self {
            Self::InvalidArgument => 400,
            Self::Unauthenticated => 401,
            Self::PermissionDenied => 403,
            Self::NotFound => 404,
            Self::AlreadyExists => 409,
            Self::FailedPrecondition => 412,
            Self::ResourceExhausted => 429,
            Self::Aborted => 499,
            Self::Internal | Self::Unknown => 500,
            Self::Unimplemented => 501,
            Self::Unavailable => 503,
            Self::DeadlineExceeded => 504,
        }
    }
}

/// An error with a stable [`ErrorCode`] and a message meant for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdkError {
    /// What kind of failure this is.
    pub code: ErrorCode,
    /// What went wrong, naming the offending field or value.
    pub message: String,
    /// The HTTP status, when a server answered with an error.
    pub http_status: Option<u16>,
    /// The server's numeric error code (e.g. a JSON-RPC `error.code`), when it gave one.
    pub rpc_code: Option<i64>,
    /// How long the server asked to wait before trying again (`Retry-After`), in milliseconds.
    pub retry_after_ms: Option<u64>,
}

impl AdkError {
    /// A new error with `code` and `message`. Out of line: inlined, each of the places that
    /// make an error carried its own copy of the message and the struct's fields (full −70 B gzip,
    /// a2a −44, server −38).
    #[inline(never)]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        AdkError { code, message: message.into(), http_status: None, rpc_code: None, retry_after_ms: None }
    }

    /// The error for an HTTP error status; `message` should carry the server's own words.
    pub fn http(status: u16, message: impl Into<String>) -> Self {
        AdkError { http_status: Some(status), ..Self::new(ErrorCode::from_http_status(status), message) }
    }

    /// Shorthand for [`ErrorCode::InvalidArgument`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgument, message)
    }
}

impl fmt::Display for AdkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AdkError {}

/// At most `max` characters of `text`, with `…` when cut: error messages quote what a server sent,
/// which can be a whole HTML page.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or(text)),
        None => text.to_string(),
    }
}
