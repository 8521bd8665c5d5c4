//! `ParallelAgent`'s merge of its sub-agents' event streams: `futures_util`'s `select_all` (a
//! `FuturesUnordered` of `StreamFuture`s, ~3 KB of wasm with its lists, queue and drop glue) written
//! for one stream type. The interleaving of events is the one `select_all` gives, step for step
//! (the goldens hold it): streams are polled in the order they were woken, a stream that yielded
//! an event goes to the back of that queue, and one poll gives up after it polled every stream once
//! or after two of them woke themselves while polled (asking to be polled again).

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Weak};
use std::task::{Context, Poll, Wake, Waker};

use futures_core::Stream;
use futures_util::task::AtomicWaker;

use crate::agent::EventStream;

/// What the streams' wakers share with the merge: whom to wake, and the next place in the queue.
struct Shared {
    waker: AtomicWaker,
    next: AtomicU64,
}

/// One stream's waker. `queued` is its place in the queue of woken streams (smaller first), 0 when
/// it is not in it; `u64::MAX` once the merge is done with it (a stream that ended, or a waker
/// from before its last event), so that a late wake wakes no one.
struct Task {
    shared: Weak<Shared>,
    queued: AtomicU64,
    woken: AtomicBool,
}

impl Wake for Task {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let Some(shared) = self.shared.upgrade() else { return };
        self.woken.store(true, Relaxed);
        if self.queued.load(Relaxed) == 0 {
            self.queued.store(shared.next.fetch_add(1, Relaxed), Relaxed);
            shared.waker.wake();
        }
    }
}

struct Run {
    stream: EventStream,
    task: Arc<Task>,
}

/// The merged stream. `shared` is dropped first, so a stream's wake while it is dropped is lost.
pub(super) struct Merge {
    shared: Arc<Shared>,
    /// Last put back first (the order `FuturesUnordered` drops its futures in).
    runs: Vec<Run>,
}

impl Merge {
    pub(super) fn new(streams: Vec<EventStream>) -> Self {
        let mut merge =
            Merge { shared: Arc::new(Shared { waker: AtomicWaker::new(), next: AtomicU64::new(1) }), runs: Vec::new() };
        for stream in streams {
            merge.push(stream);
        }
        merge
    }

    /// Puts `stream` in front, queued last (no wake: the caller is polling).
    fn push(&mut self, stream: EventStream) {
        let queued = AtomicU64::new(self.shared.next.fetch_add(1, Relaxed));
        let task = Arc::new(Task { shared: Arc::downgrade(&self.shared), queued, woken: AtomicBool::new(false) });
        self.runs.insert(0, Run { stream, task });
    }
}

impl Stream for Merge {
    type Item = <EventStream as Stream>::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        // One round per stream that ends (`select_all` asks its queue again, counting afresh).
        'round: loop {
            let len = this.runs.len();
            let (mut polled, mut yielded) = (0, 0);
            this.shared.waker.register(cx.waker());
            loop {
                let first = this
                    .runs
                    .iter()
                    .enumerate()
                    .map(|(i, run)| (run.task.queued.load(Relaxed), i))
                    .filter(|&(queued, _)| queued != 0)
                    .min();
                let Some((_, i)) = first else {
                    return if this.runs.is_empty() { Poll::Ready(None) } else { Poll::Pending };
                };
                let mut run = this.runs.remove(i);
                run.task.queued.store(0, Relaxed);
                run.task.woken.store(false, Relaxed);
                let polled_now =
                    run.stream.as_mut().poll_next(&mut Context::from_waker(&Waker::from(run.task.clone())));
                polled += 1;
                let Poll::Ready(item) = polled_now else {
                    yielded += usize::from(run.task.woken.load(Relaxed));
                    this.runs.insert(0, run);
                    if yielded >= 2 || polled == len {
                        cx.waker().wake_by_ref();
                        return Poll::Pending;
                    }
                    continue;
                };
                run.task.queued.store(u64::MAX, Relaxed);
                match item {
                    Some(event) => {
                        this.push(run.stream);
                        return Poll::Ready(Some(event));
                    }
                    None => continue 'round,
                }
            }
        }
    }
}
