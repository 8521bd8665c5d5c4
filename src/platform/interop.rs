//! Small, typed steps over JS values: properties, calls, awaiting, thrown values as errors.

use wasm_bindgen::{JsCast, JsValue};

use adk_core::{AdkError, ErrorCode};

/// Back from a thrown JS value to an `AdkError`, keeping its code and message when it has them:
/// an `Error`, a string, or a plain object such as `{code: 'NOT_FOUND', message: '…'}`.
pub fn js_error_to_core(error: &JsValue) -> AdkError {
    let message = error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .or_else(|| prop(error, "message").as_string())
        .unwrap_or_else(|| thrown(error));
    if prop(error, "name").as_string().as_deref() == Some("AbortError") {
        return AdkError::new(ErrorCode::Aborted, message);
    }
    let code = prop(error, "code").as_string();
    AdkError::new(code.as_deref().and_then(ErrorCode::parse).unwrap_or(ErrorCode::Internal), message)
}

/// What a thrown value without a message was, as far as JSON can say.
fn thrown(error: &JsValue) -> String {
    let text = js_sys::JSON::stringify(error).ok().and_then(|t| t.as_string());
    match text {
        Some(text) => format!("a JavaScript value was thrown: {}", adk_core::error::excerpt(&text, 200)),
        None => "a JavaScript value was thrown".to_string(),
    }
}

/// Awaits `value` if it is a Promise (or any thenable); a plain value is returned as it is, at
/// once: a sync callback or service method costs no trip through the microtask queue.
#[cfg(feature = "agents")]
pub async fn resolve(value: JsValue) -> Result<JsValue, AdkError> {
    if !is_thenable(&value) {
        return Ok(value);
    }
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&value)).await.map_err(|e| js_error_to_core(&e))
}

/// Whether `value` is a Promise or another object with a `then` method.
pub fn is_thenable(value: &JsValue) -> bool {
    value.is_instance_of::<js_sys::Promise>() || (value.is_object() && method_of(value, "then").is_some())
}

/// What a JS method answered (a value or a Promise), awaited; a throw or a rejection is an
/// `AdkError` whose message starts with `what` (`sessionService.getSession()`).
#[cfg(feature = "agents")]
pub async fn answer_of(what: &str, called: Result<JsValue, JsValue>) -> Result<JsValue, AdkError> {
    let answer = match called {
        Ok(value) => resolve(value).await,
        Err(thrown) => Err(js_error_to_core(&thrown)),
    };
    answer.map_err(|e| AdkError::new(e.code, format!("{what}: {}", e.message)))
}

/// `object[name]` if it is a function.
pub fn method_of(object: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(object, &JsValue::from_str(name)).ok().and_then(|f| f.dyn_into().ok())
}

/// Calls `function` with `this` and `args`; a throw becomes an `AdkError` with the original message.
#[cfg(feature = "agents")]
pub fn call(function: &js_sys::Function, this: &JsValue, args: &[JsValue]) -> Result<JsValue, AdkError> {
    let array = js_sys::Array::new();
    for arg in args {
        array.push(arg);
    }
    let args = array;
    function.apply(this, &args).map_err(|e| js_error_to_core(&e))
}

/// `object[key]`, or `undefined`.
pub fn prop(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A plain object with `fields`; `undefined` values are left out.
#[cfg(feature = "agents")]
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
