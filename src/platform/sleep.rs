//! A wait of some milliseconds as a future, its timer cleared when the wait is dropped (a cancelled
//! A2A resume backoff, an IndexedDB open that finished within its grace): gloo's `Timeout` and one
//! cell, where gloo's `TimeoutFuture` adds a oneshot channel (its code is larger than this).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use gloo_timers::callback::Timeout;

/// The timer fired, or who waits for it.
#[derive(Default)]
enum State {
    #[default]
    Waiting,
    Polled(Waker),
    Fired,
}

/// Ready once `ms` milliseconds have passed.
pub struct Sleep {
    state: Rc<Cell<State>>,
    _timer: Timeout,
}

/// A wait of `ms` milliseconds.
pub fn sleep(ms: u32) -> Sleep {
    let state = Rc::new(Cell::new(State::Waiting));
    let fire = state.clone();
    let timer = Timeout::new(ms, move || {
        if let State::Polled(waker) = fire.replace(State::Fired) {
            waker.wake();
        }
    });
    Sleep { state, _timer: timer }
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match self.state.take() {
            State::Fired => {
                self.state.set(State::Fired);
                Poll::Ready(())
            }
            _ => {
                self.state.set(State::Polled(cx.waker().clone()));
                Poll::Pending
            }
        }
    }
}
