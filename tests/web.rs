//! The same checks inside headless Chromium through wasm-bindgen-test: the core compiled to wasm32,
//! and the JS boundary called with real JS values.
#![cfg(target_arch = "wasm32")]

mod common;

use adk_wasm::js::events::{create_event, event_to_json, is_final_response, parse_event};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn golden_fixtures_in_wasm32() {
    let (checked, failures) = common::golden::check_all();
    assert!(failures.is_empty(), "{} of {checked} failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(checked, 78);
}

fn js_json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap()
}

fn error_code(e: &JsValue) -> String {
    let e: &js_sys::Error = e.dyn_ref().expect("an Error object");
    assert_eq!(String::from(e.name()), "AdkError");
    js_sys::Reflect::get(e, &"code".into()).unwrap().as_string().unwrap()
}

fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap()
}

/// The JSON a JS program sees for `value`: numbers as JS numbers (1.0 → 1, -0.0 → 0, big integers
/// rounded), long-running ids (a Python set) sorted.
fn as_js_sees_it(value: &JsValue) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(&js_sys::JSON::stringify(value).unwrap().as_string().unwrap()).unwrap();
    if let Some(serde_json::Value::Array(ids)) = v.get_mut("longRunningToolIds") {
        ids.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    }
    v
}

#[wasm_bindgen_test]
fn js_objects_round_trip_through_the_boundary() {
    for (_, text) in common::golden::FIXTURES {
        let fixture: serde_json::Value = serde_json::from_str(text).unwrap();
        for case in fixture["cases"].as_array().unwrap() {
            let theirs = js_json(case["wire"].as_str().unwrap());
            let parsed = parse_event(&theirs).unwrap();
            assert_eq!(as_js_sees_it(&parsed), as_js_sees_it(&theirs), "parseEvent {}", case["name"]);
            let text = event_to_json(&parsed).unwrap();
            assert_eq!(as_js_sees_it(&js_json(&text)), as_js_sees_it(&theirs), "eventToJson {}", case["name"]);
        }
    }
}

#[wasm_bindgen_test]
fn bad_js_input_throws_a_typed_error_and_the_module_keeps_working() {
    let e = parse_event(&JsValue::from_str("{oops")).unwrap_err();
    assert_eq!(error_code(&e), "INVALID_ARGUMENT");
    let e = parse_event(&js_json(r#"{"author": "a", "content": {"role": 7}}"#)).unwrap_err();
    assert!(message(&e).contains("content.role"), "{}", message(&e));
    let e = is_final_response(&JsValue::UNDEFINED).unwrap_err();
    assert_eq!(error_code(&e), "INVALID_ARGUMENT");
    let e = create_event(&js_sys::BigInt::from(5u32).into()).unwrap_err();
    assert_eq!(error_code(&e), "INVALID_ARGUMENT");
    assert!(is_final_response(&js_json(r#"{"author": "a"}"#)).unwrap());
}
