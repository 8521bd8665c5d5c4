//! Test agents shared by the native agent and runner tests (ADK's `_TestingAgent` and friends).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use adk_wasm::agent::{agent_event, Agent, AgentCallback, AgentCore, CallbackContext, EventStream, InvocationContext};
use adk_wasm::types::Content;
use adk_wasm::AdkError;

/// Yields `Hello, world!` (after `delay` cooperative yields), like ADK's `_TestingAgent`.
pub struct TestingAgent {
    core: AgentCore,
    delay: u32,
    pub runs: Cell<u32>,
}

pub fn testing_agent(name: &str) -> Rc<TestingAgent> {
    testing_agent_with(AgentCore::new(name, "").unwrap(), 0)
}

pub fn testing_agent_with(core: AgentCore, delay: u32) -> Rc<TestingAgent> {
    Rc::new(TestingAgent { core, delay, runs: Cell::new(0) })
}

impl Agent for TestingAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        self.runs.set(self.runs.get() + 1);
        let delay = self.delay;
        Box::pin(async_stream::try_stream! {
            for _ in 0..delay {
                YieldNow(false).await;
            }
            yield agent_event(&ctx, Some(Content { parts: Some(vec![adk_wasm::Part::from_text("Hello, world!")]), role: None }));
        })
    }
}

/// Returns `Pending` once (waking itself), letting other streams of a `select_all` run.
pub struct YieldNow(pub bool);

impl Future for YieldNow {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

/// A callback returning `text` as content (or nothing), counting its calls.
pub fn callback(text: Option<&str>, calls: Rc<Cell<u32>>) -> AgentCallback {
    let text = text.map(str::to_string);
    Rc::new(move |_ctx: CallbackContext| {
        calls.set(calls.get() + 1);
        let text = text.clone();
        Box::pin(async move { Ok::<_, AdkError>(text.map(|t| Content::model_text(&t))) })
    })
}

/// A callback that only writes state.
pub fn state_callback(key: &'static str) -> AgentCallback {
    Rc::new(move |ctx: CallbackContext| {
        ctx.state().set(key, serde_json::json!(true));
        Box::pin(async { Ok(None) })
    })
}

pub fn texts(events: &[adk_wasm::Event]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| (e.author.clone(), e.parts().first().and_then(|p| p.text.clone()).unwrap_or_default()))
        .collect()
}
