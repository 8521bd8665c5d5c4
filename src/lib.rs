//! adk-wasm: Google's Agent Development Kit (ADK) in Rust, compiled to WebAssembly.
//!
//! This crate is the one public API over the workspace's layers, and the only one that knows the
//! browser: `adk-core` (event model, errors, HTTP seam, SSE) ← `adk-a2a` (A2A client) and
//! `adk-server-client` (the client of an ADK server) ← `adk-runtime` (agents, runner, services,
//! models, tools) ← here, the browser platform (`platform`: fetch, the host's clock and
//! randomness) and the JS boundary (`js`), both wasm32 only. Everything below them builds and is tested natively.

/// The A2A protocol client, and (with agents) the agent that runs a remote A2A agent.
#[cfg(feature = "a2a")]
pub mod a2a {
    pub use adk_a2a::*;
    #[cfg(feature = "agents")]
    pub use adk_runtime::agents::RemoteA2aAgent;
}
pub use adk_core::{cancellation, error, events, http, limits, sse, transcript, types};
pub use adk_core::{
    AdkError, Blob, Bytes, CodeExecutionResult, Content, ErrorCode, Event, EventActions, ExecutableCode, FileData,
    FunctionCall, FunctionResponse, LlmResponse, Part,
};
/// The client of an ADK server (`adk api_server`, `adk web`): apps, sessions, artifacts, `/run`
/// and `/run_sse`.
#[cfg(feature = "server")]
pub mod server {
    pub use adk_server_client::*;
}
#[cfg(feature = "agents")]
pub use adk_runtime::{apps, artifact, auth, memory, model, plugins, runner, session, store};

/// Agents: the `Agent` trait, contexts and callbacks, and every agent (workflow, `LlmAgent`,
/// `RemoteA2aAgent`).
#[cfg(feature = "agents")]
pub mod agent {
    pub use adk_runtime::agent::*;
    pub use adk_runtime::agents::*;
}

/// Tools: `FunctionTool`, the built-ins, and `AgentTool`.
#[cfg(feature = "agents")]
pub mod tool {
    pub use adk_runtime::agent_tool::AgentTool;
    pub use adk_runtime::tool::*;
}

#[cfg(target_arch = "wasm32")]
pub mod js;
#[cfg(target_arch = "wasm32")]
mod platform;

/// Installs the browser as the core's host, as the module's start function does; for wasm-bindgen's
/// tests, whose harness does not run a library's start function.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub use platform::start;
