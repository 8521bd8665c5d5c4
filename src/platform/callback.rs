//! Calling back into JS: the callbacks of agents, models and tools, instruction providers and
//! tools' `execute`, all the same way. The JS side may answer with a value or a promise, and may
//! throw; every answer comes back as a value, every failure as an `AdkError` with the JS message.

use wasm_bindgen::{JsCast, JsValue};

use super::interop::{call, resolve};
use adk_core::AdkError;

/// A JS function the SDK calls.
#[derive(Clone)]
pub struct JsCallback(js_sys::Function);

impl JsCallback {
    /// The callbacks an option gives: a function, an array of functions, or nothing.
    pub fn list(value: &JsValue, what: &str) -> Result<Vec<JsCallback>, AdkError> {
        if value.is_undefined() || value.is_null() {
            return Ok(Vec::new());
        }
        let items: Vec<JsValue> = if js_sys::Array::is_array(value) {
            js_sys::Array::from(value).iter().collect()
        } else {
            vec![value.clone()]
        };
        items
            .into_iter()
            .map(|f| {
                f.dyn_into()
                    .map(JsCallback)
                    .map_err(|_| AdkError::invalid(format!("{what}: expected a function or an array of functions")))
            })
            .collect()
    }

    /// Wraps one function.
    pub fn new(function: js_sys::Function) -> Self {
        JsCallback(function)
    }

    /// Calls it with `args` and awaits the answer.
    pub async fn call(&self, args: &[JsValue]) -> Result<JsValue, AdkError> {
        resolve(call(&self.0, &JsValue::UNDEFINED, args)?).await
    }

    /// Calls it with `args`; an answer of `undefined` or `null` is `None`.
    pub async fn call_optional(&self, args: &[JsValue]) -> Result<Option<JsValue>, AdkError> {
        let answer = self.call(args).await?;
        Ok((!answer.is_undefined() && !answer.is_null()).then_some(answer))
    }
}
