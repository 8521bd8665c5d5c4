//! ADK's `PluginManager`: the runner's plugins, run in the order they were registered.

use std::rc::Rc;

use serde_json::Value;

use super::Plugin;
use crate::agent::{CallbackContext, InvocationContext, ToolContext};
use crate::model::LlmRequest;
use crate::types::{Content, JsonObject};
use crate::{AdkError, Event, LlmResponse};

/// The plugins of a runner, shared by every invocation it starts (and by the runs of its agent
/// tools, as ADK's `AgentTool` passes its parent's plugins on). Each `run_*` calls one hook of
/// every plugin in order until one answers, and returns that answer.
#[derive(Clone, Default)]
pub struct PluginManager {
    plugins: Rc<[Rc<dyn Plugin>]>,
}

/// A hook's error, named as ADK names it (`Error in plugin 'x' during 'before_model_callback'
/// callback: …`); its code stays the hook's.
fn failed(plugin: &dyn Plugin, hook: &str, error: AdkError) -> AdkError {
    let message = ["Error in plugin '", plugin.name(), "' during '", hook, "' callback: ", &error.message].concat();
    AdkError { message, ..error }
}

impl PluginManager {
    /// The plugins, in order; two with one name are refused (`INVALID_ARGUMENT`), as ADK refuses them.
    pub fn new(plugins: Vec<Rc<dyn Plugin>>) -> Result<Self, AdkError> {
        for (i, plugin) in plugins.iter().enumerate() {
            if plugins.iter().take(i).any(|p| p.name() == plugin.name()) {
                return Err(AdkError::invalid(format!("Plugin with name '{}' already registered.", plugin.name())));
            }
        }
        Ok(PluginManager { plugins: plugins.into() })
    }

    /// The plugins, in order.
    pub fn plugins(&self) -> &[Rc<dyn Plugin>] {
        &self.plugins
    }

    /// The plugin named `name`.
    pub fn get_plugin(&self, name: &str) -> Option<&Rc<dyn Plugin>> {
        self.plugins.iter().find(|p| p.name() == name)
    }

    /// Whether there are no plugins (the runner then skips its plugin steps entirely).
    pub fn is_empty(&self) -> bool {
        self.plugins.is_empty()
    }

    /// `on_user_message` of each plugin until one replaces the message.
    pub async fn run_on_user_message(
        &self,
        ctx: &InvocationContext,
        message: &Content,
    ) -> Result<Option<Content>, AdkError> {
        for p in self.plugins.iter() {
            let answer =
                p.on_user_message(ctx, message).await.map_err(|e| failed(&**p, "on_user_message_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `before_run` of each plugin until one answers.
    pub async fn run_before_run(&self, ctx: &InvocationContext) -> Result<Option<Content>, AdkError> {
        for p in self.plugins.iter() {
            let answer = p.before_run(ctx).await.map_err(|e| failed(&**p, "before_run_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `on_event` of each plugin until one replaces the event.
    pub async fn run_on_event(&self, ctx: &InvocationContext, event: &Event) -> Result<Option<Event>, AdkError> {
        for p in self.plugins.iter() {
            let answer = p.on_event(ctx, event).await.map_err(|e| failed(&**p, "on_event_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `after_run` of every plugin.
    pub async fn run_after_run(&self, ctx: &InvocationContext) -> Result<(), AdkError> {
        for p in self.plugins.iter() {
            p.after_run(ctx).await.map_err(|e| failed(&**p, "after_run_callback", e))?;
        }
        Ok(())
    }

    /// `before_agent` (or, `before` false, `after_agent`) of each plugin until one answers.
    pub async fn run_agent_hook(&self, ctx: &CallbackContext, before: bool) -> Result<Option<Content>, AdkError> {
        for p in self.plugins.iter() {
            let answer = if before {
                p.before_agent(ctx).await.map_err(|e| failed(&**p, "before_agent_callback", e))?
            } else {
                p.after_agent(ctx).await.map_err(|e| failed(&**p, "after_agent_callback", e))?
            };
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `before_model` of each plugin until one answers; each sees the request as the ones before
    /// left it.
    pub async fn run_before_model(
        &self,
        ctx: &CallbackContext,
        request: &mut LlmRequest,
    ) -> Result<Option<LlmResponse>, AdkError> {
        for p in self.plugins.iter() {
            let answer = p.before_model(ctx, request).await.map_err(|e| failed(&**p, "before_model_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `after_model` of each plugin until one replaces the response.
    pub async fn run_after_model(
        &self,
        ctx: &CallbackContext,
        response: &LlmResponse,
    ) -> Result<Option<LlmResponse>, AdkError> {
        for p in self.plugins.iter() {
            let answer = p.after_model(ctx, response).await.map_err(|e| failed(&**p, "after_model_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `on_model_error` of each plugin until one answers with a response.
    pub async fn run_on_model_error(
        &self,
        ctx: &CallbackContext,
        request: &LlmRequest,
        error: &AdkError,
    ) -> Result<Option<LlmResponse>, AdkError> {
        for p in self.plugins.iter() {
            let answer =
                p.on_model_error(ctx, request, error).await.map_err(|e| failed(&**p, "on_model_error_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `before_tool` of each plugin until one answers with a result; each sees the arguments as
    /// the ones before left them.
    pub async fn run_before_tool(
        &self,
        tool: &str,
        args: &mut JsonObject,
        ctx: &ToolContext,
    ) -> Result<Option<Value>, AdkError> {
        for p in self.plugins.iter() {
            let answer = p.before_tool(tool, args, ctx).await.map_err(|e| failed(&**p, "before_tool_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `after_tool` of each plugin until one replaces the result.
    pub async fn run_after_tool(
        &self,
        tool: &str,
        args: &JsonObject,
        ctx: &ToolContext,
        result: &Value,
    ) -> Result<Option<Value>, AdkError> {
        for p in self.plugins.iter() {
            let answer =
                p.after_tool(tool, args, ctx, result).await.map_err(|e| failed(&**p, "after_tool_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }

    /// `on_tool_error` of each plugin until one answers with a result.
    pub async fn run_on_tool_error(
        &self,
        tool: &str,
        args: &JsonObject,
        ctx: &ToolContext,
        error: &AdkError,
    ) -> Result<Option<Value>, AdkError> {
        for p in self.plugins.iter() {
            let answer =
                p.on_tool_error(tool, args, ctx, error).await.map_err(|e| failed(&**p, "on_tool_error_callback", e))?;
            if answer.is_some() {
                return Ok(answer);
            }
        }
        Ok(None)
    }
}
