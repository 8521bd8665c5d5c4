//! A2A stream items → ADK events, following ADK's `RemoteA2aAgent` (1.x): status messages while
//! the task is submitted or working are thoughts; artifact chunks are partial events; a failed,
//! rejected or canceled task is an error event; any other state change that ends the stream is an
//! event, with or without a message. Unlike ADK, the event that ends an artifact holds
//! the *whole* reassembled artifact, not only its last chunk, so the stored answer is complete.

use serde_json::Value;

use super::parts::{from_a2a, is_thought, long_running};
use super::{ASK_FOR_AUTH, ASK_FOR_INPUT, CONTEXT_ID, REPLACE, RESUMED, TASK_ID, TASK_STATE};
use crate::a2a::{
    ArtifactAssembler, Message, Part as A2aPart, StreamItem, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState,
    TaskStatus,
};
use crate::types::{Content, FunctionCall, JsonObject, Part};
use crate::{platform, Event};

/// Turns one remote task's stream into events; `make` creates an empty event of the agent.
pub struct EventMapper<F: Fn() -> Event> {
    make: F,
    artifacts: ArtifactAssembler,
    task_id: Option<String>,
    context_id: Option<String>,
    state: Option<TaskState>,
}

impl<F: Fn() -> Event> EventMapper<F> {
    /// A mapper making events with `make`.
    pub fn new(make: F) -> Self {
        EventMapper { make, artifacts: ArtifactAssembler::new(), task_id: None, context_id: None, state: None }
    }

    /// The events for one stream item (often none: a bare "working" carries nothing to show).
    pub fn map(&mut self, item: StreamItem) -> Vec<Event> {
        match item {
            StreamItem::Resumed { attempt } => {
                // Partial, so it is shown but not stored: a UI can say the stream was resumed.
                let mut event = self.event(None);
                event.partial = Some(true);
                event.custom_metadata.get_or_insert_with(JsonObject::new).insert(RESUMED.into(), attempt.into());
                vec![event]
            }
            StreamItem::Event(StreamResponse::Message(message)) => {
                self.context_id = message.context_id.clone().or(self.context_id.take());
                let mut event = self.event(content(&message.parts));
                event.long_running_tool_ids = long_running(&message.parts);
                vec![event]
            }
            StreamItem::Event(StreamResponse::Task(task)) => self.task(task, false),
            StreamItem::Event(StreamResponse::StatusUpdate(update)) => {
                self.ids(&update.task_id, &update.context_id);
                self.status(update.status)
            }
            StreamItem::Event(StreamResponse::ArtifactUpdate(update)) => {
                self.ids(&update.task_id, &update.context_id);
                let mut events = Vec::new();
                events.extend(self.artifact(&update));
                events
            }
        }
    }

    /// The events for a whole task: a non-streaming answer, or the snapshot that opens a stream.
    /// A task as it stands: its artifacts are whole when it is done, or when it is a whole answer
    /// (`SendMessage`'s, not a stream's first item), as ADK turns such a task into finished events.
    pub fn task(&mut self, task: Task, whole: bool) -> Vec<Event> {
        self.ids(&task.id, &task.context_id);
        let mut events = Vec::new();
        let done = whole || task.status.state.is_terminal();
        for artifact in task.artifacts {
            let update = TaskArtifactUpdateEvent {
                task_id: task.id.clone(),
                context_id: task.context_id.clone(),
                artifact,
                append: false,
                last_chunk: done,
                metadata: None,
            };
            events.extend(self.artifact(&update));
        }
        events.extend(self.status(task.status));
        events
    }

    /// At the end of the stream: the artifacts whose last chunk never came, whole.
    pub fn finish(&mut self) -> Vec<Event> {
        let mut open: Vec<Content> = Vec::new();
        for artifact in self.artifacts.artifacts() {
            if !self.artifacts.is_complete(&artifact.artifact_id) {
                open.extend(content(&artifact.parts));
            }
        }
        let mut events = Vec::new();
        for c in open {
            events.push(self.event(Some(c)));
        }
        events
    }

    fn ids(&mut self, task_id: &str, context_id: &str) {
        if !task_id.is_empty() {
            self.task_id = Some(task_id.to_string());
        }
        if !context_id.is_empty() {
            self.context_id = Some(context_id.to_string());
        }
    }

    fn status(&mut self, status: TaskStatus) -> Vec<Event> {
        let state = status.state;
        self.state = Some(state.clone());
        let parts = status.message.as_ref().map(|m: &Message| m.parts.as_slice()).unwrap_or_default();
        // The error's text leaves the remote's thoughts out, as its answer does.
        let mut text = String::new();
        for part in parts.iter().filter(|p| !is_thought(p)) {
            text.extend(part.as_text());
        }
        match state {
            TaskState::Failed | TaskState::Rejected | TaskState::Canceled => {
                let mut event = self.event(content(parts));
                let what = state.as_str().strip_prefix("TASK_STATE_").unwrap_or(state.as_str()).to_string();
                event.error_code = Some(format!("A2A_TASK_{what}"));
                event.error_message =
                    Some(if text.is_empty() { format!("the remote task ended: {what}") } else { text });
                vec![event]
            }
            // Every part a thought, none left out (ADK marks them all, then keeps them all).
            TaskState::Submitted | TaskState::Working if !parts.is_empty() => {
                let mut thoughts = Vec::with_capacity(parts.len());
                for part in parts {
                    thoughts.push(Part { thought: Some(true), ..from_a2a(part) });
                }
                vec![self.event(Some(Content::new("model", thoughts)))]
            }
            TaskState::Submitted | TaskState::Working => Vec::new(),
            // A bare completed / input-required status is still stored (as ADK 2.x does), so the
            // next turn knows how the task stands.
            _ => {
                let mut event = self.event(content(parts));
                event.long_running_tool_ids = long_running(parts);
                ask_the_person(&mut event, &state);
                vec![event]
            }
        }
    }

    fn artifact(&mut self, update: &TaskArtifactUpdateEvent) -> Option<Event> {
        let replaces = !update.append && self.artifacts.get(&update.artifact.artifact_id).is_some();
        let whole = self.artifacts.apply(update).parts.clone();
        if update.last_chunk {
            return Some(self.event(content(&whole)));
        }
        let mut event = self.event(Some(content(&update.artifact.parts)?));
        event.partial = Some(true);
        if replaces {
            // This chunk is the artifact anew, not more of it: a UI appending partials must restart.
            event.custom_metadata.get_or_insert_with(JsonObject::new).insert(REPLACE.into(), true.into());
        }
        Some(event)
    }

    fn event(&self, content: Option<Content>) -> Event {
        let mut event = (self.make)();
        event.content = content;
        let meta = event.custom_metadata.get_or_insert_with(JsonObject::new);
        for (key, value) in [(TASK_ID, &self.task_id), (CONTEXT_ID, &self.context_id)] {
            if let Some(value) = value {
                meta.insert(key.into(), Value::from(value.as_str()));
            }
        }
        if let Some(state) = &self.state {
            meta.insert(TASK_STATE.into(), Value::from(state.as_str()));
        }
        event
    }
}

/// ADK 2.x's pause for a remote task that needs input or authentication: the last part with a
/// prompt becomes a long-running call (`mock_function_call_for_required_user_input` with
/// `{"input_required": prompt}`, or the `auth` pair), so the run pauses on it as on any other
/// question for the person.
fn ask_the_person(event: &mut Event, state: &TaskState) {
    let (name, key) = match state {
        TaskState::InputRequired => (ASK_FOR_INPUT, "input_required"),
        TaskState::AuthRequired => (ASK_FOR_AUTH, "auth_required"),
        _ => return,
    };
    if event.long_running_tool_ids.as_ref().is_some_and(|ids| !ids.is_empty()) {
        return;
    }
    let parts = event.content.as_mut().and_then(|c| c.parts.as_mut());
    let Some(part) =
        parts.and_then(|parts| parts.iter_mut().rev().find(|p| p.text.as_deref().is_some_and(|t| !t.is_empty())))
    else {
        return;
    };
    let prompt = part.text.take().unwrap_or_default();
    let id = platform::new_uuid();
    let args = adk_core::json::members([(key, Value::String(prompt))]);
    *part = Part {
        function_call: Some(FunctionCall {
            id: Some(id.clone()),
            name: Some(name.into()),
            args: Some(args),
            ..Default::default()
        }),
        ..Default::default()
    };
    // Inserted, not collected: collecting sorts first, with a sort of its own.
    let mut ids = adk_core::events::ToolIds::new();
    ids.insert(id);
    event.long_running_tool_ids = Some(ids);
}

fn content(parts: &[A2aPart]) -> Option<Content> {
    if parts.is_empty() {
        return None;
    }
    // The remote's thoughts beside its answer are left out of what the person is shown, as ADK's
    // RemoteA2aAgent leaves them out; a content of thoughts only (a working status) is kept.
    let thoughts_only = parts.iter().all(is_thought);
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        if thoughts_only || !is_thought(part) {
            out.push(from_a2a(part));
        }
    }
    Some(Content::new("model", out))
}
