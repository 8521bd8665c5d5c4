//! Pairing function calls with their responses before the history goes to a model (ADK's
//! `_rearranger`): a long-running tool answers later, maybe after the model said something in
//! between, but a model must see each call followed by its latest answer; responses with no call,
//! and calls with no answer that are not waiting for one, are dropped (providers reject them).
//!
//! Written with plain loops and `dyn` predicates: histories an LLM sees are short, and every
//! iterator chain or generic closure here would be another copy of code in the download.

use adk_core::sort::sort_by;

use crate::types::{Content, FunctionResponse, Part};
use crate::Event;

/// One entry of the history being arranged: its content, and what the rules read of its event.
pub(super) struct Turn<'a> {
    pub content: Content,
    author: &'a str,
    invocation_id: &'a str,
    long_running: Option<&'a adk_core::events::ToolIds>,
    /// It asks the app for a confirmation or credentials: its response is not stale.
    requests_input: bool,
}

/// Which parts of a turn to keep (by index and part), as a trait of its own: a `dyn Fn`'s vtable
/// would carry a `call_once` shim for every closure, which nothing calls.
trait KeepPart {
    fn keeps(&self, index: usize, part: &Part) -> bool;
}

impl<F: Fn(usize, &Part) -> bool> KeepPart for F {
    fn keeps(&self, index: usize, part: &Part) -> bool {
        self(index, part)
    }
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

    fn parts(&self) -> &[Part] {
        self.content.parts()
    }

    /// The same turn holding only the parts `keep` accepts (all of them: the turn itself).
    fn with(&self, keep: impl Fn(usize, &Part) -> bool) -> Self {
        self.kept(&keep)
    }

    /// [`Self::with`], compiled once.
    fn kept(&self, keep: &dyn KeepPart) -> Self {
        let mut parts = Vec::new();
        for (i, part) in self.parts().iter().enumerate() {
            if keep.keeps(i, part) {
                parts.push(part.clone());
            }
        }
        Turn {
            content: Content { parts: Some(parts), role: self.content.role.clone() },
            author: self.author,
            invocation_id: self.invocation_id,
            long_running: self.long_running,
            requests_input: self.requests_input,
        }
    }

    /// This turn with the parts `keep` refuses removed; `None` when that leaves none of them.
    fn keep(self, keep: impl Fn(&Part) -> bool) -> Option<Self> {
        self.keep_parts(&|_: usize, p: &Part| keep(p))
    }

    /// [`Self::keep`], compiled once.
    fn keep_parts(self, keep: &dyn KeepPart) -> Option<Self> {
        let kept = self.parts().iter().enumerate().filter(|(i, p)| keep.keeps(*i, p)).count();
        if kept == self.parts().len() {
            Some(self)
        } else if kept == 0 {
            None
        } else {
            Some(self.kept(keep))
        }
    }

    fn has_calls(&self) -> bool {
        self.parts().iter().any(|p| p.function_call.is_some())
    }

    fn has_responses(&self) -> bool {
        self.parts().iter().any(|p| p.function_response.is_some())
    }
}

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
    let mut ids: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(turns.len());
    for turn in turns {
        let asked = |p: &Part| match &p.function_response {
            None => true,
            Some(r) => match non_empty(&r.id) {
                Some(id) => ids.iter().any(|i| i == id),
                None => r.name.as_ref().is_some_and(|n| !n.is_empty() && names.contains(n)),
            },
        };
        let Some(turn) = turn.keep(asked) else { continue };
        for part in turn.parts() {
            let Some(call) = &part.function_call else { continue };
            match (non_empty(&call.id), &call.name) {
                (Some(id), _) => ids.push(id.to_string()),
                (None, Some(name)) => names.push(name.clone()),
                (None, None) => {}
            }
        }
        out.push(turn);
    }
    out
}

/// The last of `history` holding the call `response` answers.
fn owning_call(history: &[Turn<'_>], response: &FunctionResponse) -> Option<usize> {
    let id = non_empty(&response.id);
    history.iter().rposition(|t| {
        t.parts().iter().filter_map(|p| p.function_call.as_ref()).any(|c| match id {
            Some(id) => non_empty(&c.id) == Some(id),
            None => non_empty(&c.id).is_none() && response.name.is_some() && c.name == response.name,
        })
    })
}

/// Which call of `turns[..at]` a part answers, if it is a response.
fn owner_at(turns: &[Turn<'_>], at: usize, part: &Part) -> Option<usize> {
    owning_call(turns.get(..at).unwrap_or_default(), part.function_response.as_ref()?)
}

/// Responses to the same calls merged into the first: a later response replaces the earlier one of
/// the same id; anything else is appended.
fn merge<'a>(mut answers: Vec<Turn<'a>>) -> Option<Turn<'a>> {
    if answers.is_empty() {
        return None;
    }
    let later = answers.split_off(1);
    let mut merged = answers.pop()?;
    let parts = merged.content.parts.get_or_insert_with(Vec::new);
    for turn in &later {
        for part in turn.parts() {
            let id = part.function_response.as_ref().map(|r| &r.id);
            let same = parts.iter().position(|p| id.is_some() && p.function_response.as_ref().map(|r| &r.id) == id);
            match same.and_then(|i| parts.get_mut(i)) {
                Some(existing) => *existing = part.clone(),
                None => parts.push(part.clone()),
            }
        }
    }
    Some(merged)
}

/// When the last turn answers calls made earlier than the turn before it (a long-running tool
/// answered later), the history is cut after the latest of those calls and each answered call is
/// followed by its merged responses.
fn latest_response(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    let last = turns.len().saturating_sub(1);
    let Some(trailing) = turns.last().filter(|t| last > 0 && t.has_responses()) else { return turns };
    // The call each part of the last turn answers; other parts go with the latest answered call.
    let mut owners: Vec<Option<usize>> = Vec::new();
    for part in trailing.parts() {
        owners.push(owner_at(&turns, last, part));
    }
    // The latest call answered, and whether every answer is to it.
    let (mut latest, mut earliest) = (None, usize::MAX);
    for &owner in &owners {
        if let Some(call) = owner {
            latest = latest.max(Some(call));
            earliest = earliest.min(call);
        }
    }
    let Some(latest) = latest else { return turns };
    let answered = |call: Option<usize>| call.is_some_and(|c| owners.contains(&Some(c)));
    if latest + 1 == last && earliest == latest {
        return turns;
    }
    let mut out = Vec::new();
    for (idx, turn) in turns.iter().enumerate().take(latest + 1) {
        if turn.has_responses() {
            let kept = turn.with(|_, p| !answered(owner_at(&turns, idx, p)));
            if kept.has_responses() || kept.has_calls() {
                out.push(kept);
            }
        } else {
            out.push(turn.with(|_, _| true));
        }
        if !answered(Some(idx)) {
            continue;
        }
        let mut answers = Vec::new();
        for (at, between) in turns.iter().enumerate().take(last).skip(idx + 1) {
            if !between.has_responses() {
                continue;
            }
            let is_call = between.has_calls();
            let mine = between.with(|_, p| match &p.function_response {
                Some(_) => owner_at(&turns, at, p) == Some(idx),
                None => !is_call,
            });
            if mine.has_responses() {
                answers.push(mine);
            }
        }
        // The last turn's responses to this call, then (for the latest call) its other parts.
        let mut split = trailing.with(|i, _| owners.get(i).copied().flatten() == Some(idx));
        if idx == latest {
            let others = trailing.with(|_, p| p.function_response.is_none());
            split.content.parts.get_or_insert_with(Vec::new).extend(others.content.parts.unwrap_or_default());
        }
        answers.push(split);
        out.extend(merge(answers));
    }
    out
}

/// A model's text reply in `invocation_id` that a later response to the same call made stale.
fn is_stale_text_reply(turn: &Turn<'_>, invocation_id: &str) -> bool {
    turn.invocation_id == invocation_id
        && turn.author != "user"
        && turn.content.role.as_deref() == Some("model")
        && !turn.has_calls()
        && turn.parts().iter().any(|p| p.text.as_deref().is_some_and(|t| !t.is_empty()))
}

/// Every call followed by its latest response (several late responses to one call event merged),
/// responses elsewhere dropped, and text replies between two responses to the same call of one
/// invocation dropped as stale.
fn late_responses_in_history(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    if !turns.iter().any(Turn::has_responses) {
        return turns;
    }
    // Each response's call: the latest turn before it (holding no responses) that made the call.
    let mut answers: Vec<(Option<&str>, usize, Vec<usize>)> = Vec::new();
    for (at, turn) in turns.iter().enumerate() {
        for response in turn.parts().iter().filter_map(|p| p.function_response.as_ref()) {
            let id = response.id.as_deref();
            let makes = |t: &Turn<'_>| {
                !t.has_responses()
                    && t.parts().iter().any(|p| p.function_call.as_ref().is_some_and(|c| c.id.as_deref() == id))
            };
            let before = turns.get(..at).unwrap_or_default();
            // ADK pairs a response made before any call of its id with the first such call.
            let Some(call) = before.iter().rposition(makes).or_else(|| turns.iter().position(makes)) else { continue };
            match answers.iter_mut().find(|(i, c, _)| *i == id && *c == call) {
                Some((_, _, list)) => list.push(at),
                None => answers.push((id, call, vec![at])),
            }
        }
    }
    let mut stale: Vec<usize> = Vec::new();
    for (_, _, list) in &answers {
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
    let mut out = Vec::with_capacity(turns.len());
    for (i, turn) in turns.iter().enumerate() {
        if stale.contains(&i) || turn.has_responses() {
            continue;
        }
        out.push(turn.with(|_, _| true));
        // The latest answer to each of its calls, in session order.
        let mut latest = Vec::new();
        for call in turn.parts().iter().filter_map(|p| p.function_call.as_ref()) {
            let id = call.id.as_deref();
            if let Some(&at) = answers.iter().find(|(a, c, _)| *a == id && *c == i).and_then(|(_, _, l)| l.last()) {
                if !latest.contains(&at) {
                    latest.push(at);
                }
            }
        }
        let latest = sort_by(latest, |a, b| a < b);
        let mut answers = Vec::new();
        for turn in latest.iter().filter_map(|&at| turns.get(at)) {
            answers.push(turn.with(|_, _| true));
        }
        out.extend(merge(answers));
    }
    out
}

/// Drops calls nothing answered, unless they are long-running calls still waiting.
fn drop_orphaned_calls(turns: Vec<Turn<'_>>) -> Vec<Turn<'_>> {
    let mut settled: Vec<String> = Vec::new();
    for turn in &turns {
        for part in turn.parts() {
            settled.extend(part.function_response.as_ref().and_then(|r| r.id.clone()));
        }
        if let Some(ids) = turn.long_running {
            settled.extend(ids.into_iter().cloned());
        }
    }
    let orphan = |p: &Part| {
        p.function_call.as_ref().and_then(|c| non_empty(&c.id)).is_some_and(|id| !settled.iter().any(|s| s == id))
    };
    let mut kept = Vec::new();
    for turn in turns {
        kept.extend(turn.keep(|p| !orphan(p)));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{FunctionCall, JsonObject};

    fn event(author: &str, invocation: &str, part: Part) -> Event {
        let mut e = Event::new(author);
        e.invocation_id = invocation.into();
        let role =
            if part.function_call.is_some() || (part.text.is_some() && author != "user") { "model" } else { "user" };
        e.content = Some(Content::new(role, vec![part]));
        e
    }

    fn call(id: &str) -> Part {
        let call = FunctionCall { id: Some(id.into()), name: Some("f".into()), ..Default::default() };
        Part { function_call: Some(call), ..Default::default() }
    }

    fn answer(id: &str, status: &str) -> Part {
        let response = JsonObject::from_iter([("status".to_string(), status.into())]);
        let response = FunctionResponse {
            id: Some(id.into()),
            name: Some("f".into()),
            response: Some(response),
            ..Default::default()
        };
        Part { function_response: Some(response), ..Default::default() }
    }

    /// What each arranged turn holds, in one word: a text, `call:id` or `id=status`.
    fn shape(events: &[Event]) -> Vec<String> {
        arrange(events.iter().map(Turn::of).collect())
            .iter()
            .map(|t| {
                let words: Vec<String> = t
                    .parts()
                    .iter()
                    .map(|p| match (&p.text, &p.function_call, &p.function_response) {
                        (Some(text), _, _) => text.clone(),
                        (_, Some(c), _) => format!("call:{}", c.id.as_deref().unwrap_or_default()),
                        (_, _, Some(r)) => format!(
                            "{}={}",
                            r.id.as_deref().unwrap_or_default(),
                            r.response.as_ref().unwrap()["status"].as_str().unwrap()
                        ),
                        _ => "?".into(),
                    })
                    .collect();
                words.join("+")
            })
            .collect()
    }

    #[test]
    fn a_late_answer_replaces_the_pending_one_and_cuts_what_came_after_the_call() {
        let mut pending_call = event("agent", "i1", call("c1"));
        pending_call.long_running_tool_ids = Some(["c1".to_string()].into());
        let events = [
            event("user", "i1", Part::from_text("pay")),
            pending_call,
            event("agent", "i1", answer("c1", "pending")),
            event("agent", "i1", Part::from_text("waiting")),
            event("user", "i1", answer("c1", "approved")),
        ];
        assert_eq!(shape(&events), ["pay", "call:c1", "c1=approved"]);
    }

    #[test]
    fn stale_replies_between_two_answers_of_one_invocation_go() {
        let events = [
            event("agent", "i1", call("c1")),
            event("agent", "i1", answer("c1", "pending")),
            event("agent", "i1", Part::from_text("still waiting")),
            event("agent", "i1", answer("c1", "done")),
            event("user", "i2", Part::from_text("thanks")),
        ];
        assert_eq!(shape(&events), ["call:c1", "c1=done", "thanks"]);
    }

    #[test]
    fn orphans_go_unless_a_long_running_call_still_waits() {
        let mut waiting = event("agent", "i1", call("c2"));
        waiting.long_running_tool_ids = Some(["c2".to_string()].into());
        let events = [
            event("user", "i1", answer("nobody", "x")),
            event("agent", "i1", call("c1")),
            waiting,
            event("user", "i2", Part::from_text("next")),
        ];
        assert_eq!(shape(&events), ["call:c2", "next"]);
    }
}
