//! A Model Context Protocol client over Streamable HTTP or the older HTTP+SSE, through the
//! [`HttpClient`](adk_core::http::HttpClient) seam: what ADK's `McpToolset` needs of an MCP server
//! that a page can reach with `fetch`. It knows nothing of agents; the toolset is built on it one
//! layer up.
//!
//! One [`McpClient`] is one MCP session: `initialize` and version negotiation on first use, and
//! `tools/list` across pages and `tools/call`. Over Streamable HTTP, the server's `Mcp-Session-Id`
//! and the negotiated `MCP-Protocol-Version` go with every later request, a new session is begun
//! when the server has forgotten this one (HTTP 404), answers come as JSON or as an SSE stream, and
//! close sends `DELETE`. Over HTTP+SSE, a GET stream names the endpoint messages are POSTed to and
//! carries every answer; one that ends fails the requests waiting on it, and the next request opens
//! a new one. Server notifications are read on either: `notifications/tools/list_changed` is kept
//! for the toolset.

mod client;
mod message;
mod transport;

use adk_core::{cancellation, http, AdkError, ErrorCode};

pub use client::{McpClient, PROTOCOL_VERSIONS};
