//! Agents for JS: the workflow agents, agents written in JS, and JS callbacks.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::context::JsContext;
use super::convert::{call, from_js_core, method_of, prop, resolve};
use super::to_js_error;
use crate::agent::{
    add_sub_agent, Agent, AgentCallback, AgentCore, CallbackContext, EventStream, InvocationContext, LoopAgent,
    ParallelAgent, SequentialAgent,
};
use crate::types::Content;
use crate::{AdkError, Event};

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
pub(super) fn core_from(options: &JsValue) -> Result<AgentCore, AdkError> {
    let get = |key: &str| prop(options, key);
    let name = get("name").as_string().ok_or_else(|| AdkError::invalid("agent options: name: expected a string"))?;
    let description = get("description").as_string().unwrap_or_default();
    Ok(AgentCore::new(&name, &description)?
        .with_before_agent_callbacks(callbacks(&get("beforeAgentCallback"), "beforeAgentCallback")?)
        .with_after_agent_callbacks(callbacks(&get("afterAgentCallback"), "afterAgentCallback")?))
}

/// A JS function, or an array of them, as agent callbacks. Each gets a `Context` and may return
/// (or resolve to) `Content`, or nothing.
fn callbacks(value: &JsValue, what: &str) -> Result<Vec<AgentCallback>, AdkError> {
    Ok(functions(value, what)?
        .into_iter()
        .map(|f| {
            let callback: AgentCallback = Rc::new(move |ctx: CallbackContext| {
                let f = f.clone();
                Box::pin(async move {
                    let result = resolve(call(&f, &JsValue::UNDEFINED, &[JsContext::new(ctx).into()])?).await?;
                    if result.is_undefined() || result.is_null() {
                        return Ok(None);
                    }
                    Ok(Some(from_js_core::<Content>("callback result", &result)?))
                })
            });
            callback
        })
        .collect())
}

/// A JS function or an array of functions (`undefined`/`null`: none), as an option may give them.
pub(super) fn functions(value: &JsValue, what: &str) -> Result<Vec<js_sys::Function>, AdkError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let items: Vec<JsValue> =
        if js_sys::Array::is_array(value) { js_sys::Array::from(value).iter().collect() } else { vec![value.clone()] };
    items
        .into_iter()
        .map(|f| {
            f.dyn_into().map_err(|_| AdkError::invalid(format!("{what}: expected a function or an array of functions")))
        })
        .collect()
}

#[wasm_bindgen]
impl AgentHandle {
    /// `SequentialAgent` from `{name, description?, beforeAgentCallback?, afterAgentCallback?}`.
    pub fn sequential(options: JsValue) -> Result<AgentHandle, JsValue> {
        let core = core_from(&options).map_err(to_js_error)?;
        Ok(AgentHandle { agent: Rc::new(SequentialAgent::new(core)) })
    }

    /// `ParallelAgent` from the same options.
    pub fn parallel(options: JsValue) -> Result<AgentHandle, JsValue> {
        let core = core_from(&options).map_err(to_js_error)?;
        Ok(AgentHandle { agent: Rc::new(ParallelAgent::new(core)) })
    }

    /// `LoopAgent` from the same options plus `maxIterations`.
    #[wasm_bindgen(js_name = loop)]
    pub fn loop_agent(options: JsValue) -> Result<AgentHandle, JsValue> {
        let core = core_from(&options).map_err(to_js_error)?;
        let max = prop(&options, "maxIterations").as_f64();
        let max = match max {
            Some(m) if m >= 0.0 && m.fract() == 0.0 && m <= f64::from(u32::MAX) => Some(m as u32),
            Some(_) => return Err(to_js_error(AdkError::invalid("maxIterations: expected a whole number ≥ 0"))),
            None => None,
        };
        Ok(AgentHandle { agent: Rc::new(LoopAgent::new(core, max)) })
    }

    /// An agent written in JS: `object.runAsyncImpl(ctx)` (or `runAsync`, or `object(ctx)` for a
    /// function) returns an async iterable of events. `options` gives name, description, callbacks.
    #[wasm_bindgen(js_name = fromJs)]
    pub fn from_js(object: JsValue, options: JsValue) -> Result<AgentHandle, JsValue> {
        let core = core_from(&options).map_err(to_js_error)?;
        let has_run =
            object.is_function() || ["runAsyncImpl", "runAsync"].iter().any(|m| method_of(&object, m).is_some());
        if !has_run {
            return Err(to_js_error(AdkError::invalid(format!(
                "agent `{}`: expected runAsyncImpl(ctx) returning an async iterable of events",
                core_name(&options)
            ))));
        }
        Ok(AgentHandle { agent: Rc::new(JsAgent { core, object }) })
    }

    /// Adds `child` as the next sub-agent.
    #[wasm_bindgen(js_name = addSubAgent)]
    pub fn add_sub_agent(&self, child: &AgentHandle) -> Result<(), JsValue> {
        add_sub_agent(&self.agent, child.agent.clone()).map_err(to_js_error)
    }

    /// The agent's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.agent.name().to_string()
    }

    /// The agent's description.
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> String {
        self.agent.description().to_string()
    }

    /// Whether this agent or one below it is named `name`.
    #[wasm_bindgen(js_name = hasAgent)]
    pub fn has_agent(&self, name: &str) -> bool {
        self.agent.find_agent(name).is_some()
    }
}

fn core_name(options: &JsValue) -> String {
    prop(options, "name").as_string().unwrap_or_default()
}

/// An agent whose run is a JS (async) generator.
struct JsAgent {
    core: AgentCore,
    object: JsValue,
}

/// Calls the iterator's `return()` if the run is dropped before the generator finished, so its
/// `finally` blocks run.
struct CloseOnDrop {
    iterator: JsValue,
    done: bool,
}

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        if !self.done {
            if let Some(close) = method_of(&self.iterator, "return") {
                let _ = call(&close, &self.iterator, &[]);
            }
        }
    }
}

impl JsAgent {
    /// Starts the JS run and returns its (async) iterator.
    fn start(&self, ctx: &CallbackContext) -> Result<JsValue, AdkError> {
        let js_ctx: JsValue = JsContext::new(ctx.clone()).into();
        let result = match ["runAsyncImpl", "runAsync"].iter().find_map(|m| method_of(&self.object, m)) {
            Some(run) => call(&run, &self.object, &[js_ctx])?,
            None => call(self.object.unchecked_ref(), &JsValue::UNDEFINED, &[js_ctx])?,
        };
        for symbol in [js_sys::Symbol::async_iterator(), js_sys::Symbol::iterator()] {
            if let Ok(f) = js_sys::Reflect::get(&result, &symbol).and_then(|f| f.dyn_into::<js_sys::Function>()) {
                return call(&f, &result, &[]);
            }
        }
        Err(AdkError::invalid(format!(
            "agent `{}`: runAsyncImpl must return an async iterable of events (write it as `async *runAsyncImpl(ctx)`)",
            self.core_name()
        )))
    }

    fn core_name(&self) -> &str {
        self.core.name()
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
    let defaults = [
        ("author", Some(ctx.agent_name().to_string())),
        ("invocationId", Some(ctx.invocation_id().to_string())),
        ("branch", ctx.invocation_context().branch().map(str::to_string)),
    ];
    for (key, default) in defaults {
        let current = js_sys::Reflect::get(&value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        if let (true, Some(default)) = (current.is_undefined(), default) {
            // A frozen or exotic object keeps what it has; the decoder then reports what is missing.
            let _ = js_sys::Reflect::set(&value, &JsValue::from_str(key), &JsValue::from_str(&default));
        }
    }
    let mut event: Event = from_js_core("event", &value)?;
    let pending = ctx.take_actions();
    for (key, v) in pending.state_delta {
        event.actions.state_delta.entry(key).or_insert(v);
    }
    for (key, v) in pending.artifact_delta {
        event.actions.artifact_delta.entry(key).or_insert(v);
    }
    Ok(event)
}

impl Agent for JsAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        Box::pin(async_stream::try_stream! {
            let context = CallbackContext::new(ctx);
            let mut guard = CloseOnDrop { iterator: self.start(&context)?, done: false };
            let next = method_of(&guard.iterator, "next")
                .ok_or_else(|| AdkError::invalid(format!("agent `{}`: its iterator has no next()", self.core_name())))?;
            loop {
                let step = resolve(call(&next, &guard.iterator, &[])?).await?;
                let done = js_sys::Reflect::get(&step, &"done".into()).map(|d| d.is_truthy()).unwrap_or(true);
                if done {
                    guard.done = true;
                    break;
                }
                let value = js_sys::Reflect::get(&step, &"value".into()).unwrap_or(JsValue::UNDEFINED);
                yield yielded_event(value, &context)?;
            }
        })
    }
}
