//! Model and tool callbacks (ADK's `before_model_callback` and friends), with ADK's rules: the
//! plugins go first, then the agent's callbacks; the first that returns something wins (a plugin's
//! answer skips the callbacks); a request or arguments may be changed on the way.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde_json::Value;

use crate::agent::{CallbackContext, ToolContext};
use crate::model::LlmRequest;
use crate::types::JsonObject;
use crate::{AdkError, LlmResponse};

type Boxed<T> = Pin<Box<dyn Future<Output = Result<T, AdkError>>>>;

/// Before a model call: returns the (possibly changed) request, and a response to use instead of
/// calling the model.
pub type BeforeModelCallback = Rc<dyn Fn(CallbackContext, LlmRequest) -> Boxed<(LlmRequest, Option<LlmResponse>)>>;
/// After a model response: a response to use instead.
pub type AfterModelCallback = Rc<dyn Fn(CallbackContext, LlmResponse) -> Boxed<Option<LlmResponse>>>;
/// When a model call fails: a response to use instead of failing.
pub type ModelErrorCallback = Rc<dyn Fn(CallbackContext, LlmRequest, AdkError) -> Boxed<Option<LlmResponse>>>;
/// Before a tool call (tool name, arguments): the (possibly changed) arguments, and a result to use
/// instead of running the tool.
pub type BeforeToolCallback = Rc<dyn Fn(String, JsonObject, ToolContext) -> Boxed<(JsonObject, Option<Value>)>>;
/// After a tool call (tool name, arguments, result): a result to use instead.
pub type AfterToolCallback = Rc<dyn Fn(String, JsonObject, ToolContext, Value) -> Boxed<Option<Value>>>;
/// When a tool fails (tool name, arguments, error): a result to use instead of failing.
pub type ToolErrorCallback = Rc<dyn Fn(String, JsonObject, ToolContext, AdkError) -> Boxed<Option<Value>>>;

pub(super) async fn before_model(
    callbacks: &[BeforeModelCallback],
    ctx: &CallbackContext,
    mut request: LlmRequest,
) -> Result<(LlmRequest, Option<LlmResponse>), AdkError> {
    let answer = ctx.invocation_context().plugins().run_before_model(ctx, &mut request).await?;
    if answer.is_some() {
        return Ok((request, answer));
    }
    for callback in callbacks {
        let (changed, response) = callback(ctx.clone(), request).await?;
        request = changed;
        if response.is_some() {
            return Ok((request, response));
        }
    }
    Ok((request, None))
}

pub(super) async fn after_model(
    callbacks: &[AfterModelCallback],
    ctx: &CallbackContext,
    response: LlmResponse,
) -> Result<LlmResponse, AdkError> {
    if let Some(replacement) = ctx.invocation_context().plugins().run_after_model(ctx, &response).await? {
        return Ok(replacement);
    }
    for callback in callbacks {
        if let Some(replacement) = callback(ctx.clone(), response.clone()).await? {
            return Ok(replacement);
        }
    }
    Ok(response)
}

pub(super) async fn on_model_error(
    callbacks: &[ModelErrorCallback],
    ctx: &CallbackContext,
    request: &LlmRequest,
    error: AdkError,
) -> Result<LlmResponse, AdkError> {
    if let Some(response) = ctx.invocation_context().plugins().run_on_model_error(ctx, request, &error).await? {
        return Ok(response);
    }
    for callback in callbacks {
        if let Some(response) = callback(ctx.clone(), request.clone(), error.clone()).await? {
            return Ok(response);
        }
    }
    // Unhandled, a failed model call ends the agent's turn with an error event the UI can show; the
    // run itself, and the session, carry on.
    Ok(LlmResponse::from_error(error.code.as_str(), &error.message))
}
