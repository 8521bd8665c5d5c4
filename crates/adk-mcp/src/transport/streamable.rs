//! Streamable HTTP's answers: the response to the POST of a request carries its answer, as JSON or
//! as an SSE stream on which the server's notifications may come first.

use std::cell::Cell;

use adk_core::error::excerpt;
use futures_util::StreamExt;
use serde_json::Value;

use crate::http::HttpResponse;
use crate::message::{read, Incoming, LIST_CHANGED};
use crate::{AdkError, ErrorCode};

type JsonObject = serde_json::Map<String, Value>;

/// The answer to the request `id` in its (2xx) `response`; `what` names the server and the method.
pub async fn answer(
    response: HttpResponse,
    id: u64,
    what: &str,
    tools_changed: &Cell<bool>,
) -> Result<JsonObject, AdkError> {
    if response.is_event_stream() {
        let mut events = response.events();
        while let Some(event) = events.next().await {
            let event = event?;
            if event.data.trim().is_empty() {
                continue;
            }
            match read(&event.data, what)? {
                Incoming::Answer(answered, answer) if answered == id => return answer,
                Incoming::Other(Some(m)) if m == LIST_CHANGED => tools_changed.set(true),
                _ => {}
            }
        }
        return Err(AdkError::new(ErrorCode::Unavailable, [what, ": the stream ended before its answer"].concat()));
    }
    let json = response.header("content-type").is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
    let body = response.text().await?;
    if !json {
        return Err(AdkError::new(
            ErrorCode::Unknown,
            [what, ": not an MCP server: it answered ", &excerpt(body.trim(), 120)].concat(),
        ));
    }
    match read(&body, what)? {
        Incoming::Answer(answered, answer) if answered == id => answer,
        _ => Err(AdkError::new(ErrorCode::Unknown, [what, ": no answer"].concat())),
    }
}
