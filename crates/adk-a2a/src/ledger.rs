//! What a resumable stream has delivered, so that re-attaching to a task delivers every change
//! exactly once.
//!
//! What a2a-sdk (1.3.0) does on `SubscribeToTask` / `tasks/resubscribe`: it taps the task's live
//! event queue, then sends the task as stored (status, accumulated artifacts, history) as the first
//! event, then the live events from the tap. Nothing from before is replayed: what happened while
//! the client was away is only in that snapshot. And since the tap is opened before the snapshot
//! is read, an event that lands in between is in the snapshot *and* comes live after it.
//!
//! So the snapshot is compared with what was delivered and turned into the events that were
//! missed (a status update if the status changed; per artifact the missing tail as an `append`
//! chunk, or the whole artifact if it is new or changed otherwise), and the first live events
//! after it are checked against it: a status equal to the last one delivered (state, timestamp,
//! message id) is dropped, and so is an artifact's first `append` chunk after the snapshot when
//! the snapshot's stored parts already end with exactly that chunk's parts. The last check cannot
//! tell a replay from an agent that really repeats its previous chunk at that very moment; A2A
//! events carry no sequence number, and a duplicate is the likelier case.

use adk_core::json;

use super::artifacts::{append_parts, append_text};
use super::skim::{artifact_update_json, status_update_json, Parts, Skim, StatusKey, TaskSkim};
use super::types::{Part, PartContent};

/// The delivered state of one stream.
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    task_id: Option<String>,
    status: Option<StatusKey>,
    /// Per artifact id, its parts as delivered (adjacent text merged): all a snapshot is compared
    /// with, so not whole artifacts.
    parts: Vec<(String, Vec<Part>)>,
    /// Per artifact id, its parts as the last snapshot stored them, until its first live chunk.
    snapshot_parts: Vec<(String, Vec<Part>)>,
    finished: bool,
}

impl Ledger {
    /// The task the stream is about, once known.
    pub fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }

    /// Whether the stream is over: a direct message, or a terminal or interrupted state.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Records the task this stream is about (the first one named wins).
    pub fn learn(&mut self, task_id: &str) {
        if self.task_id.is_none() && !task_id.is_empty() {
            self.task_id = Some(task_id.to_string());
        }
    }

    fn set_status(&mut self, status: &StatusKey) {
        self.finished |= status.state.ends_stream();
        self.status = Some(status.clone());
    }

    fn is_current(&self, status: &StatusKey) -> bool {
        self.status.as_ref() == Some(status)
    }

    /// The parts delivered of artifact `id`.
    fn delivered(&self, id: &str) -> Option<&Vec<Part>> {
        self.parts.iter().find(|(delivered, _)| delivered == id).map(|(_, parts)| parts)
    }

    /// Records a chunk of artifact `id` as delivered: `append` continues it, else `parts` replace it
    /// (as [`ArtifactAssembler`](super::artifacts::ArtifactAssembler) folds the parts).
    fn deliver(&mut self, id: &str, append: bool, parts: Parts<'_>) {
        match self.parts.iter_mut().find(|(delivered, _)| delivered == id) {
            Some((_, have)) => {
                if !append {
                    have.clear();
                }
                extend(have, parts);
            }
            None => {
                let mut have = Vec::new();
                extend(&mut have, parts);
                self.parts.push((id.to_string(), have));
            }
        }
    }

    /// A live event: whether to deliver it (not when it repeats what was delivered). Its parts
    /// move into the ledger.
    pub fn admit(&mut self, event: &mut Skim<'_>) -> bool {
        match event {
            Skim::Task(task) => {
                self.learn(&task.id);
                for artifact in &mut task.artifacts {
                    self.deliver(&artifact.id, false, Parts::Many(std::mem::take(&mut artifact.parts)));
                }
                self.set_status(&task.status);
            }
            Skim::Message => self.finished = true,
            Skim::StatusUpdate { task_id, status, last, .. } => {
                if self.is_current(status) {
                    return false;
                }
                self.learn(task_id);
                self.set_status(status);
                self.finished |= *last;
            }
            Skim::ArtifactUpdate { task_id, artifact_id, parts, append } => {
                let stored = match self.snapshot_parts.iter().position(|(stored, _)| *stored == *artifact_id) {
                    Some(at) => Some(self.snapshot_parts.swap_remove(at).1),
                    None => None,
                };
                let parts = std::mem::take(parts);
                // A lone text repeats a stored part only if that part is exactly a bare text, as
                // `==` with `Part::text` says: not `artifacts::plain`'s test, which lets text merge
                // with a `text/plain` part that is not equal to it.
                let repeated = |stored: Vec<Part>| match &parts {
                    Parts::Text(text) => matches!(
                        stored.last(),
                        Some(Part { content: PartContent::Text(last), media_type: None, filename: None, metadata: None })
                            if last == text
                    ),
                    Parts::Many(parts) => {
                        !parts.is_empty()
                            && stored
                                .len()
                                .checked_sub(parts.len())
                                .and_then(|at| stored.get(at..))
                                .is_some_and(|tail| same_parts(tail, parts))
                    }
                };
                if *append && stored.is_some_and(repeated) {
                    return false;
                }
                self.learn(task_id);
                self.deliver(artifact_id, *append, parts);
            }
        }
        true
    }

    /// A snapshot of the task (a resubscription's first event, or `GetTask`): the v1.0 JSON of the
    /// events that bring the delivered state up to it, artifacts first, then the status.
    pub fn snapshot(&mut self, task: &TaskSkim) -> Vec<String> {
        self.learn(&task.id);
        let mut missed = Vec::new();
        let done = task.status.state.is_terminal();
        for artifact in &task.artifacts {
            let mut merged = Vec::new();
            append_parts(&mut merged, copy(&artifact.parts));
            // What is missing of it: nothing, the tail to append, or (`Some(None)`) all of it.
            let missing = match self.delivered(&artifact.id) {
                Some(have) if same_parts(have, &merged) => None,
                Some(have) => Some(remainder(have, merged)),
                None => Some(None),
            };
            if let Some(tail) = missing {
                let (parts, append) = match tail {
                    Some(tail) => (tail, true),
                    None => (copy(&artifact.parts), false),
                };
                missed.push(artifact_update_json(task, artifact, &parts, append, done));
                self.deliver(&artifact.id, append, Parts::Many(parts));
            }
            let parts = copy(&artifact.parts);
            match self.snapshot_parts.iter_mut().find(|(stored, _)| *stored == artifact.id) {
                Some((_, stored)) => *stored = parts,
                None => self.snapshot_parts.push((artifact.id.clone(), parts)),
            }
        }
        if !self.is_current(&task.status) {
            self.set_status(&task.status);
            missed.push(status_update_json(task));
        }
        missed
    }
}

/// [`append_parts`], a lone part of plain text without building it.
fn extend(have: &mut Vec<Part>, parts: Parts<'_>) {
    match parts {
        Parts::Text(text) => append_text(have, text),
        Parts::Many(parts) => append_parts(have, parts),
    }
}

/// A copy of `parts` through their JSON: `Clone` would bring a copy of every JSON value and map into
/// the module for this one rare path (a resumed stream's snapshot); the live path moves parts.
fn copy(parts: &[Part]) -> Vec<Part> {
    json::read_own_text(&json::to_string(parts)).unwrap_or_default()
}

/// Whether two parts are equal, as `==` says, by [`json::same`]: the derived comparison would bring
/// the JSON maps' hashed lookup into the module for the ledger alone. Every field is named, so a
/// field added to `Part` cannot be left out of the comparison.
fn same_part(a: &Part, b: &Part) -> bool {
    let Part { content, media_type, filename, metadata } = a;
    let same_content = match (content, &b.content) {
        (PartContent::Text(a), PartContent::Text(b)) | (PartContent::Url(a), PartContent::Url(b)) => a == b,
        (PartContent::Raw(a), PartContent::Raw(b)) => a == b,
        (PartContent::Data(a), PartContent::Data(b)) => json::same(a, b),
        _ => false,
    };
    let same_metadata = match (metadata, &b.metadata) {
        (Some(a), Some(b)) => json::same_members(a, b),
        (a, b) => a.is_none() && b.is_none(),
    };
    same_content && same_metadata && *media_type == b.media_type && *filename == b.filename
}

fn same_parts(a: &[Part], b: &[Part]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_part(a, b))
}

/// What `full` adds to `have` when `have` is a prefix of it (both with adjacent text merged):
/// equal parts, then possibly a text that `full`'s corresponding text extends.
fn remainder(have: &[Part], mut full: Vec<Part>) -> Option<Vec<Part>> {
    let Some((last, init)) = have.split_last() else { return Some(full) };
    if !same_parts(full.get(..init.len())?, init) {
        return None;
    }
    let mut rest = full.split_off(init.len());
    let theirs = rest.first_mut()?;
    if same_part(theirs, last) {
        rest.remove(0);
        return Some(rest);
    }
    let (PartContent::Text(mine), PartContent::Text(longer)) = (&last.content, &mut theirs.content) else {
        return None;
    };
    *longer = longer.strip_prefix(mine.as_str())?.to_string();
    Some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn parts_compare_as_the_derived_equality() {
        let part = |content: PartContent, media_type: Option<&str>, metadata: Option<Value>| Part {
            content,
            media_type: media_type.map(str::to_string),
            filename: None,
            metadata: metadata.and_then(|m| m.as_object().cloned()),
        };
        let parts = [
            part(PartContent::Text("a".into()), None, None),
            part(PartContent::Text("b".into()), None, None),
            part(PartContent::Url("a".into()), None, None),
            part(PartContent::Raw(vec![1].into()), None, None),
            part(PartContent::Raw(vec![2].into()), None, None),
            part(PartContent::Data(json!({"x": 1, "y": [2]})), None, None),
            part(PartContent::Data(json!({"y": [2], "x": 1})), None, None),
            part(PartContent::Data(json!({"x": 1})), None, None),
            part(PartContent::Text("a".into()), Some("text/plain"), None),
            part(PartContent::Text("a".into()), None, Some(json!({"k": 1, "j": 2}))),
            part(PartContent::Text("a".into()), None, Some(json!({"j": 2, "k": 1}))),
            part(PartContent::Text("a".into()), None, Some(json!({"k": 2, "j": 2}))),
            Part { filename: Some("f".into()), ..part(PartContent::Text("a".into()), None, None) },
        ];
        for a in &parts {
            for b in &parts {
                assert_eq!(same_part(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_lone_text_after_a_snapshot_repeats_only_a_bare_text() {
        let chunk = |text: &str| Skim::ArtifactUpdate {
            task_id: "t".into(),
            artifact_id: "a".into(),
            parts: Parts::Text(text.to_string().into()),
            append: true,
        };
        let stored = |part: Part| {
            let mut ledger = Ledger::default();
            ledger.snapshot_parts.push(("a".into(), vec![Part::text("x"), part]));
            ledger
        };
        let with_metadata = Part { metadata: json!({"k": 1}).as_object().cloned(), ..Part::text("y") };
        let typed = Part { media_type: Some("text/plain".into()), ..Part::text("y") };
        assert!(!stored(Part::text("y")).admit(&mut chunk("y")), "the snapshot's last part again");
        assert!(stored(Part::text("y")).admit(&mut chunk("z")));
        assert!(stored(with_metadata).admit(&mut chunk("y")), "a text with metadata is another part");
        assert!(stored(typed).admit(&mut chunk("y")), "a text/plain part is another part");
    }
}
