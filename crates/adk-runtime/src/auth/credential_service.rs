//! Where credentials outlive the sign-in that produced them (ADK's `BaseCredentialService`): in
//! memory for the page's lifetime, or in the session's state, which the IndexedDB session service
//! keeps across reloads. Both key a credential by its config's credential key.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use async_trait::async_trait;
use serde_json::Value;

use super::{stored_form, AuthConfig};
use crate::cancellation::Cancellation;
use crate::http::HttpClient;
use crate::types::JsonObject;
use crate::AdkError;

/// What the credential machinery needs of the tool's context (implemented by `ToolContext`), so
/// that it does not depend on the agent layer.
pub trait CredentialContext {
    /// The app the credential belongs to.
    fn app_name(&self) -> String;
    /// The user the credential belongs to.
    fn user_id(&self) -> String;
    /// A session state value.
    fn state_get(&self, key: &str) -> Option<Value>;
    /// Writes a session state value (recorded in the tool's event, as ADK's state writes are).
    fn state_set(&self, key: &str, value: Value);
    /// The runner's credential service, if it has one.
    fn credential_service(&self) -> Option<Rc<dyn CredentialService>>;
    /// The client token requests go through, if the runner has one.
    fn http_client(&self) -> Option<Rc<dyn HttpClient>>;
    /// Fired when the run stops.
    fn cancellation(&self) -> Rc<Cancellation>;
    /// Asks the person for the credential (ADK's `request_credential`).
    fn request_credential(&self, config: &AuthConfig) -> Result<(), AdkError>;
}

/// Stores credentials across invocations (ADK's `BaseCredentialService`).
#[async_trait(?Send)]
pub trait CredentialService {
    /// The credential stored for `config`, if any.
    async fn load_credential(
        &self,
        config: &AuthConfig,
        ctx: &dyn CredentialContext,
    ) -> Result<Option<JsonObject>, AdkError>;

    /// Stores `config`'s exchanged credential.
    async fn save_credential(&self, config: &AuthConfig, ctx: &dyn CredentialContext) -> Result<(), AdkError>;
}

/// Credentials in memory, per app and user (ADK's `InMemoryCredentialService`): gone with the page.
#[derive(Default)]
pub struct InMemoryCredentialService {
    // Keyed by app, user and credential key joined with NULs (which none of them holds in
    // practice); a JSON map, whose code the module has anyway.
    credentials: RefCell<JsonObject>,
}

fn slot(config: &AuthConfig, ctx: &dyn CredentialContext) -> String {
    [ctx.app_name().as_str(), &ctx.user_id(), config.credential_key()].join("\0")
}

impl InMemoryCredentialService {
    /// An empty service.
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait(?Send)]
impl CredentialService for InMemoryCredentialService {
    async fn load_credential(
        &self,
        config: &AuthConfig,
        ctx: &dyn CredentialContext,
    ) -> Result<Option<JsonObject>, AdkError> {
        Ok(self.credentials.lend().get(&slot(config, ctx)).and_then(Value::as_object).cloned())
    }

    async fn save_credential(&self, config: &AuthConfig, ctx: &dyn CredentialContext) -> Result<(), AdkError> {
        let key = slot(config, ctx);
        let mut credentials = self.credentials.lend_mut();
        match config.exchanged_credential() {
            Some(credential) => drop(credentials.insert(key, Value::Object(credential.clone()))),
            None => drop(credentials.shift_remove(&key)),
        }
        Ok(())
    }
}

/// Credentials in the session's state under their credential key (ADK's
/// `SessionStateCredentialService`): they last as long as the session, across reloads with the
/// IndexedDB session service. The OAuth2 client secret is never stored (it comes back from the
/// config on load); the person's own tokens are, in clear, as ADK stores them, so anything that
/// can read the session can read them.
#[derive(Default)]
pub struct SessionStateCredentialService;

impl SessionStateCredentialService {
    /// The service.
    pub fn new() -> Self {
        SessionStateCredentialService
    }
}

#[async_trait(?Send)]
impl CredentialService for SessionStateCredentialService {
    async fn load_credential(
        &self,
        config: &AuthConfig,
        ctx: &dyn CredentialContext,
    ) -> Result<Option<JsonObject>, AdkError> {
        // Only what save_credential wrote: a bare token under the same key is not this store's.
        let Some(Value::Object(credential)) = ctx.state_get(config.credential_key()) else { return Ok(None) };
        Ok(Some(config.with_configured_client(credential, false)))
    }

    async fn save_credential(&self, config: &AuthConfig, ctx: &dyn CredentialContext) -> Result<(), AdkError> {
        let value = config.exchanged_credential().map_or(Value::Null, |c| stored_form(c.clone()));
        ctx.state_set(config.credential_key(), value);
        Ok(())
    }
}
