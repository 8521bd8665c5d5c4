//! Token accounting reported by the model.

use serde::{Deserialize, Serialize};

/// Token count for one modality.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModalityTokenCount {
    /// `TEXT`, `IMAGE`, `AUDIO`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modality: Option<String>,
    /// Tokens of that modality.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_count: Option<i64>,
}

/// `types.GenerateContentResponseUsageMetadata`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMetadata {
    /// Per-modality tokens of the cached content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_tokens_details: Option<Vec<ModalityTokenCount>>,
    /// Tokens in the cached part of the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_content_token_count: Option<i64>,
    /// Tokens in the response candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates_token_count: Option<i64>,
    /// Per-modality tokens of the candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates_tokens_details: Option<Vec<ModalityTokenCount>>,
    /// Tokens in the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_token_count: Option<i64>,
    /// Per-modality tokens of the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens_details: Option<Vec<ModalityTokenCount>>,
    /// Tokens spent thinking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thoughts_token_count: Option<i64>,
    /// Tokens in tool-use prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_prompt_token_count: Option<i64>,
    /// Per-modality tokens of tool-use prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_prompt_tokens_details: Option<Vec<ModalityTokenCount>>,
    /// All tokens of the request and response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_token_count: Option<i64>,
    /// `ON_DEMAND`, `PROVISIONED_THROUGHPUT`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic_type: Option<String>,
}
