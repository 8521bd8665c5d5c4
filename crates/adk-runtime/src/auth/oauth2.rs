//! OAuth2 and OpenID Connect for a tool's credential, as ADK does it with authlib: the
//! authorization URL the person signs in at (`AuthHandler.generate_auth_uri`: `state`, PKCE S256
//! for a client without a secret), the code exchanged for tokens (`OAuth2CredentialExchanger`) and
//! the tokens refreshed once expired (`OAuth2CredentialRefresher`). Token requests go through the
//! [`HttpClient`] seam; in the browser that is `fetch`, so the provider's token endpoint must allow
//! the page's origin (CORS), as every public browser client needs.

use adk_core::text::join;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use adk_core::http::{form, form_encode, query_params, HttpClient, HttpRequest};
use adk_core::{json, platform, Bytes};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cancellation::Cancellation;
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode};

/// authlib's lengths: a 30-character `state`, a 48-character PKCE verifier.
const STATE_LENGTH: usize = 30;
const VERIFIER_LENGTH: usize = 48;

/// authlib's leeway: a token that expires within a minute is treated as expired.
const EXPIRY_LEEWAY_SECONDS: i64 = 60;

/// A non-empty string field.
pub(super) fn text<'a>(object: &'a JsonObject, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn object<'a>(object: &'a JsonObject, key: &str) -> Option<&'a JsonObject> {
    object.get(key).and_then(Value::as_object)
}

/// The OAuth2 flows of a scheme, in the order ADK reads them.
const FLOWS: [&str; 4] = ["implicit", "authorizationCode", "clientCredentials", "password"];

/// The authorization endpoint and scopes of `scheme`: an `OpenIdConnectWithConfig`'s own, or the
/// first OAuth2 flow's (ADK's reading, token URLs of the other flows included).
fn authorization_endpoint(scheme: &JsonObject) -> Result<(String, Vec<String>), AdkError> {
    let scopes = |value: Option<&Value>| {
        let mut scopes: Vec<String> = Vec::new();
        match value {
            Some(Value::Object(map)) => {
                for k in map.keys() {
                    scopes.push(k.clone());
                }
            }
            Some(Value::Array(items)) => {
                for item in items {
                    scopes.extend(item.as_str().map(str::to_string));
                }
            }
            _ => {}
        }
        scopes
    };
    if let Some(endpoint) = text(scheme, "authorization_endpoint") {
        return Ok((endpoint.to_string(), scopes(scheme.get("scopes"))));
    }
    let kind = text(scheme, "type").unwrap_or_default();
    let flows = object(scheme, "flows").ok_or_else(|| {
        AdkError::invalid(
            ["Cannot generate an auth uri for auth scheme ", kind, ": it carries no OAuth2 flows."].concat(),
        )
    })?;
    let flow = |name: &str| object(flows, name);
    let url = |name: &str, key: &str| flow(name).and_then(|f| text(f, key));
    let endpoint = url("implicit", "authorizationUrl")
        .or_else(|| url("authorizationCode", "authorizationUrl"))
        .or_else(|| url("clientCredentials", "tokenUrl"))
        .or_else(|| url("password", "tokenUrl"))
        .ok_or_else(|| {
            AdkError::invalid(
                ["Cannot generate an auth uri for auth scheme ", kind, ": no flow declares an authorization endpoint."]
                    .concat(),
            )
        })?;
    let first = FLOWS.iter().find_map(|name| flow(name));
    Ok((endpoint.to_string(), scopes(first.and_then(|f| f.get("scopes")))))
}

/// The token endpoint of `scheme` (ADK's `create_oauth2_session`).
pub(crate) fn token_endpoint(scheme: &JsonObject) -> Option<&str> {
    if let Some(endpoint) = text(scheme, "token_endpoint") {
        return Some(endpoint);
    }
    let flows = object(scheme, "flows")?;
    ["authorizationCode", "clientCredentials"].iter().find_map(|name| text(object(flows, name)?, "tokenUrl"))
}

/// `base64url(sha256(verifier))` without padding: PKCE's S256 challenge.
fn s256(verifier: &str) -> String {
    let digest = Sha256::digest(verifier.as_bytes());
    Bytes(digest.to_vec()).to_base64().trim_end_matches('=').to_string()
}

/// The raw credential with the authorization URL the person signs in at, its `state` and, for a
/// client without a secret, a PKCE verifier (ADK's `generate_auth_uri`). The parameters are in
/// authlib's order, form-encoded as authlib encodes them.
pub(crate) fn with_authorization_uri(scheme: &JsonObject, raw: &JsonObject) -> Result<JsonObject, AdkError> {
    let oauth2 = object(raw, "oauth2").ok_or_else(|| AdkError::invalid("raw_auth_credential or oauth2 is empty"))?;
    let (endpoint, scopes) = authorization_endpoint(scheme)?;
    let mut method = text(oauth2, "codeChallengeMethod").map(str::to_string);
    if method.is_none() && text(oauth2, "clientSecret").is_none() {
        // A client without a secret is public: PKCE is what binds the code to this sign-in.
        method = Some("S256".into());
    }
    let verifier = match method.as_deref() {
        None => None,
        Some("S256") => match text(oauth2, "codeVerifier") {
            Some(given) => Some(given.to_string()),
            None => Some(random(VERIFIER_LENGTH)?),
        },
        Some(other) => {
            return Err(AdkError::invalid(
                ["Unsupported code_challenge_method: ", other, ". Only 'S256' is supported."].concat(),
            ))
        }
    };
    let state = random(STATE_LENGTH)?;
    let client_id = text(oauth2, "clientId").unwrap_or_default();
    let scope = join(&scopes, " ");
    let challenge = verifier.as_deref().map(s256);
    let params: [(&str, Option<&str>); 11] = [
        ("response_type", Some("code")),
        ("client_id", Some(client_id)),
        ("redirect_uri", text(oauth2, "redirectUri")),
        ("scope", Some(scope.as_str()).filter(|s| !s.is_empty())),
        ("state", Some(state.as_str())),
        ("access_type", Some("offline")),
        ("prompt", Some(text(oauth2, "prompt").unwrap_or("consent"))),
        ("audience", text(oauth2, "audience")),
        ("nonce", text(oauth2, "nonce")),
        ("code_challenge", challenge.as_deref()),
        ("code_challenge_method", challenge.as_ref().and(method.as_deref())),
    ];
    let (base, fragment) = match endpoint.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (endpoint.as_str(), None),
    };
    let mut uri = base.to_string();
    for (key, value) in params.iter().filter_map(|(k, v)| Some((k, (*v)?))) {
        uri.push(if uri.contains('?') { '&' } else { '?' });
        uri.push_str(key);
        uri.push('=');
        form_encode(&mut uri, value);
    }
    if let Some(fragment) = fragment {
        uri.push('#');
        uri.push_str(fragment);
    }
    let mut credential = raw.clone();
    if let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") {
        oauth2.insert("authUri".into(), uri.into());
        oauth2.insert("state".into(), state.into());
        if let Some(verifier) = verifier {
            oauth2.insert("codeVerifier".into(), verifier.into());
            oauth2.insert("codeChallengeMethod".into(), method.unwrap_or_default().into());
        }
    }
    Ok(credential)
}

fn random(length: usize) -> Result<String, AdkError> {
    platform::random_token(length).ok_or_else(|| {
        AdkError::new(ErrorCode::FailedPrecondition, "OAuth2: the host has no cryptographic randomness for a sign-in")
    })
}

/// Whether the credential is an OAuth2 one that still needs its code exchanged: no access token,
/// a client id, and a secret unless `allow_public` (ADK's `_is_exchangeable`).
pub(crate) fn is_exchangeable(scheme: &JsonObject, credential: &JsonObject, allow_public: bool) -> bool {
    if !matches!(text(scheme, "type"), Some("oauth2" | "openIdConnect")) {
        return false;
    }
    let Some(oauth2) = object(credential, "oauth2") else { return false };
    if text(oauth2, "accessToken").is_some() || text(oauth2, "clientId").is_none() {
        return false;
    }
    allow_public || text(oauth2, "clientSecret").is_some()
}

/// The grant a scheme uses (authlib's `OAuthGrantType.from_flow`; an OpenID Connect scheme uses the
/// code grant unless it lists `client_credentials`).
fn grant_type(scheme: &JsonObject) -> Option<&'static str> {
    if text(scheme, "authorization_endpoint").is_some() || text(scheme, "token_endpoint").is_some() {
        return Some(if lists_client_credentials(scheme) { "client_credentials" } else { "authorization_code" });
    }
    let flows = object(scheme, "flows")?;
    [("clientCredentials", "client_credentials"), ("authorizationCode", "authorization_code")]
        .into_iter()
        .find_map(|(flow, grant)| flows.contains_key(flow).then_some(grant))
}

/// Whether an OpenID Connect scheme's `grant_types_supported` lists `client_credentials`.
pub(super) fn lists_client_credentials(scheme: &JsonObject) -> bool {
    let grants = scheme.get("grant_types_supported").and_then(Value::as_array);
    grants.is_some_and(|g| g.iter().any(|v| v.as_str() == Some("client_credentials")))
}

/// Exchanges the credential's authorization code (or the client credentials) for tokens, in place
/// (ADK's `OAuth2CredentialExchanger.exchange`). `Ok(false)` when there is nothing to exchange;
/// an error says why a needed exchange failed (the caller keeps the credential as it was, as ADK
/// does). The code comes from `authResponseUri` when given, whose `state` must be the one the
/// sign-in was started with.
///
/// Boxed, like the other token requests: each is one function in the module however many callers
/// await it.
pub fn exchange<'a>(
    http: &'a dyn HttpClient,
    scheme: &'a JsonObject,
    credential: &'a mut JsonObject,
    cancellation: Rc<Cancellation>,
) -> LocalBoxFuture<'a, Result<bool, AdkError>> {
    Box::pin(exchange_code(http, scheme, credential, cancellation))
}

async fn exchange_code(
    http: &dyn HttpClient,
    scheme: &JsonObject,
    credential: &mut JsonObject,
    cancellation: Rc<Cancellation>,
) -> Result<bool, AdkError> {
    let Some(oauth2) = object(credential, "oauth2") else { return Ok(false) };
    if text(oauth2, "accessToken").is_some() {
        return Ok(false);
    }
    let response;
    let params = match grant_type(scheme) {
        Some("client_credentials") => vec![("grant_type", "client_credentials")],
        Some(_) => {
            let mut code = text(oauth2, "authCode");
            if let Some(uri) = text(oauth2, "authResponseUri") {
                response = query_params(uri.trim_end_matches('#'));
                let param = |name: &str| response.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
                if let Some(error) = param("error") {
                    return Err(AdkError::new(
                        ErrorCode::Unauthenticated,
                        oauth2_error("OAuth2: ", error, param("error_description")),
                    ));
                }
                if text(oauth2, "state").is_some_and(|state| param("state") != Some(state)) {
                    return Err(AdkError::new(
                        ErrorCode::Unauthenticated,
                        "OAuth2: the authorization response's state is not the sign-in's (mismatching state)",
                    ));
                }
                code = param("code");
            }
            let code = code.ok_or_else(|| {
                AdkError::new(ErrorCode::Unauthenticated, "OAuth2: the authorization response carries no code")
            })?;
            let mut params = vec![("grant_type", "authorization_code"), ("code", code)];
            params.extend(text(oauth2, "redirectUri").map(|uri| ("redirect_uri", uri)));
            params.extend(text(oauth2, "codeVerifier").map(|v| ("code_verifier", v)));
            params
        }
        None => return Ok(false),
    };
    let tokens = token_request(http, scheme, oauth2, params, cancellation).await?;
    update_with_tokens(credential, &tokens, false);
    Ok(true)
}

/// Whether the credential's access token has expired, or will within a minute (authlib's
/// `OAuth2Token.is_expired`); a token without an expiry never expires.
pub fn is_expired(credential: &JsonObject) -> bool {
    let Some(oauth2) = object(credential, "oauth2") else { return false };
    let now = platform::now_seconds() as i64;
    // authlib and ADK read 0 as "no expiry", as they read a missing one.
    let expires_at = oauth2.get("expiresAt").and_then(Value::as_i64).filter(|s| *s != 0);
    let expires_in = oauth2.get("expiresIn").and_then(Value::as_i64).filter(|s| *s != 0);
    // Untrusted numbers: saturating, so a huge one means "far off", not a wrap-around.
    match expires_at.or(expires_in.map(|s| now.saturating_add(s))) {
        Some(at) => at.saturating_sub(EXPIRY_LEEWAY_SECONDS) < now,
        None => false,
    }
}

/// Refreshes an expired credential in place with its refresh token (ADK's
/// `OAuth2CredentialRefresher.refresh`): `Ok(false)` when it has not expired or has no refresh
/// token; an error says why the refresh failed (the caller keeps the stale token, as ADK does,
/// so the service's 401 asks the person again).
pub fn refresh<'a>(
    http: &'a dyn HttpClient,
    scheme: &'a JsonObject,
    credential: &'a mut JsonObject,
    cancellation: Rc<Cancellation>,
) -> LocalBoxFuture<'a, Result<bool, AdkError>> {
    Box::pin(async move {
        let Some(oauth2) = object(credential, "oauth2") else { return Ok(false) };
        let Some(refresh_token) = text(oauth2, "refreshToken").filter(|_| is_expired(credential)) else {
            return Ok(false);
        };
        let params = vec![("grant_type", "refresh_token"), ("refresh_token", refresh_token)];
        let tokens = token_request(http, scheme, oauth2, params, cancellation).await?;
        update_with_tokens(credential, &tokens, true);
        Ok(true)
    })
}

/// POSTs a token request, the client authenticated as its `tokenEndpointAuthMethod` says (a client
/// without a secret is public: `none`, its id in the body), and returns the token response.
fn token_request<'a>(
    http: &'a dyn HttpClient,
    scheme: &'a JsonObject,
    oauth2: &'a JsonObject,
    params: Vec<(&'a str, &'a str)>,
    cancellation: Rc<Cancellation>,
) -> LocalBoxFuture<'a, Result<JsonObject, AdkError>> {
    Box::pin(send_token_request(http, scheme, oauth2, params, cancellation))
}

async fn send_token_request(
    http: &dyn HttpClient,
    scheme: &JsonObject,
    oauth2: &JsonObject,
    mut params: Vec<(&str, &str)>,
    cancellation: Rc<Cancellation>,
) -> Result<JsonObject, AdkError> {
    let endpoint = token_endpoint(scheme).ok_or_else(|| {
        AdkError::invalid("OAuth2: the auth scheme has no token endpoint (tokenUrl or token_endpoint)")
    })?;
    let client_id =
        text(oauth2, "clientId").ok_or_else(|| AdkError::invalid("OAuth2: the credential has no clientId"))?;
    let secret = text(oauth2, "clientSecret");
    let method = text(oauth2, "tokenEndpointAuthMethod").unwrap_or("client_secret_basic");
    let mut request = HttpRequest { method: "POST".into(), url: endpoint.to_string(), ..Default::default() };
    match (secret, method) {
        (_, "private_key_jwt") | (Some(_), "client_secret_jwt") => {
            return Err(AdkError::new(
                ErrorCode::Unimplemented,
                ["OAuth2: token endpoint auth method ", method, " is not supported"].concat(),
            ))
        }
        // A public client (authlib's `none`): its id in the body, no secret.
        (None, _) | (Some(_), "none") => params.push(("client_id", client_id)),
        (Some(secret), "client_secret_post") => {
            params.push(("client_id", client_id));
            params.push(("client_secret", secret));
        }
        (Some(secret), _) => {
            // As authlib sends it: `id:secret` as they are, base64-encoded.
            let basic = Bytes([client_id, ":", secret].concat().into_bytes()).to_standard_base64();
            request.headers.push(("Authorization".into(), ["Basic ", &basic].concat()));
        }
    }
    request.headers.push(("Content-Type".into(), "application/x-www-form-urlencoded".into()));
    request.headers.push(("Accept".into(), "application/json".into()));
    request.body = Some(form(&params));
    let response = http.send(request, cancellation).await?;
    let status = response.status;
    let body = response.text().await?;
    let parsed = json::from_str::<JsonObject>("OAuth2 token response", &body).ok();
    if !(200..300).contains(&status) {
        let field = |key: &str| parsed.as_ref().and_then(|p| text(p, key));
        let status_text;
        let error = match field("error") {
            Some(error) => error,
            None => {
                status_text = ["HTTP ", &status.to_string()].concat();
                &status_text
            }
        };
        return Err(AdkError::http(status, oauth2_error("OAuth2 token endpoint: ", error, field("error_description"))));
    }
    match parsed {
        Some(tokens) if text(&tokens, "access_token").is_some() => Ok(tokens),
        _ => Err(AdkError::new(ErrorCode::Unauthenticated, "OAuth2 token endpoint: the response has no access_token")),
    }
}

/// `<prefix><error>` and, when the response describes it, `: <description>`.
fn oauth2_error(prefix: &str, error: &str, description: Option<&str>) -> String {
    let mut message = [prefix, error].concat();
    if let Some(detail) = description {
        message.push_str(": ");
        message.push_str(detail);
    }
    message
}

/// Writes the token response into the credential (ADK's `update_credential_with_tokens`, with
/// authlib's `expires_at` = now + `expires_in`); a refresh keeps the refresh token the response
/// leaves out, as authlib does.
fn update_with_tokens(credential: &mut JsonObject, tokens: &JsonObject, refreshing: bool) {
    let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") else { return };
    let mut set = |key: &str, value: Option<Value>| match value {
        Some(value) => drop(oauth2.insert(key.into(), value)),
        None => drop(oauth2.shift_remove(key)),
    };
    let string = |key: &str| tokens.get(key).and_then(Value::as_str).map(Value::from);
    let number = |key: &str| match tokens.get(key) {
        Some(Value::Number(n)) => n.as_f64(),
        // A string as ADK's `int(…)` reads it: whole digits, a sign, spaces around (not `3600.0`,
        // which Python refuses; it is then no expiry here, as any other unreadable value).
        Some(Value::String(s)) => s.trim().parse::<i64>().ok().map(|n| n as f64),
        _ => None,
    };
    // `as` saturates a huge or negative float; 0 is "no expiry" (ADK's `if tokens.get(…)`).
    let expires_in = number("expires_in").map(|s| s as i64).filter(|s| *s != 0);
    let expires_at = number("expires_at")
        .map(|s| s as i64)
        .filter(|s| *s != 0)
        .or(expires_in.map(|s| (platform::now_seconds() as i64).saturating_add(s)));
    set("accessToken", string("access_token"));
    if !(refreshing && string("refresh_token").is_none()) {
        set("refreshToken", string("refresh_token"));
    }
    set("idToken", string("id_token"));
    set("expiresAt", expires_at.map(Value::from));
    set("expiresIn", expires_in.map(Value::from));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(text: &str) -> JsonObject {
        json::from_str("test", text).unwrap()
    }

    /// authlib 1.6's URL for the same inputs, the random `state` aside.
    #[test]
    fn the_authorization_uri_is_authlibs() {
        let scheme = object(
            r#"{"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "http://issuer/auth?tenant=a",
                "tokenUrl": "http://issuer/token", "scopes": {"openid": "", "profile": ""}}}}"#,
        );
        let raw = object(
            r#"{"authType": "oauth2", "oauth2": {"clientId": "cid", "redirectUri": "http://127.0.0.1:8/cb?x=1",
                "codeVerifier": "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", "audience": "aud", "nonce": "n"}}"#,
        );
        let credential = with_authorization_uri(&scheme, &raw).unwrap();
        let oauth2 = credential["oauth2"].as_object().unwrap();
        let state = oauth2["state"].as_str().unwrap();
        assert_eq!(state.len(), 30);
        assert_eq!(
            oauth2["authUri"],
            format!(
                "http://issuer/auth?tenant=a&response_type=code&client_id=cid&redirect_uri=http%3A%2F%2F127.0.0.1%3A8%2Fcb%3Fx%3D1\
                 &scope=openid+profile&state={state}&access_type=offline&prompt=consent&audience=aud&nonce=n\
                 &code_challenge=4A01DUGx7AT8ouWhbPhYzuvyoNDA2r8CzlD81Yz8KbQ&code_challenge_method=S256"
            )
        );
        assert_eq!(oauth2["codeChallengeMethod"], "S256");
    }

    #[test]
    fn a_client_with_a_secret_gets_no_pkce_and_bad_schemes_are_refused() {
        let scheme = object(
            r#"{"type": "openIdConnect", "authorization_endpoint": "http://i/a#f", "token_endpoint": "http://i/t", "scopes": ["openid"]}"#,
        );
        let raw = object(r#"{"authType": "openIdConnect", "oauth2": {"clientId": "c", "clientSecret": "s"}}"#);
        let credential = with_authorization_uri(&scheme, &raw).unwrap();
        let uri = credential["oauth2"]["authUri"].as_str().unwrap();
        assert!(uri.starts_with("http://i/a?response_type=code&client_id=c&scope=openid&state="), "{uri}");
        assert!(uri.ends_with("&access_type=offline&prompt=consent#f"), "{uri}");
        assert!(credential["oauth2"].get("codeVerifier").is_none());
        let plain = object(r#"{"authType": "oauth2", "oauth2": {"clientId": "c", "codeChallengeMethod": "plain"}}"#);
        assert!(with_authorization_uri(&scheme, &plain).unwrap_err().message.contains("Only 'S256'"));
        let no_flows = object(r#"{"type": "oauth2"}"#);
        assert!(with_authorization_uri(&no_flows, &raw).unwrap_err().message.contains("no OAuth2 flows"));
    }

    #[test]
    fn expiry_has_authlibs_minute_of_leeway() {
        let now = platform::now_seconds() as i64;
        let at = |t: i64| object(&format!(r#"{{"oauth2": {{"expiresAt": {t}}}}}"#));
        assert!(is_expired(&at(now + 30)));
        assert!(!is_expired(&at(now + 120)));
        assert!(!is_expired(&object(r#"{"oauth2": {"accessToken": "t"}}"#)));
        // 0 is no expiry; numbers at the ends of i64 neither wrap nor panic.
        assert!(!is_expired(&object(r#"{"oauth2": {"expiresIn": 0}}"#)));
        assert!(!is_expired(&object(&format!(r#"{{"oauth2": {{"expiresIn": {}}}}}"#, i64::MAX))));
        assert!(is_expired(&at(i64::MIN)));
        let mut credential = object(r#"{"oauth2": {}}"#);
        update_with_tokens(&mut credential, &object(r#"{"access_token": "a", "expires_in": 1e300}"#), false);
        assert!(!is_expired(&credential));
        update_with_tokens(&mut credential, &object(r#"{"access_token": "a", "expires_in": 0}"#), false);
        assert!(credential["oauth2"].get("expiresAt").is_none());
        // Strings as Python's int() reads them.
        update_with_tokens(&mut credential, &object(r#"{"access_token": "a", "expires_in": " +3600 "}"#), false);
        assert_eq!(credential["oauth2"]["expiresIn"], 3600);
        update_with_tokens(&mut credential, &object(r#"{"access_token": "a", "expires_in": "3600.0"}"#), false);
        assert!(credential["oauth2"].get("expiresIn").is_none());
    }
}
