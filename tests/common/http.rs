//! An `HttpClient` that answers from replies given up front and records what it was sent: the
//! native stand-in for a server. The browser tests run the same code against real local servers.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use adk_wasm::agent::Cancellation;
use adk_wasm::http::{HttpClient, HttpRequest, HttpResponse};
use adk_wasm::{AdkError, ErrorCode};
use async_trait::async_trait;

/// One canned reply: a status, a content type, and the body as the chunks the network would deliver.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub chunks: Vec<Vec<u8>>,
    /// The connection drops after the chunks instead of ending cleanly.
    pub cut: bool,
    /// Headers besides the content type.
    pub headers: Vec<(String, String)>,
}

impl Reply {
    pub fn new(status: u16, content_type: &str, body: &[u8]) -> Self {
        Reply {
            status,
            content_type: content_type.into(),
            chunks: vec![body.to_vec()],
            cut: false,
            headers: Vec::new(),
        }
    }

    pub fn json(status: u16, body: &str) -> Self {
        Self::new(status, "application/json", body.as_bytes())
    }

    pub fn sse(body: &[u8]) -> Self {
        Self::new(200, "text/event-stream", body)
    }

    /// The same body delivered in chunks of `size` bytes (1 splits every byte).
    pub fn chunked(mut self, size: usize) -> Self {
        let body: Vec<u8> = self.chunks.concat();
        self.chunks = body.chunks(size.max(1)).map(<[u8]>::to_vec).collect();
        self
    }

    /// The same body split at `offsets` (byte positions).
    pub fn split_at(mut self, offsets: &[usize]) -> Self {
        let body: Vec<u8> = self.chunks.concat();
        let mut cuts: Vec<usize> = offsets.iter().copied().filter(|&o| o > 0 && o < body.len()).collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut start = 0;
        self.chunks = cuts
            .iter()
            .chain(std::iter::once(&body.len()))
            .map(|&end| {
                let piece = body[start..end].to_vec();
                start = end;
                piece
            })
            .collect();
        self
    }

    /// The reply with header `name: value`.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.into()));
        self
    }

    /// Ends the body with a dropped connection.
    pub fn cut(mut self) -> Self {
        self.cut = true;
        self
    }
}

/// Replies in order; records every request.
#[derive(Default)]
pub struct ReplayClient {
    replies: RefCell<VecDeque<Reply>>,
    requests: RefCell<Vec<HttpRequest>>,
}

impl ReplayClient {
    pub fn new(replies: impl IntoIterator<Item = Reply>) -> Rc<Self> {
        Rc::new(ReplayClient { replies: RefCell::new(replies.into_iter().collect()), requests: RefCell::default() })
    }

    pub fn requests(&self) -> Vec<HttpRequest> {
        self.requests.borrow().clone()
    }

    /// The JSON body of request `i`.
    pub fn body(&self, i: usize) -> serde_json::Value {
        serde_json::from_str(self.requests.borrow()[i].body.as_deref().unwrap_or("null")).unwrap()
    }

    pub fn remaining(&self) -> usize {
        self.replies.borrow().len()
    }
}

#[async_trait(?Send)]
impl HttpClient for ReplayClient {
    async fn send(&self, request: HttpRequest, cancellation: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        self.requests.borrow_mut().push(request.clone());
        let reply = self.replies.borrow_mut().pop_front().ok_or_else(|| {
            AdkError::new(ErrorCode::Unavailable, format!("ReplayClient: no reply left for {}", request.url))
        })?;
        let mut items: Vec<Result<Vec<u8>, AdkError>> = reply.chunks.into_iter().map(Ok).collect();
        if reply.cut {
            items.push(Err(AdkError::new(ErrorCode::Unavailable, "connection reset")));
        }
        let body = futures_util::stream::iter(items);
        // A cancelled run ends the body with ABORTED, as fetch does.
        let body = futures_util::StreamExt::map(body, move |item| {
            if cancellation.is_cancelled() {
                Err(AdkError::new(ErrorCode::Aborted, "aborted"))
            } else {
                item
            }
        });
        Ok(HttpResponse {
            status: reply.status,
            headers: [("content-type".into(), reply.content_type)].into_iter().chain(reply.headers).collect(),
            body: Box::pin(body),
        })
    }
}
