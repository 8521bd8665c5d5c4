//! ADK's `PluginManager`: the runner's plugins, run in the order they were registered.

use std::future::Future;
use std::pin::Pin;
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

/// A hook run's answer. Boxed: each call site in the agents' loops holds a pointer instead of the
/// loop over the plugins (inlined into those loops, it grew the download by several KiB).
pub type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, AdkError>> + 'a>>;

/// One hook of a plugin, as [`PluginManager::first`] calls it: a trait of its own, not `dyn Fn`,
/// whose vtable would carry a `call_once` shim per hook that nothing calls.
trait Hook<'a, T> {
    fn ask(&self, plugin: &'a dyn Plugin) -> Answer<'a, Option<T>>;
}

impl<'a, T, F: Fn(&'a dyn Plugin) -> Answer<'a, Option<T>>> Hook<'a, T> for F {
    fn ask(&self, plugin: &'a dyn Plugin) -> Answer<'a, Option<T>> {
        self(plugin)
    }
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

    /// `call` on each plugin until one answers, errors named after the plugin and `hook` (the
    /// loop is [`Self::first_of`]).
    fn first<'a, T: 'a>(
        &'a self,
        hook: &'static str,
        call: impl Fn(&'a dyn Plugin) -> Answer<'a, Option<T>> + 'a,
    ) -> Answer<'a, Option<T>> {
        self.first_of(hook, Box::new(call))
    }

    /// The loop of [`Self::first`], `call` boxed: one copy per answer type rather than per hook,
    /// for the download.
    fn first_of<'a, T: 'a>(&'a self, hook: &'static str, call: Box<dyn Hook<'a, T> + 'a>) -> Answer<'a, Option<T>> {
        Box::pin(async move {
            for p in self.plugins.iter() {
                let answer = call.ask(&**p).await.map_err(|e| failed(&**p, hook, e))?;
                if answer.is_some() {
                    return Ok(answer);
                }
            }
            Ok(None)
        })
    }

    /// `on_user_message` of each plugin until one replaces the message.
    pub fn run_on_user_message<'a>(
        &'a self,
        ctx: &'a InvocationContext,
        message: &'a Content,
    ) -> Answer<'a, Option<Content>> {
        self.first("on_user_message_callback", move |p| p.on_user_message(ctx, message))
    }

    /// `before_run` of each plugin until one answers.
    pub fn run_before_run<'a>(&'a self, ctx: &'a InvocationContext) -> Answer<'a, Option<Content>> {
        self.first("before_run_callback", move |p| p.before_run(ctx))
    }

    /// `on_event` of each plugin until one replaces the event.
    pub fn run_on_event<'a>(&'a self, ctx: &'a InvocationContext, event: &'a Event) -> Answer<'a, Option<Event>> {
        self.first("on_event_callback", move |p| p.on_event(ctx, event))
    }

    /// `after_run` of every plugin.
    pub fn run_after_run<'a>(&'a self, ctx: &'a InvocationContext) -> Answer<'a, ()> {
        Box::pin(async move {
            for p in self.plugins.iter() {
                p.after_run(ctx).await.map_err(|e| failed(&**p, "after_run_callback", e))?;
            }
            Ok(())
        })
    }

    /// `before_agent` (or, `before` false, `after_agent`) of each plugin until one answers.
    pub fn run_agent_hook<'a>(&'a self, ctx: &'a CallbackContext, before: bool) -> Answer<'a, Option<Content>> {
        match before {
            true => self.first("before_agent_callback", move |p| p.before_agent(ctx)),
            false => self.first("after_agent_callback", move |p| p.after_agent(ctx)),
        }
    }

    /// `before_model` of each plugin until one answers; each sees the request as the ones before
    /// left it.
    pub fn run_before_model<'a>(
        &'a self,
        ctx: &'a CallbackContext,
        request: &'a mut LlmRequest,
    ) -> Answer<'a, Option<LlmResponse>> {
        Box::pin(async move {
            for p in self.plugins.iter() {
                let answer =
                    p.before_model(ctx, request).await.map_err(|e| failed(&**p, "before_model_callback", e))?;
                if answer.is_some() {
                    return Ok(answer);
                }
            }
            Ok(None)
        })
    }

    /// `after_model` of each plugin until one replaces the response.
    pub fn run_after_model<'a>(
        &'a self,
        ctx: &'a CallbackContext,
        response: &'a LlmResponse,
    ) -> Answer<'a, Option<LlmResponse>> {
        self.first("after_model_callback", move |p| p.after_model(ctx, response))
    }

    /// `on_model_error` of each plugin until one answers with a response.
    pub fn run_on_model_error<'a>(
        &'a self,
        ctx: &'a CallbackContext,
        request: &'a LlmRequest,
        error: &'a AdkError,
    ) -> Answer<'a, Option<LlmResponse>> {
        self.first("on_model_error_callback", move |p| p.on_model_error(ctx, request, error))
    }

    /// `before_tool` of each plugin until one answers with a result; each sees the arguments as
    /// the ones before left them.
    pub fn run_before_tool<'a>(
        &'a self,
        tool: &'a str,
        args: &'a mut JsonObject,
        ctx: &'a ToolContext,
    ) -> Answer<'a, Option<Value>> {
        Box::pin(async move {
            for p in self.plugins.iter() {
                let answer =
                    p.before_tool(tool, args, ctx).await.map_err(|e| failed(&**p, "before_tool_callback", e))?;
                if answer.is_some() {
                    return Ok(answer);
                }
            }
            Ok(None)
        })
    }

    /// `after_tool` of each plugin until one replaces the result.
    pub fn run_after_tool<'a>(
        &'a self,
        tool: &'a str,
        args: &'a JsonObject,
        ctx: &'a ToolContext,
        result: &'a Value,
    ) -> Answer<'a, Option<Value>> {
        self.first("after_tool_callback", move |p| p.after_tool(tool, args, ctx, result))
    }

    /// `on_tool_error` of each plugin until one answers with a result.
    pub fn run_on_tool_error<'a>(
        &'a self,
        tool: &'a str,
        args: &'a JsonObject,
        ctx: &'a ToolContext,
        error: &'a AdkError,
    ) -> Answer<'a, Option<Value>> {
        self.first("on_tool_error_callback", move |p| p.on_tool_error(tool, args, ctx, error))
    }
}
