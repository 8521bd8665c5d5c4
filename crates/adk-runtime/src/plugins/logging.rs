//! ADK's `LoggingPlugin`: a line for each hook of a run, for following it from a terminal. Where
//! the lines go is the caller's (`eprintln!` natively); the JS package has its own, on the console.

use std::rc::Rc;

use adk_core::text::join;
use async_trait::async_trait;
use serde_json::Value;

use crate::agent::{CallbackContext, InvocationContext, Plugin, ToolContext};
use crate::model::LlmRequest;
use crate::types::{Content, JsonObject};
use crate::{AdkError, Event, LlmResponse};

/// Writes `[name] <what happened>` lines, with ADK's headings, to a sink; answers nothing.
pub struct LoggingPlugin {
    name: String,
    sink: Rc<dyn Fn(&str)>,
}

impl LoggingPlugin {
    /// The plugin `logging_plugin` (its ADK name), writing each line to `sink`.
    pub fn new(sink: Rc<dyn Fn(&str)>) -> Self {
        LoggingPlugin { name: "logging_plugin".into(), sink }
    }

    fn log(&self, heading: &str, detail: &str) {
        (self.sink)(&["[", &self.name, "] ", heading, " ", detail].concat());
    }
}

/// A content's texts and calls, briefly.
fn brief(content: Option<&Content>) -> String {
    let parts = content.map(Content::parts).unwrap_or_default();
    let mut shown: Vec<String> = Vec::with_capacity(parts.len());
    for p in parts {
        shown.push(match (&p.text, &p.function_call, &p.function_response) {
            (Some(text), _, _) => format!("text: '{text}'"),
            (_, Some(call), _) => format!("function_call: {}", call.name.as_deref().unwrap_or_default()),
            (_, _, Some(response)) => format!("function_response: {}", response.name.as_deref().unwrap_or_default()),
            _ => "other part".into(),
        });
    }
    if shown.is_empty() {
        "None".into()
    } else {
        join(&shown, " | ")
    }
}

#[async_trait(?Send)]
impl Plugin for LoggingPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    async fn on_user_message(&self, ctx: &InvocationContext, message: &Content) -> Result<Option<Content>, AdkError> {
        let detail = format!("invocation {}: {}", ctx.invocation_id(), brief(Some(message)));
        self.log("🚀 USER MESSAGE RECEIVED", &detail);
        Ok(None)
    }

    async fn before_run(&self, ctx: &InvocationContext) -> Result<Option<Content>, AdkError> {
        self.log("🏃 INVOCATION STARTING", &format!("agent {}", ctx.agent_name()));
        Ok(None)
    }

    async fn on_event(&self, _ctx: &InvocationContext, event: &Event) -> Result<Option<Event>, AdkError> {
        let detail = format!("{} by {}: {}", event.id, event.author, brief(event.content.as_ref()));
        self.log("📢 EVENT YIELDED", &detail);
        Ok(None)
    }

    async fn after_run(&self, ctx: &InvocationContext) -> Result<(), AdkError> {
        self.log("✅ INVOCATION COMPLETED", ctx.invocation_id());
        Ok(())
    }

    async fn before_agent(&self, ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        self.log("🤖 AGENT STARTING", ctx.agent_name());
        Ok(None)
    }

    async fn after_agent(&self, ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        self.log("🤖 AGENT COMPLETED", ctx.agent_name());
        Ok(None)
    }

    async fn before_model(
        &self,
        ctx: &CallbackContext,
        request: &mut LlmRequest,
    ) -> Result<Option<LlmResponse>, AdkError> {
        let model = request.model.as_deref().unwrap_or("default");
        self.log("🧠 LLM REQUEST", &format!("{model} for {}", ctx.agent_name()));
        Ok(None)
    }

    async fn after_model(
        &self,
        ctx: &CallbackContext,
        response: &LlmResponse,
    ) -> Result<Option<LlmResponse>, AdkError> {
        self.log("🧠 LLM RESPONSE", &format!("for {}: {}", ctx.agent_name(), brief(response.content.as_ref())));
        Ok(None)
    }

    async fn on_model_error(
        &self,
        ctx: &CallbackContext,
        _request: &LlmRequest,
        error: &AdkError,
    ) -> Result<Option<LlmResponse>, AdkError> {
        self.log("🧠 LLM ERROR", &format!("for {}: {error}", ctx.agent_name()));
        Ok(None)
    }

    async fn before_tool(
        &self,
        tool: &str,
        args: &mut JsonObject,
        _ctx: &ToolContext,
    ) -> Result<Option<Value>, AdkError> {
        self.log("🔧 TOOL STARTING", &format!("{tool} {}", Value::Object(args.clone())));
        Ok(None)
    }

    async fn after_tool(
        &self,
        tool: &str,
        _args: &JsonObject,
        _ctx: &ToolContext,
        result: &Value,
    ) -> Result<Option<Value>, AdkError> {
        self.log("🔧 TOOL COMPLETED", &format!("{tool}: {result}"));
        Ok(None)
    }

    async fn on_tool_error(
        &self,
        tool: &str,
        _args: &JsonObject,
        _ctx: &ToolContext,
        error: &AdkError,
    ) -> Result<Option<Value>, AdkError> {
        self.log("🔧 TOOL ERROR", &format!("{tool}: {error}"));
        Ok(None)
    }
}
