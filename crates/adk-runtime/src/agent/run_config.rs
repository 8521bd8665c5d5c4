//! How an invocation runs (ADK's `RunConfig`): owned by the agent layer, which reads it.

use adk_core::json::{FromJson, JsonError, Reader, ToJson, Writer};

use crate::types::JsonObject;

/// `none`: whole responses; `sse`: partial text events as the model streams, then the final one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StreamingMode {
    /// No partial events.
    #[default]
    None,
    /// Partial events while the model streams.
    Sse,
}

impl FromJson for StreamingMode {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        match &*r.str()? {
            "none" => Ok(StreamingMode::None),
            "sse" => Ok(StreamingMode::Sse),
            other => Err(JsonError::data(format!("unknown variant `{other}`, expected `none` or `sse`"))),
        }
    }
}

impl ToJson for StreamingMode {
    fn write_json(&self, w: &mut Writer) {
        w.str(match self {
            StreamingMode::None => "none",
            StreamingMode::Sse => "sse",
        });
    }
}

adk_core::json_struct! {
    /// How an invocation runs (ADK's `RunConfig`, the parts that apply in a browser).
    #[derive(Debug, Clone, PartialEq)]
    pub struct RunConfig {
        /// Whether the model's output streams as partial events.
        pub streaming_mode: StreamingMode => "streamingMode" def,
        /// At most this many model calls per invocation; 0 or less means no limit. ADK's default is 500.
        pub max_llm_calls: u32 => "maxLlmCalls" (with DEFAULT_MAX_LLM_CALLS),
        /// Merged into every event's `customMetadata` (the event's own keys win).
        pub custom_metadata: Option<JsonObject> => "customMetadata" def,
    }
}

/// ADK's default `max_llm_calls`.
const DEFAULT_MAX_LLM_CALLS: u32 = 500;

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { streaming_mode: StreamingMode::None, max_llm_calls: DEFAULT_MAX_LLM_CALLS, custom_metadata: None }
    }
}
