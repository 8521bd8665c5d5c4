//! Folds an event stream into what a chat UI shows: one message per streamed reply (its partial
//! chunks merged, then replaced by the final event), tool calls and results as their own items,
//! code the model ran and its results between the texts around them, the sources a grounded reply
//! cites, state and artifact changes, transfers, escalations and errors.

use crate::json::{self, ObjectWriter, ToJson, Writer};
use serde_json::Value;

use crate::types::{JsonObject, Part};
use crate::Event;

/// One thing to show. Its JSON is an object tagged by `kind` with the item's fields in camelCase:
/// - `message` (`author`, `text`, `partial`, `eventId`, `invocationId`): text from the user or an
///   agent, `partial` while chunks are still streaming;
/// - `toolCall` (`author`, `id`, `name`, `args`) and `toolResult` (`author`, `id`, `name`,
///   `response`): the model asked for a tool, a tool answered;
/// - `code` (`author`, `language`, `code`) and `codeResult` (`author`, `outcome`, `output`): code
///   the model wrote and ran itself (Gemini's code execution), and what running it gave;
/// - `grounding` (`author`, `queries`, `sources` of `{uri, title}`, `searchEntryPoint`): what a
///   grounded reply rests on: the searches, the pages or places cited, and Google's search
///   suggestions as HTML, which Google asks apps to show (markup from the event, to put in a
///   sandboxed frame, never the page);
/// - `state` and `artifact` (`author`, `delta`): state changed, artifacts were saved (file name →
///   version);
/// - `transfer` (`author`, `to`), `escalate` (`author`), `error` (`author`, `code`, `message`).
#[derive(Debug, Clone, PartialEq)]
pub enum TranscriptItem {
    /// Text from the user or an agent; `partial` while chunks are still streaming.
    Message {
        /// `user` or the agent's name.
        author: String,
        /// The text so far (the final text once the reply is complete).
        text: String,
        /// Still streaming.
        partial: bool,
        /// Id of the last event merged into it.
        event_id: String,
        /// The invocation it belongs to.
        invocation_id: String,
    },
    /// Any other item, as its JSON text: it never changes once folded in, so it is written then,
    /// from the event's own values (nothing copied to be written later).
    Written(String),
}

impl ToJson for TranscriptItem {
    fn write_json(&self, w: &mut Writer) {
        match self {
            TranscriptItem::Message { author, text, partial, event_id, invocation_id } => {
                let mut o = w.object();
                o.field("kind", "message").field("author", author).field("text", text).field("partial", partial);
                o.field("eventId", event_id).field("invocationId", invocation_id);
                o.end();
            }
            TranscriptItem::Written(json) => w.raw(json),
        }
    }
}

/// The transcript so far.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    items: Vec<TranscriptItem>,
    /// The reply whose partial chunks are showing: its author and its first item.
    stream: Option<(String, usize)>,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Self {
        Self::default()
    }

    /// The items, oldest first.
    pub fn items(&self) -> &[TranscriptItem] {
        &self.items
    }

    /// Folds one more event in.
    pub fn push(&mut self, event: &Event) {
        // An event that only acts (ADK's code executor saving artifacts before the reply's own
        // event) leaves a streaming reply streaming; its items go before the reply's.
        if event.content.is_none() && event.error_code.is_none() {
            if let Some((author, start)) = self.stream.take() {
                let reply = self.items.split_off(start.min(self.items.len()));
                self.push_actions(event);
                self.stream = Some((author, self.items.len()));
                self.items.extend(reply);
                return;
            }
        }
        let author = &event.author;
        let partial = event.partial == Some(true);
        // A reply streams while its author's partial chunks follow each other; its complete event
        // replaces everything they showed.
        let mut streamed = String::new();
        match self.stream.take() {
            Some((streaming, start)) if streaming == *author => {
                if partial {
                    self.stream = Some((streaming, start));
                } else {
                    streamed = self.take_from(start);
                }
            }
            _ if partial => self.stream = Some((author.clone(), self.items.len())),
            _ => {}
        }
        self.push_parts(event, partial, streamed);
        // Every call, then every response, read off the parts in place (no lists of them built).
        for call in event.parts().iter().filter_map(|p| p.function_call.as_ref()) {
            self.push_written("toolCall", author, &mut |o| {
                o.field("id", &call.id).field("name", &call.name).field("args", &call.args);
            });
        }
        for response in event.parts().iter().filter_map(|p| p.function_response.as_ref()) {
            self.push_written("toolResult", author, &mut |o| {
                o.field("id", &response.id).field("name", &response.name).field("response", &response.response);
            });
        }
        if let Some(grounding) = event.grounding_metadata.as_ref().filter(|_| !partial) {
            self.push_grounding(author, grounding);
        }
        self.push_actions(event);
    }

    /// Adds an item other than a message: its `kind` and `author`, then what `members` writes.
    fn push_written(&mut self, kind: &str, author: &str, members: &mut dyn FnMut(&mut ObjectWriter<'_>)) {
        let mut w = Writer::new();
        let mut o = w.object();
        o.field("kind", kind).field("author", author);
        members(&mut o);
        o.end();
        self.items.push(TranscriptItem::Written(w.into_string()));
    }

    /// The event's state and artifact changes, transfer, escalation and error.
    fn push_actions(&mut self, event: &Event) {
        let (author, actions) = (&event.author, &event.actions);
        if !actions.state_delta.is_empty() {
            self.push_written("state", author, &mut |o| {
                o.field("delta", &actions.state_delta);
            });
        }
        if !actions.artifact_delta.is_empty() {
            self.push_written("artifact", author, &mut |o| {
                o.field("delta", &actions.artifact_delta);
            });
        }
        if let Some(to) = &actions.transfer_to_agent {
            self.push_written("transfer", author, &mut |o| {
                o.field("to", to);
            });
        }
        if actions.escalate == Some(true) {
            self.push_written("escalate", author, &mut |_| {});
        }
        if let Some(code) = event.error_code.as_ref().filter(|c| !c.is_empty()) {
            self.push_written("error", author, &mut |o| {
                o.field("code", code).field("message", &event.error_message);
            });
        }
    }

    /// Removes the items from `start` on; returns their text.
    fn take_from(&mut self, start: usize) -> String {
        let mut text = String::new();
        for item in self.items.split_off(start.min(self.items.len())) {
            if let TranscriptItem::Message { text: t, .. } = item {
                text.push_str(&t);
            }
        }
        text
    }

    /// The event's text, code and code results in the order of its parts (thoughts aside). A
    /// complete event without text keeps the text its chunks streamed.
    fn push_parts(&mut self, event: &Event, partial: bool, streamed: String) {
        let mut text = String::new();
        let mut any_text = false;
        for part in event.parts().iter().filter(|p| p.thought != Some(true)) {
            if let Some(t) = &part.text {
                text.push_str(t);
                any_text |= !t.is_empty();
            } else if part.executable_code.is_some() || part.code_execution_result.is_some() {
                self.push_text(event, std::mem::take(&mut text), partial);
                self.push_code(&event.author, part);
            }
        }
        self.push_text(event, if any_text { text } else { streamed }, partial);
    }

    /// Merges a chunk's text into the author's streaming message, or adds a message.
    fn push_text(&mut self, event: &Event, text: String, partial: bool) {
        if text.is_empty() {
            return;
        }
        if let Some(TranscriptItem::Message { author, text: so_far, partial: true, event_id, .. }) =
            self.items.last_mut()
        {
            if partial && *author == event.author {
                so_far.push_str(&text);
                event_id.clone_from(&event.id);
                return;
            }
        }
        self.items.push(TranscriptItem::Message {
            author: event.author.clone(),
            text,
            partial,
            event_id: event.id.clone(),
            invocation_id: event.invocation_id.clone(),
        });
    }

    /// The item of a code or code-result part.
    fn push_code(&mut self, author: &str, part: &Part) {
        if let Some(code) = &part.executable_code {
            let source = code.code.as_deref().unwrap_or_default();
            self.push_written("code", author, &mut |o| {
                o.field("language", &code.language).field("code", source);
            });
        } else if let Some(result) = &part.code_execution_result {
            self.push_written("codeResult", author, &mut |o| {
                o.field("outcome", &result.outcome).field("output", &result.output);
            });
        }
    }

    /// The searches, sources and search suggestions of `groundingMetadata` (genai's shape; anything
    /// else in it is left out).
    fn push_grounding(&mut self, author: &str, grounding: &JsonObject) {
        let list = |key: &str| json::field(grounding, key).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let entry_point = json::field(grounding, "searchEntryPoint").and_then(|e| json::member(e, "renderedContent"));
        self.push_written("grounding", author, &mut |o| {
            o.field_with("queries", |w| {
                w.array_of(list("webSearchQueries").iter().filter_map(Value::as_str), Writer::str)
            });
            let sources = list("groundingChunks").iter().filter_map(|chunk| {
                ["web", "retrievedContext", "maps"].iter().find_map(|kind| json::member(chunk, kind))
            });
            o.field_with("sources", |w| {
                w.array_of(sources, |w, source| {
                    let mut s = w.object();
                    s.field("uri", &text(json::member(source, "uri")))
                        .field("title", &text(json::member(source, "title")));
                    s.end();
                })
            });
            o.field("searchEntryPoint", &text(entry_point));
        });
    }
}

/// A member's text, if it is a string.
fn text(value: Option<&Value>) -> Option<&str> {
    value.and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Content, Part};
    use serde_json::json;

    fn ev(author: &str, text: &str, partial: bool) -> Event {
        let mut e = Event::new(author);
        e.content = Some(Content::model_text(text));
        e.partial = Some(partial).filter(|p| *p);
        e
    }

    #[test]
    fn chunks_merge_and_the_final_event_replaces_them() {
        let mut t = Transcript::new();
        t.push(&ev("user", "hi", false));
        t.push(&ev("bot", "Hel", true));
        t.push(&ev("bot", "lo", true));
        assert!(matches!(&t.items()[1], TranscriptItem::Message { text, partial: true, .. } if text == "Hello"));
        t.push(&ev("bot", "Hello!", false));
        assert_eq!(t.items().len(), 2);
        assert!(matches!(&t.items()[1], TranscriptItem::Message { text, partial: false, .. } if text == "Hello!"));
        t.push(&ev("bot", "Next", false));
        assert_eq!(t.items().len(), 3, "a new final message is its own item");
    }

    #[test]
    fn tools_state_transfer_escalate_error() {
        let mut t = Transcript::new();
        let mut call = Event::new("bot");
        call.content = Some(Content::new(
            "model",
            vec![Part::from_function_call("add", json!({"a": 1}).as_object().cloned().unwrap())],
        ));
        t.push(&call);
        let mut result = Event::new("bot");
        result.content = Some(Content::new(
            "user",
            vec![Part::from_function_response("add", json!({"result": 2}).as_object().cloned().unwrap())],
        ));
        result.actions.state_delta.insert("user:sum".into(), json!(2));
        result.actions.transfer_to_agent = Some("other".into());
        result.actions.escalate = Some(true);
        t.push(&result);
        let mut err = Event::new("bot");
        err.error_code = Some("SAFETY".into());
        t.push(&err);
        let kinds: Vec<String> =
            t.items().iter().map(|i| crate::json::to_value(i)["kind"].as_str().unwrap().to_string()).collect();
        assert_eq!(kinds, ["toolCall", "toolResult", "state", "transfer", "escalate", "error"]);
    }

    fn reply(parts: serde_json::Value, partial: bool) -> Event {
        let mut e = Event::new("coder");
        e.content = Some(crate::json::from_value("content", json!({"role": "model", "parts": parts})).unwrap());
        e.partial = Some(partial).filter(|p| *p);
        e
    }

    fn json_items(t: &Transcript) -> Vec<serde_json::Value> {
        t.items().iter().map(|item| crate::json::to_value(item)).collect()
    }

    /// Code and its result sit between the texts around them; streamed, they show as they come and
    /// the complete event replaces them, so nothing shows twice.
    #[test]
    fn code_and_results_in_the_order_of_the_parts() {
        let code = json!({"executableCode": {"language": "PYTHON", "code": "print(1 + 1)"}});
        let result = json!({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "2\n"}});
        let mut t = Transcript::new();
        for chunk in [json!([{"text": "Let me "}]), json!([{"text": "run it."}, code]), json!([result])] {
            t.push(&reply(chunk, true));
        }
        t.push(&reply(json!([{"text": "It is "}]), true));
        let kinds: Vec<_> = json_items(&t).iter().map(|i| i["kind"].as_str().unwrap().to_string()).collect();
        assert_eq!(kinds, ["message", "code", "codeResult", "message"]);
        // ADK's code executor saves the images first, in an event of its own.
        let mut saved = Event::new("coder");
        saved.actions.artifact_delta.insert("plot.png".into(), 0);
        t.push(&saved);
        t.push(&reply(json!([{"text": "Let me run it."}, code, result, {"text": "It is 2."}]), false));
        assert_eq!(
            json_items(&t)
                .iter()
                .map(|i| i.as_object().unwrap().clone())
                .map(|mut i| {
                    i.remove("eventId");
                    i.remove("invocationId");
                    serde_json::Value::Object(i)
                })
                .collect::<Vec<_>>(),
            [
                json!({"kind": "artifact", "author": "coder", "delta": {"plot.png": 0}}),
                json!({"kind": "message", "author": "coder", "text": "Let me run it.", "partial": false}),
                json!({"kind": "code", "author": "coder", "language": "PYTHON", "code": "print(1 + 1)"}),
                json!({"kind": "codeResult", "author": "coder", "outcome": "OUTCOME_OK", "output": "2\n"}),
                json!({"kind": "message", "author": "coder", "text": "It is 2.", "partial": false}),
            ]
        );
    }

    #[test]
    fn grounding_gives_the_queries_sources_and_search_suggestions() {
        let mut t = Transcript::new();
        let mut e = reply(json!([{"text": "Sunny."}]), false);
        e.grounding_metadata = json!({
            "webSearchQueries": ["weather seoul"],
            "groundingChunks": [{"web": {"uri": "https://example.com/w", "title": "example.com"}}, {"maps": {"uri": "https://maps.example/p"}}, {}],
            "searchEntryPoint": {"renderedContent": "<div>chips</div>"},
            "groundingSupports": [{"segment": {"endIndex": 6}, "groundingChunkIndices": [0]}],
        })
        .as_object()
        .cloned();
        t.push(&e);
        assert_eq!(
            crate::json::to_value(&t.items()[1]),
            json!({"kind": "grounding", "author": "coder", "queries": ["weather seoul"],
                   "sources": [{"uri": "https://example.com/w", "title": "example.com"}, {"uri": "https://maps.example/p", "title": null}],
                   "searchEntryPoint": "<div>chips</div>"})
        );
    }
}
