//! The same checks inside headless Chromium through wasm-bindgen-test: the core compiled to wasm32,
//! and the JS boundary called with real JS values.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(target_arch = "wasm32")]

mod common;

use adk_wasm::js::events::{create_event, event_is, event_to_json, parse_event};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn golden_fixtures_in_wasm32() {
    adk_wasm::start();
    let (checked, failures) = common::golden::check_all();
    assert!(failures.is_empty(), "{} of {checked} failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(checked, 78);
}

/// The byte scans of the JSON and SSE readers run in SIMD lanes in the module (sixteen bytes at a
/// time; natively, in `u64` words): every byte of interest is found at every place in a lane and
/// in the tail after the last whole lane, among bytes that are not (UTF-8, 0x7f and above, and the
/// neighbours of `"` and `\`).
#[wasm_bindgen_test]
fn byte_scans_find_each_byte_at_every_place_in_simd_lanes() {
    const { assert!(cfg!(target_feature = "simd128"), "the module is built with wasm's SIMD (.cargo/config.toml)") };
    let filler = [b'a', 0xe2, 0x98, 0x83, b' ', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xff];
    for len in 1..50 {
        let plain: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
        assert_eq!(adk_core::scan::find_string_special(&plain), None, "{len}");
        assert_eq!(adk_core::scan::find2(&plain, b'\n', b'\r'), None, "{len}");
        for at in 0..len {
            for special in [b'"', b'\\', 0x00, 0x1f, b'\n', b'\r'] {
                let mut text = plain.clone();
                text[at] = special;
                assert_eq!(adk_core::scan::find_string_special(&text), Some(at), "{len} {at} {special}");
                let line_break = matches!(special, b'\n' | b'\r').then_some(at);
                assert_eq!(adk_core::scan::find2(&text, b'\n', b'\r'), line_break, "{len} {at} {special}");
            }
        }
    }
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
    adk_wasm::start();
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
    let e = event_is("isFinalResponse", &JsValue::UNDEFINED, &JsValue::UNDEFINED).unwrap_err();
    assert_eq!(error_code(&e), "INVALID_ARGUMENT");
    let e = create_event(&js_sys::BigInt::from(5u32).into()).unwrap_err();
    assert_eq!(error_code(&e), "INVALID_ARGUMENT");
    assert!(event_is("isFinalResponse", &js_json(r#"{"author": "a"}"#), &JsValue::UNDEFINED).unwrap());
}

mod js_session_service {
    use adk_wasm::js::session::SessionServiceHandle;
    use adk_wasm::types::JsonObject;
    use adk_wasm::Event;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen_test::*;

    // A session service an app could write to keep sessions on its own backend: plain JS, with
    // sync and async methods mixed, updating the session object it is handed as ADK services do.
    #[wasm_bindgen(inline_js = r#"
        export function makeService() {
            const sessions = new Map();
            const calls = [];
            return {
                calls,
                createSession({ appName, userId, state, sessionId }) {
                    calls.push('createSession');
                    const s = { id: sessionId ?? 'generated', appName, userId, state: state ?? {}, events: [], lastUpdateTime: 1 };
                    sessions.set(s.id, s);
                    return s;
                },
                async getSession({ sessionId }) { calls.push('getSession'); return sessions.get(sessionId) ?? null; },
                async listSessions() { calls.push('listSessions'); return { sessions: [...sessions.values()] }; },
                async deleteSession({ sessionId }) { calls.push('deleteSession'); sessions.delete(sessionId); },
                async appendEvent({ session, event }) {
                    calls.push('appendEvent:' + (sessions.get(session.id) === session ? 'own object' : 'copy'));
                    if (session.id === 'broken') throw Object.assign(new Error('backend down'), { code: 'FAILED_PRECONDITION' });
                    const stored = { ...event, actions: { ...event.actions, stateDelta: Object.fromEntries(
                        Object.entries(event.actions.stateDelta).filter(([k]) => !k.startsWith('temp:'))) } };
                    Object.assign(session.state, event.actions.stateDelta);
                    session.events.push(stored);
                    return stored;
                },
            };
        }
        export function notAService() { return { createSession() {} }; }
    "#)]
    extern "C" {
        #[wasm_bindgen(js_name = makeService)]
        fn make_service() -> JsValue;
        #[wasm_bindgen(js_name = notAService)]
        fn not_a_service() -> JsValue;
    }

    fn calls(service: &JsValue) -> Vec<String> {
        let calls: js_sys::Array = js_sys::Reflect::get(service, &"calls".into()).unwrap().into();
        calls.iter().map(|c| c.as_string().unwrap()).collect()
    }

    #[wasm_bindgen_test]
    async fn a_js_object_serves_as_the_session_service() {
        let object = make_service();
        let service = SessionServiceHandle::from_js(object.clone()).unwrap().service();
        let state: JsonObject = serde_json::from_str(r#"{"k": 1}"#).unwrap();
        let mut session = service.create_session("app", "u", Some(state), Some("s1")).await.unwrap();
        assert_eq!(session.state["k"], 1);

        let mut event = Event::new("user");
        event.actions.state_delta = serde_json::from_str(r#"{"k": 2, "temp:t": true}"#).unwrap();
        let stored = service.append_event(&mut session, event).await.unwrap();
        assert!(!stored.actions.state_delta.contains_key("temp:t"));
        assert_eq!(session.state["temp:t"], true, "temp keys stay on the caller's copy");
        assert_eq!(session.events.len(), 1);

        let fetched = service.get_session("app", "u", "s1", None).await.unwrap().unwrap();
        assert_eq!((fetched.state["k"].clone(), fetched.events.len()), (serde_json::json!(2), 1));
        assert!(service.get_session("app", "u", "nope", None).await.unwrap().is_none());
        assert_eq!(service.list_sessions("app", None).await.unwrap().len(), 1);
        service.delete_session("app", "u", "s1").await.unwrap();
        assert!(service.get_session("app", "u", "s1", None).await.unwrap().is_none());
        // The service got its own session object back, not a copy of the history.
        assert!(calls(&object).contains(&"appendEvent:own object".to_string()), "{:?}", calls(&object));
    }

    #[wasm_bindgen_test]
    async fn errors_from_the_js_service_keep_their_code_and_leave_the_session_alone() {
        let service = SessionServiceHandle::from_js(make_service()).unwrap().service();
        let mut session = service.create_session("app", "u", None, Some("broken")).await.unwrap();
        let before = session.clone();
        let err = service.append_event(&mut session, Event::new("user")).await.unwrap_err();
        assert_eq!(err.code, adk_wasm::ErrorCode::FailedPrecondition);
        assert!(err.message.ends_with("backend down"), "{}", err.message);
        assert_eq!(session, before);
    }

    #[wasm_bindgen_test]
    fn an_object_without_the_methods_is_refused() {
        let err = SessionServiceHandle::from_js(not_a_service()).err().unwrap();
        assert!(super::message(&err).contains("getSession"), "{}", super::message(&err));
    }
}
