//! Every kind of error an A2A server (or the network) can produce, as `AdkError`s.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

mod common;

use adk_wasm::a2a::{Binding, ProtocolVersion, StreamItem, StreamResponse};
use adk_wasm::{AdkError, ErrorCode};
use common::a2a::{client, collect, fixture, fixture_text, user_message};
use common::http::Reply;
use futures::executor::block_on;

fn get_error(version: ProtocolVersion, binding: Binding, reply: Reply) -> AdkError {
    let (client, _) = client(version, binding, [reply]);
    block_on(client.get_task("nope", None)).unwrap_err()
}

/// An error's code, rpc_code, http_status and message.
type Summary<'a> = (ErrorCode, Option<i64>, Option<u16>, &'a str);

fn summary(e: &AdkError) -> Summary<'_> {
    (e.code, e.rpc_code, e.http_status, e.message.as_str())
}

#[test]
fn recorded_json_rpc_errors() {
    use ProtocolVersion::*;
    for (version, file, expected) in [
        (V1_0, "v10-jsonrpc-get-error.json", (ErrorCode::NotFound, Some(-32001), None, "Task not found")),
        (
            V1_0,
            "v10-jsonrpc-cancel-error.json",
            (ErrorCode::FailedPrecondition, Some(-32002), None, "Task cannot be canceled"),
        ),
        (
            V1_0,
            "v10-jsonrpc-unknown-method-error.json",
            (ErrorCode::Unimplemented, Some(-32601), None, "Method not found"),
        ),
        (V0_3, "v03-jsonrpc-get-error.json", (ErrorCode::NotFound, Some(-32001), None, "Task not found")),
        (
            V0_3,
            "v03-jsonrpc-cancel-error.json",
            (ErrorCode::FailedPrecondition, Some(-32002), None, "Task cannot be canceled"),
        ),
    ] {
        let e = get_error(version, Binding::JsonRpc, Reply::json(200, &fixture_text(file)));
        assert_eq!(summary(&e), expected, "{file}");
    }
    // a2a-sdk reads a v1.0 request without `A2A-Version: 1.0` as 0.3 and refuses it.
    let e = get_error(V1_0, Binding::JsonRpc, Reply::json(200, &fixture_text("v10-jsonrpc-no-version-error.json")));
    assert_eq!((e.code, e.rpc_code), (ErrorCode::Unimplemented, Some(-32009)));
    assert!(e.message.contains("A2A version '0.3' is not supported"), "{}", e.message);
}

#[test]
fn recorded_http_json_errors() {
    for (version, file, status, expected) in [
        (
            ProtocolVersion::V1_0,
            "v10-rest-get-error.json",
            404,
            (ErrorCode::NotFound, Some(-32001), Some(404), "Task not found"),
        ),
        (
            ProtocolVersion::V0_3,
            "v03-rest-get-error.json",
            404,
            (ErrorCode::NotFound, Some(-32001), Some(404), "Task not found"),
        ),
        (
            ProtocolVersion::V1_0,
            "v10-rest-cancel-error.json",
            400,
            (ErrorCode::FailedPrecondition, Some(-32002), Some(400), "Task cannot be canceled"),
        ),
    ] {
        let e = get_error(version, Binding::HttpJson, Reply::json(status, &fixture_text(file)));
        assert_eq!(summary(&e), expected, "{file}");
    }
}

#[test]
fn every_json_rpc_code() {
    for (code, expected) in [
        (-32700, ErrorCode::InvalidArgument),
        (-32600, ErrorCode::InvalidArgument),
        (-32601, ErrorCode::Unimplemented),
        (-32602, ErrorCode::InvalidArgument),
        (-32603, ErrorCode::Internal),
        (-32001, ErrorCode::NotFound),
        (-32002, ErrorCode::FailedPrecondition),
        (-32003, ErrorCode::Unimplemented),
        (-32004, ErrorCode::Unimplemented),
        (-32005, ErrorCode::InvalidArgument),
        (-32006, ErrorCode::Internal),
        (-32007, ErrorCode::FailedPrecondition),
        (-32008, ErrorCode::FailedPrecondition),
        (-32009, ErrorCode::Unimplemented),
        (-32050, ErrorCode::Internal),
        (7, ErrorCode::Unknown),
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"said {code}"}}}}"#);
        let e = get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(200, &body));
        assert_eq!(summary(&e), (expected, Some(code), None, format!("said {code}").as_str()));
    }
    // A parse error comes back with a null id; an error without a message is named.
    let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}"#;
    let e = get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(200, body));
    assert_eq!(summary(&e), (ErrorCode::InvalidArgument, Some(-32700), None, "JSON_PARSE_ERROR"));
}

#[test]
fn http_statuses_and_status_bodies() {
    let e = get_error(
        ProtocolVersion::V1_0,
        Binding::HttpJson,
        Reply::new(503, "text/html", b"<h1>down for maintenance</h1>"),
    );
    assert_eq!(summary(&e), (ErrorCode::Unavailable, None, Some(503), "HTTP 503: <h1>down for maintenance</h1>"));
    let e = get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::new(401, "text/plain", b""));
    assert_eq!(summary(&e), (ErrorCode::Unauthenticated, None, Some(401), "HTTP 401"));
    // google.rpc.Status without an A2A reason: its status names the code.
    let body = r#"{"error":{"code":400,"status":"PERMISSION_DENIED","message":"nope"}}"#;
    let e = get_error(ProtocolVersion::V1_0, Binding::HttpJson, Reply::json(400, body));
    assert_eq!(summary(&e), (ErrorCode::PermissionDenied, None, Some(400), "nope"));
    // A JSON-RPC server that also sets an HTTP error status.
    let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad params"}}"#;
    let e = get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(400, body));
    assert_eq!(summary(&e), (ErrorCode::InvalidArgument, Some(-32602), Some(400), "bad params"));
}

#[test]
fn mismatched_id_and_malformed_responses() {
    let body = fixture_text("v10-jsonrpc-get.json").replace("\"id\":1,", "\"id\":99,");
    let e = get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(200, &body));
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(e.message.contains("id 99") && e.message.contains("id was 1"), "{}", e.message);

    for body in
        ["", "not json", "[]", "{\"jsonrpc\":\"2.0\",\"id\":1}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":3}}"]
    {
        let e = get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(200, body));
        assert_eq!(e.code, ErrorCode::Internal, "{body}: {}", e.message);
    }
    let e = get_error(ProtocolVersion::V1_0, Binding::HttpJson, Reply::json(200, r#"{"id":"t","status":{"state":7}}"#));
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(e.message.contains("malformed task: status.state"), "{}", e.message);
}

fn stream(version: ProtocolVersion, binding: Binding, reply: Reply) -> Vec<Result<StreamItem, AdkError>> {
    let (client, _) = client(version, binding, [reply]);
    collect(client.send_message_stream(user_message("hi"), Default::default()))
}

#[test]
fn wrong_content_type_for_a_stream() {
    let items = stream(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::new(200, "text/html", b"<html>hello</html>"));
    let e = items[0].as_ref().unwrap_err();
    assert_eq!(e.code, ErrorCode::Internal);
    assert!(e.message.contains("'text/html' instead of text/event-stream: <html>hello</html>"), "{}", e.message);
    // A JSON error in place of the stream is the error itself (a2a-sdk answers this way when it
    // fails before streaming, e.g. subscribing to a finished task).
    let items = stream(
        ProtocolVersion::V1_0,
        Binding::JsonRpc,
        Reply::json(200, &fixture_text("v10-jsonrpc-subscribe-terminal-error.json")),
    );
    let e = items[0].as_ref().unwrap_err();
    assert_eq!((e.code, e.rpc_code), (ErrorCode::Unimplemented, Some(-32004)));
    assert!(e.message.contains("is in terminal state: TASK_STATE_COMPLETED"));
    // A lone JSON result is a one-event stream.
    let items = stream(
        ProtocolVersion::V1_0,
        Binding::JsonRpc,
        Reply::json(200, &fixture_text("v10-jsonrpc-send-message.json")),
    );
    assert!(matches!(&items[..], [Ok(StreamItem::Event(StreamResponse::Message(_)))]), "{items:?}");
    // An HTTP error status in place of the stream.
    let items =
        stream(ProtocolVersion::V1_0, Binding::HttpJson, Reply::json(404, &fixture_text("v10-rest-get-error.json")));
    assert_eq!(items[0].as_ref().unwrap_err().http_status, Some(404));
}

#[test]
fn errors_inside_streams() {
    let first_event: Vec<u8> = {
        let body = fixture("v10-jsonrpc-stream.sse");
        let end = body.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        body[..end].to_vec()
    };
    let cases: [(Binding, &[u8], Summary); 4] = [
        (
            Binding::JsonRpc,
            b"event: error\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"agent blew up\"}}\r\n\r\n",
            (ErrorCode::Internal, Some(-32603), None, "agent blew up"),
        ),
        (
            Binding::JsonRpc,
            b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"gone\"}}\n\n",
            (ErrorCode::NotFound, Some(-32001), None, "gone"),
        ),
        (
            Binding::HttpJson,
            b"event: error\ndata: {\"error\":{\"code\":500,\"status\":\"INTERNAL\",\"message\":\"boom\"}}\n\n",
            (ErrorCode::Internal, None, Some(500), "boom"),
        ),
        (Binding::HttpJson, b"event: error\ndata: plain words\n\n", (ErrorCode::Unknown, None, None, "the agent reported an error: plain words")),
    ];
    for (binding, error_event, expected) in cases {
        let body = [first_event.as_slice(), error_event].concat();
        let body = if binding == Binding::HttpJson {
            String::from_utf8(body)
                .unwrap()
                .replacen("{\"result\": ", "", 1)
                .replacen(", \"id\": 1, \"jsonrpc\": \"2.0\"}", "", 1)
                .into_bytes()
        } else {
            body
        };
        let items = stream(ProtocolVersion::V1_0, binding, Reply::sse(&body));
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(matches!(items[0], Ok(StreamItem::Event(StreamResponse::Task(_)))), "{items:?}");
        assert_eq!(summary(items[1].as_ref().unwrap_err()), expected);
    }
}

#[test]
fn garbage_never_panics() {
    let garbage: [&[u8]; 9] = [
        b"data: {\n\n",
        b"data: null\n\n",
        b"data: {\"result\":{\"task\":{}}}\n\n",
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\"}}\n\n",
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[1,2]}\n\n",
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"status\":{\"state\":{}}}}}\n\n",
        b"event: error\ndata: {\"jsonrpc\":\"2.0\",\"error\":\"x\"}\n\n",
        b"data: \xff\xfe\n\n",
        b"\0\0\0",
    ];
    for (version, binding, _) in common::a2a::ALL {
        for body in garbage {
            for reply in [
                Reply::sse(body),
                Reply::json(200, &String::from_utf8_lossy(body)),
                Reply::json(500, &String::from_utf8_lossy(body)),
            ] {
                let items = stream(version, binding, reply);
                assert!(items.last().is_some_and(Result::is_err), "{version:?} {binding:?} {body:?}: {items:?}");
            }
        }
    }
}

/// A body too large to hold decoded is `RESOURCE_EXHAUSTED`, wherever it arrives: a `GetTask`
/// answer in either binding, a plain JSON answer to a streaming request.
#[test]
fn a_body_over_the_decoding_budget_is_resource_exhausted() {
    let limits = adk_wasm::limits::limits();
    adk_wasm::limits::set_limits(adk_wasm::limits::Limits { max_json_expansion: 0, ..limits });
    let parts = vec![r#"{"text": "x"}"#; 200_000].join(",");
    let task = format!(
        r#"{{"id": "t", "contextId": "c", "status": {{"state": "TASK_STATE_WORKING"}}, "artifacts": [{{"artifactId": "a", "parts": [{parts}]}}]}}"#
    );
    let rpc = format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {task}}}"#);
    let rpc_stream = format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"task": {task}}}}}"#);
    let outcomes = [
        get_error(ProtocolVersion::V1_0, Binding::HttpJson, Reply::json(200, &task)),
        get_error(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(200, &rpc)),
        stream(ProtocolVersion::V1_0, Binding::JsonRpc, Reply::json(200, &rpc_stream)).remove(0).unwrap_err(),
    ];
    adk_wasm::limits::set_limits(limits);
    for e in outcomes {
        assert_eq!(e.code, ErrorCode::ResourceExhausted, "{}", e.message);
        assert!(e.message.contains("maxJsonExpansion"), "{}", e.message);
    }
}
