//! ADK's `AgentTool`: an agent offered to the model as a tool. Each call runs the agent in a
//! throw-away session of its own that starts from the caller's state; the state it writes flows
//! back, and the text of its last event is the result. An agent with an input schema is declared
//! with it and sent the call's arguments as their JSON; one with an output schema answers with
//! the value its text holds.

use std::rc::Rc;

use async_trait::async_trait;
use futures_util::StreamExt;
use serde_json::Value;

use crate::agent::{Agent, ToolContext};
use crate::agents::llm::{input_schema, output_schema};
use crate::model::FunctionDeclaration;
use crate::runner::{RunConfig, Runner};
use crate::tool::schema::{parse_reply, validate_args};
use crate::tool::{one_string_parameter, string_argument, Tool};
use crate::types::{Content, JsonObject};
use crate::AdkError;

/// Runs an agent as a tool (ADK's `AgentTool`).
pub struct AgentTool {
    agent: Rc<dyn Agent>,
    skip_summarization: bool,
}

impl AgentTool {
    /// A tool named after `agent`, taking one string argument, `request`, or the arguments of the
    /// agent's input schema.
    pub fn new(agent: Rc<dyn Agent>) -> Self {
        AgentTool { agent, skip_summarization: false }
    }

    /// With `true`, the agent's answer is the final word: the calling model is not asked to
    /// summarise it.
    pub fn skip_summarization(mut self, skip: bool) -> Self {
        self.skip_summarization = skip;
        self
    }
}

#[async_trait(?Send)]
impl Tool for AgentTool {
    fn name(&self) -> &str {
        self.agent.name()
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: self.agent.name().to_string(),
            description: self.agent.description().to_string(),
            parameters: Some(input_schema(&*self.agent).map_or_else(|| one_string_parameter("request"), Value::Object)),
            response: None,
        }
    }

    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let request = match input_schema(&*self.agent) {
            Some(schema) => adk_core::json::to_string(&validate_args(&schema, &args, self.name())?),
            None => string_argument(&args, "request", self.name())?.to_string(),
        };
        if self.skip_summarization {
            ctx.with_actions(|a| a.skip_summarization = Some(true));
        }
        let name = self.agent.name().to_string();
        // The parent's plugins see the agent's run too (ADK's `include_plugins`, on by default).
        let plugins = ctx.invocation_context().plugins().clone();
        let runner = Runner::in_memory(&name, self.agent.clone()).with_plugin_manager(plugins);
        let session =
            runner.session_service().create_session(&name, "tmp_user", Some(ctx.state().to_dict()), None).await?;
        let mut events =
            runner.run_async(&session.user_id, &session.id, Content::user_text(&request), None, RunConfig::default());
        // The answer is the last content (events without content, e.g. state-only ones, do not count),
        // without its thoughts, as ADK does.
        let mut last = None;
        while let Some(event) = events.next().await {
            let event = event?;
            if !event.actions.state_delta.is_empty() {
                ctx.state().update(event.actions.state_delta.clone());
            }
            if event.content.is_some() {
                last = event.content;
            }
        }
        let mut text: Vec<&str> = Vec::new();
        for part in last.as_ref().map(Content::parts).unwrap_or_default() {
            if part.thought != Some(true) {
                text.extend(part.text.as_deref());
            }
        }
        let text = text.join("\n");
        match output_schema(&*self.agent) {
            Some(_) => parse_reply(&text),
            None => Ok(Value::String(text)),
        }
    }
}
