//! [`A2aClient`]: talks to one remote agent through the interface its card offers.

use std::pin::Pin;
use std::rc::Rc;
use std::task::{ready, Context, Poll};

use adk_core::json::{self, FromJson};
use futures_core::Stream;
use futures_util::StreamExt;

use super::card::{card_url, AgentCard, Binding, ProtocolVersion};
use super::codec::{malformed, Op};
use super::errors::from_http;
use super::options::A2aClientOptions;
use super::stream::{self, A2aStream, DeliveredStream, StreamItem, StreamRequest};
use super::targets;
use super::transport::{prepare, Transport};
use super::types::{ListTasksParams, ListTasksResponse, SendMessageParams, StreamResponse, Task, TaskOrMessage};
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest};
use crate::{AdkError, ErrorCode};

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
        targets::check_card_url(&url)?;
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
        Self::from_card_read_at(&url, &text, options, http)
    }

    /// The client of the card `text`, read from `url`: one that sends nowhere but to `url`'s origin.
    fn from_card_read_at(
        url: &str,
        text: &str,
        options: A2aClientOptions,
        http: Rc<dyn HttpClient>,
    ) -> Result<Self, AdkError> {
        let card = AgentCard::from_json(text)
            .map_err(|e| AdkError { message: format!("the agent card at {url} does not read: {}", e.message), ..e })?;
        let client = Self::from_card(card, options, http)?;
        targets::check_target(url, client.url())?;
        Ok(client)
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
        let json = self.call_json(Unary::SendMessage(params)).await?;
        match self.decode("event", &json)? {
            StreamResponse::Task(task) => Ok(TaskOrMessage::Task(task)),
            StreamResponse::Message(message) => Ok(TaskOrMessage::Message(message)),
            // `call_json` let only a task or a message through.
            _ => Err(AdkError::new(ErrorCode::Internal, "the agent answered SendMessage with an event")),
        }
    }

    /// Sends a message and streams what follows. A stream that drops before the task ends is
    /// resumed (see [`ResumePolicy`](crate::ResumePolicy)); `cancellation` stops it with an `ABORTED` error.
    pub fn send_message_stream(&self, params: SendMessageParams, cancellation: Rc<Cancellation>) -> A2aStream {
        items(self.open_stream(StreamRequest::SendMessage(Box::new(params)), cancellation))
    }

    /// The task `id`, with at most `history_length` history messages.
    pub async fn get_task(&self, id: &str, history_length: Option<u32>) -> Result<Task, AdkError> {
        let json = self.call_json(Unary::GetTask { id, history_length }).await?;
        self.decode("task", &json)
    }

    /// Asks the agent to cancel task `id`; returns the task as it then is.
    pub async fn cancel_task(&self, id: &str) -> Result<Task, AdkError> {
        let json = self.call_json(Unary::CancelTask(id)).await?;
        self.decode("task", &json)
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

    /// Runs `call` and returns its result as protocol 1.0 JSON: what a JS caller is handed, the
    /// server's own text where no translation is needed, read only as far as the client needs to
    /// (the typed methods above read it whole).
    pub async fn call_json(&self, call: Unary<'_>) -> Result<String, AdkError> {
        let op = match call {
            Unary::SendMessage(params) => Op::Send(params),
            Unary::GetTask { id, history_length } => Op::GetTask { id, history_length },
            Unary::CancelTask(id) => Op::Cancel { id },
            Unary::ListTasks(params) => Op::List(params),
        };
        self.transport.call_json(op).await
    }

    /// Lists tasks (protocol 1.0 only; `UNIMPLEMENTED` on 0.3).
    pub async fn list_tasks(&self, params: &ListTasksParams) -> Result<ListTasksResponse, AdkError> {
        let json = self.call_json(Unary::ListTasks(params)).await?;
        self.decode("ListTasks result", &json)
    }

    /// A result's JSON decoded whole into the model; `what` names it in the error.
    fn decode<T: FromJson>(&self, what: &str, json: &str) -> Result<T, AdkError> {
        json::from_str(&self.transport.codec().name(what), json).map_err(malformed)
    }
}

/// A unary operation for [`A2aClient::call_json`].
#[derive(Debug, Clone, Copy)]
pub enum Unary<'a> {
    /// `SendMessage`: the result is `{"task": …}` or `{"message": …}`.
    SendMessage(&'a SendMessageParams),
    /// `GetTask`: the result is the task.
    GetTask {
        /// The task's id.
        id: &'a str,
        /// At most this many history messages.
        history_length: Option<u32>,
    },
    /// `CancelTask` of the task with this id: the result is the task.
    CancelTask(&'a str),
    /// `ListTasks` (protocol 1.0): the result is one page.
    ListTasks(&'a ListTasksParams),
}

/// The typed items of `stream`, each decoded from its JSON.
fn items(stream: DeliveredStream) -> A2aStream {
    Box::pin(Items { stream: Some(stream) })
}

/// Typed items; the stream ends after the first error (one decoding fails where the client's own
/// reading did not).
struct Items {
    stream: Option<DeliveredStream>,
}

impl Stream for Items {
    type Item = Result<StreamItem, AdkError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(stream) = self.stream.as_mut() else { return Poll::Ready(None) };
        let item = ready!(stream.poll_next_unpin(cx)).map(|delivered| delivered.and_then(|d| d.item()));
        if !matches!(item, Some(Ok(_))) {
            self.stream = None;
        }
        Poll::Ready(item)
    }
}
