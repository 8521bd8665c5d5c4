//! The runner: turns a user message into an invocation of the agent tree, records every event in
//! the session and streams it to the caller (ADK's `Runner`, 1.x classic path).

mod find_agent;
mod session_lock;

use adk_core::cell::Lend;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use crate::agent::{
    run_agent, Agent, Cancellation, CompactBeforeModel, EventStream, Invocation, InvocationContext, Plugin,
    PluginManager,
};
use crate::apps::{compact_after_invocation, compaction_before_model, App, EventsCompactionConfig};
use crate::artifact::{ArtifactService, InMemoryArtifactService};
use crate::auth::CredentialService;
use crate::http::HttpClient;
use crate::memory::{InMemoryMemoryService, MemoryService};
use crate::or_break::or_break;
use crate::session::{Events, InMemorySessionService, Session, SessionService};
use crate::types::{Content, JsonObject};
use crate::{platform, AdkError, ErrorCode, Event};
use futures_core::Stream;
use futures_util::StreamExt;

pub use crate::agent::{RunConfig, StreamingMode};
pub use find_agent::{find_agent_to_run, find_matching_function_call};
use session_lock::SessionLock;

/// Runs an agent tree over sessions kept by a session service.
pub struct Runner {
    agent: Rc<dyn Agent>,
    /// The name, services and plugins each run starts its invocation with.
    setup: Setup,
    auto_create_session: bool,
    events_compaction_config: Option<Rc<EventsCompactionConfig>>,
    running: session_lock::Running,
}

impl Runner {
    /// A runner for `agent` in app `app_name`.
    pub fn new(app_name: &str, agent: Rc<dyn Agent>, session_service: Rc<dyn SessionService>) -> Self {
        Runner {
            agent,
            setup: Setup {
                app_name: app_name.to_string(),
                session_service,
                artifact_service: None,
                memory_service: None,
                credential_service: None,
                http_client: None,
                plugins: PluginManager::default(),
                compaction: None,
            },
            auto_create_session: false,
            events_compaction_config: None,
            running: Rc::default(),
        }
    }

    /// ADK's `InMemoryRunner`: in-memory session, artifact and memory services.
    pub fn in_memory(app_name: &str, agent: Rc<dyn Agent>) -> Self {
        Runner::new(app_name, agent, Rc::new(InMemorySessionService::new()))
            .with_artifact_service(Rc::new(InMemoryArtifactService::new()))
            .with_memory_service(Rc::new(InMemoryMemoryService::new()))
    }

    /// ADK's `Runner(app=…)`: the app's name, root agent and compaction.
    pub fn from_app(app: &App, session_service: Rc<dyn SessionService>) -> Self {
        Runner::new(&app.name, app.root_agent.clone(), session_service)
            .with_events_compaction_config(app.events_compaction_config.clone())
            .with_plugin_manager(app.plugins.clone())
    }

    /// Compacts sessions after each invocation as `config` says (an `App`'s; checked there).
    pub fn with_events_compaction_config(mut self, config: Option<Rc<EventsCompactionConfig>>) -> Self {
        self.setup.compaction = config.as_ref().and_then(compaction_before_model);
        self.events_compaction_config = config;
        self
    }

    /// ADK's `InMemoryRunner(app=…)`.
    pub fn in_memory_from_app(app: &App) -> Self {
        Runner::from_app(app, Rc::new(InMemorySessionService::new()))
            .with_artifact_service(Rc::new(InMemoryArtifactService::new()))
            .with_memory_service(Rc::new(InMemoryMemoryService::new()))
    }

    /// Uses `service` for artifacts.
    pub fn with_artifact_service(mut self, service: Rc<dyn ArtifactService>) -> Self {
        self.setup.artifact_service = Some(service);
        self
    }

    /// Uses `service` for memory.
    pub fn with_memory_service(mut self, service: Rc<dyn MemoryService>) -> Self {
        self.setup.memory_service = Some(service);
        self
    }

    /// Where credentials outlive a sign-in (ADK's `credential_service`).
    pub fn with_credential_service(mut self, service: Rc<dyn CredentialService>) -> Self {
        self.setup.credential_service = Some(service);
        self
    }

    /// What OAuth2 token requests and endpoint discovery go through; without one, a code the
    /// person brings back is stored unexchanged (as ADK does without authlib).
    pub fn with_http_client(mut self, client: Rc<dyn HttpClient>) -> Self {
        self.setup.http_client = Some(client);
        self
    }

    /// Creates a missing session on first use instead of failing with `NOT_FOUND`.
    pub fn with_auto_create_session(mut self, auto: bool) -> Self {
        self.auto_create_session = auto;
        self
    }

    /// Runs every invocation through `plugins`, in order (ADK's `plugins`, which an `App` carries);
    /// two with one name are refused with `INVALID_ARGUMENT`.
    pub fn with_plugins(self, plugins: Vec<Rc<dyn Plugin>>) -> Result<Self, AdkError> {
        Ok(self.with_plugin_manager(PluginManager::new(plugins)?))
    }

    /// Shares `plugins` (an agent tool's run uses its parent's).
    pub fn with_plugin_manager(mut self, plugins: PluginManager) -> Self {
        self.setup.plugins = plugins;
        self
    }

    /// The plugins.
    pub fn plugin_manager(&self) -> &PluginManager {
        &self.setup.plugins
    }

    /// The app name.
    pub fn app_name(&self) -> &str {
        &self.setup.app_name
    }

    /// The root agent.
    pub fn agent(&self) -> &Rc<dyn Agent> {
        &self.agent
    }

    /// The session service.
    pub fn session_service(&self) -> &Rc<dyn SessionService> {
        &self.setup.session_service
    }

    /// The artifact service, if any.
    pub fn artifact_service(&self) -> Option<&Rc<dyn ArtifactService>> {
        self.setup.artifact_service.as_ref()
    }

    /// The memory service, if any.
    pub fn memory_service(&self) -> Option<&Rc<dyn MemoryService>> {
        self.setup.memory_service.as_ref()
    }

    /// Runs one invocation: the plugins may replace the user message, which is then appended to
    /// the session (with `state_delta`); the agent to run is picked and run, unless a plugin's
    /// `before_run` answers instead; every event, once the plugins' `on_event` saw it, is appended
    /// (unless partial) before it is yielded; the plugins' `after_run` closes a run that did not fail.
    ///
    /// A second run on a session whose run is still going fails with `FAILED_PRECONDITION`. Dropping
    /// the stream stops the run at its next await point; nothing after the last event taken is written.
    pub fn run_async(
        &self,
        user_id: &str,
        session_id: &str,
        new_message: Content,
        state_delta: Option<JsonObject>,
        run_config: RunConfig,
    ) -> EventStream {
        let (user_id, session_id, run_config) = (user_id.to_string(), session_id.to_string(), Some(run_config));
        let events = self.run(RunRequest { user_id, session_id, new_message, state_delta, run_config });
        Box::pin(events.map(|item| item.map(|(event, _)| event)))
    }

    /// [`Runner::run_async`], each event as its JSON text: the session service's own encoding when
    /// it wrote one (the in-memory service does), so that the event is encoded once.
    pub fn run_async_json(&self, request: RunRequest) -> Pin<Box<dyn Stream<Item = Result<String, AdkError>>>> {
        let events = self.run(request);
        Box::pin(events.map(|item| item.map(|(event, json)| json.unwrap_or_else(|| adk_core::json::to_string(&event)))))
    }

    /// The run behind both: each event as the session stored it, and its JSON text if the service wrote one.
    fn run(&self, request: RunRequest) -> Pin<Box<dyn Stream<Item = Result<Appended, AdkError>>>> {
        let RunRequest { user_id, session_id, new_message, state_delta, run_config } = request;
        let run_config = run_config.unwrap_or_default();
        let root = self.agent.clone();
        let setup = self.setup.clone();
        let auto_create = self.auto_create_session;
        let running = self.running.clone();
        let compaction = self.events_compaction_config.clone();
        Box::pin(async_stream::try_stream! {
            // Held until the run is over, errors included.
            let mut _lock = None;
            // The agent's events, and what stops the work in flight when the run is dropped while
            // armed: out here, so that an error is yielded while they live. The guard is declared
            // after the events, so dropped before them: a stopped run tells the work in flight (its
            // signals fire) before that work is dropped.
            let mut events: Option<EventStream> = None;
            let mut stop = CancelOnDrop(None);
            // Errors leave the block here and are yielded once, below (see `or_break!`).
            let failed: Result<(), AdkError> = 'run: {
                _lock = Some(or_break!('run, SessionLock::acquire(&running, &user_id, &session_id)));
                let mut new_message = new_message;
                or_break!('run, validate_new_message(&mut new_message));
                let (app_name, session_service) = (&setup.app_name, &setup.session_service);
                let found = session_service.get_session(app_name, &user_id, &session_id, None);
                let session = match or_break!('run, found.await) {
                    Some(session) => session,
                    None if auto_create => {
                        let created = session_service.create_session(app_name, &user_id, None, Some(&session_id));
                        or_break!('run, created.await)
                    }
                    None => {
                        let message = format!("Session not found: {session_id}");
                        break 'run Err(AdkError::new(ErrorCode::NotFound, message));
                    }
                };
                let started = setup.invocation(session, new_message, run_config, &root);
                let (invocation, new_message) = or_break!('run, started.await);

                let mut user_event = Event::new("user");
                user_event.invocation_id.clone_from(&invocation.invocation_id);
                user_event.content = Some(new_message);
                user_event.actions.state_delta = state_delta.unwrap_or_default();
                or_break!('run, append(&invocation, user_event).await);

                let agent = find_agent_to_run(&invocation.session.lend(), &root);
                let ctx = InvocationContext::new(invocation.clone(), agent.clone());
                let plugins = &setup.plugins;
                if let Some(content) = or_break!('run, plugins.run_before_run(&ctx).await) {
                    // As ADK: the answer is the run's one event, authored `model`.
                    let mut event = Event::new("model");
                    event.content = Some(content);
                    let event = or_break!('run, on_event(&ctx, event).await);
                    yield or_break!('run, append(&invocation, event).await);
                } else {
                    let events = events.insert(run_agent(agent, &ctx));
                    stop.0 = Some(invocation.cancellation.clone());
                    while let Some(event) = events.next().await {
                        let event = or_break!('run, on_event(&ctx, or_break!('run, event)).await);
                        yield or_break!('run, append(&invocation, event).await);
                    }
                    stop.0 = None;
                }
                or_break!('run, plugins.run_after_run(&ctx).await);
                // After the whole invocation and its `after_run` hooks, never in the middle of one (ADK's
                // post-invocation compaction); the summary is recorded, not yielded.
                if let Some(config) = &compaction {
                    stop.0 = Some(invocation.cancellation.clone());
                    // Behind a `dyn`: its code stays out of this loop's (the download size).
                    let compaction: Pin<Box<dyn Future<Output = Result<(), AdkError>> + '_>> =
                        Box::pin(compact(&invocation, config, &root));
                    or_break!('run, compaction.await);
                    stop.0 = None;
                }
                Ok(())
            };
            failed?;
        })
    }
}

adk_core::json_struct! {
    /// What a run starts from: [`Runner::run_async`]'s arguments, as a JS `runAsync` request gives them.
    pub struct RunRequest {
        /// The user.
        pub user_id: String => "userId" req,
        /// The session, which must exist unless the runner creates missing ones.
        pub session_id: String => "sessionId" req,
        /// The user's message.
        pub new_message: Content => "newMessage" req,
        /// State changes recorded with the message.
        pub state_delta: Option<JsonObject> => "stateDelta" def,
        /// The run's configuration (the default when `None`).
        pub run_config: Option<RunConfig> => "runConfig" def,
    }
}

/// What a run starts its invocation with: the runner's services, plugins and compaction before model calls.
#[derive(Clone)]
struct Setup {
    app_name: String,
    session_service: Rc<dyn SessionService>,
    artifact_service: Option<Rc<dyn ArtifactService>>,
    memory_service: Option<Rc<dyn MemoryService>>,
    credential_service: Option<Rc<dyn CredentialService>>,
    http_client: Option<Rc<dyn HttpClient>>,
    plugins: PluginManager,
    compaction: Option<Rc<dyn CompactBeforeModel>>,
}

impl Setup {
    /// The invocation for `message` over `session`, after the plugins' `on_user_message`: a message
    /// a plugin replaced is checked as the caller's is, and is what the invocation starts from (and
    /// continues, when its responses answer an earlier one's calls).
    async fn invocation(
        &self,
        session: Session,
        message: Content,
        run_config: RunConfig,
        root: &Rc<dyn Agent>,
    ) -> Result<(Rc<Invocation>, Content), AdkError> {
        let invocation = self.start(session, &message, run_config.clone());
        if self.plugins.is_empty() {
            return Ok((invocation, message));
        }
        let ctx = InvocationContext::new(invocation.clone(), root.clone());
        let Some(mut replaced) = self.plugins.run_on_user_message(&ctx, &message).await? else {
            return Ok((invocation, message));
        };
        validate_new_message(&mut replaced)?;
        let session = std::mem::replace(&mut *invocation.session.lend_mut(), Session::placeholder());
        Ok((self.start(session, &replaced, run_config), replaced))
    }

    fn start(&self, session: Session, message: &Content, run_config: RunConfig) -> Rc<Invocation> {
        let invocation_id =
            resumed_invocation(&session.events, message).unwrap_or_else(|| format!("e-{}", platform::new_uuid()));
        let service = self.session_service.clone();
        let mut invocation = Invocation::new(invocation_id, Some(message.clone()), run_config, session, service);
        invocation.artifact_service.clone_from(&self.artifact_service);
        invocation.memory_service.clone_from(&self.memory_service);
        invocation.credential_service.clone_from(&self.credential_service);
        invocation.http_client.clone_from(&self.http_client);
        invocation.plugins = self.plugins.clone();
        invocation.compaction.clone_from(&self.compaction);
        Rc::new(invocation)
    }
}

/// The event as the plugins leave it (ADK's `_get_output_event`): a replacement keeps the original's
/// id, invocation and timestamp, and its author when it gives none. The plugins see it with the
/// run's defaults already applied.
async fn on_event(ctx: &InvocationContext, mut event: Event) -> Result<Event, AdkError> {
    let plugins = ctx.plugins();
    if plugins.is_empty() {
        return Ok(event);
    }
    apply_run_defaults(ctx.invocation(), &mut event);
    let Some(mut replacement) = plugins.run_on_event(ctx, &event).await? else { return Ok(event) };
    replacement.id = event.id;
    replacement.invocation_id = event.invocation_id;
    replacement.timestamp = event.timestamp;
    if replacement.author.is_empty() {
        replacement.author = event.author;
    }
    Ok(replacement)
}

/// Records the compaction the app's config asks for after this invocation, if one is due.
async fn compact(
    invocation: &Invocation,
    config: &EventsCompactionConfig,
    root: &Rc<dyn Agent>,
) -> Result<(), AdkError> {
    let session = invocation.session.lend().clone();
    let cancellation = invocation.cancellation.clone();
    if let Some(summary) = compact_after_invocation(config, root, &session, cancellation).await? {
        invocation.record(summary).await?;
    }
    Ok(())
}

/// Fires the invocation's cancellation if the run is dropped before it finished.
struct CancelOnDrop(Option<Rc<Cancellation>>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancellation) = self.0.take() {
            cancellation.cancel();
        }
    }
}

/// ADK's checks and defaults for the new message: role `user`, at least one part, no function calls.
fn validate_new_message(message: &mut Content) -> Result<(), AdkError> {
    if message.role.as_deref().is_none_or(str::is_empty) {
        message.role = Some("user".into());
    }
    if message.parts().is_empty() {
        return Err(AdkError::invalid("No parts in the new_message."));
    }
    if message.parts().iter().any(|p| p.function_call.is_some()) {
        return Err(AdkError::invalid("User message cannot contain function calls."));
    }
    Ok(())
}

/// An event as the session stored it, and its JSON text if the session service wrote one.
type Appended = (Event, Option<String>);

/// Applies the run's custom metadata and appends the event unless it is partial; returns the event as
/// the session stored it. An event without an invocation id (`createEvent()` in a JS agent) gets
/// the run's.
async fn append(invocation: &Invocation, mut event: Event) -> Result<Appended, AdkError> {
    apply_run_defaults(invocation, &mut event);
    if event.partial == Some(true) {
        return Ok((event, None));
    }
    invocation.record(event).await
}

/// The run's invocation id on an event without one; the run's custom metadata under the event's own.
fn apply_run_defaults(invocation: &Invocation, event: &mut Event) {
    if event.invocation_id.is_empty() {
        event.invocation_id.clone_from(&invocation.invocation_id);
    }
    if let Some(extra) = &invocation.run_config.custom_metadata {
        let mut merged = extra.clone();
        merged.extend(event.custom_metadata.take().unwrap_or_default());
        event.custom_metadata = Some(merged);
    }
}

/// The invocation a message of function responses continues (ADK 2.x): the one whose calls the
/// responses answer, when every response id names a call in the session and all are of one
/// invocation. Anything else starts a new invocation.
fn resumed_invocation(events: &Events, message: &Content) -> Option<String> {
    // A set, as ADK's: a message may answer one call twice (a progress update and the result).
    let mut ids: Vec<&str> = Vec::new();
    for id in message.parts().iter().filter_map(|p| p.function_response.as_ref()?.id.as_deref()) {
        if !id.is_empty() && !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.is_empty() {
        return None;
    }
    let mut found: Option<&str> = None;
    for event in events.iter().rev() {
        for call in event.get_function_calls() {
            if let Some(at) = ids.iter().position(|id| call.id.as_deref() == Some(*id)) {
                ids.swap_remove(at);
                match found {
                    Some(other) if other != event.invocation_id => return None,
                    _ => found = Some(&event.invocation_id),
                }
            }
        }
        if ids.is_empty() {
            return found.map(str::to_string);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{FunctionCall, FunctionResponse, Part};

    #[test]
    fn two_answers_to_one_call_continue_its_invocation() {
        let mut call = Event::new("agent");
        call.invocation_id = "e-1".into();
        let part = FunctionCall { id: Some("c1".into()), name: Some("f".into()), ..Default::default() };
        call.content = Some(Content::new("model", vec![Part { function_call: Some(part), ..Default::default() }]));
        let events: Events = vec![call].into();
        let answer = || Part {
            function_response: Some(FunctionResponse {
                id: Some("c1".into()),
                name: Some("f".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        let message = Content::new("user", vec![answer(), answer()]);
        assert_eq!(resumed_invocation(&events, &message).as_deref(), Some("e-1"));
    }
}
