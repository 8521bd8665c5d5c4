//! Before/after-agent callbacks, sync or async, written in Rust or JS.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use super::{agent_event, CallbackContext, InvocationContext};
use crate::types::Content;
use crate::{AdkError, Event};

/// What a callback returns: content to use instead of (before) or in addition to (after) the agent.
pub type CallbackFuture = Pin<Box<dyn Future<Output = Result<Option<Content>, AdkError>>>>;

/// A before- or after-agent callback.
pub type AgentCallback = Rc<dyn Fn(CallbackContext) -> CallbackFuture>;

/// Runs the plugins' agent hook, then (unless a plugin answered) the callbacks in order until one
/// returns content, and turns the outcome into ADK's event: content (which for `before` also ends
/// the agent's invocation context), else a state-only event when they changed state, else nothing.
pub(super) async fn run_callbacks(
    callbacks: &[AgentCallback],
    ctx: &InvocationContext,
    before: bool,
) -> Result<Option<Event>, AdkError> {
    let plugins = ctx.plugins();
    if callbacks.is_empty() && plugins.is_empty() {
        return Ok(None);
    }
    let callback_context = CallbackContext::new(ctx.clone());
    let mut content = plugins.run_agent_hook(&callback_context, before).await?;
    if content.is_none() {
        for callback in callbacks {
            content = callback(callback_context.clone()).await?;
            if content.is_some() {
                break;
            }
        }
    }
    let has_content = content.is_some();
    if !has_content && !callback_context.state().has_delta() {
        return Ok(None);
    }
    let mut event = agent_event(ctx, content);
    event.actions = callback_context.take_actions();
    if before && has_content {
        ctx.set_end_invocation(true);
    }
    Ok(Some(event))
}
