//! One adapter for every JS protocol that hands out values one pull at a time: an iterator's
//! `next()` (sync or async: a JS agent's generator, a JS model's stream) and a stream reader's
//! `read()` (a fetch body). It is a Rust `Stream`; dropping it before the end closes the source
//! (`return()`, or `cancel()` for a reader), so a generator's `finally` blocks run and a body's
//! connection is released.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_core::Stream;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

#[cfg(feature = "agents")]
use super::interop::call;
use super::interop::{is_thenable, js_error_to_core, method_of};
use super::sys::IteratorResult;
use adk_core::AdkError;

/// Where a pending pull settles, and whom to wake then.
#[derive(Default)]
struct Slot {
    settled: Option<Result<JsValue, JsValue>>,
    waker: Option<Waker>,
}

type Callback = Closure<dyn FnMut(JsValue)>;

thread_local! {
    /// Settles a promise whose outcome no one waits for.
    static IGNORE: Callback = Closure::new(|_: JsValue| {});
}

/// The values of a JS iterator or stream reader, as a `Stream`.
pub struct JsStream {
    source: JsValue,
    pull: js_sys::Function,
    close: Option<js_sys::Function>,
    slot: Rc<RefCell<Slot>>,
    /// Made once and reused by every pull: a promise's `then` gets the same two functions each time.
    callbacks: Option<(Callback, Callback)>,
    in_flight: bool,
    done: bool,
}

impl JsStream {
    /// The values of `iterator` (an object with `next()`, and perhaps `return()`).
    #[cfg(feature = "agents")]
    fn iterator(iterator: JsValue) -> Result<Self, AdkError> {
        let pull = method_of(&iterator, "next").ok_or_else(|| AdkError::invalid("the iterator has no next()"))?;
        let close = method_of(&iterator, "return");
        Ok(Self::new(iterator, pull, close))
    }

    /// The values of `value` if it is iterable (`Symbol.asyncIterator` first, then
    /// `Symbol.iterator`): what a JS agent's run and a JS model's stream return. `None` when it
    /// is not iterable (a model's single response, or a Promise of one).
    #[cfg(feature = "agents")]
    pub fn iterable(value: &JsValue) -> Result<Option<Self>, AdkError> {
        let make = [js_sys::Symbol::async_iterator(), js_sys::Symbol::iterator()].into_iter().find_map(|symbol| {
            js_sys::Reflect::get(value, &symbol).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        });
        match make {
            Some(make) => Self::iterator(call(&make, value, &[])?).map(Some),
            None => Ok(None),
        }
    }

    /// The chunks of a stream reader (`read()` and `cancel()`).
    pub fn reader(reader: JsValue) -> Result<Self, AdkError> {
        let pull = method_of(&reader, "read").ok_or_else(|| AdkError::invalid("the body reader has no read()"))?;
        let close = method_of(&reader, "cancel");
        Ok(Self::new(reader, pull, close))
    }

    fn new(source: JsValue, pull: js_sys::Function, close: Option<js_sys::Function>) -> Self {
        JsStream { source, pull, close, slot: Rc::default(), callbacks: None, in_flight: false, done: false }
    }

    fn callbacks(&mut self) -> &(Callback, Callback) {
        let slot = &self.slot;
        self.callbacks.get_or_insert_with(|| {
            let settle = |ok: bool| {
                let slot = slot.clone();
                Closure::new(move |value: JsValue| {
                    let waker = {
                        let mut slot = slot.lend_mut();
                        slot.settled = Some(if ok { Ok(value) } else { Err(value) });
                        slot.waker.take()
                    };
                    if let Some(waker) = waker {
                        waker.wake();
                    }
                }) as Callback
            };
            (settle(true), settle(false))
        })
    }

    /// What one settled pull gives: the value, or the end (`None`), or the failure.
    fn step(&mut self, settled: Result<JsValue, JsValue>) -> Option<Result<JsValue, AdkError>> {
        match settled {
            Err(e) => {
                self.done = true;
                Some(Err(js_error_to_core(&e)))
            }
            Ok(result) => {
                let result: IteratorResult = result.unchecked_into();
                if result.is_undefined() || result.is_null() || result.done() {
                    self.done = true;
                    return None;
                }
                Some(Ok(result.value()))
            }
        }
    }
}

impl Stream for JsStream {
    type Item = Result<JsValue, AdkError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let settled = this.slot.lend_mut().settled.take();
        if let Some(settled) = settled {
            this.in_flight = false;
            return Poll::Ready(this.step(settled));
        }
        if !this.in_flight {
            let pulled = match this.pull.call0(&this.source) {
                Ok(pulled) => pulled,
                Err(e) => return Poll::Ready(this.step(Err(e))),
            };
            // A sync iterator answers at once; an async one (and a reader) with a promise.
            if !is_thenable(&pulled) {
                return Poll::Ready(this.step(Ok(pulled)));
            }
            let promise = js_sys::Promise::resolve(&pulled);
            let (on_ok, on_err) = this.callbacks();
            let _ = promise.then2(on_ok, on_err);
            this.in_flight = true;
        }
        this.slot.lend_mut().waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for JsStream {
    fn drop(&mut self) {
        if !self.done {
            if let Some(close) = &self.close {
                // A throwing `return()` changes nothing for us: the stream is gone either way. Its
                // promise may reject too (`cancel()` on a body the run's stop already aborted):
                // settled here, so that it is not an unhandled rejection.
                if let Ok(closing) = close.call0(&self.source) {
                    if let Some(closing) = closing.dyn_ref::<js_sys::Promise>() {
                        IGNORE.with(|ignore| drop(closing.then2(ignore, ignore)));
                    }
                }
            }
        }
        // A pull still in flight will call back after this: its callbacks go to the JS garbage
        // collector instead of being freed under it.
        if self.in_flight {
            if let Some((on_ok, on_err)) = self.callbacks.take() {
                drop((on_ok.into_js_value(), on_err.into_js_value()));
            }
        }
    }
}
