//! Pairing function calls with their responses before the history goes to a model (ADK's
//! `_rearranger`): a long-running tool answers later, maybe after the model said something in
//! between, but a model must see each call followed by its latest answer; responses with no call,
//! and calls with no answer that are not waiting for one, are dropped (providers reject them).

use std::collections::BTreeSet;

use adk_core::sort::sort_by;
use indexmap::IndexSet;

use crate::types::{Content, FunctionCall, FunctionResponse, Part};
use crate::Event;

/// One entry of the history being arranged: its content, and what the rules read of its event.
pub(super) struct Turn<'a> {
    pub content: Content,
    author: &'a str,
    invocation_id: &'a str,
    long_running: Option<&'a BTreeSet<String>>,
    /// It asks the app for a confirmation or credentials: its response is not stale.
    requests_input: bool,
}

impl<'a> Turn<'a> {
    pub fn of(event: &'a Event) -> Self {
        Turn {
            content: event.content.clone().unwrap_or_default(),
            author: &event.author,
            invocation_id: &event.invocation_id,
            long_running: event.long_running_tool_ids.as_ref(),
            requests_input: !event.actions.requested_tool_confirmations.is_empty()
                || !event.actions.requested_auth_configs.is_empty(),
        }
    }

    /// Another agent's turn retold as user content (a new event in ADK: no invocation).
    pub fn quoted(content: Content) -> Self {
        Turn { content, author: "user", invocation_id: "", long_running: None, requests_input: false }
    }

    fn with_parts(&self, parts: Vec<Part>) -> Self {
        Turn {
            content: Content { parts: Some(parts), role: self.content.role.clone() },
            author: self.author,
            invocation_id: self.invocation_id,
            long_running: self.long_running,
            requests_input: self.requests_input,
        }
    }

    fn clone_turn(&self) -> Self {
        self.with_parts(self.content.parts().to_vec())
    }

    fn calls(&self) -> impl Iterator<Item = &FunctionCall> {
        self.content.parts().iter().filter_map(|p| p.function_call.as_ref())
    }

    fn responses(&self) -> impl Iterator<Item = &FunctionResponse> {
        self.content.parts().iter().filter_map(|p| p.function_response.as_ref())
    }

    fn has_calls(&self) -> bool {
        self.calls().next().is_some()
    }

    fn has_responses(&self) -> bool {
        self.responses().next().is_some()
    }
}

/// A call id and the turn holding the call.
type CallKey<'a> = (Option<&'a str>, usize);

fn non_empty(id: &Option<String>) -> Option<&str> {
    id.as_deref().filter(|id| !id.is_empty())
}

/// The history in the order a model must see it.
pub(super) fn arrange(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    let turns = drop_orphaned_responses(turns);
    let turns = latest_response(turns);
    let turns = late_responses_in_history(turns);
    drop_orphaned_calls(turns)
}

/// Drops responses no earlier call asked for (by id, or by name when neither has an id).
fn drop_orphaned_responses(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    let mut ids: IndexSet<String> = IndexSet::new();
    let mut names: IndexSet<String> = IndexSet::new();
    let mut out = Vec::with_capacity(turns.len());
    for turn in turns {
        let turn = if turn.has_responses() {
            let kept: Vec<Part> = turn
                .content
                .parts()
                .iter()
                .filter(|p| match &p.function_response {
                    None => true,
                    Some(r) => match non_empty(&r.id) {
                        Some(id) => ids.contains(id),
                        None => r.name.as_ref().is_some_and(|n| !n.is_empty() && names.contains(n)),
                    },
                })
                .cloned()
                .collect();
            if kept.is_empty() {
                continue;
            }
            if kept.len() == turn.content.parts().len() {
                turn
            } else {
                turn.with_parts(kept)
            }
        } else {
            turn
        };
        for call in turn.calls() {
            match (non_empty(&call.id), &call.name) {
                (Some(id), _) => ids.insert(id.to_string()),
                (None, Some(name)) => names.insert(name.clone()),
                (None, None) => false,
            };
        }
        out.push(turn);
    }
    out
}

/// The last of `history` holding the call `response` answers.
fn owning_call(history: &[Turn<'_>], response: &FunctionResponse) -> Option<usize> {
    history.iter().rposition(|t| {
        t.calls().any(|c| match non_empty(&response.id) {
            Some(id) => non_empty(&c.id) == Some(id),
            None => non_empty(&c.id).is_none() && response.name.is_some() && c.name == response.name,
        })
    })
}

/// Responses to the same calls merged into the first: a later response replaces the earlier one of
/// the same id; anything else is appended.
fn merge<'a>(turns: Vec<Turn<'a>>) -> Option<Turn<'a>> {
    let mut turns = turns.into_iter();
    let mut merged = turns.next()?;
    let mut parts = merged.content.parts.take().unwrap_or_default();
    for turn in turns {
        for part in turn.content.parts() {
            let id = part.function_response.as_ref().map(|r| r.id.clone());
            let slot =
                id.and_then(|id| parts.iter().position(|p| p.function_response.as_ref().is_some_and(|r| r.id == id)));
            match slot.and_then(|i| parts.get_mut(i)) {
                Some(existing) => *existing = part.clone(),
                None => parts.push(part.clone()),
            }
        }
    }
    merged.content.parts = Some(parts);
    Some(merged)
}

/// When the last turn answers calls made earlier than the turn before it (a long-running tool
/// answered later), the history is cut after the latest of those calls and each answered call is
/// followed by its merged responses.
fn latest_response(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    let Some((trailing, history)) = turns.split_last() else { return turns };
    if history.is_empty() || !trailing.has_responses() {
        return turns;
    }
    let mut groups: Vec<(usize, Vec<Part>)> = Vec::new();
    let mut others = Vec::new();
    for part in trailing.content.parts() {
        match &part.function_response {
            Some(r) => {
                if let Some(call) = owning_call(history, r) {
                    match groups.iter_mut().find(|(i, _)| *i == call) {
                        Some((_, parts)) => parts.push(part.clone()),
                        None => groups.push((call, vec![part.clone()])),
                    }
                }
            }
            None => others.push(part.clone()),
        }
    }
    let Some(latest) = groups.iter().map(|(i, _)| *i).max() else { return turns };
    if let Some((_, parts)) = groups.iter_mut().find(|(i, _)| *i == latest) {
        parts.extend(others);
    }
    if latest + 2 == turns.len() && groups.len() == 1 {
        return turns;
    }
    let grouped = |call: Option<usize>| call.is_some_and(|c| groups.iter().any(|(i, _)| *i == c));
    let mut out = Vec::new();
    for (idx, turn) in turns.iter().enumerate().take(latest + 1) {
        if turn.has_responses() {
            let kept: Vec<Part> = turn
                .content
                .parts()
                .iter()
                .filter(|p| {
                    p.function_response
                        .as_ref()
                        .is_none_or(|r| !grouped(owning_call(turns.get(..idx).unwrap_or_default(), r)))
                })
                .cloned()
                .collect();
            if !kept.iter().any(|p| p.function_response.is_some() || p.function_call.is_some()) {
                continue;
            }
            out.push(turn.with_parts(kept));
        } else {
            out.push(turn.clone_turn());
        }
        if let Some((_, parts)) = groups.iter().find(|(i, _)| *i == idx) {
            let mut answers: Vec<Turn> = Vec::new();
            for (at, between) in turns.iter().enumerate().take(turns.len() - 1).skip(idx + 1) {
                if !between.has_responses() {
                    continue;
                }
                let is_call = between.has_calls();
                let matched: Vec<Part> = between
                    .content
                    .parts()
                    .iter()
                    .filter(|p| match &p.function_response {
                        Some(r) => owning_call(turns.get(..at).unwrap_or_default(), r) == Some(idx),
                        None => !is_call,
                    })
                    .cloned()
                    .collect();
                if matched.iter().any(|p| p.function_response.is_some()) {
                    answers.push(between.with_parts(matched));
                }
            }
            answers.push(trailing.with_parts(parts.clone()));
            out.extend(merge(answers));
        }
    }
    out
}

/// A model's text reply in `invocation_id` that a later response to the same call made stale.
fn is_stale_text_reply(turn: &Turn<'_>, invocation_id: &str) -> bool {
    turn.invocation_id == invocation_id
        && turn.author != "user"
        && turn.content.role.as_deref() == Some("model")
        && !turn.has_calls()
        && turn.content.parts().iter().any(|p| p.text.as_deref().is_some_and(|t| !t.is_empty()))
}

/// Every call followed by its latest response (several late responses to one call event merged),
/// responses elsewhere dropped, and text replies between two responses to the same call of one
/// invocation dropped as stale.
fn late_responses_in_history(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    if !turns.iter().any(Turn::has_responses) {
        return turns;
    }
    // The turns holding calls of each id, in order.
    let mut call_turns: Vec<(Option<&str>, Vec<usize>)> = Vec::new();
    for (i, turn) in turns.iter().enumerate().filter(|(_, t)| !t.has_responses()) {
        for call in turn.calls() {
            let id = call.id.as_deref();
            match call_turns.iter_mut().find(|(c, _)| *c == id) {
                Some((_, at)) => at.push(i),
                None => call_turns.push((id, vec![i])),
            }
        }
    }
    // The turns answering each (call id, call turn), in order.
    let mut answers: Vec<(CallKey, Vec<usize>)> = Vec::new();
    for (i, turn) in turns.iter().enumerate() {
        for response in turn.responses() {
            let id = response.id.as_deref();
            let Some((_, at)) = call_turns.iter().find(|(c, _)| *c == id) else { continue };
            let preceding = at.iter().filter(|&&c| c < i).count();
            let Some(&owner) = at.get(preceding.saturating_sub(1)) else { continue };
            match answers.iter_mut().find(|(k, _)| *k == (id, owner)) {
                Some((_, list)) => list.push(i),
                None => answers.push(((id, owner), vec![i])),
            }
        }
    }
    let mut stale: IndexSet<usize> = IndexSet::new();
    for (_, list) in &answers {
        for (&from, &to) in list.iter().zip(list.iter().skip(1)) {
            let (Some(cur), Some(next)) = (turns.get(from), turns.get(to)) else { continue };
            if cur.invocation_id != next.invocation_id || cur.author != next.author || cur.requests_input {
                continue;
            }
            let between = turns.get(from + 1..to).unwrap_or_default();
            if !between.is_empty() && between.iter().all(|t| is_stale_text_reply(t, cur.invocation_id)) {
                stale.extend(from + 1..to);
            }
        }
    }
    // For each call turn, the latest answer to each of its calls, in session order.
    let latest: Vec<Vec<usize>> = turns
        .iter()
        .enumerate()
        .map(|(i, turn)| {
            let calls = turn.calls().filter(|_| !turn.has_responses());
            let at: Vec<usize> = calls
                .filter_map(|call| answers.iter().find(|(k, _)| *k == (call.id.as_deref(), i)))
                .filter_map(|(_, list)| list.last().copied())
                .collect();
            let mut sorted = sort_by(at, |a, b| a < b);
            sorted.dedup();
            sorted
        })
        .collect();
    let mut slots: Vec<Option<Turn>> = turns.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for (i, answered_by) in latest.iter().enumerate() {
        let slot = slots.get_mut(i).and_then(|s| s.take_if(|t| !stale.contains(&i) && !t.has_responses()));
        let Some(turn) = slot else { continue };
        out.push(turn);
        let responses: Vec<Turn> =
            answered_by.iter().filter_map(|&at| slots.get(at)?.as_ref().map(Turn::clone_turn)).collect();
        out.extend(merge(responses));
    }
    out
}

/// Drops calls nothing answered, unless they are long-running calls still waiting.
fn drop_orphaned_calls(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    let answered: IndexSet<String> = turns.iter().flat_map(Turn::responses).filter_map(|r| r.id.clone()).collect();
    let waiting: IndexSet<&String> = turns.iter().flat_map(|t| t.long_running.into_iter().flatten()).collect();
    let is_orphan = |p: &Part| {
        p.function_call
            .as_ref()
            .and_then(|c| non_empty(&c.id))
            .is_some_and(|id| !answered.contains(id) && !waiting.iter().any(|w| w.as_str() == id))
    };
    let mut out = Vec::with_capacity(turns.len());
    for turn in turns {
        if !turn.content.parts().iter().any(is_orphan) {
            out.push(turn);
            continue;
        }
        let kept: Vec<Part> = turn.content.parts().iter().filter(|p| !is_orphan(p)).cloned().collect();
        if !kept.is_empty() {
            out.push(turn.with_parts(kept));
        }
    }
    out
}
