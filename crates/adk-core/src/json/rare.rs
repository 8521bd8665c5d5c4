//! [`Rare`]: the members of a struct kept as JSON values rather than as fields of their own.

use serde_json::{Map, Value};

use super::{FromJson, JsonError, ObjectWriter, Reader};

/// The rarely set members of a struct (live-API signals, metadata ADK only carries through), kept
/// as JSON values by their wire names, so that the struct stays small to move, copy and drop, and
/// its decoder has no field of its own for each. A [`json_struct!`](crate::json_struct) member
/// declared `(rare store)` is read with its type's decoder (the same errors as a field), kept in
/// `store`, and written in its declared place.
#[derive(Debug, Clone, Default)]
pub struct Rare(Vec<(&'static str, Value)>);

impl Rare {
    /// The member named `key` (its wire name, `goAway`).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, value)| value)
    }

    /// Sets the member `key`, or removes it with `None`. `key` must be one its struct declares
    /// rare: no other is written.
    pub fn set(&mut self, key: &'static str, value: Option<Value>) {
        match (self.0.iter().position(|(k, _)| *k == key), value) {
            (Some(at), None) => {
                self.0.remove(at);
            }
            (Some(at), Some(value)) => {
                if let Some(slot) = self.0.get_mut(at) {
                    slot.1 = value;
                }
            }
            (None, Some(value)) => self.0.push((key, value)),
            (None, None) => {}
        }
    }

    /// Writes the member `key` if it is set.
    #[doc(hidden)]
    pub fn write(&self, object: &mut ObjectWriter<'_>, key: &'static str) {
        if let Some(value) = self.get(key) {
            object.field(key, value);
        }
    }
}

/// The same members, whatever order they were set in.
impl PartialEq for Rare {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len() && self.0.iter().all(|(key, value)| other.get(key) == Some(value))
    }
}

/// A rare member's declared type: an `Option` of what becomes a JSON value.
#[doc(hidden)]
pub trait RareValue: FromJson {
    /// The value to keep, if any.
    fn into_value(self) -> Option<Value>;
}

impl RareValue for Option<String> {
    fn into_value(self) -> Option<Value> {
        self.map(Value::String)
    }
}

impl RareValue for Option<Map<String, Value>> {
    fn into_value(self) -> Option<Value> {
        self.map(Value::Object)
    }
}

impl RareValue for Option<Value> {
    fn into_value(self) -> Option<Value> {
        self
    }
}

/// Reads a rare member as its declared type `T` into `store`.
#[doc(hidden)]
#[inline(never)]
pub fn read_rare<T: RareValue>(store: &mut Rare, key: &'static str, r: &mut Reader<'_>) -> Result<(), JsonError> {
    store.set(key, T::read_json(r)?.into_value());
    Ok(())
}
#[cfg(test)]
mod tests {
    use crate::{Event, LlmResponse, Part};

    #[test]
    fn rare_members_are_written_in_their_declared_places() {
        // In ADK's order, rare members between fields of their own; read in another order.
        let wire = r#"{"partial":true,"turnComplete":true,"turnCompleteReason":"r","finishReason":"STOP","interrupted":false,"interactionStatus":"s","customMetadata":{"a":1},"goAway":{"t":"1s"},"voiceActivity":null,"avgLogprobs":-0.5,"cacheMetadata":{},"environmentId":"e","author":"a","output":[1],"nodeInfo":{"n":{}},"branch":"b","id":"i","timestamp":1.0}"#;
        let scrambled = r#"{"timestamp":1,"id":"i","nodeInfo":{"n":{}},"environmentId":"e","goAway":{"t":"1s"},"turnCompleteReason":"x","output":[1],"author":"a","branch":"b","cacheMetadata":{},"interactionStatus":"s","avgLogprobs":-0.5,"interrupted":false,"customMetadata":{"a":1},"finishReason":"STOP","turnComplete":true,"partial":true,"turnCompleteReason":"r"}"#;
        let event = Event::from_json(scrambled).unwrap();
        let written = event.to_json().unwrap();
        assert_eq!(written.replace(r#""actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{},"requestedToolConfirmations":{}},"#, "").replace(r#","invocationId":"""#, ""), wire.replace(r#","voiceActivity":null"#, ""));
        assert_eq!(event.rare.get("goAway"), Some(&serde_json::json!({"t": "1s"})));
        assert_eq!(Event::from_json(&written).unwrap(), event);

        let part = Part::from_text("t");
        let mut with_rare = part.clone();
        with_rare.rare.set("mediaResolution", Some("high".into()));
        with_rare.rare.set("speechMetadata", Some(serde_json::json!({})));
        assert_eq!(crate::json::to_string(&with_rare), r#"{"mediaResolution":"high","text":"t","speechMetadata":{}}"#);
        with_rare.rare.set("mediaResolution", None);
        with_rare.rare.set("speechMetadata", None);
        assert_eq!(with_rare, part);
        assert_eq!(LlmResponse::default().rare.get("goAway"), None);
    }

    #[test]
    fn rare_members_are_checked_as_their_types() {
        let error = |json: &str| Event::from_json(json).unwrap_err().message;
        assert_eq!(
            error(r#"{"author":"a","goAway":5}"#),
            "invalid event: goAway: invalid type: a number, expected an object"
        );
        assert_eq!(
            error(r#"{"author":"a","liveSessionId":{}}"#),
            "invalid event: liveSessionId: invalid type: an object, expected a string"
        );
    }

    #[test]
    fn an_event_from_a_response_keeps_its_rare_members() {
        let mut response = LlmResponse::from_parts(vec![Part::from_text("t")]);
        response.rare.set("interactionId", Some("x".into()));
        let event = Event::from_llm_response(response.clone(), "a", "e-1");
        assert_eq!(
            (event.rare.get("interactionId"), event.content, event.invocation_id.as_str()),
            (Some(&"x".into()), response.content, "e-1")
        );
    }
}
