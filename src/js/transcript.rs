//! `Transcript` for JS.

use wasm_bindgen::prelude::*;

use super::convert::to_js;
use super::events::event;
use crate::transcript::Transcript;

/// Folds events into chat items: `add(event)` as events arrive, `items` for what to render.
#[wasm_bindgen(js_name = Transcript)]
#[derive(Default)]
pub struct JsTranscript {
    inner: Transcript,
}

#[wasm_bindgen(js_class = Transcript)]
impl JsTranscript {
    /// An empty transcript.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }

    /// Folds one event (an object or its JSON text) in and returns the items. The event is read
    /// as `parseEvent` reads it: one decoder, one size limit.
    pub fn add(&mut self, input: JsValue) -> Result<JsValue, JsValue> {
        self.inner.push(&event(&input)?);
        self.items()
    }

    /// The items so far.
    #[wasm_bindgen(getter)]
    pub fn items(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.items())
    }
}
