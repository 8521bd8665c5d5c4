//! Plugins for JS: one written in JS (`class P extends BasePlugin`) has each hook it overrides
//! called as `@google/adk` calls it (`{callbackContext, llmRequest}`, `{tool, toolArgs,
//! toolContext}`, …); the ones it does not override cost nothing. And the ready-made
//! `GlobalInstructionPlugin`, in Rust.

use std::rc::Rc;

use async_trait::async_trait;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{prop, to_js_core};
use super::hook::{Args, JsHook};
use super::in_place::InPlace;
use super::llm::{instruction, tool_info};
use super::to_js_error;
use crate::agent::{CallbackContext, InvocationContext, Plugin, ToolContext};
use crate::model::LlmRequest;
use crate::plugins::GlobalInstructionPlugin;
use crate::types::{Content, JsonObject};
use crate::{AdkError, Event, LlmResponse};

/// The hooks, as `@google/adk`'s `BasePlugin` names them; a plugin's are kept in this order.
const HOOKS: [&str; 12] = [
    "onUserMessageCallback",
    "beforeRunCallback",
    "onEventCallback",
    "afterRunCallback",
    "beforeAgentCallback",
    "afterAgentCallback",
    "beforeModelCallback",
    "afterModelCallback",
    "onModelErrorCallback",
    "beforeToolCallback",
    "afterToolCallback",
    "onToolErrorCallback",
];

/// A plugin for a runner's `plugins`.
#[wasm_bindgen]
pub struct PluginHandle {
    plugin: Rc<dyn Plugin>,
}

impl PluginHandle {
    /// The plugin.
    pub fn plugin(&self) -> Rc<dyn Plugin> {
        self.plugin.clone()
    }
}

#[wasm_bindgen]
impl PluginHandle {
    /// A plugin by kind, one export for both: one written in JS (0: its `name`, and `value`, the
    /// hooks it overrides, bound to it), or ADK's `GlobalInstructionPlugin` (1: `value` the
    /// instruction, a template or a function of the context, first in every model request's
    /// system instruction).
    pub fn make(kind: u32, name: String, value: JsValue) -> Result<PluginHandle, JsValue> {
        let plugin: Rc<dyn Plugin> = match kind {
            0 => {
                let hooks = HOOKS.map(|hook| prop(&value, hook).dyn_into().ok().map(|f| JsHook::new(f, hook)));
                Rc::new(JsPlugin { name, hooks })
            }
            _ => {
                let instruction = instruction(&value, "GlobalInstructionPlugin").map_err(to_js_error)?;
                Rc::new(GlobalInstructionPlugin::new(instruction).named(&name))
            }
        };
        Ok(PluginHandle { plugin })
    }
}

struct JsPlugin {
    name: String,
    hooks: [Option<JsHook>; 12],
}

impl JsPlugin {
    /// The hook `HOOKS[index]`, if the plugin overrides it.
    fn hook(&self, index: usize) -> Option<&JsHook> {
        self.hooks.get(index)?.as_ref()
    }
}

/// A runner-level hook's context: the run's, lent as a `Context` (`invocationContext`).
fn run_context(ctx: &InvocationContext) -> CallbackContext {
    CallbackContext::new(ctx.clone())
}

#[async_trait(?Send)]
impl Plugin for JsPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    async fn on_user_message(&self, ctx: &InvocationContext, message: &Content) -> Result<Option<Content>, AdkError> {
        let Some(hook) = self.hook(0) else { return Ok(None) };
        let fields = [("userMessage", to_js_core(message)?)];
        hook.answer(run_context(ctx), Args::Params("invocationContext", &fields)).await
    }

    async fn before_run(&self, ctx: &InvocationContext) -> Result<Option<Content>, AdkError> {
        let Some(hook) = self.hook(1) else { return Ok(None) };
        hook.answer(run_context(ctx), Args::Params("invocationContext", &[])).await
    }

    async fn on_event(&self, ctx: &InvocationContext, event: &Event) -> Result<Option<Event>, AdkError> {
        let Some(hook) = self.hook(2) else { return Ok(None) };
        let fields = [("event", to_js_core(event)?)];
        hook.answer(run_context(ctx), Args::Params("invocationContext", &fields)).await
    }

    async fn after_run(&self, ctx: &InvocationContext) -> Result<(), AdkError> {
        if let Some(hook) = self.hook(3) {
            hook.call(run_context(ctx), Args::Params("invocationContext", &[])).await?;
        }
        Ok(())
    }

    async fn before_agent(&self, ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        let Some(hook) = self.hook(4) else { return Ok(None) };
        let fields = [("agent", tool_info(ctx.agent_name()))];
        hook.answer(ctx.clone(), Args::Params("callbackContext", &fields)).await
    }

    async fn after_agent(&self, ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        let Some(hook) = self.hook(5) else { return Ok(None) };
        let fields = [("agent", tool_info(ctx.agent_name()))];
        hook.answer(ctx.clone(), Args::Params("callbackContext", &fields)).await
    }

    /// The request is lent to JS, and read back only if the hook changed it.
    async fn before_model(
        &self,
        ctx: &CallbackContext,
        request: &mut LlmRequest,
    ) -> Result<Option<LlmResponse>, AdkError> {
        let Some(hook) = self.hook(6) else { return Ok(None) };
        let lent = InPlace::new(request)?;
        let answer = hook.answer(ctx.clone(), Args::Params("callbackContext", &[("llmRequest", lent.js())])).await?;
        *request = lent.read_back(std::mem::take(request), "llmRequest after beforeModelCallback")?;
        Ok(answer)
    }

    async fn after_model(
        &self,
        ctx: &CallbackContext,
        response: &LlmResponse,
    ) -> Result<Option<LlmResponse>, AdkError> {
        let Some(hook) = self.hook(7) else { return Ok(None) };
        let fields = [("llmResponse", to_js_core(response)?)];
        hook.answer(ctx.clone(), Args::Params("callbackContext", &fields)).await
    }

    async fn on_model_error(
        &self,
        ctx: &CallbackContext,
        request: &LlmRequest,
        error: &AdkError,
    ) -> Result<Option<LlmResponse>, AdkError> {
        let Some(hook) = self.hook(8) else { return Ok(None) };
        let fields = [("llmRequest", to_js_core(request)?), ("error", to_js_error(error.clone()))];
        hook.answer(ctx.clone(), Args::Params("callbackContext", &fields)).await
    }

    /// The arguments are lent to JS, and read back only if the hook changed them.
    async fn before_tool(
        &self,
        tool: &str,
        args: &mut JsonObject,
        ctx: &ToolContext,
    ) -> Result<Option<Value>, AdkError> {
        let Some(hook) = self.hook(9) else { return Ok(None) };
        let lent = InPlace::new(args)?;
        let fields = [("tool", tool_info(tool)), ("toolArgs", lent.js())];
        let answer = hook.answer(ctx.clone(), Args::Params("toolContext", &fields)).await?;
        *args = lent.read_back(std::mem::take(args), "toolArgs after beforeToolCallback")?;
        Ok(answer)
    }

    async fn after_tool(
        &self,
        tool: &str,
        args: &JsonObject,
        ctx: &ToolContext,
        result: &Value,
    ) -> Result<Option<Value>, AdkError> {
        let Some(hook) = self.hook(10) else { return Ok(None) };
        let fields = [("tool", tool_info(tool)), ("toolArgs", to_js_core(args)?), ("result", to_js_core(result)?)];
        hook.answer(ctx.clone(), Args::Params("toolContext", &fields)).await
    }

    async fn on_tool_error(
        &self,
        tool: &str,
        args: &JsonObject,
        ctx: &ToolContext,
        error: &AdkError,
    ) -> Result<Option<Value>, AdkError> {
        let Some(hook) = self.hook(11) else { return Ok(None) };
        let fields =
            [("tool", tool_info(tool)), ("toolArgs", to_js_core(args)?), ("error", to_js_error(error.clone()))];
        hook.answer(ctx.clone(), Args::Params("toolContext", &fields)).await
    }
}
