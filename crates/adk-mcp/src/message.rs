//! JSON-RPC 2.0 as MCP frames it: requests and notifications out; responses, errors and the
//! server's own notifications in.

use adk_core::json;
use serde_json::Value;

use crate::{AdkError, ErrorCode};

type JsonObject = serde_json::Map<String, Value>;

/// A request (`id` given) or a notification.
pub fn request(id: Option<u64>, method: &str, params: Option<JsonObject>) -> String {
    let mut message = JsonObject::new();
    message.insert("jsonrpc".into(), "2.0".into());
    if let Some(id) = id {
        message.insert("id".into(), id.into());
    }
    message.insert("method".into(), method.into());
    if let Some(params) = params {
        message.insert("params".into(), Value::Object(params));
    }
    json::to_string(&Value::Object(message))
}

/// What one message from the server is to the request `id`.
pub enum Incoming {
    /// The answer to it: its `result`, or its error.
    Answer(Result<JsonObject, AdkError>),
    /// A notification (its method), or anything else on the stream that is not the answer.
    Other(Option<String>),
}

/// Reads one JSON-RPC message; `what` names the server in errors.
pub fn read(text: &str, id: u64, what: &str) -> Result<Incoming, AdkError> {
    let message: JsonObject = json::from_str(what, text)
        .map_err(|e| AdkError::new(ErrorCode::Unknown, format!("{what}: not a JSON-RPC message: {}", e.message)))?;
    let answers_us = message.get("id").and_then(Value::as_u64) == Some(id);
    if !answers_us {
        return Ok(Incoming::Other(message.get("method").and_then(Value::as_str).map(str::to_string)));
    }
    if let Some(Value::Object(error)) = message.get("error") {
        return Ok(Incoming::Answer(Err(rpc_error(error, what))));
    }
    match message.get("result") {
        Some(Value::Object(result)) => Ok(Incoming::Answer(Ok(result.clone()))),
        _ => Err(AdkError::new(ErrorCode::Unknown, format!("{what}: a response with neither result nor error"))),
    }
}

/// A JSON-RPC error as a typed error, its code kept.
fn rpc_error(error: &JsonObject, what: &str) -> AdkError {
    let code = error.get("code").and_then(Value::as_i64);
    let message = error.get("message").and_then(Value::as_str).unwrap_or("error without a message");
    let kind = match code {
        Some(-32601) => ErrorCode::Unimplemented,
        Some(-32602) => ErrorCode::InvalidArgument,
        Some(-32600 | -32700) => ErrorCode::Internal,
        _ => ErrorCode::Unknown,
    };
    let mut e = AdkError::new(kind, format!("{what}: {message}"));
    e.rpc_code = code;
    e
}
