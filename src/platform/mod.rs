//! The browser platform under the JS boundary: the host services the core asks for (clock,
//! randomness, Unicode normalisation, float text), `fetch` as the core's `HttpClient`, and the small steps over
//! JS values they need. Nothing here knows the exported API in [`crate::js`].

pub mod abort;
mod alloc;
mod body;
pub mod fetch;
#[cfg(feature = "agents")]
pub mod indexeddb;
pub mod interop;
pub mod iter;
#[cfg(feature = "a2a")]
pub mod sleep;
pub mod sys;

use adk_core::platform::{install, Host};
use wasm_bindgen::prelude::*;

/// Installs the browser's clock, `crypto.getRandomValues`, `String.prototype.normalize`,
/// `toLowerCase`, `Number` and `String` as the core's host when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    install(Host {
        now_seconds,
        fill_random,
        nfc,
        lowercase,
        parse_float: sys::text_number,
        shortest_float: sys::number_text,
    });
}

fn now_seconds() -> f64 {
    js_sys::Date::now() / 1000.0
}

fn fill_random(buf: &mut [u8]) -> bool {
    // getRandomValues refuses more than 64 KiB at a time.
    buf.chunks_mut(65_536).all(|chunk| sys::get_random_values(chunk).is_ok())
}

fn nfc(text: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize("NFC"))
}

fn lowercase(text: &str) -> String {
    String::from(js_sys::JsString::from(text).to_lower_case())
}
