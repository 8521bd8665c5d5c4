//! What an event does besides carrying content (ADK's `EventActions`).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::types::{Content, JsonObject};

/// The actions attached to an event. The four maps are always present on the wire, even when empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventActions {
    /// Don't call the model to summarize this function response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_summarization: Option<bool>,
    /// State changes made by this event; keys may carry `app:`, `user:` or `temp:` prefixes.
    #[serde(default)]
    pub state_delta: JsonObject,
    /// Artifacts saved by this event: file name → version.
    #[serde(default)]
    pub artifact_delta: IndexMap<String, i64>,
    /// Hand the conversation to the named agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer_to_agent: Option<String>,
    /// Why the transfer happens (ADK 2.x).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer_reason: Option<String>,
    /// Escalate to the parent agent; ends a `LoopAgent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalate: Option<bool>,
    /// Auth configs requested by tools, keyed by function call id.
    #[serde(default)]
    pub requested_auth_configs: IndexMap<String, JsonObject>,
    /// Tool confirmations requested, keyed by function call id.
    #[serde(default)]
    pub requested_tool_confirmations: IndexMap<String, ToolConfirmation>,
    /// A summary replacing a range of earlier events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<EventCompaction>,
    /// The agent finished its current run (set by workflow agents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_of_agent: Option<bool>,
    /// Agent checkpoint for resumption (set by workflow agents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_state: Option<JsonObject>,
    /// Rewind the session to before this invocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rewind_before_invocation_id: Option<String>,
    /// UI widgets to render.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_ui_widgets: Option<Vec<UiWidget>>,
    /// Workflow route(s) for graph edge matching (ADK 2.x).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Value>,
    /// Structured model output (ADK 2.x).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_model_response: Option<Value>,
    /// Stop the agent loop after this event. From the seeds' runtime reference; ADK Python keeps this
    /// flag on the invocation context instead and rejects it here, so adk-wasm never sets it itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_invocation: Option<bool>,
}

impl EventActions {
    /// No action at all: nothing to apply to the session besides the event itself.
    pub fn is_empty(&self) -> bool {
        *self == EventActions::default()
    }
}

/// A tool's request for the user's confirmation (`ToolConfirmation`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolConfirmation {
    /// Why the confirmation is needed.
    #[serde(default)]
    pub hint: String,
    /// Whether the user confirmed.
    #[serde(default)]
    pub confirmed: bool,
    /// Data the tool needs from the user to continue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
}

/// Events summarized into one (`EventCompaction`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventCompaction {
    /// Timestamp of the first compacted event, in seconds.
    pub start_timestamp: f64,
    /// Timestamp of the last compacted event, in seconds.
    pub end_timestamp: f64,
    /// The summary.
    pub compacted_content: Content,
}

/// Rendering metadata for a UI widget (`UiWidget`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UiWidget {
    /// Widget id.
    pub id: String,
    /// Which renderer draws it, e.g. `mcp`.
    pub provider: String,
    /// Provider-specific data.
    #[serde(default)]
    pub payload: JsonObject,
}
