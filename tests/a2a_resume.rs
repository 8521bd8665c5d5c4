//! Resuming dropped streams: every event exactly once, across every cut, version and binding.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use adk_wasm::a2a::{A2aClientOptions, Binding, ProtocolVersion, ResumePolicy, StreamItem, StreamResponse, TaskState};
use adk_wasm::agent::Cancellation;
use adk_wasm::ErrorCode;
use common::a2a::{client, client_with, collect, fixture, fold, options, user_message, Folded, ALL};
use common::http::Reply;
use futures::executor::block_on;
use futures_util::StreamExt;

/// Where each complete event of `body` ends (sse-starlette ends events with CRLF CRLF).
fn event_ends(body: &[u8]) -> Vec<usize> {
    body.windows(4).enumerate().filter(|(_, w)| w == b"\r\n\r\n").map(|(i, _)| i + 4).collect()
}

fn expected(resumed: Vec<u32>) -> Folded {
    Folded {
        text: "echo: slow!".into(),
        states: vec![TaskState::Submitted, TaskState::Working, TaskState::Completed],
        resumed,
        error: None,
    }
}

#[test]
fn recorded_drop_then_resubscribe_at_every_cut() {
    for (version, binding, prefix) in ALL {
        let dropped = fixture(&format!("{prefix}-dropped.sse"));
        let subscribe = fixture(&format!("{prefix}-subscribe.sse"));
        // A lone CR ends a line too: an event is complete one byte before its CRLF CRLF ends.
        let first_event_end = event_ends(&dropped)[0] - 1;
        for cut in 0..=dropped.len() {
            let replies = [Reply::sse(&dropped[..cut]).split_at(&[cut / 2]).cut(), Reply::sse(&subscribe).chunked(7)];
            let (client, http) = client(version, binding, replies);
            let items = collect(client.send_message_stream(user_message("slow"), Default::default()));
            let folded = fold(&items);
            if cut < first_event_end {
                let e = folded.error.expect("no task id: cannot resume");
                assert_eq!(e.code, ErrorCode::Unavailable, "{prefix} cut {cut}");
                assert!(e.message.contains("cannot be resumed"), "{}", e.message);
                continue;
            }
            assert_eq!(folded, expected(vec![1]), "{prefix} cut at {cut}: {items:?}");
            // The resume marker comes right after what the first connection delivered.
            let delivered_before = event_ends(&dropped).iter().filter(|&&end| end - 1 <= cut).count();
            assert_eq!(items[delivered_before], Ok(StreamItem::Resumed { attempt: 1 }), "{prefix} cut {cut}");
            let requests = http.requests();
            assert_eq!(requests.len(), 2);
            match binding {
                Binding::JsonRpc => {
                    let method = if version == ProtocolVersion::V1_0 { "SubscribeToTask" } else { "tasks/resubscribe" };
                    assert_eq!((http.body(1)["method"].as_str(), http.body(1)["id"].as_u64()), (Some(method), Some(2)));
                }
                Binding::HttpJson => {
                    assert_eq!(requests[1].method, "GET");
                    assert!(requests[1].url.ends_with(":subscribe"), "{}", requests[1].url);
                }
            }
        }
    }
}

/// a2a-sdk taps the live queue before reading the snapshot, so an event can come both in the
/// snapshot and live right after it.
#[test]
fn events_repeated_after_the_snapshot_are_dropped() {
    let dropped = String::from_utf8(fixture("v10-rest-dropped.sse")).unwrap();
    let subscribe = String::from_utf8(fixture("v10-rest-subscribe.sse")).unwrap();
    let events: Vec<&str> = subscribe.split("\r\n\r\n").filter(|e| !e.is_empty()).collect();
    let working = dropped.split("\r\n\r\n").nth(1).unwrap();
    let replayed_chunk =
        events[1].replace("{\"text\": \"!\"}", "{\"text\": \"slow\"}").replace(", \"lastChunk\": true", "");
    let body = [events[0], working, &replayed_chunk, events[1], events[2]].join("\r\n\r\n") + "\r\n\r\n";
    let replies = [Reply::sse(dropped.as_bytes()).cut(), Reply::sse(body.as_bytes())];
    let (client, _) = client(ProtocolVersion::V1_0, Binding::HttpJson, replies);
    let items = collect(client.send_message_stream(user_message("slow"), Default::default()));
    assert_eq!(fold(&items), expected(vec![1]), "{items:?}");
    // submitted task, working, "echo: "; resumed; "slow" from the snapshot; "!"; completed.
    assert_eq!(items.len(), 7, "{items:?}");
}

/// The task finished while the stream was down: a2a-sdk refuses the resubscription (-32004), the
/// task itself has the rest.
#[test]
fn task_finished_while_disconnected() {
    let dropped = fixture("v10-jsonrpc-dropped.sse");
    let subscribe = String::from_utf8(fixture("v10-jsonrpc-subscribe.sse")).unwrap();
    let snapshot: serde_json::Value =
        serde_json::from_str(subscribe.split("\r\n\r\n").next().unwrap().trim_start_matches("data: ")).unwrap();
    let mut task = snapshot["result"]["task"].clone();
    task["status"] = serde_json::json!({"state": "TASK_STATE_COMPLETED", "timestamp": "2025-01-01T00:00:02Z"});
    task["artifacts"][0]["parts"].as_array_mut().unwrap().push(serde_json::json!({"text": "!"}));
    let refusal = String::from_utf8(fixture("v10-jsonrpc-subscribe-terminal-error.json"))
        .unwrap()
        .replace("\"id\":1,", "\"id\":2,");
    let get = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task}).to_string();
    let replies = [Reply::sse(&dropped).cut(), Reply::json(200, &refusal), Reply::json(200, &get)];
    let (client, http) = client(ProtocolVersion::V1_0, Binding::JsonRpc, replies);
    let items = collect(client.send_message_stream(user_message("slow"), Default::default()));
    assert_eq!(fold(&items), expected(vec![1]), "{items:?}");
    assert_eq!(http.body(2)["method"], "GetTask");
}

fn recording_sleep(log: Rc<RefCell<Vec<u32>>>) -> adk_wasm::a2a::Sleep {
    Rc::new(move |ms| {
        log.borrow_mut().push(ms);
        Box::pin(std::future::ready(()))
    })
}

#[test]
fn retries_with_backoff_then_a_clear_error() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let options = A2aClientOptions {
        sleep: Some(recording_sleep(log.clone())),
        ..options(ProtocolVersion::V1_0, Binding::JsonRpc)
    };
    let down = Reply::new(503, "text/plain", b"upstream unavailable");
    let replies = [Reply::sse(&fixture("v10-jsonrpc-dropped.sse")).cut(), down.clone(), down.clone(), down];
    let (client, http) = client_with(options, replies);
    let folded = fold(&collect(client.send_message_stream(user_message("slow"), Default::default())));
    let e = folded.error.unwrap();
    assert_eq!(e.code, ErrorCode::Unavailable);
    assert!(
        e.message.contains("could not be resumed after 3 attempts") && e.message.contains("upstream unavailable"),
        "{}",
        e.message
    );
    // Doubling, each wait drawn from the upper half of its step.
    let waits = log.borrow().clone();
    assert_eq!(waits.len(), 3);
    for (wait, step) in waits.iter().zip([500, 1000, 2000]) {
        assert!((step / 2..=step).contains(wait), "{waits:?}");
    }
    assert_eq!(http.requests().len(), 4);
    assert_eq!(folded.text, "echo: ", "what arrived before the drop was delivered");
}

#[test]
fn a_failed_attempt_then_a_successful_one() {
    let down = Reply::new(502, "text/plain", b"bad gateway");
    let replies = [
        Reply::sse(&fixture("v03-jsonrpc-dropped.sse")).cut(),
        down,
        Reply::sse(&fixture("v03-jsonrpc-subscribe.sse")).cut(),
    ];
    let (rpc, _) = client(ProtocolVersion::V0_3, Binding::JsonRpc, replies);
    let items = collect(rpc.send_message_stream(user_message("slow"), Default::default()));
    // JSON-RPC ids: 1 the stream, 2 the failed attempt; the recorded resubscription answered id 2.
    let e = fold(&items).error.unwrap();
    assert!(e.message.contains("id 2") && e.message.contains("id was 3"), "{}", e.message);

    let down = Reply::new(502, "text/plain", b"bad gateway");
    let replies = [
        Reply::sse(&fixture("v03-rest-dropped.sse")).cut(),
        down,
        Reply::sse(&fixture("v03-rest-subscribe.sse")).cut(),
    ];
    let (client, _) = client(ProtocolVersion::V0_3, Binding::HttpJson, replies);
    let items = collect(client.send_message_stream(user_message("slow"), Default::default()));
    assert_eq!(fold(&items), expected(vec![2]), "{items:?}");
}

#[test]
fn errors_the_agent_reports_are_not_resumed() {
    let dropped = fixture("v10-jsonrpc-dropped.sse");
    let body = [
        dropped.as_slice(),
        b"event: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"x\"}}\n\n",
    ]
    .concat();
    let (client, http) = client(ProtocolVersion::V1_0, Binding::JsonRpc, [Reply::sse(&body)]);
    let folded = fold(&collect(client.send_message_stream(user_message("slow"), Default::default())));
    assert_eq!(folded.error.unwrap().rpc_code, Some(-32603));
    assert_eq!(http.requests().len(), 1);
}

#[test]
fn resuming_can_be_turned_off() {
    let options = A2aClientOptions {
        resume: ResumePolicy { max_retries: 0, ..Default::default() },
        ..options(ProtocolVersion::V1_0, Binding::JsonRpc)
    };
    let (client, http) = client_with(options, [Reply::sse(&fixture("v10-jsonrpc-dropped.sse")).cut()]);
    let folded = fold(&collect(client.send_message_stream(user_message("slow"), Default::default())));
    assert_eq!(folded.error.unwrap().message, "connection reset");
    assert_eq!(http.requests().len(), 1);
}

#[test]
fn a_message_answer_ends_the_stream_without_resuming() {
    let message = String::from_utf8(fixture("v10-jsonrpc-send-message.json")).unwrap();
    let (client, http) =
        client(ProtocolVersion::V1_0, Binding::JsonRpc, [Reply::sse(format!("data: {message}\n\n").as_bytes()).cut()]);
    let items = collect(client.send_message_stream(user_message("hello message"), Default::default()));
    assert!(matches!(&items[..], [Ok(StreamItem::Event(StreamResponse::Message(_)))]), "{items:?}");
    assert_eq!(http.requests().len(), 1);
}

#[test]
fn cancellation_aborts() {
    let body = fixture("v10-jsonrpc-stream.sse");
    let (client, http) = client(ProtocolVersion::V1_0, Binding::JsonRpc, [Reply::sse(&body).chunked(64)]);
    let cancellation = Rc::new(Cancellation::default());
    let mut stream = client.send_message_stream(user_message("hi"), cancellation.clone());
    let first = block_on(stream.next()).unwrap();
    assert!(matches!(first, Ok(StreamItem::Event(StreamResponse::Task(_)))));
    cancellation.cancel();
    let rest: Vec<_> = block_on(stream.collect::<Vec<_>>());
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].as_ref().unwrap_err().code, ErrorCode::Aborted);
    assert_eq!(http.requests().len(), 1, "no resume after a cancel");

    // Cancelled while waiting to re-attach.
    let cancellation = Rc::new(Cancellation::default());
    let c = cancellation.clone();
    let options = A2aClientOptions {
        sleep: Some(Rc::new(move |_| {
            c.cancel();
            Box::pin(std::future::ready(()))
        })),
        ..options(ProtocolVersion::V1_0, Binding::JsonRpc)
    };
    let (client, http) = client_with(options, [Reply::sse(&fixture("v10-jsonrpc-dropped.sse")).cut()]);
    let folded = fold(&collect(client.send_message_stream(user_message("slow"), cancellation)));
    assert_eq!(folded.error.unwrap().code, ErrorCode::Aborted);
    assert_eq!(http.requests().len(), 1);
}

#[test]
fn subscribe_to_task_delivers_the_snapshot_and_resumes_too() {
    let subscribe = fixture("v10-rest-subscribe.sse");
    let cut = event_ends(&subscribe)[1] + 5;
    let replies = [Reply::sse(&subscribe[..cut]).cut(), Reply::sse(&subscribe)];
    let (client, http) = client(ProtocolVersion::V1_0, Binding::HttpJson, replies);
    // The recorded subscription's task; the one asked for is the one the server talks about.
    let task_id = "f9fb310e-ce64-4a61-8aec-a79405c37ac1";
    let items = collect(client.subscribe_to_task(task_id, Default::default()));
    let folded = fold(&items);
    assert_eq!(folded.text, "echo: slow!");
    assert_eq!(folded.states, [TaskState::Working, TaskState::Completed]);
    assert_eq!(folded.resumed, [1]);
    assert!(http.requests()[0].url.ends_with(&format!("/tasks/{task_id}:subscribe")));

    // Cut before its first event, a subscription still knows its task, so it is resumed too.
    let replies = [Reply::sse(&subscribe[..5]).cut(), Reply::sse(&subscribe)];
    let (early, http) = common::a2a::client(ProtocolVersion::V1_0, Binding::HttpJson, replies);
    let folded = fold(&collect(early.subscribe_to_task(task_id, Default::default())));
    assert_eq!((folded.text.as_str(), folded.resumed.as_slice(), folded.error), ("echo: slow!", &[1][..], None));
    assert_eq!(http.requests().len(), 2);
}

#[test]
fn a_v03_final_update_ends_the_stream_without_resuming() {
    // Some v0.3 servers end a stream with `final: true` on a state that is not terminal.
    let frame = |result: serde_json::Value| {
        format!("data: {}\n\n", serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": result}))
    };
    let body = [
        frame(serde_json::json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}})),
        frame(serde_json::json!({"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": true})),
    ]
    .concat();
    let (client, http) = client(ProtocolVersion::V0_3, Binding::JsonRpc, [Reply::sse(body.as_bytes())]);
    let folded = fold(&collect(client.send_message_stream(user_message("x"), Default::default())));
    assert_eq!((folded.states.as_slice(), folded.error), (&[TaskState::Submitted, TaskState::Working][..], None));
    assert_eq!(http.requests().len(), 1, "no resubscription");
}

/// The v1.0 HTTP+JSON recording's resubscription snapshot (the task, working, "echo: slow"), with
/// `edit` applied to its task.
fn snapshot(edit: impl Fn(&mut serde_json::Value)) -> Reply {
    let subscribe = String::from_utf8(fixture("v10-rest-subscribe.sse")).unwrap();
    let mut first: serde_json::Value =
        serde_json::from_str(subscribe.split("\r\n\r\n").next().unwrap().trim_start_matches("data: ")).unwrap();
    edit(&mut first["task"]);
    Reply::sse(format!("data: {first}\r\n\r\n").as_bytes()).cut()
}

fn storm(replies: Vec<Reply>, policy: ResumePolicy) -> (Folded, usize) {
    let options = A2aClientOptions { resume: policy, ..options(ProtocolVersion::V1_0, Binding::HttpJson) };
    let (client, http) = client_with(options, replies);
    let folded = fold(&collect(client.send_message_stream(user_message("slow"), Default::default())));
    (folded, http.requests().len())
}

fn dropped_rest() -> Reply {
    Reply::sse(&fixture("v10-rest-dropped.sse")).cut()
}

/// A server that answers every resubscription with a snapshot of another task, then closes: a
/// protocol violation, so the stream ends at once instead of reconnecting.
#[test]
fn a_snapshot_of_another_task_ends_the_stream() {
    let other = || snapshot(|task| task["id"] = "someone-elses-task".into());
    let (folded, requests) = storm(
        std::iter::once(dropped_rest()).chain(std::iter::repeat_n(other(), 50)).collect(),
        ResumePolicy::default(),
    );
    let e = folded.error.unwrap();
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(e.message.contains("with task someone-elses-task"), "{}", e.message);
    assert_eq!(requests, 2);
    assert_eq!(folded.text, "echo: ", "nothing of the other task was delivered");
}

/// Snapshots that add nothing are not progress: after the first one (which brings "slow"), three
/// more in a row end the stream.
#[test]
fn snapshots_that_add_nothing_are_not_progress() {
    let same = || snapshot(|_| {});
    let (folded, requests) = storm(
        std::iter::once(dropped_rest()).chain(std::iter::repeat_n(same(), 50)).collect(),
        ResumePolicy::default(),
    );
    let e = folded.error.unwrap();
    assert_eq!(e.code, ErrorCode::Unavailable);
    assert!(e.message.contains("after 3 attempts in a row without progress"), "{}", e.message);
    assert_eq!(requests, 1 + 1 + 3);
    assert_eq!(folded.text, "echo: slow");
}

/// Every resubscription brings something new (a status with a later timestamp) and drops: the
/// total cap ends it.
#[test]
fn attempts_are_capped_in_all() {
    let replies =
        std::iter::once(dropped_rest())
            .chain((0..50).map(|i| {
                snapshot(move |task| task["status"]["timestamp"] = format!("2025-01-01T00:01:{i:02}Z").into())
            }))
            .collect();
    let (folded, requests) = storm(replies, ResumePolicy::default());
    let e = folded.error.unwrap();
    assert!(e.message.contains("after 10 attempts in all"), "{}", e.message);
    assert_eq!(requests, 1 + 10);
    let policy = ResumePolicy { max_total_retries: 4, ..Default::default() };
    let replies =
        std::iter::once(dropped_rest())
            .chain((0..50).map(|i| {
                snapshot(move |task| task["status"]["timestamp"] = format!("2025-01-01T00:01:{i:02}Z").into())
            }))
            .collect();
    assert_eq!(storm(replies, policy).1, 1 + 4);
}

#[test]
fn retry_after_is_honoured_up_to_the_longest_wait() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let options = A2aClientOptions {
        sleep: Some(recording_sleep(log.clone())),
        ..options(ProtocolVersion::V1_0, Binding::HttpJson)
    };
    let busy = Reply::new(503, "text/plain", b"busy").header("Retry-After", "7");
    let replies = [dropped_rest(), busy, Reply::sse(&fixture("v10-rest-subscribe.sse"))];
    let (client, _) = client_with(options.clone(), replies);
    let folded = fold(&collect(client.send_message_stream(user_message("slow"), Default::default())));
    assert_eq!(folded, expected(vec![2]));
    let waits = log.borrow().clone();
    assert!(waits.len() == 2 && (250..=500).contains(&waits[0]) && waits[1] == 7000, "{waits:?}");

    // A 429 is retried too; one asking for an hour ends the stream at once.
    let too_long = Reply::new(429, "text/plain", b"slow down").header("retry-after", "3600");
    let (client, http) =
        client_with(options, [dropped_rest(), too_long, Reply::sse(&fixture("v10-rest-subscribe.sse"))]);
    let e = fold(&collect(client.send_message_stream(user_message("slow"), Default::default()))).error.unwrap();
    assert_eq!(e.code, ErrorCode::Unavailable);
    assert!(e.message.contains("retry after 3600 s") && e.message.contains("maxBackoffMs 30000"), "{}", e.message);
    assert_eq!(http.requests().len(), 2);
}
