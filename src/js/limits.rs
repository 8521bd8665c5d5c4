//! `setLimits` / `getLimits` (through `eventModel`, see `events.rs`): the instance's size limits
//! (see `adk_core::limits`), in the JSON shape of `Limits`.

use adk_core::json;
use adk_core::limits::{self, Limits};
use serde_json::Value;
use wasm_bindgen::JsValue;

use super::convert::{json_text, to_js};
use super::to_js_error;
use crate::AdkError;

/// The limits in force, in bytes.
pub(super) fn get_limits() -> Result<JsValue, JsValue> {
    to_js(&limits::limits())
}

/// Changes the limits given (whole numbers of bytes) for the whole instance; returns them all.
pub(super) fn set_limits(changes: &JsValue) -> Result<JsValue, JsValue> {
    const WHAT: &str = "setLimits options";
    let refuse = |message: &str| to_js_error(AdkError::invalid(message));
    let text = json_text(WHAT, changes).map_err(to_js_error)?;
    let Value::Object(given) = json::parse(WHAT, &text).map_err(to_js_error)? else {
        return Err(refuse(concat!("invalid ", "setLimits options", ": expected an object")));
    };
    // A misspelt limit would otherwise be ignored without a word (the decoder passes over
    // members it does not know).
    if let Some(key) = given.keys().find(|k| !Limits::JSON_KEYS.contains(&k.as_str())) {
        let mut message = format!("{WHAT}: unknown limit `{key}` (known:");
        for (i, known) in Limits::JSON_KEYS.iter().enumerate() {
            message.push_str(if i == 0 { " " } else { ", " });
            message.push_str(known);
        }
        message.push(')');
        return Err(refuse(&message));
    }
    // A limit left out reads as the one in force (see `Limits`): the checks and their messages
    // are the decoder's, which reads the same text again (not the `Value`, which it would write out).
    limits::set_limits(json::from_str(WHAT, &text).map_err(to_js_error)?);
    get_limits()
}
