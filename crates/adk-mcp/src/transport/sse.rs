//! The older HTTP+SSE transport (MCP 2024-11-05), as the `mcp` SDK's `sse_client` speaks it: a GET
//! stream whose `endpoint` event names where to POST each message; the answers arrive on the stream
//! as `message` events, matched to their requests by id.
//!
//! Single-threaded and without a task of its own: whichever request is waiting reads the stream and
//! hands each answer to the request it is for. The stream keeps the waker of the last request that
//! read it, so a request that stops waiting wakes the others, and one of them takes over reading.

use adk_core::cell::Lend;
use std::cell::{Cell, RefCell};
use std::future::poll_fn;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use adk_core::error::excerpt;
use adk_core::sse::SseEvent;
use futures_util::future::LocalBoxFuture;
use futures_util::StreamExt;
use serde_json::Value;

use super::{endpoint, refused};
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest, SseStream};
use crate::message::{read, Incoming, LIST_CHANGED};
use crate::{AdkError, ErrorCode};

type JsonObject = serde_json::Map<String, Value>;
type Answer = Result<JsonObject, AdkError>;

/// One open stream of an HTTP+SSE server and the requests waiting on it.
pub struct Connection {
    endpoint: String,
    /// `MCP server <url>`, for errors.
    what: String,
    /// `None` once the stream ended, failed or was closed.
    events: RefCell<Option<SseStream>>,
    waiting: RefCell<Vec<Waiter>>,
    tools_changed: Rc<Cell<bool>>,
}

struct Waiter {
    id: u64,
    answer: Option<Answer>,
    waker: Option<Waker>,
}

/// A request waiting for its answer on a connection; dropping it stops the wait.
pub struct Expecting {
    connection: Rc<Connection>,
    id: u64,
}

impl Connection {
    /// GETs the stream at `url` (with `headers`) and reads its `endpoint` event. The stream lives as
    /// long as the session, not the run that opened it: it has its own cancellation, which `run`
    /// fires only while the stream is being opened.
    /// Boxed: its state stays out of every request's future.
    pub fn open<'a>(
        http: &'a dyn HttpClient,
        url: &'a str,
        headers: Vec<(String, String)>,
        tools_changed: Rc<Cell<bool>>,
        what: String,
        run: &'a Rc<Cancellation>,
    ) -> LocalBoxFuture<'a, Result<Rc<Connection>, AdkError>> {
        Box::pin(async move {
            let stream = Rc::new(Cancellation::default());
            let _opening = {
                let stream = stream.clone();
                run.listen(move || stream.cancel())
            };
            let response = http.send(HttpRequest { headers, ..HttpRequest::get(url) }, stream).await?;
            if !response.ok() {
                return Err(refused(response, &[&what, ": its event stream (GET)"].concat()).await);
            }
            if !response.is_event_stream() {
                let kind = response.header("content-type").unwrap_or_default();
                return Err(AdkError::new(
                    ErrorCode::Unknown,
                    [&what, ": not an MCP SSE endpoint: its GET answered ", &excerpt(kind, 80)].concat(),
                ));
            }
            let mut events = response.events();
            while let Some(event) = events.next().await {
                let event = event?;
                if event.event != "endpoint" {
                    continue;
                }
                let Some(endpoint) = endpoint::resolve(url, event.data.trim()) else {
                    return Err(AdkError::new(
                        ErrorCode::PermissionDenied,
                        [&what, ": refused its endpoint `", &excerpt(event.data.trim(), 200), "`: another origin"]
                            .concat(),
                    ));
                };
                let events = RefCell::new(Some(events));
                return Ok(Rc::new(Connection { endpoint, what, events, waiting: RefCell::default(), tools_changed }));
            }
            Err(AdkError::new(ErrorCode::Unavailable, [&what, ": its event stream ended before its endpoint"].concat()))
        })
    }

    /// Where messages are POSTed.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Whether the stream is still open.
    pub fn is_open(&self) -> bool {
        self.events.lend().is_some()
    }

    /// Waits for the answer to `id` from now on: before its request is sent, since another request
    /// reading the stream may see the answer first.
    pub fn expect(self: &Rc<Self>, id: u64) -> Expecting {
        self.waiting.lend_mut().push(Waiter { id, answer: None, waker: None });
        Expecting { connection: self.clone(), id }
    }

    /// Ends the stream (dropping it aborts the GET); every waiting request fails with `error`.
    pub fn end(&self, error: AdkError) {
        let events = self.events.lend_mut().take();
        drop(events);
        for waiter in self.waiting.lend_mut().iter_mut() {
            waiter.answer.get_or_insert_with(|| Err(error.clone()));
        }
        self.wake_all();
    }

    /// Wakes every waiting request (outside the borrow: a waker may poll at once).
    fn wake_all(&self) {
        let mut wakers: Vec<Waker> = Vec::new();
        for w in self.waiting.lend_mut().iter_mut() {
            wakers.extend(w.waker.take());
        }
        for waker in wakers {
            waker.wake();
        }
    }

    /// Gives the request `id` its answer, unless it has one.
    fn deliver(&self, id: u64, answer: Answer) {
        let waker = match self.waiting.lend_mut().iter_mut().find(|w| w.id == id && w.answer.is_none()) {
            Some(waiter) => {
                waiter.answer = Some(answer);
                waiter.waker.take()
            }
            // Not ours, or no longer awaited (a stopped request).
            None => None,
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// The answer to `id` once it is in, reading the stream meanwhile.
    fn poll_answer(&self, id: u64, cx: &mut Context<'_>) -> Poll<Answer> {
        loop {
            if let Some(waiter) = self.waiting.lend_mut().iter_mut().find(|w| w.id == id) {
                if let Some(answer) = waiter.answer.take() {
                    return Poll::Ready(answer);
                }
                waiter.waker = Some(cx.waker().clone());
            }
            let next = match self.events.lend_mut().as_mut() {
                Some(events) => events.poll_next_unpin(cx),
                None => return Poll::Ready(Err(self.ended())),
            };
            match next {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(event))) => self.dispatch(event),
                Poll::Ready(Some(Err(e))) => {
                    self.end(AdkError::new(e.code, [&self.what, ": its event stream failed: ", &e.message].concat()))
                }
                Poll::Ready(None) => self.end(self.ended()),
            }
        }
    }

    fn dispatch(&self, event: SseEvent) {
        // JSON-RPC comes in `message` events; an empty one keeps the connection alive.
        if event.event != "message" || event.data.trim().is_empty() {
            return;
        }
        match read(&event.data, &self.what) {
            Ok(Incoming::Answer(id, answer)) => self.deliver(id, answer),
            Ok(Incoming::Other(Some(method))) if method == LIST_CHANGED => self.tools_changed.set(true),
            Ok(Incoming::Other(_)) => {}
            // Which request it answered cannot be known: none is left waiting for ever.
            Err(e) => self.end(e),
        }
    }

    fn ended(&self) -> AdkError {
        AdkError::new(ErrorCode::Unavailable, [&self.what, ": its event stream ended"].concat())
    }
}

impl Expecting {
    /// The answer; `run` stopping ends the wait with `ABORTED`.
    pub async fn answer(self, run: &Rc<Cancellation>) -> Answer {
        let connection = Rc::downgrade(&self.connection);
        let id = self.id;
        let _stopped = run.listen(move || {
            if let Some(connection) = connection.upgrade() {
                let stopped = AdkError::new(ErrorCode::Aborted, [&connection.what, ": the run was stopped"].concat());
                connection.deliver(id, Err(stopped));
            }
        });
        poll_fn(|cx| self.connection.poll_answer(self.id, cx)).await
    }
}

impl Drop for Expecting {
    fn drop(&mut self) {
        // This request may have been the one reading the stream: another takes over.
        self.connection.waiting.lend_mut().retain(|w| w.id != self.id);
        self.connection.wake_all();
    }
}
