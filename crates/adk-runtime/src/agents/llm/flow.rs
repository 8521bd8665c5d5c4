//! The LLM agent's loop: build the request, call the model, run the tools it asks for, and go on
//! until a final answer, a transfer, or a stop (ADK's `BaseLlmFlow` with the `AutoFlow` processors).

use std::rc::Rc;

use futures_util::StreamExt;

use super::callbacks::{after_model, before_model, on_model_error};
use super::contents::build_contents;
use super::functions::{assign_call_ids, handle_function_calls};
use super::instructions::inject_session_state;
use super::{as_llm_agent, IncludeContents, Instruction, LlmAgent};
use crate::agent::{run_agent, Agent, CallbackContext, EventStream, InvocationContext, ReadonlyContext, StreamingMode};
use crate::model::{LlmRequest, LlmResponseStream, ToolDeclarations};
use crate::tool::{Tool, TransferToAgentTool};
use crate::types::Content;
use crate::{AdkError, ErrorCode, Event};

/// The agents `agent` may hand the conversation to: its sub-agents, its parent unless disallowed,
/// and its siblings unless disallowed (siblings only under an LLM parent, as in ADK).
fn transfer_targets(agent: &Rc<dyn Agent>, llm: &LlmAgent) -> Vec<Rc<dyn Agent>> {
    let mut targets = agent.sub_agents();
    if let Some(parent) = agent.parent_agent() {
        if !llm.config.disallow_transfer_to_parent {
            targets.push(parent.clone());
        }
        if !llm.config.disallow_transfer_to_peers && as_llm_agent(&*parent).is_some() {
            targets.extend(parent.sub_agents().into_iter().filter(|p| p.name() != agent.name()));
        }
    }
    targets
}

/// The instruction telling the model whom it can transfer to (ADK's agent-transfer processor, in
/// our words).
fn transfer_instruction(targets: &[Rc<dyn Agent>], parent: Option<&Rc<dyn Agent>>) -> String {
    let mut text = String::from("You can hand the conversation to one of these agents:\n");
    for target in targets {
        text.push_str(&format!("\nAgent name: {}\nAgent description: {}\n", target.name(), target.description()));
    }
    text.push_str(
        "\nIf you are the best agent to answer according to your description, answer yourself. If another agent \
         is better suited according to its description, call the `transfer_to_agent` function with its name; \
         when you do, produce no text besides the function call.",
    );
    if let Some(parent) = parent.filter(|p| targets.iter().any(|t| Rc::ptr_eq(t, p))) {
        text.push_str(&format!(
            "\n\nYour parent agent is {}. If neither you nor the other agents fit, hand the conversation back to it.",
            parent.name()
        ));
    }
    text
}

async fn resolve_instruction(instruction: &Instruction, ctx: &CallbackContext) -> Result<Option<String>, AdkError> {
    match instruction {
        Instruction::None => Ok(None),
        Instruction::Text(t) if t.is_empty() => Ok(None),
        Instruction::Text(template) => inject_session_state(template, ctx).await.map(Some),
        Instruction::Provider(f) => f(ReadonlyContext::clone(ctx)).await.map(Some),
    }
}

/// The request for the next model call, and the tools the model may call.
async fn build_request(agent: &LlmAgent, ctx: &InvocationContext) -> Result<(LlmRequest, Vec<Rc<dyn Tool>>), AdkError> {
    let config = &agent.config;
    let me = ctx.agent().clone();
    let callback_ctx = CallbackContext::new(ctx.clone());
    let mut request = LlmRequest { model: Some(config.model.model().to_string()), ..Default::default() };
    request.config.settings = config.generate_content_config.clone();

    let global = match as_llm_agent(&*me.root_agent()) {
        Some(root) => resolve_instruction(&root.config.global_instruction, &callback_ctx).await?,
        None => None,
    };
    let instruction = resolve_instruction(&config.instruction, &callback_ctx).await?;
    let mut tools = config.tools.clone();
    let targets = transfer_targets(&me, agent);
    let transfer = (!targets.is_empty()).then(|| transfer_instruction(&targets, me.parent_agent().as_ref()));
    if transfer.is_some() {
        tools.push(Rc::new(TransferToAgentTool));
    }
    let history = ctx.with_session(|s| {
        build_contents(&s.events, me.name(), ctx.branch(), config.include_contents == IncludeContents::None)
    });
    request.contents = history;
    // ADK's order: global instruction, the agent's instruction, then the transfer instruction.
    match &config.static_instruction {
        Some(static_instruction) => {
            request.config.system_instruction = Some(static_instruction.clone());
            request.append_instructions(&global.into_iter().chain(transfer).collect::<Vec<_>>());
            if let Some(dynamic) = instruction {
                request.contents.push(Content::user_text(&dynamic));
            }
        }
        None => request.append_instructions(&global.into_iter().chain(instruction).chain(transfer).collect::<Vec<_>>()),
    }
    if !tools.is_empty() {
        request.config.tools =
            vec![ToolDeclarations { function_declarations: tools.iter().map(|t| t.declaration()).collect() }];
    }
    Ok((request, tools))
}

/// The concatenated non-thought text of an event.
fn final_text(event: &Event) -> String {
    event.parts().iter().filter(|p| p.thought != Some(true)).filter_map(|p| p.text.as_deref()).collect()
}

/// Runs the agent's loop.
pub(super) fn run(agent: Rc<LlmAgent>, ctx: InvocationContext) -> EventStream {
    Box::pin(async_stream::try_stream! {
        loop {
            let (request, tools) = build_request(&agent, &ctx).await?;
            let callback_ctx = CallbackContext::new(ctx.clone());
            let (request, early) = before_model(&agent.config.before_model_callbacks, &callback_ctx, request).await?;
            let stream = ctx.run_config().streaming_mode == StreamingMode::Sse;
            let mut responses: LlmResponseStream = match early {
                Some(response) => Box::pin(futures_util::stream::once(async { Ok(response) })),
                None => {
                    ctx.increment_llm_call_count()?;
                    agent.config.model.generate_content(request.clone(), stream, ctx.invocation().cancellation.clone())
                }
            };
            let mut last: Option<Event> = None;
            while let Some(response) = responses.next().await {
                let response = match response {
                    Ok(r) => r,
                    Err(e) if e.code == ErrorCode::Aborted => Err(e)?,
                    Err(e) => on_model_error(&agent.config.on_model_error_callbacks, &callback_ctx, &request, e).await?,
                };
                let response = after_model(&agent.config.after_model_callbacks, &callback_ctx, response).await?;
                let mut event = Event::from_llm_response(response, ctx.agent_name(), ctx.invocation_id());
                event.branch = ctx.branch().map(str::to_string);
                assign_call_ids(&mut event, &tools);
                let pending = callback_ctx.take_actions();
                event.actions.state_delta.extend(pending.state_delta);
                event.actions.artifact_delta.extend(pending.artifact_delta);
                if event.partial != Some(true) {
                    if let Some(key) = &agent.config.output_key {
                        if event.is_final_response() && !event.has_error() && event.content.is_some() {
                            event.actions.state_delta.insert(key.clone(), final_text(&event).into());
                        }
                    }
                    last = Some(event.clone());
                }
                yield event;
            }
            let Some(last) = last else { break };
            if last.get_function_calls().is_empty() {
                break;
            }
            // No response at all: only long-running tools answering later; the run waits for the app.
            let Some(response) = handle_function_calls(&agent, &tools, &ctx, &last).await? else { break };
            yield response.clone();
            if let Some(target_name) = &response.actions.transfer_to_agent {
                let target = ctx.agent().root_agent().find_agent(target_name).ok_or_else(|| {
                    AdkError::invalid(format!("transfer_to_agent: there is no agent named `{target_name}` in the tree"))
                })?;
                let mut events = run_agent(target, &ctx);
                while let Some(event) = events.next().await {
                    yield event?;
                }
                break;
            }
            if response.is_final_response() || ctx.end_invocation() {
                break;
            }
        }
    })
}
