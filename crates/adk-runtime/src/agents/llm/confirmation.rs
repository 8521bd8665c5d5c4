//! The pause for a person's approval and the resume after it (ADK 2.x's
//! `flows/llm_flows/tools/_confirmation.py` and the confirmation half of its function-call
//! postprocessor): a call that asked becomes an `adk_request_confirmation` call of the agent; the
//! answer runs the original call again, with the person's [`ToolConfirmation`].

use std::rc::Rc;

use serde_json::Value;

use super::functions::{asking_event, handle_function_calls};
use super::LlmAgent;
use crate::agent::{InvocationContext, ToolContext};
use crate::agents::calls_in;
use crate::tool::confirmation::REQUEST_CONFIRMATION;
use crate::tool::Tool;
use crate::types::{FunctionCall, JsonObject};
use crate::{AdkError, Event};
use adk_core::events::{SmallMap, ToolConfirmation};
use adk_core::json;

/// The event asking the person to approve each call of `call_event` that asked in `response`:
/// one `adk_request_confirmation` call each, carrying the original call and the request, all
/// long-running (the run pauses on them). `None` when nothing asked.
pub(super) fn request_event(ctx: &InvocationContext, call_event: &Event, response: &Event) -> Option<Event> {
    let requested = &response.actions.requested_tool_confirmations;
    if requested.is_empty() {
        return None;
    }
    let calls = call_event.get_function_calls();
    let mut asks = Vec::new();
    for (call_id, confirmation) in requested {
        let Some(original) = calls.iter().find(|c| c.id.as_deref() == Some(call_id)) else { continue };
        asks.push(json::members([
            ("originalFunctionCall", json::to_value(*original)),
            ("toolConfirmation", json::to_value(confirmation)),
        ]));
    }
    Some(asking_event(ctx, "model", REQUEST_CONFIRMATION, asks))
}

/// The order ADK 2.x yields a tool step that asked for approval: responses that settled first (so
/// a caller stopping at the request still stores them, and the step is not final on their
/// account), then the request; with none settled, the request and then the responses.
pub(super) fn in_order(mut response: Event, request: Option<Event>) -> Vec<Event> {
    let Some(request) = request else { return vec![response] };
    let waiting = &response.actions.requested_tool_confirmations;
    let settled =
        response.get_function_responses().iter().any(|r| r.id.as_deref().is_none_or(|id| !waiting.contains_key(id)));
    if settled {
        response.actions.skip_summarization = None;
        vec![response, request]
    } else {
        vec![request, response]
    }
}

/// A `ToolConfirmation` from the person's function response: as it is, or in adk-web's
/// `{"response": "<json>"}` wrapper.
fn parse_confirmation(response: &JsonObject) -> Result<ToolConfirmation, AdkError> {
    match response.get("response") {
        Some(Value::String(text)) if response.len() == 1 => json::from_str("ToolConfirmation", text),
        _ => json::from_value("ToolConfirmation", Value::Object(response.clone())),
    }
}

/// Whether an event is on the agent's branch (ADK's `_get_events(current_branch=True)`): the
/// person's from this branch, from below it or from none; everyone else's from exactly this branch.
pub(super) fn on_branch(event: &Event, branch: Option<&str>) -> bool {
    if event.author != "user" {
        return event.branch.as_deref() == branch;
    }
    let below =
        |b: &str| branch.is_none_or(|mine| b == mine || b.strip_prefix(mine).is_some_and(|r| r.starts_with('.')));
    event.branch.as_deref().is_none_or(below)
}

/// The events of `events` on `branch` (see [`on_branch`]), in order.
pub(super) fn branch_of<'a>(events: &'a crate::session::Events, branch: Option<&str>) -> Vec<&'a Event> {
    let mut on = Vec::new();
    for event in events.iter() {
        if on_branch(event, branch) {
            on.push(event);
        }
    }
    on
}

/// Whether `event` holds a function response to a call named `name` (an answer of the person's).
pub(super) fn answers(event: &Event, name: &str) -> bool {
    event.get_function_responses().iter().any(|r| r.name.as_deref() == Some(name))
}

/// The `originalFunctionCall` of an `adk_request_confirmation` call, if it is well-formed.
fn original_call(call: &FunctionCall) -> Option<&JsonObject> {
    call.args.as_ref()?.get("originalFunctionCall")?.as_object()
}

/// A call the person answered, to run again once its tool agrees it is due.
struct Target {
    /// The call as the request carried it.
    call: FunctionCall,
    /// The same id's call in the history (name and arguments must match).
    in_history: FunctionCall,
    answer: ToolConfirmation,
    /// The tool asked by itself (`request_confirmation`), so it is due whatever its options say.
    asked: bool,
}

/// What the person's last message asks of the agent.
enum Plan {
    /// Nothing to resume (the usual case: no answers in the last message).
    Nothing,
    /// Only answers already acted on: the invocation ends.
    End,
    /// Calls to run again.
    Run(Vec<Target>),
}

/// Runs the calls the person's last message approved or refused, before the next model call
/// (ADK's request-confirmation processor). Answers already acted on are skipped (the processor
/// sees the same last message on every step of the turn); a message of nothing but spent answers
/// ends the invocation. An answer for a call that is not in the history, of another tool, with
/// other arguments, or for a tool that never asked is refused with ADK's message.
pub(super) async fn resume(
    agent: &LlmAgent,
    tools: &[Rc<dyn Tool>],
    ctx: &InvocationContext,
) -> Result<Option<Event>, AdkError> {
    // Read in place: this runs before every model call, and copying the history for it would
    // cost the whole session each step. Most steps have no answer to read: looked at first, from
    // the end, before the branch's events are gathered.
    let me = ctx.agent_name().to_string();
    let plan = ctx.with_session(|s| {
        let last_user = s.events.iter().rev().filter(|e| on_branch(e, ctx.branch())).find(|e| e.author == "user");
        if !last_user.is_some_and(|e| answers(e, REQUEST_CONFIRMATION)) {
            return Ok(Plan::Nothing);
        }
        plan(&branch_of(&s.events, ctx.branch()), &me)
    })?;
    let targets = match plan {
        Plan::Nothing => return Ok(None),
        Plan::End => {
            ctx.set_end_invocation(true);
            return Ok(None);
        }
        Plan::Run(targets) => targets,
    };
    let mut confirmations = SmallMap::new();
    let mut calls: Vec<FunctionCall> = Vec::new();
    for target in targets {
        let Target { call, in_history, answer, asked } = target;
        let (id, name) = (call.id.clone().unwrap_or_default(), call.name.clone().unwrap_or_default());
        let tool = crate::tool::named(tools, &name);
        let tool = tool.ok_or_else(|| AdkError::invalid(format!("Tool '{name}' is not registered.")))?;
        let args = call.args.clone().unwrap_or_default();
        let probe = ToolContext::for_tool(ctx.clone(), &id);
        if !asked && !tool.check_require_confirmation(&args, &probe).await? {
            return Err(AdkError::invalid(format!("Tool '{name}' does not require confirmation.")));
        }
        if in_history.name.as_deref() != Some(name.as_str()) {
            let had = in_history.name.unwrap_or_default();
            return Err(AdkError::invalid(format!(
                "Function call name mismatch for ID '{id}': history has '{had}', confirmation has '{name}'."
            )));
        }
        if in_history.args.unwrap_or_default() != args {
            return Err(AdkError::invalid(format!("Function call arguments mismatch for ID '{id}'.")));
        }
        // A later answer for the same call replaces the earlier one in its place.
        match calls.iter_mut().find(|c| c.id == call.id) {
            Some(slot) => *slot = call,
            None => calls.push(call),
        }
        confirmations.insert(id, answer);
    }
    if calls.is_empty() {
        return Ok(None);
    }
    handle_function_calls(agent, tools, ctx, calls, &confirmations).await
}

/// Steps 1 to 3 of ADK's processor over the branch's events, without copying them.
fn plan(events: &[&Event], me: &str) -> Result<Plan, AdkError> {
    // Step 1: the answers in the person's last message.
    let Some(last_user) = events.iter().rposition(|e| e.author == "user") else { return Ok(Plan::Nothing) };
    let responses = events.get(last_user).map(|e| e.get_function_responses()).unwrap_or_default();
    let mut answers: Vec<(&str, ToolConfirmation)> = Vec::new();
    let mut other_responses = false;
    for response in responses {
        if response.name.as_deref() != Some(REQUEST_CONFIRMATION) {
            other_responses = true;
            continue;
        }
        if let (Some(id), Some(body)) = (response.id.as_deref().filter(|id| !id.is_empty()), &response.response) {
            let answer = parse_confirmation(body)?;
            match answers.iter_mut().find(|(known, _)| *known == id) {
                Some(slot) => slot.1 = answer,
                None => answers.push((id, answer)),
            }
        }
    }
    if answers.is_empty() {
        return Ok(Plan::Nothing);
    }
    let answered_here = |id: &str| answers.iter().any(|(known, _)| *known == id);

    // Step 2: drop the answers already acted on: a response to the original call after the first
    // message that answered the request.
    let calls = calls_in(events);
    let mut to_original: Vec<(&str, &str)> = Vec::new();
    for &(_, call) in &calls {
        let (Some(id), Some(original)) = (call.id.as_deref(), original_call(call)) else { continue };
        if let (true, Some(Value::String(original_id))) = (answered_here(id), original.get("id")) {
            to_original.push((id, original_id));
        }
    }
    let mut answered: Vec<&str> = Vec::new();
    let mut spent: Vec<&str> = Vec::new();
    let mut spent_this_turn = false;
    for (i, event) in events.iter().enumerate() {
        for response in event.get_function_responses() {
            let Some(id) = response.id.as_deref().filter(|id| !id.is_empty()) else { continue };
            if event.author == "user" {
                if answered_here(id) {
                    answered.push(id);
                }
            } else if let Some((request, _)) = to_original.iter().find(|(_, original)| *original == id) {
                if answered.contains(request) {
                    spent.push(request);
                    spent_this_turn |= i > last_user;
                }
            }
        }
    }
    answers.retain(|(id, _)| !spent.contains(id));
    if answers.is_empty() {
        let quiet = !spent_this_turn && !other_responses;
        return Ok(if quiet { Plan::End } else { Plan::Nothing });
    }

    // Step 3: the original calls the answers are for, each found in the history.
    let asked = |id: &str| {
        events.iter().any(|e| {
            e.actions.requested_tool_confirmations.contains_key(id)
                && e.get_function_responses().iter().any(|r| r.id.as_deref() == Some(id))
        })
    };
    let mut targets = Vec::new();
    for &(event, request) in &calls {
        if event.author != me {
            continue;
        }
        let Some(answer) = answers.iter().find(|(id, _)| request.id.as_deref() == Some(*id)).map(|(_, a)| a) else {
            continue;
        };
        if request.name.as_deref() != Some(REQUEST_CONFIRMATION) {
            continue;
        }
        let Some(original) = original_call(request) else { continue };
        let call: FunctionCall = json::from_value("originalFunctionCall", Value::Object(original.clone()))?;
        let id = call.id.as_deref().filter(|id| !id.is_empty());
        let id = id.ok_or_else(|| AdkError::invalid("Original function call ID is missing."))?;
        if call.name.as_deref().is_none_or(str::is_empty) {
            return Err(AdkError::invalid("Original function call name is missing."));
        }
        let same = |(_, c): &&(&Event, &FunctionCall)| {
            c.id.as_deref() == Some(id) && c.name.as_deref() != Some(REQUEST_CONFIRMATION)
        };
        let Some(&(made_by, in_history)) = calls.iter().find(same) else {
            return Err(AdkError::invalid(format!(
                "Original function call for ID '{id}' not found in session history."
            )));
        };
        // Another agent's call is for that agent to run.
        if made_by.author != me {
            continue;
        }
        let asked = asked(id);
        targets.push(Target { in_history: in_history.clone(), answer: answer.clone(), asked, call });
    }
    Ok(Plan::Run(targets))
}
