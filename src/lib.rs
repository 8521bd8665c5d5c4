//! adk-wasm: Google's Agent Development Kit (ADK) in Rust, compiled to WebAssembly.
//!
//! The core (event model, services, runner, A2A protocol) is plain Rust that builds and is tested natively;
//! the browser boundary lives in `js` (wasm32 only).
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

pub mod a2a;
#[cfg(feature = "agents")]
pub mod agent;
#[cfg(feature = "agents")]
pub mod artifact;
pub mod cancellation;
pub mod error;
pub mod events;
pub mod http;
#[cfg(feature = "agents")]
pub mod memory;
#[cfg(feature = "agents")]
pub mod model;
mod platform;
#[cfg(feature = "agents")]
pub mod runner;
#[cfg(feature = "agents")]
pub mod session;
pub mod sse;
#[cfg(feature = "agents")]
pub mod tool;
#[cfg(feature = "agents")]
pub mod transcript;
pub mod types;

#[cfg(target_arch = "wasm32")]
pub mod js;

pub use error::{AdkError, ErrorCode};
pub use events::{Event, EventActions, LlmResponse};
pub use types::{
    Blob, Bytes, CodeExecutionResult, Content, ExecutableCode, FileData, FunctionCall, FunctionResponse, Part,
};
