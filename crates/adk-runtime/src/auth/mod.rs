//! Credentials a tool asks the person for (ADK's `google.adk.auth`): the `AuthConfig` a tool
//! passes to `request_credential`, the request as it goes to the person (without the agent's own
//! secrets), and the credential stored for the tool once the answer arrives. Schemes and
//! credentials stay JSON as ADK writes them (OpenAPI security schemes, `AuthCredential`), so
//! fields adk-wasm does not read pass through unchanged.

mod credential_service;
mod discovery;
mod headers;
mod key;
mod manager;
pub mod oauth2;

use adk_core::json;
use serde_json::Value;

use crate::types::JsonObject;
use crate::AdkError;

pub use credential_service::{
    CredentialContext, CredentialService, InMemoryCredentialService, SessionStateCredentialService,
};
pub use headers::auth_headers;
pub use key::credential_key;
pub use manager::CredentialManager;

/// The function call an agent makes to ask the person for a credential.
pub const REQUEST_CREDENTIAL: &str = "adk_request_credential";

/// ADK's `AuthConfig`: `{authScheme, rawAuthCredential?, exchangedAuthCredential?, credentialKey}`.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthConfig(JsonObject);

/// The fields in ADK's order; anything else follows them, as pydantic dumps extras.
const FIELDS: [&str; 4] = ["authScheme", "rawAuthCredential", "exchangedAuthCredential", "credentialKey"];

impl AuthConfig {
    /// Reads a config: `authScheme` must be an object with a string `type`; the credential key is
    /// computed as ADK computes it when none is given (in the config, or as a `credentialKey`
    /// extra of the scheme or raw credential).
    pub fn from_json(mut json: JsonObject) -> Result<Self, AdkError> {
        let Some(Value::Object(scheme)) = json.get("authScheme") else {
            return Err(AdkError::invalid("AuthConfig: authScheme must be an object"));
        };
        if !scheme.get("type").is_some_and(Value::is_string) {
            return Err(AdkError::invalid("AuthConfig: authScheme.type must be a string"));
        }
        for field in ["rawAuthCredential", "exchangedAuthCredential"] {
            if json.get(field).is_some_and(|v| !v.is_object() && !v.is_null()) {
                return Err(AdkError::invalid(["AuthConfig: ", field, " must be an object"].concat()));
            }
        }
        let given = json.get("credentialKey").and_then(Value::as_str).filter(|k| !k.is_empty()).map(str::to_string);
        fn extra(o: Option<&Value>) -> Option<&str> {
            let o = o?.as_object()?;
            ["credential_key", "credentialKey"].iter().find_map(|k| o.get(*k)?.as_str().filter(|v| !v.is_empty()))
        }
        let key = given
            .or_else(|| extra(json.get("rawAuthCredential")).map(str::to_string))
            .or_else(|| extra(json.get("authScheme")).map(str::to_string))
            .unwrap_or_else(|| {
                let raw = json.get("rawAuthCredential").and_then(Value::as_object);
                credential_key(scheme, raw)
            });
        json.insert("credentialKey".into(), key.into());
        let mut ordered = JsonObject::new();
        for field in FIELDS {
            if let Some(mut value) = json.shift_remove(field).filter(|v| !v.is_null()) {
                if let Value::Object(credential) = &mut value {
                    in_adks_order(credential);
                }
                ordered.insert(field.into(), value);
            }
        }
        ordered.extend(json);
        Ok(AuthConfig(ordered))
    }

    /// The config as JSON.
    pub fn to_json(&self) -> &JsonObject {
        &self.0
    }

    /// The key its credential is stored under.
    pub fn credential_key(&self) -> &str {
        self.0.get("credentialKey").and_then(Value::as_str).unwrap_or_default()
    }

    fn scheme_type(&self) -> &str {
        self.0.get("authScheme").and_then(|s| s.get("type")).and_then(Value::as_str).unwrap_or_default()
    }

    /// The scheme, an OpenAPI security scheme (or ADK's `OpenIdConnectWithConfig`) as JSON.
    pub fn auth_scheme(&self) -> &JsonObject {
        static EMPTY: std::sync::OnceLock<JsonObject> = std::sync::OnceLock::new();
        self.0.get("authScheme").and_then(Value::as_object).unwrap_or_else(|| EMPTY.get_or_init(JsonObject::new))
    }

    /// The credential the tool configured (its OAuth2 client, say), if any.
    pub fn raw_credential(&self) -> Option<&JsonObject> {
        self.0.get("rawAuthCredential").and_then(Value::as_object)
    }

    /// The credential the sign-in produced, if any.
    pub fn exchanged_credential(&self) -> Option<&JsonObject> {
        self.0.get("exchangedAuthCredential").and_then(Value::as_object)
    }

    /// The same config carrying `credential` as its exchanged credential.
    pub fn with_exchanged(&self, credential: JsonObject) -> AuthConfig {
        let mut config = self.0.clone();
        config.insert("exchangedAuthCredential".into(), Value::Object(credential));
        AuthConfig::from_json(config).unwrap_or_else(|_| self.clone())
    }

    /// `credential` with the OAuth2 client secret this config holds put back (stores never keep
    /// it) and, with `pin_client_id`, its client id too: a credential that came back through the
    /// person cannot choose which client its code is exchanged for (ADK's
    /// `_with_configured_client`).
    pub fn with_configured_client(&self, mut credential: JsonObject, pin_client_id: bool) -> JsonObject {
        let configured = self.raw_credential().and_then(|raw| raw.get("oauth2")).and_then(Value::as_object);
        if let (Some(configured), Some(Value::Object(oauth2))) = (configured, credential.get_mut("oauth2")) {
            let fields: &[&str] = if pin_client_id { &["clientSecret", "clientId"] } else { &["clientSecret"] };
            for field in fields {
                match configured.get(*field).filter(|v| !v.is_null()) {
                    Some(value) => drop(oauth2.insert((*field).into(), value.clone())),
                    None => drop(oauth2.shift_remove(*field)),
                }
            }
        }
        credential
    }

    /// What goes to the person (ADK's `generate_auth_request`): for OAuth2 and OpenID Connect the
    /// authorization URL to sign in at (with its `state` and PKCE verifier, see
    /// `oauth2::with_authorization_uri`) in `exchangedAuthCredential`; and never a secret the
    /// agent configured (an API key, an HTTP password or token and extra headers, an OAuth2 client
    /// secret), which belong to the agent, not to the person.
    pub fn auth_request(&self) -> Result<AuthConfig, AdkError> {
        let mut request = self.0.clone();
        if matches!(self.scheme_type(), "oauth2" | "openIdConnect") {
            let has_uri = |credential: Option<&Value>| {
                credential.and_then(|c| c.get("oauth2")).and_then(|o| o.get("authUri")).is_some_and(|u| u != "")
            };
            if !has_uri(self.0.get("exchangedAuthCredential")) {
                let requires = |what: &str| {
                    AdkError::invalid(["Auth Scheme ", self.scheme_type(), " requires ", what, "."].concat())
                };
                let raw = self.raw_credential().ok_or_else(|| requires("auth_credential"))?;
                let Some(Value::Object(oauth2)) = raw.get("oauth2") else {
                    return Err(requires("oauth2 in auth_credential"));
                };
                let exchanged = if has_uri(self.0.get("rawAuthCredential")) {
                    raw.clone()
                } else if oauth2.get("clientId").and_then(Value::as_str).is_none_or(str::is_empty) {
                    return Err(requires("client_id in auth_credential.oauth2"));
                } else {
                    oauth2::with_authorization_uri(self.auth_scheme(), raw)?
                };
                request.insert("exchangedAuthCredential".into(), Value::Object(exchanged));
                // Back in ADK's field order: the exchanged credential before the key.
                request = AuthConfig::from_json(request)?.0;
            }
        }
        for field in ["rawAuthCredential", "exchangedAuthCredential"] {
            if let Some(Value::Object(credential)) = request.get_mut(field) {
                without_secrets(credential);
            }
        }
        Ok(AuthConfig(request))
    }

    /// The credential stored for this config in the state `get` reads (ADK's `get_auth_response`):
    /// under `temp:<key>`, else `<key>`; a string stored there is read as the scheme's kind of secret.
    /// `get` is `dyn`: one copy of this for every caller.
    pub fn stored_credential(&self, get: &dyn Fn(&str) -> Option<Value>) -> Option<JsonObject> {
        let key = self.credential_key();
        let value = get(&["temp:", key].concat()).or_else(|| get(key))?;
        match value {
            Value::Object(credential) => Some(credential),
            Value::String(secret) if !secret.is_empty() => Some(self.credential_from_string(secret)),
            _ => None,
        }
    }

    fn credential_from_string(&self, secret: String) -> JsonObject {
        let (kind, inner) = match self.scheme_type() {
            "apiKey" => ("apiKey", None),
            "http" => {
                let scheme = self.0.get("authScheme").and_then(|s| s.get("scheme")).cloned().unwrap_or("bearer".into());
                let credentials = json::object([("token", secret.clone().into())]);
                ("http", Some(json::object([("scheme", scheme), ("credentials", credentials)])))
            }
            _ => ("oauth2", Some(json::object([("accessToken", secret.clone().into())]))),
        };
        let mut credential = json::members([("authType", Value::from(kind))]);
        match inner {
            None => credential.insert("apiKey".into(), secret.into()),
            Some(inner) => credential.insert(kind.into(), inner),
        };
        credential
    }
}

/// `OAuth2Auth`'s fields in pydantic's order.
const OAUTH2_FIELDS: [&str; 18] = [
    "clientId",
    "clientSecret",
    "authUri",
    "nonce",
    "state",
    "redirectUri",
    "authResponseUri",
    "authCode",
    "accessToken",
    "refreshToken",
    "idToken",
    "expiresAt",
    "expiresIn",
    "audience",
    "prompt",
    "codeVerifier",
    "codeChallengeMethod",
    "tokenEndpointAuthMethod",
];

/// A credential as ADK dumps it: its fields and its OAuth2 fields in pydantic's order, nulls left
/// out, extras after, and OAuth2's default `tokenEndpointAuthMethod` written out.
fn in_adks_order(credential: &mut JsonObject) {
    fn reorder(object: &mut JsonObject, fields: &[&str]) {
        let mut ordered = JsonObject::new();
        for field in fields {
            if let Some(value) = object.shift_remove(*field).filter(|v| !v.is_null()) {
                ordered.insert((*field).into(), value);
            }
        }
        ordered.extend(std::mem::take(object));
        *object = ordered;
    }
    reorder(credential, &key::CREDENTIAL_FIELDS);
    if let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") {
        oauth2.entry("tokenEndpointAuthMethod").or_insert_with(|| "client_secret_basic".into());
        reorder(oauth2, &OAUTH2_FIELDS);
    }
}

/// Removes what the agent configured and the person must never see or send back.
fn without_secrets(credential: &mut JsonObject) {
    credential.shift_remove("apiKey");
    if let Some(Value::Object(http)) = credential.get_mut("http") {
        http.shift_remove("additionalHeaders");
        if let Some(Value::Object(inner)) = http.get_mut("credentials") {
            inner.shift_remove("password");
            inner.shift_remove("token");
        }
    }
    if let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") {
        oauth2.shift_remove("clientSecret");
    }
}

/// The credential in the person's answer (ADK 2.x's `store_auth_response`): the
/// `exchangedAuthCredential` of an `AuthConfig`, or an `AuthCredential` itself. `None` for
/// anything else, which ADK ignores.
pub fn credential_in_answer(answer: &JsonObject) -> Option<JsonObject> {
    if answer.get("authScheme").is_some_and(Value::is_object) {
        return answer.get("exchangedAuthCredential")?.as_object().cloned();
    }
    answer.get("authType").is_some_and(Value::is_string).then(|| answer.clone())
}

/// What is stored for the tool: the credential without an OAuth2 client secret.
pub fn stored_form(mut credential: JsonObject) -> Value {
    if let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") {
        oauth2.shift_remove("clientSecret");
    }
    Value::Object(credential)
}
