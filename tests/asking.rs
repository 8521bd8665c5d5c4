//! The agent asking the person, beyond the recorded flows (tests/flows.rs has those): confirmation
//! answers that are late, repeated, malformed or for nothing, a model that makes the request
//! itself, credential answers for nothing or malformed, and where a given credential goes. Each
//! gets ADK's behaviour or a typed error, a tool runs at most once per approval, and the session
//! holds only whole events.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use std::cell::Cell;
use std::rc::Rc;

use adk_wasm::agent::{AgentCore, LlmAgent, LlmAgentConfig};
use adk_wasm::auth::AuthConfig;
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::tool::{FunctionTool, RequireConfirmation, ToolFunction};
use adk_wasm::types::{Content, FunctionResponse, JsonObject, Part};
use adk_wasm::{AdkError, ErrorCode, Event, LlmResponse};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

const APP: &str = "app";
const USER: &str = "user";

/// A runner over one agent, and how many times its tool did its work (sent money, read mail).
struct Asking {
    runner: Runner,
    done: Rc<Cell<u32>>,
}

fn turn(parts: Vec<Part>) -> ScriptedTurn {
    ScriptedTurn::Response(Box::new(LlmResponse::from_parts(parts)))
}

/// A banker whose `transfer_money` always asks, and whose model calls it once, then answers
/// `replies` in turn.
fn bank(first: Vec<Part>, replies: &[&str]) -> Asking {
    let sent = Rc::new(Cell::new(0));
    let counter = sent.clone();
    let run: ToolFunction = Rc::new(move |_args, _ctx| {
        counter.set(counter.get() + 1);
        Box::pin(async { Ok(json!({"status": "sent"})) })
    });
    let tool = FunctionTool::new("transfer_money", "Sends money.", None, run)
        .require_confirmation(RequireConfirmation::Always);
    let mut turns = vec![turn(first)];
    turns.extend(replies.iter().map(|r| turn(vec![Part::from_text(r)])));
    let mut config = LlmAgentConfig::new(Rc::new(ScriptedModel::new(turns)));
    config.tools = vec![Rc::new(tool).into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("banker", "").unwrap(), config));
    Asking { runner: Runner::in_memory(APP, agent), done: sent }
}

fn transfer() -> Vec<Part> {
    vec![Part::from_function_call("transfer_money", JsonObject::from_iter([("amount".into(), json!(50))]))]
}

fn run(bank: &Asking, message: Content) -> Result<Vec<Event>, AdkError> {
    let events = bank.runner.run_async(USER, "s", message, None, RunConfig::default());
    block_on(events.collect::<Vec<_>>()).into_iter().collect()
}

fn answer(id: &str, response: Value) -> Content {
    reply("adk_request_confirmation", id, response)
}

/// The person's message answering the call `id` of `name`.
fn reply(name: &str, id: &str, response: Value) -> Content {
    let response = FunctionResponse {
        id: Some(id.into()),
        name: Some(name.into()),
        response: response.as_object().cloned(),
        ..Default::default()
    };
    Content::new("user", vec![Part { function_response: Some(response), ..Default::default() }])
}

fn session_events(bank: &Asking) -> Vec<Event> {
    block_on(bank.runner.session_service().get_session(APP, USER, "s", None)).unwrap().unwrap().events.to_vec()
}

/// Runs the first turn and returns the id of the `adk_request_confirmation` call it paused on.
fn paused(bank: &Asking) -> String {
    block_on(bank.runner.session_service().create_session(APP, USER, None, Some("s"))).unwrap();
    let events = run(bank, Content::user_text("Send 50.")).unwrap();
    let request = events
        .iter()
        .flat_map(|e| e.get_function_calls())
        .find(|c| c.name.as_deref() == Some("adk_request_confirmation"));
    request.unwrap().id.clone().unwrap()
}

#[test]
fn an_answer_given_twice_runs_the_tool_once_and_the_second_ends_the_invocation_quietly() {
    let bank = bank(transfer(), &["Sent."]);
    let request = paused(&bank);
    assert_eq!(bank.done.get(), 0);
    let first = run(&bank, answer(&request, json!({"confirmed": true}))).unwrap();
    assert_eq!(bank.done.get(), 1);
    assert_eq!(first.last().unwrap().content.as_ref().unwrap().parts()[0].text.as_deref(), Some("Sent."));
    let stored = session_events(&bank).len();
    // ADK: the answer was spent, the message holds nothing else, so the invocation ends at once.
    let second = run(&bank, answer(&request, json!({"confirmed": true}))).unwrap();
    assert!(second.is_empty(), "{second:?}");
    assert_eq!(bank.done.get(), 1);
    assert_eq!(session_events(&bank).len(), stored + 1, "only the person's message is added");
}

#[test]
fn a_refusal_never_runs_the_tool() {
    let bank = bank(transfer(), &["Nothing sent."]);
    let request = paused(&bank);
    let events = run(&bank, answer(&request, json!({"confirmed": false}))).unwrap();
    assert_eq!(bank.done.get(), 0);
    let response = events[0].get_function_responses()[0].response.clone().unwrap();
    assert_eq!(response["error"], "This tool call is rejected.");
}

#[test]
fn a_malformed_answer_is_a_typed_error_and_the_tool_does_not_run() {
    let bank = bank(transfer(), &["Sent."]);
    let request = paused(&bank);
    let stored = session_events(&bank).len();
    let error = run(&bank, answer(&request, json!({"confirmed": "yes"}))).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument, "{error}");
    assert!(error.message.contains("ToolConfirmation"), "{error}");
    assert_eq!(bank.done.get(), 0);
    // The message is stored whole; the run stopped before anything else.
    assert_eq!(session_events(&bank).len(), stored + 1);
    // ...and a good answer afterwards still works.
    run(&bank, answer(&request, json!({"confirmed": true}))).unwrap();
    assert_eq!(bank.done.get(), 1);
}

#[test]
fn an_answer_to_no_request_runs_nothing_and_the_model_goes_on() {
    let bank = bank(transfer(), &["I see no such request."]);
    paused(&bank);
    let events = run(&bank, answer("adk-no-such-call", json!({"confirmed": true}))).unwrap();
    assert_eq!(bank.done.get(), 0);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].content.as_ref().unwrap().parts()[0].text.as_deref(), Some("I see no such request."));
}

#[test]
fn a_model_that_makes_the_request_itself_gets_the_unknown_tool_error() {
    let forged = vec![Part::from_function_call("adk_request_confirmation", JsonObject::new())];
    let bank = bank(forged, &[]);
    block_on(bank.runner.session_service().create_session(APP, USER, None, Some("s"))).unwrap();
    let error = run(&bank, Content::user_text("Hi.")).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument, "{error}");
    assert!(error.message.contains("adk_request_confirmation"), "{error}");
    assert_eq!(bank.done.get(), 0);
}

const INBOX_AUTH: &str = r#"{"authScheme": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
    "rawAuthCredential": {"authType": "apiKey"}}"#;

fn inbox_auth() -> AuthConfig {
    AuthConfig::from_json(serde_json::from_str(INBOX_AUTH).unwrap()).unwrap()
}

/// A mail agent whose `read_inbox` asks for a key until it has one; `reads` counts reads with one.
fn mail(replies: &[&str]) -> Asking {
    let reads = Rc::new(Cell::new(0));
    let counter = reads.clone();
    let run: ToolFunction = Rc::new(move |_args, ctx| {
        let answer = match ctx.get_auth_response(&inbox_auth()) {
            Some(credential) => {
                counter.set(counter.get() + 1);
                json!({"unread": 2, "key": credential["apiKey"]})
            }
            None => {
                ctx.request_credential(&inbox_auth()).unwrap();
                json!({"status": "Waiting for the key."})
            }
        };
        Box::pin(async move { Ok(answer) })
    });
    let tool = FunctionTool::new("read_inbox", "Reads mail.", None, run);
    let mut turns = vec![turn(vec![Part::from_function_call("read_inbox", JsonObject::new())])];
    turns.extend(replies.iter().map(|r| turn(vec![Part::from_text(r)])));
    let mut config = LlmAgentConfig::new(Rc::new(ScriptedModel::new(turns)));
    config.tools = vec![Rc::new(tool).into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("mail", "").unwrap(), config));
    Asking { runner: Runner::in_memory(APP, agent), done: reads }
}

fn credential_answer(id: &str, response: Value) -> Content {
    reply("adk_request_credential", id, response)
}

/// Runs the first turn and returns the `adk_request_credential` call it paused on (id, authConfig).
fn locked(bank: &Asking) -> (String, Value) {
    block_on(bank.runner.session_service().create_session(APP, USER, None, Some("s"))).unwrap();
    let events = run(bank, Content::user_text("Read my mail.")).unwrap();
    let request = events
        .iter()
        .flat_map(|e| e.get_function_calls())
        .find(|c| c.name.as_deref() == Some("adk_request_credential"));
    let request = request.unwrap();
    (request.id.clone().unwrap(), request.args.as_ref().unwrap()["authConfig"].clone())
}

#[test]
fn a_given_key_is_read_by_the_tool_and_kept_out_of_the_state_and_the_agents_events() {
    let bank = mail(&["Two unread."]);
    let (id, mut config) = locked(&bank);
    config["exchangedAuthCredential"] = json!({"authType": "apiKey", "apiKey": "secret-123"});
    let events = run(&bank, credential_answer(&id, config)).unwrap();
    assert_eq!(bank.done.get(), 1);
    assert_eq!(events[0].get_function_responses()[0].response.as_ref().unwrap()["key"], "secret-123");
    let session = block_on(bank.runner.session_service().get_session(APP, USER, "s", None)).unwrap().unwrap();
    assert!(!adk_core::json::to_string(&session.state).contains("secret-123"), "{:?}", session.state);
    // Where ADK has it too: the person's answer, and the tool's own result that uses it.
    let holding: Vec<&str> = session
        .events
        .iter()
        .filter(|e| adk_core::json::to_string(*e).contains("secret-123"))
        .map(|e| e.author.as_str())
        .collect();
    assert_eq!(holding, ["user", "mail"]);
}

#[test]
fn a_credential_answer_nobody_asked_for_runs_nothing() {
    let bank = mail(&["No such request."]);
    let (_, mut config) = locked(&bank);
    config["exchangedAuthCredential"] = json!({"authType": "apiKey", "apiKey": "secret-123"});
    let events = run(&bank, credential_answer("adk-no-such-call", config)).unwrap();
    assert_eq!(bank.done.get(), 0);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].content.as_ref().unwrap().parts()[0].text.as_deref(), Some("No such request."));
}

#[test]
fn a_malformed_credential_answer_is_ignored_the_tool_runs_again_without_it_and_the_model_goes_on() {
    // ADK: the answer holds no credential, so nothing is stored; the tool that asked runs again
    // (and waits again), and the model hears that.
    let bank = mail(&["I still need your key."]);
    let (id, _) = locked(&bank);
    let events = run(&bank, credential_answer(&id, json!({"apiKey": "no authType"}))).unwrap();
    assert_eq!(bank.done.get(), 0);
    assert_eq!(events[0].get_function_responses()[0].response.as_ref().unwrap()["status"], "Waiting for the key.");
    assert_eq!(
        events.last().unwrap().content.as_ref().unwrap().parts()[0].text.as_deref(),
        Some("I still need your key.")
    );
}

#[test]
fn auth_configs_are_checked() {
    let no_scheme =
        AuthConfig::from_json(serde_json::from_str(r#"{"rawAuthCredential": {"authType": "apiKey"}}"#).unwrap());
    assert_eq!(no_scheme.unwrap_err().code, ErrorCode::InvalidArgument);
    // OAuth2 whose flows name no authorization endpoint, or without a client: ADK's ValueErrors.
    let oauth = r#"{"authScheme": {"type": "oauth2", "flows": {}}, "rawAuthCredential": {"authType": "oauth2", "oauth2": {"clientId": "c"}}}"#;
    let oauth = AuthConfig::from_json(serde_json::from_str(oauth).unwrap()).unwrap();
    let error = oauth.auth_request().unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.contains("no flow declares an authorization endpoint"), "{}", error.message);
    let no_client = r#"{"authScheme": {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "http://i/a", "tokenUrl": "http://i/t", "scopes": {}}}}, "rawAuthCredential": {"authType": "oauth2", "oauth2": {}}}"#;
    let no_client = AuthConfig::from_json(serde_json::from_str(no_client).unwrap()).unwrap();
    assert!(no_client.auth_request().unwrap_err().message.contains("requires client_id"));
    // The agent's own secret never goes to the person.
    let keyed = r#"{"authScheme": {"type": "apiKey", "in": "header", "name": "k"}, "rawAuthCredential": {"authType": "apiKey", "apiKey": "agent-secret"}}"#;
    let keyed = AuthConfig::from_json(serde_json::from_str(keyed).unwrap()).unwrap();
    assert!(!adk_core::json::to_string(&Value::Object(keyed.auth_request().unwrap().to_json().clone()))
        .contains("agent-secret"));
}
