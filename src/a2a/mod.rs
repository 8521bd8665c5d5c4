//! The A2A (Agent2Agent) client: protocol 1.0 and 0.3, over JSON-RPC and HTTP+JSON, with
//! streams that survive dropped connections.
//!
//! [`A2aClient`] reads an agent's card, picks the interface to use, and sends messages, streams
//! and task operations through the [`HttpClient`](crate::http::HttpClient) seam, so all of it is
//! plain Rust, tested natively against recorded a2a-sdk traffic.

mod artifacts;
mod card;
mod client;
mod codec;
pub mod errors;
mod jsonrpc;
mod ledger;
#[cfg(feature = "agents")]
pub mod remote_agent;
mod rest;
mod stream;
mod types;
pub mod v03;

pub use artifacts::{append_parts, ArtifactAssembler};
pub use card::{
    card_url, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Binding, Endpoint, ProtocolVersion,
    V03Interface,
};
pub use client::{A2aClient, A2aClientOptions, Interceptor, ResumePolicy, Sleep};
#[cfg(feature = "agents")]
pub use remote_agent::RemoteA2aAgent;
pub use stream::{A2aStream, StreamItem};
pub use types::{
    Artifact, ListTasksParams, ListTasksResponse, Message, Part, PartContent, Role, SendMessageConfiguration,
    SendMessageParams, StreamResponse, Task, TaskArtifactUpdateEvent, TaskOrMessage, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
