//! `LlmAgent`: an agent whose turns come from a model, with tools and transfers (ADK's `LlmAgent`
//! with its `AutoFlow`).

mod auth;
mod call_tool;
mod callbacks;
mod code_execution;
mod compaction;
mod confirmation;
mod contents;
mod flow;
mod functions;
mod instructions;
mod output_schema;
mod plan_re_act;
mod planner;
mod rearrange;
mod toolset_auth;

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use crate::agent::{Agent, AgentCore, CallbackContext, EventStream, InvocationContext, ReadonlyContext};
use crate::model::BaseLlm;
use crate::tool::ToolUnion;
use crate::types::{Content, JsonObject};
use crate::AdkError;

pub use crate::python_repr::{python_json, python_str};
pub use call_tool::call_tool;
pub use callbacks::{
    AfterModelCallback, AfterToolCallback, BeforeModelCallback, BeforeToolCallback, ModelErrorCallback,
    ToolErrorCallback,
};
pub use code_execution::BuiltInCodeExecutor;
pub(crate) use compaction::{apply_compaction, compaction_ranges, summary_events};
pub use contents::build_contents;
pub use instructions::inject_session_state;
pub use planner::Planner;

/// A dynamic instruction: called with a read-only context each turn; its text is used as it is
/// (no `{key}` templating, as in ADK).
pub type InstructionProvider = Rc<dyn Fn(ReadonlyContext) -> Pin<Box<dyn Future<Output = Result<String, AdkError>>>>>;

/// An instruction: a template filled from state, or a provider.
#[derive(Clone, Default)]
pub enum Instruction {
    /// No instruction.
    #[default]
    None,
    /// A template with `{key}` placeholders.
    Text(String),
    /// Computed each turn.
    Provider(InstructionProvider),
}

impl Instruction {
    /// The instruction's text this turn: a template filled from the state, or what the provider
    /// returns; `None` for none (an empty template is none).
    pub async fn resolve(&self, ctx: &CallbackContext) -> Result<Option<String>, AdkError> {
        match self {
            Instruction::None => Ok(None),
            Instruction::Text(t) if t.is_empty() => Ok(None),
            Instruction::Text(template) => inject_session_state(template, ctx).await.map(Some),
            Instruction::Provider(f) => f(ReadonlyContext::clone(ctx)).await.map(Some),
        }
    }
}

/// Which history the model sees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IncludeContents {
    /// The session's history visible on the agent's branch.
    #[default]
    Default,
    /// Only the current turn.
    None,
}

/// How an `LlmAgent` behaves.
#[derive(Clone)]
pub struct LlmAgentConfig {
    /// The model.
    pub model: Rc<dyn BaseLlm>,
    /// The agent's instruction.
    pub instruction: Instruction,
    /// For every LLM agent of the tree; taken from the root agent.
    pub global_instruction: Instruction,
    /// Sent first in the system instruction, never templated; the `instruction` then goes to the end
    /// of the contents as user content (so the static part can be cached).
    pub static_instruction: Option<Content>,
    /// The tools and toolsets, in the order declared (ADK's `tools`).
    pub tools: Vec<ToolUnion>,
    /// Saves the final text to this state key (with an `output_schema`, the value it holds).
    pub output_key: Option<String>,
    /// The JSON Schema of the agent's answer (ADK's `output_schema`): the model is asked for JSON
    /// of it, through the `set_model_response` tool when the agent has tools.
    pub output_schema: Option<JsonObject>,
    /// The JSON Schema of what the agent takes as an `AgentTool` (ADK's `input_schema`): the
    /// tool is declared with it, and passes the call's arguments as their JSON.
    pub input_schema: Option<JsonObject>,
    /// Which history the model sees.
    pub include_contents: IncludeContents,
    /// Generation settings passed to the model (`temperature`, …).
    pub generate_content_config: JsonObject,
    /// The model runs the code it writes (ADK's `code_executor`; the built-in one is the only kind).
    pub code_executor: Option<BuiltInCodeExecutor>,
    /// How the agent plans: the model's own thinking, or Plan-ReAct's tagged text (ADK's `planner`).
    pub planner: Option<Planner>,
    /// The agent may not hand the conversation back to its parent.
    pub disallow_transfer_to_parent: bool,
    /// The agent may not hand the conversation to its siblings.
    pub disallow_transfer_to_peers: bool,
    /// Before each model call.
    pub before_model_callbacks: Vec<BeforeModelCallback>,
    /// After each model response (partial ones included).
    pub after_model_callbacks: Vec<AfterModelCallback>,
    /// When the model call fails.
    pub on_model_error_callbacks: Vec<ModelErrorCallback>,
    /// Before each tool call.
    pub before_tool_callbacks: Vec<BeforeToolCallback>,
    /// After each tool call.
    pub after_tool_callbacks: Vec<AfterToolCallback>,
    /// When a tool fails.
    pub on_tool_error_callbacks: Vec<ToolErrorCallback>,
}

impl LlmAgentConfig {
    /// A config with `model` and nothing else.
    pub fn new(model: Rc<dyn BaseLlm>) -> Self {
        LlmAgentConfig {
            model,
            instruction: Instruction::None,
            global_instruction: Instruction::None,
            static_instruction: None,
            tools: Vec::new(),
            output_key: None,
            output_schema: None,
            input_schema: None,
            include_contents: IncludeContents::Default,
            generate_content_config: JsonObject::new(),
            code_executor: None,
            planner: None,
            disallow_transfer_to_parent: false,
            disallow_transfer_to_peers: false,
            before_model_callbacks: Vec::new(),
            after_model_callbacks: Vec::new(),
            on_model_error_callbacks: Vec::new(),
            before_tool_callbacks: Vec::new(),
            after_tool_callbacks: Vec::new(),
            on_tool_error_callbacks: Vec::new(),
        }
    }
}

/// ADK's checks of an agent's generation settings: the tools, the system instruction and the
/// response schema have their own options (a copy here would be overwritten, or sent twice);
/// labels are fine and are sent with the one ADK adds.
pub fn validate_generate_content_config(config: &JsonObject) -> Result<(), AdkError> {
    if config.contains_key("tools") {
        return Err(AdkError::invalid(
            "All tools must be set via LlmAgent.tools, not via generateContentConfig.tools. Move your tools to the \
             LlmAgent({tools: [...]}) option.",
        ));
    }
    if config.contains_key("systemInstruction") || config.contains_key("system_instruction") {
        return Err(AdkError::invalid(
            "System instruction must be set via LlmAgent.instruction, not via generateContentConfig.systemInstruction. \
             Move your instruction to LlmAgent({instruction: '...'}).",
        ));
    }
    if config.contains_key("responseSchema") || config.contains_key("response_schema") {
        return Err(AdkError::invalid(
            "Response schema must be set via LlmAgent.outputSchema, not via generateContentConfig.responseSchema. \
             Move your schema to LlmAgent({outputSchema: {...}}).",
        ));
    }
    Ok(())
}

/// An agent driven by a model (ADK's `LlmAgent`).
pub struct LlmAgent {
    core: AgentCore,
    config: LlmAgentConfig,
}

impl LlmAgent {
    /// A new LLM agent.
    pub fn new(core: AgentCore, config: LlmAgentConfig) -> Self {
        LlmAgent { core, config }
    }

    /// Its configuration.
    pub fn config(&self) -> &LlmAgentConfig {
        &self.config
    }
}

impl Agent for LlmAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        flow::run(self, ctx)
    }

    fn disallow_transfer_to_parent(&self) -> Option<bool> {
        Some(self.config.disallow_transfer_to_parent)
    }
}

/// The input schema of an agent offered as a tool (ADK's `_get_input_schema`): an LLM agent's
/// own; a workflow's, its first sub-agent's.
pub(crate) fn input_schema(agent: &dyn Agent) -> Option<JsonObject> {
    match as_llm_agent(agent) {
        Some(llm) => llm.config.input_schema.clone().filter(|s| !s.is_empty()),
        None => input_schema(&*agent.sub_agents().into_iter().next()?),
    }
}

/// The output schema of an agent offered as a tool (ADK's `_get_output_schema`): an LLM agent's
/// own; a workflow's, its last sub-agent's.
pub(crate) fn output_schema(agent: &dyn Agent) -> Option<JsonObject> {
    match as_llm_agent(agent) {
        Some(llm) => output_schema::schema(&llm.config).cloned(),
        None => output_schema(&*agent.sub_agents().pop()?),
    }
}

/// `agent` as an `LlmAgent`, if it is one (transfers need peers' and parents' settings).
pub(crate) fn as_llm_agent(agent: &dyn Agent) -> Option<&LlmAgent> {
    agent.as_any().downcast_ref()
}
