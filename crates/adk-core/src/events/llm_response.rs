//! What a model returns for one call (ADK's `LlmResponse`).

use crate::types::{Content, FunctionCall, FunctionResponse, Part};

llm_response_fields!(with_llm_response_fields {
    /// One response of a model: the first candidate's content, or an error.
    #[derive(Debug, Clone, Default, PartialEq)]
    LlmResponse {}
});

impl LlmResponse {
    /// A model response made of `parts`.
    pub fn from_parts(parts: Vec<Part>) -> Self {
        LlmResponse { content: Some(Content::new("model", parts)), ..Default::default() }
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

// Plain loops: a `filter_map(…).collect()` compiled the iterator's collecting code for each.
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
