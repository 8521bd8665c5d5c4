//! The HTTP+JSON binding: the operation in the method and path. v1.0 paths hang off the
//! interface URL (`/message:send`, `/tasks/{id}`); v0.3 ones below `/v1` (as a2a-sdk serves them).

use adk_core::json;

use super::card::{without_trailing_slashes, Endpoint, ProtocolVersion};
use super::codec::{Codec, Op};
use super::types::ListTasksParams;
use crate::http::{encode_component as encode, query, HttpRequest};
use crate::AdkError;

/// The request for `op` to `endpoint`; its tenant, if any, is the paths' first segment.
pub(crate) fn request(endpoint: &Endpoint, op: Op<'_>) -> Result<HttpRequest, AdkError> {
    let codec = Codec::of(endpoint);
    let url = without_trailing_slashes(&endpoint.url);
    let base = match codec.version {
        ProtocolVersion::V1_0 if endpoint.tenant.is_empty() => url.to_string(),
        ProtocolVersion::V1_0 => format!("{url}/{}", encode(&endpoint.tenant)),
        ProtocolVersion::V0_3 => format!("{url}/v1"),
    };
    let post = |path: &str, body: String| HttpRequest::post_json(format!("{base}{path}"), body);
    Ok(match op {
        Op::Send(_) => post("/message:send", codec.params(op)?),
        Op::Stream(_) => post("/message:stream", codec.params(op)?),
        Op::GetTask { id, history_length } => {
            let query = query(&[("historyLength", history_length.map(|n| json::to_string(&n)))]);
            HttpRequest::get(format!("{base}/tasks/{}{query}", encode(id)))
        }
        Op::Cancel { id } => post(&format!("/tasks/{}:cancel", encode(id)), "{}".into()),
        Op::Subscribe { id } => HttpRequest::get(format!("{base}/tasks/{}:subscribe", encode(id))),
        Op::List(p) => {
            codec.params(op)?;
            HttpRequest::get(format!("{base}/tasks{}", list_query(p)))
        }
    })
}

/// Numbers and booleans written by the JSON writer: the same digits without `Display`'s machinery.
fn list_query(p: &ListTasksParams) -> String {
    let n = |v: Option<u32>| v.map(|n| json::to_string(&n));
    query(&[
        ("contextId", p.context_id.clone()),
        ("status", p.status.as_ref().map(|s| s.as_str().to_string())),
        ("pageSize", n(p.page_size)),
        ("pageToken", p.page_token.clone()),
        ("historyLength", n(p.history_length)),
        ("statusTimestampAfter", p.status_timestamp_after.clone()),
        ("includeArtifacts", p.include_artifacts.map(|b| json::to_string(&b))),
    ])
}
