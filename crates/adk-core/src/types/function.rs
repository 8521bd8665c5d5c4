//! Function calls predicted by the model and the responses tools give back.

use serde_json::Value;

use super::{Blob, FileData, JsonObject};

crate::json_struct! {
    /// A call the model asks the app to make (`types.FunctionCall`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct FunctionCall {
        /// Call id; ADK gives model calls `adk-` + uuid4 when the model gives none.
        pub id: Option<String> => "id" opt,
        /// Arguments as a JSON object.
        pub args: Option<JsonObject> => "args" opt,
        /// Name of the function to call.
        pub name: Option<String> => "name" opt,
        /// Streamed argument fragments (Gemini streaming function calls).
        pub partial_args: Option<Vec<Value>> => "partialArgs" opt,
        /// More fragments of this call follow.
        pub will_continue: Option<bool> => "willContinue" opt,
    }
}

crate::json_struct! {
    /// Media attached to a function response (`types.FunctionResponsePart`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct FunctionResponsePart {
        /// Inline bytes.
        pub inline_data: Option<Blob> => "inlineData" opt,
        /// Media by URI.
        pub file_data: Option<FileData> => "fileData" opt,
        /// Media processing options, carried through.
        pub media_processing: Option<Value> => "mediaProcessing" opt,
    }
}

crate::json_struct! {
    /// The result of a [`FunctionCall`] (`types.FunctionResponse`).
    ///
    /// By convention the `response` object holds the result under `output` and a failure under
    /// `error`; a response with neither key is the output as a whole.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct FunctionResponse {
        /// The function keeps running and will respond again.
        pub will_continue: Option<bool> => "willContinue" opt,
        /// How the model should schedule the response (`SILENT`, `WHEN_IDLE`, `INTERRUPT`).
        pub scheduling: Option<String> => "scheduling" opt,
        /// Media returned with the response.
        pub parts: Option<Vec<FunctionResponsePart>> => "parts" opt,
        /// Id of the call this answers.
        pub id: Option<String> => "id" opt,
        /// Name of the function that ran.
        pub name: Option<String> => "name" opt,
        /// The result as a JSON object.
        pub response: Option<JsonObject> => "response" opt,
    }
}

impl FunctionResponse {
    /// The function's output: `response.output`, or the whole response when it has neither
    /// `output` nor `error`; `None` for an error response or no response.
    pub fn output(&self) -> Option<Value> {
        let response = self.response.as_ref()?;
        match response.get("output") {
            Some(output) => Some(output.clone()),
            None if response.contains_key("error") => None,
            None => Some(Value::Object(response.clone())),
        }
    }

    /// The error the function reported under `response.error`, if any.
    pub fn error(&self) -> Option<&Value> {
        self.response.as_ref()?.get("error")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with(response: Value) -> FunctionResponse {
        FunctionResponse { response: response.as_object().cloned(), ..Default::default() }
    }

    #[test]
    fn output_error_convention() {
        assert_eq!(with(json!({"output": 3})).output(), Some(json!(3)));
        assert_eq!(with(json!({"error": "x"})).output(), None);
        assert_eq!(with(json!({"error": "x"})).error(), Some(&json!("x")));
        assert_eq!(with(json!({"a": 1})).output(), Some(json!({"a": 1})));
        assert_eq!(with(json!({"a": 1})).error(), None);
        assert_eq!(FunctionResponse::default().output(), None);
    }
}
