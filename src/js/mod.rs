//! The browser boundary: wasm-bindgen exports over the pure core.
//!
//! Data crosses as plain JS objects in ADK's wire shape (JSON text in between), so JS sees exactly
//! what ADK Python would put on the wire. Every failure becomes a thrown `Error` (or a rejected
//! Promise) with a stable `code`.

#[cfg(feature = "a2a")]
pub mod a2a;
#[cfg(feature = "server")]
pub mod adk_server;
#[cfg(feature = "agents")]
pub mod agent;
#[cfg(feature = "agents")]
pub mod app;
#[cfg(feature = "agents")]
pub mod artifact;
#[cfg(feature = "agents")]
pub mod context;
pub(crate) mod convert;
#[cfg(feature = "agents")]
pub mod credential;
mod error;
pub mod events;
#[cfg(feature = "agents")]
mod external;
#[cfg(feature = "agents")]
mod hook;
#[cfg(feature = "agents")]
mod http_models;
mod http_options;
#[cfg(feature = "agents")]
mod in_place;
#[cfg(feature = "agents")]
pub mod js_toolset;
pub mod limits;
#[cfg(feature = "agents")]
pub mod llm;
#[cfg(feature = "agents")]
pub mod mcp;
#[cfg(feature = "agents")]
pub mod memory;
#[cfg(feature = "agents")]
pub mod openapi;
#[cfg(feature = "agents")]
pub mod plugin;
#[cfg(feature = "agents")]
pub mod runner;
#[cfg(feature = "agents")]
pub mod session;
pub mod stream;
#[cfg(feature = "agents")]
mod sys;
#[cfg(feature = "agents")]
mod toolset;
#[cfg(any(feature = "agents", feature = "server"))]
pub mod transcript;

pub use error::to_js_error;
