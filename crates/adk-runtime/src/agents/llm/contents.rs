//! The conversation an LLM agent sends to its model (ADK's `contents` request processor).

use crate::types::{Content, Part};
use crate::Event;
use adk_core::json;

/// Whether an event on `event_branch` is visible from `branch`: everything is visible without
/// branches; otherwise only events of the same branch or of an ancestor branch.
fn visible_from(branch: Option<&str>, event_branch: Option<&str>) -> bool {
    match (branch, event_branch) {
        (Some(b), Some(e)) => b == e || b.strip_prefix(e).is_some_and(|rest| rest.starts_with('.')),
        _ => true,
    }
}

/// An event from another agent, retold to this agent as user-side context (ADK's
/// `_convert_foreign_event`): texts, calls and results prefixed by who produced them.
fn as_context(event: &Event) -> Content {
    let author = &event.author;
    let mut parts = vec![Part::from_text("For context:")];
    for part in event.parts() {
        if part.thought == Some(true) {
            continue;
        }
        let line = if let Some(text) = part.text.as_deref().filter(|t| !t.is_empty()) {
            format!("[{author}] said: {text}")
        } else if let Some(call) = &part.function_call {
            let args = json::to_string(&call.args.clone().unwrap_or_default());
            format!("[{author}] called tool `{}` with parameters: {args}", call.name.as_deref().unwrap_or_default())
        } else if let Some(response) = &part.function_response {
            let result = json::to_string(&response.response.clone().unwrap_or_default());
            format!("[{author}] `{}` tool returned result: {result}", response.name.as_deref().unwrap_or_default())
        } else {
            continue;
        };
        parts.push(Part::from_text(&line));
    }
    Content::new("user", parts)
}

/// Function-call ids made up by adk-wasm (`adk-…`) are not sent to the model.
fn without_client_ids(mut content: Content) -> Content {
    for part in content.parts.iter_mut().flatten() {
        if let Some(call) = &mut part.function_call {
            if call.id.as_deref().is_some_and(|id| id.starts_with("adk-")) {
                call.id = None;
            }
        }
        if let Some(response) = &mut part.function_response {
            if response.id.as_deref().is_some_and(|id| id.starts_with("adk-")) {
                response.id = None;
            }
        }
    }
    content
}

/// Whether the event has content worth sending.
fn has_content(event: &Event) -> bool {
    event.content.as_ref().is_some_and(|c| {
        c.role.as_deref().is_some_and(|r| !r.is_empty())
            && c.parts().iter().any(|p| {
                p.text.as_deref().is_some_and(|t| !t.is_empty())
                    || p.function_call.is_some()
                    || p.function_response.is_some()
                    || p.inline_data.is_some()
                    || p.file_data.is_some()
                    || p.executable_code.is_some()
                    || p.code_execution_result.is_some()
            })
    })
}

/// The contents for `agent_name` on `branch`: the session's events the agent can see, other agents'
/// turns retold as context, partial events and empty ones left out. With `current_turn_only`
/// (`include_contents: 'none'`), only what came since the last user message or other agent's turn.
pub fn build_contents<'a>(
    events: impl IntoIterator<Item = &'a Event>,
    agent_name: &str,
    branch: Option<&str>,
    current_turn_only: bool,
) -> Vec<Content> {
    let visible: Vec<&Event> = events
        .into_iter()
        .filter(|e| e.partial != Some(true) && has_content(e) && visible_from(branch, e.branch.as_deref()))
        .collect();
    let start = if current_turn_only {
        visible.iter().rposition(|e| e.author == "user" || e.author != agent_name).unwrap_or(0)
    } else {
        0
    };
    visible
        .get(start..)
        .unwrap_or_default()
        .iter()
        .map(|e| {
            let content = if e.author != agent_name && e.author != "user" {
                as_context(e)
            } else {
                e.content.clone().unwrap_or_default()
            };
            without_client_ids(content)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(author: &str, text: &str, branch: Option<&str>) -> Event {
        let mut e = Event::new(author);
        e.content = Some(Content::new(if author == "user" { "user" } else { "model" }, vec![Part::from_text(text)]));
        e.branch = branch.map(str::to_string);
        e
    }

    fn texts(contents: &[Content]) -> Vec<String> {
        contents.iter().map(|c| c.parts().iter().filter_map(|p| p.text.clone()).collect::<Vec<_>>().join("|")).collect()
    }

    #[test]
    fn branches_and_other_agents() {
        let events = vec![
            ev("user", "hi", None),
            ev("me", "hello", None),
            ev("other", "psst", Some("par.other")),
            ev("sibling", "mine", Some("par.me")),
        ];
        let seen = build_contents(&events, "me", Some("par.me"), false);
        assert_eq!(texts(&seen), ["hi", "hello", "For context:|[sibling] said: mine"]);
        let all = build_contents(&events, "me", None, false);
        assert_eq!(all.len(), 4);
        assert_eq!(all[2].role.as_deref(), Some("user"));
    }

    #[test]
    fn current_turn_only() {
        let events =
            vec![ev("user", "first", None), ev("me", "a1", None), ev("user", "second", None), ev("me", "a2", None)];
        assert_eq!(texts(&build_contents(&events, "me", None, true)), ["second", "a2"]);
    }

    #[test]
    fn client_ids_are_not_sent() {
        let mut e = Event::new("me");
        let mut part = Part::from_function_call("f", Default::default());
        part.function_call.as_mut().unwrap().id = Some("adk-123".into());
        e.content = Some(Content::new("model", vec![part]));
        let contents = build_contents(&[e], "me", None, false);
        assert_eq!(contents[0].parts()[0].function_call.as_ref().unwrap().id, None);
    }
}
