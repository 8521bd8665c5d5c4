//! The HTTP headers that carry a credential (ADK's `build_auth_headers`), for toolsets that send
//! their credential on every request (MCP).

use adk_core::types::Bytes;
use serde_json::Value;

use crate::types::JsonObject;

/// The headers for `credential` (an `AuthCredential` as ADK writes it) under `scheme`; none when
/// it cannot be said in headers.
pub fn auth_headers(credential: &JsonObject, scheme: &JsonObject) -> Vec<(String, String)> {
    fn text<'a>(value: Option<&'a Value>, key: &str) -> Option<&'a str> {
        value?.get(key)?.as_str().filter(|s| !s.is_empty())
    }
    let mut headers = Vec::new();
    let http = credential.get("http");
    let credentials = http.and_then(|h| h.get("credentials"));
    if let Some(oauth2) = credential.get("oauth2").filter(|o| o.is_object()) {
        // A failed exchange leaves no token: no header, rather than "Bearer None".
        if let Some(token) = text(Some(oauth2), "accessToken") {
            headers.push(("Authorization".into(), ["Bearer ", token].concat()));
        }
    } else if http.is_some_and(Value::is_object) {
        let scheme = text(http, "scheme").unwrap_or_default();
        let token = text(credentials, "token");
        let (username, password) = (text(credentials, "username"), text(credentials, "password"));
        if scheme.eq_ignore_ascii_case("bearer") && token.is_some() {
            headers.push(("Authorization".into(), ["Bearer ", token.unwrap_or_default()].concat()));
        } else if scheme.eq_ignore_ascii_case("basic") {
            if let (Some(username), Some(password)) = (username, password) {
                let encoded = Bytes([username, ":", password].concat().into_bytes()).to_standard_base64();
                headers.push(("Authorization".into(), ["Basic ", &encoded].concat()));
            }
        } else if let Some(token) = token {
            headers.push(("Authorization".into(), [scheme, " ", token].concat()));
        }
        if let Some(additional) = http.and_then(|h| h.get("additionalHeaders")).and_then(Value::as_object) {
            for (name, value) in additional {
                if let Some(value) = value.as_str() {
                    headers.retain(|(n, _)| n != name);
                    headers.push((name.clone(), value.into()));
                }
            }
        }
    } else if let Some(key) = credential.get("apiKey").and_then(Value::as_str).filter(|k| !k.is_empty()) {
        // An API key goes in the header the scheme names (a query or cookie key has no header).
        if scheme.get("in").and_then(Value::as_str) == Some("header") {
            let name = scheme.get("name").and_then(Value::as_str).unwrap_or_default();
            headers.push((name.into(), key.into()));
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use adk_core::json;

    fn object(text: &str) -> JsonObject {
        json::from_str("test", text).unwrap_or_default()
    }

    #[test]
    fn headers_as_adk_builds_them() {
        let none = JsonObject::new();
        let bearer = object(r#"{"authType": "http", "http": {"scheme": "Bearer", "credentials": {"token": "t"}}}"#);
        assert_eq!(auth_headers(&bearer, &none), [("Authorization".to_string(), "Bearer t".to_string())]);
        let basic = object(
            r#"{"authType": "http", "http": {"scheme": "basic", "credentials": {"username": "u", "password": "p"}}}"#,
        );
        assert_eq!(auth_headers(&basic, &none), [("Authorization".to_string(), "Basic dTpw".to_string())]);
        let unexchanged = object(r#"{"authType": "oauth2", "oauth2": {"clientId": "c"}}"#);
        assert!(auth_headers(&unexchanged, &none).is_empty());
        let key = object(r#"{"authType": "apiKey", "apiKey": "k"}"#);
        let in_header = object(r#"{"type": "apiKey", "in": "header", "name": "X-Key"}"#);
        assert_eq!(auth_headers(&key, &in_header), [("X-Key".to_string(), "k".to_string())]);
        assert!(auth_headers(&key, &object(r#"{"type": "apiKey", "in": "query", "name": "k"}"#)).is_empty());
    }
}
