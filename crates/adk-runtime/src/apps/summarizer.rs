//! What writes a compaction's summary (ADK's `BaseEventsSummarizer`), and the one ADK ships:
//! `LlmEventSummarizer`, which asks a model to summarize the events as one prompt.

use adk_core::text::join;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use futures_util::StreamExt;

use crate::agents::llm::python_str;
use crate::cancellation::Cancellation;
use crate::model::{BaseLlm, LlmRequest};
use crate::python_format::format_named;
use crate::types::{Content, Part};
use crate::{AdkError, Event, EventActions};
use adk_core::events::EventCompaction;

/// The summary of some events, or `None` when there is none to write.
pub type SummaryFuture<'a> = Pin<Box<dyn Future<Output = Result<Option<Event>, AdkError>> + 'a>>;

/// Turns a list of events into one compaction event (ADK's `BaseEventsSummarizer`).
pub trait BaseEventsSummarizer {
    /// The compaction event summarizing `events`, or `None` if there is no summary. `cancellation`
    /// fires when the run that compacts is stopped.
    fn maybe_summarize_events<'a>(&'a self, events: &'a [Event], cancellation: Rc<Cancellation>) -> SummaryFuture<'a>;
}

/// ADK 2.x's prompt, word for word.
pub const DEFAULT_PROMPT_TEMPLATE: &str = "The following is a conversation history between a user and an AI agent. \
It may or may not start from a compacted history. Please identify and reiterate the user request, summarize the \
context so far, focusing on key decisions made and information obtained, as well as any unresolved questions or \
tasks. CRITICAL INSTRUCTIONS: 1. Explicitly identify and state the primary language used by the user at the top of \
your summary (e.g., \"Conversation Language: English\"). 2. If the agent called any tools, accurately list the exact \
tool names used to maintain tool grounding. The rest of the summary should be concise and capture the essence of \
the interaction.\n\n{conversation_history}";

/// Tool arguments and results are cut to this many characters: a summary is meant to shrink the
/// context, not to copy search results into it.
const MAX_TOOL_CONTENT_CHARS: usize = 2000;

/// Summarizes events with a model (ADK's `LlmEventSummarizer`).
pub struct LlmEventSummarizer {
    llm: Rc<dyn BaseLlm>,
    prompt_template: String,
}

impl LlmEventSummarizer {
    /// A summarizer asking `llm`, with ADK's prompt or `prompt_template`, whose one placeholder
    /// `{conversation_history}` becomes the events (`{{` and `}}` are braces, as in Python's
    /// `str.format`). A template with any other placeholder is refused here, where ADK would fail
    /// at every compaction.
    pub fn new(llm: Rc<dyn BaseLlm>, prompt_template: Option<&str>) -> Result<Self, AdkError> {
        let prompt_template = prompt_template.filter(|t| !t.is_empty()).unwrap_or(DEFAULT_PROMPT_TEMPLATE).to_string();
        fill_template(&prompt_template, String::new())?;
        Ok(LlmEventSummarizer { llm, prompt_template })
    }
}

/// Python's `template.format(conversation_history=history)`.
fn fill_template(template: &str, history: String) -> Result<String, AdkError> {
    format_named(template, &[("conversation_history", history)], true).map_err(|_| {
        AdkError::invalid(
            "prompt_template: its only placeholder can be {conversation_history} (write {{ and }} for braces)",
        )
    })
}

/// `text` cut to the tool-content limit, saying how much was dropped.
fn truncate(text: String) -> String {
    let total = adk_core::text::char_count(&text);
    if total <= MAX_TOOL_CONTENT_CHARS {
        return text;
    }
    let kept = adk_core::text::first_chars(&text, MAX_TOOL_CONTENT_CHARS);
    format!("{kept}... [truncated {} chars]", total - MAX_TOOL_CONTENT_CHARS)
}

/// Python's `str()` of an optional JSON object: `None`, or its dict repr.
fn python_dict(value: Option<&crate::types::JsonObject>) -> String {
    value.map_or_else(|| "None".to_string(), |v| python_str(&serde_json::Value::Object(v.clone())))
}

/// The events as prompt lines (ADK's `_format_events_for_prompt`): texts, thoughts (but a prior
/// summary's), tool calls and responses; credential requests are left out, their payload being
/// the person's credential.
pub fn format_events_for_prompt(events: &[Event]) -> String {
    let mut lines = Vec::new();
    for event in events {
        let is_auth = event.parts().iter().any(|p| {
            p.function_call.as_ref().and_then(|c| c.name.as_deref()) == Some("adk_request_credential")
                || p.function_response.as_ref().and_then(|r| r.name.as_deref()) == Some("adk_request_credential")
        });
        if is_auth {
            continue;
        }
        let author = &event.author;
        let is_compaction = event.actions.compaction.is_some();
        for part in event.parts() {
            match part.text.as_deref().filter(|t| !t.is_empty()) {
                // A prior summary's thoughts stay out of the next one.
                Some(_) if part.thought == Some(true) && is_compaction => {}
                Some(text) if part.thought == Some(true) => lines.push(format!("{author} (thought): {text}")),
                Some(text) => lines.push(format!("{author}: {text}")),
                None => {}
            }
            if let Some(call) = &part.function_call {
                let args = truncate(python_dict(call.args.as_ref()));
                lines.push(format!("{author} called tool: {}({args})", call.name.as_deref().unwrap_or("None")));
            }
            if let Some(response) = &part.function_response {
                let value = truncate(python_dict(response.response.as_ref()));
                lines.push(format!("Tool response from {}: {value}", response.name.as_deref().unwrap_or("None")));
            }
        }
    }
    join(&lines, "\n")
}

impl BaseEventsSummarizer for LlmEventSummarizer {
    fn maybe_summarize_events<'a>(&'a self, events: &'a [Event], cancellation: Rc<Cancellation>) -> SummaryFuture<'a> {
        Box::pin(async move {
            let (Some(first), Some(last)) = (events.first(), events.last()) else { return Ok(None) };
            let prompt = fill_template(&self.prompt_template, format_events_for_prompt(events))?;
            let request = LlmRequest {
                model: Some(self.llm.model().to_string()),
                contents: vec![Content::new("user", vec![Part::from_text(&prompt)])],
                ..Default::default()
            };
            let mut responses = self.llm.generate_content(request, false, cancellation);
            let mut summary = None;
            while let Some(response) = responses.next().await {
                let response = response?;
                if let Some(content) = response.content {
                    summary = Some((content, response.usage_metadata));
                    break;
                }
            }
            let Some((mut compacted_content, usage_metadata)) = summary else { return Ok(None) };
            compacted_content.role = Some("model".into());
            let compaction =
                EventCompaction { start_timestamp: first.timestamp, end_timestamp: last.timestamp, compacted_content };
            let mut event = Event::new("user");
            event.actions = EventActions { compaction: Some(compaction), ..Default::default() };
            event.invocation_id = Event::new_id();
            event.usage_metadata = usage_metadata;
            Ok(Some(event))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn templates_as_python_formats_them() {
        assert_eq!(fill_template("a {{x}} {conversation_history}!", "H".into()).unwrap(), "a {x} H!");
        assert!(fill_template("{other}", String::new()).is_err());
        assert!(fill_template("a } b", String::new()).is_err());
    }

    #[test]
    fn events_as_adk_formats_them() {
        let mut call = Event::new("calc");
        let args = json!({"a": 1, "b": "x"}).as_object().cloned().unwrap();
        call.content =
            Some(Content::new("model", vec![Part::from_text("Let me add."), Part::from_function_call("add", args)]));
        let mut answer = Event::new("calc");
        let mut response = Part::from_function_call("add", Default::default());
        response.function_call = None;
        response.function_response = Some(crate::FunctionResponse {
            name: Some("add".into()),
            response: json!({"sum": "y".repeat(2005)}).as_object().cloned(),
            ..Default::default()
        });
        answer.content = Some(Content::new("user", vec![response]));
        let text = format_events_for_prompt(&[call, answer]);
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(lines[0], "calc: Let me add.");
        assert_eq!(lines[1], "calc called tool: add({'a': 1, 'b': 'x'})");
        assert!(lines[2].starts_with("Tool response from add: {'sum': 'yyy"), "{}", lines[2]);
        assert!(lines[2].ends_with("yyy... [truncated 16 chars]"), "{}", lines[2]);
    }
}
