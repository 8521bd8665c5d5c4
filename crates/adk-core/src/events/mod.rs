//! ADK's event model: what agents, tools and users append to a session.

/// Calls `$callback!` with the fields `Event` inherits from `LlmResponse`, in ADK's wire order,
/// so that both structs and the conversion between them come from this one list. The rarely set
/// ones (`(rare rare)`) are kept in the struct's `rare` member, by their wire names.
macro_rules! llm_response_fields {
    ($callback:ident { $($args:tt)* }) => {
        $callback! { $($args)* ;
            /// Output only: the model version that produced the response.
            model_version: Option<String> => "modelVersion" opt,
            /// The message; user or model content only, never framework data.
            content: Option<crate::types::Content> => "content" opt,
            /// Grounding (search) metadata of the response.
            grounding_metadata: Option<crate::types::JsonObject> => "groundingMetadata" opt,
            /// An incomplete chunk of a streamed response; never stored in the session.
            partial: Option<bool> => "partial" opt,
            /// The model finished its turn (streaming only).
            turn_complete: Option<bool> => "turnComplete" opt,
            /// Why the turn completed (streaming only).
            turn_complete_reason: Option<String> => "turnCompleteReason" (rare rare),
            /// Why the model stopped: `STOP`, `MAX_TOKENS`, `SAFETY`, …
            finish_reason: Option<String> => "finishReason" opt,
            /// Error code when the response is an error; its values depend on the model.
            error_code: Option<String> => "errorCode" opt,
            /// Error message when the response is an error.
            error_message: Option<String> => "errorMessage" opt,
            /// The model was interrupted, e.g. by the user during bidi streaming.
            interrupted: Option<bool> => "interrupted" opt,
            /// Live-API activity status reported with `turn_complete` (ADK 2.x).
            interaction_status: Option<String> => "interactionStatus" (rare rare),
            /// App-defined labels; must be JSON-serializable.
            custom_metadata: Option<crate::types::JsonObject> => "customMetadata" opt,
            /// Token usage of the call.
            usage_metadata: Option<crate::types::UsageMetadata> => "usageMetadata" opt,
            /// Live-API session resumption update.
            live_session_resumption_update: Option<crate::types::JsonObject> => "liveSessionResumptionUpdate" (rare rare),
            /// Live-API session id.
            live_session_id: Option<String> => "liveSessionId" (rare rare),
            /// Live-API go-away signal.
            go_away: Option<crate::types::JsonObject> => "goAway" (rare rare),
            /// Live-API voice activity signal (ADK 2.x).
            voice_activity: Option<serde_json::Value> => "voiceActivity" (rare rare),
            /// Transcription of user audio.
            input_transcription: Option<crate::types::JsonObject> => "inputTranscription" (rare rare),
            /// Transcription of model audio.
            output_transcription: Option<crate::types::JsonObject> => "outputTranscription" (rare rare),
            /// Average log probability of the generated tokens.
            avg_logprobs: Option<f64> => "avgLogprobs" opt,
            /// Log probabilities of chosen and top candidate tokens.
            logprobs_result: Option<crate::types::JsonObject> => "logprobsResult" opt,
            /// Context-cache metadata.
            cache_metadata: Option<crate::types::JsonObject> => "cacheMetadata" (rare rare),
            /// Citation metadata.
            citation_metadata: Option<crate::types::JsonObject> => "citationMetadata" opt,
            /// Interactions-API interaction id.
            interaction_id: Option<String> => "interactionId" (rare rare),
            /// Interactions-API execution environment id (ADK 2.x).
            environment_id: Option<String> => "environmentId" (rare rare),
        }
    };
}

/// Declares a struct made of the `LlmResponse` fields (all optional) followed by its own fields,
/// with its JSON form.
macro_rules! with_llm_response_fields {
    (
        $(#[$meta:meta])* $name:ident { $($(#[$ometa:meta])* $ofield:ident: $oty:ty => $okey:literal $omode:tt,)* } ;
        $($(#[$fmeta:meta])* $field:ident: $ty:ty => $key:literal $mode:tt,)*
    ) => {
        crate::json_struct! {
            $(#[$meta])*
            pub struct $name {
                $( $(#[$fmeta])* pub $field: $ty => $key $mode, )*
                $( $(#[$ometa])* pub $ofield: $oty => $okey $omode, )*
                /// The rarely set members, by their wire names: `turnCompleteReason`,
                /// `interactionStatus`, the live API's (`liveSessionResumptionUpdate`,
                /// `liveSessionId`, `goAway`, `voiceActivity`, `inputTranscription`,
                /// `outputTranscription`), `cacheMetadata`, `interactionId`, `environmentId`
                /// (and an event's `output` and `nodeInfo`).
                pub rare: crate::json::Rare => "" skip,
            }
        }
    };
}

mod event;
mod event_actions;
mod llm_response;
mod small_map;
mod tool_ids;

pub use event::Event;
pub use event_actions::{EventActions, EventCompaction, ToolConfirmation, UiWidget};
pub use llm_response::{LlmResponse, PartsResponse};
pub use small_map::SmallMap;
pub use tool_ids::ToolIds;
