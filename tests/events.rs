//! Native tests of the event model against events serialized by the real google-adk package.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use adk_wasm::types::{Content, Part};
use adk_wasm::{ErrorCode, Event, LlmResponse};
use serde_json::{json, Value};

#[test]
fn golden_fixtures_round_trip_and_match_adk_helpers() {
    let (checked, failures) = common::golden::check_all();
    assert!(failures.is_empty(), "{} of {checked} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(checked, 78);
}

fn err(json: &str) -> adk_wasm::AdkError {
    match Event::from_json(json) {
        Ok(e) => panic!("accepted bad input {json}: {e:?}"),
        Err(e) => e,
    }
}

#[test]
fn bad_input_names_the_field() {
    let cases = [
        (r#"{"author": 5}"#, "author"),
        (r#"{"invocationId": "e-1"}"#, "author"),
        (r#"{"author": "a", "content": {"parts": [{"text": 5}]}}"#, "content.parts[0].text"),
        (r#"{"author": "a", "content": {"parts": {"text": "x"}}}"#, "content.parts"),
        (r#"{"author": "a", "actions": {"stateDelta": []}}"#, "actions.stateDelta"),
        (r#"{"author": "a", "actions": {"artifactDelta": {"f": "one"}}}"#, "actions.artifactDelta.f"),
        (r#"{"author": "a", "timestamp": "yesterday"}"#, "timestamp"),
        (r#"{"author": "a", "partial": "yes"}"#, "partial"),
        (
            r#"{"author": "a", "content": {"parts": [{"inlineData": {"data": "%%%"}}]}}"#,
            "content.parts[0].inlineData.data",
        ),
        (r#"{"author": "a", "content": {"parts": [{"thoughtSignature": "a"}]}}"#, "content.parts[0].thoughtSignature"),
        (r#"{"author": "a", "actions": null}"#, "actions"),
        (r#"{"author": "a", "longRunningToolIds": [1]}"#, "longRunningToolIds[0]"),
    ];
    for (json, field) in cases {
        let e = err(json);
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{json}");
        assert!(e.message.contains(field), "{json}: message {:?} does not name {field}", e.message);
    }
}

#[test]
fn non_json_and_non_objects_are_clear_errors() {
    for json in ["", "not json", "{", "[1,2]", "42", "null", r#"{"author": "a",}"#] {
        let e = err(json);
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.starts_with("invalid event"), "{json}: {}", e.message);
    }
    // The decoder keeps working after errors.
    assert!(Event::from_json(r#"{"author": "a"}"#).is_ok());
}

#[test]
fn missing_id_and_timestamp_are_filled_like_adk() {
    let e = Event::from_json(r#"{"author": "a"}"#).unwrap();
    assert_eq!(e.id.len(), 36);
    assert!(e.timestamp > 1.7e9);
    let wire: Value = serde_json::from_str(&e.to_json().unwrap()).unwrap();
    assert_eq!(
        wire["actions"],
        json!({"stateDelta": {}, "artifactDelta": {}, "requestedAuthConfigs": {}, "requestedToolConfirmations": {}})
    );
    assert_eq!(wire["invocationId"], "");
    assert!(wire.get("content").is_none() && wire.get("partial").is_none());
}

/// The id belongs to the type: every path that decodes an event (JSON text, a value, an event a
/// JS agent yields) gives a fresh uuid4 to one with no id or an empty one.
#[test]
fn every_decoded_event_without_an_id_gets_a_fresh_uuid4() {
    let is_uuid4 = |id: &str| {
        id.len() == 36
            && id.as_bytes()[14] == b'4'
            && matches!(id.as_bytes()[19], b'8' | b'9' | b'a' | b'b')
            && id
                .char_indices()
                .all(|(i, c)| if [8, 13, 18, 23].contains(&i) { c == '-' } else { c.is_ascii_hexdigit() })
    };
    let from_text = Event::from_json(r#"{"author": "a", "id": ""}"#).unwrap();
    let from_value: Event = adk_core::json::from_value("event", json!({"author": "a"})).unwrap();
    let twice: Event = adk_core::json::from_value("event", json!({"author": "a", "id": ""})).unwrap();
    for id in [&from_text.id, &from_value.id, &twice.id] {
        assert!(is_uuid4(id), "{id}");
    }
    assert!(from_text.id != from_value.id && from_value.id != twice.id);
    let kept = Event::from_json(r#"{"author": "a", "id": "mine"}"#).unwrap();
    assert_eq!(kept.id, "mine");
}

#[test]
fn unknown_fields_are_ignored_and_standard_base64_is_normalised() {
    let e = Event::from_json(
        r#"{"author":"a","futureField":{"x":1},"content":{"parts":[{"inlineData":{"data":"+/8=","mimeType":"x/y"}}]}}"#,
    )
    .unwrap();
    let wire: Value = serde_json::from_str(&e.to_json().unwrap()).unwrap();
    assert!(wire.get("futureField").is_none());
    assert_eq!(wire["content"]["parts"][0]["inlineData"]["data"], "-_8=");
}

#[test]
fn long_running_tool_ids_are_written_sorted_and_unique() {
    let e = Event::from_json(r#"{"author":"a","longRunningToolIds":["b","a","b"]}"#).unwrap();
    let wire: Value = serde_json::from_str(&e.to_json().unwrap()).unwrap();
    assert_eq!(wire["longRunningToolIds"], json!(["a", "b"]));
}

#[test]
fn seed_helpers() {
    let mut e = Event::new("user");
    assert!(e.is_user() && !e.is_agent(None) && !e.has_error() && e.parts().is_empty());
    e.author = "weather".into();
    assert!(e.is_agent(None) && e.is_agent(Some("weather")) && !e.is_agent(Some("other")));
    e.error_code = Some("".into());
    assert!(!e.has_error());
    e.error_code = Some("SAFETY".into());
    assert!(e.has_error());
    e.content = Some(Content::model_text("hi"));
    assert_eq!(e.parts().len(), 1);
    assert!(e.content.as_ref().unwrap().is_model() && !e.content.as_ref().unwrap().is_user());
}

#[test]
fn part_constructors() {
    let j = |p: Part| serde_json::to_value(p).unwrap();
    assert_eq!(j(Part::from_text("hi")), json!({"text": "hi"}));
    let args = json!({"city": "Seoul"}).as_object().cloned().unwrap();
    assert_eq!(
        j(Part::from_function_call("w", args.clone())),
        json!({"functionCall": {"args": {"city": "Seoul"}, "name": "w"}})
    );
    assert_eq!(
        j(Part::from_function_response("w", args)),
        json!({"functionResponse": {"name": "w", "response": {"city": "Seoul"}}})
    );
    assert_eq!(
        j(Part::from_inline_data(vec![0xfb, 0xff], "image/png")),
        json!({"inlineData": {"data": "-_8=", "mimeType": "image/png"}})
    );
    assert_eq!(j(Part::from_json("{}")), json!({"inlineData": {"data": "e30=", "mimeType": "application/json"}}));
    assert_eq!(
        j(Part::from_agent_transfer("billing")),
        json!({"functionCall": {"args": {"agent_name": "billing"}, "name": "transfer_to_agent"}})
    );
    assert_eq!(
        j(Part::from_end_session("done", true)),
        json!({"functionCall": {"args": {"reason": "done", "escalated": true}, "name": "end_session"}})
    );
}

#[test]
fn llm_response_becomes_an_event_with_every_field() {
    let mut r = LlmResponse::from_parts(vec![Part::from_text("hi")]);
    r.partial = Some(true);
    r.error_code = Some("E".into());
    r.usage_metadata = Some(Default::default());
    let e = Event::from_llm_response(r.clone(), "agent", "e-1");
    assert_eq!((e.author.as_str(), e.invocation_id.as_str()), ("agent", "e-1"));
    let (ev, resp) = (serde_json::to_value(&e).unwrap(), serde_json::to_value(&r).unwrap());
    for (k, v) in resp.as_object().unwrap() {
        assert_eq!(&ev[k], v, "{k}");
    }
}

/// `{}` is two bytes of JSON but a whole `Part` decoded: past the decoding budget an event is
/// refused as too large instead of filling the wasm memory.
#[test]
fn json_that_expands_past_the_budget_is_resource_exhausted() {
    let event = |parts: &str| format!(r#"{{"author": "a", "content": {{"role": "model", "parts": [{parts}]}}}}"#);
    let empty = event(&vec!["{}"; 400_000].join(","));
    let e = Event::from_json(&empty).unwrap_err();
    assert_eq!(e.code, ErrorCode::ResourceExhausted, "{}", e.message);
    assert!(e.message.contains("maxJsonExpansion") && e.message.contains("content.parts"), "{}", e.message);
    // Real parts, even many short ones, are well within it.
    let texts = event(&vec![r#"{"text": "a short line of text"}"#; 20_000].join(","));
    assert_eq!(Event::from_json(&texts).unwrap().content.unwrap().parts().len(), 20_000);
    // Lifted, the same JSON decodes.
    let limits = adk_wasm::limits::limits();
    adk_wasm::limits::set_limits(adk_wasm::limits::Limits { max_json_expansion: 10_000, ..limits });
    assert!(Event::from_json(&empty).is_ok());
    adk_wasm::limits::set_limits(limits);
}
