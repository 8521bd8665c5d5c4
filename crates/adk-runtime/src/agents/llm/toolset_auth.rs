//! Toolsets' credentials, before their tools are listed (ADK 2.x's `resolve_toolset_auth`): each
//! toolset with an auth config gets its credential from `CredentialManager` into the invocation,
//! or the person is asked for it in one event (`adk_request_credential`, for
//! `_adk_toolset_auth_<class>`), which ends the invocation. Their answer is stored as any other
//! (`auth::take_answers`), and the next invocation lists the tools with it.

use futures_util::future::LocalBoxFuture;

use super::functions::asking_for_credentials;
use super::LlmAgent;
use crate::agent::{CallbackContext, InvocationContext};
use crate::auth::CredentialManager;
use crate::tool::ToolUnion;
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode, Event};

/// The prefix of a toolset's credential request id: no tool call is resumed for it.
pub(super) const TOOLSET_AUTH_PREFIX: &str = "_adk_toolset_auth_";

/// The event asking for the credentials toolsets lack, or `None` when every toolset has its own.
/// Boxed: awaited once a step by the agent's loop.
pub(super) fn resolve<'a>(
    agent: &'a LlmAgent,
    ctx: &'a InvocationContext,
) -> LocalBoxFuture<'a, Result<Option<Event>, AdkError>> {
    Box::pin(async move {
        let callback_ctx = CallbackContext::new(ctx.clone());
        // By request id, as ADK keys them: the last toolset of a class wins.
        let mut pending: Vec<(String, JsonObject)> = Vec::new();
        for toolset in agent.config.tools.iter().filter_map(|t| match t {
            ToolUnion::Toolset(toolset) => Some(toolset),
            ToolUnion::Tool(_) => None,
        }) {
            let Some(config) = toolset.auth_config() else { continue };
            let manager = CredentialManager::new(config.clone());
            let credential = match manager.get_auth_credential(&callback_ctx).await {
                Ok(credential) => credential,
                // A config the manager cannot use leaves the toolset to try without (ADK logs it).
                Err(e) if e.code == ErrorCode::InvalidArgument => None,
                Err(e) => return Err(e),
            };
            if let Some(credential) = credential {
                ctx.invocation().put_credential(config.credential_key(), credential);
                continue;
            }
            let id = [TOOLSET_AUTH_PREFIX, toolset.class_name()].concat();
            pending.retain(|(i, _)| *i != id);
            pending.push((id, config.auth_request()?.to_json().clone()));
        }
        let Some(mut event) = asking_for_credentials(ctx, "", &pending) else { return Ok(None) };
        // ADK's event has no role: the request is the framework's, not the model's.
        if let Some(content) = event.content.as_mut() {
            content.role = None;
        }
        Ok(Some(event))
    })
}
