//! ADK's `SetModelResponseTool`: how an agent with both an output schema and tools gives its
//! structured answer, since a model cannot be held to a response schema while it calls tools. The
//! model calls it last; the flow turns the call into the agent's final reply.

use adk_core::json;
use async_trait::async_trait;
use serde_json::Value;

use super::Tool;
use crate::agent::ToolContext;
use crate::model::FunctionDeclaration;
use crate::types::JsonObject;
use crate::AdkError;

/// The tool's name.
pub const SET_MODEL_RESPONSE: &str = "set_model_response";

/// What ADK adds to the system instruction beside the tool, to the character.
pub const SET_MODEL_RESPONSE_INSTRUCTION: &str = "IMPORTANT: You have access to other tools, but you must provide \
your final response using the set_model_response tool with the required structured format. After using any other \
tools needed to complete the task, always call set_model_response with your final answer in the specified schema \
format.";

/// The tool (ADK's `SetModelResponseTool` over a schema given as a JSON object).
pub struct SetModelResponseTool;

#[async_trait(?Send)]
impl Tool for SetModelResponseTool {
    fn name(&self) -> &str {
        SET_MODEL_RESPONSE
    }

    /// ADK's declaration for a JSON-object schema, to the character: one object argument,
    /// `response` (pydantic's schema of a `response: dict` parameter; the output schema itself is
    /// not in it).
    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: SET_MODEL_RESPONSE.into(),
            description: "Set your final response using the required output schema.\n\nUse this tool to provide your \
                          final structured answer instead\nof outputting text directly."
                .into(),
            parameters: Some(json::constant(
                r#"{"properties": {"response": {"additionalProperties": true, "title": "Response", "type": "object"}},
                    "required": ["response"], "title": "set_model_responseParams", "type": "object"}"#,
            )),
            response: None,
        }
    }

    /// The `response` argument is the result, and the agent's answer (`setModelResponse`); without
    /// one, there is no answer and the model goes on.
    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let response = args.get("response").cloned().unwrap_or_default();
        ctx.with_actions(|a| a.set_model_response = Some(response.clone()).filter(|r| !r.is_null()));
        Ok(response)
    }
}
