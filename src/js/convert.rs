//! JS values ⇄ core types, through JSON text so the JS side sees the exact wire shape.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::future_to_promise;

use super::to_js_error;
use crate::error::from_json_str;
use crate::{AdkError, ErrorCode};

/// The JSON text of a JS value (`JSON.stringify`); `undefined`, BigInts and cycles are errors.
pub fn json_text(what: &str, value: &JsValue) -> Result<String, AdkError> {
    if value.is_undefined() {
        return Err(AdkError::invalid(format!("invalid {what}: expected an object or JSON text, got undefined")));
    }
    let text = js_sys::JSON::stringify(value).map_err(|e| {
        let reason = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
        AdkError::invalid(format!("invalid {what}: not JSON-serializable: {reason}"))
    })?;
    text.as_string().ok_or_else(|| AdkError::invalid(format!("invalid {what}: not JSON-serializable")))
}

/// Decodes a JS value into `T`, naming the bad field on failure.
pub fn from_js_core<T: DeserializeOwned>(what: &str, value: &JsValue) -> Result<T, AdkError> {
    from_json_str(what, &json_text(what, value)?)
}

/// The JSON text of `T` (its wire shape).
pub fn json_of<T: Serialize>(value: &T) -> Result<String, AdkError> {
    serde_json::to_string(value).map_err(|e| AdkError::new(ErrorCode::Internal, format!("to JSON: {e}")))
}

/// Encodes `T` as a plain JS object in its wire shape.
pub fn to_js_core<T: Serialize>(value: &T) -> Result<JsValue, AdkError> {
    js_sys::JSON::parse(&json_of(value)?).map_err(|e| js_error_to_core(&e))
}

/// [`from_js_core`] for exports that throw.
pub fn from_js<T: DeserializeOwned>(what: &str, value: &JsValue) -> Result<T, JsValue> {
    from_js_core(what, value).map_err(to_js_error)
}

/// [`to_js_core`] for exports that throw.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    to_js_core(value).map_err(to_js_error)
}

/// Back from a thrown JS value to an `AdkError`, keeping its code when it has one.
pub fn js_error_to_core(error: &JsValue) -> AdkError {
    let message = error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "a JavaScript value was thrown".to_string());
    if prop(error, "name").as_string().as_deref() == Some("AbortError") {
        return AdkError::new(ErrorCode::Aborted, message);
    }
    let code = prop(error, "code").as_string();
    AdkError::new(code.as_deref().and_then(ErrorCode::parse).unwrap_or(ErrorCode::Internal), message)
}

/// Runs `future` as a JS Promise; an `AdkError` rejects it with a JS `Error` carrying the code.
pub fn promise<F>(future: F) -> js_sys::Promise
where
    F: std::future::Future<Output = Result<JsValue, AdkError>> + 'static,
{
    future_to_promise(async move { future.await.map_err(to_js_error) })
}

/// Awaits `value` if it is a Promise (or any thenable); a plain value is returned as it is.
pub async fn resolve(value: JsValue) -> Result<JsValue, AdkError> {
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&value)).await.map_err(|e| js_error_to_core(&e))
}

#[cfg(feature = "agents")]
/// Calls `object[method](...args)`, awaiting the result if it is a Promise.
pub async fn call_method(object: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, AdkError> {
    let function = method_of(object, method).ok_or_else(|| AdkError::invalid(format!("missing method {method}()")))?;
    resolve(call(&function, object, args)?).await
}

/// `object[name]` if it is a function.
pub fn method_of(object: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(object, &JsValue::from_str(name)).ok().and_then(|f| f.dyn_into().ok())
}

/// Calls `function` with `this` and `args`; a throw becomes an `AdkError` with the original message.
pub fn call(function: &js_sys::Function, this: &JsValue, args: &[JsValue]) -> Result<JsValue, AdkError> {
    let args: js_sys::Array = args.iter().collect();
    function.apply(this, &args).map_err(|e| js_error_to_core(&e))
}

/// `object[key]`, or `undefined`.
pub fn prop(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A plain object with `fields`; `undefined` values are left out.
pub fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        if !v.is_undefined() {
            // Setting a property of a fresh plain object cannot fail.
            let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
        }
    }
    o.into()
}
