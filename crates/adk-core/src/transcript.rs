//! Folds an event stream into what a chat UI shows: one message per streamed reply (its partial
//! chunks merged, then replaced by the final event), tool calls and results as their own items,
//! state and artifact changes, transfers, escalations and errors.

use crate::json::{ToJson, Writer};
use indexmap::IndexMap;

use crate::types::JsonObject;
use crate::Event;

/// One thing to show. Its JSON is an object tagged by `kind` (`message`, `toolCall`, …) with the
/// variant's fields in camelCase.
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
    /// The model asked for a tool.
    ToolCall {
        /// The agent whose model asked.
        author: String,
        /// Call id.
        id: Option<String>,
        /// Tool name.
        name: Option<String>,
        /// Arguments.
        args: Option<JsonObject>,
    },
    /// A tool answered.
    ToolResult {
        /// The agent that ran the tool.
        author: String,
        /// Id of the call answered.
        id: Option<String>,
        /// Tool name.
        name: Option<String>,
        /// The result.
        response: Option<JsonObject>,
    },
    /// State changed.
    State {
        /// Who changed it.
        author: String,
        /// The changes.
        delta: JsonObject,
    },
    /// Artifacts were saved.
    Artifact {
        /// Who saved them.
        author: String,
        /// File name → version.
        delta: IndexMap<String, i64>,
    },
    /// The conversation moved to another agent.
    Transfer {
        /// Who handed over.
        author: String,
        /// To whom.
        to: String,
    },
    /// An agent escalated (ends a loop).
    Escalate {
        /// Who escalated.
        author: String,
    },
    /// An error event.
    Error {
        /// Whose.
        author: String,
        /// `errorCode`.
        code: String,
        /// `errorMessage`.
        message: Option<String>,
    },
}

impl ToJson for TranscriptItem {
    fn write_json(&self, w: &mut Writer) {
        let mut o = w.object();
        match self {
            TranscriptItem::Message { author, text, partial, event_id, invocation_id } => {
                o.field("kind", "message").field("author", author).field("text", text).field("partial", partial);
                o.field("eventId", event_id).field("invocationId", invocation_id)
            }
            TranscriptItem::ToolCall { author, id, name, args } => o
                .field("kind", "toolCall")
                .field("author", author)
                .field("id", id)
                .field("name", name)
                .field("args", args),
            TranscriptItem::ToolResult { author, id, name, response } => o
                .field("kind", "toolResult")
                .field("author", author)
                .field("id", id)
                .field("name", name)
                .field("response", response),
            TranscriptItem::State { author, delta } => {
                o.field("kind", "state").field("author", author).field("delta", delta)
            }
            TranscriptItem::Artifact { author, delta } => {
                o.field("kind", "artifact").field("author", author).field("delta", delta)
            }
            TranscriptItem::Transfer { author, to } => {
                o.field("kind", "transfer").field("author", author).field("to", to)
            }
            TranscriptItem::Escalate { author } => o.field("kind", "escalate").field("author", author),
            TranscriptItem::Error { author, code, message } => {
                o.field("kind", "error").field("author", author).field("code", code).field("message", message)
            }
        };
        o.end();
    }
}

/// The transcript so far.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    items: Vec<TranscriptItem>,
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
        let author = event.author.clone();
        let text: String =
            event.parts().iter().filter(|p| p.thought != Some(true)).filter_map(|p| p.text.as_deref()).collect();
        self.push_text(event, text);
        for call in event.get_function_calls() {
            self.items.push(TranscriptItem::ToolCall {
                author: author.clone(),
                id: call.id.clone(),
                name: call.name.clone(),
                args: call.args.clone(),
            });
        }
        for response in event.get_function_responses() {
            self.items.push(TranscriptItem::ToolResult {
                author: author.clone(),
                id: response.id.clone(),
                name: response.name.clone(),
                response: response.response.clone(),
            });
        }
        let actions = &event.actions;
        if !actions.state_delta.is_empty() {
            self.items.push(TranscriptItem::State { author: author.clone(), delta: actions.state_delta.clone() });
        }
        if !actions.artifact_delta.is_empty() {
            self.items.push(TranscriptItem::Artifact { author: author.clone(), delta: actions.artifact_delta.clone() });
        }
        if let Some(to) = &actions.transfer_to_agent {
            self.items.push(TranscriptItem::Transfer { author: author.clone(), to: to.clone() });
        }
        if actions.escalate == Some(true) {
            self.items.push(TranscriptItem::Escalate { author: author.clone() });
        }
        if let Some(code) = event.error_code.as_ref().filter(|c| !c.is_empty()) {
            self.items.push(TranscriptItem::Error { author, code: code.clone(), message: event.error_message.clone() });
        }
    }

    /// Merges a chunk into the author's streaming message, or lets the final event replace it.
    fn push_text(&mut self, event: &Event, text: String) {
        let partial = event.partial == Some(true);
        if let Some(TranscriptItem::Message { author, text: so_far, partial: streaming, event_id, .. }) =
            self.items.last_mut()
        {
            if *streaming && *author == event.author {
                if partial {
                    so_far.push_str(&text);
                } else {
                    *streaming = false;
                    if !text.is_empty() {
                        *so_far = text;
                    }
                }
                *event_id = event.id.clone();
                return;
            }
        }
        if !text.is_empty() {
            self.items.push(TranscriptItem::Message {
                author: event.author.clone(),
                text,
                partial,
                event_id: event.id.clone(),
                invocation_id: event.invocation_id.clone(),
            });
        }
    }
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
}
