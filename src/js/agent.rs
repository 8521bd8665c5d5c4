//! Agents for JS: the workflow agents, agents written in JS, and JS callbacks.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use adk_core::json;
use adk_core::limits::Limit;
use futures_util::StreamExt;

use super::context::JsContext;
use super::convert::{call, json_text_within, number_arg};
use super::hook::{Args, JsHook};
use super::sys::{AgentOptions, JsAgentObject};
use super::to_js_error;
use crate::agent::{
    add_sub_agent, agent_event, Agent, AgentCallback, AgentCore, CallbackContext, EventStream, InvocationContext,
    LoopAgent, ParallelAgent, SequentialAgent,
};
use crate::platform::iter::JsStream;
use crate::types::{Content, Part};
use crate::{AdkError, Event};

#[wasm_bindgen(module = "/src/js/agent.js")]
extern "C" {
    /// A one-text event's role and text (see the file); `undefined` for any other.
    #[wasm_bindgen(js_name = textEvent)]
    fn text_event(event: &JsValue, max: f64) -> Option<js_sys::Array>;
}

/// A handle on an agent of the tree; the JS classes (`SequentialAgent`, …) hold one.
#[wasm_bindgen]
pub struct AgentHandle {
    agent: Rc<dyn Agent>,
}

impl AgentHandle {
    /// The agent.
    pub fn agent(&self) -> Rc<dyn Agent> {
        self.agent.clone()
    }

    /// A handle on `agent`.
    pub(super) fn wrap(agent: Rc<dyn Agent>) -> Self {
        AgentHandle { agent }
    }
}

/// Reads `name`, `description` and the callbacks from an options object.
pub(super) fn core_from(options: &AgentOptions) -> Result<AgentCore, AdkError> {
    let name = options.name().as_string().ok_or_else(|| AdkError::invalid("agent options: name: expected a string"))?;
    let description = options.description().as_string().unwrap_or_default();
    Ok(AgentCore::new(&name, &description)?
        .with_before_agent_callbacks(callbacks(&options.before_agent_callback(), "beforeAgentCallback")?)
        .with_after_agent_callbacks(callbacks(&options.after_agent_callback(), "afterAgentCallback")?))
}

/// A JS function, or an array of them, as agent callbacks: each a [`JsHook`] given the `Context`,
/// answering `Content` or nothing.
fn callbacks(value: &JsValue, what: &'static str) -> Result<Vec<AgentCallback>, AdkError> {
    let mut callbacks: Vec<AgentCallback> = Vec::new();
    for hook in JsHook::list(value, what)? {
        callbacks.push(Rc::new(move |ctx: CallbackContext| {
            let hook = hook.clone();
            Box::pin(async move { hook.answer::<Content>(ctx, Args::Context).await }) as crate::agent::CallbackFuture
        }));
    }
    Ok(callbacks)
}

#[wasm_bindgen]
impl AgentHandle {
    /// An agent by kind, from `{name, description?, beforeAgentCallback?, afterAgentCallback?}`: a
    /// workflow agent, `SequentialAgent` (0), `ParallelAgent` (1) or `LoopAgent` (2, with
    /// `maxIterations` too), or an agent written in JS (3: `object`, see [`Self::from_js`]); one
    /// export for the four, as each export costs a shim.
    pub fn make(kind: u32, options: JsValue, object: JsValue) -> Result<AgentHandle, JsValue> {
        if kind == 3 {
            // As wasm-bindgen took a `JsAgentObject` parameter: unchecked (index.js passes the agent).
            return AgentHandle::from_js(object.unchecked_into(), options);
        }
        let options = AgentOptions::new(options);
        let core = core_from(&options).map_err(to_js_error)?;
        let agent: Rc<dyn Agent> = match kind {
            0 => Rc::new(SequentialAgent::new(core)),
            1 => Rc::new(ParallelAgent::new(core)),
            _ => {
                let max = match number_arg(&options.max_iterations(), "maxIterations: expected a number")
                    .map_err(to_js_error)?
                {
                    Some(m) if m >= 0.0 && m.fract() == 0.0 && m <= f64::from(u32::MAX) => Some(m as u32),
                    Some(_) => {
                        return Err(to_js_error(AdkError::invalid("maxIterations: expected a whole number ≥ 0")))
                    }
                    None => None,
                };
                Rc::new(LoopAgent::new(core, max))
            }
        };
        Ok(AgentHandle { agent })
    }

    /// Adds `child` as the next sub-agent.
    #[wasm_bindgen(js_name = addSubAgent)]
    pub fn add_sub_agent(&self, child: &AgentHandle) -> Result<(), JsValue> {
        add_sub_agent(&self.agent, child.agent.clone()).map_err(to_js_error)
    }
}

impl AgentHandle {
    /// An agent written in JS: `object.runAsyncImpl(ctx)` (or `runAsync`, or `object(ctx)` for a
    /// function) returns an async iterable of events. `options` gives name, description, callbacks.
    fn from_js(object: JsAgentObject, options: JsValue) -> Result<AgentHandle, JsValue> {
        let core = core_from(&AgentOptions::new(options)).map_err(to_js_error)?;
        let Some(run) = object.run_function() else {
            return Err(to_js_error(AdkError::invalid(format!(
                "agent `{}`: expected runAsyncImpl(ctx) returning an async iterable of events",
                core.name()
            ))));
        };
        // A bare generator function is called as a function; a method with its object as `this`.
        let object: JsValue = object.into();
        let this = if object == JsValue::from(run.clone()) { JsValue::UNDEFINED } else { object };
        Ok(AgentHandle { agent: Rc::new(JsAgent { core, this, run }) })
    }
}

/// An agent whose run is a JS (async) generator.
struct JsAgent {
    core: AgentCore,
    /// `this` of the run: the agent object (`undefined` for a bare function).
    this: JsValue,
    run: js_sys::Function,
}

impl JsAgent {
    /// Starts the JS run with `ctx`: its events.
    fn start(&self, ctx: JsValue) -> Result<JsStream, AdkError> {
        JsStream::iterable(&call(&self.run, &self.this, &[ctx])?)?.ok_or_else(|| {
            AdkError::invalid(format!(
                "agent `{}`: runAsyncImpl must return an async iterable of events (write it as `async *runAsyncImpl(ctx)`)",
                self.core.name()
            ))
        })
    }
}

/// An event a JS agent yielded: an object with `author`, `invocationId` and `branch` filled in when
/// missing, plus the state and artifact changes the agent made through its context.
fn yielded_event(value: JsValue, ctx: &CallbackContext) -> Result<Event, AdkError> {
    if !value.is_object() {
        return Err(AdkError::invalid(format!(
            "agent `{}` yielded something that is not an event object",
            ctx.agent_name()
        )));
    }
    let mut event = match text_event_of(&value, ctx) {
        Some(event) => event,
        None => event_from_json(&value, ctx)?,
    };
    let pending = ctx.take_actions();
    for (key, v) in pending.state_delta {
        event.actions.state_delta.entry(key).or_insert(v);
    }
    for (key, v) in pending.artifact_delta {
        if !event.actions.artifact_delta.contains_key(&key) {
            event.actions.artifact_delta.insert(key, v);
        }
    }
    Ok(event)
}

/// A one-text event, taken as `textEvent` reads it: what its JSON text with the defaults in front
/// decodes to, whenever the decoder would take that text (`textEvent` checks the event size limit
/// with room to spare).
fn text_event_of(value: &JsValue, ctx: &CallbackContext) -> Option<Event> {
    let texts = text_event(value, Limit::event().bytes as f64)?;
    let part = Part::from_text(&texts.get(1).as_string()?);
    let content = Content { parts: Some(vec![part]), role: texts.get(0).as_string() };
    Some(agent_event(ctx.invocation_context(), Some(content)))
}

/// Any other event: its JSON text, the defaults in front, decoded.
fn event_from_json(value: &JsValue, ctx: &CallbackContext) -> Result<Event, AdkError> {
    // The defaults go in front of the object's own members: on a repeated key the last one wins,
    // so what the agent set stays, and nothing is read or written on the JS object.
    let text = json_text_within("event", value, Some(Limit::event()))?;
    let mut defaults = json::Writer::new();
    let mut members = defaults.object();
    members.field("author", ctx.agent_name()).field("invocationId", ctx.invocation_id());
    if let Some(branch) = ctx.invocation_context().branch() {
        members.field("branch", branch);
    }
    members.end();
    let mut text_with_defaults = defaults.into_string();
    text_with_defaults.pop();
    match text.strip_prefix('{') {
        Some(rest) if !rest.trim_start().starts_with('}') => {
            text_with_defaults.push(',');
            text_with_defaults.push_str(rest);
        }
        Some(_) => text_with_defaults.push('}'),
        None => text_with_defaults = text,
    }
    json::from_str("event", &text_with_defaults)
}

impl Agent for JsAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        let context = CallbackContext::new(ctx);
        let (js_ctx, lease) = JsContext::lend(context.clone());
        let values = match self.start(js_ctx) {
            Ok(values) => values,
            Err(e) => return Box::pin(futures_util::stream::iter([Err(e)])),
        };
        // The context is lent for as long as the agent runs: the lease ends with the stream.
        Box::pin(values.map(move |value| {
            let _lease = &lease;
            value.and_then(|value| yielded_event(value, &context))
        }))
    }
}
