//! The seeds' `ExternalResponse` and `ces_requests` at the boundary: the wasm side sends and hands
//! back plain `{statusCode, reason, text}`; `index.js` wraps that in its `ExternalResponse` class
//! and normalises the options (headers and params as `[name, value]` string pairs).

use std::cell::Cell;
use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{call, from_js_core, object, promise, prop, string_arg};
use super::http_options::{http_client, text};
use crate::agent::Cancellation;
use crate::http::{request, ExternalResponse, RequestOptions};
use crate::{AdkError, ErrorCode};

/// The fields `index.js` builds its `ExternalResponse` from.
pub fn response_fields(response: &ExternalResponse) -> Result<JsValue, AdkError> {
    Ok(object(&[
        ("statusCode", JsValue::from(response.status_code)),
        ("reason", response.reason.as_str().into()),
        ("text", response.text.as_str().into()),
    ]))
}

/// `options[key]` as `[name, value]` pairs.
fn pairs(options: &JsValue, key: &str) -> Result<Vec<(String, String)>, AdkError> {
    let value = prop(options, key);
    if value.is_undefined() {
        return Ok(Vec::new());
    }
    let list: Vec<Vec<String>> = from_js_core(key, &value)?;
    Ok(list.into_iter().filter_map(|p| Some((p.first()?.clone(), p.get(1)?.clone()))).collect())
}

/// Fires `cancellation` after `seconds` (the host's `setTimeout`); `fired` tells a timeout from a stop.
fn arm_timeout(seconds: f64, cancellation: Rc<Cancellation>, fired: Rc<Cell<bool>>) -> Result<(), AdkError> {
    let set_timeout: js_sys::Function = prop(&js_sys::global(), "setTimeout")
        .dyn_into()
        .map_err(|_| AdkError::new(ErrorCode::Unimplemented, "this JavaScript host has no setTimeout()"))?;
    let on_timeout = Closure::once_into_js(move || {
        fired.set(true);
        cancellation.cancel();
    });
    call(&set_timeout, &JsValue::UNDEFINED, &[on_timeout, JsValue::from_f64(seconds * 1000.0)]).map(|_| ())
}

/// Sends one request with `options` (`headers`, `params`, `json`, `body`, `timeout` in seconds,
/// `fetch`), stopped by `stop` (the run's cancellation, from a context).
pub async fn send(
    method: &str,
    url: &str,
    options: &JsValue,
    stop: Option<Rc<Cancellation>>,
) -> Result<JsValue, AdkError> {
    let client = http_client("requests", options)?;
    let json = prop(options, "json");
    let json = if json.is_undefined() { None } else { Some(from_js_core::<Value>("json", &json)?) };
    let request_options = RequestOptions {
        headers: pairs(options, "headers")?,
        params: pairs(options, "params")?,
        json,
        body: text("requests", options, "body")?,
    };
    let cancellation = Rc::new(Cancellation::default());
    if let Some(stop) = stop {
        let own = cancellation.clone();
        stop.on_cancel(move || own.cancel());
    }
    let timed_out = Rc::new(Cell::new(false));
    if let Some(seconds) = prop(options, "timeout").as_f64().filter(|s| s.is_finite() && *s > 0.0) {
        arm_timeout(seconds, cancellation.clone(), timed_out.clone())?;
    }
    match request(&*client, method, url, request_options, cancellation).await {
        Ok(response) => response_fields(&response),
        Err(e) if timed_out.get() => Err(AdkError::new(
            ErrorCode::DeadlineExceeded,
            ["requests: ", url, " did not answer in time (", &e.message, ")"].concat(),
        )),
        Err(e) => Err(e),
    }
}

/// `requests.<method>(url, options)` outside a run.
#[wasm_bindgen(js_name = httpRequest)]
pub fn http_request(method: JsValue, url: JsValue, options: JsValue) -> js_sys::Promise {
    promise(async move {
        let (method, url) = (string_arg("request method", &method)?, string_arg("request url", &url)?);
        send(&method, &url, &options, None).await
    })
}
