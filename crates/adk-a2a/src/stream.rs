//! Streams: reading server-sent A2A events, and resuming a stream that drops before its task ends
//! (the bookkeeping that keeps resumed events exactly-once is in [`super::ledger`]).

use std::pin::Pin;
use std::rc::Rc;

use adk_core::json;
use futures_core::Stream;
use futures_util::StreamExt;

use super::codec::Op;
use super::ledger::Ledger;
use super::transport::{Received, Transport};
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

/// A stream item with its protocol 1.0 JSON: the server's own text when it arrived as exactly that
/// (the common case, passed on without a second encoding), else the item encoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivered {
    /// The item.
    pub item: StreamItem,
    json: Option<String>,
}

impl Delivered {
    /// The item's v1.0 JSON (`{"artifactUpdate": …}`, or `{"resumed": {"attempt": n}}`).
    pub fn into_json(self) -> String {
        match (self.json, self.item) {
            (Some(json), _) => json,
            (None, StreamItem::Event(event)) => json::to_string(&event),
            (None, StreamItem::Resumed { attempt }) => format!(r#"{{"resumed":{{"attempt":{attempt}}}}}"#),
        }
    }
}

/// A stream of [`Delivered`] items; it ends after the first error.
pub type DeliveredStream = Pin<Box<dyn Stream<Item = Result<Delivered, AdkError>>>>;

fn delivered(item: StreamItem) -> Result<Delivered, AdkError> {
    Ok(Delivered { item, json: None })
}

/// What a stream is opened with.
#[derive(Debug, Clone)]
pub enum StreamRequest {
    /// `SendStreamingMessage` (`message/stream` on 0.3).
    SendMessage(Box<SendMessageParams>),
    /// `SubscribeToTask` (`tasks/resubscribe` on 0.3) of the task with this id.
    SubscribeToTask(String),
}

/// A transport failure — a cut connection, a network error, a gateway's 502/503/504 — rather than
/// an error the agent reported: worth re-attaching.
fn is_transport(e: &AdkError) -> bool {
    matches!(e.code, ErrorCode::Unavailable | ErrorCode::DeadlineExceeded) && e.rpc_code.is_none()
}

fn aborted() -> AdkError {
    AdkError::new(ErrorCode::Aborted, "the A2A stream was cancelled")
}

/// A2A's "the task is in a terminal state" answer to a resubscription.
const UNSUPPORTED_OPERATION: i64 = -32004;

/// The stream of `start`, re-attached with `SubscribeToTask` / `tasks/resubscribe` whenever it
/// drops before its task reached a terminal or interrupted state.
pub(crate) fn resuming(inner: Rc<Transport>, start: StreamRequest, cancellation: Rc<Cancellation>) -> DeliveredStream {
    Box::pin(async_stream::stream! {
        let policy = inner.resume_policy();
        let first = match &start {
            StreamRequest::SendMessage(params) => Op::Stream(params),
            StreamRequest::SubscribeToTask(id) => Op::Subscribe { id },
        };
        let mut events = match inner.open(first, cancellation.clone()).await {
            Ok(events) => events,
            Err(e) => {
                yield Err(e);
                return;
            }
        };
        let mut ledger = Ledger::default();
        // A subscription names its task up front, so it can be resumed before its first event.
        if let StreamRequest::SubscribeToTask(id) = &start {
            ledger.learn(id, "");
        }
        // Resume attempts since the last event that brought something new.
        let mut attempts = 0u32;
        // The current stream is a resubscription whose first event is the task's snapshot.
        let mut resubscribed = false;
        loop {
            if cancellation.is_cancelled() {
                yield Err(aborted());
                return;
            }
            let dropped = match events.next().await {
                Some(Ok(Received { event, json })) => {
                    let items: Vec<Delivered> = match event {
                        StreamResponse::Task(task) if resubscribed && ledger.task_id() == Some(task.id.as_str()) => {
                            ledger.snapshot(&task).into_iter().map(|e| Delivered { item: StreamItem::Event(e), json: None }).collect()
                        }
                        event => ledger.admit(event).map(|e| Delivered { item: StreamItem::Event(e), json }).into_iter().collect(),
                    };
                    resubscribed = false;
                    if !items.is_empty() {
                        attempts = 0;
                    }
                    for item in items {
                        yield Ok(item);
                    }
                    if ledger.finished() {
                        return;
                    }
                    continue;
                }
                Some(Err(e)) => e,
                None => AdkError::new(ErrorCode::Unavailable, "the agent ended the stream before the task finished"),
            };
            if dropped.code == ErrorCode::Aborted || cancellation.is_cancelled() {
                yield Err(aborted());
                return;
            }
            if !is_transport(&dropped) || policy.max_retries == 0 {
                yield Err(dropped);
                return;
            }
            let Some(task_id) = ledger.task_id().map(str::to_string) else {
                yield Err(AdkError {
                    message: format!("{}; the stream cannot be resumed: it dropped before naming its task", dropped.message),
                    ..dropped
                });
                return;
            };
            let mut last = dropped.clone();
            loop {
                attempts += 1;
                if attempts > policy.max_retries {
                    yield Err(AdkError::new(
                        ErrorCode::Unavailable,
                        format!(
                            "the stream of task {task_id} dropped ({}) and could not be resumed after {} attempts: {}",
                            dropped.message, policy.max_retries, last.message
                        ),
                    ));
                    return;
                }
                inner.sleep(policy.backoff_ms(attempts)).await;
                if cancellation.is_cancelled() {
                    yield Err(aborted());
                    return;
                }
                match inner.open(Op::Subscribe { id: &task_id }, cancellation.clone()).await {
                    Ok(resumed) => {
                        yield delivered(StreamItem::Resumed { attempt: attempts });
                        events = resumed;
                        resubscribed = true;
                        break;
                    }
                    // The task ended while the stream was down: what it ended with is in the task.
                    Err(e) if e.rpc_code == Some(UNSUPPORTED_OPERATION) => {
                        let got = inner.get_task(&task_id, None).await;
                        if cancellation.is_cancelled() {
                            yield Err(aborted());
                            return;
                        }
                        match got {
                            Ok(task) => {
                                yield delivered(StreamItem::Resumed { attempt: attempts });
                                for item in ledger.snapshot(&task) {
                                    yield delivered(StreamItem::Event(item));
                                }
                                if !ledger.finished() {
                                    yield Err(e);
                                }
                                return;
                            }
                            Err(e) if is_transport(&e) => last = e,
                            Err(e) => {
                                yield Err(e);
                                return;
                            }
                        }
                    }
                    Err(e) if e.code == ErrorCode::Aborted => {
                        yield Err(aborted());
                        return;
                    }
                    Err(e) if is_transport(&e) => last = e,
                    Err(e) => {
                        yield Err(e);
                        return;
                    }
                }
            }
        }
    })
}
