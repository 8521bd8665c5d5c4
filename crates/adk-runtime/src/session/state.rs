//! Scoped state: `app:` keys are shared by every session of an app, `user:` keys by every session of
//! a user, `temp:` keys live only for the current invocation, other keys belong to the session.

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

/// The state a caller sees: the session's own keys, then the app's keys with `app:` and the user's
/// with `user:`, as they are now.
pub fn scoped_view(session: &JsonObject, app: Option<&JsonObject>, user: Option<&JsonObject>) -> JsonObject {
    let mut state = session.clone();
    for (prefix, scoped) in [(APP_PREFIX, app), (USER_PREFIX, user)] {
        let Some(scoped) = scoped else { continue };
        for (key, value) in scoped {
            state.insert([prefix, key].concat(), value.clone());
        }
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

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
}
