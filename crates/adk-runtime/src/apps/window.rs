//! Which events a compaction may summarize (ADK 2.x's `apps/compaction.py` helpers): only a range
//! that leaves no call waiting for its answer, and only when replacing it can shrink the request.

use crate::agents::llm::{apply_compaction, compaction_ranges, summary_events};
use crate::types::Content;
use adk_core::events::EventCompaction;

use crate::Event;

/// ADK's own calls to the app (credentials, confirmations, questions): expected to stay open.
const CLIENT_FUNCTION_CALL_NAMES: [&str; 3] =
    ["adk_request_credential", "adk_request_confirmation", "adk_request_input"];

fn call_ids(event: &Event) -> Vec<&str> {
    let mut ids = Vec::new();
    for call in event.get_function_calls() {
        ids.extend(call.id.as_deref());
    }
    ids
}

fn response_ids(event: &Event) -> Vec<&str> {
    let mut ids = Vec::new();
    for response in event.get_function_responses() {
        ids.extend(response.id.as_deref());
    }
    ids
}

/// The ids an event asks the app about (a confirmation or credentials): open until answered.
fn requested_ids(event: &Event) -> impl Iterator<Item = &str> {
    let actions = &event.actions;
    actions.requested_tool_confirmations.keys().chain(actions.requested_auth_configs.keys()).map(String::as_str)
}

/// The responses that settle their call: not the placeholder of a call still asking the app.
fn resolved_response_ids(event: &Event) -> Vec<&str> {
    let mut pending: Vec<&str> = Vec::new();
    pending.extend(requested_ids(event));
    let mut resolved = response_ids(event);
    resolved.retain(|id| !pending.contains(id));
    resolved
}

/// Calls opened in `events` that can never be answered (ADK's `_provably_dead_call_ids`): not a
/// long-running call still expected, not asked of the app by the newest invocation, answered
/// nowhere in the session, and not made by the newest invocation (which may still be running).
fn dead_call_ids<'a>(events: &[&'a Event], all: &[&'a Event], newest: Option<&str>) -> Vec<&'a str> {
    let mut protected: Vec<&str> = Vec::new();
    let mut answered: Vec<&str> = Vec::new();
    for event in all {
        let newest_or_unscoped = event.invocation_id.is_empty() || Some(event.invocation_id.as_str()) == newest;
        if let Some(long_running) = event.long_running_tool_ids.as_ref().filter(|ids| !ids.is_empty()) {
            let mut synthetic: Vec<&str> = Vec::new();
            for call in event.get_function_calls() {
                if call.name.as_deref().is_some_and(|n| CLIENT_FUNCTION_CALL_NAMES.contains(&n)) {
                    synthetic.extend(call.id.as_deref());
                }
            }
            let expected = long_running.iter().map(String::as_str);
            protected.extend(expected.filter(|id| newest_or_unscoped || !synthetic.contains(id)));
        }
        if newest_or_unscoped {
            protected.extend(requested_ids(event));
        }
        answered.extend(resolved_response_ids(event));
    }
    let mut dead = Vec::new();
    for event in events {
        if newest.is_some_and(|n| event.invocation_id == n) {
            continue;
        }
        for id in call_ids(event) {
            if !protected.contains(&id) && !answered.contains(&id) && !dead.contains(&id) {
                dead.push(id);
            }
        }
    }
    dead
}

/// How many leading `events` close every call and request they open, ignoring the `dead` ids.
fn balanced_length(events: &[&Event], dead: &[&str]) -> usize {
    let mut open: Vec<&str> = Vec::new();
    let mut safe = 0;
    for (i, event) in events.iter().enumerate() {
        let answered = response_ids(event);
        open.retain(|id| !answered.contains(id));
        for id in call_ids(event).into_iter().chain(requested_ids(event)) {
            if !dead.contains(&id) && !open.contains(&id) {
                open.push(id);
            }
        }
        if open.is_empty() {
            safe = i + 1;
        }
    }
    safe
}

/// The longest prefix of `events` that leaves no call or request without its answer (ADK's
/// `_longest_self_contained_prefix`). If a call that can never be answered (its process died)
/// stops it short, the calls of `all` proven dead are ignored, so one orphan does not block every
/// later compaction.
pub(super) fn longest_self_contained_prefix<'a>(mut events: Vec<&'a Event>, all: &[&'a Event]) -> Vec<&'a Event> {
    let safe = balanced_length(&events, &[]);
    if safe == events.len() {
        return events;
    }
    let ends_an_invocation = match (safe.checked_sub(1).and_then(|i| events.get(i)), events.get(safe)) {
        (Some(a), Some(b)) => a.invocation_id != b.invocation_id,
        _ => false,
    };
    if !ends_an_invocation {
        let newest = all
            .iter()
            .rev()
            .find(|e| !e.invocation_id.is_empty() && e.actions.compaction.is_none())
            .map(|e| e.invocation_id.as_str());
        let dead = dead_call_ids(&events, all, newest);
        if !dead.is_empty() {
            events.truncate(safe.max(balanced_length(&events, &dead)));
            return events;
        }
    }
    events.truncate(safe);
    events
}

/// The size of the content an event puts in a request: a summary's for a compaction event.
fn content_size(event: &Event) -> i64 {
    let content = event.actions.compaction.as_ref().map(|c| &c.compacted_content).or(event.content.as_ref());
    content.map_or(0, |c| adk_core::text::char_count(&adk_core::json::to_string(c)) as i64)
}

/// The size of `events` as a request carries them, compaction applied (ADK's `_serialized_size`
/// of `_process_compaction_events`, in characters of JSON).
fn request_size(events: &[&Event]) -> i64 {
    let summaries = summary_events(events, "");
    apply_compaction(events, &summaries).into_iter().map(content_size).sum()
}

/// Whether replacing `range` can shrink the request (ADK's `_is_range_worth_compacting`): what an
/// empty summary of it would remove must exceed the last summary written, the best guess of the
/// next one's size. Decided before the summarizer is paid for.
pub(super) fn is_range_worth_compacting(events: &[&Event], range: &[&Event]) -> bool {
    let timestamps = range.iter().map(|e| e.timestamp);
    let start = timestamps.clone().fold(f64::INFINITY, f64::min);
    let end = timestamps.fold(f64::NEG_INFINITY, f64::max);
    let mut weightless = Event::new("model");
    weightless.invocation_id = Event::new_id();
    let compacted_content = Content { role: Some("model".into()), parts: Some(Vec::new()) };
    weightless.actions.compaction =
        Some(EventCompaction { start_timestamp: start, end_timestamp: end, compacted_content });
    let mut with_summary = events.to_vec();
    with_summary.push(&weightless);
    let removable = request_size(events) - request_size(&with_summary);
    let previous = compaction_ranges(events).last().and_then(|(i, _, _)| events.get(*i)).map_or(0, |e| content_size(e));
    removable > previous
}
