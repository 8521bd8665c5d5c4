//! One MCP session, over Streamable HTTP or the older HTTP+SSE.

use adk_core::cell::Lend;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use crate::cancellation::{Cancellation, Listening};
use crate::http::{HttpClient, HttpRequest};
use crate::message::request;
use crate::transport::sse::Connection;
use crate::transport::{refused, streamable, Link};
use crate::{AdkError, ErrorCode};

type JsonObject = serde_json::Map<String, Value>;

/// The protocol versions this client speaks, newest first; it asks for the first.
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

/// What the server gave when the session began.
struct Session {
    link: Link,
    version: String,
}

impl Session {
    /// Whether requests can still go through it: an HTTP+SSE stream that ended cannot carry answers.
    fn is_open(&self) -> bool {
        match &self.link {
            Link::Streamable(_) => true,
            Link::Sse(connection) => connection.is_open(),
        }
    }
}

/// A client of one MCP server, holding one session at a time.
pub struct McpClient {
    http: Rc<dyn HttpClient>,
    url: String,
    headers: Vec<(String, String)>,
    /// HTTP+SSE rather than Streamable HTTP.
    sse: bool,
    session: RefCell<Option<Rc<Session>>>,
    next_id: Cell<u64>,
    tools_changed: Rc<Cell<bool>>,
}

impl McpClient {
    /// A client of the server whose Streamable HTTP endpoint is `url`, sending `headers` with
    /// every request.
    pub fn new(http: Rc<dyn HttpClient>, url: impl Into<String>, headers: Vec<(String, String)>) -> Self {
        McpClient {
            http,
            url: url.into(),
            headers,
            sse: false,
            session: RefCell::new(None),
            next_id: Cell::new(0),
            tools_changed: Rc::default(),
        }
    }

    /// A client of the server whose HTTP+SSE stream is at `url` (ADK's `SseConnectionParams`),
    /// sending `headers` with every request.
    pub fn sse(http: Rc<dyn HttpClient>, url: impl Into<String>, headers: Vec<(String, String)>) -> Self {
        McpClient { sse: true, ..Self::new(http, url, headers) }
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
                let session = self.begin(headers, cancellation.clone()).await?;
                let id = self.id();
                let _announced = announce_cancel.then(|| self.announce_cancel(&session, id, headers, &cancellation));
                // A session id, or an SSE endpoint (which names one), is what a server can forget.
                let had_session = !matches!(session.link, Link::Streamable(None));
                let link = &session.link;
                match self
                    .send(link, Some(&session.version), Some(id), method, params.clone(), headers, &cancellation)
                    .await
                {
                    Err(e) if attempt == 0 && had_session && e.http_status == Some(404) => {
                        self.session.lend_mut().take();
                    }
                    answer => return Ok(answer?.0.unwrap_or_default()),
                }
            }
            Err(AdkError::new(
                ErrorCode::Unavailable,
                self.what(&[method, ": the server forgot the new session too"].concat()),
            ))
        })
    }

    /// Tells the server the request `id` is cancelled when `cancellation` fires, while the guard lives.
    fn announce_cancel(
        &self,
        session: &Session,
        id: u64,
        headers: &[(String, String)],
        cancellation: &Rc<Cancellation>,
    ) -> Listening {
        let params =
            adk_core::json::members([("requestId", Value::from(id)), ("reason", Value::from("The run was stopped."))]);
        let notice = request(None, "notifications/cancelled", Some(params));
        let notice = self.message(&session.link, Some(&session.version), notice, headers);
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
            let params = cursor.take().map(|c| adk_core::json::members([("cursor", Value::String(c))]));
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
        let params = adk_core::json::members([
            ("name", Value::String(name.to_string())),
            ("arguments", Value::Object(arguments)),
        ]);
        self.exchange("tools/call", Some(params), headers, cancellation, true).await
    }

    /// Ends the session: over Streamable HTTP on the server (`DELETE`; a server that does not allow
    /// it, 405, is fine), over HTTP+SSE by closing the stream, which the server's session ends with.
    pub async fn close(&self) -> Result<(), AdkError> {
        let Some(session) = self.session.lend_mut().take() else { return Ok(()) };
        let id = match &session.link {
            Link::Streamable(Some(id)) => id.clone(),
            Link::Streamable(None) => return Ok(()),
            Link::Sse(connection) => {
                connection.end(AdkError::new(ErrorCode::Aborted, self.what("the session was closed")));
                return Ok(());
            }
        };
        let mut delete = HttpRequest { method: "DELETE".into(), url: self.url.clone(), ..Default::default() };
        delete.headers.extend(self.headers.iter().cloned());
        delete.headers.push(("Mcp-Session-Id".into(), id));
        delete.headers.push(("MCP-Protocol-Version".into(), session.version.clone()));
        let response = self.http.send(delete, Rc::default()).await?;
        match response.status {
            200..=299 | 404 | 405 => Ok(()),
            status => Err(AdkError::http(status, self.what(&format!("DELETE answered HTTP {status}")))),
        }
    }

    /// The POST of one message (`body`) over `link`: JSON in; the client's headers and the call's
    /// own; over Streamable HTTP, JSON or SSE out and the session's headers; over HTTP+SSE, to the
    /// stream's endpoint with no more, as the `mcp` SDK's `sse_client` sends it.
    fn message(&self, link: &Link, version: Option<&str>, body: String, headers: &[(String, String)]) -> HttpRequest {
        let url = match link {
            Link::Sse(connection) => connection.endpoint(),
            Link::Streamable(_) => &self.url,
        };
        let mut post = HttpRequest::post_json(url, body);
        if let Link::Streamable(_) = link {
            post.headers.push(("Accept".into(), "application/json, text/event-stream".into()));
        }
        post.headers.extend(self.headers.iter().cloned());
        post.headers.extend(headers.iter().cloned());
        if let Link::Streamable(session_id) = link {
            if let Some(id) = session_id {
                post.headers.push(("Mcp-Session-Id".into(), id.clone()));
            }
            if let Some(version) = version {
                post.headers.push(("MCP-Protocol-Version".into(), version.to_string()));
            }
        }
        post
    }

    fn id(&self) -> u64 {
        self.next_id.set(self.next_id.get() + 1);
        self.next_id.get()
    }

    fn what(&self, detail: &str) -> String {
        ["MCP server ", &self.url, ": ", detail].concat()
    }

    /// The open session, or a new one: over HTTP+SSE the stream first, then `initialize`, version
    /// negotiation and `notifications/initialized`.
    async fn begin(
        &self,
        headers: &[(String, String)],
        cancellation: Rc<Cancellation>,
    ) -> Result<Rc<Session>, AdkError> {
        if let Some(session) = self.session.lend().as_ref().filter(|s| s.is_open()) {
            return Ok(session.clone());
        }
        let link = match self.sse {
            false => Link::Streamable(None),
            true => {
                let mut get = vec![("Accept".to_string(), "text/event-stream".to_string())];
                get.extend(self.headers.iter().cloned());
                get.extend(headers.iter().cloned());
                let what = ["MCP server ", &self.url].concat();
                let tools_changed = self.tools_changed.clone();
                Link::Sse(Connection::open(&*self.http, &self.url, get, tools_changed, what, &cancellation).await?)
            }
        };
        let client_info = adk_core::json::members([
            ("name", Value::from("adk-wasm")),
            ("version", Value::from(env!("CARGO_PKG_VERSION"))),
        ]);
        let params = adk_core::json::members([
            ("protocolVersion", Value::from(PROTOCOL_VERSIONS[0])),
            ("capabilities", Value::Object(JsonObject::new())),
            ("clientInfo", Value::Object(client_info)),
        ]);
        let id = Some(self.id());
        let (answer, session_id) =
            self.send(&link, None, id, "initialize", Some(params), headers, &cancellation).await?;
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
        let link = match link {
            Link::Streamable(_) => Link::Streamable(session_id),
            sse => sse,
        };
        let session = Rc::new(Session { link, version: version.to_string() });
        let initialized = "notifications/initialized";
        self.send(&session.link, Some(&session.version), None, initialized, None, headers, &cancellation).await?;
        *self.session.lend_mut() = Some(session.clone());
        Ok(session)
    }

    /// POSTs one message over `link`; the answer to a request (`id` given; none for a
    /// notification) and the session id the server gave.
    #[allow(clippy::too_many_arguments)] // one message's parts, each its own
    async fn send(
        &self,
        link: &Link,
        version: Option<&str>,
        id: Option<u64>,
        method: &str,
        params: Option<JsonObject>,
        headers: &[(String, String)],
        cancellation: &Rc<Cancellation>,
    ) -> Result<(Option<JsonObject>, Option<String>), AdkError> {
        let post = self.message(link, version, request(id, method, params), headers);
        let expecting = match (link, id) {
            (Link::Sse(connection), Some(id)) => Some(connection.expect(id)),
            _ => None,
        };
        let response = self.http.send(post, cancellation.clone()).await?;
        let session_id = response.header("mcp-session-id").map(str::to_string);
        if !response.ok() {
            return Err(refused(response, &self.what(method)).await);
        }
        let Some(id) = id else { return Ok((None, session_id)) };
        let answer = match expecting {
            Some(expecting) => {
                // The answer comes on the stream; the POST's own response has nothing more.
                drop(response);
                expecting.answer(cancellation).await?
            }
            None => streamable::answer(response, id, &self.what(method), &self.tools_changed).await?,
        };
        Ok((Some(answer), session_id))
    }
}
