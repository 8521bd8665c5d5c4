//! Running the tools a model called and turning their results into one function-response event
//! (ADK's `flows/llm_flows/functions.py`).

use std::rc::Rc;

use adk_core::events::{SmallMap, ToolConfirmation};
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

use serde_json::Value;

use super::LlmAgent;
use crate::agent::{agent_event, InvocationContext, ToolContext};
use crate::auth::REQUEST_CREDENTIAL;
use crate::tool::Tool;
use crate::types::{Content, FunctionCall, FunctionResponse, JsonObject, Part};
use crate::{platform, AdkError, Event, EventActions};

/// Gives every function call without an id one of ADK's client ids (`adk-` + uuid4), and marks the
/// calls of long-running tools in `long_running_tool_ids`.
pub(super) fn assign_call_ids(event: &mut Event, tools: &[Rc<dyn Tool>]) {
    let mut long_running = Vec::new();
    let parts = event.content.as_mut().and_then(|c| c.parts.as_deref_mut()).unwrap_or_default();
    for part in parts {
        if let Some(call) = &mut part.function_call {
            if call.id.as_deref().is_none_or(str::is_empty) {
                call.id = Some(client_call_id());
            }
            let is_long = tools.iter().any(|t| Some(t.name()) == call.name.as_deref() && t.is_long_running());
            if let (true, Some(id)) = (is_long, &call.id) {
                long_running.push(id.clone());
            }
        }
    }
    if !event.get_function_calls().is_empty() {
        // Inserted one by one: collecting into the set would sort first, with its own sort code.
        // Every event with calls carries the set, empty or not, as ADK's do.
        let mut ids = adk_core::events::ToolIds::new();
        for id in long_running {
            ids.insert(id);
        }
        event.long_running_tool_ids = Some(ids);
    }
}

/// A function-call id made up here, as ADK makes one: `adk-` + uuid4.
fn client_call_id() -> String {
    format!("adk-{}", platform::new_uuid())
}

/// An event of the agent asking the person: one call of `name` per argument set, each with a
/// client id (`adk-` + uuid4) and long-running, so the run pauses on them (the shape of ADK's
/// confirmation and credential requests).
pub(super) fn asking_event(ctx: &InvocationContext, role: &str, name: &str, calls: Vec<JsonObject>) -> Event {
    let mut parts = Vec::new();
    let mut ids = adk_core::events::ToolIds::new();
    for args in calls {
        let id = client_call_id();
        let call =
            FunctionCall { id: Some(id.clone()), name: Some(name.into()), args: Some(args), ..Default::default() };
        parts.push(Part { function_call: Some(call), ..Default::default() });
        ids.insert(id);
    }
    let mut event = agent_event(ctx, Some(Content::new(role, parts)));
    event.long_running_tool_ids = Some(ids);
    event
}

/// The event asking for the credentials of `requested` (call or request id, auth config): one
/// `adk_request_credential` call per credential key (two asking for the same credential ask
/// once, as ADK's `build_auth_request_event` deduplicates them), long-running. `None` when
/// nothing is requested.
pub(super) fn asking_for_credentials(
    ctx: &InvocationContext,
    role: &str,
    requested: &[(String, JsonObject)],
) -> Option<Event> {
    if requested.is_empty() {
        return None;
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut calls = Vec::new();
    for (call_id, config) in requested {
        let key = config.get("credentialKey").and_then(Value::as_str).unwrap_or_default();
        if !key.is_empty() {
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
        }
        calls.push(adk_core::json::members([
            ("functionCallId", Value::String(call_id.clone())),
            ("authConfig", Value::Object(config.clone())),
        ]));
    }
    Some(asking_event(ctx, role, REQUEST_CREDENTIAL, calls))
}

/// The result of one call: its response part (none for a long-running tool that answers later) and
/// what the tool did to the state, artifacts and flow.
struct CallOutcome {
    part: Option<Part>,
    actions: EventActions,
}

async fn call_one(
    agent: &LlmAgent,
    tools: &[Rc<dyn Tool>],
    ctx: &InvocationContext,
    call: FunctionCall,
    confirmation: Option<ToolConfirmation>,
) -> Result<CallOutcome, AdkError> {
    let name = call.name.clone().unwrap_or_default();
    let id = call.id.clone().unwrap_or_default();
    // Two tools of one name are both declared, but calls land on the later one.
    let tool = crate::tool::named(tools, &name).cloned().ok_or_else(|| {
        AdkError::invalid(format!("Function {name} is not found in the tools of agent `{}`.", agent.core.name()))
    })?;
    let tool_ctx = ToolContext::for_tool(ctx.clone(), &id).with_tool_confirmation(confirmation);
    let config = agent.config();
    let mut args = call.args.unwrap_or_default();
    let plugins = ctx.plugins();
    let mut result = plugins.run_before_tool(&name, &mut args, &tool_ctx).await?;
    if result.is_none() {
        for callback in &config.before_tool_callbacks {
            let (changed, early) = callback(name.clone(), args, tool_ctx.clone()).await?;
            args = changed;
            if early.is_some() {
                result = early;
                break;
            }
        }
    }
    let result = match result {
        Some(r) => r,
        None => match tool.run(args.clone(), tool_ctx.clone()).await {
            Ok(r) => r,
            Err(error) => recover(config, &name, &args, &tool_ctx, error).await?,
        },
    };
    let mut result = result;
    if let Some(replacement) = plugins.run_after_tool(&name, &args, &tool_ctx, &result).await? {
        result = replacement;
    } else {
        for callback in &config.after_tool_callbacks {
            if let Some(replacement) = callback(name.clone(), args.clone(), tool_ctx.clone(), result.clone()).await? {
                result = replacement;
                break;
            }
        }
    }
    let part = if tool.is_long_running() && result.is_null() {
        None
    } else {
        let response = match result {
            Value::Object(map) => map,
            other => adk_core::json::members([("result", other)]),
        };
        Some(Part {
            function_response: Some(FunctionResponse {
                id: Some(id),
                name: Some(name),
                response: Some(response),
                ..Default::default()
            }),
            ..Default::default()
        })
    };
    Ok(CallOutcome { part, actions: tool_ctx.take_actions() })
}

async fn recover(
    config: &super::LlmAgentConfig,
    name: &str,
    args: &JsonObject,
    ctx: &ToolContext,
    error: AdkError,
) -> Result<Value, AdkError> {
    if let Some(result) = ctx.invocation_context().plugins().run_on_tool_error(name, args, ctx, &error).await? {
        return Ok(result);
    }
    for callback in &config.on_tool_error_callbacks {
        if let Some(result) = callback(name.to_string(), args.clone(), ctx.clone(), error.clone()).await? {
            return Ok(result);
        }
    }
    Err(error)
}

/// Runs `calls` concurrently (each with the person's answer, when it waited for one) and merges the
/// responses, in call order, into one event authored by the agent with role `user`. `None` when no
/// call produced a response.
pub(super) async fn handle_function_calls(
    agent: &LlmAgent,
    tools: &[Rc<dyn Tool>],
    ctx: &InvocationContext,
    calls: Vec<FunctionCall>,
    confirmations: &SmallMap<ToolConfirmation>,
) -> Result<Option<Event>, AdkError> {
    let mut runs: Vec<Run<'_>> = Vec::new();
    for call in calls {
        let confirmation = call.id.as_ref().and_then(|id| confirmations.get(id)).cloned();
        runs.push(Box::pin(call_one(agent, tools, ctx, call, confirmation)));
    }
    let outcomes = join_in_order(runs).await;
    let mut parts = Vec::new();
    let mut actions = EventActions::default();
    // Every run is done once the join is: each slot holds its outcome.
    for outcome in outcomes {
        let Some(outcome) = outcome else { continue };
        let outcome = outcome?;
        parts.extend(outcome.part);
        merge_actions(&mut actions, outcome.actions);
    }
    if parts.is_empty() {
        return Ok(None);
    }
    let mut event = agent_event(ctx, Some(Content::new("user", parts)));
    event.actions = actions;
    Ok(Some(event))
}

type Run<'a> = Pin<Box<dyn Future<Output = Result<CallOutcome, AdkError>> + 'a>>;

/// The outcomes of `runs`, run concurrently, in their order: what `join_all` does for a few
/// futures, without its queue for many (its code, for one caller, was larger than this). Each
/// slot is filled as its run finishes, so every slot is `Some` once the join is done.
async fn join_in_order(mut runs: Vec<Run<'_>>) -> Vec<Option<Result<CallOutcome, AdkError>>> {
    let mut outcomes: Vec<Option<Result<CallOutcome, AdkError>>> = Vec::new();
    outcomes.resize_with(runs.len(), || None);
    poll_fn(|cx| {
        let mut pending = false;
        for (run, outcome) in runs.iter_mut().zip(outcomes.iter_mut()).filter(|(_, o)| o.is_none()) {
            match run.as_mut().poll(cx) {
                Poll::Ready(done) => *outcome = Some(done),
                Poll::Pending => pending = true,
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outcomes
}

/// ADK's merge of parallel function-response events: later calls' keys win; flags are or-ed.
fn merge_actions(into: &mut EventActions, from: EventActions) {
    into.state_delta.extend(from.state_delta);
    into.artifact_delta.extend(from.artifact_delta);
    into.requested_auth_configs.extend(from.requested_auth_configs);
    into.requested_tool_confirmations.extend(from.requested_tool_confirmations);
    if from.transfer_to_agent.is_some() {
        into.transfer_to_agent = from.transfer_to_agent;
    }
    if from.set_model_response.is_some() {
        into.set_model_response = from.set_model_response;
    }
    if from.escalate == Some(true) {
        into.escalate = Some(true);
    }
    if from.skip_summarization == Some(true) {
        into.skip_summarization = Some(true);
    }
}
