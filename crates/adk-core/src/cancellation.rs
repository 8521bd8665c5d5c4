//! Cooperative cancellation: a run (or a stream) being stopped tells the work in flight, which
//! aborts its requests. Single-threaded, like everything in the browser.
//!
//! A listener is held by a [`Listening`] guard: work that ends before the run does (a fetch, a
//! callback, a timer) drops its guard and its listener goes with it, so a long run does not
//! collect one dead listener per request it made.

use crate::cell::Lend;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

type Listener = Box<dyn FnOnce()>;

/// Tells in-flight work (model requests, fetches, JS agents) that the run or stream was stopped.
#[derive(Default)]
pub struct Cancellation {
    cancelled: Cell<bool>,
    next_id: Cell<u64>,
    listeners: RefCell<Vec<(u64, Listener)>>,
}

/// Keeps a listener registered with [`Cancellation::listen`]; dropping it removes the listener.
#[must_use = "the listener is removed when this guard is dropped"]
pub struct Listening {
    cancellation: Weak<Cancellation>,
    id: u64,
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(cancellation) = self.cancellation.upgrade() {
            cancellation.listeners.lend_mut().retain(|(id, _)| *id != self.id);
        }
    }
}

impl Cancellation {
    /// Whether the run was stopped.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.get()
    }

    /// Runs `listener` when the run is stopped (at once if it already was), for as long as the
    /// run lives: for work that lasts as long as the run.
    pub fn on_cancel(&self, listener: impl FnOnce() + 'static) {
        self.add(Box::new(listener));
    }

    /// Runs `listener` when the run is stopped (at once if it already was), for as long as the
    /// returned guard lives: for work that may end before the run (a request, a callback).
    pub fn listen(self: &Rc<Self>, listener: impl FnOnce() + 'static) -> Listening {
        Listening { cancellation: Rc::downgrade(self), id: self.add(Box::new(listener)) }
    }

    fn add(&self, listener: Listener) -> u64 {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        if self.cancelled.get() {
            listener();
        } else {
            self.listeners.lend_mut().push((id, listener));
        }
        id
    }

    /// Stops the run: every listener runs once.
    pub fn cancel(&self) {
        if self.cancelled.replace(true) {
            return;
        }
        let listeners = std::mem::take(&mut *self.listeners.lend_mut());
        for (_, listener) in listeners {
            listener();
        }
    }

    #[cfg(test)]
    fn listener_count(&self) -> usize {
        self.listeners.lend().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_guard_removes_its_listener() {
        let cancellation = Rc::new(Cancellation::default());
        let fired = Rc::new(Cell::new(0));
        let (a, b) = (fired.clone(), fired.clone());
        let kept = cancellation.listen(move || a.set(a.get() + 1));
        drop(cancellation.listen(move || b.set(b.get() + 10)));
        assert_eq!(cancellation.listener_count(), 1);
        cancellation.cancel();
        cancellation.cancel();
        assert_eq!(fired.get(), 1);
        drop(kept);
    }

    #[test]
    fn a_listener_after_the_stop_runs_at_once() {
        let cancellation = Rc::new(Cancellation::default());
        cancellation.cancel();
        let fired = Rc::new(Cell::new(false));
        let f = fired.clone();
        let _guard = cancellation.listen(move || f.set(true));
        assert!(fired.get());
        assert_eq!(cancellation.listener_count(), 0);
    }
}
