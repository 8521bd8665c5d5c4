//! JS values ⇄ core types, through JSON text so the JS side sees the exact wire shape.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use super::to_js_error;
use crate::error::from_json_str;
use crate::{AdkError, ErrorCode};

/// The JSON text of a JS value: a string is taken as JSON text already, anything else is stringified.
pub fn json_text(what: &str, value: &JsValue) -> Result<String, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    if value.is_undefined() {
        return Err(to_js_error(AdkError::invalid(format!(
            "invalid {what}: expected an object or JSON text, got undefined"
        ))));
    }
    let text = js_sys::JSON::stringify(value).map_err(|e| {
        let reason = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
        to_js_error(AdkError::invalid(format!("invalid {what}: not JSON-serializable: {reason}")))
    })?;
    text.as_string().ok_or_else(|| to_js_error(AdkError::invalid(format!("invalid {what}: not JSON-serializable"))))
}

/// Decodes a JS object (or JSON text) into `T`, naming the bad field on failure.
pub fn from_js<T: DeserializeOwned>(what: &str, value: &JsValue) -> Result<T, JsValue> {
    from_json_str(what, &json_text(what, value)?).map_err(to_js_error)
}

/// Encodes `T` as a plain JS object in its wire shape.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| to_js_error(AdkError::new(ErrorCode::Internal, format!("to JSON: {e}"))))?;
    js_sys::JSON::parse(&text)
}
