//! The browser boundary: wasm-bindgen exports over the pure core.
//!
//! Data crosses as plain JS objects in ADK's wire shape (JSON text in between), so JS sees exactly
//! what ADK Python would put on the wire. Every failure becomes a thrown `Error` (or a rejected
//! Promise) with a stable `code`.

pub mod a2a;
pub mod agent;
pub mod artifact;
pub mod context;
pub(crate) mod convert;
mod error;
pub mod events;
mod http_models;
mod http_options;
pub mod llm;
pub mod memory;
pub mod runner;
pub mod session;
pub mod stream;
pub mod transcript;

pub use error::to_js_error;
