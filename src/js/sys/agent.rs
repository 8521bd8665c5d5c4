//! The agent protocol: an object whose `runAsyncImpl(ctx)` (or `runAsync(ctx)`) returns an
//! (async) iterable of events, or a function that does; and the options every agent class takes.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// An agent written in JS (a `BaseAgent` subclass, a plain object, or a generator function).
    #[derive(Clone)]
    pub type JsAgentObject;

    /// `@google/adk`'s name for the run.
    #[wasm_bindgen(method, getter, structural, catch, js_name = runAsyncImpl)]
    pub fn run_async_impl(this: &JsAgentObject) -> Result<JsValue, JsValue>;

    /// The older name, still read.
    #[wasm_bindgen(method, getter, structural, catch, js_name = runAsync)]
    pub fn run_async(this: &JsAgentObject) -> Result<JsValue, JsValue>;

    /// `{name, description?, beforeAgentCallback?, afterAgentCallback?, …}`.
    pub type AgentOptions;

    /// The agent's name.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn name(this: &AgentOptions) -> Result<JsValue, JsValue>;

    /// What it does, for other agents' transfer decisions.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn description(this: &AgentOptions) -> Result<JsValue, JsValue>;

    /// A function or an array of them.
    #[wasm_bindgen(method, getter, structural, catch, js_name = beforeAgentCallback)]
    pub fn before_agent_callback(this: &AgentOptions) -> Result<JsValue, JsValue>;

    /// A function or an array of them.
    #[wasm_bindgen(method, getter, structural, catch, js_name = afterAgentCallback)]
    pub fn after_agent_callback(this: &AgentOptions) -> Result<JsValue, JsValue>;

    /// `LoopAgent`'s bound on rounds.
    #[wasm_bindgen(method, getter, structural, catch, js_name = maxIterations)]
    pub fn max_iterations(this: &AgentOptions) -> Result<JsValue, JsValue>;
}

impl JsAgentObject {
    /// The function that starts a run: `runAsyncImpl`, else `runAsync`, else the object itself
    /// when it is a function.
    pub fn run_function(&self) -> Option<js_sys::Function> {
        [self.run_async_impl(), self.run_async()]
            .into_iter()
            .find_map(|f| f.ok()?.dyn_into::<js_sys::Function>().ok())
            .or_else(|| self.dyn_ref::<js_sys::Function>().cloned())
    }
}

#[wasm_bindgen]
extern "C" {
    /// `LlmAgent`'s options beyond every agent's.
    #[wasm_bindgen(extends = AgentOptions)]
    pub type LlmAgentOptions;

    /// A string, or a function of the context returning one.
    #[wasm_bindgen(method, getter, structural, catch)]
    pub fn instruction(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// Likewise, for the whole tree (ADK's `global_instruction`).
    #[wasm_bindgen(method, getter, structural, catch, js_name = globalInstruction)]
    pub fn global_instruction(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// A string or `Content`, sent as the system instruction as it is.
    #[wasm_bindgen(method, getter, structural, catch, js_name = staticInstruction)]
    pub fn static_instruction(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// The state key the final text is written to.
    #[wasm_bindgen(method, getter, structural, catch, js_name = outputKey)]
    pub fn output_key(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// `'default'` or `'none'`.
    #[wasm_bindgen(method, getter, structural, catch, js_name = includeContents)]
    pub fn include_contents(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// Settings passed to the model.
    #[wasm_bindgen(method, getter, structural, catch, js_name = generateContentConfig)]
    pub fn generate_content_config(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// No transfer back to the parent.
    #[wasm_bindgen(method, getter, structural, catch, js_name = disallowTransferToParent)]
    pub fn disallow_transfer_to_parent(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// No transfer to the peers.
    #[wasm_bindgen(method, getter, structural, catch, js_name = disallowTransferToPeers)]
    pub fn disallow_transfer_to_peers(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;

    /// The model and tool callbacks: each a function or an array of them.
    #[wasm_bindgen(method, getter, structural, catch, js_name = beforeModelCallback)]
    pub fn before_model_callback(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;
    /// See `beforeModelCallback`.
    #[wasm_bindgen(method, getter, structural, catch, js_name = afterModelCallback)]
    pub fn after_model_callback(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;
    /// See `beforeModelCallback`.
    #[wasm_bindgen(method, getter, structural, catch, js_name = onModelErrorCallback)]
    pub fn on_model_error_callback(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;
    /// See `beforeModelCallback`.
    #[wasm_bindgen(method, getter, structural, catch, js_name = beforeToolCallback)]
    pub fn before_tool_callback(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;
    /// See `beforeModelCallback`.
    #[wasm_bindgen(method, getter, structural, catch, js_name = afterToolCallback)]
    pub fn after_tool_callback(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;
    /// See `beforeModelCallback`.
    #[wasm_bindgen(method, getter, structural, catch, js_name = onToolErrorCallback)]
    pub fn on_tool_error_callback(this: &LlmAgentOptions) -> Result<JsValue, JsValue>;
}
