//! The JSON-RPC 2.0 binding: one URL, the operation in `method`, results in an envelope whose `id`
//! must be the request's.

use serde_json::{json, Value};

use super::card::ProtocolVersion;
use super::codec::{Codec, Op};
use super::errors::{from_rpc_error, snippet};
use crate::http::HttpRequest;
use crate::{AdkError, ErrorCode};

/// The method name of `op` in `version`.
fn method(op: Op<'_>, version: ProtocolVersion) -> &'static str {
    let v1 = version == ProtocolVersion::V1_0;
    match op {
        Op::Send(_) if v1 => "SendMessage",
        Op::Send(_) => "message/send",
        Op::Stream(_) if v1 => "SendStreamingMessage",
        Op::Stream(_) => "message/stream",
        Op::GetTask { .. } if v1 => "GetTask",
        Op::GetTask { .. } => "tasks/get",
        Op::Cancel { .. } if v1 => "CancelTask",
        Op::Cancel { .. } => "tasks/cancel",
        Op::Subscribe { .. } if v1 => "SubscribeToTask",
        Op::Subscribe { .. } => "tasks/resubscribe",
        Op::List(_) => "ListTasks",
    }
}

/// The request for `op` with request id `id`.
pub(crate) fn request(url: &str, codec: Codec, op: Op<'_>, id: u64) -> Result<HttpRequest, AdkError> {
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": method(op, codec.version), "params": codec.params(op)? });
    Ok(HttpRequest::post_json(url, body.to_string()))
}

/// The `result` of response `text` to request `id`; a JSON-RPC error becomes the error.
pub(crate) fn result(text: &str, id: u64) -> Result<Value, AdkError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        AdkError::new(
            ErrorCode::Internal,
            format!("the agent's JSON-RPC response is not JSON ({e}): {}", snippet(text)),
        )
    })?;
    envelope(value, id)
}

/// Unwraps a parsed JSON-RPC response envelope.
pub(crate) fn envelope(mut value: Value, id: u64) -> Result<Value, AdkError> {
    let Some(obj) = value.as_object_mut() else {
        return Err(AdkError::new(
            ErrorCode::Internal,
            format!("the agent's JSON-RPC response is not an object: {}", snippet(&value.to_string())),
        ));
    };
    let got = obj.get("id").cloned().unwrap_or(Value::Null);
    if let Some(error) = obj.get("error") {
        // A server that could not read the request answers with a null id.
        if got.is_null() || same_id(&got, id) {
            return Err(from_rpc_error(error));
        }
    }
    if !same_id(&got, id) {
        return Err(AdkError::new(
            ErrorCode::Internal,
            format!("the agent's JSON-RPC response has id {got}, but the request's id was {id}"),
        ));
    }
    obj.remove("result")
        .ok_or_else(|| AdkError::new(ErrorCode::Internal, "the agent's JSON-RPC response has neither result nor error"))
}

/// Ids are sent as numbers; a server may echo them as strings.
pub(crate) fn same_id(got: &Value, id: u64) -> bool {
    got.as_u64() == Some(id) || got.as_str() == Some(id.to_string().as_str())
}
