//! Cooperative cancellation: a run (or a stream) being stopped tells the work in flight, which
//! aborts its requests. Single-threaded, like everything in the browser.

use std::cell::{Cell, RefCell};

/// Tells in-flight work (model requests, fetches, JS agents) that the run or stream was stopped.
#[derive(Default)]
pub struct Cancellation {
    cancelled: Cell<bool>,
    listeners: RefCell<Vec<Box<dyn FnOnce()>>>,
}

impl Cancellation {
    /// Whether the run was stopped.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.get()
    }

    /// Runs `listener` when the run is stopped (at once if it already was).
    pub fn on_cancel(&self, listener: impl FnOnce() + 'static) {
        if self.cancelled.get() {
            listener();
        } else {
            self.listeners.borrow_mut().push(Box::new(listener));
        }
    }

    /// Stops the run: every listener runs once.
    pub fn cancel(&self) {
        if self.cancelled.replace(true) {
            return;
        }
        let listeners = std::mem::take(&mut *self.listeners.borrow_mut());
        for listener in listeners {
            listener();
        }
    }
}
