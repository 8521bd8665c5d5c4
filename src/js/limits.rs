//! `setLimits` / `getLimits`: the instance's size limits (see `adk_core::limits`).

use adk_core::limits::{self, Limits};
use wasm_bindgen::prelude::*;

use super::convert::{from_js, to_js};
use super::to_js_error;
use crate::AdkError;

adk_core::json_struct! {
    /// The limits as JS sees them; in `setLimits`, the ones left out keep their value.
    struct LimitOptions {
        max_event_bytes: Option<usize> => "maxEventBytes" opt,
        max_model_response_bytes: Option<usize> => "maxModelResponseBytes" opt,
        max_tool_result_bytes: Option<usize> => "maxToolResultBytes" opt,
        max_artifact_bytes: Option<usize> => "maxArtifactBytes" opt,
        max_session_bytes: Option<usize> => "maxSessionBytes" opt,
        max_json_expansion: Option<usize> => "maxJsonExpansion" opt,
    }
}

const KNOWN: [&str; 6] = [
    "maxEventBytes",
    "maxModelResponseBytes",
    "maxToolResultBytes",
    "maxArtifactBytes",
    "maxSessionBytes",
    "maxJsonExpansion",
];

fn options(l: Limits) -> LimitOptions {
    LimitOptions {
        max_event_bytes: Some(l.max_event_bytes),
        max_model_response_bytes: Some(l.max_model_response_bytes),
        max_tool_result_bytes: Some(l.max_tool_result_bytes),
        max_artifact_bytes: Some(l.max_artifact_bytes),
        max_session_bytes: Some(l.max_session_bytes),
        max_json_expansion: Some(l.max_json_expansion),
    }
}

/// The limits in force, in bytes.
#[wasm_bindgen(js_name = getLimits)]
pub fn get_limits() -> Result<JsValue, JsValue> {
    to_js(&options(limits::limits()))
}

/// Changes the limits given (whole numbers of bytes) for the whole instance; returns them all.
#[wasm_bindgen(js_name = setLimits)]
pub fn set_limits(changes: &JsValue) -> Result<JsValue, JsValue> {
    let given: LimitOptions = from_js("setLimits options", changes)?;
    // A misspelt limit would otherwise be ignored without a word.
    if let Some(object) = changes.dyn_ref::<js_sys::Object>() {
        for key in js_sys::Object::keys(object).iter().filter_map(|k| k.as_string()) {
            if !KNOWN.contains(&key.as_str()) {
                let message = format!("setLimits options: unknown limit `{key}` (known: {})", KNOWN.join(", "));
                return Err(to_js_error(AdkError::invalid(message)));
            }
        }
    }
    let now = limits::limits();
    limits::set_limits(Limits {
        max_event_bytes: given.max_event_bytes.unwrap_or(now.max_event_bytes),
        max_model_response_bytes: given.max_model_response_bytes.unwrap_or(now.max_model_response_bytes),
        max_tool_result_bytes: given.max_tool_result_bytes.unwrap_or(now.max_tool_result_bytes),
        max_artifact_bytes: given.max_artifact_bytes.unwrap_or(now.max_artifact_bytes),
        max_session_bytes: given.max_session_bytes.unwrap_or(now.max_session_bytes),
        max_json_expansion: given.max_json_expansion.unwrap_or(now.max_json_expansion),
    });
    get_limits()
}
