//! The seeds' `tools.<name>(args)`: tool or callback code runs another tool of its agent by name and
//! gets an [`ExternalResponse`] back, whatever happened.

use crate::agent::ToolContext;
use crate::http::ExternalResponse;
use crate::tool::toolset;
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode};

use super::as_llm_agent;

/// Runs the tool `name` of the context's agent with `args`. It runs as the caller: in its context,
/// so its state writes and artifacts land in the caller's event, and without the tool callbacks
/// (those wrap calls the model makes). A missing tool is a 404 response.
pub async fn call_tool(ctx: &ToolContext, name: &str, args: JsonObject) -> ExternalResponse {
    let agent = ctx.invocation_context().agent().clone();
    let tools = match as_llm_agent(&*agent) {
        Some(llm) => toolset::resolve(&llm.config.tools, ctx).await,
        None => Vec::new(),
    };
    let tool = crate::tool::named(&tools, name);
    let result = match tool {
        Some(tool) => tool.run(args, ctx.clone()).await,
        None => {
            Err(AdkError::new(ErrorCode::NotFound, ["agent `", agent.name(), "` has no tool `", name, "`"].concat()))
        }
    };
    ExternalResponse::from_tool_result(result)
}
