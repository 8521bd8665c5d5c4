//! ADK's credential key: the name a credential is stored under, derived from the auth scheme and
//! the tool's raw credential (`AuthConfig.get_credential_key`), so the same configuration finds
//! the same stored credential on every call, in adk-wasm and in ADK Python alike.

use adk_core::sort::sort_by;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::types::JsonObject;

/// An `AuthCredential`'s own fields: anything else is a pydantic extra, left out of the digest.
pub(super) const CREDENTIAL_FIELDS: [&str; 6] =
    ["authType", "resourceRef", "apiKey", "http", "serviceAccount", "oauth2"];

/// What an OAuth2 credential gains during a sign-in; left out so the key stays the same before
/// and after.
const VOLATILE_OAUTH2: [&str; 9] = [
    "authUri",
    "state",
    "authResponseUri",
    "authCode",
    "accessToken",
    "refreshToken",
    "expiresAt",
    "expiresIn",
    "redirectUri",
];

/// `json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))` of the pydantic
/// dump ADK digests, which has no nulls (`exclude_none`).
fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut present = Vec::new();
                for entry in map {
                    if !entry.1.is_null() {
                        present.push(entry);
                    }
                }
                let mut object = Map::new();
                for (k, v) in sort_by(present, |a, b| a.0 < b.0) {
                    object.insert(k.clone(), sorted(v));
                }
                Value::Object(object)
            }
            Value::Array(items) => {
                let mut sorted_items = Vec::with_capacity(items.len());
                for item in items {
                    sorted_items.push(sorted(item));
                }
                Value::Array(sorted_items)
            }
            other => other.clone(),
        }
    }
    adk_core::json::to_string(&sorted(value))
}

/// `<kind>_` and the first 16 hex digits of the SHA-256 of the canonical JSON of `object`.
fn named_digest(object: JsonObject, kind_field: &str) -> String {
    let mut name = object.get(kind_field).and_then(Value::as_str).unwrap_or_default().to_string();
    name.push('_');
    let hash = Sha256::digest(canonical(&Value::Object(object)).as_bytes());
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for b in hash.iter().take(8) {
        for nibble in [b >> 4, b & 15] {
            name.push(char::from(HEX.get(usize::from(nibble)).copied().unwrap_or(b'0')));
        }
    }
    name
}

/// The key for `scheme` and `raw` (ADK's `adk_<scheme type>_<digest>_<credential type>_<digest>`).
pub fn credential_key(scheme: &JsonObject, raw: Option<&JsonObject>) -> String {
    let mut scheme = scheme.clone();
    scheme.shift_remove("credential_key");
    scheme.shift_remove("credentialKey");
    let mut key = ["adk_", &named_digest(scheme, "type"), "_"].concat();
    if let Some(raw) = raw {
        let mut credential = JsonObject::new();
        for (k, v) in raw {
            if CREDENTIAL_FIELDS.contains(&k.as_str()) {
                credential.insert(k.clone(), v.clone());
            }
        }
        if let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") {
            oauth2.retain(|k, _| !VOLATILE_OAUTH2.contains(&k.as_str()));
            oauth2.entry("tokenEndpointAuthMethod").or_insert_with(|| "client_secret_basic".into());
        }
        key.push_str(&named_digest(credential, "authType"));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use adk_core::json;

    fn object(text: &str) -> JsonObject {
        json::from_str("test", text).unwrap()
    }

    /// The keys google-adk 2.13.0 computed for the recorded flows' configurations.
    #[test]
    fn keys_are_adks() {
        let scheme = object(r#"{"type": "apiKey", "in": "header", "name": "X-Api-Key"}"#);
        let raw = object(r#"{"authType": "apiKey"}"#);
        assert_eq!(credential_key(&scheme, Some(&raw)), "adk_apiKey_12037b6b68d3604d_apiKey_0e0c64790d90ab22");
        let scheme = object(r#"{"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}"#);
        let raw = object(r#"{"authType": "http", "http": {"scheme": "bearer", "credentials": {}}}"#);
        assert_eq!(credential_key(&scheme, Some(&raw)), "adk_http_3e922d755264ee81_http_7de157d10ab323c9");
    }

    #[test]
    fn key_order_and_extras_do_not_change_the_key() {
        let a = object(r#"{"type": "apiKey", "in": "header", "name": "X-Api-Key"}"#);
        let b = object(r#"{"name": "X-Api-Key", "credentialKey": "mine", "type": "apiKey", "in": "header"}"#);
        assert_eq!(credential_key(&a, None), credential_key(&b, None));
    }
}
