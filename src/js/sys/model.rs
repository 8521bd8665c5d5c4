//! The model protocol: `{model?, generateContent(request, {stream, signal})}` answering an
//! `LlmResponse`, a Promise of one, or an (async) iterable of them (WebLLM, transformers.js, a proxy).

use wasm_bindgen::prelude::*;

use super::Protocol;
use crate::platform::interop::prop;

#[wasm_bindgen]
extern "C" {
    /// A model written in JS.
    #[derive(Clone)]
    pub type JsModelObject;

    /// `generateContent(request, {stream, signal})`.
    #[wasm_bindgen(method, catch, js_name = generateContent)]
    pub fn generate_content(
        this: &JsModelObject,
        request: &JsValue,
        options: &GenerateOptions,
    ) -> Result<JsValue, JsValue>;

    /// The second argument of `generateContent`.
    #[wasm_bindgen(extends = js_sys::Object)]
    pub type GenerateOptions;

    /// Whether partial responses are wanted.
    #[wasm_bindgen(method, setter, structural)]
    pub fn set_stream(this: &GenerateOptions, stream: bool);

    /// Aborted when the run stops.
    #[wasm_bindgen(method, setter, structural)]
    pub fn set_signal(this: &GenerateOptions, signal: &web_sys::AbortSignal);
}

impl Protocol for JsModelObject {
    const NAME: &'static str = "model";
    const METHODS: &'static [&'static str] = &["generateContent"];
}

impl JsModelObject {
    /// The model's name, if it gives one.
    pub fn name(&self) -> Option<String> {
        prop(self, "model").as_string()
    }
}

impl GenerateOptions {
    /// `{stream, signal}`.
    pub fn new(stream: bool, signal: &web_sys::AbortSignal) -> Self {
        let options: Self = js_sys::Object::new().unchecked_into();
        options.set_stream(stream);
        options.set_signal(signal);
        options
    }
}
