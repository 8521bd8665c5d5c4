//! Per-operation cost of the in-memory session service as the history grows: `append_event` and
//! `get_session` with `num_recent_events = 10` should cost the same at 1 k and 100 k events.
//! Run with `make bench` (or `cargo bench --bench sessions`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

use std::hint::black_box;
use std::time::Instant;

use adk_wasm::session::{GetSessionConfig, InMemorySessionService, SessionService};
use adk_wasm::types::Content;
use adk_wasm::Event;
use futures::executor::block_on;

fn event(i: usize) -> Event {
    let mut e = Event::new(if i % 2 == 0 { "user" } else { "assistant" });
    e.invocation_id = format!("e-{i}");
    e.content = Some(Content::model_text("a short message of a few words"));
    e.actions.state_delta.insert("counter".into(), i.into());
    e
}

/// Median of `rounds` timings of `batch` calls of `f`, in microseconds per call.
fn per_op_us(rounds: usize, batch: usize, mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[rounds / 2]
}

fn main() {
    println!(
        "{:>9} {:>18} {:>24} {:>22}",
        "events", "append_event µs", "get_session(last 10) µs", "get_session(all) µs"
    );
    for n in [1_000, 10_000, 100_000] {
        let service = InMemorySessionService::new();
        let mut session = block_on(service.create_session("bench", "u", None, Some("s"))).unwrap();
        for i in 0..n {
            block_on(service.append_event(&mut session, event(i))).unwrap();
            // Keep the caller's copy small, as the runner does between invocations.
            session.events.clear();
        }
        let mut i = n;
        let append = per_op_us(9, 200, || {
            block_on(service.append_event(&mut session, event(i))).unwrap();
            session.events.clear();
            i += 1;
        });
        let last10 = GetSessionConfig { num_recent_events: Some(10), after_timestamp: None };
        let recent = per_op_us(9, 200, || {
            black_box(block_on(service.get_session("bench", "u", "s", Some(&last10))).unwrap());
        });
        let all = per_op_us(3, 3, || {
            black_box(block_on(service.get_session("bench", "u", "s", None)).unwrap());
        });
        println!("{n:>9} {append:>18.2} {recent:>24.2} {all:>22.1}");
    }
}
