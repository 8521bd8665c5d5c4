//! A value lent to JS that JS may change in place: ADK lets a before-model callback edit the
//! request and a before-tool callback the arguments, and a session service may edit the event it
//! stores. It crosses to JS once and is read back only when its JSON changed, so JS that only
//! reads costs no copy back into wasm.

use adk_core::json::{self, FromJson, ToJson};
use wasm_bindgen::JsValue;

use super::convert::{from_js_core, js_error_to_core};
use crate::platform::sys;
use crate::AdkError;

/// A value lent to JS, and the JSON text it was parsed from.
pub struct InPlace {
    js: JsValue,
    before: JsValue,
}

impl InPlace {
    /// `value` as a plain JS object.
    pub fn new(value: &dyn ToJson) -> Result<Self, AdkError> {
        // The text the object is parsed from stands for it unchanged: `JSON.stringify` gives the
        // same text back for what the core writes (compact, keys in order, numbers as JS writes
        // them). Where it would not (an integer-like key, which JS puts first), the value is read
        // back as if changed: a copy more, never a change missed.
        let before = JsValue::from_str(&json::to_string(value));
        let js = sys::parse_js_text(&before).map_err(|e| js_error_to_core(&e))?;
        Ok(InPlace { js, before })
    }

    /// The object JS sees.
    pub fn js(&self) -> JsValue {
        self.js.clone()
    }

    /// The value as the hook left it: `original` when unchanged.
    pub fn read_back<T: FromJson>(self, original: T, what: &str) -> Result<T, AdkError> {
        let after: JsValue = js_sys::JSON::stringify(&self.js)
            .map_err(|_| AdkError::invalid(format!("{what}: no longer JSON-serializable")))?
            .into();
        if after == self.before {
            return Ok(original);
        }
        from_js_core(what, &self.js)
    }
}
