//! OpenAPIToolset natively, against what google-adk 2.13.0's OpenAPIToolset did with the same spec
//! (tests/fixtures/openapi/adk-2.13.0.json, recorded by tests/openapi/record.py from the FastAPI
//! app tests/openapi/app.py, which echoes each request it gets): the declarations an LlmAgent sends
//! its model, the request each call makes (equal to the one the app echoed to ADK), and the function
//! response made of each answer. The HTTP client here answers with the app's recorded answers;
//! tests/browser/openapi.html makes the same calls against the running app in Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use adk_core::http::{query_params, HttpRequest};
use adk_wasm::agent::{AgentCore, LlmAgent, LlmAgentConfig};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::tool::{OpenApiOptions, OpenApiToolset, ToolFilter, Toolset};
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{ErrorCode, LlmResponse};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

const SERVER: &str = "http://127.0.0.1:8000";

fn recorded() -> Value {
    let text = std::fs::read_to_string("tests/fixtures/openapi/adk-2.13.0.json").unwrap();
    serde_json::from_str(&text.replace("http://127.0.0.1:PORT", SERVER)).unwrap()
}

/// The two toolsets of the recording: every operation but `whoAmI` as the spec says, and `whoAmI`
/// with the toolset's API key.
fn toolsets(spec: &Value) -> Vec<Rc<dyn Toolset>> {
    let plain = OpenApiOptions {
        allow_private_network_access: true,
        tool_filter: Some(ToolFilter::Predicate(Rc::new(|tool, _| tool.name() != "who_am_i"))),
        ..Default::default()
    };
    let keyed = OpenApiOptions {
        allow_private_network_access: true,
        tool_filter: Some(ToolFilter::Names(vec!["who_am_i".into()])),
        auth_scheme: json!({"type": "apiKey", "in": "header", "name": "X-Api-Key"}).as_object().cloned(),
        auth_credential: json!({"authType": "apiKey", "apiKey": "sesame"}).as_object().cloned(),
        ..Default::default()
    };
    vec![Rc::new(OpenApiToolset::new(spec, plain).unwrap()), Rc::new(OpenApiToolset::new(spec, keyed).unwrap())]
}

/// Numbers compared as numbers: ADK's pydantic dump writes `100.0` where the spec has `100`.
fn numeric(value: &Value) -> Value {
    match value {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(items) => Value::Array(items.iter().map(numeric).collect()),
        Value::Object(members) => Value::Object(members.iter().map(|(k, v)| (k.clone(), numeric(v))).collect()),
        other => other.clone(),
    }
}

/// The answer the app gave ADK for a call, rebuilt from the function response ADK made of it; `None`
/// for a call ADK refused before sending.
fn app_answer(response: &Value) -> Option<Reply> {
    if let Some(error) = response.get("error").and_then(Value::as_str) {
        let (status, body) = error.split_once("Status Code: ")?.1.split_once(", ")?;
        return Some(Reply::json(status.parse().unwrap(), body));
    }
    if let Some(text) = response.get("text").and_then(Value::as_str) {
        return Some(Reply::new(200, "text/plain; charset=utf-8", text.as_bytes()));
    }
    Some(Reply::json(200, &response.to_string()))
}

/// What the app would have echoed for `request` (tests/openapi/app.py's `echo`).
fn echo_of(request: &HttpRequest) -> Value {
    let (path, _) =
        request.url.strip_prefix(SERVER).unwrap().split_once('?').unwrap_or((&request.url[SERVER.len()..], ""));
    let mut query = serde_json::Map::new();
    for (key, value) in query_params(&request.url) {
        match query.get_mut(&key) {
            Some(Value::Array(values)) => values.push(value.into()),
            Some(single) => *single = json!([single.clone(), value]),
            None => drop(query.insert(key, value.into())),
        }
    }
    let headers: serde_json::Map<String, Value> = request
        .headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), Value::from(v.as_str())))
        .filter(|(k, _)| ["content-type", "x-request-id", "x-api-key", "authorization"].contains(&k.as_str()))
        .collect();
    let content_type = headers.get("content-type").and_then(Value::as_str).unwrap_or_default();
    let body = match request.body.as_deref() {
        None | Some("") => Value::Null,
        Some(body) if content_type.starts_with("application/json") => serde_json::from_str(body).unwrap(),
        Some(body) if content_type.starts_with("application/x-www-form-urlencoded") => {
            query_params(&format!("?{body}"))
                .into_iter()
                .map(|(k, v)| (k, Value::from(v)))
                .collect::<JsonObject>()
                .into()
        }
        Some(body) => body.into(),
    };
    json!({"method": request.method, "path": path, "query": query, "headers": headers, "body": body})
}

#[test]
fn declarations_requests_and_responses_are_google_adk_2_13_0s() {
    let recorded = recorded();
    let calls = recorded["calls"].as_array().unwrap();
    let turn = |parts: Vec<Part>| ScriptedTurn::Response(Box::new(LlmResponse::from_parts(parts)));
    let turns = calls
        .iter()
        .flat_map(|c| {
            let args = c["args"].as_object().cloned().unwrap();
            [
                turn(vec![Part::from_function_call(c["tool"].as_str().unwrap(), args)]),
                turn(vec![Part::from_text("done")]),
            ]
        })
        .collect();
    let model = Rc::new(ScriptedModel::new(turns));
    let mut config = LlmAgentConfig::new(model.clone());
    config.instruction = adk_wasm::agent::Instruction::Text("Use the tools.".into());
    config.tools = toolsets(&recorded["spec"]).into_iter().map(Into::into).collect();
    let agent = Rc::new(LlmAgent::new(AgentCore::new("api_user", "").unwrap(), config));
    let http = ReplayClient::new(calls.iter().filter_map(|c| app_answer(&c["response"])));
    let runner = Runner::in_memory("app", agent).with_http_client(http.clone()).with_auto_create_session(true);

    let mut sent = 0;
    for call in calls {
        let message = Content::new("user", vec![Part::from_text(&format!("call {}", call["tool"]))]);
        let events = block_on(runner.run_async("u", "s", message, None, RunConfig::default()).collect::<Vec<_>>());
        let events: Vec<_> = events.into_iter().collect::<Result<_, _>>().unwrap();
        let response = events.iter().flat_map(|e| e.get_function_responses()).next().unwrap().response.clone().unwrap();
        assert_eq!(Value::Object(response), call["response"], "{}({})", call["tool"], call["args"]);
        if app_answer(&call["response"]).is_none() {
            continue;
        }
        // The request, as the app would have echoed it: the echo ADK's request got, where the app
        // answered with one.
        let echoed =
            call["response"].get("request").or_else(|| call["response"].get("method").map(|_| &call["response"]));
        if let Some(echoed) = echoed {
            assert_eq!(echo_of(&http.requests()[sent]), *echoed, "{}({})", call["tool"], call["args"]);
        }
        sent += 1;
    }
    assert_eq!((sent, http.remaining()), (http.requests().len(), 0));

    let request = &model.requests()[0];
    let declarations: Vec<Value> = request.function_declarations().map(|d| serde_json::to_value(d).unwrap()).collect();
    assert_eq!(numeric(&Value::Array(declarations)), numeric(&recorded["declarations"]));
}

#[test]
fn bad_specs_are_refused_where_they_are_given() {
    for (spec, message) in [
        (json!([1]), "must be an object"),
        (json!({"paths": {"/a": 3}}), "path item of /a"),
        (json!({"paths": {"/a": {"get": {"parameters": [{"$ref": "other.json#/p"}]}}}}), "external references"),
        (json!({"paths": []}), "`paths` must be an object"),
    ] {
        let error = OpenApiToolset::new(&spec, OpenApiOptions::default()).err().unwrap();
        assert_eq!(error.code, ErrorCode::InvalidArgument);
        assert!(error.message.contains(message), "{}", error.message);
    }
}

/// An operation whose scheme has no credential yet asks the person (ADK's `adk_request_credential`,
/// the tool answering `pending` as ADK's does); their answer is used when the tool runs again.
#[test]
fn an_operation_without_its_credential_asks_the_person_for_it() {
    let spec = json!({"servers": [{"url": "https://api.example"}],
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
        "paths": {"/me": {"get": {"operationId": "whoAmI"}}}});
    let toolset: Rc<dyn Toolset> = Rc::new(OpenApiToolset::new(&spec, OpenApiOptions::default()).unwrap());
    let turn = |parts: Vec<Part>| ScriptedTurn::Response(Box::new(LlmResponse::from_parts(parts)));
    let model = Rc::new(ScriptedModel::new(vec![
        turn(vec![Part::from_function_call("who_am_i", JsonObject::new())]),
        turn(vec![Part::from_text("signed in?")]),
        turn(vec![Part::from_text("done")]),
    ]));
    let mut config = LlmAgentConfig::new(model);
    config.tools = vec![toolset.into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("api_user", "").unwrap(), config));
    let http = ReplayClient::new([Reply::json(200, r#"{"me": "ann"}"#)]);
    let runner = Runner::in_memory("app", agent).with_http_client(http.clone()).with_auto_create_session(true);
    let run = |message: Content| {
        let events = block_on(runner.run_async("u", "s", message, None, RunConfig::default()).collect::<Vec<_>>());
        events.into_iter().collect::<Result<Vec<_>, _>>().unwrap()
    };

    let events = run(Content::new("user", vec![Part::from_text("who am I?")]));
    let responses: Vec<_> = events.iter().flat_map(|e| e.get_function_responses()).collect();
    assert_eq!(
        Value::Object(responses[0].response.clone().unwrap()),
        json!({"pending": true, "message": "Needs your authorization to access your data."})
    );
    let asked = events
        .iter()
        .flat_map(|e| e.get_function_calls())
        .find(|c| c.name.as_deref() == Some("adk_request_credential"));
    let asked = asked.expect("the agent asks for the credential").clone();
    assert!(http.requests().is_empty());

    let mut answer = asked.args.clone().unwrap()["authConfig"].as_object().cloned().unwrap();
    answer.insert(
        "exchangedAuthCredential".into(),
        json!({"authType": "http", "http": {"scheme": "bearer", "credentials": {"token": "T-1"}}}),
    );
    let response = adk_wasm::types::FunctionResponse {
        id: asked.id.clone(),
        name: Some("adk_request_credential".into()),
        response: Some(answer),
        ..Default::default()
    };
    let events = run(Content::new("user", vec![Part { function_response: Some(response), ..Default::default() }]));
    let result = events.iter().flat_map(|e| e.get_function_responses()).find(|r| r.name.as_deref() == Some("who_am_i"));
    assert_eq!(Value::Object(result.unwrap().response.clone().unwrap()), json!({"me": "ann"}));
    let sent = http.requests();
    assert_eq!((sent.len(), sent[0].url.as_str()), (1, "https://api.example/me"));
    assert!(sent[0].headers.contains(&("Authorization".into(), "Bearer T-1".into())), "{:?}", sent[0].headers);
}
