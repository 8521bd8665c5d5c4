//! How messages reach an MCP server and how its answers come back: Streamable HTTP, or the older
//! HTTP+SSE of MCP 2024-11-05.

mod endpoint;
pub mod sse;
pub mod streamable;

use std::rc::Rc;

use adk_core::error::excerpt;

use crate::http::HttpResponse;
use crate::AdkError;

/// One session's way to its server.
pub enum Link {
    /// Streamable HTTP: one POST per message, its answer in the response; the session id the
    /// server gave, if it gave one.
    Streamable(Option<String>),
    /// HTTP+SSE: the open stream the answers arrive on, which names where messages go.
    Sse(Rc<sse::Connection>),
}

/// A response that is not 2xx as a typed error carrying its status and the start of what the
/// server said; `what` names the server and the message.
pub async fn refused(response: HttpResponse, what: &str) -> AdkError {
    let status = response.status;
    let body = response.text().await.unwrap_or_default();
    AdkError::http(status, format!("{what} answered HTTP {status}: {}", excerpt(body.trim(), 200)))
}
