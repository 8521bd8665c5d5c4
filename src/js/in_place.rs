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
        Self::from_text(&json::to_string(value))
    }

    /// The value whose JSON is `text`, as a plain JS object.
    pub fn from_text(text: &str) -> Result<Self, AdkError> {
        let before = JsValue::from_str(text);
        Ok(InPlace { js: parse(&before)?, before })
    }

    /// The object JS sees.
    pub fn js(&self) -> JsValue {
        self.js.clone()
    }

    /// The value as the hook left it: `original` when unchanged.
    pub fn read_back<T: FromJson>(self, original: T, what: &str) -> Result<T, AdkError> {
        match self.unchanged(what)? {
            true => Ok(original),
            false => from_js_core(what, &self.js),
        }
    }

    /// Whether JS left the object as lent: `JSON.stringify` gives the text it was parsed from (as
    /// for most of what the core writes), or else what it gives for that text parsed anew. The
    /// second look is for text JS spells differently (an integer past 2^53, `1.0`, `-0.0`, an
    /// integer-like key, which JS puts first): read back, those would come back changed (rounded,
    /// an integer, reordered) though JS did not touch them. Not generic, so one copy serves all.
    pub fn unchanged(&self, what: &str) -> Result<bool, AdkError> {
        let after = stringify(&self.js, what)?;
        if after == self.before {
            return Ok(true);
        }
        Ok(after == stringify(&parse(&self.before)?, what)?)
    }
}

/// `JSON.parse(text)`.
fn parse(text: &JsValue) -> Result<JsValue, AdkError> {
    sys::parse_js_text(text).map_err(|e| js_error_to_core(&e))
}

/// `JSON.stringify(value)`, which throws for a cycle or a BigInt.
fn stringify(value: &JsValue, what: &str) -> Result<JsValue, AdkError> {
    js_sys::JSON::stringify(value)
        .map(JsValue::from)
        .map_err(|_| AdkError::invalid(format!("{what}: no longer JSON-serializable")))
}
