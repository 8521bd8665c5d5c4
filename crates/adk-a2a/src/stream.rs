//! Streams: reading server-sent A2A events, and resuming a stream that drops before its task ends
//! (the bookkeeping that keeps resumed events exactly-once is in [`super::ledger`]).

use std::pin::Pin;
use std::rc::Rc;

use futures_core::Stream;
use futures_util::StreamExt;

use super::codec::Op;
use super::ledger::Ledger;
use super::transport::Transport;
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

/// How a resumable stream begins.
pub(crate) enum Start {
    Send(Box<SendMessageParams>),
    Subscribe(String),
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
pub(crate) fn resuming(inner: Rc<Transport>, start: Start, cancellation: Rc<Cancellation>) -> A2aStream {
    Box::pin(async_stream::stream! {
        let policy = inner.resume_policy();
        let first = match &start {
            Start::Send(params) => Op::Stream(params),
            Start::Subscribe(id) => Op::Subscribe { id },
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
        if let Start::Subscribe(id) = &start {
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
                Some(Ok(event)) => {
                    let items = match event {
                        StreamResponse::Task(task) if resubscribed && ledger.task_id() == Some(task.id.as_str()) => {
                            ledger.snapshot(&task)
                        }
                        event => ledger.admit(event).into_iter().collect(),
                    };
                    resubscribed = false;
                    if !items.is_empty() {
                        attempts = 0;
                    }
                    for item in items {
                        yield Ok(StreamItem::Event(item));
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
                        yield Ok(StreamItem::Resumed { attempt: attempts });
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
                                yield Ok(StreamItem::Resumed { attempt: attempts });
                                for item in ledger.snapshot(&task) {
                                    yield Ok(StreamItem::Event(item));
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
