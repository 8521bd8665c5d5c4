//! ADK's two tools a model calls to ask the person something: `get_user_choice` (pick one of the
//! options) and 2.x's `adk_request_input` (answer a question, optionally to a schema). Both are
//! long-running and answer nothing themselves: the run pauses on the call, and the app sends the
//! person's answer as the call's function response.

use std::rc::Rc;

use adk_core::json;
use serde_json::Value;

use super::{FunctionTool, ToolFunction};

/// What ADK appends to a long-running tool's description.
const LONG_RUNNING_NOTE: &str = "\n\nNOTE: This is a long-running operation. Do not call this tool again if it has \
                                 already returned some intermediate or pending status.";

/// The name of ADK's request-input tool (and of the call a front end answers).
pub const REQUEST_INPUT: &str = "adk_request_input";

/// ADK's `get_user_choice_tool`, declared as ADK 2.13 declares it.
pub fn get_user_choice_tool() -> FunctionTool {
    let parameters = json::constant(
        r#"{"properties": {"options": {"items": {"type": "string"}, "title": "Options", "type": "array"}},
            "required": ["options"], "title": "get_user_choiceParams", "type": "object"}"#,
    );
    // As ADK's function: the person's choice is the answer, so the model need not summarise the call.
    let run: ToolFunction = Rc::new(|_args, ctx| {
        ctx.with_actions(|a| a.skip_summarization = Some(true));
        Box::pin(async { Ok(Value::Null) })
    });
    let description = ["Provides the options to the user and asks them to choose one.", LONG_RUNNING_NOTE].concat();
    FunctionTool::new("get_user_choice", &description, Some(parameters), run).long_running(true)
}

/// ADK 2.x's `request_input` tool (`adk_request_input`), declared as ADK 2.13 declares it.
pub fn request_input_tool() -> FunctionTool {
    let parameters = json::constant(
        r#"{"properties": {"message": {"title": "Message", "type": "string"},
            "response_schema": {"anyOf": [{"additionalProperties": true, "type": "object"}, {"type": "null"}],
                                "default": null, "title": "Response Schema"}},
            "required": ["message"], "title": "adk_request_inputParams", "type": "object"}"#,
    );
    let run: ToolFunction = Rc::new(|_args, _ctx| Box::pin(async { Ok(Value::Null) }));
    let description = [
        "Ask the user a question and wait for their response.\n\nUse this when you need clarification or additional \
         information before\nproceeding.\n\nArgs:\n  message: The question or prompt to display to the user.\n  \
         response_schema: JSON Schema describing the expected response format. Use\n    {\"type\": \"string\"} for \
         free-text, {\"type\": \"boolean\"} for\n    yes/no, or a structured object schema for complex input.\n\n\
         Returns:\n  None. Long-running tools return None to signal that the execution should\n  pause and wait for \
         user input.",
        LONG_RUNNING_NOTE,
    ]
    .concat();
    FunctionTool::new(REQUEST_INPUT, &description, Some(parameters), run).long_running(true)
}
