//! The JSON-RPC 2.0 binding: one URL, the operation in `method`, results in an envelope whose `id`
//! must be the request's.

use adk_core::json::{self, JsonError, Kind, Reader, Writer};
use serde_json::Value;

use super::card::{Endpoint, ProtocolVersion};
use super::codec::{malformed, Codec, Op};
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

/// The request for `op` to `endpoint` with request id `id`.
pub(crate) fn request(endpoint: &Endpoint, op: Op<'_>, id: u64) -> Result<HttpRequest, AdkError> {
    let codec = Codec::of(endpoint);
    let mut params = codec.params(op)?;
    if !endpoint.tenant.is_empty() {
        // A member of every request's parameters (a2a-sdk's server reads it there), put first so
        // that no writer of parameters needs to know of it: `{"tenant":"t",` and the rest.
        let rest = params.get(1..).unwrap_or_default();
        let comma = if rest == "}" { "" } else { "," };
        params = ["{\"tenant\":", &json::to_string(endpoint.tenant.as_str()), comma, rest].concat();
    }
    let url = &endpoint.url;
    let mut body = Writer::new();
    let mut o = body.object();
    o.field("jsonrpc", "2.0").field("id", &id).field("method", method(op, codec.version)).raw("params", &params);
    o.end();
    Ok(HttpRequest::post_json(url, body.into_string()))
}

/// Reads the response `text` to request `id` in one pass: `read` decodes the `result`, which comes
/// back with its own JSON text; a JSON-RPC error (with this id, or a null one) is the error.
/// `what` names the result in the error when it does not read (`the agent sent a malformed event`).
pub(crate) fn read_response<'t>(
    text: &'t str,
    id: u64,
    what: &str,
    read: &mut dyn FnMut(&mut Reader<'t>) -> Result<(), JsonError>,
) -> Result<&'t str, AdkError> {
    let mut reader = Reader::text(text);
    let (mut got, mut error, mut result) = (None, None, None);
    let parsed = reader.object(|r, key| {
        match key {
            // The id every event of a stream carries, read as a number only when it is not ours.
            "id" if r.take_u64(id) => got = Some(Value::from(id)),
            "id" => got = Some(r.json_value()?),
            "error" => error = Some(r.json_value()?),
            "result" if result.is_none() => result = Some(r.with_text(|r| read(r))?.1),
            _ => r.skip()?,
        }
        Ok(())
    });
    let got = got.unwrap_or(Value::Null);
    if let Some(error) = &error {
        // A server that could not read the request answers with a null id.
        if got.is_null() || same_id(&got, id) {
            return Err(from_rpc_error(error));
        }
    }
    if let Err(e) = parsed {
        if e.is_syntax() || reader_kind_is_not_object(text) {
            return Err(not_json(text, &e));
        }
        if !got.is_null() && !same_id(&got, id) {
            return Err(wrong_id(&got, id));
        }
        return Err(malformed(e.into_adk(what)));
    }
    if !same_id(&got, id) {
        return Err(wrong_id(&got, id));
    }
    match result {
        Some(raw) => Ok(raw.unwrap_or_default()),
        None => Err(AdkError::new(ErrorCode::Internal, "the agent's JSON-RPC response has neither result nor error")),
    }
}

fn reader_kind_is_not_object(text: &str) -> bool {
    !matches!(Reader::text(text).kind(), Ok(Kind::Object))
}

fn not_json(text: &str, e: &JsonError) -> AdkError {
    let what = if e.is_syntax() { format!("is not JSON ({e})") } else { "is not an object".to_string() };
    AdkError::new(ErrorCode::Internal, format!("the agent's JSON-RPC response {what}: {}", snippet(text)))
}

fn wrong_id(got: &Value, id: u64) -> AdkError {
    // The ids by the JSON writer: no `u64` formatter in the module for them.
    AdkError::new(
        ErrorCode::Internal,
        format!(
            "the agent's JSON-RPC response has id {}, but the request's id was {}",
            json::to_string(got),
            json::to_string(&id)
        ),
    )
}

/// Ids are sent as numbers; a server may echo them as strings.
pub(crate) fn same_id(got: &Value, id: u64) -> bool {
    got.as_u64() == Some(id) || got.as_str() == Some(json::to_string(&id).as_str())
}
