//! The options every networked class reads from JS the same way: `headers` and `fetch`.

use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};

use super::convert::prop;
use crate::http::HttpClient;
use crate::platform::fetch::FetchClient;
use crate::AdkError;

/// `options.headers`: an object of string values.
pub fn headers(what: &str, options: &JsValue) -> Result<Vec<(String, String)>, AdkError> {
    header_list(what, &prop(options, "headers"))
}

/// A headers object (string values) as name/value pairs; `undefined` or `null` is none.
pub fn header_list(what: &str, given: &JsValue) -> Result<Vec<(String, String)>, AdkError> {
    if given.is_undefined() || given.is_null() {
        return Ok(Vec::new());
    }
    if !given.is_object() {
        return Err(AdkError::invalid(format!("{what}: headers: expected an object of strings")));
    }
    // A loop rather than collecting `Result`s: that adapter costs the module most of a kilobyte.
    let mut list = Vec::new();
    for entry in js_sys::Object::entries(given.unchecked_ref()).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        match (pair.get(0).as_string(), pair.get(1).as_string()) {
            (Some(k), Some(v)) => list.push((k, v)),
            _ => return Err(AdkError::invalid(format!("{what}: headers: values must be strings"))),
        }
    }
    Ok(list)
}

/// `options.fetch` (a function), else the global `fetch`.
pub fn http_client(what: &str, options: &JsValue) -> Result<Rc<dyn HttpClient>, AdkError> {
    match prop(options, "fetch").dyn_into::<js_sys::Function>() {
        Ok(f) => Ok(Rc::new(FetchClient::with_fetch(f))),
        Err(v) if v.is_undefined() || v.is_null() => Ok(Rc::new(FetchClient::global())),
        Err(_) => Err(AdkError::invalid(format!("{what}: fetch: expected a function"))),
    }
}

/// `options[key]` as a string, if given.
pub fn text(what: &str, options: &JsValue, key: &str) -> Result<Option<String>, AdkError> {
    let value = prop(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.as_string().map(Some).ok_or_else(|| AdkError::invalid(format!("{what}: {key}: expected a string")))
}
