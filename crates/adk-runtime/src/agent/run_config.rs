//! How an invocation runs (ADK's `RunConfig`): owned by the agent layer, which reads it.

use serde::{Deserialize, Serialize};

use crate::types::JsonObject;

/// `none`: whole responses; `sse`: partial text events as the model streams, then the final one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StreamingMode {
    /// No partial events.
    #[default]
    None,
    /// Partial events while the model streams.
    Sse,
}

/// How an invocation runs (ADK's `RunConfig`, the parts that apply in a browser).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunConfig {
    /// Whether the model's output streams as partial events.
    pub streaming_mode: StreamingMode,
    /// At most this many model calls per invocation; 0 or less means no limit. ADK's default is 500.
    pub max_llm_calls: u32,
    /// Merged into every event's `customMetadata` (the event's own keys win).
    pub custom_metadata: Option<JsonObject>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { streaming_mode: StreamingMode::None, max_llm_calls: 500, custom_metadata: None }
    }
}
