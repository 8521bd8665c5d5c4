//! The A2A (Agent2Agent) client: protocol 1.0 and 0.3, over JSON-RPC and HTTP+JSON, with
//! streams that survive dropped connections.
//!
//! [`A2aClient`] reads an agent's card, picks the interface to use, and sends messages, streams
//! and task operations through the [`HttpClient`](adk_core::http::HttpClient) seam, so all of it is
//! plain Rust, tested natively against recorded a2a-sdk traffic. It knows nothing of agents: ADK's
//! `RemoteA2aAgent` is built on it one layer up, beside the other agents.

mod artifacts;
mod card;
mod client;
mod codec;
pub mod errors;
mod jsonrpc;
mod ledger;
mod options;
mod repeat;
mod rest;
mod skim;
mod stream;
mod targets;
mod transport;
mod types;
pub mod v03;

use adk_core::{cancellation, http, AdkError, ErrorCode};

pub use artifacts::{append_parts, ArtifactAssembler};
pub use card::{
    card_url, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Binding, Endpoint, ProtocolVersion,
    V03Interface,
};
pub use client::{A2aClient, Unary};
pub use options::{A2aClientOptions, Interceptor, ResumePolicy, Sleep};
pub use stream::{A2aStream, Delivered, DeliveredStream, StreamItem, StreamRequest};
pub use types::{
    Artifact, ListTasksParams, ListTasksResponse, Message, Part, PartContent, Role, SendMessageConfiguration,
    SendMessageParams, StreamResponse, Task, TaskArtifactUpdateEvent, TaskOrMessage, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
