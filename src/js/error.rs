//! `AdkError` → a JS `Error` with a stable `code`.

use wasm_bindgen::JsValue;

use crate::AdkError;

/// A JS `Error` named `AdkError` whose `code` is the error's stable code (e.g. `INVALID_ARGUMENT`).
pub fn to_js_error(error: AdkError) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("AdkError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(error.code.as_str()));
    if let Some(status) = error.http_status {
        let _ = js_sys::Reflect::set(&js, &JsValue::from_str("httpStatus"), &JsValue::from(status));
    }
    if let Some(ms) = error.retry_after_ms {
        let _ = js_sys::Reflect::set(&js, &JsValue::from_str("retryAfterMs"), &JsValue::from(ms as f64));
    }
    if let Some(code) = error.rpc_code {
        let _ = js_sys::Reflect::set(&js, &JsValue::from_str("rpcCode"), &JsValue::from(code as f64));
    }
    js.into()
}
