//! A Model Context Protocol client over Streamable HTTP, through the
//! [`HttpClient`](adk_core::http::HttpClient) seam: what ADK's `McpToolset` needs of an MCP server
//! that a page can reach with `fetch`. It knows nothing of agents; the toolset is built on it one
//! layer up.
//!
//! One [`McpClient`] is one MCP session: `initialize` and version negotiation on first use, the
//! server's `Mcp-Session-Id` and the negotiated `MCP-Protocol-Version` on every later request, a
//! new session when the server has forgotten this one (HTTP 404), answers as JSON or as an SSE
//! stream (server notifications on it are read: `notifications/tools/list_changed` is kept for the
//! toolset), `tools/list` across pages, `tools/call`, and `DELETE` on close.

mod client;
mod message;

use adk_core::{cancellation, http, AdkError, ErrorCode};

pub use client::{McpClient, PROTOCOL_VERSIONS};
