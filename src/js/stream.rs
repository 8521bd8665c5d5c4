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

/// Items already in their JS shape.
pub type JsStream = Pin<Box<dyn Stream<Item = Result<JsValue, AdkError>>>>;

struct PullState {
    /// `None` while a `next()` is polling it, and once the stream has ended, failed or been cancelled.
    events: Option<JsStream>,
    finished: bool,
    cancelled: bool,
    /// Woken by `cancel()` so a pending `next()` gives up at once.
    waker: Option<Waker>,
}

/// A stream JS pulls from: a run's events, an A2A stream. `next()` resolves to the next item, or
/// `undefined` at the end; `cancel()` drops the stream, which stops the work behind it (a pending
/// `next()` rejects with `ABORTED`).
#[wasm_bindgen]
pub struct StreamHandle {
    state: Rc<RefCell<PullState>>,
}

impl StreamHandle {
    /// A handle on `items`.
    pub fn new(items: JsStream) -> Self {
        StreamHandle {
            state: Rc::new(RefCell::new(PullState {
                events: Some(items),
                finished: false,
                cancelled: false,
                waker: None,
            })),
        }
    }
}

/// The next event, or the end, or cancellation, whichever comes first. The stream is taken out of
/// the shared state while it is polled, so `cancel()` (even from JS code the poll runs) never
/// finds the state borrowed.
struct NextOrCancel {
    state: Rc<RefCell<PullState>>,
}

impl Future for NextOrCancel {
    type Output = Result<Option<JsValue>, AdkError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let taken = {
            let mut state = self.state.borrow_mut();
            if state.cancelled {
                return Poll::Ready(Err(AdkError::new(ErrorCode::Aborted, "aborted")));
            }
            if state.finished {
                return Poll::Ready(Ok(None));
            }
            state.waker = Some(cx.waker().clone());
            state.events.take()
        };
        let Some(mut events) = taken else {
            return Poll::Ready(Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                "next() called while another next() is pending",
            )));
        };
        let polled = events.poll_next_unpin(cx);
        let mut state = self.state.borrow_mut();
        if state.cancelled {
            drop(state);
            drop(events);
            return Poll::Ready(Err(AdkError::new(ErrorCode::Aborted, "aborted")));
        }
        match polled {
            Poll::Pending => {
                state.events = Some(events);
                Poll::Pending
            }
            Poll::Ready(Some(Ok(event))) => {
                state.events = Some(events);
                Poll::Ready(Ok(Some(event)))
            }
            Poll::Ready(Some(Err(e))) => {
                state.finished = true;
                Poll::Ready(Err(e))
            }
            Poll::Ready(None) => {
                state.finished = true;
                Poll::Ready(Ok(None))
            }
        }
    }
}

#[wasm_bindgen]
impl StreamHandle {
    /// The next item, or `undefined` at the end.
    pub fn next(&self) -> js_sys::Promise {
        let state = self.state.clone();
        promise(async move { Ok((NextOrCancel { state }).await?.unwrap_or(JsValue::UNDEFINED)) })
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
