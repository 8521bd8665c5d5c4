//! OpenAI's Chat Completions API and the servers that speak it (Ollama, llama.cpp, vLLM, LM Studio,
//! OpenRouter, …), through any [`HttpClient`].

mod request;
mod response;

use std::rc::Rc;

use futures_util::StreamExt;

use super::http_call::{self, Endpoint};
use super::{BaseLlm, LlmRequest, LlmResponseStream};
use crate::cancellation::Cancellation;
use crate::http::HttpClient;
use crate::{AdkError, ErrorCode};
use response::{Completion, Turn};

const PROVIDER: &str = "OpenAI";

/// A model behind a `/chat/completions` endpoint (the role ADK's `LiteLlm` plays). In streaming mode
/// text and thinking arrive as partial responses; tool calls come whole in the one final response.
pub struct OpenAICompatible {
    model: String,
    api_key: Option<String>,
    endpoint: Endpoint,
}

impl OpenAICompatible {
    /// `model` served at `base_url`, the part before `/chat/completions` (e.g.
    /// `https://api.openai.com/v1`, `http://localhost:11434/v1`), called through `client`.
    pub fn new(model: impl Into<String>, base_url: impl Into<String>, client: Rc<dyn HttpClient>) -> Self {
        OpenAICompatible { model: model.into(), api_key: None, endpoint: Endpoint::new(client, base_url) }
    }

    /// Sends `key` as a bearer token; local servers usually need none.
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// Adds a header to every request.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.endpoint.headers.push((name.into(), value.into()));
        self
    }
}

impl BaseLlm for OpenAICompatible {
    fn model(&self) -> &str {
        &self.model
    }

    fn generate_content(&self, request: LlmRequest, stream: bool, cancellation: Rc<Cancellation>) -> LlmResponseStream {
        let model = request.model.clone().unwrap_or_else(|| self.model.clone());
        let http = request::body(&model, &request, stream).map(|body| {
            let auth = self.api_key.as_ref().map(|key| ("Authorization", format!("Bearer {key}")));
            self.endpoint.post("chat/completions", body, auth)
        });
        let client = self.endpoint.client.clone();
        Box::pin(async_stream::try_stream! {
            let response = http_call::send(client, http?, cancellation, stream, PROVIDER).await?;
            let mut turn = Turn::default();
            if !stream {
                let body = response.text().await?;
                turn.add(http_call::parse::<Completion>(PROVIDER, &body)?);
                yield turn.finish();
                return;
            }
            let mut events = response.events();
            let mut done = false;
            while let Some(event) = events.next().await {
                let event = event?;
                let data = event.data.trim();
                if data == "[DONE]" {
                    done = true;
                    break;
                }
                if data.is_empty() {
                    continue;
                }
                if let Some(partial) = turn.add(http_call::parse::<Completion>(PROVIDER, data)?) {
                    yield partial;
                }
            }
            // A stream closed between chunks, with neither `[DONE]` nor a finish reason, was cut.
            if !done && !turn.has_finish_reason() {
                Err(AdkError::new(ErrorCode::Unavailable, format!("{PROVIDER}: the stream ended before the model finished")))?;
            }
            yield turn.finish();
        })
    }
}
