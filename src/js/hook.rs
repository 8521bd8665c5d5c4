//! One adapter for every JS function the SDK calls in the middle of a run: agent, model and tool
//! callbacks, instruction providers, a tool's `execute`, a plugin's hooks. Each call
//! lends the context for exactly its length, encodes what it passes once, awaits the answer (a
//! value or a Promise), and turns a throw into an `AdkError` with the JS message.

use adk_core::json::FromJson;
use wasm_bindgen::{JsCast, JsValue};

use super::context::JsContext;
use super::convert::{call, from_js_core, object, resolve};
use crate::agent::CallbackContext;
use crate::{AdkError, ErrorCode};

/// How a hook's arguments are laid out.
pub enum Args<'a> {
    /// `f(context)`: agent callbacks, instruction providers.
    Context,
    /// `f(...values, context)`: a tool's `execute(args, toolContext)`.
    Positional(&'a [JsValue]),
    /// `f({...fields, context})`: model and tool callbacks, as `@google/adk` calls them.
    Fields(&'a [(&'a str, JsValue)]),
    /// `f({...fields, [name]: context})`: plugin hooks, whose context `@google/adk` names
    /// (`callbackContext`, `toolContext`, `invocationContext`).
    Params(&'a str, &'a [(&'a str, JsValue)]),
}

/// What [`JsHook::each`] hands each hook to, as a trait of its own: a `dyn FnMut`'s vtable would
/// carry a `call_once` shim per caller that nothing calls.
pub trait AddHook {
    /// Takes one hook.
    fn add(&mut self, hook: JsHook);
}

impl<F: FnMut(JsHook)> AddHook for F {
    fn add(&mut self, hook: JsHook) {
        self(hook)
    }
}

/// A JS function called at one point of a run.
#[derive(Clone)]
pub struct JsHook {
    function: js_sys::Function,
    what: &'static str,
}

impl JsHook {
    /// The hooks an option gives: a function, an array of functions, or nothing.
    pub fn list(value: &JsValue, what: &'static str) -> Result<Vec<JsHook>, AdkError> {
        let mut hooks = Vec::new();
        JsHook::each(value, what, &mut |hook: JsHook| hooks.push(hook))?;
        Ok(hooks)
    }

    /// [`Self::list`], each hook handed to `add` as it is read: one loop shared by every kind of
    /// callback instead of one per kind.
    pub fn each(value: &JsValue, what: &'static str, add: &mut dyn AddHook) -> Result<(), AdkError> {
        if value.is_undefined() || value.is_null() {
            return Ok(());
        }
        let items = match value.dyn_ref::<js_sys::Array>() {
            Some(items) => items.clone(),
            None => js_sys::Array::of1(value),
        };
        for f in items.iter() {
            match f.dyn_into() {
                Ok(function) => add.add(JsHook { function, what }),
                Err(_) => {
                    return Err(AdkError::invalid(format!("{what}: expected a function or an array of functions")))
                }
            }
        }
        Ok(())
    }

    /// One function.
    pub fn new(function: js_sys::Function, what: &'static str) -> Self {
        JsHook { function, what }
    }

    /// Calls the function with `ctx` lent for the call; an answer of `undefined` or `null` is
    /// `None`. A stopped run calls no more hooks (`ABORTED`); one stopped during a call drops the
    /// call's future, as it drops the rest of the run.
    pub async fn call(&self, ctx: CallbackContext, args: Args<'_>) -> Result<Option<JsValue>, AdkError> {
        if ctx.invocation_context().invocation().cancellation.is_cancelled() {
            return Err(AdkError::new(ErrorCode::Aborted, format!("{}: the run was stopped", self.what)));
        }
        let (js_ctx, _lease) = JsContext::lend(ctx);
        let argv: Vec<JsValue> = match args {
            Args::Context => vec![js_ctx],
            Args::Positional(values) => {
                let mut argv = values.to_vec();
                argv.push(js_ctx);
                argv
            }
            Args::Fields(fields) => vec![object(&[fields, &[("context", js_ctx)]].concat())],
            Args::Params(name, fields) => vec![object(&[fields, &[(name, js_ctx)]].concat())],
        };
        let answer = resolve(call(&self.function, &JsValue::UNDEFINED, &argv)?).await?;
        Ok((!answer.is_undefined() && !answer.is_null()).then_some(answer))
    }

    /// [`Self::call`], its answer decoded as `T` (named `"<hook> result"` in errors).
    pub async fn answer<T: FromJson>(&self, ctx: CallbackContext, args: Args<'_>) -> Result<Option<T>, AdkError> {
        let answer = self.call(ctx, args).await?;
        answer.map(|value| from_js_core(&format!("{} result", self.what), &value)).transpose()
    }
}
