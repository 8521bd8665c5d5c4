//! The seeds' `ExternalResponse` and `ces_requests` at the boundary: the wasm side sends and hands
//! back plain `{statusCode, reason, text}`; `index.js` wraps that in its `ExternalResponse` class
//! and normalises the options (headers and params as `[name, value]` string pairs).

use std::cell::Cell;
use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use gloo_timers::callback::Timeout;

use super::convert::{from_js_core, number_arg, object, promise, prop, string_arg};
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

/// `options[key]` as `[name, value]` pairs: `index.js` has made each an array of two strings, so
/// they are read as such (a `String` per member, not a generic decoding of the list).
fn pairs(options: &JsValue, key: &str) -> Vec<(String, String)> {
    let list = prop(options, key).dyn_into::<js_sys::Array>().unwrap_or_default();
    let text = |pair: &js_sys::Array, i| pair.get(i).as_string().unwrap_or_default();
    let mut pairs = Vec::new();
    for pair in list.iter() {
        let pair = pair.unchecked_into::<js_sys::Array>();
        pairs.push((text(&pair, 0), text(&pair, 1)));
    }
    pairs
}

/// A timer that fires `cancellation` after `seconds`, cleared when dropped (the request ended
/// first); `fired` tells a timeout from a stop. Hosts run longer delays than 2³¹ − 1 ms at once,
/// so the delay is held to that.
fn deadline(seconds: f64, cancellation: Rc<Cancellation>, fired: Rc<Cell<bool>>) -> Timeout {
    let millis = (seconds * 1000.0).min(2_147_483_647.0) as u32;
    Timeout::new(millis, move || {
        fired.set(true);
        cancellation.cancel();
    })
}

/// Sends one request with `options` (`headers`, `params`, `json`, `body`, `timeout` in seconds,
/// `fetch`), stopped by `stop` (the run's cancellation, from a context).
pub async fn send(
    method: &str,
    url: &str,
    options: &JsValue,
    stop: Option<Rc<Cancellation>>,
) -> Result<JsValue, AdkError> {
    let timeout = number_arg(&prop(options, "timeout"), "requests: timeout: expected a number of seconds")?;
    let client = http_client("requests", options)?;
    let json = prop(options, "json");
    let json = if json.is_undefined() { None } else { Some(from_js_core::<Value>("json", &json)?) };
    let request_options = RequestOptions {
        headers: pairs(options, "headers"),
        params: pairs(options, "params"),
        json,
        body: text("requests", options, "body")?,
    };
    let cancellation = Rc::new(Cancellation::default());
    // The run's stop stops the request; the listener and the timer go when it ends.
    let _stop = stop.map(|stop| {
        let own = cancellation.clone();
        stop.listen(move || own.cancel())
    });
    let timed_out = Rc::new(Cell::new(false));
    let _deadline = timeout
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(|seconds| deadline(seconds, cancellation.clone(), timed_out.clone()));
    match request(&*client, method, url, request_options, cancellation).await {
        Ok(response) => response_fields(&response),
        Err(e) if timed_out.get() => Err(AdkError::new(
            ErrorCode::DeadlineExceeded,
            format!("requests: {url} did not answer in time ({})", e.message),
        )),
        Err(e) => Err(e),
    }
}

/// HTTP outside a run, one export for both (each export costs a shim): `requests.<method>(url,
/// options)` (0: `a` the method, `b` the URL, `c` the options) → a Promise; or why a tool may not
/// open the URL `a` (1: ADK's URL checks, `http(s)` only, no private hosts unless `b` is true)
/// → the reason, or `undefined` when it may.
#[wasm_bindgen]
pub fn http(op: u32, a: JsValue, b: JsValue, c: JsValue) -> JsValue {
    if op == 1 {
        let refusal = crate::tool::url_refusal(&a.as_string().unwrap_or_default(), b.is_truthy());
        return refusal.map_or(JsValue::UNDEFINED, |why| JsValue::from_str(&why));
    }
    promise(async move {
        let (method, url) = (string_arg("request method", &a)?, string_arg("request url", &b)?);
        send(&method, &url, &c, None).await
    })
    .into()
}
