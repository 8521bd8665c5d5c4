//! The recorded 10 003-event stream that `benches/a2a.mjs` replays, decoded by the A2A client
//! natively: the Rust half of that bench (the SSE framing, the skim, the resume ledger), without
//! the browser. Prints the median wall time of N runs (default 5). On a shared machine, count
//! instructions instead, which repeat to the thousand:
//!
//! ```sh
//! cargo build --release -p adk-a2a --example decode_recording
//! valgrind --tool=callgrind target/release/examples/decode_recording 2   # minus a run of 1: one decode
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a harness states what it expects

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use adk_a2a::{
    A2aClient, A2aClientOptions, AgentCard, Binding, Message, Part, ProtocolVersion, SendMessageParams, StreamRequest,
};
use adk_core::cancellation::Cancellation;
use adk_core::http::{HttpClient, HttpRequest, HttpResponse};
use adk_core::AdkError;
use futures_util::StreamExt;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/a2a/");

/// Answers each request with the next body, as the chunks the bench's server writes (~32 KB).
struct Replay(RefCell<Vec<Vec<Vec<u8>>>>);

impl HttpClient for Replay {
    fn send<'a, 'f>(
        &'a self,
        _request: HttpRequest,
        _cancellation: Rc<Cancellation>,
    ) -> Pin<Box<dyn Future<Output = Result<HttpResponse, AdkError>> + 'f>>
    where
        'a: 'f,
        Self: 'f,
    {
        let chunks = self.0.borrow_mut().pop().expect("a body per run");
        Box::pin(std::future::ready(Ok(HttpResponse {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: Box::pin(futures_util::stream::iter(chunks.into_iter().map(Ok))),
        })))
    }
}

fn main() {
    let runs: usize = std::env::args().nth(1).map_or(5, |n| n.parse().expect("a number of runs")).max(1);
    let recording = std::fs::read_to_string(format!("{FIXTURES}recorded/sdk-v1-jsonrpc-10k.sse")).unwrap();
    // Each run is a new client, whose first request has JSON-RPC id 1.
    let body = recording.replace(r#""id": "smoke-35""#, r#""id": 1"#).into_bytes();
    let bodies = (0..runs).map(|_| body.chunks(32 << 10).map(<[u8]>::to_vec).collect()).collect();
    let http = Rc::new(Replay(RefCell::new(bodies)));
    let card = AgentCard::from_json(&std::fs::read_to_string(format!("{FIXTURES}card.json")).unwrap()).unwrap();
    let options = A2aClientOptions {
        protocol_version: Some(ProtocolVersion::V1_0),
        binding: Some(Binding::JsonRpc),
        ..Default::default()
    };
    let mut cx = Context::from_waker(Waker::noop());
    let mut times = Vec::new();
    for _ in 0..runs {
        let client = A2aClient::from_card(card.clone(), options.clone(), http.clone()).unwrap();
        let message = Message { message_id: "m".into(), parts: vec![Part::text("chunks:10000")], ..Default::default() };
        let params = SendMessageParams { message, ..Default::default() };
        let start = Instant::now();
        // What JS gets: each event's v1.0 JSON, as `A2AClient.sendMessageStream` hands it over.
        let mut stream = client.open_stream(StreamRequest::SendMessage(Box::new(params)), Rc::default());
        let mut events = 0;
        // The replayed body is all there: the stream never waits.
        while let Poll::Ready(Some(item)) = stream.poll_next_unpin(&mut cx) {
            std::hint::black_box(item.unwrap().into_json());
            events += 1;
        }
        times.push(start.elapsed().as_secs_f64() * 1e3);
        assert_eq!(events, 10_003);
    }
    times.sort_by(f64::total_cmp);
    println!("{runs} runs of 10 003 events: median {:.2} ms, fastest {:.2} ms", times[runs / 2], times[0]);
}
