//! Tools: what the model can call (ADK's `BaseTool`, `FunctionTool` and the built-ins).

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use adk_core::json;
use async_trait::async_trait;
use serde_json::Value;

use crate::agent::ToolContext;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::JsonObject;
use crate::AdkError;

mod ask_user;
mod built_in;
pub mod confirmation;
mod load_artifacts;
pub mod mcp;
mod memory;
pub mod openapi;
pub mod schema;
mod set_model_response;
pub mod toolset;
mod url_guard;

pub use ask_user::{get_user_choice_tool, request_input_tool, REQUEST_INPUT};
pub use built_in::{is_gemini_model, BuiltInTool, GOOGLE_MAPS_GROUNDING, GOOGLE_SEARCH, URL_CONTEXT};
pub use confirmation::RequireConfirmation;
pub use load_artifacts::LoadArtifactsTool;
pub use mcp::McpToolset;
pub use memory::{LoadMemoryTool, PreloadMemoryTool};
pub use openapi::{OpenApiOptions, OpenApiToolset, RestApiTool};
pub use set_model_response::{SetModelResponseTool, SET_MODEL_RESPONSE, SET_MODEL_RESPONSE_INSTRUCTION};
pub use toolset::{ToolFilter, ToolUnion, Toolset};
pub use url_guard::refusal as url_refusal;

/// A tool (ADK's `BaseTool`).
#[async_trait(?Send)]
pub trait Tool {
    /// The name the model calls it by.
    fn name(&self) -> &str;

    /// How it is declared to the model.
    fn declaration(&self) -> FunctionDeclaration;

    /// A long-running tool answers later: the run stops after the call, and the app sends the
    /// function response in a later message.
    fn is_long_running(&self) -> bool {
        false
    }

    /// Whether the call with `args` waits for the person's approval (ADK's
    /// `check_require_confirmation`); asked again when an approval arrives, to check it is due.
    async fn check_require_confirmation(&self, _args: &JsonObject, _ctx: &ToolContext) -> Result<bool, AdkError> {
        Ok(false)
    }

    /// Runs the tool. A non-object result is wrapped as `{"result": …}` by the agent.
    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError>;

    /// Shapes the next model request before it is sent (ADK's `process_llm_request`); by default
    /// the tool declares itself. Runs for every tool of the agent, in order, on every model call.
    async fn process_llm_request(&self, _ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        request.append_tool(self.declaration());
        Ok(())
    }
}

/// The tool named `name` among `tools`: of two with one name, the later, as ADK's `tools_dict` keeps
/// the last tool registered under a name. One search for every caller (each closure of its own
/// would compile the search again).
pub(crate) fn named<'a>(tools: &'a [Rc<dyn Tool>], name: &str) -> Option<&'a Rc<dyn Tool>> {
    tools.iter().rfind(|t| t.name() == name)
}

/// The schema of a tool whose one argument, `parameter`, is a required string (how ADK declares
/// `load_memory` and an `AgentTool`).
pub(crate) fn one_string_parameter(parameter: &str) -> Value {
    json::object([
        ("type", "object".into()),
        ("properties", json::object([(parameter, json::object([("type", "string".into())]))])),
        ("required", Value::Array(vec![parameter.into()])),
    ])
}

/// The schema of a tool whose one argument, `parameter`, is an optional list of strings (how ADK
/// declares `load_artifacts` and `load_mcp_resource`).
pub(crate) fn string_list_parameter(parameter: &str) -> Value {
    let strings = json::object([("type", "array".into()), ("items", json::object([("type", "string".into())]))]);
    json::object([("type", "object".into()), ("properties", json::object([(parameter, strings)]))])
}

/// The `key` member of each response of `tool` in the request's last content: where
/// `load_artifacts` and `load_mcp_resource` find the names the model asked for (their responses
/// repeat them).
pub(crate) fn asked_in_last_response(request: &LlmRequest, tool: &str, key: &str) -> Vec<Value> {
    let parts = request.contents.last().map(|c| c.parts()).unwrap_or_default();
    let mut asked = Vec::new();
    for r in parts.iter().filter_map(|p| p.function_response.as_ref()) {
        if r.name.as_deref() == Some(tool) {
            asked.extend(r.response.as_ref().and_then(|r| r.get(key)).cloned());
        }
    }
    asked
}

/// The string argument `key` of a call of `tool`, or INVALID_ARGUMENT.
pub(crate) fn string_argument<'a>(args: &'a JsonObject, key: &str, tool: &str) -> Result<&'a str, AdkError> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| AdkError::invalid([tool, ": the argument `", key, "` must be a string"].concat()))
}

/// What a function tool runs.
pub type ToolFunction = Rc<dyn Fn(JsonObject, ToolContext) -> Pin<Box<dyn Future<Output = Result<Value, AdkError>>>>>;

/// A tool made of a function (ADK's `FunctionTool`).
pub struct FunctionTool {
    declaration: FunctionDeclaration,
    long_running: bool,
    require_confirmation: RequireConfirmation,
    function: ToolFunction,
}

impl FunctionTool {
    /// A tool named `name` that runs `function`; `parameters` is the JSON Schema of its arguments.
    pub fn new(name: &str, description: &str, parameters: Option<Value>, function: ToolFunction) -> Self {
        FunctionTool {
            declaration: FunctionDeclaration {
                name: name.into(),
                description: description.into(),
                parameters,
                response: None,
            },
            long_running: false,
            require_confirmation: RequireConfirmation::Never,
            function,
        }
    }

    /// Makes its calls (all, or those a predicate picks) wait for the person's approval.
    pub fn require_confirmation(mut self, require: RequireConfirmation) -> Self {
        self.require_confirmation = require;
        self
    }

    /// Marks the tool long-running.
    pub fn long_running(mut self, long_running: bool) -> Self {
        self.long_running = long_running;
        self
    }
}

#[async_trait(?Send)]
impl Tool for FunctionTool {
    fn name(&self) -> &str {
        &self.declaration.name
    }

    fn declaration(&self) -> FunctionDeclaration {
        self.declaration.clone()
    }

    fn is_long_running(&self) -> bool {
        self.long_running
    }

    async fn check_require_confirmation(&self, args: &JsonObject, ctx: &ToolContext) -> Result<bool, AdkError> {
        self.require_confirmation.check(args, ctx).await
    }

    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let required = self.check_require_confirmation(&args, &ctx).await?;
        if let Some(answer) = confirmation::gate(self.name(), required, &ctx)? {
            return Ok(answer);
        }
        (self.function)(args, ctx).await
    }
}

/// ADK's `transfer_to_agent`: hands the conversation to another agent, one of those named (the
/// declaration lists them, so a model cannot make a name up).
pub struct TransferToAgentTool {
    agent_names: Vec<String>,
}

impl TransferToAgentTool {
    /// The tool offering `agent_names`.
    pub fn new(agent_names: Vec<String>) -> Self {
        TransferToAgentTool { agent_names }
    }
}

#[async_trait(?Send)]
impl Tool for TransferToAgentTool {
    fn name(&self) -> &str {
        "transfer_to_agent"
    }

    /// ADK's declaration, to the character (the schema pydantic derives from its Python signature).
    fn declaration(&self) -> FunctionDeclaration {
        let mut schema = json::constant(
            r#"{"properties": {"agent_name": {"title": "Agent Name", "type": "string"}},
                "required": ["agent_name"], "title": "transfer_to_agentParams", "type": "object"}"#,
        );
        let agent_name = schema.get_mut("properties").and_then(|p| p.get_mut("agent_name"));
        if let Some(agent_name) = agent_name.and_then(Value::as_object_mut) {
            let mut names = Vec::with_capacity(self.agent_names.len());
            for n in &self.agent_names {
                names.push(Value::from(n.as_str()));
            }
            agent_name.insert("enum".into(), Value::Array(names));
        }
        FunctionDeclaration {
            name: "transfer_to_agent".into(),
            description: "Transfer the query to another agent.\n\nUse this tool to hand off control to another agent \
                          that is more suitable to\nanswer the user's query according to the agent's description.\n\n\
                          Args:\n  agent_name: the agent name to transfer to."
                .into(),
            parameters: Some(schema),
            response: None,
        }
    }

    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let agent_name = string_argument(&args, "agent_name", self.name())?;
        ctx.with_actions(|a| a.transfer_to_agent = Some(agent_name.to_string()));
        Ok(Value::Null)
    }
}

/// ADK's `exit_loop`: ends the enclosing `LoopAgent` (escalate, and no summary of the call).
pub struct ExitLoopTool;

#[async_trait(?Send)]
impl Tool for ExitLoopTool {
    fn name(&self) -> &str {
        "exit_loop"
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: "exit_loop".into(),
            description: "Exits the loop.\n\nCall this function only when you are instructed to do so.".into(),
            parameters: None,
            response: None,
        }
    }

    async fn run(&self, _args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        ctx.with_actions(|a| {
            a.escalate = Some(true);
            a.skip_summarization = Some(true);
        });
        Ok(Value::Null)
    }
}
