//! RemoteA2aAgent natively, over recorded a2a-sdk and google-adk `to_a2a` streams: which events it
//! makes (thoughts, partial chunks, the whole artifact, the closing state), what it sends on the
//! next turn (only the new words, the same context, the interrupted task), and failures as events.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use adk_wasm::a2a::{A2aClient, AgentCard, RemoteA2aAgent};
use adk_wasm::agent::{Agent, AgentCore};
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::types::{Content, FunctionResponse, Part};
use adk_wasm::Event;
use common::a2a::{card, fixture, fixture_text, options};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::Value;

use adk_wasm::a2a::{Binding, ProtocolVersion};

fn runner_over(card: AgentCard, binding: Binding, replies: Vec<Reply>) -> (Runner, Rc<ReplayClient>) {
    let http = ReplayClient::new(replies);
    let client = A2aClient::from_card(card, options(ProtocolVersion::V1_0, binding), http.clone()).unwrap();
    let agent = Rc::new(RemoteA2aAgent::new(AgentCore::new("remote", "").unwrap(), client)) as Rc<dyn Agent>;
    let runner = Runner::in_memory("app", agent).with_auto_create_session(true);
    (runner, http)
}

fn run(runner: &Runner, text: &str) -> Vec<Event> {
    let config = RunConfig { streaming_mode: adk_wasm::runner::StreamingMode::Sse, ..Default::default() };
    block_on(runner.run_async("u", "s", Content::user_text(text), None, config).map(|e| e.unwrap()).collect())
}

fn text(event: &Event) -> String {
    event.parts().iter().filter_map(|p| p.text.as_deref()).collect()
}

fn meta<'a>(event: &'a Event, key: &str) -> Option<&'a str> {
    event.custom_metadata.as_ref()?.get(key)?.as_str()
}

/// A recorded stream with each event's JSON rewritten by `edit`.
fn frames(name: &str, edit: impl Fn(Value) -> Value) -> Vec<u8> {
    let text = fixture_text(name);
    let out: String = text
        .split("\r\n\r\n")
        .filter(|frame| !frame.trim().is_empty())
        .map(|frame| {
            format!("data: {}\r\n\r\n", edit(serde_json::from_str(frame.trim().trim_start_matches("data: ")).unwrap()))
        })
        .collect();
    out.into_bytes()
}

/// The message the agent sent in request `i`, from the HTTP+JSON body.
fn sent(http: &ReplayClient, i: usize) -> Value {
    http.body(i)["message"].clone()
}

#[test]
fn a_streamed_task_becomes_thoughts_partials_the_whole_artifact_and_the_closing_state() {
    let (runner, http) = runner_over(card(), Binding::HttpJson, vec![Reply::sse(&fixture("v10-rest-stream.sse"))]);
    let events = run(&runner, "hi");
    let shape: Vec<(bool, bool, String)> = events
        .iter()
        .map(|e| {
            (
                e.partial == Some(true),
                e.parts().iter().all(|p| p.thought == Some(true)) && !e.parts().is_empty(),
                text(e),
            )
        })
        .collect();
    let stored: Vec<&(bool, bool, String)> = shape.iter().filter(|(partial, _, _)| !partial).collect();
    assert_eq!(stored.first().map(|s| (s.1, s.2.as_str())), Some((true, "thinking")), "{shape:?}");
    assert!(stored.iter().any(|s| !s.1 && s.2 == "echo: hi!"), "the whole artifact in one stored event: {shape:?}");
    assert_eq!(shape.iter().filter(|s| s.0).map(|s| s.2.as_str()).collect::<Vec<_>>(), ["echo: ", "hi"]);
    let last = events.last().unwrap();
    assert_eq!(meta(last, "a2a:task_state"), Some("TASK_STATE_COMPLETED"));
    assert_eq!(meta(last, "a2a:task_id"), Some("84b143ab-48d9-455b-8b66-3d1bbc00ec8b"));
    assert_eq!(meta(last, "a2a:context_id"), Some("48d52c41-bf53-460b-a85f-cc72196ac01b"));
    assert_eq!(sent(&http, 0)["parts"], serde_json::json!([{"text": "hi"}]));
    assert_eq!(sent(&http, 0)["role"], "ROLE_USER");
    assert!(sent(&http, 0).get("contextId").is_none());
}

#[test]
fn the_next_turn_sends_only_new_words_in_the_same_context() {
    let stream = fixture("v10-rest-stream.sse");
    let (runner, http) = runner_over(card(), Binding::HttpJson, vec![Reply::sse(&stream), Reply::sse(&stream)]);
    run(&runner, "hi");
    run(&runner, "more");
    let second = sent(&http, 1);
    assert_eq!(second["parts"], serde_json::json!([{"text": "more"}]));
    assert_eq!(second["contextId"], "48d52c41-bf53-460b-a85f-cc72196ac01b");
    // The task completed: a new message starts a new task in the same conversation.
    assert!(second.get("taskId").is_none(), "{second}");
}

#[test]
fn an_input_required_task_is_continued_by_the_next_turn() {
    // Recorded over JSON-RPC; the same events as an HTTP+JSON stream are the `result` of each frame.
    let stream = frames("v10-jsonrpc-ask.sse", |json| json["result"].clone());
    let (runner, http) = runner_over(card(), Binding::HttpJson, vec![Reply::sse(&stream), Reply::sse(&stream)]);
    let events = run(&runner, "ask me");
    let last = events.last().unwrap();
    assert_eq!(meta(last, "a2a:task_state"), Some("TASK_STATE_INPUT_REQUIRED"));
    // As ADK 2.x: the question becomes a long-running stand-in call the person answers.
    let call = last.get_function_calls()[0].clone();
    assert_eq!(call.name.as_deref(), Some("mock_function_call_for_required_user_input"));
    assert!(call.args.as_ref().unwrap()["input_required"].as_str().is_some_and(|q| !q.is_empty()), "{call:?}");
    assert!(last.long_running_tool_ids.as_ref().unwrap().contains(call.id.as_ref().unwrap()));
    // A plain message continues the task too.
    run(&runner, "here you go");
    assert_eq!(sent(&http, 1)["taskId"], meta(last, "a2a:task_id").unwrap());
}

#[test]
fn the_answer_to_the_stand_in_call_goes_to_the_task_as_text() {
    let stream = frames("v10-jsonrpc-ask.sse", |json| json["result"].clone());
    let (runner, http) = runner_over(card(), Binding::HttpJson, vec![Reply::sse(&stream), Reply::sse(&stream)]);
    let events = run(&runner, "ask me");
    let last = events.last().unwrap();
    let call = last.get_function_calls()[0].clone();
    let answer = |response: serde_json::Value| Part {
        function_response: Some(FunctionResponse {
            id: call.id.clone(),
            name: call.name.clone(),
            response: response.as_object().cloned(),
            ..Default::default()
        }),
        ..Default::default()
    };
    let message = Content::new("user", vec![answer(serde_json::json!({"result": "blue"}))]);
    block_on(runner.run_async("u", "s", message, None, RunConfig::default()).collect::<Vec<_>>());
    let sent = sent(&http, 1);
    assert_eq!(sent["parts"], serde_json::json!([{"text": "blue"}]));
    assert_eq!(sent["taskId"], meta(last, "a2a:task_id").unwrap());
}

#[test]
fn google_adk_to_a2a_partials_are_thoughts_and_its_answer_is_stored() {
    let card = AgentCard::from_json(&fixture_text("recorded/adk.card.json")).unwrap();
    // The recording's JSON-RPC id was the recorder's; this client's first request has id 1.
    let stream = frames("recorded/adk-v1-jsonrpc-stream.sse", |mut json| {
        json["id"] = 1.into();
        json
    });
    let (runner, _) = runner_over(card, Binding::JsonRpc, vec![Reply::sse(&stream)]);
    let events = run(&runner, "ping");
    let answers: Vec<String> = events
        .iter()
        .filter(|e| e.partial != Some(true) && e.parts().iter().any(|p| p.thought != Some(true)))
        .map(text)
        .collect();
    assert!(answers.iter().any(|t| t.contains("you said: ")), "{answers:?}");
    assert_eq!(meta(events.last().unwrap(), "a2a:task_state"), Some("TASK_STATE_COMPLETED"));
}

#[test]
fn failures_are_error_events_and_the_session_goes_on() {
    let failed = concat!(
        "data: {\"task\": {\"id\": \"t1\", \"contextId\": \"c1\", \"status\": {\"state\": \"TASK_STATE_SUBMITTED\"}}}\r\n\r\n",
        "data: {\"statusUpdate\": {\"taskId\": \"t1\", \"contextId\": \"c1\", \"status\": {\"state\": \"TASK_STATE_FAILED\", ",
        "\"message\": {\"messageId\": \"x\", \"role\": \"ROLE_AGENT\", \"parts\": [{\"text\": \"disk full\"}]}}}}\r\n\r\n",
    );
    let (runner, _) = runner_over(
        card(),
        Binding::HttpJson,
        vec![
            Reply::sse(failed.as_bytes()),
            Reply::json(503, r#"{"error": {"code": 503, "status": "UNAVAILABLE", "message": "overloaded"}}"#),
        ],
    );
    let events = run(&runner, "go");
    let error = events.last().unwrap();
    assert_eq!(error.error_code.as_deref(), Some("A2A_TASK_FAILED"));
    assert_eq!(error.error_message.as_deref(), Some("disk full"));
    let events = run(&runner, "again");
    assert_eq!(events.last().unwrap().error_code.as_deref(), Some("UNAVAILABLE"));
    let session = block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap();
    assert_eq!(session.events.iter().filter(|e| e.author == "user").count(), 2);
}

/// An HTTP+JSON stream of task `t1`: submitted, then each `(state, parts)` as a status update whose
/// message has those parts (JSON).
fn status_stream(updates: &[(&str, &str)]) -> String {
    let mut stream = String::from(
        "data: {\"task\": {\"id\": \"t1\", \"contextId\": \"c1\", \"status\": {\"state\": \"TASK_STATE_SUBMITTED\"}}}\r\n\r\n",
    );
    for (i, (state, parts)) in updates.iter().enumerate() {
        stream.push_str(&format!(
            "data: {{\"statusUpdate\": {{\"taskId\": \"t1\", \"contextId\": \"c1\", \"status\": {{\"state\": \"{state}\", \
             \"message\": {{\"messageId\": \"m{i}\", \"role\": \"ROLE_AGENT\", \"parts\": {parts}}}}}}}}}\r\n\r\n"
        ));
    }
    stream
}

#[test]
fn the_remote_s_thoughts_are_thoughts_and_left_out_beside_its_answer() {
    // What ADK's A2A server sends for a thinking model: texts marked `adk_thought` (its part converter).
    let stream = status_stream(&[
        ("TASK_STATE_WORKING", r#"[{"text": "Thinking…", "metadata": {"adk_thought": true}}, {"text": " step 1"}]"#),
        ("TASK_STATE_COMPLETED", r#"[{"text": "Let me reason.", "metadata": {"adk_thought": true}}, {"text": "42"}]"#),
    ]);
    let (runner, _) = runner_over(card(), Binding::HttpJson, vec![Reply::sse(stream.as_bytes())]);
    let events = run(&runner, "6 × 7?");
    let last = events.last().unwrap();
    assert_eq!(meta(last, "a2a:task_state"), Some("TASK_STATE_COMPLETED"));
    assert_eq!(text(last), "42");
    assert!(last.parts().iter().all(|p| p.thought.is_none()), "{:?}", last.parts());
    // A working status is all thoughts, none left out.
    let working = events.iter().find(|e| text(e) == "Thinking… step 1").expect("the working status");
    assert!(working.parts().iter().all(|p| p.thought == Some(true)));
}

#[test]
fn a_remote_call_marked_long_running_pauses_the_run_on_it() {
    // What ADK's A2A server sends when its agent's long-running tool waits for the person.
    let stream = status_stream(&[(
        "TASK_STATE_INPUT_REQUIRED",
        concat!(
            r#"[{"text": "Need approval"}, {"data": {"id": "call-1", "name": "approve", "args": {}}, "#,
            r#""metadata": {"adk_type": "function_call", "adk_is_long_running": true}}]"#
        ),
    )]);
    let (runner, _) = runner_over(card(), Binding::HttpJson, vec![Reply::sse(stream.as_bytes())]);
    let events = run(&runner, "pay the invoice");
    let last = events.last().unwrap();
    let ids: Vec<&str> =
        last.long_running_tool_ids.as_ref().map(|ids| ids.iter().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(ids, ["call-1"], "{last:?}");
    // The remote's own call is what the person answers; its text stays text (no stand-in question).
    assert_eq!(text(last), "Need approval");
    assert!(last.parts().iter().any(|p| p.function_call.as_ref().and_then(|c| c.name.as_deref()) == Some("approve")));
}

#[test]
fn a_whole_answer_s_artifacts_are_stored_whatever_the_task_s_state() {
    // SendMessage's task, paused for input: its artifacts are as whole as they will be in this answer.
    let paused = fixture_text("v10-rest-send.json").replace("TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED");
    let mut card = card();
    card.capabilities.streaming = None;
    let (runner, _) = runner_over(card, Binding::HttpJson, vec![Reply::json(200, &paused)]);
    let events = run(&runner, "hi");
    assert!(events.iter().all(|e| e.partial != Some(true)), "{events:?}");
    let session = block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap();
    assert!(session.events.iter().any(|e| text(e) == "echo: hi!"), "{:?}", session.events);
}

#[test]
fn an_agent_without_streaming_gets_one_answer() {
    // `false`, or no word at all (a2a-sdk's and @a2a-js/sdk's clients stream only on `true`).
    for streaming in [Some(false), None] {
        let mut card = card();
        card.capabilities.streaming = streaming;
        let (runner, http) =
            runner_over(card, Binding::HttpJson, vec![Reply::json(200, &fixture_text("v10-rest-send.json"))]);
        let events = run(&runner, "hi");
        assert!(http.requests()[0].url.ends_with("/message:send"), "{streaming:?}: {}", http.requests()[0].url);
        assert!(events.iter().all(|e| e.partial != Some(true)));
        assert!(events.iter().any(|e| !text(e).is_empty() && e.parts().iter().all(|p| p.thought != Some(true))));
    }
}
