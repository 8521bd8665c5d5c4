//! `Transcript` for JS.

use wasm_bindgen::prelude::*;

use super::convert::{from_js, to_js};
use crate::transcript::Transcript;
use crate::Event;

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

    /// Folds one event in and returns the items.
    pub fn add(&mut self, event: JsValue) -> Result<JsValue, JsValue> {
        let event: Event = from_js("event", &event)?;
        self.inner.push(&event);
        self.items()
    }

    /// The items so far.
    #[wasm_bindgen(getter)]
    pub fn items(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.items())
    }
}
