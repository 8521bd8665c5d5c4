//! One MCP session over Streamable HTTP.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use adk_core::error::excerpt;
use futures_util::future::LocalBoxFuture;
use futures_util::StreamExt;
use serde_json::Value;

use crate::cancellation::{Cancellation, Listening};
use crate::http::{HttpClient, HttpRequest};
use crate::message::{read, request, Incoming};
use crate::{AdkError, ErrorCode};

type JsonObject = serde_json::Map<String, Value>;

/// The protocol versions this client speaks, newest first; it asks for the first.
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

const LIST_CHANGED: &str = "notifications/tools/list_changed";

/// What the server gave when the session began.
struct Session {
    id: Option<String>,
    version: String,
}

/// A client of one MCP server, holding one session at a time.
pub struct McpClient {
    http: Rc<dyn HttpClient>,
    url: String,
    headers: Vec<(String, String)>,
    session: RefCell<Option<Session>>,
    next_id: Cell<u64>,
    tools_changed: Cell<bool>,
}

impl McpClient {
    /// A client of the server at `url`, sending `headers` with every request.
    pub fn new(http: Rc<dyn HttpClient>, url: impl Into<String>, headers: Vec<(String, String)>) -> Self {
        McpClient {
            http,
            url: url.into(),
            headers,
            session: RefCell::new(None),
            next_id: Cell::new(0),
            tools_changed: Cell::new(false),
        }
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether the server said its tools changed since the last call (and forgets it).
    pub fn take_tools_changed(&self) -> bool {
        self.tools_changed.replace(false)
    }

    /// Sends `method` with `params` (and `headers` for this request) and returns its result,
    /// beginning a session first if there is none, and a new one if the server forgot this one.
    pub fn request<'a>(
        &'a self,
        method: &'a str,
        params: Option<JsonObject>,
        headers: &'a [(String, String)],
        cancellation: Rc<Cancellation>,
    ) -> LocalBoxFuture<'a, Result<JsonObject, AdkError>> {
        self.exchange(method, params, headers, cancellation, false)
    }

    /// [`request`](Self::request), and when `cancellation` fires before the answer, the server is
    /// told (`notifications/cancelled`): a dropped connection alone does not cancel MCP work.
    /// Boxed: every MCP call shares one copy.
    fn exchange<'a>(
        &'a self,
        method: &'a str,
        params: Option<JsonObject>,
        headers: &'a [(String, String)],
        cancellation: Rc<Cancellation>,
        announce_cancel: bool,
    ) -> LocalBoxFuture<'a, Result<JsonObject, AdkError>> {
        Box::pin(async move {
            // The second attempt is for a session the server forgot (restarted, expired): the
            // spec's answer is a new one.
            for attempt in 0..2 {
                self.begin(headers, cancellation.clone()).await?;
                let id = self.id();
                let _announced = announce_cancel.then(|| self.announce_cancel(id, headers, &cancellation));
                let had_session = self.session.borrow().as_ref().is_some_and(|s| s.id.is_some());
                match self.post(Some(id), method, params.clone(), headers, cancellation.clone()).await {
                    Err(e) if attempt == 0 && had_session && e.http_status == Some(404) => {
                        self.session.borrow_mut().take();
                    }
                    answer => return Ok(answer?.0.unwrap_or_default()),
                }
            }
            Err(AdkError::new(
                ErrorCode::Unavailable,
                self.what(&format!("{method}: the server forgot the new session too")),
            ))
        })
    }

    /// Tells the server the request `id` is cancelled when `cancellation` fires, while the guard lives.
    fn announce_cancel(&self, id: u64, headers: &[(String, String)], cancellation: &Rc<Cancellation>) -> Listening {
        let params = JsonObject::from_iter([
            ("requestId".to_string(), Value::from(id)),
            ("reason".to_string(), Value::from("The run was stopped.")),
        ]);
        let mut notice =
            HttpRequest::post_json(self.url.clone(), request(None, "notifications/cancelled", Some(params)));
        notice.headers = self.request_headers(headers);
        let http = self.http.clone();
        cancellation.listen(move || http.send_and_forget(notice))
    }

    /// Every tool the server lists, across pages (`tools/list` with its `cursor`).
    pub async fn list_tools(
        &self,
        headers: &[(String, String)],
        cancellation: Rc<Cancellation>,
    ) -> Result<Vec<JsonObject>, AdkError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        // A server that hands back the same cursor would page for ever: a bound, far above any real list.
        for _ in 0..1000 {
            let params = cursor.take().map(|c| JsonObject::from_iter([("cursor".to_string(), Value::String(c))]));
            let mut page = self.request("tools/list", params, headers, cancellation.clone()).await?;
            let Some(Value::Array(listed)) = page.remove("tools") else {
                return Err(AdkError::new(ErrorCode::Unknown, self.what("tools/list answered without a tools list")));
            };
            for tool in listed {
                match tool {
                    Value::Object(tool) if tool.get("name").is_some_and(Value::is_string) => tools.push(tool),
                    _ => {
                        return Err(AdkError::new(
                            ErrorCode::Unknown,
                            self.what("tools/list listed a tool without a name"),
                        ))
                    }
                }
            }
            match page.remove("nextCursor") {
                Some(Value::String(next)) if !next.is_empty() => cursor = Some(next),
                _ => return Ok(tools),
            }
        }
        Err(AdkError::new(ErrorCode::Unknown, self.what("tools/list did not end after 1000 pages")))
    }

    /// Calls the tool `name` with `arguments`; the `CallToolResult`.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: JsonObject,
        headers: &[(String, String)],
        cancellation: Rc<Cancellation>,
    ) -> Result<JsonObject, AdkError> {
        let params = JsonObject::from_iter([
            ("name".to_string(), Value::String(name.to_string())),
            ("arguments".to_string(), Value::Object(arguments)),
        ]);
        self.exchange("tools/call", Some(params), headers, cancellation, true).await
    }

    /// Ends the session on the server (`DELETE`); a server that does not allow it (405) is fine.
    pub async fn close(&self) -> Result<(), AdkError> {
        let Some(Session { id: Some(id), version }) = self.session.borrow_mut().take() else { return Ok(()) };
        let mut delete = HttpRequest { method: "DELETE".into(), url: self.url.clone(), ..Default::default() };
        delete.headers.extend(self.headers.iter().cloned());
        delete.headers.push(("Mcp-Session-Id".into(), id));
        delete.headers.push(("MCP-Protocol-Version".into(), version));
        let response = self.http.send(delete, Rc::default()).await?;
        match response.status {
            200..=299 | 404 | 405 => Ok(()),
            status => Err(AdkError::http(status, self.what(&format!("DELETE answered HTTP {status}")))),
        }
    }

    /// The headers of every message: JSON in, JSON or SSE out, the client's and the call's own,
    /// then the session's.
    fn request_headers(&self, headers: &[(String, String)]) -> Vec<(String, String)> {
        let mut all = vec![
            ("Content-Type".to_string(), "application/json".to_string()),
            ("Accept".to_string(), "application/json, text/event-stream".to_string()),
        ];
        all.extend(self.headers.iter().cloned());
        all.extend(headers.iter().cloned());
        if let Some(session) = self.session.borrow().as_ref() {
            if let Some(id) = &session.id {
                all.push(("Mcp-Session-Id".into(), id.clone()));
            }
            all.push(("MCP-Protocol-Version".into(), session.version.clone()));
        }
        all
    }

    fn id(&self) -> u64 {
        self.next_id.set(self.next_id.get() + 1);
        self.next_id.get()
    }

    fn what(&self, detail: &str) -> String {
        ["MCP server ", &self.url, ": ", detail].concat()
    }

    /// `initialize`, version negotiation and `notifications/initialized`, unless a session is open.
    async fn begin(&self, headers: &[(String, String)], cancellation: Rc<Cancellation>) -> Result<(), AdkError> {
        if self.session.borrow().is_some() {
            return Ok(());
        }
        let client_info = JsonObject::from_iter([
            ("name".to_string(), Value::from("adk-wasm")),
            ("version".to_string(), Value::from(env!("CARGO_PKG_VERSION"))),
        ]);
        let params = JsonObject::from_iter([
            ("protocolVersion".to_string(), Value::from(PROTOCOL_VERSIONS[0])),
            ("capabilities".to_string(), Value::Object(JsonObject::new())),
            ("clientInfo".to_string(), Value::Object(client_info)),
        ]);
        let id = self.id();
        let (answer, session_id) =
            self.post(Some(id), "initialize", Some(params), headers, cancellation.clone()).await?;
        let result = answer.unwrap_or_default();
        let version = result.get("protocolVersion").and_then(Value::as_str).unwrap_or_default();
        if !PROTOCOL_VERSIONS.contains(&version) {
            return Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                self.what(&format!(
                    "it speaks MCP protocol `{version}`; adk-wasm speaks {}",
                    PROTOCOL_VERSIONS.join(", ")
                )),
            ));
        }
        *self.session.borrow_mut() = Some(Session { id: session_id, version: version.to_string() });
        self.post(None, "notifications/initialized", None, headers, cancellation).await?;
        Ok(())
    }

    /// POSTs one message; the answer to a request (read from JSON or from an SSE stream; `None` for a
    /// notification) and the session id the server gave.
    async fn post(
        &self,
        id: Option<u64>,
        method: &str,
        params: Option<JsonObject>,
        headers: &[(String, String)],
        cancellation: Rc<Cancellation>,
    ) -> Result<(Option<JsonObject>, Option<String>), AdkError> {
        let mut post = HttpRequest::post_json(self.url.clone(), request(id, method, params));
        post.headers = self.request_headers(headers);
        let response = self.http.send(post, cancellation).await?;
        let session_id = response.header("mcp-session-id").map(str::to_string);
        let status = response.status;
        if !response.ok() {
            let body = response.text().await.unwrap_or_default();
            let detail = format!("{method} answered HTTP {status}: {}", excerpt(body.trim(), 200));
            return Err(AdkError::http(status, self.what(&detail)));
        }
        let Some(id) = id else { return Ok((None, session_id)) };
        let what = self.what(method);
        if response.is_event_stream() {
            let mut events = response.events();
            while let Some(event) = events.next().await {
                let event = event?;
                if event.data.trim().is_empty() {
                    continue;
                }
                match read(&event.data, id, &what)? {
                    Incoming::Answer(answer) => return Ok((Some(answer?), session_id)),
                    Incoming::Other(Some(m)) if m == LIST_CHANGED => self.tools_changed.set(true),
                    Incoming::Other(_) => {}
                }
            }
            return Err(AdkError::new(
                ErrorCode::Unavailable,
                self.what(&format!("the stream of {method} ended before its answer")),
            ));
        }
        let json =
            response.header("content-type").is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
        let body = response.text().await?;
        if !json {
            return Err(AdkError::new(
                ErrorCode::Unknown,
                self.what(&format!("not an MCP server: {method} answered {}", excerpt(body.trim(), 120))),
            ));
        }
        match read(&body, id, &what)? {
            Incoming::Answer(answer) => Ok((Some(answer?), session_id)),
            Incoming::Other(_) => Err(AdkError::new(ErrorCode::Unknown, self.what(&format!("{method} got no answer")))),
        }
    }
}
