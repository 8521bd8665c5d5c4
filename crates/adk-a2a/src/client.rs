//! [`A2aClient`]: talks to one remote agent through the interface its card offers.

use std::rc::Rc;

use adk_core::json;
use futures_util::StreamExt;

use super::card::{card_url, AgentCard, Binding, ProtocolVersion};
use super::codec::Op;
use super::errors::from_http;
use super::options::A2aClientOptions;
use super::stream::{self, A2aStream, DeliveredStream, StreamRequest};
use super::transport::{prepare, Transport};
use super::types::{ListTasksParams, ListTasksResponse, SendMessageParams, Task, TaskOrMessage};
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest};
use crate::AdkError;

/// A client of one remote A2A agent, speaking protocol 1.0 or 0.3 over JSON-RPC or HTTP+JSON as
/// the agent's card allows.
#[derive(Clone)]
pub struct A2aClient {
    card: Rc<AgentCard>,
    transport: Rc<Transport>,
}

impl A2aClient {
    /// Fetches the agent's card from `url` (the agent's base URL, whose
    /// `/.well-known/agent-card.json` is read, or the card's own URL) and picks an interface.
    pub async fn from_card_url(
        url: &str,
        options: A2aClientOptions,
        http: Rc<dyn HttpClient>,
    ) -> Result<Self, AdkError> {
        let url = card_url(url);
        let mut request = HttpRequest::get(&url).header("Accept", "application/json");
        prepare(&mut request, &options);
        let response = http.send(request, Rc::default()).await?;
        let status = response.status;
        let ok = response.ok();
        let text = response.text().await?;
        if !ok {
            let e = from_http(status, &text);
            return Err(AdkError { message: format!("fetching the agent card at {url}: {}", e.message), ..e });
        }
        let card = AgentCard::from_json(&text)
            .map_err(|e| AdkError { message: format!("the agent card at {url} does not read: {}", e.message), ..e })?;
        Self::from_card(card, options, http)
    }

    /// A client for the agent `card` describes.
    pub fn from_card(card: AgentCard, options: A2aClientOptions, http: Rc<dyn HttpClient>) -> Result<Self, AdkError> {
        let endpoint = card.choose_endpoint(options.binding, options.protocol_version)?;
        Ok(A2aClient { card: Rc::new(card), transport: Rc::new(Transport::new(endpoint, options, http)) })
    }

    /// The agent's card.
    pub fn card(&self) -> &AgentCard {
        &self.card
    }

    /// The protocol version in use.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.transport.endpoint.version
    }

    /// The binding in use.
    pub fn binding(&self) -> Binding {
        self.transport.endpoint.binding
    }

    /// The URL of the interface in use.
    pub fn url(&self) -> &str {
        &self.transport.endpoint.url
    }

    /// Sends a message; the agent answers with a task or a message.
    pub async fn send_message(&self, params: &SendMessageParams) -> Result<TaskOrMessage, AdkError> {
        let value = self.transport.call(Op::Send(params)).await?;
        self.transport.codec().send_result(value)
    }

    /// Sends a message and streams what follows. A stream that drops before the task ends is
    /// resumed (see [`ResumePolicy`]); `cancellation` stops it with an `ABORTED` error.
    pub fn send_message_stream(&self, params: SendMessageParams, cancellation: Rc<Cancellation>) -> A2aStream {
        items(self.open_stream(StreamRequest::SendMessage(Box::new(params)), cancellation))
    }

    /// The task `id`, with at most `history_length` history messages.
    pub async fn get_task(&self, id: &str, history_length: Option<u32>) -> Result<Task, AdkError> {
        self.transport.get_task(id, history_length).await
    }

    /// Asks the agent to cancel task `id`; returns the task as it then is.
    pub async fn cancel_task(&self, id: &str) -> Result<Task, AdkError> {
        let value = self.transport.call(Op::Cancel { id }).await?;
        self.transport.codec().task(value)
    }

    /// Streams the events of running task `id`, starting with the task as it is; resumed like
    /// [`Self::send_message_stream`].
    pub fn subscribe_to_task(&self, id: &str, cancellation: Rc<Cancellation>) -> A2aStream {
        items(self.open_stream(StreamRequest::SubscribeToTask(id.to_string()), cancellation))
    }

    /// Opens a stream whose items come with their v1.0 JSON: what a JS caller is handed, with the
    /// server's own text passed on where no translation is needed.
    pub fn open_stream(&self, request: StreamRequest, cancellation: Rc<Cancellation>) -> DeliveredStream {
        stream::resuming(self.transport.clone(), request, cancellation)
    }

    /// Lists tasks (protocol 1.0 only; `UNIMPLEMENTED` on 0.3).
    pub async fn list_tasks(&self, params: &ListTasksParams) -> Result<ListTasksResponse, AdkError> {
        let value = self.transport.call(Op::List(params)).await?;
        json::from_value("ListTasks result", value).map_err(super::codec::malformed)
    }
}

fn items(stream: DeliveredStream) -> A2aStream {
    Box::pin(stream.map(|delivered| delivered.map(|d| *d.item)))
}
