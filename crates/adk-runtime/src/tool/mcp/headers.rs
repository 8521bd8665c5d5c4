//! What each request an `McpToolset` and its tools make carries besides the client's own headers.

use crate::agent::ReadonlyContext;
use crate::auth::{auth_headers, AuthConfig};
use crate::tool::toolset::{headers, HeaderProvider};
use crate::AdkError;

/// What each request to the server carries besides the client's own headers: the header
/// provider's, then the toolset's credential (which wins a clash, as in ADK).
#[derive(Clone, Default)]
pub(super) struct RequestHeaders {
    pub(super) provider: Option<HeaderProvider>,
    pub(super) auth: Option<AuthConfig>,
}

impl RequestHeaders {
    pub(super) fn for_request(&self, ctx: &ReadonlyContext) -> Result<Vec<(String, String)>, AdkError> {
        let mut all = headers(&self.provider, ctx)?;
        if let Some(auth) = &self.auth {
            // The credential resolved for this invocation, else the one configured as exchanged.
            let credential = ctx.get_credential(auth.credential_key()).or_else(|| auth.exchanged_credential().cloned());
            let auth_headers = credential.map(|c| auth_headers(&c, auth.auth_scheme())).unwrap_or_default();
            all.retain(|(name, _)| !auth_headers.iter().any(|(a, _)| a.eq_ignore_ascii_case(name)));
            all.extend(auth_headers);
        }
        Ok(all)
    }
}
