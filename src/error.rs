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
    /// A bug in adk-wasm itself.
    Internal,
}

impl ErrorCode {
    /// The code as its wire / JS spelling, e.g. `INVALID_ARGUMENT`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::AlreadyExists => "ALREADY_EXISTS",
            ErrorCode::FailedPrecondition => "FAILED_PRECONDITION",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::Internal => "INTERNAL",
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
        ]
        .into_iter()
        .find(|c| c.as_str() == text)
    }
}

/// An error with a stable [`ErrorCode`] and a message meant for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdkError {
    /// What kind of failure this is.
    pub code: ErrorCode,
    /// What went wrong, naming the offending field or value.
    pub message: String,
}

impl AdkError {
    /// A new error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        AdkError { code, message: message.into() }
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

/// Deserializes `T` from JSON text, naming the path of the offending field on failure
/// (e.g. `content.parts[0].text: invalid type: integer, expected a string`).
pub fn from_json_str<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> Result<T, AdkError> {
    let de = &mut serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            AdkError::invalid(format!("invalid {what}: not valid JSON: {inner}"))
        } else if path == "." {
            AdkError::invalid(format!("invalid {what}: {inner}"))
        } else {
            AdkError::invalid(format!("invalid {what}: {path}: {}", strip_position(&inner.to_string())))
        }
    })?;
    Ok(value)
}

/// serde_json appends " at line L column C" to data errors; the path already says where.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => message.get(..i).unwrap_or(message),
        None => message,
    }
}
