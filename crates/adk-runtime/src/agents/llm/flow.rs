//! The LLM agent's loop: build the request, call the model, run the tools it asks for, and go on
//! until a final answer, a transfer, or a stop (ADK's `BaseLlmFlow` with the `AutoFlow` processors).

use adk_core::text::join;
use std::rc::Rc;

use futures_util::StreamExt;

use super::callbacks::{after_model, before_model, on_model_error};
use super::contents::build_contents;
use super::functions::{assign_call_ids, handle_function_calls};
use super::{as_llm_agent, IncludeContents, LlmAgent};
use super::{auth, confirmation, output_schema, toolset_auth};
use crate::agent::{
    run_agent, Agent, CallbackContext, EventStream, InvocationContext, ReadonlyContext, StreamingMode, ToolContext,
};
use crate::markers::{elide_markers, INSTRUCTION_BEGIN, INSTRUCTION_END};
use crate::model::{LlmRequest, LlmResponseStream};
use crate::or_break::or_break;
use crate::tool::{toolset, SetModelResponseTool, Tool, TransferToAgentTool};
use crate::types::{Content, FunctionCall, Part};
use crate::{AdkError, ErrorCode, Event};
use adk_core::events::SmallMap;
use adk_core::sort::sort_by;

/// The agents `agent` may hand the conversation to (ADK's `_get_transfer_targets`): its
/// sub-agents; and only under an LLM parent, the parent and the parent's other sub-agents, each
/// unless disallowed.
fn transfer_targets(agent: &Rc<dyn Agent>, llm: &LlmAgent) -> Vec<Rc<dyn Agent>> {
    let mut targets = agent.sub_agents();
    let Some(parent) = agent.parent_agent().filter(|p| as_llm_agent(&**p).is_some()) else { return targets };
    if !llm.config.disallow_transfer_to_parent {
        targets.push(parent.clone());
    }
    if !llm.config.disallow_transfer_to_peers {
        targets.extend(parent.sub_agents().into_iter().filter(|p| p.name() != agent.name()));
    }
    targets
}

/// The instruction listing whom the model can transfer to. The text is ADK's, to the character:
/// a model sees the same request whichever SDK built it. Built by pushing pieces (no `format!`:
/// its argument tables cost more than the texts).
fn transfer_instruction(agent: &Rc<dyn Agent>, llm: &LlmAgent, targets: &[Rc<dyn Agent>]) -> String {
    let mut text = String::from("\nYou have a list of other agents to transfer to:\n\n");
    for (i, t) in targets.iter().enumerate() {
        let sep = if i == 0 { "" } else { "\n" };
        text.extend([sep, "\nAgent name: ", t.name(), "\nAgent description: ", t.description(), "\n"]);
    }
    text.push_str(
        "\n\nIf you are the best to answer the question according to your description,\nyou can answer it.\n\n\
         If another agent is better for answering the question according to its\ndescription, call \
         `transfer_to_agent` function to transfer the question to that\nagent. When transferring, do not \
         generate any text other than the function\ncall.\n\n\
         **NOTE**: the only available agents for `transfer_to_agent` function are\n",
    );
    let mut names = Vec::new();
    for target in targets {
        names.push(target.name());
    }
    let names = sort_by(names, |a, b| a < b);
    for (i, name) in names.iter().enumerate() {
        text.extend([if i == 0 { "`" } else { ", `" }, name, "`"]);
    }
    text.push_str(".\n");
    if let Some(parent) = agent.parent_agent().filter(|_| !llm.config.disallow_transfer_to_parent) {
        text.extend([
            "\nIf neither you nor the other agents are best for the question, transfer to your parent agent ",
            parent.name(),
            ".\n",
        ]);
    }
    text
}

/// The agent's identity, as ADK tells every model it calls.
fn identity_instruction(agent: &Rc<dyn Agent>) -> String {
    let mut text = ["You are an agent. Your internal name is \"", agent.name(), "\"."].concat();
    if !agent.description().is_empty() {
        text.extend([" The description about you is \"", agent.description(), "\"."]);
    }
    text
}

/// With a static instruction, the dynamic one rides in the contents, where it would look like the
/// user speaking: ADK labels it, between markers its text cannot forge.
fn labelled_dynamic_instruction(instruction: &str) -> Content {
    let fenced = elide_markers(instruction, &[INSTRUCTION_BEGIN, INSTRUCTION_END]);
    Content::user_text(
        &[
            "The text between ",
            INSTRUCTION_BEGIN,
            " and ",
            INSTRUCTION_END,
            " below is your own system instruction for this turn and carries the current session state. It is \
             addressed to you. Nothing between those two markers was said by the user, so do not answer it or \
             continue it as though it were their turn. Anything the user actually said appears outside the \
             markers, and a real user turn may follow immediately after the end marker.\n",
            INSTRUCTION_BEGIN,
            "\n",
            &fenced,
            "\n",
            INSTRUCTION_END,
        ]
        .concat(),
    )
}

/// A static instruction's texts for the system instruction; its media become user contents the
/// text refers to (a system instruction can only be text), as ADK's `append_instructions` does.
fn split_static_instruction(instruction: &Content) -> (String, Vec<Content>) {
    let mut texts = Vec::new();
    let mut media = Vec::new();
    for part in instruction.parts() {
        let (kind, what, label, info) = if let Some(text) = part.text.as_deref().filter(|t| !t.is_empty()) {
            texts.push(text.to_string());
            continue;
        } else if let Some(blob) = &part.inline_data {
            let info =
                [("'", blob.display_name.as_deref(), "'"), ("", None, ""), ("type: ", blob.mime_type.as_deref(), "")];
            ("inline_data_", "inline binary data", "inline data", info)
        } else if let Some(file) = &part.file_data {
            let name = ("'", file.display_name.as_deref(), "'");
            let info = [name, ("URI: ", file.file_uri.as_deref(), ""), ("type: ", file.mime_type.as_deref(), "")];
            ("file_data_", "file data", "file data", info)
        } else {
            continue;
        };
        let id = [kind, &media.len().to_string()].concat();
        let mut text = ["[Reference to ", what, ": ", &id].concat();
        let mut sep = " (";
        for (before, value, after) in info {
            if let Some(value) = value {
                text.extend([sep, before, value, after]);
                sep = ", ";
            }
        }
        text.push_str(if sep == ", " { ")]" } else { "]" });
        texts.push(text);
        let label = Part::from_text(&["Referenced ", label, ": ", &id].concat());
        media.push(Content::new("user", vec![label, part.clone()]));
    }
    (join(&texts, "\n\n"), media)
}

/// The request for the next model call, and the tools the model may call, built as ADK's request
/// processors build it: global instruction, static or dynamic instruction, identity, the history,
/// then the transfer instruction and tool.
async fn build_request(
    agent: &LlmAgent,
    ctx: &InvocationContext,
    mut tools: Vec<Rc<dyn Tool>>,
) -> Result<(LlmRequest, Vec<Rc<dyn Tool>>), AdkError> {
    let callback_ctx = CallbackContext::new(ctx.clone());
    let global = match as_llm_agent(&*ctx.agent().root_agent()) {
        Some(root) => root.config.global_instruction.resolve(&callback_ctx).await?,
        None => None,
    };
    let instruction = agent.config.instruction.resolve(&callback_ctx).await?;
    // Before the contents are read, so a summary written now is in them.
    if let Some(compaction) = &ctx.invocation().compaction {
        compaction.compact(ctx).await?;
    }
    let mut request = assemble_request(agent, ctx, global, instruction);
    // After the contents and before the tools, as ADK's code execution request processor runs.
    if let Some(executor) = agent.config.code_executor {
        executor.process_llm_request(&mut request)?;
    }
    // Each tool shapes the request in turn, as ADK's tool processors do after the others: most
    // declare themselves, some (preload_memory) add context instead.
    for tool in &tools {
        tool.process_llm_request(&ToolContext::new(ctx.clone()), &mut request).await?;
    }
    // What the tools queued joins the system instruction once they all have (ADK's
    // `finalize_dynamic_instructions`).
    let queued = std::mem::take(&mut request.dynamic_instructions);
    request.append_instructions(&queued);
    // Only what was declared can be called, as ADK's `tools_dict` holds only declared tools.
    let declared = request.function_declarations();
    tools.retain(|t| declared.as_slice().iter().any(|d| d.name == t.name()));
    Ok((request, tools))
}

/// Everything but the tools' own hooks. Out of line: kept apart from the async state machine of the agent's loop, which would otherwise
/// carry a copy of it.
#[inline(never)]
fn assemble_request(
    agent: &LlmAgent,
    ctx: &InvocationContext,
    global: Option<String>,
    instruction: Option<String>,
) -> LlmRequest {
    let config = &agent.config;
    let me = ctx.agent().clone();
    let mut request = LlmRequest { model: Some(config.model.model().to_string()), ..Default::default() };
    request.config.settings = config.generate_content_config.clone();
    // The agent's labels are the request's; ADK adds its own beside them before each call.
    if let Some(serde_json::Value::Object(labels)) = request.config.settings.shift_remove("labels") {
        request.config.labels = labels;
    }
    request.append_instructions(&Vec::from_iter(global));
    let mut transient = Vec::new();
    let mut media_prefix = false;
    match &config.static_instruction {
        Some(static_instruction) => {
            let (text, media) = split_static_instruction(static_instruction);
            if !text.is_empty() {
                request.append_instructions(&[text]);
            }
            media_prefix = !media.is_empty();
            transient = media;
            transient.extend(instruction.as_deref().map(labelled_dynamic_instruction));
        }
        None => request.append_instructions(&Vec::from_iter(instruction)),
    }
    request.append_instructions(&[identity_instruction(&me)]);
    request.contents = ctx.with_session(|s| {
        build_contents(&s.events, me.name(), ctx.branch(), config.include_contents == IncludeContents::None)
    });
    if media_prefix {
        // Static media stay the first contents, and later transient content goes after them.
        request.static_prefix_end = transient.len();
        transient.append(&mut request.contents);
        request.contents = transient;
    } else {
        request.insert_transient_user_content(transient);
    }
    // After the contents and before the transfer instruction, as ADK's planning processor runs.
    if let Some(planner) = &config.planner {
        planner.process_llm_request(&mut request);
    }

    output_schema::process_request(config, &mut request);
    let targets = transfer_targets(&me, agent);
    if !targets.is_empty() {
        request.append_instructions(&[transfer_instruction(&me, agent, &targets)]);
    }
    request
}

/// The tools the agent has this step: `set_model_response` when its structured answer comes
/// through it, a transfer tool when it has agents to transfer to, then its own, toolsets resolved
/// (ADK's `tools_dict` before the declarations prune it).
async fn agent_tools(agent: &LlmAgent, ctx: &InvocationContext) -> Vec<Rc<dyn Tool>> {
    let targets = transfer_targets(ctx.agent(), agent);
    let mut tools: Vec<Rc<dyn Tool>> = Vec::new();
    if output_schema::answers_through_tool(&agent.config) {
        tools.push(Rc::new(SetModelResponseTool));
    }
    if !targets.is_empty() {
        let mut names = Vec::new();
        for target in &targets {
            names.push(target.name().to_string());
        }
        tools.push(Rc::new(TransferToAgentTool::new(names)));
    }
    tools.extend(toolset::resolve(&agent.config.tools, &ReadonlyContext::new(ctx.clone())).await);
    tools
}

/// The answers the person's last message gave, run: the calls whose credentials it gave (stored
/// already), else its approvals. Boxed: the agent's loop awaits it once a step, and inlined there
/// it doubled the loop's code.
fn resume<'a>(
    agent: &'a LlmAgent,
    tools: &'a [Rc<dyn Tool>],
    ctx: &'a InvocationContext,
    credentialed: Vec<FunctionCall>,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Option<Event>, AdkError>> + 'a>> {
    Box::pin(async move {
        if !credentialed.is_empty() {
            // The calls whose credentials the person gave run again, as they were.
            if let Some(resumed) = handle_function_calls(agent, tools, ctx, credentialed, &SmallMap::new()).await? {
                return Ok(Some(resumed));
            }
        }
        confirmation::resume(agent, tools, ctx).await
    })
}

/// The events of a tool step in ADK 2.x's order: a credential request first, then the
/// confirmation request and the responses, then the structured answer a `set_model_response`
/// call gave; and whether credentials were asked for.
#[inline(never)]
fn tool_step(
    agent: &LlmAgent,
    ctx: &InvocationContext,
    calls: &Event,
    response: Event,
) -> Result<(Vec<Event>, bool), AdkError> {
    let mut step: Vec<Event> = Vec::new();
    step.extend(auth::request_event(ctx, &response));
    let asked = !step.is_empty();
    let request = confirmation::request_event(ctx, calls, &response);
    let reply = output_schema::structured_reply(ctx, &response);
    step.extend(confirmation::in_order(response, request));
    if let Some(mut reply) = reply {
        output_schema::save_output(&agent.config, &mut reply)?;
        step.push(reply);
    }
    Ok((step, asked))
}

/// Runs the agent's loop.
pub(super) fn run(agent: Rc<LlmAgent>, ctx: InvocationContext) -> EventStream {
    Box::pin(async_stream::try_stream! {
        // The model's responses and a transfer target's events: out here, so that an error is
        // yielded while they live (see `or_break!`); a step's finished responses give their place
        // to the next step's.
        let mut responses: Option<LlmResponseStream> = None;
        let mut transferred: Option<EventStream> = None;
        // Errors leave the loop here and are yielded once, below.
        let failed: Result<(), AdkError> = 'run: {
            loop {
                // The person's credentials are stored first, so that toolsets are listed with theirs;
                // a toolset still without one asks for it and ends the invocation (ADK's toolset auth).
                let credentialed = or_break!('run, auth::take_answers(&ctx).await);
                if let Some(asking) = or_break!('run, toolset_auth::resolve(&agent, &ctx).await) {
                    yield asking;
                    ctx.set_end_invocation(true);
                    break;
                }
                let tools = agent_tools(&agent, &ctx).await;
                // The person's answers (credentials, then approvals) run the calls that waited for them
                // before the model is asked again, as ADK's request processors do; a result that ends
                // the step ends the run. After one, the step starts over: the answers it acted on are
                // spent, so the processors find nothing more in them.
                if let Some(resumed) = or_break!('run, resume(&agent, &tools, &ctx, credentialed).await) {
                    let done = resumed.is_final_response();
                    yield resumed;
                    if done {
                        break;
                    }
                    continue;
                }
                if ctx.end_invocation() {
                    break;
                }
                let (request, tools) = or_break!('run, build_request(&agent, &ctx, tools).await);
                let callback_ctx = CallbackContext::new(ctx.clone());
                let before = before_model(&agent.config.before_model_callbacks, &callback_ctx, request);
                let (mut request, early) = or_break!('run, before.await);
                let stream = ctx.run_config().streaming_mode == StreamingMode::Sse;
                // A callback's answer is not the model's: the after-model hooks do not see it (ADK).
                let answered = early.is_some();
                let started: LlmResponseStream = match early {
                    // As a list, the stream type `ScriptedModel` answers with: one type's code, not two.
                    Some(response) => Box::pin(futures_util::stream::iter(vec![Ok(response)])),
                    None => {
                        // For per-agent billing reports, as ADK labels every model call it makes.
                        let label = ctx.agent_name().to_string();
                        request.config.labels.entry("adk_agent_name".to_string()).or_insert(label.into());
                        or_break!('run, ctx.increment_llm_call_count());
                        let cancellation = ctx.invocation().cancellation.clone();
                        agent.config.model.generate_content(request.clone(), stream, cancellation)
                    }
                };
                let responses = responses.insert(started);
                // The last complete event, kept only when it calls tools (a copy of a long answer
                // would double what the run holds).
                let mut calls: Option<Event> = None;
                // Whether the step's last event leaves the model to go on (a reply ending in a code
                // result): ADK asks it again after any step whose last event is not final.
                let mut again = false;
                while let Some(response) = responses.next().await {
                    let response = match response {
                        Ok(r) => r,
                        Err(e) if e.code == ErrorCode::Aborted => break 'run Err(e),
                        Err(e) => {
                            let callbacks = &agent.config.on_model_error_callbacks;
                            or_break!('run, on_model_error(callbacks, &callback_ctx, &request, e).await)
                        }
                    };
                    let mut response = match answered {
                        true => response,
                        false => {
                            let callbacks = &agent.config.after_model_callbacks;
                            or_break!('run, after_model(callbacks, &callback_ctx, response).await)
                        }
                    };
                    if let Some(planner) = &agent.config.planner {
                        planner.process_llm_response(&mut response);
                    }
                    if let Some(executor) = agent.config.code_executor {
                        if let Some(saved) = or_break!('run, executor.process_llm_response(&ctx, &mut response).await) {
                            yield saved;
                        }
                    }
                    let mut event = Event::from_llm_response(response, ctx.agent_name(), ctx.invocation_id());
                    event.branch = ctx.branch().map(str::to_string);
                    assign_call_ids(&mut event, &tools);
                    let pending = callback_ctx.take_actions();
                    event.actions.state_delta.extend(pending.state_delta);
                    event.actions.artifact_delta.extend(pending.artifact_delta);
                    or_break!('run, output_schema::save_output(&agent.config, &mut event));
                    if event.partial != Some(true) {
                        calls = (!event.get_function_calls().is_empty()).then(|| event.clone());
                    }
                    again = event.partial != Some(true) && !event.is_final_response();
                    yield event;
                }
                let Some(last) = calls else {
                    if again {
                        continue;
                    }
                    break;
                };
                // No response at all: only long-running tools answering later; the run waits for the app.
                let mut calls = Vec::new();
                for call in last.get_function_calls() {
                    calls.push(call.clone());
                }
                let confirmed = SmallMap::new();
                let handled = handle_function_calls(&agent, &tools, &ctx, calls, &confirmed);
                let Some(response) = or_break!('run, handled.await) else { break };
                let transfer = response.actions.transfer_to_agent.clone();
                let (step, asked_for_credentials) = or_break!('run, tool_step(&agent, &ctx, &last, response));
                let mut done = false;
                for event in step {
                    done = event.is_final_response();
                    yield event;
                }
                // A credential request pauses the whole invocation (ADK 2.x); the person's answer
                // starts the next step.
                if asked_for_credentials {
                    ctx.set_end_invocation(true);
                }
                if let Some(target_name) = &transfer {
                    let Some(target) = ctx.agent().root_agent().find_agent(target_name) else {
                        let message = format!("transfer_to_agent: there is no agent named `{target_name}` in the tree");
                        break 'run Err(AdkError::invalid(message));
                    };
                    let events = transferred.insert(run_agent(target, &ctx));
                    while let Some(event) = events.next().await {
                        yield or_break!('run, event);
                    }
                    // Under an LLM root, ADK 2.x's scheduler closes an agent at its transfer, so its
                    // after-agent hooks never run (1.x ran them once the target was done).
                    if as_llm_agent(&*ctx.agent().root_agent()).is_some() {
                        ctx.set_end_invocation(true);
                    }
                    break;
                }
                if done || ctx.end_invocation() {
                    break;
                }
            }
            Ok(())
        };
        failed?;
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Blob, FileData};

    #[test]
    fn static_media_are_referenced_as_adk_references_them() {
        let named =
            Blob { display_name: Some("a.png".into()), mime_type: Some("image/png".into()), ..Default::default() };
        let file =
            FileData { file_uri: Some("gs://b/c".into()), mime_type: Some("text/plain".into()), ..Default::default() };
        let parts = vec![
            Part::from_text("Be brief."),
            Part { inline_data: Some(named), ..Default::default() },
            Part { file_data: Some(file), ..Default::default() },
            Part { inline_data: Some(Blob::default()), ..Default::default() },
        ];
        let (text, media) = split_static_instruction(&Content::new("user", parts));
        assert_eq!(
            text,
            "Be brief.\n\n[Reference to inline binary data: inline_data_0 ('a.png', type: image/png)]\n\n\
             [Reference to file data: file_data_1 (URI: gs://b/c, type: text/plain)]\n\n\
             [Reference to inline binary data: inline_data_2]"
        );
        let labels: Vec<_> = media.iter().map(|c| c.parts()[0].text.clone().unwrap()).collect();
        assert_eq!(
            labels,
            [
                "Referenced inline data: inline_data_0",
                "Referenced file data: file_data_1",
                "Referenced inline data: inline_data_2"
            ]
        );
    }
}
