//! Plugins (ADK's `BasePlugin`): hooks the runner, every agent, model call and tool call of a run
//! go through, whichever agent of the tree they belong to. Agents' own callbacks apply to one
//! agent; a plugin applies to all of them, and is consulted first.
//!
//! Each hook may answer (`Some`): the first plugin that does stops the plugins after it and, at
//! the agent, model and tool hooks, the agent's own callbacks too ([`PluginManager`]). The
//! concrete plugins (`LoggingPlugin`, `GlobalInstructionPlugin`) are in `crate::plugins`.

mod manager;

use async_trait::async_trait;
use serde_json::Value;

use super::{CallbackContext, InvocationContext, ToolContext};
use crate::model::LlmRequest;
use crate::types::{Content, JsonObject};
use crate::{AdkError, Event, LlmResponse};

pub use manager::PluginManager;

/// A plugin (ADK's `BasePlugin`): a name unique among the runner's plugins, and any of the hooks;
/// the others do nothing. A hook's error ends the run, named after the plugin and the hook.
#[async_trait(?Send)]
pub trait Plugin {
    /// The name, unique among a runner's plugins.
    fn name(&self) -> &str;

    /// A user message arrived, before anything is stored: an answer replaces the message.
    async fn on_user_message(&self, _ctx: &InvocationContext, _message: &Content) -> Result<Option<Content>, AdkError> {
        Ok(None)
    }

    /// The run is about to start its agent: an answer ends the run with it, as the only event
    /// (authored `model`, as ADK's).
    async fn before_run(&self, _ctx: &InvocationContext) -> Result<Option<Content>, AdkError> {
        Ok(None)
    }

    /// The run produced `event`, before it is stored and yielded: an answer replaces it (its id,
    /// invocation and timestamp stay the original's).
    async fn on_event(&self, _ctx: &InvocationContext, _event: &Event) -> Result<Option<Event>, AdkError> {
        Ok(None)
    }

    /// The run finished without an error.
    async fn after_run(&self, _ctx: &InvocationContext) -> Result<(), AdkError> {
        Ok(())
    }

    /// An agent (`ctx.agent_name()`) is about to run: an answer is its reply instead.
    async fn before_agent(&self, _ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        Ok(None)
    }

    /// An agent finished: an answer is added as its reply.
    async fn after_agent(&self, _ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        Ok(None)
    }

    /// A model call is about to be made with `request`, which the hook may change: an answer is
    /// used instead of calling the model (and the after-model hooks are skipped, as in ADK).
    async fn before_model(
        &self,
        _ctx: &CallbackContext,
        _request: &mut LlmRequest,
    ) -> Result<Option<LlmResponse>, AdkError> {
        Ok(None)
    }

    /// The model answered: an answer replaces the response.
    async fn after_model(
        &self,
        _ctx: &CallbackContext,
        _response: &LlmResponse,
    ) -> Result<Option<LlmResponse>, AdkError> {
        Ok(None)
    }

    /// The model call failed: an answer is used as the response instead.
    async fn on_model_error(
        &self,
        _ctx: &CallbackContext,
        _request: &LlmRequest,
        _error: &AdkError,
    ) -> Result<Option<LlmResponse>, AdkError> {
        Ok(None)
    }

    /// The tool named `tool` is about to run with `args`, which the hook may change: an answer is
    /// the tool's result instead.
    async fn before_tool(
        &self,
        _tool: &str,
        _args: &mut JsonObject,
        _ctx: &ToolContext,
    ) -> Result<Option<Value>, AdkError> {
        Ok(None)
    }

    /// The tool returned `result`: an answer replaces it.
    async fn after_tool(
        &self,
        _tool: &str,
        _args: &JsonObject,
        _ctx: &ToolContext,
        _result: &Value,
    ) -> Result<Option<Value>, AdkError> {
        Ok(None)
    }

    /// The tool failed: an answer is its result instead of the error.
    async fn on_tool_error(
        &self,
        _tool: &str,
        _args: &JsonObject,
        _ctx: &ToolContext,
        _error: &AdkError,
    ) -> Result<Option<Value>, AdkError> {
        Ok(None)
    }
}
