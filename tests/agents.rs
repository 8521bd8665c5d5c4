//! ADK Python's agent tests translated: agents/test_base_agent.py, test_sequential_agent.py,
//! test_parallel_agent.py and test_loop_agent.py.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::Cell;
use std::rc::Rc;

use adk_wasm::agent::{
    add_sub_agent, agent_event, run_agent, with_sub_agents, Agent, AgentCore, EventStream, Invocation,
    InvocationContext, LoopAgent, ParallelAgent, SequentialAgent,
};
use adk_wasm::runner::RunConfig;
use adk_wasm::session::{InMemorySessionService, SessionService};
use adk_wasm::{AdkError, Event};
use common::agents::{callback, state_callback, testing_agent, testing_agent_with, texts, TestingAgent};
use futures::executor::block_on;
use futures::StreamExt;

fn parent_context(agent: Rc<dyn Agent>) -> InvocationContext {
    let service = Rc::new(InMemorySessionService::new());
    let session = block_on(service.create_session("test_app", "test_user", None, None)).unwrap();
    let invocation = Invocation::new("e-test".into(), None, RunConfig::default(), session, service);
    InvocationContext::new(Rc::new(invocation), agent)
}

fn run(agent: Rc<dyn Agent>) -> Vec<Event> {
    let ctx = parent_context(agent.clone());
    block_on(run_agent(agent, &ctx).map(|e| e.unwrap()).collect())
}

fn hello(name: &str) -> (String, String) {
    (name.to_string(), "Hello, world!".to_string())
}

#[test]
fn test_invalid_agent_name() {
    for bad in ["not an identifier", "1abc", "", "user", "a-b"] {
        assert!(AgentCore::new(bad, "").is_err(), "{bad:?}");
    }
    for good in ["agent", "_x", "Agent_2", "에이전트"] {
        assert!(AgentCore::new(good, "").is_ok(), "{good:?}");
    }
}

#[test]
fn test_run_async() {
    let agent = testing_agent("test_agent");
    let events = run(agent.clone());
    assert_eq!(texts(&events), [hello("test_agent")]);
    assert_eq!(events[0].invocation_id, "e-test");
}

#[test]
fn test_run_async_with_branch() {
    let agent: Rc<dyn Agent> = testing_agent("test_agent");
    let ctx = parent_context(agent.clone()).for_branch("parent", "branch");
    let events: Vec<Event> = block_on(run_agent(agent, &ctx).map(|e| e.unwrap()).collect());
    assert_eq!(events[0].branch.as_deref(), Some("parent.branch"));
}

#[test]
fn test_run_async_before_agent_callback_noop() {
    let calls = Rc::new(Cell::new(0));
    let core = AgentCore::new("a", "").unwrap().with_before_agent_callbacks(vec![callback(None, calls.clone())]);
    let agent = testing_agent_with(core, 0);
    assert_eq!(texts(&run(agent.clone())), [hello("a")]);
    assert_eq!((calls.get(), agent.runs.get()), (1, 1));
}

#[test]
fn test_run_async_before_agent_callback_bypass_agent() {
    let calls = Rc::new(Cell::new(0));
    let core = AgentCore::new("a", "")
        .unwrap()
        .with_before_agent_callbacks(vec![callback(Some("agent run is bypassed."), calls)]);
    let agent = testing_agent_with(core, 0);
    assert_eq!(texts(&run(agent.clone())), [("a".to_string(), "agent run is bypassed.".to_string())]);
    assert_eq!(agent.runs.get(), 0);
}

/// `callbacks`: (response, …); `expected`: the texts yielded; `calls`: how often each callback ran.
fn chain(before: bool, callbacks: &[Option<&str>], expected: &[&str], expected_calls: &[u32]) {
    let counters: Vec<Rc<Cell<u32>>> = callbacks.iter().map(|_| Rc::new(Cell::new(0))).collect();
    let cbs = callbacks.iter().zip(&counters).map(|(r, c)| callback(*r, c.clone())).collect();
    let core = AgentCore::new("a", "").unwrap();
    let core = if before { core.with_before_agent_callbacks(cbs) } else { core.with_after_agent_callbacks(cbs) };
    let events = run(testing_agent_with(core, 0));
    let got: Vec<String> = texts(&events).into_iter().map(|(_, t)| t).collect();
    assert_eq!(got, expected);
    assert_eq!(counters.iter().map(|c| c.get()).collect::<Vec<_>>(), expected_calls);
}

#[test]
fn test_before_agent_callbacks_chain() {
    let (c2, c3) = (Some("callback_2_response"), Some("callback_3_response"));
    chain(true, &[None, c2, c3, None], &["callback_2_response"], &[1, 1, 0, 0]);
    chain(true, &[None, None, None, None], &["Hello, world!"], &[1, 1, 1, 1]);
    chain(true, &[Some("callback_1_response"), c2], &["callback_1_response"], &[1, 0]);
}

#[test]
fn test_after_agent_callbacks_chain() {
    let (c2, c3) = (Some("callback_2_response"), Some("callback_3_response"));
    chain(false, &[None, c2, c3, None], &["Hello, world!", "callback_2_response"], &[1, 1, 0, 0]);
    chain(false, &[None, None, None, None], &["Hello, world!"], &[1, 1, 1, 1]);
    chain(false, &[Some("callback_1_response"), c2], &["Hello, world!", "callback_1_response"], &[1, 0]);
}

#[test]
fn test_run_async_after_agent_callback_append_reply() {
    let core = AgentCore::new("a", "")
        .unwrap()
        .with_after_agent_callbacks(vec![callback(Some("Agent reply from after agent callback."), Rc::default())]);
    let events = run(testing_agent_with(core, 0));
    assert_eq!(texts(&events), [hello("a"), ("a".into(), "Agent reply from after agent callback.".into())]);
}

#[test]
fn state_only_callbacks_emit_a_state_only_event() {
    let core = AgentCore::new("a", "")
        .unwrap()
        .with_before_agent_callbacks(vec![state_callback("before")])
        .with_after_agent_callbacks(vec![state_callback("after")]);
    let events = run(testing_agent_with(core, 0));
    assert_eq!(events.len(), 3);
    assert!(events[0].content.is_none() && events[0].actions.state_delta.contains_key("before"));
    assert_eq!(events[1].parts()[0].text.as_deref(), Some("Hello, world!"));
    assert!(events[2].content.is_none() && events[2].actions.state_delta.contains_key("after"));
}

struct IncompleteAgent {
    core: AgentCore,
}

impl Agent for IncompleteAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }
    fn run_impl(self: Rc<Self>, _ctx: InvocationContext) -> EventStream {
        Box::pin(futures::stream::once(async { Err(AdkError::invalid("_run_async_impl is not implemented")) }))
    }
}

#[test]
fn test_run_async_incomplete_agent() {
    let agent: Rc<dyn Agent> = Rc::new(IncompleteAgent { core: AgentCore::new("a", "").unwrap() });
    let ctx = parent_context(agent.clone());
    let results: Vec<Result<Event, AdkError>> = block_on(run_agent(agent, &ctx).collect());
    assert_eq!(results.len(), 1);
    assert!(results[0].as_ref().is_err_and(|e| e.message.contains("not implemented")));
}

#[test]
fn test_set_parent_agent_for_sub_agents_and_find() {
    let (a1, a2, a3) = (testing_agent("sub_agent_1"), testing_agent("sub_agent_2"), testing_agent("sub_sub"));
    let a2: Rc<dyn Agent> = with_sub_agents(a2, vec![a3.clone()]).unwrap();
    let parent: Rc<dyn Agent> = testing_agent("parent");
    let parent = with_sub_agents(parent, vec![a1.clone(), a2.clone()]).unwrap();
    let a1: Rc<dyn Agent> = a1;
    assert!(Rc::ptr_eq(&a1.parent_agent().unwrap(), &parent));
    assert!(Rc::ptr_eq(&parent.find_agent("sub_sub").unwrap(), &(a3.clone() as Rc<dyn Agent>)));
    assert!(Rc::ptr_eq(&parent.find_agent("parent").unwrap(), &parent));
    assert!(parent.find_sub_agent("parent").is_none());
    assert!(parent.find_agent("nobody").is_none());
    let a3: Rc<dyn Agent> = a3;
    assert!(Rc::ptr_eq(&a3.root_agent(), &parent));
}

#[test]
fn test_set_parent_agent_for_sub_agent_twice() {
    let child = testing_agent("child");
    let _first: Rc<dyn Agent> = with_sub_agents(testing_agent("first"), vec![child.clone()]).unwrap();
    let second: Rc<dyn Agent> = testing_agent("second");
    let err = add_sub_agent(&second, child).err().unwrap();
    assert!(err.message.contains("already has a parent"), "{}", err.message);
    let dup: Rc<dyn Agent> = with_sub_agents(testing_agent("p"), vec![testing_agent("x")]).unwrap();
    assert!(add_sub_agent(&dup, testing_agent("x")).is_err(), "sub-agent names are unique");
}

#[test]
fn sequential_test_run_async() {
    let (a1, a2) = (testing_agent("test_agent_1"), testing_agent("test_agent_2"));
    let seq = with_sub_agents(Rc::new(SequentialAgent::new(AgentCore::new("seq", "").unwrap())), vec![a1, a2]).unwrap();
    assert_eq!(texts(&run(seq)), [hello("test_agent_1"), hello("test_agent_2")]);
}

#[test]
fn sequential_before_callback_skipping_a_sub_agent_does_not_stop_the_sequence() {
    // ADK copies the invocation context per agent, so a sub-agent's end_invocation stays with it.
    let core =
        AgentCore::new("skipped", "").unwrap().with_before_agent_callbacks(vec![callback(Some("skip"), Rc::default())]);
    let seq = with_sub_agents(
        Rc::new(SequentialAgent::new(AgentCore::new("seq", "").unwrap())),
        vec![testing_agent_with(core, 0), testing_agent("next")],
    )
    .unwrap();
    assert_eq!(texts(&run(seq)), [("skipped".into(), "skip".into()), hello("next")]);
}

#[test]
fn parallel_test_run_async() {
    let (a1, a2) = (testing_agent_with(AgentCore::new("test_agent_1", "").unwrap(), 3), testing_agent("test_agent_2"));
    let par = with_sub_agents(Rc::new(ParallelAgent::new(AgentCore::new("par", "").unwrap())), vec![a1, a2]).unwrap();
    let events = run(par);
    // The delayed agent finishes last: events come as they are produced.
    assert_eq!(texts(&events), [hello("test_agent_2"), hello("test_agent_1")]);
    assert_eq!(events[0].branch.as_deref(), Some("par.test_agent_2"));
    assert_eq!(events[1].branch.as_deref(), Some("par.test_agent_1"));
}

#[test]
fn parallel_test_run_async_branches() {
    let agent1 = testing_agent_with(AgentCore::new("test_agent_1", "").unwrap(), 5);
    let (agent2, agent3) = (testing_agent("test_agent_2"), testing_agent("test_agent_3"));
    let seq = with_sub_agents(Rc::new(SequentialAgent::new(AgentCore::new("seq", "").unwrap())), vec![agent2, agent3])
        .unwrap();
    let par =
        with_sub_agents(Rc::new(ParallelAgent::new(AgentCore::new("par", "").unwrap())), vec![seq, agent1]).unwrap();
    let events = run(par);
    assert_eq!(texts(&events), [hello("test_agent_2"), hello("test_agent_3"), hello("test_agent_1")]);
    assert_eq!(events[0].branch.as_deref(), Some("par.seq"));
    assert_eq!(events[0].branch, events[1].branch);
    assert_eq!(events[2].branch.as_deref(), Some("par.test_agent_1"));
}

#[test]
fn loop_test_run_async() {
    let agent = testing_agent("test_agent");
    let lp =
        with_sub_agents(Rc::new(LoopAgent::new(AgentCore::new("loop", "").unwrap(), Some(2))), vec![agent.clone()])
            .unwrap();
    assert_eq!(texts(&run(lp)), [hello("test_agent"), hello("test_agent")]);
    assert_eq!(agent.runs.get(), 2);
}

struct EscalatingAgent {
    core: AgentCore,
}

impl Agent for EscalatingAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }
    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        Box::pin(async_stream::try_stream! {
            let mut event = agent_event(&ctx, None);
            event.actions.escalate = Some(true);
            yield event;
        })
    }
}

#[test]
fn loop_test_run_async_with_escalate_action() {
    let non_escalating = testing_agent("non_escalating");
    let escalating: Rc<dyn Agent> = Rc::new(EscalatingAgent { core: AgentCore::new("escalating", "").unwrap() });
    let after: Rc<TestingAgent> = testing_agent("never_runs");
    let lp = with_sub_agents(
        Rc::new(LoopAgent::new(AgentCore::new("loop", "").unwrap(), None)),
        vec![non_escalating, escalating, after.clone()],
    )
    .unwrap();
    let events = run(lp);
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].author, "escalating");
    assert_eq!(after.runs.get(), 0);
}

#[test]
fn empty_workflows_yield_nothing() {
    for agent in [
        Rc::new(SequentialAgent::new(AgentCore::new("s", "").unwrap())) as Rc<dyn Agent>,
        Rc::new(ParallelAgent::new(AgentCore::new("p", "").unwrap())),
        Rc::new(LoopAgent::new(AgentCore::new("l", "").unwrap(), None)),
    ] {
        assert!(run(agent).is_empty());
    }
}

/// An agent whose events never come, and which records when they are dropped.
struct HangingAgent {
    core: AgentCore,
    dropped: Rc<Cell<bool>>,
}

struct Hanging(Rc<Cell<bool>>);

impl futures::Stream for Hanging {
    type Item = Result<Event, AdkError>;
    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::task::Poll::Pending
    }
}

impl Drop for Hanging {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

impl Agent for HangingAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }
    fn run_impl(self: Rc<Self>, _ctx: InvocationContext) -> EventStream {
        Box::pin(Hanging(self.dropped.clone()))
    }
}

/// A stopped run fires its cancellation when its stream is dropped, after the error is yielded:
/// a sibling's work still in flight must be alive then, or it never hears it.
#[test]
fn an_error_is_yielded_while_the_work_in_flight_lives() {
    let dropped = Rc::new(Cell::new(false));
    let hanging: Rc<dyn Agent> =
        Rc::new(HangingAgent { core: AgentCore::new("hanging", "").unwrap(), dropped: dropped.clone() });
    let failing: Rc<dyn Agent> = Rc::new(IncompleteAgent { core: AgentCore::new("failing", "").unwrap() });
    let par = with_sub_agents(Rc::new(ParallelAgent::new(AgentCore::new("par", "").unwrap())), vec![hanging, failing]);
    let seq = with_sub_agents(Rc::new(SequentialAgent::new(AgentCore::new("seq", "").unwrap())), vec![par.unwrap()]);
    let seq = seq.unwrap();
    let ctx = parent_context(seq.clone());
    let mut events = run_agent(seq, &ctx);
    assert!(block_on(events.next()).unwrap().is_err_and(|e| e.message.contains("not implemented")));
    assert!(!dropped.get(), "the sibling's stream was dropped before the error was yielded");
    drop(events);
    assert!(dropped.get());
}
