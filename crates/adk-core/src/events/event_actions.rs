//! What an event does besides carrying content (ADK's `EventActions`).

use serde_json::Value;

use super::SmallMap;
use crate::types::{Content, JsonObject};

crate::json_struct! {
    /// The actions attached to an event. The four maps are always present on the wire, even when empty.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct EventActions {
        /// Don't call the model to summarize this function response.
        pub skip_summarization: Option<bool> => "skipSummarization" opt,
        /// State changes made by this event; keys may carry `app:`, `user:` or `temp:` prefixes.
        pub state_delta: JsonObject => "stateDelta" def,
        /// Artifacts saved by this event: file name → version.
        pub artifact_delta: SmallMap<i64> => "artifactDelta" def,
        /// Hand the conversation to the named agent.
        pub transfer_to_agent: Option<String> => "transferToAgent" opt,
        /// Why the transfer happens (ADK 2.x).
        pub transfer_reason: Option<String> => "transferReason" opt,
        /// Escalate to the parent agent; ends a `LoopAgent`.
        pub escalate: Option<bool> => "escalate" opt,
        /// Auth configs requested by tools, keyed by function call id.
        pub requested_auth_configs: SmallMap<JsonObject> => "requestedAuthConfigs" def,
        /// Tool confirmations requested, keyed by function call id.
        pub requested_tool_confirmations: SmallMap<ToolConfirmation> => "requestedToolConfirmations" def,
        /// A summary replacing a range of earlier events.
        pub compaction: Option<EventCompaction> => "compaction" opt,
        /// The agent finished its current run (set by workflow agents).
        pub end_of_agent: Option<bool> => "endOfAgent" opt,
        /// Agent checkpoint for resumption (set by workflow agents).
        pub agent_state: Option<JsonObject> => "agentState" opt,
        /// Rewind the session to before this invocation.
        pub rewind_before_invocation_id: Option<String> => "rewindBeforeInvocationId" opt,
        /// UI widgets to render.
        pub render_ui_widgets: Option<Vec<UiWidget>> => "renderUiWidgets" opt,
        /// Workflow route(s) for graph edge matching (ADK 2.x).
        pub route: Option<Value> => "route" opt,
        /// Structured model output (ADK 2.x).
        pub set_model_response: Option<Value> => "setModelResponse" opt,
        /// Stop the agent loop after this event. From the seeds' runtime reference; ADK Python keeps this
        /// flag on the invocation context instead and rejects it here, so adk-wasm never sets it itself.
        pub end_invocation: Option<bool> => "endInvocation" opt,
    }
}

impl EventActions {
    /// No action at all: nothing to apply to the session besides the event itself.
    pub fn is_empty(&self) -> bool {
        *self == EventActions::default()
    }
}

crate::json_struct! {
    /// A tool's request for the user's confirmation (`ToolConfirmation`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct ToolConfirmation {
        /// Why the confirmation is needed.
        pub hint: String => "hint" def,
        /// Whether the user confirmed.
        pub confirmed: bool => "confirmed" def,
        /// Data the tool needs from the user to continue.
        pub payload: Option<Value> => "payload" opt,
    }
}

crate::json_struct! {
    /// Events summarized into one (`EventCompaction`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct EventCompaction {
        /// Timestamp of the first compacted event, in seconds.
        pub start_timestamp: f64 => "startTimestamp" req,
        /// Timestamp of the last compacted event, in seconds.
        pub end_timestamp: f64 => "endTimestamp" req,
        /// The summary.
        pub compacted_content: Content => "compactedContent" req,
    }
}

crate::json_struct! {
    /// Rendering metadata for a UI widget (`UiWidget`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct UiWidget {
        /// Widget id.
        pub id: String => "id" req,
        /// Which renderer draws it, e.g. `mcp`.
        pub provider: String => "provider" req,
        /// Provider-specific data.
        pub payload: JsonObject => "payload" def,
    }
}
