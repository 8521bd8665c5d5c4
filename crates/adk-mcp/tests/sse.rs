//! The MCP client over HTTP+SSE against a scripted server: the endpoint event, answers that come out
//! of order, a notification on the stream, a stream that ends while a request waits (and the next
//! request opening a new one), a cross-origin endpoint refused, a stopped call, and close. The real
//! server (tests/mcp/server.py at /sse) is exercised through the release package in Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use adk_core::cancellation::Cancellation;
use adk_core::http::{HttpClient, HttpRequest, HttpResponse};
use adk_core::{AdkError, ErrorCode};
use adk_mcp::McpClient;
use async_trait::async_trait;
use futures::channel::mpsc::{unbounded, UnboundedSender};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

type Handler = Box<dyn Fn(&Server, &Value) -> u16>;
/// Where a stream's body chunks are put.
type Body = UnboundedSender<Result<Vec<u8>, AdkError>>;

/// A scripted HTTP+SSE server: each GET opens a stream that begins with `endpoint`; each POSTed
/// request goes to `handler`, which may put answers on the stream, and whose status the POST gets.
struct Server {
    endpoint: &'static str,
    streams: RefCell<Vec<Body>>,
    sent: RefCell<Vec<HttpRequest>>,
    forgotten: RefCell<Vec<HttpRequest>>,
    handler: Handler,
}

impl Server {
    fn new(endpoint: &'static str, handler: impl Fn(&Server, &Value) -> u16 + 'static) -> Rc<Server> {
        Rc::new(Server {
            endpoint,
            streams: RefCell::default(),
            sent: RefCell::default(),
            forgotten: RefCell::default(),
            handler: Box::new(handler),
        })
    }

    /// An event on the newest stream.
    fn event(&self, event: &str, data: &str) {
        let text = format!("event: {event}\ndata: {data}\n\n");
        let _ = self.streams.borrow().last().unwrap().unbounded_send(Ok(text.into_bytes()));
    }

    fn message(&self, message: Value) {
        self.event("message", &message.to_string());
    }

    fn answer(&self, request: &Value, result: Value) {
        self.message(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
    }

    /// Ends the newest stream.
    fn end_stream(&self) {
        self.streams.borrow().last().unwrap().close_channel();
    }

    fn requests(&self) -> Vec<(String, String)> {
        let sent = self.sent.borrow();
        sent.iter()
            .map(|r| {
                let method = r.body.as_deref().map_or(String::new(), |b| {
                    serde_json::from_str::<Value>(b).unwrap()["method"].as_str().unwrap().to_string()
                });
                (r.method.clone() + " " + &r.url, method)
            })
            .collect()
    }
}

/// Answers `initialize` and `tools/list` (one tool, `t`) on the stream, accepts notifications.
fn standard(server: &Server, request: &Value) -> u16 {
    match request["method"].as_str().unwrap() {
        "initialize" => server.answer(request, json!({"protocolVersion": "2024-11-05", "capabilities": {}})),
        "tools/list" => server.answer(request, json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]})),
        _ => {}
    }
    202
}

#[async_trait(?Send)]
impl HttpClient for Server {
    async fn send(&self, request: HttpRequest, _: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        self.sent.borrow_mut().push(request.clone());
        let (status, content_type, body): (u16, &str, futures::stream::BoxStream<'static, _>) = if request.method
            == "GET"
        {
            let (sender, receiver) = unbounded();
            self.streams.borrow_mut().push(sender);
            self.event("endpoint", self.endpoint);
            (200, "text/event-stream", receiver.boxed())
        } else {
            let message: Value = serde_json::from_str(request.body.as_deref().unwrap()).unwrap();
            ((self.handler)(self, &message), "text/plain", futures::stream::iter([Ok(b"Accepted".to_vec())]).boxed())
        };
        Ok(HttpResponse { status, headers: vec![("content-type".into(), content_type.into())], body: Box::pin(body) })
    }

    fn send_and_forget(&self, request: HttpRequest) {
        self.forgotten.borrow_mut().push(request);
    }
}

fn client(server: &Rc<Server>) -> McpClient {
    McpClient::sse(server.clone(), "http://mcp.test/sse", vec![("X-Key".into(), "k".into())])
}

#[test]
fn messages_go_to_the_endpoint_the_stream_names_and_answers_come_on_the_stream() {
    let server = Server::new("/messages/?session_id=ab", |server, request| {
        if request["method"] == "tools/list" {
            // Things that are not its answer come first: another event type, a keep-alive, a notification.
            server.event("ping", "");
            server.event("message", "");
            server.message(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
        }
        standard(server, request)
    });
    let mcp = client(&server);
    let tools = block_on(mcp.list_tools(&[("X-Call".into(), "c".into())], Rc::default())).unwrap();
    assert_eq!(tools[0]["name"], "t");
    assert!(mcp.take_tools_changed() && !mcp.take_tools_changed());
    let endpoint = "http://mcp.test/messages/?session_id=ab";
    assert_eq!(
        server.requests(),
        [
            ("GET http://mcp.test/sse".into(), String::new()),
            (format!("POST {endpoint}"), "initialize".into()),
            (format!("POST {endpoint}"), "notifications/initialized".into()),
            (format!("POST {endpoint}"), "tools/list".into()),
        ]
    );
    let sent = server.sent.borrow();
    let header = |i: usize, name: &str| sent[i].headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    assert_eq!(
        (header(0, "Accept"), header(0, "X-Key"), header(0, "X-Call")),
        (Some("text/event-stream"), Some("k"), Some("c"))
    );
    assert_eq!(
        (header(3, "Content-Type"), header(3, "X-Key"), header(3, "X-Call")),
        (Some("application/json"), Some("k"), Some("c"))
    );
    // The `mcp` SDK's SSE client sends no session headers: the endpoint names the session.
    assert_eq!(
        (header(3, "Mcp-Session-Id"), header(3, "MCP-Protocol-Version"), header(3, "Accept")),
        (None, None, None)
    );
}

#[test]
fn concurrent_calls_each_get_their_own_answer_when_they_come_out_of_order() {
    let held = Rc::new(RefCell::new(Vec::<Value>::new()));
    let server = Server::new("/messages/?session_id=ab", {
        let held = held.clone();
        move |server, request| {
            if request["method"] == "tools/call" {
                held.borrow_mut().push(request.clone());
                // Both calls are in: answer the second first.
                if held.borrow().len() == 2 {
                    for call in held.borrow().iter().rev() {
                        server.answer(call, json!({"content": [{"type": "text", "text": call["params"]["name"]}]}));
                    }
                }
            }
            standard(server, request)
        }
    });
    let mcp = client(&server);
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    let (a, b) = block_on(futures::future::join(
        mcp.call_tool("first", serde_json::Map::new(), &[], Rc::default()),
        mcp.call_tool("second", serde_json::Map::new(), &[], Rc::default()),
    ));
    assert_eq!(a.unwrap()["content"][0]["text"], "first");
    assert_eq!(b.unwrap()["content"][0]["text"], "second");
}

#[test]
fn a_stream_that_ends_fails_the_waiting_request_and_the_next_one_opens_a_new_stream() {
    let server = Server::new("/messages/?session_id=ab", |server, request| {
        if request["method"] == "tools/call" {
            if request["params"]["name"] == "cut" {
                server.end_stream();
            } else {
                server.answer(request, json!({"content": []}));
            }
        }
        standard(server, request)
    });
    let mcp = client(&server);
    let e = block_on(mcp.call_tool("cut", serde_json::Map::new(), &[], Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unavailable, "{}", e.message);
    assert!(e.message.contains("event stream ended"), "{}", e.message);
    let result = block_on(mcp.call_tool("whole", serde_json::Map::new(), &[], Rc::default())).unwrap();
    assert_eq!(Value::Object(result), json!({"content": []}));
    let methods: Vec<String> = server.requests().into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        methods,
        [
            "",
            "initialize",
            "notifications/initialized",
            "tools/call",
            "",
            "initialize",
            "notifications/initialized",
            "tools/call"
        ]
    );
}

#[test]
fn a_message_that_is_not_json_rpc_fails_the_waiting_request_instead_of_leaving_it_waiting() {
    let server = Server::new("/messages/?session_id=ab", |server, request| {
        if request["method"] == "tools/call" {
            server.event("message", "{not json");
        }
        standard(server, request)
    });
    let mcp = client(&server);
    let e = block_on(mcp.call_tool("t", serde_json::Map::new(), &[], Rc::default())).unwrap_err();
    assert!(e.message.contains("not a JSON-RPC message"), "{}", e.message);
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    assert_eq!(server.streams.borrow().len(), 2);
}

#[test]
fn a_session_the_server_forgot_is_begun_again_on_a_new_stream() {
    let forgot = Cell::new(false);
    let server = Server::new("/messages/?session_id=ab", move |server, request| {
        if request["method"] == "tools/list" && !forgot.replace(true) {
            return 404;
        }
        standard(server, request)
    });
    let mcp = client(&server);
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    assert_eq!(server.streams.borrow().len(), 2);
    // The first stream was let go (which aborts its GET).
    assert!(server.streams.borrow()[0].is_closed());
}

#[test]
fn an_endpoint_on_another_origin_is_refused_before_anything_is_sent_there() {
    for endpoint in ["http://evil.example/messages/", "//evil.example/messages/", "https://mcp.test/messages/"] {
        let server = Server::new(endpoint, standard);
        let e = block_on(client(&server).list_tools(&[], Rc::default())).unwrap_err();
        assert_eq!(e.code, ErrorCode::PermissionDenied, "{}", e.message);
        assert!(e.message.contains("another origin"), "{}", e.message);
        assert_eq!(server.sent.borrow().len(), 1, "only the GET");
    }
}

#[test]
fn a_stopped_call_ends_its_wait_and_is_cancelled_on_the_server() {
    let stopped = Rc::new(Cancellation::default());
    let server = Server::new("/messages/?session_id=ab", {
        let stopped = stopped.clone();
        move |server, request| {
            // The run is stopped while the tool runs: its answer never comes.
            if request["method"] == "tools/call" {
                stopped.cancel();
            }
            standard(server, request)
        }
    });
    let mcp = client(&server);
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    let e = block_on(mcp.call_tool("slow", serde_json::Map::new(), &[], stopped)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Aborted, "{}", e.message);
    let forgotten = server.forgotten.borrow();
    assert_eq!(forgotten.len(), 1);
    assert_eq!(forgotten[0].url, "http://mcp.test/messages/?session_id=ab");
    let notice: Value = serde_json::from_str(forgotten[0].body.as_deref().unwrap()).unwrap();
    let call: Value = serde_json::from_str(server.sent.borrow()[4].body.as_deref().unwrap()).unwrap();
    assert_eq!(
        (notice["method"].as_str(), &notice["params"]["requestId"]),
        (Some("notifications/cancelled"), &call["id"])
    );
    // The session lives on for the next call.
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    assert_eq!(server.streams.borrow().len(), 1);
}

#[test]
fn close_lets_the_stream_go_and_the_next_call_opens_another() {
    let server = Server::new("/messages/?session_id=ab", standard);
    let mcp = client(&server);
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    block_on(mcp.close()).unwrap();
    assert!(server.streams.borrow()[0].is_closed());
    block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    assert_eq!(server.streams.borrow().len(), 2);
}

#[test]
fn an_oversized_event_fails_the_request_with_a_typed_error() {
    let server = Server::new("/messages/?session_id=ab", |server, request| {
        if request["method"] == "tools/call" {
            server.answer(request, json!({"content": [{"type": "text", "text": "x".repeat(33 << 20)}]}));
        }
        standard(server, request)
    });
    let e = block_on(client(&server).call_tool("big", serde_json::Map::new(), &[], Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::ResourceExhausted, "{}", e.message);
}
