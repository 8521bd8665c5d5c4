//! `RemoteA2aAgent`: an agent of the tree whose work happens on an A2A server (ADK's
//! `RemoteA2aAgent`). It sends what the remote agent has not seen yet, continues the remote
//! conversation (`contextId`) and an interrupted task (`taskId`), and turns the A2A stream into
//! ADK events carrying `a2a:task_id`, `a2a:context_id` and `a2a:task_state` in `customMetadata`.

mod events;
mod parts;
mod request;

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;
use futures_util::StreamExt;

use crate::a2a::{A2aClient, A2aClientOptions, SendMessageParams, StreamItem, StreamResponse, TaskOrMessage};
use crate::agent::{agent_event, Agent, AgentCore, EventStream, InvocationContext};
use crate::http::HttpClient;
use crate::Event;

pub use events::EventMapper;

/// `customMetadata` key of the remote task's id.
pub const TASK_ID: &str = "a2a:task_id";
/// `customMetadata` key of the remote conversation's id.
pub const CONTEXT_ID: &str = "a2a:context_id";
/// `customMetadata` key of the remote task's state when the event was made.
pub const TASK_STATE: &str = "a2a:task_state";
/// `customMetadata` key set on a partial artifact event that replaces the artifact instead of adding to it.
pub const REPLACE: &str = "a2a:replace";
/// `customMetadata` key set on the partial event that says a dropped stream was resumed.
pub const RESUMED: &str = "a2a:resumed";
/// The call ADK 2.x puts in place of a remote agent's question when its task needs input: the
/// person answers it with a function response, which goes to the remote task as text.
pub const ASK_FOR_INPUT: &str = "mock_function_call_for_required_user_input";
/// The same, when the remote task needs the person to authenticate.
pub const ASK_FOR_AUTH: &str = "mock_function_call_for_required_user_auth";

/// A card to read on the first run, as ADK does, so building the tree needs no network.
struct CardSource {
    url: String,
    options: A2aClientOptions,
    http: Rc<dyn HttpClient>,
}

/// An agent served over A2A.
pub struct RemoteA2aAgent {
    core: AgentCore,
    client: RefCell<Option<A2aClient>>,
    card: Option<CardSource>,
}

impl RemoteA2aAgent {
    /// An agent talking through `client`.
    pub fn new(core: AgentCore, client: A2aClient) -> Self {
        RemoteA2aAgent { core, client: RefCell::new(Some(client)), card: None }
    }

    /// An agent whose card is read from `url` when it first runs.
    pub fn from_card_url(core: AgentCore, url: &str, options: A2aClientOptions, http: Rc<dyn HttpClient>) -> Self {
        let card = CardSource { url: url.to_string(), options, http };
        RemoteA2aAgent { core, client: RefCell::new(None), card: Some(card) }
    }

    /// The client, reading the card first if it was not read yet (a failure is retried next run).
    async fn client(&self) -> Result<A2aClient, crate::AdkError> {
        if let Some(client) = self.client.lend().clone() {
            return Ok(client);
        }
        let Some(card) = &self.card else {
            return Err(crate::AdkError::new(crate::ErrorCode::Internal, "RemoteA2aAgent without a client"));
        };
        // Boxed, here and for `send_message`: the JS API awaits the same calls, and boxed they
        // stay one copy each instead of one inlined into each caller (the download size).
        let read: LocalBoxFuture<'_, _> =
            Box::pin(A2aClient::from_card_url(&card.url, card.options.clone(), card.http.clone()));
        let client = read.await?;
        *self.client.lend_mut() = Some(client.clone());
        Ok(client)
    }
}

impl Agent for RemoteA2aAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        Box::pin(async_stream::try_stream! {
            let history = ctx.with_session(|s| s.events.clone());
            let Some(message) = request::build_message(ctx.agent_name(), history.iter()) else {
                return;
            };
            let make = || agent_event(&ctx, None);
            let mut mapper = EventMapper::new(make);
            // Each answer's events are yielded in one place: a `yield` is a state of the generator.
            let mut stream = None;
            let mut events = match self.client().await {
                Err(e) => vec![failure(make(), &e)],
                Ok(client) => {
                    let params = SendMessageParams { message, ..Default::default() };
                    // Streamed only when the card says it may be, as a2a-sdk's client (ADK's) and
                    // @a2a-js/sdk decide: a card without the field is answered by `SendMessage`.
                    if client.card().capabilities.streaming != Some(true) {
                        let sent: LocalBoxFuture<'_, _> = Box::pin(client.send_message(&params));
                        match sent.await {
                            Ok(TaskOrMessage::Task(task)) => mapper.task(task, true),
                            Ok(TaskOrMessage::Message(message)) => {
                                mapper.map(StreamItem::Event(StreamResponse::Message(message)))
                            }
                            Err(e) => vec![failure(make(), &e)],
                        }
                    } else {
                        stream = Some(client.send_message_stream(params, ctx.invocation().cancellation.clone()));
                        Vec::new()
                    }
                }
            };
            loop {
                for event in events {
                    yield event;
                }
                let Some(items) = &mut stream else { break };
                events = match items.next().await {
                    Some(Ok(item)) => mapper.map(item),
                    Some(Err(e)) if e.code == crate::ErrorCode::Aborted => Err(e)?,
                    Some(Err(e)) => {
                        // What had streamed was only in partial events: store it before the failure.
                        stream = None;
                        let mut events = mapper.finish();
                        events.push(failure(make(), &e));
                        events
                    }
                    None => {
                        stream = None;
                        mapper.finish()
                    }
                };
            }
        })
    }
}

/// A transport or protocol failure as an error event: the run and the session go on.
fn failure(mut event: Event, error: &crate::AdkError) -> Event {
    event.error_code = Some(error.code.as_str().to_string());
    event.error_message = Some(error.message.clone());
    event
}
