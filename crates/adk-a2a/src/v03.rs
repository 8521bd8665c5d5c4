//! Protocol v0.3 payloads, both directions. v0.3 has two JSON dialects:
//! - JSON-RPC: the v0.3 JSON schema — objects tagged by `kind` (`task`, `message`, `status-update`,
//!   `artifact-update`; parts `text` / `file` {bytes | uri, mimeType, name} / `data`), lower-case
//!   kebab states (`input-required`), roles `user` / `agent`, and a `final` flag on status updates;
//! - HTTP+JSON: the proto JSON of the v0.3 `a2a.proto` — like v1.0, but messages carry `content`,
//!   files are `file` {fileWithUri | fileWithBytes, mimeType, name}, data is `data` {data}, and
//!   "canceled" is spelled `TASK_STATE_CANCELLED`; stream events are wrapped like v1.0's.
//!
//! Both are rewritten to and from the v1.0 JSON of the crate's types, so the model is shared.

use adk_core::json::{self, member, member_mut, ToJson};
use serde_json::{Map, Value};

use super::types::{Message, StreamResponse, Task, TaskState};
use crate::AdkError;

/// Which v0.3 JSON dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The JSON-RPC binding (`kind`-tagged).
    JsonRpc,
    /// The HTTP+JSON binding (v0.3 proto JSON).
    Rest,
}

/// `item` as v0.3 writes it: kind-tagged for JSON-RPC, wrapped (`{"task": …}`) for HTTP+JSON.
pub fn to_v03(item: &StreamResponse, dialect: Dialect) -> Value {
    let (key, kind, mut value) = match item {
        StreamResponse::Task(t) => ("task", "task", task_out(t, dialect)),
        StreamResponse::Message(m) => ("message", "message", message_to_v03(m, dialect)),
        StreamResponse::StatusUpdate(e) => {
            let mut v = to_json(e);
            if let Some(status) = member_mut(&mut v, "status") {
                status_out(status, dialect);
            }
            set(&mut v, "final", Value::Bool(e.last || e.status.state.ends_stream()));
            ("statusUpdate", "status-update", v)
        }
        StreamResponse::ArtifactUpdate(e) => {
            let mut v = to_json(e);
            if let Some(artifact) = member_mut(&mut v, "artifact") {
                parts_out(artifact, "parts", dialect);
            }
            ("artifactUpdate", "artifact-update", v)
        }
    };
    match dialect {
        Dialect::JsonRpc => {
            set(&mut value, "kind", Value::String(kind.into()));
            value
        }
        Dialect::Rest => wrap(key, value),
    }
}

/// Reads a v0.3 stream event or `message/send` result.
pub fn from_v03(value: Value, dialect: Dialect) -> Result<StreamResponse, AdkError> {
    let (wrapped, last) = event_to_v1(value, dialect)?;
    let mut event: StreamResponse = json::from_value("v0.3 event", wrapped)?;
    if let StreamResponse::StatusUpdate(update) = &mut event {
        update.last = last && !update.status.state.ends_stream();
    }
    Ok(event)
}

/// A v0.3 stream event or `message/send` result as v1.0 JSON, and whether it was a status update
/// marked `final` (which v1.0 JSON does not say).
pub(crate) fn event_to_v1(mut value: Value, dialect: Dialect) -> Result<(Value, bool), AdkError> {
    let mut wrapped = match dialect {
        Dialect::JsonRpc => {
            let kind = member(&value, "kind").and_then(Value::as_str).unwrap_or_default().to_string();
            let key = match kind.as_str() {
                "task" => "task",
                "message" => "message",
                "status-update" => "statusUpdate",
                "artifact-update" => "artifactUpdate",
                other => return Err(AdkError::invalid(format!("v0.3 result has an unknown kind '{other}'"))),
            };
            wrap(key, value)
        }
        Dialect::Rest => {
            if let Some(obj) = value.as_object_mut() {
                // The v0.3 proto named the message payload `msg`; its JSON name is `message`.
                if let Some(m) = take(obj, "msg") {
                    obj.insert("message".into(), m);
                }
            }
            value
        }
    };
    let mut last = false;
    if let Some(obj) = wrapped.as_object_mut() {
        for (key, inner) in obj.iter_mut() {
            match key.as_str() {
                "task" => task_in(inner, dialect),
                "message" => message_in(inner, dialect),
                "statusUpdate" => {
                    last = member(inner, "final").and_then(Value::as_bool) == Some(true);
                    remove(inner, "final");
                    if let Some(status) = member_mut(inner, "status") {
                        status_in(status, dialect);
                    }
                }
                "artifactUpdate" => {
                    if let Some(artifact) = member_mut(inner, "artifact") {
                        parts_in(artifact, "parts", dialect);
                    }
                }
                _ => {}
            }
            remove(inner, "kind");
        }
    }
    Ok((wrapped, last))
}

/// A v0.3 task as v1.0 JSON.
pub(crate) fn task_to_v1(mut value: Value, dialect: Dialect) -> Value {
    task_in(&mut value, dialect);
    remove(&mut value, "kind");
    value
}

/// `message` as v0.3 writes it.
pub fn message_to_v03(message: &Message, dialect: Dialect) -> Value {
    let mut v = to_json(message);
    message_out(&mut v, dialect);
    v
}

/// `value` as a `Value` to rewrite; through `dyn`, one instance of the writing for every type.
pub(crate) fn to_json(value: &dyn ToJson) -> Value {
    json::to_value(value)
}

fn set(value: &mut Value, key: &str, new: Value) {
    if let Some(obj) = value.as_object_mut() {
        obj.insert(key.into(), new);
    }
}

fn remove(value: &mut Value, key: &str) -> Option<Value> {
    value.as_object_mut().and_then(|o| take(o, key))
}

/// Takes `key` out of `object` as serde_json's `remove` does (the last member moves into its
/// place), found by a scan and the map rebuilt without it: serde_json's hashed removal is 1.8 KB
/// of code for a few small objects per v0.3 event.
fn take(object: &mut Map<String, Value>, key: &str) -> Option<Value> {
    let at = object.keys().position(|k| k == key)?;
    let mut members = std::mem::take(object).into_iter();
    // The last member, unless it is the one taken, moves into the taken one's place.
    let mut last = if at + 1 < members.len() { members.next_back() } else { None };
    let mut taken = None;
    for (i, member) in members.enumerate() {
        let (k, v) = if i == at {
            taken = Some(member.1);
            match last.take() {
                Some(last) => last,
                None => break,
            }
        } else {
            member
        };
        object.insert(k, v);
    }
    taken
}

fn rename(value: &mut Value, from: &str, to: &str) {
    if let Some(v) = remove(value, from) {
        set(value, to, v);
    }
}

fn each(value: &mut Value, key: &str, f: impl Fn(&mut Value)) {
    if let Some(items) = member_mut(value, key).and_then(Value::as_array_mut) {
        items.iter_mut().for_each(f);
    }
}

// ---- v1.0 model JSON → v0.3 ----

fn task_out(task: &Task, d: Dialect) -> Value {
    let mut v = to_json(task);
    if let Some(status) = member_mut(&mut v, "status") {
        status_out(status, d);
    }
    each(&mut v, "artifacts", |a| parts_out(a, "parts", d));
    each(&mut v, "history", |m| message_out(m, d));
    v
}

fn status_out(status: &mut Value, d: Dialect) {
    if let Some(state) = member(status, "state").and_then(Value::as_str) {
        let state = TaskState::parse(state);
        set(status, "state", Value::String(state_out(&state, d)));
    }
    if let Some(m) = member_mut(status, "message") {
        message_out(m, d);
    }
}

fn state_out(state: &TaskState, d: Dialect) -> String {
    match (d, state) {
        (Dialect::Rest, TaskState::Canceled) => "TASK_STATE_CANCELLED".into(),
        (Dialect::Rest, s) => s.as_str().into(),
        (Dialect::JsonRpc, TaskState::Unspecified) => "unknown".into(),
        (Dialect::JsonRpc, s) => {
            // Char by char: `str::replace` would link a char searcher for this one rewrite.
            let name = s.as_str();
            let name = name.strip_prefix("TASK_STATE_").unwrap_or(name);
            let mut state = String::with_capacity(name.len());
            for c in name.chars() {
                state.push(if c == '_' { '-' } else { c.to_ascii_lowercase() });
            }
            state
        }
    }
}

fn message_out(m: &mut Value, d: Dialect) {
    match d {
        Dialect::JsonRpc => {
            set(m, "kind", Value::String("message".into()));
            let role = match member(m, "role").and_then(Value::as_str) {
                Some("ROLE_AGENT") => "agent",
                _ => "user",
            };
            set(m, "role", Value::String(role.into()));
            parts_out(m, "parts", d);
        }
        Dialect::Rest => {
            parts_out(m, "parts", d);
            rename(m, "parts", "content");
        }
    }
}

fn parts_out(holder: &mut Value, key: &str, d: Dialect) {
    each(holder, key, |p| *p = part_out(std::mem::take(p), d));
}

fn part_out(part: Value, d: Dialect) -> Value {
    let Value::Object(mut p) = part else { return part };
    let mut out = Map::new();
    carry(&mut out, "metadata", take(&mut p, "metadata"));
    let (bytes_key, uri_key) = match d {
        Dialect::JsonRpc => ("bytes", "uri"),
        Dialect::Rest => ("fileWithBytes", "fileWithUri"),
    };
    let file = match (take(&mut p, "raw"), take(&mut p, "url")) {
        (Some(raw), _) => Some((bytes_key, raw)),
        (None, Some(url)) => Some((uri_key, url)),
        (None, None) => None,
    };
    let kind = if let Some((key, value)) = file {
        let mut f = Map::new();
        carry(&mut f, key, Some(value));
        carry(&mut f, "mimeType", take(&mut p, "mediaType"));
        carry(&mut f, "name", take(&mut p, "filename"));
        carry(&mut out, "file", Some(Value::Object(f)));
        "file"
    } else if let Some(data) = take(&mut p, "data") {
        let data = match d {
            Dialect::JsonRpc => data,
            Dialect::Rest => wrap("data", data),
        };
        carry(&mut out, "data", Some(data));
        "data"
    } else {
        carry(&mut out, "text", Some(take(&mut p, "text").unwrap_or_default()));
        "text"
    };
    if d == Dialect::JsonRpc {
        carry(&mut out, "kind", Some(Value::String(kind.into())));
    }
    Value::Object(out)
}

/// Adds `value`, if any, to `object` as `key`: one instance of the insertion for every member a
/// part's translation moves.
fn carry(object: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        object.insert(key.into(), value);
    }
}

/// `{key: value}`, by [`carry`]: `json::object`'s array iterator (as a `dyn Iterator`, with its
/// vtable) would be in the A2A module for these alone.
fn wrap(key: &str, value: Value) -> Value {
    let mut object = Map::new();
    carry(&mut object, key, Some(value));
    Value::Object(object)
}

// ---- v0.3 → v1.0 model JSON ----

fn task_in(task: &mut Value, d: Dialect) {
    if let Some(status) = member_mut(task, "status") {
        status_in(status, d);
    }
    each(task, "artifacts", |a| parts_in(a, "parts", d));
    each(task, "history", |m| message_in(m, d));
}

fn status_in(status: &mut Value, d: Dialect) {
    if let Some(state) = member(status, "state").and_then(Value::as_str) {
        let state = state_in(state, d);
        set(status, "state", Value::String(state));
    }
    if let Some(m) = member_mut(status, "message") {
        message_in(m, d);
    }
}

fn state_in(state: &str, d: Dialect) -> String {
    match (d, state) {
        (Dialect::Rest, "TASK_STATE_CANCELLED") => TaskState::Canceled.as_str().into(),
        (Dialect::Rest, s) => s.into(),
        (Dialect::JsonRpc, "unknown") => TaskState::Unspecified.as_str().into(),
        (Dialect::JsonRpc, "cancelled") => TaskState::Canceled.as_str().into(),
        (Dialect::JsonRpc, s) => {
            let mut name = String::from("TASK_STATE_");
            name.extend(s.chars().map(|c| if c == '-' { '_' } else { c.to_ascii_uppercase() }));
            name
        }
    }
}

fn message_in(m: &mut Value, d: Dialect) {
    remove(m, "kind");
    match d {
        Dialect::JsonRpc => {
            let role = match member(m, "role").and_then(Value::as_str) {
                Some("agent") => "ROLE_AGENT",
                Some("user") => "ROLE_USER",
                _ => "ROLE_UNSPECIFIED",
            };
            set(m, "role", Value::String(role.into()));
        }
        Dialect::Rest => rename(m, "content", "parts"),
    }
    parts_in(m, "parts", d);
}

fn parts_in(holder: &mut Value, key: &str, d: Dialect) {
    each(holder, key, |p| *p = part_in(std::mem::take(p), d));
}

fn part_in(part: Value, d: Dialect) -> Value {
    let Value::Object(mut p) = part else { return part };
    let mut out = Map::new();
    carry(&mut out, "metadata", take(&mut p, "metadata"));
    if let Some(Value::Object(mut f)) = take(&mut p, "file") {
        let bytes = take(&mut f, "bytes").or_else(|| take(&mut f, "fileWithBytes"));
        let uri = take(&mut f, "uri").or_else(|| take(&mut f, "fileWithUri"));
        match bytes {
            Some(b) => carry(&mut out, "raw", Some(b)),
            None => carry(&mut out, "url", uri),
        }
        carry(&mut out, "mediaType", take(&mut f, "mimeType"));
        carry(&mut out, "filename", take(&mut f, "name"));
    } else if let Some(data) = take(&mut p, "data") {
        let data = match (d, data) {
            (Dialect::Rest, Value::Object(mut wrapper)) => take(&mut wrapper, "data").unwrap_or_default(),
            (_, data) => data,
        };
        carry(&mut out, "data", Some(data));
    } else {
        carry(&mut out, "text", take(&mut p, "text"));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use super::take;

    #[test]
    fn take_leaves_the_members_as_serde_jsons_remove_does() {
        let object = |v: Value| match v {
            Value::Object(o) => o,
            _ => Map::new(),
        };
        let sample = object(json!({"kind": "task", "id": "t", "contextId": "c", "status": {}, "final": true}));
        for key in ["kind", "id", "status", "final", "absent"] {
            let (mut ours, mut theirs) = (sample.clone(), sample.clone());
            assert_eq!(take(&mut ours, key), theirs.remove(key), "{key}");
            let order = |o: &Map<String, Value>| o.keys().cloned().collect::<Vec<_>>();
            assert_eq!(order(&ours), order(&theirs), "{key}");
        }
    }
}
