//! OpenAI's Chat Completions API and the servers that speak it (Ollama, llama.cpp, vLLM, LM Studio,
//! OpenRouter, …), through any [`HttpClient`].

mod request;
mod response;

use std::rc::Rc;

use super::http_call::{self, Decoder, Endpoint};
use super::{BaseLlm, LlmRequest, LlmResponseStream};
use crate::cancellation::Cancellation;
use crate::http::HttpClient;
use crate::{AdkError, ErrorCode, LlmResponse};
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

    fn generate_content(
        &self,
        mut request: LlmRequest,
        stream: bool,
        cancellation: Rc<Cancellation>,
    ) -> LlmResponseStream {
        let model = http_call::model_for(&mut request, &self.model);
        let origin = adk_core::url::origin(&self.endpoint.base_url).unwrap_or_default().to_ascii_lowercase();
        let openai = origin.ends_with("://api.openai.com") || origin.ends_with(".openai.azure.com");
        let http = request::body(&model, &request, stream, openai).map(|body| {
            let auth = self.api_key.as_ref().map(|key| ("Authorization", format!("Bearer {key}")));
            self.endpoint.post("chat/completions", body, auth)
        });
        let decoder = Box::new(Stream { turn: Turn::default(), done: false });
        http_call::generate(self.endpoint.client.clone(), http, cancellation, stream, PROVIDER, decoder)
    }
}

/// A turn read from a whole response, or from the chunks of a stream.
struct Stream {
    turn: Turn,
    /// `[DONE]` came.
    done: bool,
}

impl Decoder for Stream {
    fn whole(&mut self, body: &str) -> Result<LlmResponse, AdkError> {
        self.turn.add(http_call::parse::<Completion>(PROVIDER, body)?);
        Ok(std::mem::take(&mut self.turn).finish())
    }

    fn chunk(&mut self, data: &str) -> Result<Option<LlmResponse>, AdkError> {
        let data = data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(None);
        }
        if data.is_empty() {
            return Ok(None);
        }
        Ok(self.turn.add(http_call::parse::<Completion>(PROVIDER, data)?))
    }

    fn ended(&self) -> bool {
        self.done
    }

    fn finish(self: Box<Self>) -> Result<LlmResponse, AdkError> {
        // A stream closed between chunks, with neither `[DONE]` nor a finish reason, was cut.
        if !self.done && !self.turn.has_finish_reason() {
            let message = format!("{PROVIDER}: the stream ended before the model finished");
            return Err(AdkError::new(ErrorCode::Unavailable, message));
        }
        Ok(self.turn.finish())
    }
}
