//! `setLimits` / `getLimits`: the instance's size limits (see `adk_core::limits`), in the JSON
//! shape of `Limits`.

use adk_core::json;
use adk_core::limits;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, to_js};
use super::to_js_error;
use crate::AdkError;

/// The limits in force, in bytes.
#[wasm_bindgen(js_name = getLimits)]
pub fn get_limits() -> Result<JsValue, JsValue> {
    to_js(&limits::limits())
}

/// Changes the limits given (whole numbers of bytes) for the whole instance; returns them all.
#[wasm_bindgen(js_name = setLimits)]
pub fn set_limits(changes: &JsValue) -> Result<JsValue, JsValue> {
    const WHAT: &str = "setLimits options";
    let refuse = |message: String| to_js_error(AdkError::invalid(message));
    let Value::Object(given) = from_js::<Value>(WHAT, changes)? else {
        return Err(refuse(format!("invalid {WHAT}: expected an object")));
    };
    let Value::Object(mut all) = json::to_value(&limits::limits()) else {
        return Err(refuse(format!("invalid {WHAT}: the limits are not an object")));
    };
    for (key, value) in given {
        // A misspelt limit would otherwise be ignored without a word.
        if !all.contains_key(&key) {
            let known: Vec<&str> = all.keys().map(String::as_str).collect();
            return Err(refuse(format!("{WHAT}: unknown limit `{key}` (known: {})", known.join(", "))));
        }
        all.insert(key, value);
    }
    limits::set_limits(json::from_value(WHAT, Value::Object(all)).map_err(to_js_error)?);
    get_limits()
}
