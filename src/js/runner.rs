//! The runner for JS: `runAsync` gives a handle whose `next()` pulls one event; the JS wrapper
//! makes it an async iterable, a ReadableStream, and wires the AbortSignal to `cancel()`.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_util::StreamExt;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::agent::AgentHandle;
use super::artifact::JsInMemoryArtifactService;
use super::convert::{from_js_core, promise, to_js_core};
use super::memory::JsInMemoryMemoryService;
use super::session::{JsInMemorySessionService, JsSessionService};
use super::to_js_error;
use crate::agent::{Agent, EventStream};
use crate::artifact::ArtifactService;
use crate::memory::MemoryService;
use crate::runner::{RunConfig, Runner};
use crate::session::SessionService;
use crate::types::{Content, JsonObject};
use crate::{AdkError, ErrorCode};

/// Builds a runner: the root agent, then the services, then `runAsync`.
#[wasm_bindgen]
pub struct RunnerHandle {
    app_name: String,
    agent: Rc<dyn Agent>,
    session_service: Option<Rc<dyn SessionService>>,
    runner: Option<Rc<Runner>>,
    artifacts: Option<Rc<dyn ArtifactService>>,
    memory: Option<Rc<dyn MemoryService>>,
    auto_create_session: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunRequest {
    user_id: String,
    session_id: String,
    new_message: Content,
    #[serde(default)]
    state_delta: Option<JsonObject>,
    #[serde(default)]
    run_config: Option<RunConfig>,
}

#[wasm_bindgen]
impl RunnerHandle {
    /// A runner for the agent behind `agent` in app `appName`.
    #[wasm_bindgen(constructor)]
    pub fn new(app_name: String, agent: &AgentHandle, auto_create_session: bool) -> RunnerHandle {
        RunnerHandle {
            app_name,
            agent: agent.agent(),
            session_service: None,
            runner: None,
            artifacts: None,
            memory: None,
            auto_create_session,
        }
    }

    /// Uses an `InMemorySessionService`.
    #[wasm_bindgen(js_name = useInMemorySessionService)]
    pub fn use_in_memory_session_service(&mut self, service: &JsInMemorySessionService) {
        self.session_service = Some(service.service());
        self.runner = None;
    }

    /// Uses a session service written in JS.
    #[wasm_bindgen(js_name = useJsSessionService)]
    pub fn use_js_session_service(&mut self, service: JsValue) -> Result<(), JsValue> {
        self.session_service = Some(Rc::new(JsSessionService::new(service).map_err(to_js_error)?));
        self.runner = None;
        Ok(())
    }

    /// Uses an `InMemoryArtifactService`.
    #[wasm_bindgen(js_name = useInMemoryArtifactService)]
    pub fn use_in_memory_artifact_service(&mut self, service: &JsInMemoryArtifactService) {
        self.artifacts = Some(service.service());
        self.runner = None;
    }

    /// Uses an `InMemoryMemoryService`.
    #[wasm_bindgen(js_name = useInMemoryMemoryService)]
    pub fn use_in_memory_memory_service(&mut self, service: &JsInMemoryMemoryService) {
        self.memory = Some(service.service());
        self.runner = None;
    }

    fn runner(&mut self) -> Result<Rc<Runner>, AdkError> {
        if let Some(runner) = &self.runner {
            return Ok(runner.clone());
        }
        let sessions =
            self.session_service.clone().ok_or_else(|| AdkError::invalid("Runner: sessionService is required"))?;
        let mut runner = Runner::new(&self.app_name, self.agent.clone(), sessions)
            .with_auto_create_session(self.auto_create_session);
        if let Some(a) = &self.artifacts {
            runner = runner.with_artifact_service(a.clone());
        }
        if let Some(m) = &self.memory {
            runner = runner.with_memory_service(m.clone());
        }
        let runner = Rc::new(runner);
        self.runner = Some(runner.clone());
        Ok(runner)
    }

    /// Starts a run from `{userId, sessionId, newMessage, stateDelta?, runConfig?}`.
    #[wasm_bindgen(js_name = runAsync)]
    pub fn run_async(&mut self, request: JsValue) -> Result<RunHandle, JsValue> {
        let r: RunRequest = from_js_core("runAsync request", &request).map_err(to_js_error)?;
        let runner = self.runner().map_err(to_js_error)?;
        let events =
            runner.run_async(&r.user_id, &r.session_id, r.new_message, r.state_delta, r.run_config.unwrap_or_default());
        Ok(RunHandle {
            state: Rc::new(RefCell::new(RunState {
                events: Some(events),
                finished: false,
                cancelled: false,
                waker: None,
            })),
        })
    }
}

struct RunState {
    /// `None` while a `next()` is polling it, and once the run has ended, failed or been cancelled.
    events: Option<EventStream>,
    finished: bool,
    cancelled: bool,
    /// Woken by `cancel()` so a pending `next()` gives up at once.
    waker: Option<Waker>,
}

/// One run in progress. `next()` resolves to the next event, or `undefined` at the end; `cancel()`
/// stops the run (a pending `next()` rejects with an `AbortError`).
#[wasm_bindgen]
pub struct RunHandle {
    state: Rc<RefCell<RunState>>,
}

/// The next event, or the end, or cancellation, whichever comes first. The stream is taken out of
/// the shared state while it is polled, so `cancel()` (even from JS code the poll runs) never
/// finds the state borrowed.
struct NextOrCancel {
    state: Rc<RefCell<RunState>>,
}

impl Future for NextOrCancel {
    type Output = Result<Option<crate::Event>, AdkError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let taken = {
            let mut state = self.state.borrow_mut();
            if state.cancelled {
                return Poll::Ready(Err(AdkError::new(ErrorCode::Aborted, "The run was aborted.")));
            }
            if state.finished {
                return Poll::Ready(Ok(None));
            }
            state.waker = Some(cx.waker().clone());
            state.events.take()
        };
        let Some(mut events) = taken else {
            return Poll::Ready(Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                "next() called while another next() is pending",
            )));
        };
        let polled = events.poll_next_unpin(cx);
        let mut state = self.state.borrow_mut();
        if state.cancelled {
            drop(state);
            drop(events);
            return Poll::Ready(Err(AdkError::new(ErrorCode::Aborted, "The run was aborted.")));
        }
        match polled {
            Poll::Pending => {
                state.events = Some(events);
                Poll::Pending
            }
            Poll::Ready(Some(Ok(event))) => {
                state.events = Some(events);
                Poll::Ready(Ok(Some(event)))
            }
            Poll::Ready(Some(Err(e))) => {
                state.finished = true;
                Poll::Ready(Err(e))
            }
            Poll::Ready(None) => {
                state.finished = true;
                Poll::Ready(Ok(None))
            }
        }
    }
}

#[wasm_bindgen]
impl RunHandle {
    /// The next event, or `undefined` when the run is over.
    pub fn next(&self) -> js_sys::Promise {
        let state = self.state.clone();
        promise(async move {
            match (NextOrCancel { state }).await? {
                Some(event) => to_js_core(&event),
                None => Ok(JsValue::UNDEFINED),
            }
        })
    }

    /// Stops the run now: nothing more is written to the session. Idempotent; no effect after the end.
    pub fn cancel(&self) {
        let (events, waker) = {
            let mut state = self.state.borrow_mut();
            if state.finished || state.cancelled {
                return;
            }
            state.cancelled = true;
            (state.events.take(), state.waker.take())
        };
        drop(events);
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}
