//! What tool and callback code can reach beyond itself, as the seeds' Python runtime offers it:
//! another tool of its agent by name (`tools.<name>(args)`) and HTTP (`ces_requests`), both
//! answering with an `ExternalResponse`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use adk_wasm::agent::llm::call_tool;
use adk_wasm::agent::{AgentCore, Cancellation, LlmAgent, LlmAgentConfig, ToolContext};
use adk_wasm::http::{request, ExternalResponse, RequestOptions};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::tool::{FunctionTool, Tool};
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{AdkError, ErrorCode, LlmResponse};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

type Body = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, AdkError>>>>;

fn tool(name: &str, run: impl Fn(JsonObject, ToolContext) -> Body + 'static) -> Rc<dyn Tool> {
    Rc::new(FunctionTool::new(name, "a test tool", None, Rc::new(run)))
}

fn summary(r: &ExternalResponse) -> Value {
    json!({"status": r.status_code, "ok": r.ok(), "reason": r.reason, "body": r.json().unwrap_or(Value::Null)})
}

#[test]
fn a_tool_calls_other_tools_of_its_agent_by_name() {
    let add = tool("add", |args, ctx| {
        Box::pin(async move {
            ctx.state().set("added", json!(true));
            Ok(json!(args["a"].as_i64().unwrap() + args["b"].as_i64().unwrap()))
        })
    });
    let failing = tool("failing", |_, _| Box::pin(async { Err(AdkError::invalid("bad input")) }));
    let caller = tool("caller", |_, ctx| {
        Box::pin(async move {
            let sum = call_tool(&ctx, "add", json!({"a": 2, "b": 3}).as_object().cloned().unwrap()).await;
            let failed = call_tool(&ctx, "failing", JsonObject::new()).await;
            let missing = call_tool(&ctx, "nowhere", JsonObject::new()).await;
            Ok(json!([summary(&sum), summary(&failed), summary(&missing)]))
        })
    });
    let call = Part::from_function_call("caller", JsonObject::new());
    let model = Rc::new(ScriptedModel::new(vec![
        ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![call]))),
        ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![Part::from_text("done")]))),
    ]));
    let mut config = LlmAgentConfig::new(model);
    config.tools = vec![add.into(), failing.into(), caller.into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("calc", "").unwrap(), config));
    let runner = Runner::in_memory("app", agent);
    block_on(runner.session_service().create_session("app", "u", None, Some("s"))).unwrap();
    let events: Vec<_> =
        block_on(runner.run_async("u", "s", Content::user_text("go"), None, RunConfig::default()).collect::<Vec<_>>());
    let responses = events[1].as_ref().unwrap();
    let result = Value::Object(responses.parts()[0].function_response.clone().unwrap().response.unwrap());
    assert_eq!(
        result,
        json!({"result": [
            {"status": 200, "ok": true, "reason": "", "body": 5},
            {"status": 400, "ok": false, "reason": "bad input", "body": {"error": "bad input"}},
            {"status": 404, "ok": false, "reason": "agent `calc` has no tool `nowhere`",
             "body": {"error": "agent `calc` has no tool `nowhere`"}}]})
    );
    // The called tool ran in the caller's context: its state write is in the caller's event.
    assert_eq!(responses.actions.state_delta.get("added"), Some(&json!(true)));
}

#[test]
fn requests_sends_params_json_and_headers_and_answers_error_statuses() {
    let client = ReplayClient::new([Reply::json(200, r#"{"temp": 21}"#), Reply::json(404, r#"{"error": "no city"}"#)]);
    let options = RequestOptions {
        params: vec![("city".into(), "Seoul Gangnam".into()), ("q".into(), "a&b=c/서".into())],
        ..Default::default()
    };
    let got = block_on(request(&*client, "get", "https://api.example.com/weather", options, Rc::default())).unwrap();
    assert_eq!(summary(&got), json!({"status": 200, "ok": true, "reason": "", "body": {"temp": 21}}));
    let json = RequestOptions { json: Some(json!({"city": "Busan"})), ..Default::default() };
    let missing =
        block_on(request(&*client, "POST", "https://api.example.com/weather?v=1", json, Rc::default())).unwrap();
    assert_eq!((missing.status_code, missing.reason.as_str(), missing.ok()), (404, "Not Found", false));
    let raised = missing.raise_for_status().unwrap_err();
    assert_eq!((raised.code, raised.http_status), (ErrorCode::NotFound, Some(404)));
    let sent = client.requests();
    assert_eq!(sent[0].url, "https://api.example.com/weather?city=Seoul+Gangnam&q=a%26b%3Dc%2F%EC%84%9C");
    assert_eq!((sent[0].method.as_str(), sent[0].body.as_deref()), ("GET", None));
    assert_eq!(sent[1].url, "https://api.example.com/weather?v=1");
    assert_eq!(sent[1].headers, vec![("Content-Type".to_string(), "application/json".to_string())]);
    assert_eq!(client.body(1), json!({"city": "Busan"}));
}

#[test]
fn requests_refuses_bad_calls_and_stops_with_the_run() {
    let client = ReplayClient::new([Reply::json(200, "{}")]);
    let both = RequestOptions { json: Some(json!({})), body: Some("x".into()), ..Default::default() };
    let e = block_on(request(&*client, "GET", "https://x.test", both, Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    let e =
        block_on(request(&*client, "TRACE", "https://x.test", RequestOptions::default(), Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    let stopped = Rc::new(Cancellation::default());
    stopped.cancel();
    let e = block_on(request(&*client, "GET", "https://x.test", RequestOptions::default(), stopped)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Aborted);
}
