//! adk-wasm's pure core: the ADK event model wire-identical to ADK Python's JSON, one error type,
//! the HTTP seam every networked part is written against, the SSE parser, and the transcript a chat
//! UI folds events into.
//!
//! Nothing here knows about JavaScript: the browser's clock, randomness and `fetch` are plugged in
//! from above (see [`platform`] and [`http`]).

pub mod cancellation;
pub mod cell;
pub mod error;
pub mod events;
pub mod http;
pub mod json;
pub mod limits;
pub mod platform;
pub mod scan;
pub mod sort;
pub mod sse;
pub mod text;
pub mod transcript;
pub mod types;
pub mod url;

pub use error::{AdkError, ErrorCode};
pub use events::{Event, EventActions, LlmResponse};
pub use types::{
    Blob, Bytes, CodeExecutionResult, Content, ExecutableCode, FileData, FunctionCall, FunctionResponse, Part,
};
