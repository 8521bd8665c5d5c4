//! One handle for every stream JS pulls from (`next()` / `cancel()`); `index.js` turns it into an
//! async iterable and a ReadableStream.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_core::Stream;
use futures_util::StreamExt;
use wasm_bindgen::prelude::*;

use super::convert::promise;
use crate::{AdkError, ErrorCode};

/// Items as JSON text; a batch crosses to JS as one array parsed once.
pub type JsStream = Pin<Box<dyn Stream<Item = Result<String, AdkError>>>>;

struct PullState {
    /// The stream; `None` once it has ended, failed or been cancelled (and during a poll).
    events: Option<JsStream>,
    /// A `next()` is waiting: a second one is refused rather than left unsettled.
    pending: bool,
    finished: bool,
    cancelled: bool,
    /// A failure that came after items of a batch: given by the next `next()`.
    failed: Option<AdkError>,
    /// Woken by `cancel()` so a pending `next()` gives up at once.
    waker: Option<Waker>,
    max_batch: usize,
}

/// A stream JS pulls from: a run's events, an A2A stream. `next()` resolves to the items that are
/// ready (at least one, at most the handle's batch size), or an empty array at the end; `cancel()`
/// drops the stream, which stops the work behind it (a pending `next()` rejects with `ABORTED`).
#[wasm_bindgen]
pub struct StreamHandle {
    state: Rc<RefCell<PullState>>,
}

impl StreamHandle {
    /// A handle on `items`, handing over at most `max_batch` at a time. Reading ahead is only for
    /// streams without side effects: a run must not append events its caller has not taken yet.
    pub fn new(items: JsStream, max_batch: usize) -> Self {
        StreamHandle {
            state: Rc::new(RefCell::new(PullState {
                events: Some(items),
                pending: false,
                finished: false,
                cancelled: false,
                failed: None,
                waker: None,
                max_batch: max_batch.max(1),
            })),
        }
    }
}

fn aborted() -> AdkError {
    AdkError::new(ErrorCode::Aborted, "aborted")
}

/// The ready items, or the end, or cancellation, whichever comes first. The stream is taken out of
/// the shared state while it is polled, so `cancel()` (even from JS code the poll runs) never
/// finds the state borrowed.
struct NextOrCancel {
    state: Rc<RefCell<PullState>>,
}

impl Future for NextOrCancel {
    type Output = Result<Vec<String>, AdkError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let (taken, max) = {
            let mut state = self.state.borrow_mut();
            if state.cancelled {
                return Poll::Ready(Err(aborted()));
            }
            if let Some(e) = state.failed.take() {
                state.finished = true;
                return Poll::Ready(Err(e));
            }
            if state.finished {
                return Poll::Ready(Ok(Vec::new()));
            }
            state.waker = Some(cx.waker().clone());
            (state.events.take(), state.max_batch)
        };
        let Some(mut events) = taken else {
            return Poll::Ready(Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                "next() called while another next() is pending",
            )));
        };
        let mut batch = Vec::new();
        let ended = loop {
            if self.state.borrow().cancelled {
                drop(events);
                return Poll::Ready(Err(aborted()));
            }
            match events.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(item))) => {
                    batch.push(item);
                    if batch.len() >= max {
                        break None;
                    }
                }
                Poll::Ready(Some(Err(e))) => break Some(Err(e)),
                Poll::Ready(None) => break Some(Ok(())),
                Poll::Pending => break None,
            }
        };
        let mut state = self.state.borrow_mut();
        if state.cancelled {
            drop(state);
            drop(events);
            return Poll::Ready(Err(aborted()));
        }
        match ended {
            None => {
                state.events = Some(events);
                if batch.is_empty() {
                    Poll::Pending
                } else {
                    Poll::Ready(Ok(batch))
                }
            }
            Some(end) => {
                if let Err(e) = end {
                    if batch.is_empty() {
                        state.finished = true;
                        return Poll::Ready(Err(e));
                    }
                    state.failed = Some(e);
                } else {
                    state.finished = true;
                }
                Poll::Ready(Ok(batch))
            }
        }
    }
}

/// Clears `pending` when the `next()` that set it settles or is dropped.
struct Pending(Rc<RefCell<PullState>>);

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.borrow_mut().pending = false;
    }
}

#[wasm_bindgen]
impl StreamHandle {
    /// The items that are ready, as an array; empty at the end.
    pub fn next(&self) -> js_sys::Promise {
        let state = self.state.clone();
        promise(async move {
            if std::mem::replace(&mut state.borrow_mut().pending, true) {
                return Err(AdkError::new(
                    ErrorCode::FailedPrecondition,
                    "next() called while another next() is pending",
                ));
            }
            let _pending = Pending(state.clone());
            let batch = (NextOrCancel { state }).await?;
            js_sys::JSON::parse(&format!("[{}]", batch.join(","))).map_err(|e| super::convert::js_error_to_core(&e))
        })
    }

    /// Stops now (for a run: nothing more is written to the session). Idempotent; no effect after the end.
    pub fn cancel(&self) {
        let (events, waker) = {
            let mut state = self.state.borrow_mut();
            if state.finished || state.cancelled {
                return;
            }
            state.cancelled = true;
            (state.events.take(), state.waker.take())
        };
        drop(events);
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}
