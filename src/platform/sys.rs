//! Typed bindings for the JS objects the boundary touches, and nothing else: declarations without
//! behaviour. The idiomatic wrappers ([`super::iter`], [`super::fetch`], [`super::callback`]) are
//! written over these.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// What an iterator's `next()` (or a stream reader's `read()`) settles to.
    pub type IteratorResult;

    /// The iterator is exhausted.
    #[wasm_bindgen(method, getter, structural)]
    pub fn done(this: &IteratorResult) -> bool;

    /// The value, when not done.
    #[wasm_bindgen(method, getter, structural)]
    pub fn value(this: &IteratorResult) -> JsValue;

    /// `globalThis.crypto.getRandomValues`.
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues, catch)]
    pub fn get_random_values(buf: &mut [u8]) -> Result<(), JsValue>;

    /// `String(value)`: a number's shortest round-trip text.
    #[wasm_bindgen(js_name = String)]
    pub fn number_text(value: f64) -> String;

    /// `Number(text)`: the correctly rounded value of a number's text.
    #[wasm_bindgen(js_name = Number)]
    pub fn text_number(text: &str) -> f64;

    /// `JSON.parse` of text already in JS (`js_sys::JSON::parse` takes it from wasm memory).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    pub fn parse_js_text(text: &JsValue) -> Result<JsValue, JsValue>;
}
