//! Compaction by prompt size (ADK 2.x's `_run_compaction_for_token_threshold_config`): once the
//! prompt the model last reported (or, with no report, ADK's estimate of it) reaches
//! `token_threshold` tokens, everything since the last summary but the latest
//! `event_retention_size` events is summarized, the last summary first, so the new one supersedes it
//! (a rolling summary). The split moves earlier rather than keep a response without its call.

use adk_core::text::char_count;

use crate::agents::llm::{build_contents, compaction_ranges, python_json};
use crate::types::Content;
use crate::Event;

use super::window::{is_range_worth_compacting, longest_self_contained_prefix};
use super::EventsCompactionConfig;

/// The events to summarize now if `config` sets the token trigger and the prompt of `agent_name`
/// (any agent's when empty) on `branch` reached it; empty otherwise, or when summarizing them could
/// not shrink the request. `events` are the session's, isolated turns left out.
pub(super) fn token_threshold_range(
    config: &EventsCompactionConfig,
    events: &[&Event],
    agent_name: &str,
    branch: Option<&str>,
) -> Vec<Event> {
    let (Some(threshold), Some(retention)) = (config.token_threshold, config.event_retention_size) else {
        return Vec::new();
    };
    if latest_prompt_token_count(events, agent_name, branch).is_none_or(|count| count < threshold) {
        return Vec::new();
    }
    let range = events_to_compact(events, usize::try_from(retention).unwrap_or(usize::MAX));
    let mut refs: Vec<&Event> = Vec::with_capacity(range.len());
    for event in range.iter() {
        refs.push(event);
    }
    if range.is_empty() || !is_range_worth_compacting(events, &refs) {
        return Vec::new();
    }
    range
}

/// ADK's rough estimate of a prompt's tokens (`_estimate_prompt_token_count`): four characters a
/// token over the texts, tool names and JSON arguments and results of the contents the agent would
/// send. `None` for an empty prompt.
fn estimate_prompt_token_count(events: &[&Event], agent_name: &str, branch: Option<&str>) -> Option<i64> {
    let contents = build_contents(events.iter().copied(), agent_name, branch, false);
    let chars: usize = contents.iter().map(count_chars).sum();
    (chars > 0).then(|| i64::try_from(chars / 4).unwrap_or(i64::MAX))
}

/// The characters ADK counts in a content (`_count_chars_in_content`).
fn count_chars(content: &Content) -> usize {
    let mut total = 0;
    for part in content.parts.as_deref().unwrap_or_default() {
        total += part.text.as_deref().map_or(0, char_count);
        if let Some(call) = &part.function_call {
            total += call.name.as_deref().map_or(0, char_count);
            total += call.args.as_ref().filter(|a| !a.is_empty()).map_or(0, ascii_json_len);
        }
        if let Some(response) = &part.function_response {
            total += response.name.as_deref().map_or(0, char_count);
            total += response.response.as_ref().filter(|r| !r.is_empty()).map_or(0, ascii_json_len);
        }
    }
    total
}

/// The length of Python's `json.dumps(value)`: its separators, and each character past `~` as
/// `\uXXXX` (two of them beyond the BMP).
fn ascii_json_len(value: &crate::types::JsonObject) -> usize {
    let json = python_json(&serde_json::Value::Object(value.clone()));
    json.chars().map(|c| if c.is_ascii() && c != '\u{7f}' { 1 } else { 6 * c.len_utf16() }).sum()
}

/// The prompt size the model last reported for `agent_name` (any author when empty) since the last
/// summary, or the estimate (ADK's `_latest_prompt_token_count`): a count at or before a summary
/// describes a prompt it replaced, and another agent's count another context.
fn latest_prompt_token_count(events: &[&Event], agent_name: &str, branch: Option<&str>) -> Option<i64> {
    for event in events.iter().rev() {
        if event.actions.compaction.is_some() {
            break;
        }
        let count = event.usage_metadata.as_ref().and_then(|u| u.prompt_token_count);
        if count.is_some() && (agent_name.is_empty() || event.author == agent_name) {
            return count;
        }
    }
    estimate_prompt_token_count(events, agent_name, branch)
}

/// Where the retained tail can start so that none of its responses lost its call (ADK's
/// `_safe_token_compaction_split_index`): the latest index at or before `len - retention` past
/// which every response's call is kept too; 0 when there is none.
fn safe_split_index(candidates: &[&Event], retention: usize) -> usize {
    let initial = candidates.len().saturating_sub(retention);
    if initial == 0 {
        return 0;
    }
    let mut unmatched: Vec<&str> = Vec::new();
    for (i, event) in candidates.iter().enumerate().rev() {
        for response in event.get_function_responses() {
            if let Some(id) = response.id.as_deref().filter(|id| !unmatched.contains(id)) {
                unmatched.push(id);
            }
        }
        let calls = event.get_function_calls();
        unmatched.retain(|id| !calls.iter().any(|c| c.id.as_deref() == Some(*id)));
        if unmatched.is_empty() && i <= initial {
            return i;
        }
    }
    0
}

/// What a token-triggered compaction summarizes (ADK's `_events_to_compact_for_token_threshold`):
/// the events after the last summary but the latest `retention`, cut where no call is left open,
/// preceded by the last summary as the model's turn at its start, so the new summary's range
/// contains the old one's. Empty when there is nothing to summarize.
fn events_to_compact(events: &[&Event], retention: usize) -> Vec<Event> {
    let latest = compaction_ranges(events).last().and_then(|(i, _, _)| events.get(*i).copied());
    let last_end = latest.and_then(|e| e.actions.compaction.as_ref()).map_or(0.0, |c| c.end_timestamp);
    let mut candidates: Vec<&Event> = Vec::new();
    for &event in events {
        if event.actions.compaction.is_none() && event.timestamp > last_end {
            candidates.push(event);
        }
    }
    if candidates.len() <= retention {
        return Vec::new();
    }
    let split = if retention == 0 { candidates.len() } else { safe_split_index(&candidates, retention) };
    let range = longest_self_contained_prefix(candidates.get(..split).unwrap_or_default().to_vec(), events);
    if range.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(range.len() + 1);
    if let Some(previous) = latest {
        if let Some(compaction) = &previous.actions.compaction {
            let mut seed = Event::new("model");
            seed.timestamp = compaction.start_timestamp;
            seed.content = Some(compaction.compacted_content.clone());
            seed.branch.clone_from(&previous.branch);
            seed.isolation_scope.clone_from(&previous.isolation_scope);
            seed.invocation_id = Event::new_id();
            out.push(seed);
        }
    }
    out.extend(range.into_iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{FunctionCall, FunctionResponse, Part, UsageMetadata};
    use adk_core::events::EventCompaction;

    fn at(ts: f64, author: &str, parts: Vec<Part>) -> Event {
        let mut e = Event::new(author);
        e.timestamp = ts;
        e.invocation_id = format!("i{}", ts as i64);
        e.content = Some(Content::new(if author == "user" { "user" } else { "model" }, parts));
        e
    }

    fn call(id: &str) -> Part {
        Part {
            function_call: Some(FunctionCall { id: Some(id.into()), name: Some("f".into()), ..Default::default() }),
            ..Default::default()
        }
    }

    fn response(id: &str) -> Part {
        let response = FunctionResponse { id: Some(id.into()), name: Some("f".into()), ..Default::default() };
        Part { function_response: Some(response), ..Default::default() }
    }

    fn texts(events: &[Event]) -> Vec<f64> {
        events.iter().map(|e| e.timestamp).collect()
    }

    #[test]
    fn the_split_keeps_a_retained_response_with_its_call() {
        let events = [
            at(1.0, "user", vec![Part::from_text("u1")]),
            at(2.0, "me", vec![call("c1")]),
            at(3.0, "me", vec![response("c1")]),
            at(4.0, "me", vec![Part::from_text("a1")]),
        ];
        let refs: Vec<&Event> = events.iter().collect();
        // Retaining 2 would keep the response without its call: the call is retained too.
        assert_eq!(texts(&events_to_compact(&refs, 2)), [1.0]);
        assert_eq!(texts(&events_to_compact(&refs, 1)), [1.0, 2.0, 3.0]);
        assert_eq!(texts(&events_to_compact(&refs, 0)), [1.0, 2.0, 3.0, 4.0]);
        assert!(events_to_compact(&refs, 4).is_empty());
    }

    #[test]
    fn the_last_summary_seeds_the_next() {
        let mut summary = Event::new("user");
        summary.timestamp = 2.5;
        let compacted_content = Content::new("model", vec![Part::from_text("s1")]);
        summary.actions.compaction =
            Some(EventCompaction { start_timestamp: 1.0, end_timestamp: 2.0, compacted_content });
        let events = [
            at(1.0, "user", vec![Part::from_text("u1")]),
            at(2.0, "me", vec![Part::from_text("a1")]),
            summary,
            at(3.0, "user", vec![Part::from_text("u2")]),
            at(4.0, "me", vec![Part::from_text("a2")]),
        ];
        let refs: Vec<&Event> = events.iter().collect();
        let range = events_to_compact(&refs, 1);
        assert_eq!(texts(&range), [1.0, 3.0]);
        assert_eq!(range[0].author, "model");
        assert_eq!(range[0].content.as_ref().unwrap().parts()[0].text.as_deref(), Some("s1"));
    }

    #[test]
    fn the_reported_count_wins_until_a_summary_then_the_estimate() {
        let mut answer = at(2.0, "me", vec![Part::from_text("a1")]);
        answer.usage_metadata = Some(UsageMetadata { prompt_token_count: Some(500), ..Default::default() });
        let question = at(1.0, "user", vec![Part::from_text(&"é".repeat(40))]);
        let events = [question.clone(), answer, at(3.0, "other", vec![Part::from_text("x")])];
        let refs: Vec<&Event> = events.iter().collect();
        assert_eq!(latest_prompt_token_count(&refs, "", None), Some(500));
        assert_eq!(latest_prompt_token_count(&refs, "me", None), Some(500));
        // Not this agent's count: the estimate, the other agents' turns quoted (so longer than the
        // 40 + 2 characters of text alone).
        let estimate = latest_prompt_token_count(&refs, "someone", None).unwrap();
        assert!(estimate > 10 && estimate < 500, "{estimate}");
        assert_eq!(latest_prompt_token_count(&[&question], "", None), Some(10));
        assert_eq!(latest_prompt_token_count(&[], "", None), None);
    }

    #[test]
    fn json_is_measured_as_python_dumps_it() {
        let value = serde_json::json!({"a": [1, 2], "b": "é😀"});
        assert_eq!(ascii_json_len(value.as_object().unwrap()), r#"{"a": [1, 2], "b": "\u00e9\ud83d\ude00"}"#.len());
    }
}
