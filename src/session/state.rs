//! Scoped state: `app:` keys are shared by every session of an app, `user:` keys by every session of
//! a user, `temp:` keys live only for the current invocation, other keys belong to the session.

use serde_json::Value;

use crate::types::JsonObject;

/// Prefix of app-wide keys.
pub const APP_PREFIX: &str = "app:";
/// Prefix of per-user keys.
pub const USER_PREFIX: &str = "user:";
/// Prefix of invocation-only keys; never stored.
pub const TEMP_PREFIX: &str = "temp:";

/// A state delta split by scope, with the scope prefixes removed from app and user keys.
#[derive(Debug, Default, PartialEq)]
pub struct StateScopes {
    /// App-wide keys, without `app:`.
    pub app: JsonObject,
    /// Per-user keys, without `user:`.
    pub user: JsonObject,
    /// Session keys; `temp:` keys are dropped.
    pub session: JsonObject,
}

/// Splits a state delta by scope (ADK's `extract_state_delta`).
pub fn split_state_delta(delta: &JsonObject) -> StateScopes {
    let mut scopes = StateScopes::default();
    for (key, value) in delta {
        if let Some(k) = key.strip_prefix(APP_PREFIX) {
            scopes.app.insert(k.to_string(), value.clone());
        } else if let Some(k) = key.strip_prefix(USER_PREFIX) {
            scopes.user.insert(k.to_string(), value.clone());
        } else if !key.starts_with(TEMP_PREFIX) {
            scopes.session.insert(key.clone(), value.clone());
        }
    }
    scopes
}

/// The state seen by contexts: the session's current state plus the writes not yet committed.
/// Writes are visible at once and recorded in the delta that goes into the next event.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct State {
    value: JsonObject,
    delta: JsonObject,
}

impl State {
    /// A view over `value` with an empty delta.
    pub fn new(value: JsonObject) -> Self {
        State { value, delta: JsonObject::new() }
    }

    /// The current value of `key`, pending writes first.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.delta.get(key).or_else(|| self.value.get(key))
    }

    /// Whether `key` has a value.
    pub fn contains(&self, key: &str) -> bool {
        self.delta.contains_key(key) || self.value.contains_key(key)
    }

    /// Writes `key`; visible at once and recorded in the delta.
    pub fn set(&mut self, key: &str, value: Value) {
        self.value.insert(key.to_string(), value.clone());
        self.delta.insert(key.to_string(), value);
    }

    /// Writes every key of `delta`.
    pub fn update(&mut self, delta: JsonObject) {
        for (key, value) in delta {
            self.set(&key, value);
        }
    }

    /// Whether there are writes not yet committed to an event.
    pub fn has_delta(&self) -> bool {
        !self.delta.is_empty()
    }

    /// The writes not yet committed.
    pub fn delta(&self) -> &JsonObject {
        &self.delta
    }

    /// Takes the pending writes (to put them in an event), leaving the values visible.
    pub fn take_delta(&mut self) -> JsonObject {
        std::mem::take(&mut self.delta)
    }

    /// The whole state, pending writes included.
    pub fn to_dict(&self) -> JsonObject {
        let mut all = self.value.clone();
        for (key, value) in &self.delta {
            all.insert(key.clone(), value.clone());
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> JsonObject {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn split_by_scope() {
        let s = split_state_delta(&obj(json!({"app:a": 1, "user:u": 2, "temp:t": 3, "s": 4, "apple": 5})));
        assert_eq!(s.app, obj(json!({"a": 1})));
        assert_eq!(s.user, obj(json!({"u": 2})));
        assert_eq!(s.session, obj(json!({"s": 4, "apple": 5})));
    }

    #[test]
    fn writes_are_visible_and_recorded() {
        let mut st = State::new(obj(json!({"a": 1, "b": 2})));
        assert!(!st.has_delta());
        st.set("a", json!(10));
        st.set("temp:x", json!(true));
        assert_eq!(st.get("a"), Some(&json!(10)));
        assert!(st.contains("temp:x") && st.contains("b") && !st.contains("c"));
        assert_eq!(st.delta(), &obj(json!({"a": 10, "temp:x": true})));
        assert_eq!(st.to_dict(), obj(json!({"a": 10, "b": 2, "temp:x": true})));
        assert_eq!(st.take_delta().len(), 2);
        assert!(!st.has_delta());
        assert_eq!(st.get("a"), Some(&json!(10)));
    }
}
