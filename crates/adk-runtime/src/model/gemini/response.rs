//! A `GenerateContentResponse` as the API sends it, and its reading as an [`LlmResponse`].

use serde_json::Value;

use crate::model::http_call::MaybeError;
use crate::types::{Content, JsonObject, UsageMetadata};
use crate::LlmResponse;

adk_core::json_struct! {
    /// One response, or one chunk of a streamed one.
    #[derive(Debug, Default)]
    pub(super) struct GenerateContentResponse {
        candidates: Vec<Candidate> => "candidates" def,
        prompt_feedback: Option<PromptFeedback> => "promptFeedback" def,
        usage_metadata: Option<UsageMetadata> => "usageMetadata" def,
        model_version: Option<String> => "modelVersion" def,
        /// A `google.rpc.Status` the server sends in place of a chunk when it fails mid-stream.
        error: Option<Value> => "error" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct Candidate {
        content: Option<Content> => "content" def,
        finish_reason: Option<String> => "finishReason" def,
        finish_message: Option<String> => "finishMessage" def,
        grounding_metadata: Option<JsonObject> => "groundingMetadata" def,
        citation_metadata: Option<JsonObject> => "citationMetadata" def,
        avg_logprobs: Option<f64> => "avgLogprobs" def,
        logprobs_result: Option<JsonObject> => "logprobsResult" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct PromptFeedback {
        block_reason: Option<String> => "blockReason" def,
        block_reason_message: Option<String> => "blockReasonMessage" def,
    }
}

impl GenerateContentResponse {
    /// The first candidate's `finishMessage`: ADK reports it with a finish reason other than `STOP`.
    pub fn finish_message(&self) -> Option<String> {
        self.candidates.first().and_then(|c| c.finish_message.clone())
    }

    /// ADK's `LlmResponse.create`: the first candidate when it has parts or finished with `STOP`,
    /// else an error named by its finish reason; with no candidate, the prompt's block reason; with
    /// neither, an empty successful response (some turns legitimately have no candidates).
    pub fn into_llm_response(self) -> LlmResponse {
        // One response built, then filled in: each branch its own struct literal cost a copy of
        // the whole `LlmResponse` initialisation.
        let mut response = LlmResponse {
            usage_metadata: self.usage_metadata,
            model_version: self.model_version,
            ..Default::default()
        };
        let Some(candidate) = self.candidates.into_iter().next() else {
            match self.prompt_feedback {
                Some(feedback) => {
                    response.error_code = feedback.block_reason;
                    response.error_message = feedback.block_reason_message;
                }
                None => response.content = Some(Content::new("model", Vec::new())),
            }
            return response;
        };
        let has_parts = candidate.content.as_ref().is_some_and(|c| !c.parts().is_empty());
        response.citation_metadata = candidate.citation_metadata;
        response.avg_logprobs = candidate.avg_logprobs;
        response.logprobs_result = candidate.logprobs_result;
        response.finish_reason = candidate.finish_reason.clone();
        if has_parts || candidate.finish_reason.as_deref() == Some("STOP") {
            response.content = candidate.content;
            response.grounding_metadata = candidate.grounding_metadata;
        } else {
            response.error_code = candidate.finish_reason;
            response.error_message = candidate.finish_message;
        }
        response
    }
}

impl MaybeError for GenerateContentResponse {
    fn take_error(&mut self) -> Option<Value> {
        self.error.take()
    }
}
