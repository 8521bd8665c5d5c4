//! What a `RemoteA2aAgent` sends: the turns the remote agent has not seen yet, and the ids that
//! continue its conversation (ADK's `_construct_message_parts_from_session`).

use serde_json::Value;

use super::parts::to_a2a;
use super::{CONTEXT_ID, TASK_ID, TASK_STATE};
use crate::a2a::{Message, Part as A2aPart, Role, TaskState};
use crate::{platform, Event};

/// The message for this turn, or `None` when nothing new was said since the agent last answered.
pub fn build_message<'a>(agent_name: &str, events: impl IntoIterator<Item = &'a Event>) -> Option<Message> {
    let events: Vec<&Event> = events.into_iter().collect();
    let last = events.iter().rposition(|e| e.author == agent_name && remote_ids(e).0.is_some());
    let since = last.map_or(0, |i| i + 1);
    let mut parts: Vec<A2aPart> = Vec::new();
    for event in events.get(since..).unwrap_or_default() {
        if event.author == "user" {
            parts.extend(event.parts().iter().filter(|p| p.thought != Some(true)).filter_map(to_a2a));
        } else if event.author != agent_name && event.partial != Some(true) {
            // Another agent's reply is context for the remote agent, not its own words.
            let text: String = event.parts().iter().filter_map(|p| p.text.as_deref()).collect();
            if !text.is_empty() {
                parts.push(A2aPart::text(format!("For context: [{}] said: {text}", event.author)));
            }
        }
    }
    if parts.is_empty() {
        return None;
    }
    let (context_id, task_id, state) = last.and_then(|i| events.get(i)).map(|e| remote_ids(e)).unwrap_or_default();
    // An interrupted task (input or auth required) goes on with this message; a finished one does not.
    let task_id = task_id.filter(|_| state.as_ref().is_some_and(TaskState::is_interrupted));
    Some(Message {
        message_id: platform::new_uuid(),
        context_id,
        task_id,
        role: Role::User,
        parts,
        ..Default::default()
    })
}

/// The `a2a:context_id`, `a2a:task_id` and `a2a:task_state` an event of this agent carries.
fn remote_ids(event: &Event) -> (Option<String>, Option<String>, Option<TaskState>) {
    let meta = event.custom_metadata.as_ref();
    let get = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_str).map(str::to_string);
    (get(CONTEXT_ID), get(TASK_ID), get(TASK_STATE).map(|s| TaskState::parse(&s)))
}
