//! A compacted history in a request (ADK 2.x's `_process_compaction_events` and
//! `_recover_compacted_function_calls`): each summary an app's compaction wrote stands, as the
//! agent's own earlier turn, in place of the events whose timestamps it covers.

use std::ptr;

use crate::Event;
use adk_core::sort::sort_by;

/// The summaries that count, as (position in `events`, start, end), in event order: a summary
/// whose range another contains is superseded by it; of two with one range, the later counts.
pub(crate) fn compaction_ranges(events: &[&Event]) -> Vec<(usize, f64, f64)> {
    let mut ranges = Vec::new();
    let mut kept = vec![false; events.len()];
    let mut comparable = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let Some(c) = &event.actions.compaction else { continue };
        ranges.push((i, c.start_timestamp, c.end_timestamp));
        if c.start_timestamp.is_nan() || c.end_timestamp.is_nan() {
            // A NaN range neither contains another nor is contained.
            mark(&mut kept, i);
        } else {
            comparable.push((i, c.start_timestamp, c.end_timestamp));
        }
    }
    // By start, then the longest, then the latest: a containing range comes before what it contains.
    let comparable = sort_by(comparable, |a, b| a.1 < b.1 || (a.1 == b.1 && (a.2 > b.2 || (a.2 == b.2 && a.0 > b.0))));
    let mut max_end = f64::NEG_INFINITY;
    for (i, _, end) in comparable {
        if end > max_end {
            mark(&mut kept, i);
            max_end = end;
        }
    }
    ranges.retain(|(i, _, _)| kept.get(*i).copied().unwrap_or(false));
    ranges
}

fn mark(flags: &mut [bool], i: usize) {
    if let Some(flag) = flags.get_mut(i) {
        *flag = true;
    }
}

/// Whether any of `events` is a compaction summary.
pub(super) fn has_compaction(events: &[&Event]) -> bool {
    events.iter().any(|e| e.actions.compaction.is_some())
}

/// Each summary that counts as an event of its own: by `agent_name` (the agent reads its compacted
/// history as its own turns), at its range's end, with the summary as content.
pub(crate) fn summary_events(events: &[&Event], agent_name: &str) -> Vec<Event> {
    let mut out = Vec::new();
    for (i, _, end) in compaction_ranges(events) {
        let Some(event) = events.get(i) else { continue };
        let Some(compaction) = &event.actions.compaction else { continue };
        let mut summary = Event::new(if agent_name.is_empty() { "model" } else { agent_name });
        summary.timestamp = end;
        summary.content = Some(compaction.compacted_content.clone());
        summary.branch.clone_from(&event.branch);
        summary.isolation_scope.clone_from(&event.isolation_scope);
        summary.invocation_id.clone_from(&event.invocation_id);
        summary.actions = event.actions.clone();
        out.push(summary);
    }
    out
}

/// `events` with the summaries in place of the events they cover, in timestamp order (ties in
/// their order in the session, a summary where its compaction event was).
pub(crate) fn apply_compaction<'a>(events: &[&'a Event], summaries: &'a [Event]) -> Vec<&'a Event> {
    let ranges = compaction_ranges(events);
    // The union of the ranges, for looking raw events up; every summary is kept on its own.
    let mut spans: Vec<(f64, f64)> = Vec::new();
    for &(_, start, end) in &ranges {
        if start <= end {
            spans.push((start, end));
        }
    }
    spans = sort_by(spans, |a, b| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1));
    let mut coverage: Vec<(f64, f64)> = Vec::new();
    for (start, end) in spans {
        match coverage.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => coverage.push((start, end)),
        }
    }
    let covered = |ts: f64| coverage.iter().rev().find(|c| c.0 <= ts).is_some_and(|c| ts <= c.1);
    let mut items: Vec<(f64, usize, &'a Event)> = Vec::new();
    for ((i, _, end), summary) in ranges.iter().zip(summaries) {
        items.push((*end, *i, summary));
    }
    for (i, event) in events.iter().enumerate() {
        if event.actions.compaction.is_none() && !covered(event.timestamp) {
            items.push((event.timestamp, i, event));
        }
    }
    let mut kept = Vec::new();
    for (_, _, event) in sort_by(items, |a, b| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)) {
        kept.push(event);
    }
    kept
}

/// Puts back a function call a summary covered whose response outlived it (a long-running call
/// answered after the compaction): just before the first surviving response, with the sibling
/// responses the summary also covered, so every response still follows its call. A response
/// belongs to the latest call of its id before it in the session.
pub(super) fn recover_compacted_calls<'a>(events: Vec<&'a Event>, source: &[&'a Event]) -> Vec<&'a Event> {
    if !events.iter().any(|e| !e.get_function_responses().is_empty()) {
        return events;
    }
    // Plain lists searched in turn (a history a request carries is short; maps would be more code).
    let mut present: Vec<bool> = Vec::new();
    for &s in source {
        present.push(events.iter().any(|e| ptr::eq(*e, s)));
    }
    let is_present = |i: usize| present.get(i).copied().unwrap_or(false);
    let mut latest_call: Vec<(&str, usize)> = Vec::new();
    // (response event, id, call event), and which of them is the latest answer to its call.
    let mut answers: Vec<(usize, &str, usize)> = Vec::new();
    let mut latest_answer: Vec<(usize, &str, usize)> = Vec::new();
    let mut surviving: Vec<(usize, &str)> = Vec::new();
    for (i, event) in source.iter().enumerate() {
        for id in event.get_function_calls().iter().filter_map(|c| c.id.as_deref()) {
            latest_call.retain(|(other, _)| *other != id);
            latest_call.push((id, i));
        }
        for id in event.get_function_responses().iter().filter_map(|r| r.id.as_deref()) {
            let Some(&(_, call)) = latest_call.iter().find(|(other, _)| *other == id) else { continue };
            answers.push((i, id, call));
            if is_present(i) {
                surviving.push((call, id));
            }
            // Equal timestamps keep the session's order.
            match latest_answer.iter_mut().find(|(c, other, _)| *c == call && *other == id) {
                Some(entry) => {
                    if source.get(entry.2).is_none_or(|existing| event.timestamp >= existing.timestamp) {
                        entry.2 = i;
                    }
                }
                None => latest_answer.push((call, id, i)),
            }
        }
    }
    let mut out = Vec::new();
    let mut calls_back: Vec<usize> = Vec::new();
    let mut responses_back: Vec<usize> = Vec::new();
    for event in events {
        let at = source.iter().position(|s| ptr::eq(*s, event));
        for id in event.get_function_responses().iter().filter_map(|r| r.id.as_deref()) {
            let Some(&(_, _, call)) = answers.iter().find(|(r, other, _)| Some(*r) == at && *other == id) else {
                continue;
            };
            if is_present(call) || calls_back.contains(&call) {
                continue;
            }
            let Some(call_event) = source.get(call) else { continue };
            out.push(*call_event);
            calls_back.push(call);
            for sibling in call_event.get_function_calls().iter().filter_map(|c| c.id.as_deref()) {
                if surviving.contains(&(call, sibling)) {
                    continue;
                }
                let answer = latest_answer.iter().find(|(c, other, _)| *c == call && *other == sibling);
                if let Some(&(_, _, r)) = answer {
                    if !responses_back.contains(&r) {
                        responses_back.push(r);
                        out.extend(source.get(r).copied());
                    }
                }
            }
        }
        out.push(event);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Content, Part};
    use adk_core::events::EventCompaction;

    fn at(ts: f64, author: &str, text: &str) -> Event {
        let mut e = Event::new(author);
        e.timestamp = ts;
        e.content = Some(Content::new(if author == "user" { "user" } else { "model" }, vec![Part::from_text(text)]));
        e
    }

    fn summary(ts: f64, start: f64, end: f64, text: &str) -> Event {
        let mut e = Event::new("user");
        e.timestamp = ts;
        let compacted_content = Content::new("model", vec![Part::from_text(text)]);
        e.actions.compaction = Some(EventCompaction { start_timestamp: start, end_timestamp: end, compacted_content });
        e
    }

    fn text(e: &Event) -> &str {
        e.parts()[0].text.as_deref().unwrap_or_default()
    }

    #[test]
    fn overlapping_summaries_replace_their_ranges() {
        let events = [
            at(1.0, "user", "u1"),
            at(2.0, "me", "a1"),
            summary(2.5, 1.0, 2.0, "s1"),
            at(3.0, "user", "u2"),
            at(4.0, "me", "a2"),
            summary(4.5, 2.0, 4.0, "s2"),
            at(5.0, "user", "u3"),
        ];
        let refs: Vec<&Event> = events.iter().collect();
        let summaries = summary_events(&refs, "me");
        let got: Vec<&str> = apply_compaction(&refs, &summaries).into_iter().map(text).collect();
        assert_eq!(got, ["s1", "s2", "u3"]);
        assert_eq!(summaries[0].author, "me");
        // A range containing both supersedes them.
        let mut more = events.to_vec();
        more.push(summary(5.5, 1.0, 4.0, "all"));
        let refs: Vec<&Event> = more.iter().collect();
        let summaries = summary_events(&refs, "me");
        let got: Vec<&str> = apply_compaction(&refs, &summaries).into_iter().map(text).collect();
        assert_eq!(got, ["all", "u3"]);
    }
}
