//! The google-genai data types ADK events are made of, in their JSON wire shape.
//!
//! Field names and order follow `google.genai.types` so that serializing gives what
//! `model_dump_json(exclude_none=True, by_alias=True)` gives. Fields ADK only carries through
//! (grounding, live-API metadata, …) are kept as JSON so they round-trip unchanged.

mod agent_response;
mod bytes;
mod code;
mod content;
mod function;
mod media;
mod usage;

pub use agent_response::{CustomizedResponse, AGENT_RESPONSE_MIME_TYPE};
pub use bytes::{Base64Error, Bytes};
pub use code::{CodeExecutionResult, ExecutableCode};
pub use content::{Content, Part};
pub use function::{FunctionCall, FunctionResponse, FunctionResponsePart};
pub use media::{Blob, FileData};
pub use usage::{ModalityTokenCount, UsageMetadata};

/// A JSON object whose keys are kept in their original order.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;
