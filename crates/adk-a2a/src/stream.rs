//! Streams: reading server-sent A2A events, and resuming a stream that drops before its task ends
//! (the bookkeeping that keeps resumed events exactly-once is in [`super::ledger`]).

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{ready, Context, Poll};

use adk_core::{json, platform};
use futures_core::Stream;
use futures_util::StreamExt;

use super::codec::{malformed, Op};
use super::ledger::Ledger;
use super::repeat::LastChunk;
use super::skim::{Skim, TaskSkim};
use super::transport::{task_of, EventJson, Events, Frame, Transport};
use super::types::{SendMessageParams, StreamResponse};
use crate::cancellation::Cancellation;
use crate::{AdkError, ErrorCode};

/// What a stream of the client yields.
#[allow(clippy::large_enum_variant)] // one per event, moved once: boxing would only add noise
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// An event from the agent (or, after a resume, one rebuilt from the task's snapshot).
    Event(StreamResponse),
    /// The stream had dropped and was re-attached to the task, at this attempt (1-based) since
    /// the last progress; the events after it continue where the delivered ones ended.
    Resumed {
        /// Which attempt succeeded.
        attempt: u32,
    },
}

/// A stream of [`StreamItem`]s; it ends after the first error.
pub type A2aStream = Pin<Box<dyn Stream<Item = Result<StreamItem, AdkError>>>>;

/// A stream item as its protocol 1.0 JSON: the server's own text when it arrived as exactly that
/// (the common case, passed on without a second encoding), else the item encoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivered {
    json: String,
    /// For a [`StreamItem::Resumed`], its attempt.
    resumed: Option<u32>,
    /// v0.3's `final` on a status update whose state does not end the stream.
    last: bool,
}

impl Delivered {
    /// The item's v1.0 JSON (`{"artifactUpdate": …}`, or `{"resumed": {"attempt": n}}`).
    pub fn into_json(self) -> String {
        self.json
    }

    /// The item, decoded whole from its JSON.
    pub fn item(&self) -> Result<StreamItem, AdkError> {
        if let Some(attempt) = self.resumed {
            return Ok(StreamItem::Resumed { attempt });
        }
        let mut event: StreamResponse = json::from_str("event", &self.json).map_err(malformed)?;
        if let StreamResponse::StatusUpdate(update) = &mut event {
            update.last = self.last;
        }
        Ok(StreamItem::Event(event))
    }
}

/// A stream of [`Delivered`] items; it ends after the first error.
pub type DeliveredStream = Pin<Box<dyn Stream<Item = Result<Delivered, AdkError>>>>;

fn delivered(json: String) -> Result<Delivered, AdkError> {
    Ok(Delivered { json, resumed: None, last: false })
}

fn resumed(attempt: u32) -> Result<Delivered, AdkError> {
    let json = format!(r#"{{"resumed":{{"attempt":{attempt}}}}}"#);
    Ok(Delivered { json, resumed: Some(attempt), last: false })
}

/// What a stream is opened with.
#[derive(Debug, Clone)]
pub enum StreamRequest {
    /// `SendStreamingMessage` (`message/stream` on 0.3).
    SendMessage(Box<SendMessageParams>),
    /// `SubscribeToTask` (`tasks/resubscribe` on 0.3) of the task with this id.
    SubscribeToTask(String),
}

/// A transport failure — a cut connection, a network error, a gateway's 502/503/504, a 429 — rather
/// than an error the agent reported: worth re-attaching.
fn is_transport(e: &AdkError) -> bool {
    let busy = e.http_status == Some(429);
    (busy || matches!(e.code, ErrorCode::Unavailable | ErrorCode::DeadlineExceeded)) && e.rpc_code.is_none()
}

fn aborted() -> AdkError {
    AdkError::new(ErrorCode::Aborted, "the A2A stream was cancelled")
}

/// A2A's "the task is in a terminal state" answer to a resubscription.
const UNSUPPORTED_OPERATION: i64 = -32004;

/// The stream of `request`, re-attached with `SubscribeToTask` / `tasks/resubscribe` whenever it
/// drops before its task reached a terminal or interrupted state.
///
/// Written as a state machine rather than a generator: the common path (an event arrives, the
/// ledger admits it, it goes out) is a few calls; the rare ones (opening, re-attaching) are futures.
pub(crate) fn resuming(
    transport: Rc<Transport>,
    request: StreamRequest,
    cancellation: Rc<Cancellation>,
) -> DeliveredStream {
    let mut ledger = Ledger::default();
    // A subscription names its task up front, so it can be resumed before its first event.
    if let StreamRequest::SubscribeToTask(id) = &request {
        ledger.learn(id);
    }
    let opening = {
        let (transport, cancellation) = (transport.clone(), cancellation.clone());
        Box::pin(async move {
            let op = match &request {
                StreamRequest::SendMessage(params) => Op::Stream(params),
                StreamRequest::SubscribeToTask(id) => Op::Subscribe { id },
            };
            transport.open(op, cancellation).await
        })
    };
    Box::pin(Resuming {
        transport,
        cancellation,
        ledger,
        state: State::Opening(opening),
        ready: Vec::new(),
        attempts: Attempts::default(),
        resubscribed: false,
        last_chunk: LastChunk::default(),
    })
}

enum State {
    /// Waiting for the response that starts the stream.
    Opening(Pin<Box<dyn Future<Output = Result<Events, AdkError>>>>),
    /// Reading events.
    Reading(Events),
    /// Re-attaching after a drop.
    Reattaching(Pin<Box<dyn Future<Output = (Attempts, Reattached)>>>),
    /// Over: what is ready goes out, then the end.
    Done,
}

/// How re-attaching ended.
enum Reattached {
    /// A new stream whose first event is the task's snapshot.
    Stream(Events),
    /// The task ended while the stream was down (or re-attaching is refused because it did):
    /// what it ended with is in the task; `refusal` is the server's answer, an error if the task
    /// turns out not to be finished.
    Finished {
        task: Box<TaskSkim>,
        refusal: AdkError,
    },
    Failed(AdkError),
}

/// The resume attempts of one stream.
#[derive(Debug, Clone, Copy, Default)]
struct Attempts {
    /// Since the last event that brought something new.
    in_a_row: u32,
    /// Since the stream was opened.
    total: u32,
}

struct Resuming {
    transport: Rc<Transport>,
    cancellation: Rc<Cancellation>,
    ledger: Ledger,
    state: State,
    /// What goes out next, first first: rarely more than one, so a list taken from the front, not a
    /// queue (whose code would be in the module for this alone). A snapshot puts one event per
    /// changed artifact here, and taking them costs a move of the rest each: quadratic in that
    /// count, as the ledger's own search per artifact already is.
    ready: Vec<Result<Delivered, AdkError>>,
    attempts: Attempts,
    /// The current stream is a resubscription whose first event is the task's snapshot.
    resubscribed: bool,
    /// The last artifact chunk read whole, which the next are compared with.
    last_chunk: LastChunk,
}

impl Resuming {
    /// Ends the stream with `error` (after what is ready).
    fn fail(&mut self, error: AdkError) {
        self.ready.push(Err(error));
        self.state = State::Done;
    }

    /// An event arrived: read where it is kept, so that what the ledger checks is borrowed from it.
    fn received(&mut self, mut frame: Frame) {
        // A placeholder: on `Ok`, `read` has written the event read.
        let mut event = Skim::Message;
        let json = match frame.read(&mut self.last_chunk, &mut event) {
            Ok(json) => json,
            Err(e) => return self.dropped(e),
        };
        let before = self.ready.len();
        match &event {
            Skim::Task(task) if self.resubscribed => {
                let resumed = self.ledger.task_id().unwrap_or_default();
                if task.id != resumed {
                    let message =
                        format!("the agent answered the resubscription to task {resumed} with task {}", task.id);
                    return self.fail(AdkError::new(ErrorCode::Internal, message));
                }
                for event in self.ledger.snapshot(task) {
                    self.ready.push(delivered(event));
                }
            }
            _ => {
                if self.ledger.admit(&mut event) {
                    let last = matches!(event, Skim::StatusUpdate { last: true, .. });
                    let json = match json {
                        EventJson::InText(json) => json.to_string(),
                        EventJson::Translated => frame.into_translated(),
                    };
                    self.ready.push(Ok(Delivered { json, resumed: None, last }));
                }
            }
        }
        self.resubscribed = false;
        if self.ready.len() > before {
            self.attempts.in_a_row = 0;
        }
        if self.ledger.finished() {
            self.state = State::Done;
        }
    }

    /// The stream dropped with `dropped`: re-attach if that can help, else end with the error.
    fn dropped(&mut self, dropped: AdkError) {
        if dropped.code == ErrorCode::Aborted || self.cancellation.is_cancelled() {
            return self.fail(aborted());
        }
        let policy = self.transport.resume_policy();
        if !is_transport(&dropped) || policy.max_retries == 0 {
            return self.fail(dropped);
        }
        let Some(task_id) = self.ledger.task_id().map(str::to_string) else {
            let message =
                format!("{}; the stream cannot be resumed: it dropped before naming its task", dropped.message);
            return self.fail(AdkError { message, ..dropped });
        };
        let (transport, cancellation) = (self.transport.clone(), self.cancellation.clone());
        let attempts = self.attempts;
        self.state = State::Reattaching(Box::pin(reattach(transport, cancellation, task_id, dropped, attempts)));
    }
}

impl Stream for Resuming {
    type Item = Result<Delivered, AdkError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if !this.ready.is_empty() {
                return Poll::Ready(Some(this.ready.remove(0)));
            }
            match &mut this.state {
                State::Done => return Poll::Ready(None),
                State::Opening(opening) => match ready!(opening.as_mut().poll(cx)) {
                    Ok(events) => this.state = State::Reading(events),
                    Err(e) => this.fail(e),
                },
                State::Reattaching(reattaching) => {
                    let (attempts, reattached) = ready!(reattaching.as_mut().poll(cx));
                    this.attempts = attempts;
                    let attempt = attempts.in_a_row;
                    match reattached {
                        Reattached::Stream(events) => {
                            this.ready.push(resumed(attempt));
                            this.resubscribed = true;
                            this.state = State::Reading(events);
                        }
                        Reattached::Finished { task, refusal } => {
                            this.ready.push(resumed(attempt));
                            for event in this.ledger.snapshot(&task) {
                                this.ready.push(delivered(event));
                            }
                            if this.ledger.finished() {
                                this.state = State::Done;
                            } else {
                                this.fail(refusal);
                            }
                        }
                        Reattached::Failed(e) => this.fail(e),
                    }
                }
                State::Reading(events) => {
                    if this.cancellation.is_cancelled() {
                        this.fail(aborted());
                        continue;
                    }
                    match ready!(events.poll_next_unpin(cx)) {
                        Some(Ok(frame)) => this.received(frame),
                        Some(Err(e)) => this.dropped(e),
                        None => this.dropped(AdkError::new(
                            ErrorCode::Unavailable,
                            "the agent ended the stream before the task finished",
                        )),
                    }
                }
            }
        }
    }
}

/// Re-attaches to task `task_id` after the stream dropped with `dropped`, waiting before each
/// attempt; gives the attempts made, and how it ended.
async fn reattach(
    transport: Rc<Transport>,
    cancellation: Rc<Cancellation>,
    task_id: String,
    dropped: AdkError,
    mut attempts: Attempts,
) -> (Attempts, Reattached) {
    let policy = transport.resume_policy();
    let mut last = dropped.clone();
    loop {
        let limit = match attempts {
            a if a.in_a_row >= policy.max_retries => Some((a.in_a_row, "in a row without progress")),
            a if a.total >= policy.max_total_retries => Some((a.total, "in all")),
            _ => None,
        };
        if let Some((count, which)) = limit {
            let message = format!(
                "the stream of task {task_id} dropped ({}) and could not be resumed after {count} attempts {which}: {}",
                dropped.message, last.message
            );
            return (attempts, Reattached::Failed(AdkError::new(ErrorCode::Unavailable, message)));
        }
        attempts.in_a_row += 1;
        attempts.total += 1;
        let backoff = policy.backoff_ms(attempts.in_a_row, platform::random_fraction());
        let wait = match last.retry_after_ms {
            Some(ms) if ms > u64::from(policy.max_backoff_ms) => {
                // The seconds by the JSON writer: no `u64` formatter in the module for them.
                let message = format!(
                    "the stream of task {task_id} dropped ({}) and the agent asked to retry after {} s, longer than \
                     the resume policy waits (maxBackoffMs {}): {}",
                    dropped.message,
                    json::to_string(&(ms / 1000)),
                    policy.max_backoff_ms,
                    last.message
                );
                return (attempts, Reattached::Failed(AdkError::new(ErrorCode::Unavailable, message)));
            }
            Some(ms) => backoff.max(ms as u32),
            None => backoff,
        };
        transport.sleep(wait).await;
        if cancellation.is_cancelled() {
            return (attempts, Reattached::Failed(aborted()));
        }
        match transport.open(Op::Subscribe { id: &task_id }, cancellation.clone()).await {
            Ok(events) => return (attempts, Reattached::Stream(events)),
            // The task ended while the stream was down: what it ended with is in the task.
            Err(refusal) if refusal.rpc_code == Some(UNSUPPORTED_OPERATION) => {
                let got = transport
                    .call_json(Op::GetTask { id: &task_id, history_length: None })
                    .await
                    .and_then(|json| task_of(&json));
                if cancellation.is_cancelled() {
                    return (attempts, Reattached::Failed(aborted()));
                }
                match got {
                    Ok(task) => return (attempts, Reattached::Finished { task: Box::new(task), refusal }),
                    Err(e) if is_transport(&e) => last = e,
                    Err(e) => return (attempts, Reattached::Failed(e)),
                }
            }
            Err(e) if e.code == ErrorCode::Aborted => return (attempts, Reattached::Failed(aborted())),
            Err(e) if is_transport(&e) => last = e,
            Err(e) => return (attempts, Reattached::Failed(e)),
        }
    }
}
