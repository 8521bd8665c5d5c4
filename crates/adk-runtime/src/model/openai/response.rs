//! Chat Completions responses and stream chunks, and how a turn is assembled from them.

use adk_core::json;
use adk_core::text::join;

use serde_json::Value;

use crate::model::http_call::MaybeError;
use crate::model::StreamingAggregator;
use crate::types::{Bytes, Content, Part, UsageMetadata};
use crate::LlmResponse;

adk_core::json_struct! {
    /// A whole response (`chat.completion`) or one stream chunk (`chat.completion.chunk`).
    #[derive(Debug, Default)]
    pub(super) struct Completion {
        choices: Vec<Choice> => "choices" def,
        usage: Option<Usage> => "usage" def,
        model: Option<String> => "model" def,
        /// Sent in place of a chunk when the server fails mid-stream.
        error: Option<Value> => "error" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct Choice {
        index: Option<u64> => "index" def,
        /// The message of a whole response…
        message: Option<Message> => "message" def,
        /// …or the piece of it a chunk carries: the same fields, each a fragment.
        delta: Option<Message> => "delta" def,
        finish_reason: Option<String> => "finish_reason" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct Message {
        content: Option<String> => "content" def,
        /// Thinking text: `reasoning_content` (DeepSeek, vLLM, llama.cpp) or `reasoning` (Ollama, OpenRouter).
        reasoning_content: Option<String> => "reasoning_content" def,
        reasoning: Option<String> => "reasoning" def,
        tool_calls: Option<Vec<ToolCall>> => "tool_calls" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct ToolCall {
        /// Which call a fragment belongs to; whole responses may leave it out.
        index: Option<usize> => "index" def,
        id: Option<String> => "id" def,
        function: Option<FunctionFragment> => "function" def,
        /// Gemini's OpenAI-compatible endpoint signs each call, `{"google": {"thought_signature":
        /// base64}}`, and Gemini 3 refuses the next request if the call comes back without it.
        extra_content: Option<Value> => "extra_content" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct FunctionFragment {
        name: Option<String> => "name" def,
        /// JSON text, in pieces when streamed (some servers send an object).
        arguments: Option<Value> => "arguments" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct Usage {
        prompt_tokens: Option<i64> => "prompt_tokens" def,
        completion_tokens: Option<i64> => "completion_tokens" def,
        total_tokens: Option<i64> => "total_tokens" def,
        prompt_tokens_details: Option<PromptDetails> => "prompt_tokens_details" def,
        completion_tokens_details: Option<CompletionDetails> => "completion_tokens_details" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct PromptDetails {
        cached_tokens: Option<i64> => "cached_tokens" def,
    }
}

adk_core::json_struct! {
    #[derive(Debug, Default)]
    struct CompletionDetails {
        reasoning_tokens: Option<i64> => "reasoning_tokens" def,
    }
}

impl From<Usage> for UsageMetadata {
    fn from(u: Usage) -> Self {
        UsageMetadata {
            prompt_token_count: u.prompt_tokens,
            candidates_token_count: u.completion_tokens,
            total_token_count: u.total_tokens,
            cached_content_token_count: u.prompt_tokens_details.and_then(|d| d.cached_tokens).filter(|n| *n > 0),
            thoughts_token_count: u.completion_tokens_details.and_then(|d| d.reasoning_tokens).filter(|n| *n > 0),
            ..Default::default()
        }
    }
}

/// A tool call being put together from its fragments.
#[derive(Debug, Default)]
struct PendingCall {
    id: Option<String>,
    name: String,
    arguments: String,
    /// The index the server gave it (where it stands in `calls` may differ: see `Turn::slot`).
    index: Option<usize>,
    thought_signature: Option<Bytes>,
}

/// Everything one model turn has sent so far.
#[derive(Debug, Default)]
pub(super) struct Turn {
    text: StreamingAggregator,
    /// By index, in order (a turn has a few calls: a map's code would outweigh them).
    calls: Vec<(usize, PendingCall)>,
    /// A thought signature that came alone before its call: the next call opened takes it.
    held_signature: Option<Bytes>,
    finish_reason: Option<String>,
    usage: Option<UsageMetadata>,
    model: Option<String>,
}

impl Turn {
    /// Takes one chunk (or a whole response); returns the partial response to show for its text
    /// and thinking, if it has any. Only the first choice counts (ADK's adapter does the same).
    pub fn add(&mut self, completion: Completion) -> Option<LlmResponse> {
        self.model = completion.model.or(self.model.take());
        self.usage = completion.usage.map(UsageMetadata::from).or(self.usage.take());
        let choice = completion.choices.into_iter().find(|c| c.index.unwrap_or(0) == 0)?;
        self.finish_reason = choice.finish_reason.or(self.finish_reason.take());
        let message = choice.message.or(choice.delta)?;
        for call in message.tool_calls.unwrap_or_default() {
            // As ADK's LiteLlm reads it (`_extract_thought_signature_from_tool_call`): what is empty
            // or does not decode is dropped.
            let signature =
                call.extra_content.as_ref().and_then(|e| e.get("google")?.get("thought_signature")?.as_str());
            let signature = signature.filter(|s| !s.is_empty()).and_then(|s| Bytes::from_base64(s).ok());
            let function = call.function.unwrap_or_default();
            let no_arguments = match &function.arguments {
                Some(Value::String(piece)) => piece.is_empty(),
                other => other.as_ref().is_none_or(Value::is_null),
            };
            let bare = function.name.as_deref().unwrap_or_default().is_empty() && no_arguments;
            if bare && signature.is_none() && call.id.as_deref().unwrap_or_default().is_empty() {
                // Nothing in it (LiteLlm skips such deltas too): no call is opened for it.
                continue;
            }
            if bare && signature.is_some() {
                // A signature alone, as LiteLlm takes it: the call at its index (the last call
                // without one) gets it, else the next call opened; it never opens a call itself.
                let signed = match call.index {
                    Some(index) => self.calls.iter_mut().rev().find(|(_, c)| c.index == Some(index)),
                    None => self.calls.last_mut(),
                };
                match signed {
                    Some((_, signed)) => signed.thought_signature = signature,
                    None => self.held_signature = signature,
                }
                continue;
            }
            let at = self.slot(call.index, call.id.as_deref());
            let held = if self.calls.iter().all(|(i, _)| *i != at) { self.held_signature.take() } else { None };
            let Some(pending) = self.call_at(at) else { continue };
            pending.index = pending.index.or(call.index);
            pending.id = call.id.filter(|id| !id.is_empty()).or(pending.id.take());
            pending.thought_signature = signature.or(held).or(pending.thought_signature.take());
            pending.name.push_str(function.name.as_deref().unwrap_or_default());
            match function.arguments {
                Some(Value::String(piece)) => pending.arguments.push_str(&piece),
                Some(Value::Null) | None => {}
                Some(whole) => pending.arguments = adk_core::json::to_string(&whole),
            }
        }
        let mut parts = Vec::new();
        let thought = message.reasoning_content.or(message.reasoning).filter(|t| !t.is_empty());
        parts.extend(thought.map(|t| Part { text: Some(t), thought: Some(true), ..Default::default() }));
        parts.extend(message.content.filter(|t| !t.is_empty()).map(|t| Part::from_text(&t)));
        if parts.is_empty() {
            return None;
        }
        let chunk = LlmResponse { model_version: self.model.clone(), ..LlmResponse::from_parts(parts) };
        Some(self.text.add(chunk))
    }

    /// Whether the server said why the turn ended.
    pub fn has_finish_reason(&self) -> bool {
        self.finish_reason.is_some()
    }

    /// The call at `index`, added in its place if new.
    fn call_at(&mut self, index: usize) -> Option<&mut PendingCall> {
        let at = self.calls.partition_point(|(i, _)| *i < index);
        if self.calls.get(at).is_none_or(|(i, _)| *i != index) {
            self.calls.insert(at, (index, PendingCall::default()));
        }
        self.calls.get_mut(at).map(|(_, call)| call)
    }

    /// Where a tool-call delta goes, as ADK's LiteLlm reads them: the call with its id; else the
    /// newest call the server gave its `index`, unless the delta brings a new id and that call's
    /// arguments are whole, which makes it another call (Ollama numbers every call 0; a new id
    /// before then is the same call's, as some servers send one per chunk). Without an `index`
    /// (Gemini's OpenAI endpoint, some proxies send each call whole), a delta carrying a new id
    /// starts a new call and one without continues the last.
    fn slot(&self, index: Option<usize>, id: Option<&str>) -> usize {
        let id = id.filter(|id| !id.is_empty());
        if let Some((at, _)) = id.and_then(|id| self.calls.iter().find(|(_, call)| call.id.as_deref() == Some(id))) {
            return *at;
        }
        let last = self.calls.last().map(|(at, _)| *at);
        let next = last.map_or(0, |at| at + 1);
        let Some(index) = index else {
            return if id.is_some() { next } else { last.unwrap_or(0) };
        };
        match self.calls.iter().rev().find(|(_, call)| call.index == Some(index)) {
            Some((_, call)) if id.is_some() && json::parse("", &call.arguments).is_ok() => next,
            Some((at, _)) => *at,
            None if self.calls.iter().all(|(at, _)| *at != index) => index,
            None => next,
        }
    }

    /// The complete response: text, thinking and the tool calls with parsed arguments. As in ADK's
    /// LiteLLM adapter, a call whose arguments are not a JSON object is left out and reported as
    /// `MALFORMED_FUNCTION_CALL`, and a finish reason other than `STOP` makes an error response.
    pub fn finish(self) -> LlmResponse {
        let mut response = self.text.finish().unwrap_or_default();
        let mut parts = response.content.take().and_then(|c| c.parts).unwrap_or_default();
        let mut malformed = Vec::new();
        for (_, call) in self.calls {
            let arguments = if call.arguments.trim().is_empty() { "{}" } else { call.arguments.as_str() };
            match json::parse("arguments", arguments) {
                Ok(Value::Object(args)) if !call.name.is_empty() => {
                    // The shared constructor, its id set after: a literal here was another copy of
                    // the whole `Part` initialisation.
                    let mut part = Part::from_function_call(&call.name, args);
                    if let Some(function_call) = part.function_call.as_mut() {
                        function_call.id = call.id;
                    }
                    part.thought_signature = call.thought_signature;
                    parts.push(part);
                }
                _ => malformed.push(if call.name.is_empty() { "<unnamed>".to_string() } else { call.name }),
            }
        }
        response.content = Some(Content::new("model", parts));
        response.model_version = self.model;
        response.usage_metadata = self.usage;
        let malformed = (!malformed.is_empty()).then(|| {
            format!(
                "Arguments for the following function calls were not a valid JSON object: {}",
                join(&malformed, ", ")
            )
        });
        let reason = self.finish_reason.as_deref().map(finish_reason);
        (response.finish_reason, response.error_code, response.error_message) = match (reason, malformed) {
            (Some("STOP") | None, None) => (reason.map(str::to_string), None, None),
            (Some("STOP") | None, Some(message)) => {
                let code = Some("MALFORMED_FUNCTION_CALL".to_string());
                (code.clone(), code, Some(message))
            }
            (Some(reason), malformed) => {
                let text = if reason == "MAX_TOKENS" {
                    "Maximum tokens reached".into()
                } else {
                    format!("Finished with {reason}")
                };
                let message = malformed.map_or(text.clone(), |m| format!("{text}. {m}"));
                (Some(reason.to_string()), Some(reason.to_string()), Some(message))
            }
        };
        response
    }
}

/// ADK's LiteLLM mapping: tool calls are a normal stop, as Gemini reports them.
fn finish_reason(reason: &str) -> &'static str {
    match reason.to_ascii_lowercase().as_str() {
        "stop" | "tool_calls" | "function_call" => "STOP",
        "length" => "MAX_TOKENS",
        "content_filter" => "SAFETY",
        _ => "OTHER",
    }
}

impl MaybeError for Completion {
    fn take_error(&mut self) -> Option<Value> {
        self.error.take()
    }
}
