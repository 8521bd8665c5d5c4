//! The runner for JS: `runAsync` gives a [`StreamHandle`] whose `next()` pulls one event; the JS
//! wrapper makes it an async iterable, a ReadableStream, and wires the AbortSignal to `cancel()`.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::agent::AgentHandle;
use super::app::AppHandle;
use super::artifact::ArtifactServiceHandle;
use super::convert::{from_js_core, handles};
use super::credential::CredentialServiceHandle;
use super::memory::MemoryServiceHandle;
use super::plugin::PluginHandle;
use super::session::SessionServiceHandle;
use super::stream::StreamHandle;
use super::to_js_error;
use crate::agent::{Agent, PluginManager};
use crate::apps::EventsCompactionConfig;
use crate::artifact::ArtifactService;
use crate::auth::CredentialService;
use crate::memory::MemoryService;
use crate::platform::fetch::FetchClient;
use crate::runner::{RunRequest, Runner};
use crate::session::SessionService;

/// A runner: the root agent and its session service, then the artifact and memory services if
/// any, then `runAsync`.
#[wasm_bindgen]
pub struct RunnerHandle {
    app_name: String,
    agent: Rc<dyn Agent>,
    sessions: Rc<dyn SessionService>,
    artifacts: Option<Rc<dyn ArtifactService>>,
    memory: Option<Rc<dyn MemoryService>>,
    credentials: Option<Rc<dyn CredentialService>>,
    auto_create_session: bool,
    plugins: PluginManager,
    compaction: Option<Rc<EventsCompactionConfig>>,
    /// Built by the first run, from the services given by then.
    runner: Option<Rc<Runner>>,
}

#[wasm_bindgen]
impl RunnerHandle {
    /// A runner for the agent behind `agent` in app `appName`, over `sessions`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        app_name: String,
        agent: &AgentHandle,
        sessions: &SessionServiceHandle,
        auto_create_session: bool,
    ) -> Self {
        RunnerHandle {
            app_name,
            agent: agent.agent(),
            sessions: sessions.service(),
            artifacts: None,
            memory: None,
            credentials: None,
            auto_create_session,
            plugins: PluginManager::default(),
            compaction: None,
            runner: None,
        }
    }

    /// Runs every invocation through `plugins`, in order; two with one name are refused
    /// (`INVALID_ARGUMENT`), as ADK's `Runner` refuses them.
    #[wasm_bindgen(js_name = usePlugins)]
    pub fn use_plugins(&mut self, plugins: Vec<JsValue>) -> Result<(), JsValue> {
        let plugins: Vec<PluginHandle> = handles("plugins", plugins)?;
        let mut shared = Vec::with_capacity(plugins.len());
        for plugin in &plugins {
            shared.push(plugin.plugin());
        }
        self.plugins = PluginManager::new(shared).map_err(to_js_error)?;
        self.runner = None;
        Ok(())
    }

    /// Uses this artifact service.
    #[wasm_bindgen(js_name = useArtifactService)]
    pub fn use_artifact_service(&mut self, service: &ArtifactServiceHandle) {
        self.artifacts = Some(service.service());
        self.runner = None;
    }

    /// Uses this memory service.
    #[wasm_bindgen(js_name = useMemoryService)]
    pub fn use_memory_service(&mut self, service: &MemoryServiceHandle) {
        self.memory = Some(service.service());
        self.runner = None;
    }

    /// Uses this credential service.
    #[wasm_bindgen(js_name = useCredentialService)]
    pub fn use_credential_service(&mut self, service: &CredentialServiceHandle) {
        self.credentials = Some(service.service());
        self.runner = None;
    }

    /// Runs the app's compaction (ADK's `Runner(app=…)`).
    #[wasm_bindgen(js_name = useApp)]
    pub fn use_app(&mut self, app: &AppHandle) {
        self.compaction = app.events_compaction_config();
        self.runner = None;
    }

    fn runner(&mut self) -> Rc<Runner> {
        if let Some(runner) = &self.runner {
            return runner.clone();
        }
        // OAuth2 token requests go through the page's fetch.
        let mut runner = Runner::new(&self.app_name, self.agent.clone(), self.sessions.clone())
            .with_auto_create_session(self.auto_create_session)
            .with_events_compaction_config(self.compaction.clone())
            .with_http_client(Rc::new(FetchClient::global()))
            .with_plugin_manager(self.plugins.clone());
        if let Some(a) = &self.artifacts {
            runner = runner.with_artifact_service(a.clone());
        }
        if let Some(m) = &self.memory {
            runner = runner.with_memory_service(m.clone());
        }
        if let Some(c) = &self.credentials {
            runner = runner.with_credential_service(c.clone());
        }
        let runner = Rc::new(runner);
        self.runner = Some(runner.clone());
        runner
    }

    /// Starts a run from `{userId, sessionId, newMessage, stateDelta?, runConfig?}`.
    #[wasm_bindgen(js_name = runAsync)]
    pub fn run_async(&mut self, request: JsValue) -> Result<StreamHandle, JsValue> {
        let request: RunRequest = from_js_core("runAsync request", &request).map_err(to_js_error)?;
        let events = self.runner().run_async_json(request);
        // One event at a time: the runner must not append events its caller has not taken yet.
        Ok(StreamHandle::new(events, 1))
    }
}
