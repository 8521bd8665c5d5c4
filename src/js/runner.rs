//! The runner for JS: `runAsync` gives a [`StreamHandle`] whose `next()` pulls one event; the JS
//! wrapper makes it an async iterable, a ReadableStream, and wires the AbortSignal to `cancel()`.

use std::rc::Rc;

use futures_util::StreamExt;
use wasm_bindgen::prelude::*;

use super::agent::AgentHandle;
use super::artifact::{JsInMemoryArtifactService, JsIndexedDbArtifactService};
use super::convert::{from_js_core, json_of};
use super::memory::{JsInMemoryMemoryService, JsIndexedDbMemoryService};
use super::session::{JsInMemorySessionService, JsIndexedDbSessionService, JsSessionService};
use super::stream::StreamHandle;
use super::to_js_error;
use crate::agent::Agent;
use crate::artifact::ArtifactService;
use crate::memory::MemoryService;
use crate::runner::{RunConfig, Runner};
use crate::session::SessionService;
use crate::types::{Content, JsonObject};
use crate::AdkError;

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

adk_core::json_struct! {
    struct RunRequest {
        user_id: String => "userId" req,
        session_id: String => "sessionId" req,
        new_message: Content => "newMessage" req,
        state_delta: Option<JsonObject> => "stateDelta" def,
        run_config: Option<RunConfig> => "runConfig" def,
    }
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

    /// Uses an `IndexedDbSessionService`.
    #[wasm_bindgen(js_name = useIndexedDbSessionService)]
    pub fn use_indexed_db_session_service(&mut self, service: &JsIndexedDbSessionService) {
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

    /// Uses an `IndexedDbArtifactService`.
    #[wasm_bindgen(js_name = useIndexedDbArtifactService)]
    pub fn use_indexed_db_artifact_service(&mut self, service: &JsIndexedDbArtifactService) {
        self.artifacts = Some(service.service());
        self.runner = None;
    }

    /// Uses an `InMemoryArtifactService`.
    #[wasm_bindgen(js_name = useInMemoryArtifactService)]
    pub fn use_in_memory_artifact_service(&mut self, service: &JsInMemoryArtifactService) {
        self.artifacts = Some(service.service());
        self.runner = None;
    }

    /// Uses an `IndexedDbMemoryService`.
    #[wasm_bindgen(js_name = useIndexedDbMemoryService)]
    pub fn use_indexed_db_memory_service(&mut self, service: &JsIndexedDbMemoryService) {
        self.memory = Some(service.service());
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
    pub fn run_async(&mut self, request: JsValue) -> Result<StreamHandle, JsValue> {
        let r: RunRequest = from_js_core("runAsync request", &request).map_err(to_js_error)?;
        let runner = self.runner().map_err(to_js_error)?;
        let events =
            runner.run_async(&r.user_id, &r.session_id, r.new_message, r.state_delta, r.run_config.unwrap_or_default());
        // One event at a time: the runner must not append events its caller has not taken yet.
        Ok(StreamHandle::new(Box::pin(events.map(|e| e.and_then(|e| json_of(&e)))), 1))
    }
}
