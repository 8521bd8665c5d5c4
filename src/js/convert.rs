//! JS values ⇄ core types, through JSON text so the JS side sees the exact wire shape.

use adk_core::json::{self, FromJson, ToJson};
use adk_core::limits::Limit;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::future_to_promise;

use super::to_js_error;
pub use crate::platform::interop::*;
use crate::AdkError;

/// A string argument; anything else is `INVALID_ARGUMENT` (wasm-bindgen's own conversion of a
/// `String` parameter throws a bare `TypeError`, or reads a number's digits as text). Out of line:
/// sixteen exports call it.
#[inline(never)]
pub fn string_arg(what: &str, value: &JsValue) -> Result<String, AdkError> {
    value.as_string().ok_or_else(|| AdkError::invalid(format!("{what}: expected a string")))
}

/// A number argument, or none for `undefined` or `null`; anything else (a count given as text) is
/// `INVALID_ARGUMENT` with `error` rather than silently left at its default.
#[cfg(feature = "agents")]
pub fn number_arg(value: &JsValue, error: &'static str) -> Result<Option<f64>, AdkError> {
    match value.as_f64() {
        Some(n) => Ok(Some(n)),
        None if value.is_undefined() || value.is_null() => Ok(None),
        None => Err(AdkError::invalid(error)),
    }
}

/// A JS string copied into wasm memory if it is within `limit`: checked first by its UTF-16
/// length (a lower bound of its UTF-8 size), so that one far over is never copied, then by its size.
pub fn string_within(what: &str, text: &js_sys::JsString, limit: Limit) -> Result<String, AdkError> {
    limit.check(what, text.length() as usize)?;
    let text = String::from(text);
    limit.check(what, text.len())?;
    Ok(text)
}

/// The JSON text of a JS value (`JSON.stringify`); `undefined`, BigInts and cycles are errors.
pub fn json_text(what: &str, value: &JsValue) -> Result<String, AdkError> {
    json_text_within(what, value, None)
}

/// [`json_text`] of something with a size limit (see [`string_within`]).
pub fn json_text_within(what: &str, value: &JsValue, limit: Option<Limit>) -> Result<String, AdkError> {
    if value.is_undefined() {
        return Err(AdkError::invalid(format!("invalid {what}: expected an object or JSON text, got undefined")));
    }
    let text = js_sys::JSON::stringify(value).map_err(|e| {
        let reason = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
        AdkError::invalid(format!("invalid {what}: not JSON-serializable: {reason}"))
    })?;
    let text = match (limit, text.dyn_ref::<js_sys::JsString>()) {
        (Some(limit), Some(js)) => string_within(what, js, limit)?,
        _ => text.as_string().ok_or_else(|| AdkError::invalid(format!("invalid {what}: not JSON-serializable")))?,
    };
    // A wasm-bindgen object (a ToolContext, a Session handle…) stringifies as its heap address.
    // Outside a key the quotes would be escaped, so the pattern can only be such an object.
    if holds_wasm_handle(&text) {
        return Err(AdkError::invalid(format!(
            "invalid {what}: it holds an adk-wasm object (a context, a session or service handle), which is not \
             data; pass plain values taken from it instead"
        )));
    }
    Ok(text)
}

/// Whether `text` has the key `JSON.stringify` gives a wasm-bindgen object: `{"__wbg_ptr":1309168}`.
fn holds_wasm_handle(text: &str) -> bool {
    const KEY: &[u8] = b"\"__wbg_ptr\":";
    let bytes = text.as_bytes();
    let mut from = 0;
    // Jumps from underscore to underscore: most JSON has few.
    while let Some(i) = bytes.get(from..).and_then(|rest| adk_core::scan::find2(rest, b'_', b'_')) {
        let at = from + i;
        if at > 0 && bytes.get(at - 1..).is_some_and(|rest| rest.starts_with(KEY)) {
            return true;
        }
        from = at + 1;
    }
    false
}

// The conversions below are called from every export: kept out of line (and, for encoding, not
// generic), so that each export carries a call rather than its own copy.

/// Decodes a JS value into `T`, naming the bad field on failure.
#[inline(never)]
pub fn from_js_core<T: FromJson>(what: &str, value: &JsValue) -> Result<T, AdkError> {
    json::from_str(what, &json_text(what, value)?)
}

/// [`from_js_core`] of something with a size limit (an event, a model response, a tool result).
#[cfg(feature = "agents")]
#[inline(never)]
pub fn from_js_within<T: FromJson>(what: &str, value: &JsValue, limit: Limit) -> Result<T, AdkError> {
    json::from_str(what, &json_text_within(what, value, Some(limit))?)
}

/// JSON text as the JS value it stands for, parsed by `JSON.parse`.
#[inline(never)]
pub fn parse_json(text: &str) -> Result<JsValue, AdkError> {
    js_sys::JSON::parse(text).map_err(|e| js_error_to_core(&e))
}

/// Encodes `T` as a plain JS object in its wire shape.
#[inline(never)]
pub fn to_js_core(value: &dyn ToJson) -> Result<JsValue, AdkError> {
    parse_json(&json::to_string(value))
}

/// [`from_js_core`] for exports that throw.
#[inline(never)]
pub fn from_js<T: FromJson>(what: &str, value: &JsValue) -> Result<T, JsValue> {
    from_js_core(what, value).map_err(to_js_error)
}

/// [`to_js_core`] for exports that throw.
#[inline(never)]
pub fn to_js(value: &dyn ToJson) -> Result<JsValue, JsValue> {
    to_js_core(value).map_err(to_js_error)
}

/// The handles index.js passes in one array, taken one by one: a `Vec<ToolHandle>` parameter has
/// wasm-bindgen collect them through an iterator adapter of its own per handle type.
#[cfg(feature = "agents")]
pub fn handles<T: wasm_bindgen::convert::TryFromJsValue>(what: &str, values: Vec<JsValue>) -> Result<Vec<T>, JsValue> {
    let mut list = Vec::with_capacity(values.len());
    for value in values {
        let handle = T::try_from_js_value(value);
        list.push(handle.map_err(|_| to_js_error(AdkError::invalid(format!("{what}: expected a handle"))))?);
    }
    Ok(list)
}

/// Runs `future` as a JS Promise; an `AdkError` rejects it with a JS `Error` carrying the code.
pub fn promise<F>(future: F) -> js_sys::Promise
where
    F: std::future::Future<Output = Result<JsValue, AdkError>> + 'static,
{
    settle(Box::pin(future))
}

/// One instance of the promise glue for every async export: only the futures differ.
fn settle(future: std::pin::Pin<Box<dyn std::future::Future<Output = Result<JsValue, AdkError>>>>) -> js_sys::Promise {
    future_to_promise(async move { future.await.map_err(to_js_error) })
}

#[cfg(feature = "agents")]
adk_core::json_struct! {
    /// The options of the IndexedDB services.
    struct DatabaseOptions {
        database_name: Option<String> => "databaseName" opt,
    }
}

/// The `databaseName` of an IndexedDB service's options (`adk-wasm` when there are none).
#[cfg(feature = "agents")]
pub fn database_name(what: &str, options: &JsValue) -> Result<String, AdkError> {
    let name = match options.is_undefined() || options.is_null() {
        true => None,
        false => from_js_core::<DatabaseOptions>(what, options)?.database_name,
    };
    Ok(name.unwrap_or_else(|| "adk-wasm".to_string()))
}
