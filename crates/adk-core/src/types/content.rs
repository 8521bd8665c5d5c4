//! Messages (`Content`) and their pieces (`Part`).

use serde_json::Value;

use super::{Blob, Bytes, CodeExecutionResult, ExecutableCode, FileData, FunctionCall, FunctionResponse, JsonObject};

crate::json_struct! {
    /// A message of the user or the model: a role and its parts (`types.Content`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Content {
        /// The pieces of the message, each with its own kind of data.
        pub parts: Option<Vec<Part>> => "parts" opt,
        /// `user` or `model`.
        pub role: Option<String> => "role" opt,
    }
}

impl Content {
    /// A message with `role` and `parts`.
    pub fn new(role: &str, parts: Vec<Part>) -> Self {
        Content { parts: Some(parts), role: Some(role.to_string()) }
    }

    /// A user message holding one text part.
    pub fn user_text(text: &str) -> Self {
        Self::new("user", vec![Part::from_text(text)])
    }

    /// A model message holding one text part.
    pub fn model_text(text: &str) -> Self {
        Self::new("model", vec![Part::from_text(text)])
    }

    /// The parts, or an empty slice when there are none.
    pub fn parts(&self) -> &[Part] {
        self.parts.as_deref().unwrap_or_default()
    }

    /// The role is `user`.
    pub fn is_user(&self) -> bool {
        self.role.as_deref() == Some("user")
    }

    /// The role is `model`.
    pub fn is_model(&self) -> bool {
        self.role.as_deref() == Some("model")
    }
}

crate::json_struct! {
    /// One piece of a message (`types.Part`); normally exactly one data field is set.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Part {
        /// Requested media resolution, carried through.
        pub media_resolution: Option<Value> => "mediaResolution" (rare rare),
        /// Result of executed code.
        pub code_execution_result: Option<CodeExecutionResult> => "codeExecutionResult" opt,
        /// Code the model wants executed.
        pub executable_code: Option<ExecutableCode> => "executableCode" opt,
        /// Media referenced by URI.
        pub file_data: Option<FileData> => "fileData" opt,
        /// A function the model wants called.
        pub function_call: Option<FunctionCall> => "functionCall" opt,
        /// The result of a function call.
        pub function_response: Option<FunctionResponse> => "functionResponse" opt,
        /// Inline bytes.
        pub inline_data: Option<Blob> => "inlineData" opt,
        /// Text.
        pub text: Option<String> => "text" opt,
        /// The text is the model's thinking, not its answer.
        pub thought: Option<bool> => "thought" opt,
        /// Opaque signature of the thought, to be sent back to the model.
        pub thought_signature: Option<Bytes> => "thoughtSignature" opt,
        /// Video clipping metadata, carried through.
        pub video_metadata: Option<Value> => "videoMetadata" (rare rare),
        /// Server-side tool call, carried through.
        pub tool_call: Option<Value> => "toolCall" (rare rare),
        /// Server-side tool response, carried through.
        pub tool_response: Option<Value> => "toolResponse" (rare rare),
        /// Custom metadata of the part.
        pub part_metadata: Option<JsonObject> => "partMetadata" (rare rare),
        /// Transcription of an audio part, carried through.
        pub audio_transcription: Option<Value> => "audioTranscription" (rare rare),
        /// Media processing options, carried through.
        pub media_processing: Option<Value> => "mediaProcessing" (rare rare),
        /// Speech metadata, carried through.
        pub speech_metadata: Option<Value> => "speechMetadata" (rare rare),
        /// The rarely set members, by their wire names: `mediaResolution`, `videoMetadata`,
        /// `toolCall`, `toolResponse`, `partMetadata`, `audioTranscription`, `mediaProcessing`,
        /// `speechMetadata`.
        pub rare: crate::json::Rare => "" skip,
    }
}

impl Part {
    /// A text part.
    pub fn from_text(text: &str) -> Self {
        Part { text: Some(text.to_string()), ..Default::default() }
    }

    /// A function-call part (no id: the agent assigns `adk-…` ids).
    pub fn from_function_call(name: &str, args: JsonObject) -> Self {
        Part {
            function_call: Some(FunctionCall { name: Some(name.to_string()), args: Some(args), ..Default::default() }),
            ..Default::default()
        }
    }

    /// A function-response part.
    pub fn from_function_response(name: &str, response: JsonObject) -> Self {
        Part {
            function_response: Some(FunctionResponse {
                name: Some(name.to_string()),
                response: Some(response),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// An inline-data part.
    pub fn from_inline_data(data: Vec<u8>, mime_type: &str) -> Self {
        Part {
            inline_data: Some(Blob {
                data: Some(Bytes(data)),
                mime_type: Some(mime_type.to_string()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// Inline data holding JSON text, with MIME type `application/json`.
    pub fn from_json(data: &str) -> Self {
        Part { inline_data: Some(Blob::from_json(data)), ..Default::default() }
    }

    /// The text, or else the transcript of the inline data (the seeds' `text_or_transcript`).
    pub fn text_or_transcript(&self) -> Option<&str> {
        self.text.as_deref().or_else(|| self.inline_data.as_ref().and_then(Blob::transcript))
    }

    /// Whether this part calls the function `name`.
    pub fn has_function_call(&self, name: &str) -> bool {
        self.function_call.as_ref().is_some_and(|c| c.name.as_deref() == Some(name))
    }

    /// Whether this part answers a call of the function `name`.
    pub fn has_function_response(&self, name: &str) -> bool {
        self.function_response.as_ref().is_some_and(|r| r.name.as_deref() == Some(name))
    }

    /// A call of ADK's `transfer_to_agent` tool handing the conversation to `agent`.
    pub fn from_agent_transfer(agent: &str) -> Self {
        let mut args = JsonObject::new();
        args.insert("agent_name".into(), Value::String(agent.to_string()));
        Self::from_function_call("transfer_to_agent", args)
    }

    /// A call of the `end_session` tool, ending the conversation for `reason`.
    pub fn from_end_session(reason: &str, escalated: bool) -> Self {
        let mut args = JsonObject::new();
        args.insert("reason".into(), Value::String(reason.to_string()));
        args.insert("escalated".into(), Value::Bool(escalated));
        Self::from_function_call("end_session", args)
    }
}
