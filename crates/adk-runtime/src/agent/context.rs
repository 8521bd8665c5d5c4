//! What agents, callbacks and tools see of the invocation they run in.

use adk_core::cell::Lend;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde_json::Value;

use super::{Agent, PluginManager, RunConfig};
use crate::artifact::{ArtifactKey, ArtifactService};
use crate::auth::{AuthConfig, CredentialContext, CredentialService};
pub use crate::cancellation::Cancellation;
use crate::http::HttpClient;
use crate::memory::{MemoryService, SearchMemoryResponse};
use crate::session::{Session, SessionService};
use crate::types::{Content, JsonObject, Part};
use crate::{AdkError, ErrorCode, Event, EventActions};
use adk_core::events::ToolConfirmation;

/// Compacts the session before a model call when the prompt grew too large (ADK's compaction
/// request processor). An app's compaction implements it; the agent layer only calls it.
pub trait CompactBeforeModel {
    /// Appends a summary to the invocation's session if the prompt `ctx`'s agent is about to send
    /// reached the app's threshold.
    fn compact<'a>(&'a self, ctx: &'a InvocationContext) -> Pin<Box<dyn Future<Output = Result<(), AdkError>> + 'a>>;
}

/// One invocation: from a user message to the agents' final answer. Shared by every context in it.
pub struct Invocation {
    /// `e-` + uuid4.
    pub invocation_id: String,
    /// The user message that started it.
    pub user_content: Option<Content>,
    /// How to run.
    pub run_config: RunConfig,
    /// The session, as the runner keeps it current: every non-partial event is appended here.
    pub session: RefCell<Session>,
    /// Where sessions live.
    pub session_service: Rc<dyn SessionService>,
    /// Where artifacts live, if the runner has an artifact service.
    pub artifact_service: Option<Rc<dyn ArtifactService>>,
    /// Where memories live, if the runner has a memory service.
    pub memory_service: Option<Rc<dyn MemoryService>>,
    /// Where credentials outlive a sign-in, if the runner has a credential service.
    pub credential_service: Option<Rc<dyn CredentialService>>,
    /// What OAuth2 token requests and endpoint discovery go through, if the runner has it.
    pub http_client: Option<Rc<dyn HttpClient>>,
    /// Fired when the run is stopped before it finished.
    pub cancellation: Rc<Cancellation>,
    /// The runner's plugins.
    pub plugins: PluginManager,
    /// What compacts the session before each model call, if the app's compaction has the token
    /// trigger (ADK's compaction request processor).
    pub compaction: Option<Rc<dyn CompactBeforeModel>>,
    llm_calls: Cell<u32>,
    // The toolsets' credentials resolved for this invocation, by credential key (ADK's
    // `credential_by_key`): never in the session, gone with the invocation.
    credentials: RefCell<Vec<(String, JsonObject)>>,
}

impl Invocation {
    /// A new invocation over `session`.
    pub fn new(
        invocation_id: String,
        user_content: Option<Content>,
        run_config: RunConfig,
        session: Session,
        session_service: Rc<dyn SessionService>,
    ) -> Self {
        Invocation {
            invocation_id,
            user_content,
            run_config,
            session: RefCell::new(session),
            session_service,
            artifact_service: None,
            memory_service: None,
            credential_service: None,
            http_client: None,
            cancellation: Rc::default(),
            plugins: PluginManager::default(),
            compaction: None,
            llm_calls: Cell::new(0),
            credentials: RefCell::default(),
        }
    }

    /// Appends `event` through the session service, as it is; returns the event as stored and, when
    /// the service recorded it in the session as JSON text (the in-memory one does), that text. The
    /// session is taken out of the invocation while the service works on it, and put back even if
    /// the run is dropped half-way.
    pub async fn record(&self, event: Event) -> Result<(Event, Option<String>), AdkError> {
        struct PutBack<'a> {
            invocation: &'a Invocation,
            session: Session,
        }
        impl Drop for PutBack<'_> {
            fn drop(&mut self) {
                std::mem::swap(&mut *self.invocation.session.lend_mut(), &mut self.session);
            }
        }
        let session = std::mem::replace(&mut *self.session.lend_mut(), Session::placeholder());
        let mut guard = PutBack { invocation: self, session };
        let before = guard.session.events.len();
        let event = self.session_service.append_event(&mut guard.session, event).await?;
        // The event a service records in the caller's copy is the one it returns.
        let events = &guard.session.events;
        let text = if events.len() == before + 1 { events.last_text() } else { None };
        Ok((event, text.map(str::to_string)))
    }

    /// Keeps a toolset's credential for the rest of the invocation.
    pub fn put_credential(&self, key: &str, credential: JsonObject) {
        let mut credentials = self.credentials.lend_mut();
        credentials.retain(|(k, _)| k != key);
        credentials.push((key.to_string(), credential));
    }
}

/// An agent's view of the invocation (ADK's `InvocationContext`). Each agent gets its own copy:
/// `branch` and `end_invocation` are per copy, the session and services are shared.
#[derive(Clone)]
pub struct InvocationContext {
    invocation: Rc<Invocation>,
    agent: Rc<dyn Agent>,
    branch: Option<String>,
    end_invocation: Rc<Cell<bool>>,
}

impl InvocationContext {
    /// The context of the root of a run.
    pub fn new(invocation: Rc<Invocation>, agent: Rc<dyn Agent>) -> Self {
        InvocationContext { invocation, agent, branch: None, end_invocation: Rc::new(Cell::new(false)) }
    }

    /// A copy for `agent` (ADK's `model_copy(update={'agent': …})`).
    pub fn for_agent(&self, agent: Rc<dyn Agent>) -> Self {
        InvocationContext {
            invocation: self.invocation.clone(),
            agent,
            branch: self.branch.clone(),
            end_invocation: Rc::new(Cell::new(self.end_invocation.get())),
        }
    }

    /// A copy on its own branch `branch.parent.child`, so parallel children do not see each other.
    pub fn for_branch(&self, parent: &str, child: &str) -> Self {
        let suffix = format!("{parent}.{child}");
        let mut ctx = self.for_agent(self.agent.clone());
        ctx.branch = Some(match &self.branch {
            Some(b) => format!("{b}.{suffix}"),
            None => suffix,
        });
        ctx
    }

    /// The shared invocation.
    pub fn invocation(&self) -> &Rc<Invocation> {
        &self.invocation
    }

    /// The invocation id.
    pub fn invocation_id(&self) -> &str {
        &self.invocation.invocation_id
    }

    /// The agent this context belongs to.
    pub fn agent(&self) -> &Rc<dyn Agent> {
        &self.agent
    }

    /// That agent's name.
    pub fn agent_name(&self) -> &str {
        self.agent.name()
    }

    /// `agent_1.agent_2.…`, set inside parallel agents.
    pub fn branch(&self) -> Option<&str> {
        self.branch.as_deref()
    }

    /// Whether this context was told to stop.
    pub fn end_invocation(&self) -> bool {
        self.end_invocation.get()
    }

    /// Stops this agent's run after its current event.
    pub fn set_end_invocation(&self, end: bool) {
        self.end_invocation.set(end);
    }

    /// The user message of this invocation.
    pub fn user_content(&self) -> Option<&Content> {
        self.invocation.user_content.as_ref()
    }

    /// The runner's plugins.
    pub fn plugins(&self) -> &PluginManager {
        &self.invocation.plugins
    }

    /// How the invocation runs.
    pub fn run_config(&self) -> &RunConfig {
        &self.invocation.run_config
    }

    /// Runs `f` on the current session.
    pub fn with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        f(&self.invocation.session.lend())
    }

    /// Writes `key` into the session's state for the rest of the invocation without recording it
    /// in any event: where ADK puts the credential a person gave (`temp:<key>`), which must not
    /// reach the stored history.
    pub fn put_unrecorded_state(&self, key: &str, value: Value) {
        self.invocation.session.lend_mut().state.insert(key.to_string(), value);
    }

    /// Counts one model call; fails once `max_llm_calls` is exceeded (ADK's `LlmCallsLimitExceededError`).
    pub fn increment_llm_call_count(&self) -> Result<(), AdkError> {
        let calls = self.invocation.llm_calls.get() + 1;
        self.invocation.llm_calls.set(calls);
        let max = self.run_config().max_llm_calls;
        if max > 0 && calls > max {
            return Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                format!("Max number of llm calls limit of `{max}` exceeded"),
            ));
        }
        Ok(())
    }
}

/// A read-only view for instructions and the like (ADK's `ReadonlyContext`).
#[derive(Clone)]
pub struct ReadonlyContext {
    ctx: InvocationContext,
}

impl ReadonlyContext {
    /// A view over `ctx`.
    pub fn new(ctx: InvocationContext) -> Self {
        ReadonlyContext { ctx }
    }

    /// The invocation context behind this view.
    pub fn invocation_context(&self) -> &InvocationContext {
        &self.ctx
    }

    /// The invocation id.
    pub fn invocation_id(&self) -> &str {
        self.ctx.invocation_id()
    }

    /// The agent's name.
    pub fn agent_name(&self) -> &str {
        self.ctx.agent_name()
    }

    /// The user message of this invocation.
    pub fn user_content(&self) -> Option<&Content> {
        self.ctx.user_content()
    }

    /// The session id.
    pub fn session_id(&self) -> String {
        self.ctx.with_session(|s| s.id.clone())
    }

    /// The user id.
    pub fn user_id(&self) -> String {
        self.ctx.with_session(|s| s.user_id.clone())
    }

    /// A toolset's credential resolved for this invocation (ADK's `get_credential`).
    pub fn get_credential(&self, key: &str) -> Option<JsonObject> {
        let credentials = self.ctx.invocation.credentials.lend();
        credentials.iter().find(|(k, _)| k == key).map(|(_, c)| c.clone())
    }

    /// The session's current state.
    pub fn state_snapshot(&self) -> JsonObject {
        self.ctx.with_session(|s| s.state.clone())
    }

    /// The session's events so far.
    pub fn events(&self) -> Vec<Event> {
        self.ctx.with_session(|s| s.events.to_vec())
    }

    /// The parts of the last event the user wrote (the seeds' `get_last_user_input`).
    pub fn get_last_user_input(&self) -> Vec<Part> {
        self.last_parts(|e| e.is_user())
    }

    /// The parts of the last event an agent wrote with content (the seeds' `get_last_agent_output`).
    pub fn get_last_agent_output(&self) -> Vec<Part> {
        self.last_parts(|e| e.is_agent(None))
    }

    /// Every part recorded in the session, in order (the seeds' `parts()`).
    pub fn parts(&self) -> Vec<Part> {
        self.ctx.with_session(|s| {
            let mut parts = Vec::new();
            for event in s.events.iter() {
                parts.extend_from_slice(event.parts());
            }
            parts
        })
    }

    fn last_parts(&self, by: impl Fn(&Event) -> bool) -> Vec<Part> {
        self.ctx.with_session(|s| {
            s.events
                .iter()
                .rev()
                .find(|e| by(e) && !e.parts().is_empty())
                .map(|e| e.parts().to_vec())
                .unwrap_or_default()
        })
    }
}

/// The state seen through a context: reads give pending writes first, then the session; writes go to
/// the session at once (as ADK's `State` does) and into the delta of the context's next event.
#[derive(Clone)]
pub struct State {
    ctx: InvocationContext,
    actions: Rc<RefCell<EventActions>>,
}

impl State {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<Value> {
        if let Some(v) = self.actions.lend().state_delta.get(key) {
            return Some(v.clone());
        }
        self.ctx.with_session(|s| s.state.get(key).cloned())
    }

    /// Whether `key` has a value.
    pub fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Writes `key`: visible at once, and recorded for the next event.
    pub fn set(&self, key: &str, value: Value) {
        self.ctx.invocation.session.lend_mut().state.insert(key.to_string(), value.clone());
        self.actions.lend_mut().state_delta.insert(key.to_string(), value);
    }

    /// Writes every key of `delta`.
    pub fn update(&self, delta: JsonObject) {
        for (key, value) in delta {
            self.set(&key, value);
        }
    }

    /// Whether there are writes not yet in an event.
    pub fn has_delta(&self) -> bool {
        !self.actions.lend().state_delta.is_empty()
    }

    /// The whole state, pending writes included.
    pub fn to_dict(&self) -> JsonObject {
        let mut all = self.ctx.with_session(|s| s.state.clone());
        for (key, value) in &self.actions.lend().state_delta {
            all.insert(key.clone(), value.clone());
        }
        all
    }
}

/// What callbacks and tools get (ADK's `CallbackContext` / `ToolContext`, one `Context` class in ADK):
/// a read-only view plus state writes and artifact saves recorded in its own [`EventActions`].
#[derive(Clone)]
pub struct CallbackContext {
    readonly: ReadonlyContext,
    actions: Rc<RefCell<EventActions>>,
    function_call_id: Option<String>,
    tool_confirmation: Option<ToolConfirmation>,
}

/// Tools get the same context, with the id of the call they answer.
pub type ToolContext = CallbackContext;

impl std::ops::Deref for CallbackContext {
    type Target = ReadonlyContext;
    fn deref(&self) -> &ReadonlyContext {
        &self.readonly
    }
}

impl CallbackContext {
    /// A context over `ctx` with empty actions.
    pub fn new(ctx: InvocationContext) -> Self {
        CallbackContext {
            readonly: ReadonlyContext::new(ctx),
            actions: Rc::new(RefCell::new(EventActions::default())),
            function_call_id: None,
            tool_confirmation: None,
        }
    }

    /// A tool's context: answers the call `function_call_id`.
    pub fn for_tool(ctx: InvocationContext, function_call_id: &str) -> Self {
        CallbackContext { function_call_id: Some(function_call_id.to_string()), ..Self::new(ctx) }
    }

    /// The id of the function call a tool is answering.
    pub fn function_call_id(&self) -> Option<&str> {
        self.function_call_id.as_deref()
    }

    /// The same context, carrying the person's answer to the call's confirmation request.
    pub fn with_tool_confirmation(mut self, confirmation: Option<ToolConfirmation>) -> Self {
        self.tool_confirmation = confirmation;
        self
    }

    /// The person's answer, when the tool runs again after asking for approval.
    pub fn tool_confirmation(&self) -> Option<&ToolConfirmation> {
        self.tool_confirmation.as_ref()
    }

    /// Asks the person for the credential `config` describes (ADK's `request_credential`): the
    /// agent pauses on an `adk_request_credential` call carrying the config without the agent's
    /// secrets; once the answer arrives the tool runs again and [`get_auth_response`] finds it.
    ///
    /// [`get_auth_response`]: Self::get_auth_response
    pub fn request_credential(&self, config: &AuthConfig) -> Result<(), AdkError> {
        let id = self.function_call_id.clone().ok_or_else(|| {
            AdkError::invalid(
                "request_credential requires function_call_id. This method can only be used in a tool context, not a \
                 callback context.",
            )
        })?;
        let request = config.auth_request()?;
        self.actions.lend_mut().requested_auth_configs.insert(id, request.to_json().clone());
        Ok(())
    }

    /// The credential the person gave for `config`, if any (ADK's `get_auth_response`).
    pub fn get_auth_response(&self, config: &AuthConfig) -> Option<JsonObject> {
        let state = self.state();
        config.stored_credential(&|key| state.get(key))
    }

    /// Saves `config`'s exchanged credential in the runner's credential service (ADK's
    /// `save_credential`); `FAILED_PRECONDITION` without one.
    pub async fn save_credential(&self, config: &AuthConfig) -> Result<(), AdkError> {
        self.require_credential_service()?.save_credential(config, self).await
    }

    /// The credential the runner's credential service holds for `config` (ADK's `load_credential`).
    pub async fn load_credential(&self, config: &AuthConfig) -> Result<Option<JsonObject>, AdkError> {
        self.require_credential_service()?.load_credential(config, self).await
    }

    fn require_credential_service(&self) -> Result<Rc<dyn CredentialService>, AdkError> {
        let service = CredentialContext::credential_service(self);
        service.ok_or_else(|| AdkError::new(ErrorCode::FailedPrecondition, "Credential service is not initialized."))
    }

    /// Asks the person to approve this call (ADK's `request_confirmation`): the agent pauses with an
    /// `adk_request_confirmation` call, and the answer runs the tool again with
    /// [`tool_confirmation`](Self::tool_confirmation) set. Only a tool's context has a call to approve.
    pub fn request_confirmation(&self, hint: &str, payload: Option<Value>) -> Result<(), AdkError> {
        let id = self.function_call_id.clone().ok_or_else(|| {
            AdkError::invalid(
                "request_confirmation requires function_call_id. This method can only be used in a tool context.",
            )
        })?;
        let confirmation = ToolConfirmation { hint: hint.to_string(), confirmed: false, payload };
        self.actions.lend_mut().requested_tool_confirmations.insert(id, confirmation);
        Ok(())
    }

    /// The state, writable.
    pub fn state(&self) -> State {
        State { ctx: self.readonly.ctx.clone(), actions: self.actions.clone() }
    }

    /// The seeds' `get_variable`: the value of `key`, or `default` when it is missing or null.
    pub fn get_variable(&self, key: &str, default: Value) -> Value {
        self.state().get(key).filter(|v| !v.is_null()).unwrap_or(default)
    }

    /// The seeds' `set_variable`.
    pub fn set_variable(&self, key: &str, value: Value) {
        self.state().set(key, value);
    }

    /// The seeds' `remove_variable`: ADK state has no deletion, so the key is set to null, which
    /// [`get_variable`](Self::get_variable) reads as missing.
    pub fn remove_variable(&self, key: &str) {
        self.state().set(key, Value::Null);
    }

    /// Runs `f` on the actions recorded so far.
    pub fn with_actions<R>(&self, f: impl FnOnce(&mut EventActions) -> R) -> R {
        f(&mut self.actions.lend_mut())
    }

    /// Takes the recorded actions (to put them in an event).
    pub fn take_actions(&self) -> EventActions {
        std::mem::take(&mut self.actions.lend_mut())
    }

    fn artifacts(&self) -> Result<Rc<dyn ArtifactService>, AdkError> {
        self.readonly
            .ctx
            .invocation
            .artifact_service
            .clone()
            .ok_or_else(|| AdkError::new(ErrorCode::FailedPrecondition, "Artifact service is not initialized."))
    }

    fn ids(&self) -> (String, String, String) {
        self.readonly.ctx.with_session(|s| (s.app_name.clone(), s.user_id.clone(), s.id.clone()))
    }

    /// Saves a new version of `filename` and records it in `artifact_delta`. Boxed: its two callers
    /// (code execution, a JS context) share one copy.
    pub fn save_artifact<'a>(
        &'a self,
        filename: &'a str,
        artifact: Part,
    ) -> Pin<Box<dyn Future<Output = Result<u64, AdkError>> + 'a>> {
        Box::pin(self.save_artifact_now(filename, artifact))
    }

    async fn save_artifact_now(&self, filename: &str, artifact: Part) -> Result<u64, AdkError> {
        let service = self.artifacts()?;
        let (app_name, user_id, session_id) = self.ids();
        let key = ArtifactKey { app_name: &app_name, user_id: &user_id, session_id: Some(&session_id), filename };
        let version = service.save_artifact(key, artifact, None).await?;
        self.actions.lend_mut().artifact_delta.insert(filename.to_string(), i64::try_from(version).unwrap_or(i64::MAX));
        Ok(version)
    }

    /// Loads `filename` (the latest version unless `version` is given).
    pub async fn load_artifact(&self, filename: &str, version: Option<u64>) -> Result<Option<Part>, AdkError> {
        let service = self.artifacts()?;
        let (app_name, user_id, session_id) = self.ids();
        let key = ArtifactKey { app_name: &app_name, user_id: &user_id, session_id: Some(&session_id), filename };
        service.load_artifact(key, version).await
    }

    /// The artifact names of the session and the user. Boxed: its two callers (the
    /// `load_artifacts` tool, a JS context) share one copy.
    pub fn list_artifacts(&self) -> Pin<Box<dyn Future<Output = Result<Vec<String>, AdkError>> + '_>> {
        Box::pin(self.list_artifacts_now())
    }

    async fn list_artifacts_now(&self) -> Result<Vec<String>, AdkError> {
        let service = self.artifacts()?;
        let (app_name, user_id, session_id) = self.ids();
        service.list_artifact_keys(&app_name, &user_id, Some(&session_id)).await
    }

    /// Searches the user's memories.
    pub async fn search_memory(&self, query: &str) -> Result<SearchMemoryResponse, AdkError> {
        let service = self
            .readonly
            .ctx
            .invocation
            .memory_service
            .clone()
            .ok_or_else(|| AdkError::new(ErrorCode::FailedPrecondition, "Memory service is not available."))?;
        let (app_name, user_id, _) = self.ids();
        service.search_memory(&app_name, &user_id, query).await
    }
}

impl CredentialContext for CallbackContext {
    fn app_name(&self) -> String {
        self.invocation_context().with_session(|s| s.app_name.clone())
    }

    fn user_id(&self) -> String {
        ReadonlyContext::user_id(self)
    }

    fn state_get(&self, key: &str) -> Option<Value> {
        self.state().get(key)
    }

    fn state_set(&self, key: &str, value: Value) {
        self.state().set(key, value);
    }

    fn credential_service(&self) -> Option<Rc<dyn CredentialService>> {
        self.invocation_context().invocation().credential_service.clone()
    }

    fn http_client(&self) -> Option<Rc<dyn HttpClient>> {
        self.invocation_context().invocation().http_client.clone()
    }

    fn cancellation(&self) -> Rc<Cancellation> {
        self.invocation_context().invocation().cancellation.clone()
    }

    fn request_credential(&self, config: &AuthConfig) -> Result<(), AdkError> {
        CallbackContext::request_credential(self, config)
    }
}
