//! The browser boundary: wasm-bindgen exports over the pure core.
//!
//! Data crosses as plain JS objects in ADK's wire shape (JSON text in between), so JS sees exactly
//! what ADK Python would put on the wire. Every failure becomes a thrown `Error` with a `code`.

mod convert;
mod error;
pub mod events;

pub use error::to_js_error;
