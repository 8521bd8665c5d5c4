//! What a model returns for one call (ADK's `LlmResponse`).

use crate::json::{ToJson, Writer};
use crate::types::{Content, FunctionCall, FunctionResponse, Part};

llm_response_fields!(with_llm_response_fields {
    /// One response of a model: the first candidate's content, or an error.
    #[derive(Debug, Clone, Default, PartialEq)]
    LlmResponse {}
});

impl LlmResponse {
    /// A model response made of `parts`.
    pub fn from_parts(parts: Vec<Part>) -> Self {
        LlmResponse { content: Some(PartsResponse::new(parts).0), ..Default::default() }
    }

    /// An error response with ADK's `error_code`/`error_message`.
    pub fn from_error(code: &str, message: &str) -> Self {
        LlmResponse { error_code: Some(code.into()), error_message: Some(message.into()), ..Default::default() }
    }

    /// The function calls in the content, in order.
    pub fn get_function_calls(&self) -> Vec<&FunctionCall> {
        function_calls(self.content.as_ref())
    }

    /// The function responses in the content, in order.
    pub fn get_function_responses(&self) -> Vec<&FunctionResponse> {
        function_responses(self.content.as_ref())
    }
}

/// [`LlmResponse::from_parts`]'s JSON, written without `LlmResponse`'s writer, so that an entry
/// with no model (`adk-wasm/a2a`, `adk-wasm/server`) carries none: its only member is its content.
pub struct PartsResponse(pub Content);

impl PartsResponse {
    /// The content of a model response made of `parts`.
    pub fn new(parts: Vec<Part>) -> Self {
        PartsResponse(Content::new("model", parts))
    }
}

impl ToJson for PartsResponse {
    fn write_json(&self, w: &mut Writer) {
        let mut object = w.object();
        object.field("content", &self.0);
        object.end();
    }
}

// Plain loops: a `filter_map(…).collect()` would compile the iterator's collecting code for each.
pub(super) fn function_calls(content: Option<&Content>) -> Vec<&FunctionCall> {
    let mut calls = Vec::new();
    for part in content.map_or(&[][..], Content::parts) {
        if let Some(call) = &part.function_call {
            calls.push(call);
        }
    }
    calls
}

pub(super) fn function_responses(content: Option<&Content>) -> Vec<&FunctionResponse> {
    let mut responses = Vec::new();
    for part in content.map_or(&[][..], Content::parts) {
        if let Some(response) = &part.function_response {
            responses.push(response);
        }
    }
    responses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::types::JsonObject;

    #[test]
    fn parts_response_writes_what_from_parts_writes() {
        let mut args = JsonObject::new();
        args.insert("city".into(), "Oslo".into());
        for parts in [
            vec![],
            vec![Part::from_text("hi \"there\"")],
            vec![
                Part::from_text("a"),
                Part::from_function_call("weather", args),
                Part::from_inline_data(vec![1, 2], "image/png"),
            ],
        ] {
            let expected = json::to_string(&LlmResponse::from_parts(parts.clone()));
            assert_eq!(json::to_string(&PartsResponse::new(parts)), expected);
        }
    }
}
