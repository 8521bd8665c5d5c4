//! Token accounting reported by the model.

crate::json_struct! {
    /// Token count for one modality.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct ModalityTokenCount {
        /// `TEXT`, `IMAGE`, `AUDIO`, …
        pub modality: Option<String> => "modality" opt,
        /// Tokens of that modality.
        pub token_count: Option<i64> => "tokenCount" opt,
    }
}

crate::json_struct! {
    /// `types.GenerateContentResponseUsageMetadata`.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct UsageMetadata {
        /// Per-modality tokens of the cached content.
        pub cache_tokens_details: Option<Vec<ModalityTokenCount>> => "cacheTokensDetails" opt,
        /// Tokens in the cached part of the prompt.
        pub cached_content_token_count: Option<i64> => "cachedContentTokenCount" opt,
        /// Tokens in the response candidates.
        pub candidates_token_count: Option<i64> => "candidatesTokenCount" opt,
        /// Per-modality tokens of the candidates.
        pub candidates_tokens_details: Option<Vec<ModalityTokenCount>> => "candidatesTokensDetails" opt,
        /// Tokens in the prompt.
        pub prompt_token_count: Option<i64> => "promptTokenCount" opt,
        /// Per-modality tokens of the prompt.
        pub prompt_tokens_details: Option<Vec<ModalityTokenCount>> => "promptTokensDetails" opt,
        /// Tokens spent thinking.
        pub thoughts_token_count: Option<i64> => "thoughtsTokenCount" opt,
        /// Tokens in tool-use prompts.
        pub tool_use_prompt_token_count: Option<i64> => "toolUsePromptTokenCount" opt,
        /// Per-modality tokens of tool-use prompts.
        pub tool_use_prompt_tokens_details: Option<Vec<ModalityTokenCount>> => "toolUsePromptTokensDetails" opt,
        /// All tokens of the request and response.
        pub total_token_count: Option<i64> => "totalTokenCount" opt,
        /// `ON_DEMAND`, `PROVISIONED_THROUGHPUT`, …
        pub traffic_type: Option<String> => "trafficType" opt,
    }
}
