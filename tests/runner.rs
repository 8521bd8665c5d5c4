//! Runner behaviour (ADK Python's runners.py, 1.x classic path): the user event, agent selection,
//! appending before yielding, errors, concurrency and cancellation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use adk_wasm::agent::{
    agent_event, with_sub_agents, Agent, AgentCore, EventStream, InvocationContext, SequentialAgent,
};
use adk_wasm::runner::{find_agent_to_run, RunConfig, Runner};
use adk_wasm::session::Session;
use adk_wasm::types::{Content, FunctionCall, FunctionResponse, JsonObject, Part};
use adk_wasm::{ErrorCode, Event};
use common::agents::{testing_agent, texts};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::json;

fn runner_with_session(agent: Rc<dyn Agent>) -> Runner {
    let runner = Runner::in_memory("app", agent);
    block_on(runner.session_service().create_session("app", "u", None, Some("s"))).unwrap();
    runner
}

fn run(runner: &Runner, text: &str) -> Vec<Event> {
    block_on(
        runner.run_async("u", "s", Content::user_text(text), None, RunConfig::default()).map(|e| e.unwrap()).collect(),
    )
}

fn stored(runner: &Runner) -> Session {
    block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap()
}

/// Reads the session's state while it runs, to show earlier events are already appended.
struct StateReader {
    core: AgentCore,
}

impl Agent for StateReader {
    fn core(&self) -> &AgentCore {
        &self.core
    }
    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        Box::pin(async_stream::try_stream! {
            let mut first = agent_event(&ctx, Some(Content::model_text("writing")));
            first.actions.state_delta.insert("step".into(), json!(1));
            yield first;
            let seen = ctx.with_session(|s| (s.state.get("step").cloned(), s.events.len()));
            yield agent_event(&ctx, Some(Content::model_text(&format!("{seen:?}"))));
        })
    }
}

#[test]
fn user_event_is_appended_not_yielded_and_agent_events_are_appended_before_yield() {
    let runner = runner_with_session(Rc::new(StateReader { core: AgentCore::new("reader", "").unwrap() }));
    let events = run(&runner, "hi");
    assert_eq!(events.len(), 2);
    // The agent saw its first event already in the session (user event + first = 2 events).
    assert_eq!(events[1].parts()[0].text.as_deref(), Some("(Some(Number(1)), 2)"));
    let session = stored(&runner);
    assert_eq!(session.events.len(), 3);
    assert_eq!(session.events[0].author, "user");
    assert_eq!(session.events[0].content.as_ref().unwrap().role.as_deref(), Some("user"));
    assert!(session.events[0].invocation_id.starts_with("e-") && session.events[0].invocation_id.len() == 38);
    assert!(session.events.iter().all(|e| e.invocation_id == session.events[0].invocation_id));
    assert_eq!(session.state["step"], 1);
}

#[test]
fn state_delta_and_role_of_the_new_message() {
    let runner = runner_with_session(testing_agent("a"));
    let mut delta = JsonObject::new();
    delta.insert("user:lang".into(), json!("ko"));
    let message = Content { parts: Some(vec![Part::from_text("hi")]), role: None };
    let _: Vec<_> = block_on(runner.run_async("u", "s", message, Some(delta), RunConfig::default()).collect());
    let session = stored(&runner);
    assert_eq!(session.events[0].content.as_ref().unwrap().role.as_deref(), Some("user"));
    assert_eq!(session.events[0].actions.state_delta["user:lang"], "ko");
    assert_eq!(session.state["user:lang"], "ko");
}

fn first_error(runner: &Runner, session: &str, message: Content) -> adk_wasm::AdkError {
    let results: Vec<_> = block_on(runner.run_async("u", session, message, None, RunConfig::default()).collect());
    results.into_iter().find_map(Result::err).expect("an error")
}

#[test]
fn bad_runs_are_typed_errors() {
    let runner = runner_with_session(testing_agent("a"));
    assert_eq!(first_error(&runner, "missing", Content::user_text("hi")).code, ErrorCode::NotFound);
    let empty = Content { parts: Some(vec![]), role: None };
    assert!(first_error(&runner, "s", empty).message.contains("No parts"));
    let call = Content::new("user", vec![Part::from_function_call("f", JsonObject::new())]);
    assert!(first_error(&runner, "s", call).message.contains("function calls"));
    assert!(stored(&runner).events.is_empty(), "refused runs write nothing");
    // The runner still works.
    assert_eq!(run(&runner, "hi").len(), 1);
}

#[test]
fn auto_create_session() {
    let runner = Runner::in_memory("app", testing_agent("a")).with_auto_create_session(true);
    let events: Vec<_> =
        block_on(runner.run_async("u", "new", Content::user_text("hi"), None, RunConfig::default()).collect());
    assert!(events.iter().all(Result::is_ok));
    assert!(block_on(runner.session_service().get_session("app", "u", "new", None)).unwrap().is_some());
}

#[test]
fn custom_metadata_is_merged_into_every_event() {
    let runner = runner_with_session(testing_agent("a"));
    let config = RunConfig { custom_metadata: json!({"trace": "t1"}).as_object().cloned(), ..Default::default() };
    let events: Vec<Event> =
        block_on(runner.run_async("u", "s", Content::user_text("hi"), None, config).map(|e| e.unwrap()).collect());
    assert_eq!(events[0].custom_metadata.as_ref().unwrap()["trace"], "t1");
    assert_eq!(stored(&runner).events[0].custom_metadata.as_ref().unwrap()["trace"], "t1");
}

#[test]
fn a_second_concurrent_run_on_the_same_session_is_refused() {
    let runner = runner_with_session(testing_agent("a"));
    let mut first = runner.run_async("u", "s", Content::user_text("one"), None, RunConfig::default());
    block_on(first.next()).unwrap().unwrap();
    let err = first_error(&runner, "s", Content::user_text("two"));
    assert_eq!(err.code, ErrorCode::FailedPrecondition);
    drop(first);
    // Dropping the first run releases the session.
    assert_eq!(run(&runner, "three").len(), 1);
}

#[test]
fn dropping_the_stream_stops_the_run_and_writes_nothing_more() {
    let seq = with_sub_agents(
        Rc::new(SequentialAgent::new(AgentCore::new("seq", "").unwrap())),
        vec![testing_agent("first"), testing_agent("second"), testing_agent("third")],
    )
    .unwrap();
    let runner = runner_with_session(seq);
    let mut stream = runner.run_async("u", "s", Content::user_text("go"), None, RunConfig::default());
    let first = block_on(stream.next()).unwrap().unwrap();
    assert_eq!(first.author, "first");
    drop(stream);
    let authors: Vec<String> = stored(&runner).events.iter().map(|e| e.author.clone()).collect();
    assert_eq!(authors, ["user", "first"]);
}

/// An LLM-like agent that may transfer to its parent (for the routing tests).
struct Transferable {
    core: AgentCore,
    disallow: bool,
}

impl Agent for Transferable {
    fn core(&self) -> &AgentCore {
        &self.core
    }
    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        Box::pin(futures::stream::once(async move { Ok(agent_event(&ctx, Some(Content::model_text("llm")))) }))
    }
    fn disallow_transfer_to_parent(&self) -> Option<bool> {
        Some(self.disallow)
    }
}

fn llm(name: &str, disallow: bool) -> Rc<dyn Agent> {
    Rc::new(Transferable { core: AgentCore::new(name, "").unwrap(), disallow })
}

fn session_with(events: Vec<Event>) -> Session {
    let mut s = Session::placeholder();
    s.events = events.into();
    s
}

fn by(author: &str) -> Event {
    let mut e = Event::new(author);
    e.content = Some(Content::model_text("x"));
    e
}

#[test]
fn find_agent_to_run_routes_like_adk() {
    let root =
        with_sub_agents(llm("root", false), vec![llm("helper", false), llm("strict", true), testing_agent("plain")])
            .unwrap();
    let name = |events: Vec<Event>| find_agent_to_run(&session_with(events), &root).name().to_string();
    // Nobody spoke yet: root.
    assert_eq!(name(vec![by("user")]), "root");
    // The last agent that may transfer back up answers next.
    assert_eq!(name(vec![by("helper"), by("user")]), "helper");
    // One that may not transfer to its parent (or a non-LLM agent) does not; the search goes on.
    assert_eq!(name(vec![by("helper"), by("strict"), by("user")]), "helper");
    assert_eq!(name(vec![by("plain"), by("user")]), "root");
    // Unknown authors are skipped.
    assert_eq!(name(vec![by("stranger"), by("user")]), "root");
    // A function response goes to the agent that made the call.
    let mut call = by("strict");
    call.content = Some(Content::new(
        "model",
        vec![Part {
            function_call: Some(FunctionCall { id: Some("c1".into()), name: Some("f".into()), ..Default::default() }),
            ..Default::default()
        }],
    ));
    let mut response = Event::new("user");
    response.content = Some(Content::new(
        "user",
        vec![Part {
            function_response: Some(FunctionResponse {
                id: Some("c1".into()),
                name: Some("f".into()),
                ..Default::default()
            }),
            ..Default::default()
        }],
    ));
    assert_eq!(name(vec![call, by("helper"), response]), "strict");
}

#[test]
fn texts_helper_sanity() {
    let runner = runner_with_session(testing_agent("a"));
    assert_eq!(texts(&run(&runner, "hi")), [("a".to_string(), "Hello, world!".to_string())]);
}

/// Records whether the run's cancellation fired (as a model request would, to abort its fetch).
struct Watcher {
    core: AgentCore,
    fired: Rc<std::cell::Cell<bool>>,
}

impl Agent for Watcher {
    fn core(&self) -> &AgentCore {
        &self.core
    }
    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        let fired = self.fired.clone();
        ctx.invocation().cancellation.on_cancel(move || fired.set(true));
        Box::pin(futures::stream::iter(vec![
            Ok(agent_event(&ctx, Some(Content::model_text("one")))),
            Ok(agent_event(&ctx, Some(Content::model_text("two")))),
        ]))
    }
}

#[test]
fn cancellation_fires_when_the_run_is_dropped_early_and_not_when_it_finishes() {
    for (take, expect_fired) in [(1, true), (3, false)] {
        let fired = Rc::new(std::cell::Cell::new(false));
        let runner =
            runner_with_session(Rc::new(Watcher { core: AgentCore::new("w", "").unwrap(), fired: fired.clone() }));
        let stream = runner.run_async("u", "s", Content::user_text("go"), None, RunConfig::default());
        let taken: Vec<_> = block_on(stream.take(take).collect());
        assert!(!taken.is_empty());
        assert_eq!(fired.get(), expect_fired, "take {take}");
    }
}
