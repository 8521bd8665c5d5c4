//! The seeds' `Part` and `Blob` helpers (text_or_transcript, has_function_call/response,
//! from_customized_response, Blob.from_json and transcript), checked against the seeds' Python
//! runtime: the customized response holds the bytes Python's `json.dumps` writes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use adk_wasm::types::{Blob, CustomizedResponse, Part, AGENT_RESPONSE_MIME_TYPE};
use serde_json::{json, Map};

fn bytes_of(part: &Part) -> String {
    String::from_utf8(part.inline_data.as_ref().unwrap().data.as_ref().unwrap().0.clone()).unwrap()
}

#[test]
fn customized_response_defaults_are_the_seeds() {
    let part = Part::from_customized_response(&CustomizedResponse::default());
    assert_eq!(part.inline_data.as_ref().unwrap().mime_type.as_deref(), Some(AGENT_RESPONSE_MIME_TYPE));
    assert_eq!(
        bytes_of(&part),
        r##"{"content": "", "disableBargeIn": false, "enableDtmf": false, "dtmfFinishDigit": "#", "dtmfEndpointingTimeout": 3}"##
    );
}

#[test]
fn customized_response_escapes_as_python_json_dumps() {
    let response =
        CustomizedResponse {
            content: "안녕 \"you\"\n😀\u{7f}".into(), disable_barge_in: true, ..Default::default()
        };
    // What `json.dumps` gives for the same dict (ensure_ascii: non-ASCII and DEL as \uXXXX).
    assert_eq!(
        bytes_of(&Part::from_customized_response(&response)),
        r##"{"content": "\uc548\ub155 \"you\"\n\ud83d\ude00\u007f", "disableBargeIn": true, "enableDtmf": false, "dtmfFinishDigit": "#", "dtmfEndpointingTimeout": 3}"##
    );
}

#[test]
fn text_or_transcript_prefers_the_text() {
    assert_eq!(Part::from_text("").text_or_transcript(), Some(""));
    let mut audio = Part::from_inline_data(vec![1, 2], "audio/wav");
    assert_eq!(audio.text_or_transcript(), None);
    audio.inline_data.as_mut().unwrap().transcript = Some("hello".into());
    assert_eq!(audio.text_or_transcript(), Some("hello"));
    assert_eq!(audio.inline_data.as_ref().unwrap().transcript(), Some("hello"));
    assert_eq!(Part::from_function_call("f", Map::new()).text_or_transcript(), None);
}

#[test]
fn has_function_call_and_response_match_the_name() {
    let call = Part::from_function_call("get_weather", Map::new());
    assert!(call.has_function_call("get_weather") && !call.has_function_call("other"));
    assert!(!call.has_function_response("get_weather"));
    let response = Part::from_function_response("get_weather", Map::new());
    assert!(response.has_function_response("get_weather") && !response.has_function_call("get_weather"));
}

#[test]
fn blob_from_json_and_the_transcript_on_the_wire() {
    let blob = Blob::from_json(r#"{"key": "value"}"#);
    assert_eq!(blob.mime_type.as_deref(), Some("application/json"));
    assert_eq!(blob.data.as_ref().unwrap().0, br#"{"key": "value"}"#.to_vec());
    assert_eq!(Part::from_json("{}").inline_data.unwrap().mime_type.as_deref(), Some("application/json"));
    let heard: Blob = serde_json::from_value(json!({"mimeType": "audio/wav", "transcript": "hi"})).unwrap();
    assert_eq!(heard.transcript(), Some("hi"));
    assert_eq!(serde_json::to_value(&heard).unwrap(), json!({"mimeType": "audio/wav", "transcript": "hi"}));
}
