//! [`A2aClient`]: talks to one remote agent through the interface its card offers.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde_json::Value;

use super::card::{card_url, AgentCard, Binding, Endpoint, ProtocolVersion};
use super::codec::{Codec, Op};
use super::errors::{from_http, snippet};
use super::stream::{self, A2aStream, Start};
use super::types::{ListTasksParams, ListTasksResponse, SendMessageParams, Task, TaskOrMessage};
use super::{jsonrpc, rest};
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest, HttpResponse};
use crate::{AdkError, ErrorCode};

/// Waits the given number of milliseconds (natively an instant no-op in tests; `setTimeout` in the
/// browser): the client has no timer of its own.
pub type Sleep = Rc<dyn Fn(u32) -> Pin<Box<dyn Future<Output = ()>>>>;

/// Changes every request before it is sent (e.g. adds a bearer token).
pub type Interceptor = Rc<dyn Fn(&mut HttpRequest)>;

/// How a dropped stream is resumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePolicy {
    /// Re-attach attempts in a row without progress before giving up; 0 turns resuming off.
    pub max_retries: u32,
    /// The wait before the first attempt; it doubles with every further one (capped at 30 s).
    pub backoff_base_ms: u32,
}

impl Default for ResumePolicy {
    fn default() -> Self {
        ResumePolicy { max_retries: 3, backoff_base_ms: 500 }
    }
}

impl ResumePolicy {
    /// The wait before attempt `attempt` (1-based).
    pub fn backoff_ms(&self, attempt: u32) -> u32 {
        let factor = 1u32.checked_shl(attempt.saturating_sub(1)).unwrap_or(u32::MAX);
        self.backoff_base_ms.saturating_mul(factor).min(30_000)
    }
}

/// How to build an [`A2aClient`].
#[derive(Clone, Default)]
pub struct A2aClientOptions {
    /// Headers added to every request.
    pub headers: Vec<(String, String)>,
    /// Use only interfaces of this binding.
    pub binding: Option<Binding>,
    /// Use only interfaces of this protocol version.
    pub protocol_version: Option<ProtocolVersion>,
    /// Runs on every request last, after the client's own headers.
    pub interceptor: Option<Interceptor>,
    /// How dropped streams are resumed.
    pub resume: ResumePolicy,
    /// The timer for the resume backoff; without one, attempts follow each other at once.
    pub sleep: Option<Sleep>,
}

/// Shared by the client and the streams it returns.
pub(crate) struct Inner {
    card: AgentCard,
    endpoint: Endpoint,
    options: A2aClientOptions,
    http: Rc<dyn HttpClient>,
    next_id: Cell<u64>,
}

/// A client of one remote A2A agent, speaking protocol 1.0 or 0.3 over JSON-RPC or HTTP+JSON as
/// the agent's card allows.
#[derive(Clone)]
pub struct A2aClient {
    inner: Rc<Inner>,
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
        Ok(A2aClient { inner: Rc::new(Inner { card, endpoint, options, http, next_id: Cell::new(1) }) })
    }

    /// The agent's card.
    pub fn card(&self) -> &AgentCard {
        &self.inner.card
    }

    /// The protocol version in use.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.inner.endpoint.version
    }

    /// The binding in use.
    pub fn binding(&self) -> Binding {
        self.inner.endpoint.binding
    }

    /// The URL of the interface in use.
    pub fn url(&self) -> &str {
        &self.inner.endpoint.url
    }

    /// Sends a message; the agent answers with a task or a message.
    pub async fn send_message(&self, params: &SendMessageParams) -> Result<TaskOrMessage, AdkError> {
        let value = self.inner.call(Op::Send(params)).await?;
        self.inner.codec().send_result(value)
    }

    /// Sends a message and streams what follows. A stream that drops before the task ends is
    /// resumed (see [`ResumePolicy`]); `cancellation` stops it with an `ABORTED` error.
    pub fn send_message_stream(&self, params: SendMessageParams, cancellation: Rc<Cancellation>) -> A2aStream {
        stream::resuming(self.inner.clone(), Start::Send(Box::new(params)), cancellation)
    }

    /// The task `id`, with at most `history_length` history messages.
    pub async fn get_task(&self, id: &str, history_length: Option<u32>) -> Result<Task, AdkError> {
        self.inner.get_task(id, history_length).await
    }

    /// Asks the agent to cancel task `id`; returns the task as it then is.
    pub async fn cancel_task(&self, id: &str) -> Result<Task, AdkError> {
        let value = self.inner.call(Op::Cancel { id }).await?;
        self.inner.codec().task(value)
    }

    /// Streams the events of running task `id`, starting with the task as it is; resumed like
    /// [`Self::send_message_stream`].
    pub fn subscribe_to_task(&self, id: &str, cancellation: Rc<Cancellation>) -> A2aStream {
        stream::resuming(self.inner.clone(), Start::Subscribe(id.to_string()), cancellation)
    }

    /// Lists tasks (protocol 1.0 only; `UNIMPLEMENTED` on 0.3).
    pub async fn list_tasks(&self, params: &ListTasksParams) -> Result<ListTasksResponse, AdkError> {
        let value = self.inner.call(Op::List(params)).await?;
        crate::error::from_json_str("ListTasks result", &value.to_string()).map_err(super::codec::malformed)
    }
}

/// Adds the caller's headers and runs the interceptor.
fn prepare(request: &mut HttpRequest, options: &A2aClientOptions) {
    request.headers.extend(options.headers.iter().cloned());
    if let Some(interceptor) = &options.interceptor {
        interceptor(request);
    }
}

impl Inner {
    pub(crate) fn codec(&self) -> Codec {
        Codec { version: self.endpoint.version, binding: self.endpoint.binding }
    }

    pub(crate) fn resume_policy(&self) -> ResumePolicy {
        self.options.resume
    }

    pub(crate) fn sleep(&self, ms: u32) -> Pin<Box<dyn Future<Output = ()>>> {
        match &self.options.sleep {
            Some(sleep) if ms > 0 => sleep(ms),
            _ => Box::pin(std::future::ready(())),
        }
    }

    /// The request for `op`, and the JSON-RPC id it carries.
    fn request(&self, op: Op<'_>) -> Result<(HttpRequest, Option<u64>), AdkError> {
        let codec = self.codec();
        let (mut request, id) = match codec.binding {
            Binding::JsonRpc => {
                let id = self.next_id.replace(self.next_id.get() + 1);
                (jsonrpc::request(&self.endpoint.url, codec, op, id)?, Some(id))
            }
            Binding::HttpJson => (rest::request(&self.endpoint.url, codec, op)?, None),
        };
        // a2a-sdk reads a request without this header as 0.3.
        if codec.version == ProtocolVersion::V1_0 {
            request.headers.push(("A2A-Version".into(), "1.0".into()));
        }
        let accept =
            if matches!(op, Op::Stream(_) | Op::Subscribe { .. }) { "text/event-stream" } else { "application/json" };
        request.headers.push(("Accept".into(), accept.into()));
        prepare(&mut request, &self.options);
        Ok((request, id))
    }

    async fn send(&self, op: Op<'_>, cancellation: Rc<Cancellation>) -> Result<(HttpResponse, Option<u64>), AdkError> {
        let (request, id) = self.request(op)?;
        Ok((self.http.send(request, cancellation).await?, id))
    }

    /// Runs a unary operation; returns its result JSON.
    pub(crate) async fn call(&self, op: Op<'_>) -> Result<Value, AdkError> {
        let (response, id) = self.send(op, Rc::default()).await?;
        let status = response.status;
        let ok = response.ok();
        let text = response.text().await?;
        if !ok {
            return Err(from_http(status, &text));
        }
        single(&text, id)
    }

    pub(crate) async fn get_task(&self, id: &str, history_length: Option<u32>) -> Result<Task, AdkError> {
        let value = self.call(Op::GetTask { id, history_length }).await?;
        self.codec().task(value)
    }

    /// Opens a stream: the events of the response, or the error it carries instead.
    pub(crate) async fn open(&self, op: Op<'_>, cancellation: Rc<Cancellation>) -> Result<stream::Events, AdkError> {
        let (response, id) = self.send(op, cancellation).await?;
        if !response.ok() {
            let status = response.status;
            return Err(from_http(status, &response.text().await?));
        }
        if response.is_event_stream() {
            return Ok(stream::events(response, self.codec(), id));
        }
        // Not a stream: a server reports errors found before streaming starts as a plain JSON
        // response (a2a-sdk does, e.g. for a finished task); a lone result is a one-event stream.
        let content_type = response.header("content-type").unwrap_or("none").to_string();
        let text = response.text().await?;
        let value = single(&text, id).map_err(|e| {
            // An error the agent stated stands; anything else means the body is not what was asked for.
            if e.rpc_code.is_some() || e.http_status.is_some() {
                return e;
            }
            let message = format!(
                "the agent answered a streaming request with '{content_type}' instead of text/event-stream: {}",
                snippet(&text)
            );
            AdkError::new(ErrorCode::Internal, message)
        })?;
        let event = self.codec().event(value)?;
        Ok(Box::pin(futures_util::stream::iter([Ok(event)])))
    }
}

/// The result JSON of a whole (non-stream) response body: the JSON-RPC result, or the HTTP+JSON body.
fn single(text: &str, id: Option<u64>) -> Result<Value, AdkError> {
    match id {
        Some(id) => jsonrpc::result(text, id),
        None => {
            let value: Value = serde_json::from_str(text).map_err(|e| {
                AdkError::new(ErrorCode::Internal, format!("the agent's response is not JSON ({e}): {}", snippet(text)))
            })?;
            match value.get("error") {
                Some(error) if error.is_object() => Err(super::errors::from_error_event(text)),
                _ => Ok(value),
            }
        }
    }
}
