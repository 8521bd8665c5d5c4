//! Tools that wait for a person's approval (ADK's `require_confirmation` and
//! `ToolContext.request_confirmation`): the gate a call passes before its tool runs.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde_json::Value;

use crate::agent::ToolContext;
use crate::types::JsonObject;
use crate::AdkError;
use adk_core::json;

/// The function call an agent makes to ask the person to approve another call.
pub const REQUEST_CONFIRMATION: &str = "adk_request_confirmation";

/// Decides from a call's arguments (and context) whether it needs approval.
pub type ConfirmationPredicate =
    Rc<dyn Fn(JsonObject, ToolContext) -> Pin<Box<dyn Future<Output = Result<bool, AdkError>>>>>;

/// Whether a tool's calls need the person's approval before it runs.
#[derive(Clone, Default)]
pub enum RequireConfirmation {
    /// Never: the tool runs at once.
    #[default]
    Never,
    /// Every call.
    Always,
    /// The calls the predicate picks.
    When(ConfirmationPredicate),
}

impl RequireConfirmation {
    /// Whether the call with `args` needs approval.
    pub async fn check(&self, args: &JsonObject, ctx: &ToolContext) -> Result<bool, AdkError> {
        match self {
            RequireConfirmation::Never => Ok(false),
            RequireConfirmation::Always => Ok(true),
            RequireConfirmation::When(predicate) => predicate(args.clone(), ctx.clone()).await,
        }
    }
}

/// A `FunctionTool`'s gate (ADK's, to the text): a call that needs approval and has none asks for it
/// and answers the model that it waits; a refused call answers that it was refused; `None` lets
/// the call run.
pub fn gate(tool: &str, required: bool, ctx: &ToolContext) -> Result<Option<Value>, AdkError> {
    if !required {
        return Ok(None);
    }
    let error = match ctx.tool_confirmation() {
        None => {
            let hint = [
                "Please approve or reject the tool call ",
                tool,
                "() by responding with a FunctionResponse with an expected ToolConfirmation payload.",
            ]
            .concat();
            ctx.request_confirmation(&hint, None)?;
            ctx.with_actions(|a| a.skip_summarization = Some(true));
            "This tool call requires confirmation, please approve or reject."
        }
        Some(confirmation) if !confirmation.confirmed => "This tool call is rejected.",
        Some(_) => return Ok(None),
    };
    Ok(Some(json::object([("error", error.into())])))
}
