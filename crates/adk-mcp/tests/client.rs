//! The MCP client's protocol paths that a well-behaved test server does not take on its own: answers
//! as JSON and as SSE with a notification before them, pages, a forgotten session, a version this
//! client does not speak, a JSON-RPC error, and something that is not an MCP server. The real server
//! (tests/mcp/server.py) is exercised through the release package in Chromium (tests/browser/mcp.html).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

use std::cell::RefCell;
use std::rc::Rc;

use adk_core::cancellation::Cancellation;
use adk_core::http::{HttpClient, HttpRequest, HttpResponse};
use adk_core::{AdkError, ErrorCode};
use adk_mcp::McpClient;
use async_trait::async_trait;
use futures::executor::block_on;
use serde_json::{json, Value};

/// A scripted answer: status, headers, body.
type Answer = (u16, Vec<(&'static str, &'static str)>, String);

/// A scripted server: answers each request with the next `(status, headers, body)`, recording what
/// it was sent.
#[derive(Default)]
struct Server {
    sent: RefCell<Vec<HttpRequest>>,
    forgotten: RefCell<Vec<HttpRequest>>,
    answers: RefCell<Vec<Answer>>,
}

impl Server {
    fn answer(&self, status: u16, headers: Vec<(&'static str, &'static str)>, body: Value) {
        self.answers.borrow_mut().push((status, headers, body.to_string()));
    }

    fn sse(&self, headers: Vec<(&'static str, &'static str)>, messages: &[Value]) {
        let body: String = messages.iter().map(|m| format!("event: message\ndata: {m}\n\n")).collect();
        let mut headers = headers;
        headers.push(("content-type", "text/event-stream"));
        self.answers.borrow_mut().push((200, headers, body));
    }

    fn json(&self, headers: Vec<(&'static str, &'static str)>, message: Value) {
        let mut headers = headers;
        headers.push(("content-type", "application/json"));
        self.answer(200, headers, message);
    }

    fn accepted(&self) {
        self.answers.borrow_mut().push((202, vec![], String::new()));
    }

    fn initialized(&self, session: &'static str, version: &str) {
        self.json(
            vec![("mcp-session-id", session)],
            json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": version, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}),
        );
        self.accepted();
    }

    fn method(&self, i: usize) -> String {
        let body: Value = serde_json::from_str(self.sent.borrow()[i].body.as_deref().unwrap()).unwrap();
        body["method"].as_str().unwrap_or_default().to_string()
    }

    fn header(&self, i: usize, name: &str) -> Option<String> {
        self.sent.borrow()[i].headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    }
}

#[async_trait(?Send)]
impl HttpClient for Server {
    async fn send(&self, request: HttpRequest, _: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        // Ids are per client; the scripted answers use the request's own.
        let id = request
            .body
            .as_deref()
            .and_then(|b| serde_json::from_str::<Value>(b).ok())
            .and_then(|b| b.get("id").cloned());
        self.sent.borrow_mut().push(request);
        let (status, headers, body) = self.answers.borrow_mut().remove(0);
        let body = match id {
            Some(id) => body.replace("\"id\":0", &format!("\"id\":{id}")),
            None => body,
        };
        let chunks: Vec<Result<Vec<u8>, AdkError>> = vec![Ok(body.into_bytes())];
        Ok(HttpResponse {
            status,
            headers: headers.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            body: Box::pin(futures::stream::iter(chunks)),
        })
    }

    fn send_and_forget(&self, request: HttpRequest) {
        self.forgotten.borrow_mut().push(request);
    }
}

fn client(server: &Rc<Server>) -> McpClient {
    McpClient::new(server.clone(), "http://mcp.test/mcp", vec![("X-Key".into(), "k".into())])
}

#[test]
fn a_session_begins_once_and_its_id_and_version_go_with_every_request() {
    let server = Rc::new(Server::default());
    server.initialized("s-1", "2025-06-18");
    server.sse(
        vec![],
        &[
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
            json!({"jsonrpc": "2.0", "id": 0, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "p2"}}),
        ],
    );
    server.json(
        vec![],
        json!({"jsonrpc": "2.0", "id": 0, "result": {"tools": [{"name": "b", "inputSchema": {"type": "object"}}]}}),
    );
    let mcp = client(&server);
    let tools = block_on(mcp.list_tools(&[], Rc::default())).unwrap();
    assert_eq!(tools.iter().map(|t| t["name"].as_str().unwrap()).collect::<Vec<_>>(), ["a", "b"]);
    assert!(mcp.take_tools_changed() && !mcp.take_tools_changed());
    assert_eq!(
        (0..4).map(|i| server.method(i)).collect::<Vec<_>>(),
        ["initialize", "notifications/initialized", "tools/list", "tools/list"]
    );
    assert_eq!(server.header(0, "Mcp-Session-Id"), None);
    assert_eq!(server.header(3, "Mcp-Session-Id").as_deref(), Some("s-1"));
    assert_eq!(server.header(3, "MCP-Protocol-Version").as_deref(), Some("2025-06-18"));
    assert_eq!(server.header(3, "X-Key").as_deref(), Some("k"));
    assert_eq!(server.header(3, "Accept").as_deref(), Some("application/json, text/event-stream"));
    let second_page: Value = serde_json::from_str(server.sent.borrow()[3].body.as_deref().unwrap()).unwrap();
    assert_eq!(second_page["params"], json!({"cursor": "p2"}));
}

#[test]
fn a_forgotten_session_is_begun_again_and_the_call_sent_once_more() {
    let server = Rc::new(Server::default());
    server.initialized("s-1", "2025-06-18");
    server.answer(404, vec![], json!({"error": "unknown session"}));
    server.initialized("s-2", "2025-03-26");
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "result": {"content": [], "isError": false}}));
    let mcp = client(&server);
    let result = block_on(mcp.call_tool("t", serde_json::Map::new(), &[], Rc::default())).unwrap();
    assert_eq!(Value::Object(result), json!({"content": [], "isError": false}));
    assert_eq!(server.method(3), "initialize");
    assert_eq!(server.header(5, "Mcp-Session-Id").as_deref(), Some("s-2"));
    assert_eq!(server.header(5, "MCP-Protocol-Version").as_deref(), Some("2025-03-26"));
}

#[test]
fn errors_are_typed() {
    // A protocol version this client does not speak.
    let server = Rc::new(Server::default());
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "1999-01-01"}}));
    let e = block_on(client(&server).list_tools(&[], Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::FailedPrecondition);
    assert!(e.message.contains("1999-01-01"), "{}", e.message);

    // A JSON-RPC error keeps its code.
    let server = Rc::new(Server::default());
    server.initialized("s", "2025-06-18");
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32602, "message": "Unknown tool: nope"}}));
    let e = block_on(client(&server).call_tool("nope", serde_json::Map::new(), &[], Rc::default())).unwrap_err();
    assert_eq!((e.code, e.rpc_code), (ErrorCode::InvalidArgument, Some(-32602)));
    assert!(e.message.ends_with("Unknown tool: nope"), "{}", e.message);

    // A web page, not an MCP server.
    let server = Rc::new(Server::default());
    server.answers.borrow_mut().push((200, vec![("content-type", "text/html")], "<!doctype html><p>hello".into()));
    let e = block_on(client(&server).list_tools(&[], Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unknown);
    assert!(e.message.contains("not an MCP server"), "{}", e.message);

    // An HTTP error names the status and the server's words.
    let server = Rc::new(Server::default());
    server.answer(401, vec![("content-type", "application/json")], json!({"error": "invalid_token"}));
    let e = block_on(client(&server).list_tools(&[], Rc::default())).unwrap_err();
    assert_eq!((e.code, e.http_status), (ErrorCode::Unauthenticated, Some(401)));

    // A listing without names.
    let server = Rc::new(Server::default());
    server.initialized("s", "2025-06-18");
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "result": {"tools": [{"description": "no name"}]}}));
    let e = block_on(client(&server).list_tools(&[], Rc::default())).unwrap_err();
    assert!(e.message.contains("without a name"), "{}", e.message);
}

#[test]
fn a_stopped_call_is_cancelled_on_the_server_and_a_finished_one_is_not() {
    let server = Rc::new(Server::default());
    server.initialized("s-1", "2025-06-18");
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "result": {"content": []}}));
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "result": {"content": []}}));
    let mcp = client(&server);
    // Finished, then the run stops: nothing to cancel any more.
    let run = Rc::new(Cancellation::default());
    block_on(mcp.call_tool("quick", serde_json::Map::new(), &[], run.clone())).unwrap();
    run.cancel();
    assert!(server.forgotten.borrow().is_empty());
    // Stopped while it runs (here: before its answer is read), the server hears of it in the background.
    let stopped = Rc::new(Cancellation::default());
    stopped.cancel();
    let _ = block_on(mcp.call_tool("slow", serde_json::Map::new(), &[], stopped));
    let forgotten = server.forgotten.borrow();
    assert_eq!(forgotten.len(), 1);
    let notice: Value = serde_json::from_str(forgotten[0].body.as_deref().unwrap()).unwrap();
    let call: Value = serde_json::from_str(server.sent.borrow()[3].body.as_deref().unwrap()).unwrap();
    assert_eq!(notice["method"], "notifications/cancelled");
    assert_eq!(notice["params"]["requestId"], call["id"]);
    assert!(notice.get("id").is_none());
    assert!(forgotten[0].headers.contains(&("Mcp-Session-Id".into(), "s-1".into())));
}

#[test]
fn an_oversized_result_is_refused_with_a_typed_error_as_json_and_as_sse() {
    let huge = "x".repeat(33 << 20);
    let server = Rc::new(Server::default());
    server.initialized("s", "2025-06-18");
    server.json(vec![], json!({"jsonrpc": "2.0", "id": 0, "result": {"content": [{"type": "text", "text": huge}]}}));
    let e = block_on(client(&server).call_tool("big", serde_json::Map::new(), &[], Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::ResourceExhausted, "{}", e.message);

    let server = Rc::new(Server::default());
    server.initialized("s", "2025-06-18");
    server.sse(vec![], &[json!({"jsonrpc": "2.0", "id": 0, "result": {"content": [{"type": "text", "text": huge}]}})]);
    let e = block_on(client(&server).call_tool("big", serde_json::Map::new(), &[], Rc::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::ResourceExhausted, "{}", e.message);
}
