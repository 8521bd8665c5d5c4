//! One handle for every stream JS pulls from (a run's events, an A2A stream); `index.js` makes it
//! an async iterable and a ReadableStream.
//!
//! Each handle has one task, started by the first pull, that waits for a pull, reads the items that
//! are ready and settles that pull: a pull costs JS one promise, and Rust no new task or closure.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_core::Stream;
use futures_util::StreamExt;
use wasm_bindgen::prelude::*;

use super::convert::parse_json;
use super::to_js_error;
use crate::{AdkError, ErrorCode};

/// Items as JSON text; what is ready crosses to JS at once, parsed once.
pub type JsonStream = Pin<Box<dyn Stream<Item = Result<String, AdkError>>>>;

/// A pull waiting to be settled: the `resolve` and `reject` of its promise.
type Pull = (js_sys::Function, js_sys::Function);

struct State {
    /// `None` once the stream has ended, failed or been cancelled.
    items: Option<JsonStream>,
    max_batch: usize,
    pull: Option<Pull>,
    /// A failure that came after items of a batch: the next pull gets it.
    failed: Option<AdkError>,
    cancelled: bool,
    pump_started: bool,
    /// The pump, waiting for a pull (or, with one, for items).
    waker: Option<Waker>,
}

/// A stream JS pulls from. `next(resolve, reject)` settles with the items that are ready (at least
/// one, at most the handle's batch size: a lone item as itself, more as an array), or an empty
/// array at the end; `cancel()` drops the
/// stream, which stops the work behind it (a pending pull rejects with `ABORTED`).
#[wasm_bindgen]
pub struct StreamHandle {
    state: Rc<RefCell<State>>,
}

impl StreamHandle {
    /// A handle on `items`, handing over at most `max_batch` at a time. Reading ahead is only for
    /// streams without side effects: a run must not append events its caller has not taken yet.
    pub fn new(items: JsonStream, max_batch: usize) -> Self {
        let state = State {
            items: Some(items),
            max_batch: max_batch.max(1),
            pull: None,
            failed: None,
            cancelled: false,
            pump_started: false,
            waker: None,
        };
        StreamHandle { state: Rc::new(RefCell::new(state)) }
    }
}

fn aborted() -> AdkError {
    AdkError::new(ErrorCode::Aborted, "aborted")
}

/// What a pull gets: the items, or the failure.
type Outcome = Result<String, AdkError>;

/// The next pull, and what it gets: the items' JSON text (see [`StreamHandle`]). `None` when the
/// handle is done.
struct NextPull {
    state: Rc<RefCell<State>>,
}

impl Future for NextPull {
    type Output = Option<(Pull, Outcome)>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let (mut items, max) = {
            let mut state = self.state.lend_mut();
            let Some(pull) = state.pull.take() else {
                if state.cancelled {
                    return Poll::Ready(None);
                }
                state.waker = Some(cx.waker().clone());
                return Poll::Pending;
            };
            if state.cancelled {
                return Poll::Ready(Some((pull, Err(aborted()))));
            }
            if let Some(e) = state.failed.take() {
                return Poll::Ready(Some((pull, Err(e))));
            }
            let Some(items) = state.items.take() else { return Poll::Ready(Some((pull, Ok("[]".into())))) };
            state.pull = Some(pull);
            // The stream is taken out while it is polled, so JS code the poll runs may call
            // `cancel()` without finding the state borrowed.
            (items, state.max_batch)
        };
        // One item crosses as it is (an object: JS tells it from an array); more, as an array.
        let mut batch = String::new();
        let mut count = 0;
        let end = loop {
            match items.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(item))) => {
                    match count {
                        0 => batch = item,
                        1 => batch = ["[", &batch, ",", &item].concat(),
                        _ => {
                            batch.push(',');
                            batch.push_str(&item);
                        }
                    }
                    count += 1;
                    if count >= max {
                        break None;
                    }
                }
                Poll::Ready(Some(Err(e))) => break Some(Err(e)),
                Poll::Ready(None) => break Some(Ok(())),
                Poll::Pending => break None,
            }
        };
        let mut state = self.state.lend_mut();
        if state.cancelled {
            drop(state);
            drop(items);
            let pull = self.state.lend_mut().pull.take();
            return Poll::Ready(pull.map(|pull| (pull, Err(aborted()))));
        }
        match count {
            0 => batch.push_str("[]"),
            1 => {}
            _ => batch.push(']'),
        }
        match end {
            None if count == 0 => {
                state.items = Some(items);
                state.waker = Some(cx.waker().clone());
                Poll::Pending
            }
            None => {
                state.items = Some(items);
                Poll::Ready(state.pull.take().map(|pull| (pull, Ok(batch))))
            }
            Some(Err(e)) if count == 0 => Poll::Ready(state.pull.take().map(|pull| (pull, Err(e)))),
            Some(Err(e)) => {
                state.failed = Some(e);
                Poll::Ready(state.pull.take().map(|pull| (pull, Ok(batch))))
            }
            Some(Ok(())) => Poll::Ready(state.pull.take().map(|pull| (pull, Ok(batch)))),
        }
    }
}

/// Settles pulls one after the other until the handle is cancelled or the stream is over.
async fn pump(state: Rc<RefCell<State>>) {
    while let Some(((resolve, reject), outcome)) = (NextPull { state: state.clone() }).await {
        let settled = outcome.and_then(|json| parse_json(&json));
        let _ = match settled {
            Ok(items) => resolve.call1(&JsValue::UNDEFINED, &items),
            Err(e) => reject.call1(&JsValue::UNDEFINED, &to_js_error(e)),
        };
        let state = state.lend();
        if state.items.is_none() && state.failed.is_none() {
            break;
        }
    }
    // Pulls after the end get the end (or the abort) at once.
    state.lend_mut().pump_started = false;
}

#[wasm_bindgen]
impl StreamHandle {
    /// Pulls: `resolve` gets the items that are ready: one as itself, more as an array, `[]` at the end.
    pub fn next(&self, resolve: js_sys::Function, reject: js_sys::Function) {
        let refuse = |reject: &js_sys::Function, e: AdkError| {
            let _ = reject.call1(&JsValue::UNDEFINED, &to_js_error(e));
        };
        let waker = {
            let mut state = self.state.lend_mut();
            if state.pull.is_some() {
                drop(state);
                return refuse(
                    &reject,
                    AdkError::new(ErrorCode::FailedPrecondition, "next() called while another next() is pending"),
                );
            }
            if state.items.is_none() && state.failed.is_none() {
                let cancelled = state.cancelled;
                drop(state);
                if cancelled {
                    return refuse(&reject, aborted());
                }
                let _ = resolve.call1(&JsValue::UNDEFINED, &js_sys::Array::new());
                return;
            }
            state.pull = Some((resolve, reject));
            if !std::mem::replace(&mut state.pump_started, true) {
                wasm_bindgen_futures::spawn_local(pump(self.state.clone()));
            }
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Stops now (for a run: nothing more is written to the session). Idempotent; no effect after the end.
    pub fn cancel(&self) {
        let (items, waker) = {
            let mut state = self.state.lend_mut();
            if state.cancelled || (state.items.is_none() && state.failed.is_none() && state.pull.is_none()) {
                return;
            }
            state.cancelled = true;
            (state.items.take(), state.waker.take())
        };
        drop(items);
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}
