//! What the client itself reads of an event: which event it is, its task, its status's key, its
//! artifact chunk. One pass over the v1.0 JSON that skips the rest (messages, histories, metadata):
//! the JSON goes on as the server wrote it, and the typed model ([`super::types`]) is decoded only
//! for a Rust caller that asks for it. The members read are checked as the typed model checks them.

use std::borrow::Cow;

use adk_core::json::{FromJson, JsonError, ObjectWriter, Reader, Writer};

use super::types::{one_of, read_part, text_part, Part, TaskState};

/// What tells a status from another (not the whole status: its message can be long).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct StatusKey {
    pub state: TaskState,
    pub timestamp: Option<String>,
    pub message_id: Option<String>,
}

/// A task's artifact: its id, its parts, and its other members as JSON text, so that a snapshot can
/// send it on with other parts.
#[derive(Debug)]
pub(crate) struct ArtifactSkim {
    pub id: String,
    pub parts: Vec<Part>,
    pub others: Vec<(String, String)>,
}

/// A task, with its status's JSON text (what a snapshot sends on as a status update).
#[derive(Debug, Default)]
pub(crate) struct TaskSkim {
    pub id: String,
    pub context_id: String,
    pub status: StatusKey,
    pub status_json: String,
    pub artifacts: Vec<ArtifactSkim>,
}

/// One event, as far as the client reads it: a live update's ids are borrowed from its text, which
/// the stream keeps while the ledger checks them.
#[derive(Debug)]
pub(crate) enum Skim<'a> {
    /// Boxed: a task is a stream's first event at most, and inline it would make every event's
    /// slot as large as itself (its ids, status and artifacts).
    Task(Box<TaskSkim>),
    Message,
    StatusUpdate {
        task_id: Cow<'a, str>,
        status: StatusKey,
        /// v0.3's `final` on a state that does not end a stream by itself (see
        /// [`TaskStatusUpdateEvent::last`](super::types::TaskStatusUpdateEvent::last)).
        last: bool,
    },
    ArtifactUpdate {
        task_id: Cow<'a, str>,
        artifact_id: Cow<'a, str>,
        parts: Parts<'a>,
        append: bool,
    },
}

/// An artifact's parts as read: most chunks of a stream are one part of plain text, kept as its
/// text (borrowed from the event's where it has no escapes) rather than built into a part.
#[derive(Debug)]
pub(crate) enum Parts<'a> {
    /// One part, of this text and nothing else.
    Text(Cow<'a, str>),
    Many(Vec<Part>),
}

impl Default for Parts<'_> {
    fn default() -> Self {
        Parts::Many(Vec::new())
    }
}

impl Parts<'_> {
    pub fn into_vec(self) -> Vec<Part> {
        match self {
            Parts::Text(text) => vec![text_part(text)],
            Parts::Many(parts) => parts,
        }
    }
}

/// Reads a v1.0 stream response (`{"task": …}`, `{"message": …}`, …) into `event`, the caller's
/// slot: returned instead, through each reader and `one_of`, every event would be copied at each.
pub(crate) fn event<'a>(r: &mut Reader<'a>, event: &mut Skim<'a>) -> Result<(), JsonError> {
    one_of(r, |r, key| {
        *event = match key {
            "task" => Skim::Task(Box::new(task(r)?)),
            "message" => {
                r.object(|r, _| r.skip())?;
                Skim::Message
            }
            "statusUpdate" => return status_update(r, event).map(Some),
            "artifactUpdate" => return artifact_update(r, event).map(Some),
            _ => return r.skip().map(|()| None),
        };
        Ok(Some(()))
    })
}

fn required<T>(value: Option<T>, key: &str) -> Result<T, JsonError> {
    value.ok_or_else(|| JsonError::missing(key))
}

/// Reads a task.
pub(crate) fn task(r: &mut Reader<'_>) -> Result<TaskSkim, JsonError> {
    let mut task = TaskSkim { status_json: "{}".into(), ..TaskSkim::default() };
    let mut id = None;
    r.object(|r, key| {
        match key {
            "id" => id = Some(r.string()?),
            "contextId" => task.context_id = r.string()?,
            "status" => {
                let (status, text) = r.with_text(status)?;
                task.status = status;
                task.status_json = text.unwrap_or("{}").to_string();
            }
            "artifacts" => r.array(|r| {
                r.charge(std::mem::size_of::<ArtifactSkim>())?;
                let mut others = Vec::new();
                let (id, parts) = artifact(r, Some(&mut others))?;
                task.artifacts.push(ArtifactSkim { id: id.into_owned(), parts: parts.into_vec(), others });
                Ok(())
            })?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    task.id = required(id, "id")?;
    Ok(task)
}

fn status(r: &mut Reader<'_>) -> Result<StatusKey, JsonError> {
    let mut status = StatusKey::default();
    r.object(|r, key| {
        match key {
            "state" => status.state = TaskState::read_json(r)?,
            "timestamp" => status.timestamp = Option::read_json(r)?,
            "message" if !r.null()? => {
                let mut id = None;
                r.object(|r, key| match key {
                    "messageId" => r.string().map(|s| id = Some(s)),
                    _ => r.skip(),
                })?;
                status.message_id = Some(required(id, "messageId")?);
            }
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(status)
}

fn status_update<'a>(r: &mut Reader<'a>, event: &mut Skim<'a>) -> Result<(), JsonError> {
    let (mut task_id, mut status_key) = (None, StatusKey::default());
    r.object(|r, key| {
        match key {
            "taskId" => task_id = Some(r.str()?),
            "contextId" => drop(r.str()?),
            "status" => status_key = status(r)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    *event = Skim::StatusUpdate { task_id: required(task_id, "taskId")?, status: status_key, last: false };
    Ok(())
}

fn artifact_update<'a>(r: &mut Reader<'a>, event: &mut Skim<'a>) -> Result<(), JsonError> {
    let (mut task_id, mut chunk, mut append) = (None, None, false);
    r.object(|r, key| {
        match key {
            "taskId" => task_id = Some(r.str()?),
            "contextId" => drop(r.str()?),
            // A live chunk's other members are never sent on.
            "artifact" => chunk = Some(artifact(r, None)?),
            "append" => append = r.bool()?,
            "lastChunk" => drop(r.bool()?),
            _ => r.skip()?,
        }
        Ok(())
    })?;
    let task_id = required(task_id, "taskId")?;
    let (artifact_id, parts) = chunk.ok_or_else(|| JsonError::missing("artifact"))?;
    *event = Skim::ArtifactUpdate { task_id, artifact_id, parts, append };
    Ok(())
}

/// Reads an artifact: its id and parts, and its other members into `others` when given (a task's:
/// a snapshot may send them on).
fn artifact<'a>(
    r: &mut Reader<'a>,
    mut others: Option<&mut Vec<(String, String)>>,
) -> Result<(Cow<'a, str>, Parts<'a>), JsonError> {
    let (mut id, mut parts) = (None, Parts::default());
    r.object(|r, key| {
        match (key, &mut others) {
            ("artifactId", _) => id = Some(r.str()?),
            ("parts", _) => parts = read_parts(r)?,
            (_, Some(others)) => others.push((key.to_string(), r.raw()?.into_owned())),
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok((required(id, "artifactId")?, parts))
}

/// Reads parts as `Vec<Part>` reads them (each checked, and charged, as it is), a lone part of
/// plain text kept as its text.
fn read_parts<'a>(r: &mut Reader<'a>) -> Result<Parts<'a>, JsonError> {
    let mut parts = Parts::default();
    r.array(|r| {
        r.charge(std::mem::size_of::<Part>())?;
        let part = read_part(r)?;
        parts = match (std::mem::take(&mut parts), part) {
            (Parts::Many(none), Err(text)) if none.is_empty() => Parts::Text(text),
            (earlier, part) => {
                let mut parts = earlier.into_vec();
                parts.push(part.unwrap_or_else(text_part));
                Parts::Many(parts)
            }
        };
        Ok(())
    })?;
    Ok(parts)
}

/// The v1.0 JSON of an artifact update for `task` carrying `artifact` with `parts` (all of its
/// parts, or the tail a snapshot adds).
pub(crate) fn artifact_update_json(
    task: &TaskSkim,
    artifact: &ArtifactSkim,
    parts: &[Part],
    append: bool,
    last_chunk: bool,
) -> String {
    update_json("artifactUpdate", task, &mut |u| {
        u.field_with("artifact", |w| {
            let mut a = w.object();
            a.field("artifactId", &artifact.id);
            for (key, json) in &artifact.others {
                a.raw(key, json);
            }
            a.field("parts", parts);
            a.end();
        });
        if append {
            u.field("append", &true);
        }
        if last_chunk {
            u.field("lastChunk", &true);
        }
    })
}

/// The v1.0 JSON of a status update for `task` to its status.
pub(crate) fn status_update_json(task: &TaskSkim) -> String {
    update_json("statusUpdate", task, &mut |u| {
        u.raw("status", &task.status_json);
    })
}

fn update_json(kind: &str, task: &TaskSkim, members: &mut dyn FnMut(&mut ObjectWriter<'_>)) -> String {
    let mut w = Writer::new();
    let mut outer = w.object();
    outer.field_with(kind, |w| {
        let mut u = w.object();
        u.field("taskId", &task.id).field("contextId", &task.context_id);
        members(&mut u);
        u.end();
    });
    outer.end();
    w.into_string()
}

#[cfg(test)]
mod tests {
    use adk_core::json::{FromJson, Reader};

    use super::{read_parts, Part, Parts};
    use crate::types::PartContent;

    #[test]
    fn parts_read_as_the_typed_model_reads_them() {
        let exactly_one = Err("[0]: a part needs exactly one of text, raw, url, data".to_string());
        for (json, lone_text, expected) in [
            (r#"[{"text": "a"}]"#, true, Ok(vec![Part::text("a")])),
            (r#"[{"text": "a\n"}]"#, true, Ok(vec![Part::text("a\n")])),
            (r#"[{"text": "a", "mediaType": "", "filename": ""}]"#, true, Ok(vec![Part::text("a")])),
            (r#"[{"text": null, "url": "u", "other": [1]}]"#, false, Ok(vec![Part::new(PartContent::Url("u".into()))])),
            (r#"[{"text": "a", "url": "u"}]"#, false, exactly_one.clone()),
            (r#"[{"text": "a", "text": "b"}]"#, false, exactly_one.clone()),
            (r#"[{"text": null}]"#, false, exactly_one.clone()),
            (r#"[{}]"#, false, exactly_one),
            (r#"[{"text": 1}]"#, false, Err("[0].text: invalid type: a number, expected a string".to_string())),
            (r#"[{"text": "a"}, {"raw": "!"}]"#, false, Err("[1].raw: invalid base64: invalid input length".into())),
            (r#"[]"#, false, Ok(vec![])),
        ] {
            let skimmed = read_parts(&mut Reader::text(json));
            assert_eq!(matches!(skimmed, Ok(Parts::Text(_))), lone_text, "{json}");
            let skimmed = skimmed.map(Parts::into_vec).map_err(|e| e.to_string());
            let typed = Vec::<Part>::read_json(&mut Reader::text(json)).map_err(|e| e.to_string());
            assert_eq!(skimmed, typed, "{json}");
            assert_eq!(typed, expected, "{json}");
        }
        // What is not plain text alone stays a part of its own, with all it carries.
        let with = |media_type: Option<&str>, filename: Option<&str>, metadata: Option<serde_json::Value>| Part {
            media_type: media_type.map(str::to_string),
            filename: filename.map(str::to_string),
            metadata: metadata.and_then(|m| m.as_object().cloned()),
            ..Part::text("a")
        };
        for (json, expected) in [
            (r#"[{"text": "a", "mediaType": "text/plain"}]"#, vec![with(Some("text/plain"), None, None)]),
            (r#"[{"text": "a", "filename": "f"}]"#, vec![with(None, Some("f"), None)]),
            (r#"[{"text": "a", "metadata": {"k": 1}}]"#, vec![with(None, None, Some(serde_json::json!({"k": 1})))]),
            (r#"[{"text": "a"}, {"text": "b"}]"#, vec![Part::text("a"), Part::text("b")]),
            (
                r#"[{"data": {}}, {"text": "b"}]"#,
                vec![Part::new(PartContent::Data(serde_json::json!({}))), Part::text("b")],
            ),
        ] {
            let skimmed = read_parts(&mut Reader::text(json));
            assert!(matches!(skimmed, Ok(Parts::Many(_))), "{json}");
            assert_eq!(skimmed.map(Parts::into_vec), Ok(expected.clone()), "{json}");
            assert_eq!(Vec::<Part>::read_json(&mut Reader::text(json)), Ok(expected), "{json}");
        }
    }
}
