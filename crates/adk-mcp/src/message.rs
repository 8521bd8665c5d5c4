//! JSON-RPC 2.0 as MCP frames it: requests and notifications out; responses, errors and the
//! server's own notifications in.

use adk_core::json;
use serde_json::Value;

use crate::{AdkError, ErrorCode};

type JsonObject = serde_json::Map<String, Value>;

/// The server's word that its tools changed: the toolset lists them again.
pub const LIST_CHANGED: &str = "notifications/tools/list_changed";

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

/// One message from the server.
pub enum Incoming {
    /// A response: the request id it answers, and its `result` or its error.
    Answer(u64, Result<JsonObject, AdkError>),
    /// A notification or a request of the server's (its method), or anything else that answers
    /// no request of ours.
    Other(Option<String>),
}

/// Reads one JSON-RPC message; `what` names the server in errors.
pub fn read(text: &str, what: &str) -> Result<Incoming, AdkError> {
    let message: JsonObject = json::from_str(what, text)
        .map_err(|e| AdkError::new(ErrorCode::Unknown, [what, ": not a JSON-RPC message: ", &e.message].concat()))?;
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").and_then(Value::as_u64);
    let (None, Some(id)) = (method, id) else { return Ok(Incoming::Other(method.map(str::to_string))) };
    let answer = match (message.get("error"), message.get("result")) {
        (Some(Value::Object(error)), _) => Err(rpc_error(error, what)),
        (_, Some(Value::Object(result))) => Ok(result.clone()),
        // Malformed, but still the answer to `id`: that request fails, not every other.
        _ => Err(AdkError::new(ErrorCode::Unknown, [what, ": a response with neither result nor error"].concat())),
    };
    Ok(Incoming::Answer(id, answer))
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
    let mut e = AdkError::new(kind, [what, ": ", message].concat());
    e.rpc_code = code;
    e
}
