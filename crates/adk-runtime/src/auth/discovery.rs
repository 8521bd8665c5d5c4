//! Filling in an auth scheme's endpoints from the provider's published metadata: ADK's
//! `OAuth2DiscoveryManager` for an OAuth2 scheme with an `issuer_url` (RFC 8414, then OpenID
//! Connect discovery, the issuer checked against mix-up), and, beyond ADK, an `openIdConnect`
//! scheme given only its `openIdConnectUrl` (OpenAPI's form), completed into ADK's
//! `OpenIdConnectWithConfig` so that it can start a sign-in.

use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use adk_core::json;
use serde_json::Value;

use super::oauth2::text;
use crate::cancellation::Cancellation;
use crate::http::{HttpClient, HttpRequest};
use crate::types::JsonObject;
use crate::AdkError;

/// The URLs OAuth2 flows need, in ADK's order, and the metadata fields that give them.
const FLOW_URLS: [(&str, &str, &str); 5] = [
    ("implicit", "authorizationUrl", "authorization_endpoint"),
    ("password", "tokenUrl", "token_endpoint"),
    ("clientCredentials", "tokenUrl", "token_endpoint"),
    ("authorizationCode", "authorizationUrl", "authorization_endpoint"),
    ("authorizationCode", "tokenUrl", "token_endpoint"),
];

/// Whether an OAuth2 scheme's flows lack a URL they need (ADK's `_missing_oauth_info`), or an
/// OpenID Connect scheme lacks its endpoints.
pub(super) fn missing_endpoints(scheme: &JsonObject) -> bool {
    match text(scheme, "type") {
        Some("openIdConnect") => text(scheme, "authorization_endpoint").is_none(),
        Some("oauth2") => {
            let Some(flows) = scheme.get("flows").and_then(Value::as_object) else { return false };
            FLOW_URLS.iter().any(|(flow, key, _)| {
                flows.get(*flow).and_then(Value::as_object).is_some_and(|f| text(f, key).is_none())
            })
        }
        _ => false,
    }
}

/// The first of `urls` serving the provider's JSON metadata, with `issuer` its issuer when one is
/// asked for (against mix-up); `None` when none does (ADK logs each failure and tries the next).
async fn metadata(
    http: &dyn HttpClient,
    urls: Vec<String>,
    issuer: Option<&str>,
    cancellation: Rc<Cancellation>,
) -> Option<JsonObject> {
    for url in urls {
        let request = HttpRequest::get(&url).header("Accept", "application/json");
        let Ok(response) = http.send(request, cancellation.clone()).await else { continue };
        if !response.ok() {
            continue;
        }
        let Ok(body) = response.text().await else { continue };
        let Ok(found) = json::from_str::<JsonObject>("OAuth2 server metadata", &body) else { continue };
        let named = |key: &str| text(&found, key).is_some();
        let same_issuer = issuer.is_none_or(|issuer| {
            text(&found, "issuer").map(|i| i.trim_end_matches('/')) == Some(issuer.trim_end_matches('/'))
        });
        if named("authorization_endpoint") && named("token_endpoint") && same_issuer {
            return Some(found);
        }
    }
    None
}

/// ADK's well-known URLs of the authorization server's metadata for `issuer`, in ADK's order.
fn issuer_urls(issuer: &str) -> Option<Vec<String>> {
    let after_scheme = adk_core::scan::find(issuer.as_bytes(), b"://")? + 3;
    let path_at = issuer.get(after_scheme..)?.find('/').map_or(issuer.len(), |i| i + after_scheme);
    // Checked slicing (never refused here): a slice that could panic links core's message for it,
    // and the Unicode tables that message needs, into the module.
    let (base, path) = issuer.split_at_checked(path_at)?;
    let path = path.split(['?', '#']).next().unwrap_or_default();
    const AS: &str = "/.well-known/oauth-authorization-server";
    const OIDC: &str = "/.well-known/openid-configuration";
    Some(if path.is_empty() || path == "/" {
        vec![[base, AS].concat(), [base, OIDC].concat()]
    } else {
        vec![[base, AS, path].concat(), [base, OIDC, path].concat(), [base, path, OIDC].concat()]
    })
}

/// `scheme` with its missing endpoints filled in from the provider's metadata; an error when
/// there is nowhere to look or nothing was found.
pub(super) fn discover<'a>(
    http: &'a dyn HttpClient,
    scheme: &'a JsonObject,
    cancellation: Rc<Cancellation>,
) -> LocalBoxFuture<'a, Result<JsonObject, AdkError>> {
    Box::pin(discover_endpoints(http, scheme, cancellation))
}

async fn discover_endpoints(
    http: &dyn HttpClient,
    scheme: &JsonObject,
    cancellation: Rc<Cancellation>,
) -> Result<JsonObject, AdkError> {
    let failed = || AdkError::invalid("OAuth scheme info is missing, and auto-discovery has failed to fill them in.");
    let mut scheme = scheme.clone();
    let oidc = text(&scheme, "type") == Some("openIdConnect");
    // OpenAPI's OpenID Connect URL is the metadata's own; an OAuth2 issuer is looked up.
    let (urls, issuer) = if oidc {
        (text(&scheme, "openIdConnectUrl").map(|url| vec![url.to_string()]), None)
    } else {
        let issuer = text(&scheme, "issuer_url");
        (issuer.and_then(issuer_urls), issuer)
    };
    let found = metadata(http, urls.ok_or_else(failed)?, issuer, cancellation).await.ok_or_else(failed)?;
    if oidc {
        for key in [
            "authorization_endpoint",
            "token_endpoint",
            "userinfo_endpoint",
            "revocation_endpoint",
            "token_endpoint_auth_methods_supported",
        ] {
            // Not `grant_types_supported`: ADK reads `client_credentials` in it as "no sign-in",
            // and most providers list it for their confidential clients.
            if let Some(value) = found.get(key).filter(|_| !scheme.contains_key(key)) {
                scheme.insert(key.into(), value.clone());
            }
        }
        // OpenID Connect requires the `openid` scope; a scheme that names none asks for that.
        scheme.entry("scopes").or_insert_with(|| Value::Array(vec!["openid".into()]));
        return Ok(scheme);
    }
    let endpoint = |key: &str| found.get(key).cloned().unwrap_or(Value::Null);
    if let Some(Value::Object(flows)) = scheme.get_mut("flows") {
        for (flow, key, from) in FLOW_URLS {
            if let Some(Value::Object(flow)) = flows.get_mut(flow) {
                if text(flow, key).is_none() {
                    flow.insert(key.into(), endpoint(from));
                }
            }
        }
    }
    Ok(scheme)
}
