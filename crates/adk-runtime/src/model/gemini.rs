//! Google's Gemini API (`generateContent` over REST), through any [`HttpClient`].

mod request;
mod response;

use std::rc::Rc;

use super::http_call::{self, Decoder, Endpoint};
use super::{BaseLlm, LlmRequest, LlmResponseStream, StreamingAggregator};
use crate::cancellation::Cancellation;
use crate::http::HttpClient;
use crate::{AdkError, ErrorCode, LlmResponse};
use response::GenerateContentResponse;

const PROVIDER: &str = "Gemini";

/// A Gemini model (ADK's `Gemini`), called over the Gemini API's REST interface. In streaming mode
/// every chunk is a partial response and one aggregated response ends the call, as ADK's default
/// progressive streaming does.
pub struct Gemini {
    model: String,
    api_key: Option<String>,
    endpoint: Endpoint,
}

impl Gemini {
    /// The Gemini API's own address.
    pub const DEFAULT_BASE_URL: &'static str = "https://generativelanguage.googleapis.com/v1beta";

    /// `model` (e.g. `gemini-2.5-flash`, or `models/gemini-2.5-flash`) called through `client`.
    pub fn new(model: impl Into<String>, client: Rc<dyn HttpClient>) -> Self {
        Gemini { model: model.into(), api_key: None, endpoint: Endpoint::new(client, Self::DEFAULT_BASE_URL) }
    }

    /// Sends `key` as `x-goog-api-key`. In a browser app anyone can read it: prefer a proxy that
    /// adds the key server-side ([`with_base_url`](Self::with_base_url)).
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// Replaces the base URL (up to and including the API version), e.g. with a proxy's.
    pub fn with_base_url(mut self, url: impl Into<String>) -> Self {
        self.endpoint.base_url = url.into();
        self
    }

    /// Adds a header to every request.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.endpoint.headers.push((name.into(), value.into()));
        self
    }

    /// The method path: a bare name is a model under `models/`; a name that already has a
    /// collection (`models/…`, `tunedModels/…`) is used as given.
    fn path(model: &str, stream: bool) -> String {
        let resource = if model.contains('/') { model.to_string() } else { format!("models/{model}") };
        match stream {
            true => format!("{resource}:streamGenerateContent?alt=sse"),
            false => format!("{resource}:generateContent"),
        }
    }
}

impl BaseLlm for Gemini {
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
        let http = request::body(&request).map(|body| {
            let auth = self.api_key.clone().map(|key| ("x-goog-api-key", key));
            self.endpoint.post(&Self::path(&model, stream), body, auth)
        });
        let decoder = Box::new(Stream { aggregator: StreamingAggregator::new(), finish_message: None });
        http_call::generate(self.endpoint.client.clone(), http, cancellation, stream, PROVIDER, decoder)
    }
}

/// A response read whole, or aggregated from the chunks of a stream.
struct Stream {
    aggregator: StreamingAggregator,
    /// The last `finishMessage` a chunk carried.
    finish_message: Option<String>,
}

impl Decoder for Stream {
    fn whole(&mut self, body: &str) -> Result<LlmResponse, AdkError> {
        Ok(http_call::parse::<GenerateContentResponse>(PROVIDER, body)?.into_llm_response())
    }

    fn chunk(&mut self, data: &str) -> Result<Option<LlmResponse>, AdkError> {
        if data.trim().is_empty() {
            return Ok(None);
        }
        let chunk = http_call::parse::<GenerateContentResponse>(PROVIDER, data)?;
        self.finish_message = chunk.finish_message().or(self.finish_message.take());
        Ok(Some(self.aggregator.add(chunk.into_llm_response())))
    }

    fn finish(self: Box<Self>) -> Result<LlmResponse, AdkError> {
        let mut whole = self
            .aggregator
            .finish()
            .ok_or_else(|| AdkError::new(ErrorCode::Unknown, "Gemini: the response stream ended without a response"))?;
        if whole.error_code.is_some() && whole.error_message.is_none() {
            whole.error_message = self.finish_message;
        }
        // Gemini's last chunk says why it stopped; a stream closed between chunks without one
        // (a proxy timing out) is not a complete answer.
        if whole.finish_reason.is_none() && whole.error_code.is_none() {
            return Err(AdkError::new(ErrorCode::Unavailable, "Gemini: the stream ended before the model finished"));
        }
        Ok(whole)
    }
}
