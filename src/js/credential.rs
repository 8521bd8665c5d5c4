//! Credentials for JS: `CredentialService` (in memory, or in session state as ADK's
//! `SessionStateCredentialService`, which IndexedDB sessions keep across reloads) and ADK's
//! `CredentialManager`, which a tool uses to hold a usable OAuth2 token: loaded, exchanged,
//! refreshed and saved in one call.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::context::{auth_config_arg, JsContext};
use super::convert::{promise, to_js};
use super::to_js_error;
use crate::auth::{CredentialManager, CredentialService, InMemoryCredentialService, SessionStateCredentialService};

/// Where credentials outlive a sign-in (ADK's `BaseCredentialService`):
/// `CredentialService.inMemory()` or `CredentialService.sessionState()`.
#[wasm_bindgen(js_name = CredentialService)]
pub struct CredentialServiceHandle {
    inner: Rc<dyn CredentialService>,
}

impl CredentialServiceHandle {
    /// The service, for the runner.
    pub fn service(&self) -> Rc<dyn CredentialService> {
        self.inner.clone()
    }
}

#[wasm_bindgen(js_class = CredentialService)]
impl CredentialServiceHandle {
    /// A service by kind: kept in this page (0, `inMemory()`) or in session state (1,
    /// `sessionState()`); one export for the two (index.js names them), as each export costs a shim.
    pub fn make(kind: u32) -> CredentialServiceHandle {
        if kind == 0 {
            Self::in_memory()
        } else {
            Self::session_state()
        }
    }
}

impl CredentialServiceHandle {
    /// Credentials kept in this page, per app and user (ADK's `InMemoryCredentialService`).
    fn in_memory() -> Self {
        CredentialServiceHandle { inner: Rc::new(InMemoryCredentialService::new()) }
    }

    /// Credentials in the session's state under their credential key, without the OAuth2
    /// client secret (ADK's `SessionStateCredentialService`).
    fn session_state() -> Self {
        CredentialServiceHandle { inner: Rc::new(SessionStateCredentialService::new()) }
    }
}

/// ADK's `CredentialManager` over one `AuthConfig`.
#[wasm_bindgen(js_name = CredentialManager)]
pub struct CredentialManagerHandle {
    inner: Rc<CredentialManager>,
}

#[wasm_bindgen(js_class = CredentialManager)]
impl CredentialManagerHandle {
    /// A manager for `authConfig`.
    #[wasm_bindgen(constructor)]
    pub fn new(auth_config: JsValue) -> Result<CredentialManagerHandle, JsValue> {
        let config = auth_config_arg("CredentialManager", &auth_config)?;
        Ok(CredentialManagerHandle { inner: Rc::new(CredentialManager::new(config)) })
    }

    /// The config, with any endpoints discovery filled in.
    #[wasm_bindgen(getter, js_name = authConfig)]
    pub fn auth_config(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.auth_config().to_json())
    }

    /// Its two methods by number, one export for both (index.js names them): `getAuthCredential`
    /// (0: a Promise of a credential ready to use, or `undefined` when the person must sign in,
    /// then call `requestCredential`; rejects on a configuration error) and `requestCredential`
    /// (1: asks the person to sign in: the run pauses on an `adk_request_credential` call).
    pub fn act(&self, op: u32, ctx: &JsContext) -> Result<JsValue, JsValue> {
        let ctx = ctx.callback_context()?;
        if op == 1 {
            return ctx.request_credential(&self.inner.auth_config()).map(|()| JsValue::UNDEFINED).map_err(to_js_error);
        }
        let manager = self.inner.clone();
        Ok(promise(async move {
            match manager.get_auth_credential(&ctx).await? {
                Some(credential) => super::convert::to_js_core(&credential),
                None => Ok(JsValue::UNDEFINED),
            }
        })
        .into())
    }
}
