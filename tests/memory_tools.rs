//! ADK's memory tools on the scripted model: what `preload_memory` and `load_memory` put in the
//! request, checked against what ADK 2.13 sent for the same flow (the texts are ADK's).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use adk_wasm::agent::{AgentCore, Instruction, LlmAgent, LlmAgentConfig};
use adk_wasm::memory::{InMemoryMemoryService, MemoryEntry, MemoryService};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::session::Session;
use adk_wasm::tool::{LoadMemoryTool, PreloadMemoryTool, Tool};
use adk_wasm::types::{Content, Part};
use adk_wasm::{AdkError, ErrorCode, Event, LlmResponse};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

const APP: &str = "flows";
const USER: &str = "user";

fn turn(part: Part) -> ScriptedTurn {
    ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![part])))
}

fn remembered() -> Rc<InMemoryMemoryService> {
    let memory = Rc::new(InMemoryMemoryService::default());
    let mut said = Event::new("user");
    said.content = Some(Content::user_text("my cat is named Tom"));
    let mut answered = Event::new("mem");
    answered.content = Some(Content::new("model", vec![Part::from_text("Nice cat!")]));
    let old = Session {
        id: "old".into(),
        app_name: APP.into(),
        user_id: USER.into(),
        state: Default::default(),
        events: vec![said, answered].into(),
        last_update_time: 0.0,
    };
    block_on(memory.add_session_to_memory(&old)).unwrap();
    memory
}

/// Runs one turn of an agent with `tools`; the requests its model got and the events.
fn run(
    tools: Vec<Rc<dyn Tool>>,
    script: Vec<ScriptedTurn>,
    memory: Rc<InMemoryMemoryService>,
) -> (Rc<ScriptedModel>, Vec<Result<Event, AdkError>>) {
    let model = Rc::new(ScriptedModel::new(script));
    let mut config = LlmAgentConfig::new(model.clone());
    config.instruction = Instruction::Text("Be helpful.".into());
    config.tools = tools.into_iter().map(Into::into).collect();
    let agent = Rc::new(LlmAgent::new(AgentCore::new("mem", "").unwrap(), config));
    let runner = Runner::in_memory(APP, agent).with_memory_service(memory);
    block_on(runner.session_service().create_session(APP, USER, None, Some("s"))).unwrap();
    let message = Content::user_text("what is my cat called");
    let events = block_on(runner.run_async(USER, "s", message, None, RunConfig::default()).collect::<Vec<_>>());
    (model, events)
}

fn memories(memory: &InMemoryMemoryService) -> Vec<MemoryEntry> {
    block_on(memory.search_memory(APP, USER, "what is my cat called")).unwrap().memories
}

fn past_conversations(memories: &[MemoryEntry]) -> String {
    let lines: Vec<String> = memories
        .iter()
        .map(|m| {
            let text = m.content.parts()[0].text.clone().unwrap();
            format!("Time: {}\n{}: {text}", m.timestamp.clone().unwrap(), m.author.clone().unwrap())
        })
        .collect();
    format!(
        "The following content is from your previous conversations with the user.\nThey may be useful for \
         answering the user's current query.\n<PAST_CONVERSATIONS>\n{}\n</PAST_CONVERSATIONS>\n",
        lines.join("\n")
    )
}

#[test]
fn preload_memory_puts_past_conversations_before_the_user_message_and_is_not_declared() {
    let memory = remembered();
    let (model, _) = run(vec![Rc::new(PreloadMemoryTool)], vec![turn(Part::from_text("Tom."))], memory.clone());
    let request = &model.requests()[0];
    let expected = past_conversations(&memories(&memory));
    assert_eq!(
        serde_json::to_value(&request.contents).unwrap(),
        json!([{"parts": [{"text": expected}], "role": "user"},
               {"parts": [{"text": "what is my cat called"}], "role": "user"}])
    );
    assert!(request.config.tools.is_empty());
    assert_eq!(
        request.config.system_instruction.as_deref(),
        Some("Be helpful.\n\nYou are an agent. Your internal name is \"mem\".")
    );
}

#[test]
fn load_memory_is_declared_as_adk_declares_it_and_answers_with_the_memories() {
    let memory = remembered();
    let call = Part::from_function_call("load_memory", json!({"query": "cat"}).as_object().cloned().unwrap());
    let tools: Vec<Rc<dyn Tool>> = vec![Rc::new(PreloadMemoryTool), Rc::new(LoadMemoryTool)];
    let (model, events) = run(tools, vec![turn(call), turn(Part::from_text("Your cat is Tom."))], memory.clone());
    let requests = model.requests();
    let first = serde_json::to_value(&requests[0].config).unwrap();
    assert_eq!(
        first["systemInstruction"],
        "Be helpful.\n\nYou are an agent. Your internal name is \"mem\".\n\n\nYou have memory. You can use it to answer \
         questions. If any questions need\nyou to look up the memory, you should call load_memory function with a query.\n"
    );
    assert_eq!(
        first["tools"],
        json!([{"functionDeclarations": [{
            "description": "Loads the memory for the current user.\n\nArgs:\n  query: The query to load the memory for.\n\nReturns:\n  A list of memory results.",
            "name": "load_memory",
            "parametersJsonSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}]}])
    );
    // ADK's response: its pydantic model wrapped as `result`, entries with snake_case keys.
    let found = block_on(memory.search_memory(APP, USER, "cat")).unwrap().memories;
    let entries: Vec<Value> = found
        .iter()
        .map(|m| {
            json!({"content": serde_json::to_value(&m.content).unwrap(), "custom_metadata": {}, "id": m.id, "author": m.author,
                   "timestamp": m.timestamp})
        })
        .collect();
    let response = events[1].as_ref().unwrap().parts()[0].function_response.clone().unwrap();
    assert_eq!(Value::Object(response.response.unwrap()), json!({"result": {"memories": entries}}));
    // The second call: the memories preloaded after the function response the model continues from.
    let second = serde_json::to_value(&requests[1].contents).unwrap();
    assert_eq!(second.as_array().unwrap().len(), 4);
    assert_eq!(second[3]["parts"][0]["text"], past_conversations(&memories(&memory)));
    assert!(second[2]["parts"][0]["functionResponse"].is_object());
}

#[test]
fn preload_memory_adds_nothing_when_no_memory_matches() {
    let empty = Rc::new(InMemoryMemoryService::default());
    let (model, _) = run(vec![Rc::new(PreloadMemoryTool)], vec![turn(Part::from_text("?"))], empty);
    assert_eq!(model.requests()[0].contents.len(), 1);
}

#[test]
fn load_memory_without_a_query_is_invalid_argument() {
    let memory = remembered();
    let call = Part::from_function_call("load_memory", serde_json::Map::new());
    let (_, events) = run(vec![Rc::new(LoadMemoryTool)], vec![turn(call), turn(Part::from_text("ok"))], memory);
    let error = events.into_iter().find_map(Result::err).unwrap();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
}
