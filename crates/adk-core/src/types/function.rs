//! Function calls predicted by the model and the responses tools give back.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Blob, FileData, JsonObject};

/// A call the model asks the app to make (`types.FunctionCall`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionCall {
    /// Call id; ADK gives model calls `adk-` + uuid4 when the model gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Arguments as a JSON object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<JsonObject>,
    /// Name of the function to call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Streamed argument fragments (Gemini streaming function calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_args: Option<Vec<Value>>,
    /// More fragments of this call follow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub will_continue: Option<bool>,
}

/// Media attached to a function response (`types.FunctionResponsePart`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionResponsePart {
    /// Inline bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inline_data: Option<Blob>,
    /// Media by URI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_data: Option<FileData>,
    /// Media processing options, carried through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_processing: Option<Value>,
}

/// The result of a [`FunctionCall`] (`types.FunctionResponse`).
///
/// By convention the `response` object holds the result under `output` and a failure under
/// `error`; a response with neither key is the output as a whole.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionResponse {
    /// The function keeps running and will respond again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub will_continue: Option<bool>,
    /// How the model should schedule the response (`SILENT`, `WHEN_IDLE`, `INTERRUPT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<String>,
    /// Media returned with the response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<FunctionResponsePart>>,
    /// Id of the call this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Name of the function that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The result as a JSON object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<JsonObject>,
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
