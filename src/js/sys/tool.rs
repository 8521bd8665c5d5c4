//! The options of a tool written in JS (`FunctionTool`'s).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `{name, description?, parameters?, execute(args, toolContext), isLongRunning?}`.
    pub type FunctionToolOptions;

    /// The name the model calls it by.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn name(this: &FunctionToolOptions) -> Result<JsValue, JsValue>;

    /// What it does, for the model.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn description(this: &FunctionToolOptions) -> Result<JsValue, JsValue>;

    /// The JSON Schema of its arguments.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn parameters(this: &FunctionToolOptions) -> Result<JsValue, JsValue>;

    /// The function that runs it.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn execute(this: &FunctionToolOptions) -> Result<JsValue, JsValue>;

    /// Whether its answer comes later (ADK's long-running tools).
    #[wasm_bindgen(method, getter, structural, catch, js_name = isLongRunning)]
    pub fn is_long_running(this: &FunctionToolOptions) -> Result<JsValue, JsValue>;
}
