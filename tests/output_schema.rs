//! Structured output beyond the recorded flows (tests/flows.rs): replies that hold no JSON, answers
//! that do not fit the schema, `set_model_response` without an answer, and `AgentTool` arguments
//! that do not fit the agent's input schema. Each failure is a typed error, and the session keeps
//! only what was complete.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use adk_wasm::agent::{with_sub_agents, Agent, AgentCore, LlmAgent, LlmAgentConfig, SequentialAgent};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::tool::{AgentTool, ExitLoopTool};
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{AdkError, ErrorCode, Event, LlmResponse};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

fn reply(parts: Vec<Part>) -> ScriptedTurn {
    ScriptedTurn::Response(Box::new(LlmResponse::from_parts(parts)))
}

fn text(t: &str) -> ScriptedTurn {
    reply(vec![Part::from_text(t)])
}

fn call(name: &str, args: Value) -> ScriptedTurn {
    reply(vec![Part::from_function_call(name, args.as_object().cloned().unwrap())])
}

fn trip() -> JsonObject {
    json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
           "required": ["city", "days"]})
    .as_object()
    .cloned()
    .unwrap()
}

fn llm(
    name: &str,
    turns: Vec<ScriptedTurn>,
    f: impl FnOnce(&mut LlmAgentConfig),
) -> (Rc<dyn Agent>, Rc<ScriptedModel>) {
    let model = Rc::new(ScriptedModel::new(turns));
    let mut config = LlmAgentConfig::new(model.clone());
    f(&mut config);
    (Rc::new(LlmAgent::new(AgentCore::new(name, "").unwrap(), config)), model)
}

fn runner_of(agent: Rc<dyn Agent>) -> Runner {
    let runner = Runner::in_memory("app", agent);
    block_on(runner.session_service().create_session("app", "u", None, Some("s"))).unwrap();
    runner
}

/// The events of a run and how it ended.
fn run(runner: &Runner, message: &str) -> (Vec<Event>, Result<(), AdkError>) {
    let results = block_on(
        runner.run_async("u", "s", Content::user_text(message), None, RunConfig::default()).collect::<Vec<_>>(),
    );
    let mut events = Vec::new();
    for result in results {
        match result {
            Ok(event) => events.push(event),
            Err(e) => return (events, Err(e)),
        }
    }
    (events, Ok(()))
}

/// How many events the session holds, and its state.
fn stored(runner: &Runner) -> (usize, JsonObject) {
    let session = block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap();
    (session.events.len(), session.state.clone())
}

#[test]
fn a_reply_that_is_not_json_rejects_the_run_and_is_not_stored() {
    let (agent, _) = llm(
        "extractor",
        vec![text("Sorry, where to?"), text("```json\n{\"city\": \"Seoul\", \"days\": 3}\n```")],
        |c| {
            c.output_schema = Some(trip());
            c.output_key = Some("trip".into());
        },
    );
    let runner = runner_of(agent);
    let (events, ended) = run(&runner, "Plan my trip.");
    let error = ended.unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.starts_with("invalid schema value: not valid JSON"), "{}", error.message);
    assert!(events.is_empty());
    let (stored_events, state) = stored(&runner);
    assert_eq!(stored_events, 1, "only the person's message");
    assert!(state.is_empty());
    // The SDK goes on: the next reply, in a Markdown fence, is parsed.
    let (events, ended) = run(&runner, "Seoul, 3 days.");
    ended.unwrap();
    assert_eq!(events[0].actions.state_delta["trip"], json!({"city": "Seoul", "days": 3}));
    assert_eq!(stored(&runner).1["trip"], json!({"city": "Seoul", "days": 3}));
}

/// ADK parses a reply by a JSON-object schema without checking it against the schema; so does
/// adk-wasm. Without `output_key` the reply is not read at all.
#[test]
fn an_answer_that_does_not_fit_the_schema_is_saved_as_it_is_and_without_output_key_nothing_is_read() {
    let (agent, _) = llm("extractor", vec![text("[\"not\", \"a\", \"trip\"]")], |c| {
        c.output_schema = Some(trip());
        c.output_key = Some("trip".into());
    });
    let runner = runner_of(agent);
    run(&runner, "Go.").1.unwrap();
    assert_eq!(stored(&runner).1["trip"], json!(["not", "a", "trip"]));

    let (agent, _) = llm("extractor", vec![text("Not JSON at all.")], |c| c.output_schema = Some(trip()));
    let (events, ended) = run(&runner_of(agent), "Go.");
    ended.unwrap();
    assert_eq!(events[0].parts()[0].text.as_deref(), Some("Not JSON at all."));
}

/// A `set_model_response` call without `response` gives no answer: the model is asked again.
#[test]
fn set_model_response_without_an_answer_asks_the_model_again() {
    let turns = vec![
        call("set_model_response", json!({})),
        call("set_model_response", json!({"response": {"city": "Jeju", "days": 2}})),
    ];
    let (agent, model) = llm("planner", turns, |c| {
        c.output_schema = Some(trip());
        c.output_key = Some("trip".into());
        c.tools.push(Rc::new(ExitLoopTool).into());
    });
    let runner = runner_of(agent);
    let (events, ended) = run(&runner, "Go.");
    ended.unwrap();
    assert_eq!(model.requests().len(), 2);
    let first = events[1].get_function_responses()[0];
    assert_eq!(Value::Object(first.response.clone().unwrap()), json!({"result": null}));
    assert_eq!(events[1].actions.set_model_response, None);
    let last = events.last().unwrap();
    assert_eq!(last.parts()[0].text.as_deref(), Some(r#"{"city": "Jeju", "days": 2}"#));
    assert_eq!(last.actions.state_delta["trip"], json!({"city": "Jeju", "days": 2}));
    assert!(last.is_final_response());
}

/// A workflow offered as a tool takes its first agent's input schema and answers by its last
/// agent's output schema (ADK's `_get_input_schema` and `_get_output_schema`); arguments that do
/// not fit reject the run, as a tool that throws does, after the call was stored.
#[test]
fn agent_tool_arguments_fit_the_input_schema_of_a_workflows_first_agent() {
    let (first, first_model) = llm("reader", vec![text("Read.")], |c| {
        c.input_schema = json!({"properties": {"city": {"type": "string"}, "days": {"type": "integer", "default": 1}},
                                "required": ["city"], "type": "object"})
        .as_object()
        .cloned();
    });
    let (last, _) = llm("writer", vec![text("{\"city\": \"Seoul\", \"days\": 1}")], |c| c.output_schema = Some(trip()));
    let workflow: Rc<dyn Agent> = Rc::new(SequentialAgent::new(AgentCore::new("trip", "Plans trips.").unwrap()));
    let workflow = with_sub_agents(workflow, vec![first, last]).unwrap();
    let tool = AgentTool::new(workflow);
    let declared = adk_wasm::tool::Tool::declaration(&tool);
    assert_eq!(declared.parameters.unwrap()["required"], json!(["city"]));
    let turns = vec![call("trip", json!({"city": "Seoul"})), text("Done."), call("trip", json!({"days": 2}))];
    let (caller, _) = llm("caller", turns, |c| c.tools.push(Rc::new(tool).into()));
    let runner = runner_of(caller);
    let (events, ended) = run(&runner, "Plan.");
    ended.unwrap();
    assert_eq!(first_model.requests()[0].contents[0].parts()[0].text.as_deref(), Some(r#"{"city":"Seoul","days":1}"#));
    let result = events[1].get_function_responses()[0].response.clone().unwrap();
    assert_eq!(Value::Object(result), json!({"city": "Seoul", "days": 1}));

    let (events, ended) = run(&runner, "Again.");
    let error = ended.unwrap_err();
    assert_eq!(
        (error.code, error.message.as_str()),
        (ErrorCode::InvalidArgument, "trip: the argument `city` is required")
    );
    assert_eq!(events.len(), 1, "the call");
    assert_eq!(stored(&runner).0, 6, "both messages, the first run's three events, the second's call");
}
