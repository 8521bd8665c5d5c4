//! The agent protocol: an object whose `runAsyncImpl(ctx)` (or `runAsync(ctx)`) returns an
//! (async) iterable of events, or a function that does.

use wasm_bindgen::prelude::*;

use crate::platform::interop::prop;

#[wasm_bindgen]
extern "C" {
    /// An agent written in JS (a `BaseAgent` subclass, a plain object, or a generator function).
    #[derive(Clone)]
    pub type JsAgentObject;
}

impl JsAgentObject {
    /// The function that starts a run: `runAsyncImpl`, else `runAsync`, else the object itself
    /// when it is a function.
    pub fn run_function(&self) -> Option<js_sys::Function> {
        ["runAsyncImpl", "runAsync"]
            .into_iter()
            .find_map(|name| prop(self, name).dyn_into::<js_sys::Function>().ok())
            .or_else(|| self.dyn_ref::<js_sys::Function>().cloned())
    }
}
