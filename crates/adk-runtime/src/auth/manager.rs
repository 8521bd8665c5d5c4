//! ADK's `CredentialManager`: everything a tool does to hold a usable credential, in one call. The
//! credential service's copy first, else the person's answer; the OAuth2 code exchanged and an
//! expired token refreshed; the result saved back. `None` means the person must be asked
//! ([`CredentialManager::request_credential`]).

use adk_core::cell::Lend;
use std::cell::RefCell;

use futures_util::future::LocalBoxFuture;

use serde_json::Value;

use super::credential_service::CredentialContext;
use super::{discovery, oauth2, AuthConfig};
use crate::types::JsonObject;
use crate::AdkError;

/// Loads, exchanges, refreshes and saves the credential of one [`AuthConfig`].
pub struct CredentialManager {
    // Discovery fills in the scheme's endpoints once; the request to the person then carries them.
    config: RefCell<AuthConfig>,
}

/// An OAuth2 credential holding a code that never became a token: the exchange failed or never
/// ran, and only a new sign-in helps (ADK's `_has_unredeemed_auth_code`).
fn has_unredeemed_code(credential: &JsonObject) -> bool {
    if !matches!(credential.get("authType").and_then(Value::as_str), Some("oauth2" | "openIdConnect")) {
        return false;
    }
    let Some(oauth2) = credential.get("oauth2").and_then(Value::as_object) else { return false };
    let set = |key: &str| oauth2.get(key).and_then(Value::as_str).is_some_and(|s| !s.is_empty());
    !set("accessToken") && (set("authCode") || set("authResponseUri"))
}

impl CredentialManager {
    /// A manager for `config`.
    pub fn new(config: AuthConfig) -> Self {
        CredentialManager { config: RefCell::new(config) }
    }

    /// The config, with any endpoints discovery filled in.
    pub fn auth_config(&self) -> AuthConfig {
        self.config.lend().clone()
    }

    /// Asks the person for the credential (the tool's run pauses; it runs again with the answer).
    pub fn request_credential(&self, ctx: &dyn CredentialContext) -> Result<(), AdkError> {
        ctx.request_credential(&self.config.lend())
    }

    /// A credential ready to use, or `None` when the person must be asked (ADK's
    /// `get_auth_credential`). Errors are configuration errors (ADK's `ValueError`s) and failures
    /// of the credential service; a failed exchange or refresh is not one (ADK keeps the
    /// credential as it was and logs).
    pub fn get_auth_credential<'a>(
        &'a self,
        ctx: &'a dyn CredentialContext,
    ) -> LocalBoxFuture<'a, Result<Option<JsonObject>, AdkError>> {
        // Boxed: one copy of the workflow, not one per caller's future.
        Box::pin(self.prepare(ctx))
    }

    async fn prepare(&self, ctx: &dyn CredentialContext) -> Result<Option<JsonObject>, AdkError> {
        self.validate(ctx).await?;
        let config = self.auth_config();
        let raw = config.raw_credential();
        let raw_kind = raw.and_then(|r| r.get("authType")).and_then(Value::as_str);
        // API keys and HTTP credentials need no processing.
        if let (Some(raw), Some("apiKey" | "http")) = (raw, raw_kind) {
            return Ok(Some(raw.clone()));
        }
        let service = ctx.credential_service();
        let mut from_answer = false;
        let mut credential = match (&service, raw_kind) {
            (Some(service), kind) if kind != Some("serviceAccount") => {
                service.load_credential(&config, ctx).await?.filter(|c| !has_unredeemed_code(c))
            }
            _ => None,
        };
        if credential.is_none() {
            credential = config.stored_credential(&|key| ctx.state_get(key));
            from_answer = true;
        }
        let mut credential = match credential {
            // A credential that came back through the person gets the configured client pinned.
            Some(credential) => config.with_configured_client(credential, from_answer),
            None if self.is_client_credentials_flow() => match raw {
                Some(raw) => raw.clone(),
                None => return Ok(None),
            },
            None => return Ok(None),
        };
        let scheme = config.auth_scheme();
        let mut changed = false;
        if let Some(http) = ctx.http_client() {
            changed = oauth2::exchange(&*http, scheme, &mut credential, ctx.cancellation()).await.unwrap_or(false);
            if !changed {
                changed = oauth2::refresh(&*http, scheme, &mut credential, ctx.cancellation()).await.unwrap_or(false);
            }
        }
        if has_unredeemed_code(&credential) {
            return Ok(None);
        }
        if from_answer || changed {
            if let Some(service) = service.filter(|_| raw_kind != Some("serviceAccount")) {
                service.save_credential(&config.with_exchanged(credential.clone()), ctx).await?;
            }
        }
        Ok(Some(credential))
    }

    /// ADK's `_validate_credential`: OAuth2 needs a configured client; missing endpoints are
    /// discovered.
    async fn validate(&self, ctx: &dyn CredentialContext) -> Result<(), AdkError> {
        let config = self.auth_config();
        let Some(raw) = config.raw_credential() else {
            let kind = config.auth_scheme().get("type").and_then(Value::as_str).unwrap_or_default();
            if matches!(kind, "oauth2" | "openIdConnect") {
                return Err(AdkError::invalid(
                    ["raw_auth_credential is required for auth_scheme type ", kind].concat(),
                ));
            }
            return Ok(());
        };
        let raw_kind = raw.get("authType").and_then(Value::as_str).unwrap_or_default();
        if matches!(raw_kind, "oauth2" | "openIdConnect") && !raw.get("oauth2").is_some_and(Value::is_object) {
            return Err(AdkError::invalid(
                ["auth_config.raw_credential.oauth2 required for credential type ", raw_kind].concat(),
            ));
        }
        if discovery::missing_endpoints(config.auth_scheme()) {
            let http = ctx.http_client().ok_or_else(|| {
                AdkError::invalid("OAuth scheme info is missing, and there is no HTTP client to discover it with.")
            })?;
            let scheme = discovery::discover(&*http, config.auth_scheme(), ctx.cancellation()).await?;
            let mut json = config.to_json().clone();
            json.insert("authScheme".into(), Value::Object(scheme));
            *self.config.lend_mut() = AuthConfig::from_json(json)?;
        }
        Ok(())
    }

    fn is_client_credentials_flow(&self) -> bool {
        let config = self.config.lend();
        let scheme = config.auth_scheme();
        if let Some(Value::Object(flows)) = scheme.get("flows") {
            return flows.contains_key("clientCredentials");
        }
        oauth2::lists_client_credentials(scheme)
    }
}
