//! Plugins beyond what the recorded flows show (tests/flows.rs compares their order and answers
//! with ADK's): duplicate names, a failing hook, the error hooks, the ready-made plugins, and an
//! agent tool's run going through its parent's plugins.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::rc::Rc;

use adk_wasm::agent::{Agent, AgentCore, CallbackContext, Instruction, LlmAgent, LlmAgentConfig, Plugin, ToolContext};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::{LlmRequest, ScriptedModel};
use adk_wasm::plugins::{GlobalInstructionPlugin, LoggingPlugin};
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::tool::{AgentTool, FunctionTool, Tool};
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{AdkError, ErrorCode, Event, LlmResponse};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

/// A plugin that answers or fails at the hooks it is told to, and notes the agents it saw start.
#[derive(Default)]
struct Probe {
    name: &'static str,
    fail_before_model: bool,
    recover_model: bool,
    recover_tool: bool,
    agents: RefCell<Vec<String>>,
}

#[async_trait::async_trait(?Send)]
impl Plugin for Probe {
    fn name(&self) -> &str {
        self.name
    }
    async fn before_agent(&self, ctx: &CallbackContext) -> Result<Option<Content>, AdkError> {
        self.agents.borrow_mut().push(ctx.agent_name().to_string());
        Ok(None)
    }
    async fn before_model(&self, _: &CallbackContext, _: &mut LlmRequest) -> Result<Option<LlmResponse>, AdkError> {
        match self.fail_before_model {
            true => Err(AdkError::new(ErrorCode::PermissionDenied, "not today")),
            false => Ok(None),
        }
    }
    async fn on_model_error(
        &self,
        _: &CallbackContext,
        _: &LlmRequest,
        error: &AdkError,
    ) -> Result<Option<LlmResponse>, AdkError> {
        let text = format!("recovered from {}", error.code.as_str());
        Ok(self.recover_model.then(|| LlmResponse::from_parts(vec![Part::from_text(&text)])))
    }
    async fn on_tool_error(
        &self,
        tool: &str,
        _: &JsonObject,
        _: &ToolContext,
        error: &AdkError,
    ) -> Result<Option<Value>, AdkError> {
        Ok(self.recover_tool.then(|| json!({"fallback": tool, "error": error.message})))
    }
}

fn scripted(turns: Vec<Vec<Part>>) -> Rc<ScriptedModel> {
    let turns = turns.into_iter().map(|parts| ScriptedTurn::Response(Box::new(LlmResponse::from_parts(parts))));
    Rc::new(ScriptedModel::new(turns.collect()))
}

fn agent(name: &str, model: Rc<ScriptedModel>, tools: Vec<Rc<dyn Tool>>) -> Rc<dyn Agent> {
    let mut config = LlmAgentConfig::new(model);
    config.tools = tools.into_iter().map(Into::into).collect();
    Rc::new(LlmAgent::new(AgentCore::new(name, "").unwrap(), config))
}

fn runner(root: Rc<dyn Agent>, plugins: Vec<Rc<dyn Plugin>>) -> Runner {
    let runner = Runner::in_memory("app", root).with_plugins(plugins).unwrap();
    block_on(runner.session_service().create_session("app", "u", None, Some("s"))).unwrap();
    runner
}

fn run(runner: &Runner, text: &str) -> Vec<Result<Event, AdkError>> {
    block_on(runner.run_async("u", "s", Content::user_text(text), None, RunConfig::default()).collect())
}

fn text(event: &Event) -> String {
    event.parts().iter().filter_map(|p| p.text.clone()).collect()
}

#[test]
fn two_plugins_of_one_name_are_refused_as_adk_refuses_them() {
    let probe = || -> Rc<dyn Plugin> { Rc::new(Probe { name: "p", ..Default::default() }) };
    let plugins = vec![probe(), probe()];
    let error = Runner::in_memory("app", agent("a", scripted(vec![]), vec![])).with_plugins(plugins).err().unwrap();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert_eq!(error.message, "Plugin with name 'p' already registered.");
}

#[test]
fn a_failing_hook_ends_the_run_named_as_adk_names_it_and_the_session_carries_on() {
    let failing = Rc::new(Probe { name: "strict", fail_before_model: true, ..Default::default() });
    let runner = runner(agent("a", scripted(vec![vec![Part::from_text("never")]]), vec![]), vec![failing]);
    let outcome = run(&runner, "Hi");
    let error = outcome.last().unwrap().as_ref().err().unwrap();
    assert_eq!(error.code, ErrorCode::PermissionDenied);
    assert_eq!(error.message, "Error in plugin 'strict' during 'before_model_callback' callback: not today");
    // The user's event is stored, nothing after it; the session is free for the next run.
    let session = block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap();
    assert_eq!(session.events.len(), 1);
    assert_eq!(run(&runner, "Again").last().unwrap().as_ref().err().unwrap().code, ErrorCode::PermissionDenied);
}

#[test]
fn on_model_error_turns_a_failed_call_into_the_response() {
    // An empty script fails the call.
    let recovering = Rc::new(Probe { name: "rescue", recover_model: true, ..Default::default() });
    let events = run(&runner(agent("a", scripted(vec![]), vec![]), vec![recovering]), "Hi");
    let events: Vec<Event> = events.into_iter().map(Result::unwrap).collect();
    assert_eq!(events.len(), 1);
    assert!(text(&events[0]).starts_with("recovered from "), "{}", text(&events[0]));
    assert!(!events[0].has_error());
}

#[test]
fn on_tool_error_turns_a_failed_tool_into_its_result() {
    let failing: Rc<dyn Tool> = Rc::new(FunctionTool::new(
        "flaky",
        "Fails.",
        None,
        Rc::new(|_, _| Box::pin(async { Err(AdkError::new(ErrorCode::Unavailable, "down")) })),
    ));
    let model = scripted(vec![vec![Part::from_function_call("flaky", JsonObject::new())], vec![Part::from_text("ok")]]);
    let recovering = Rc::new(Probe { name: "rescue", recover_tool: true, ..Default::default() });
    let events = run(&runner(agent("a", model, vec![failing]), vec![recovering]), "Hi");
    let events: Vec<Event> = events.into_iter().map(Result::unwrap).collect();
    let response = events[1].parts()[0].function_response.clone().unwrap().response.unwrap();
    assert_eq!(Value::Object(response), json!({"fallback": "flaky", "error": "down"}));
    assert_eq!(text(&events[2]), "ok");
}

#[test]
fn an_agent_tool_runs_through_its_parents_plugins() {
    let inner = agent("helper", scripted(vec![vec![Part::from_text("Helped.")]]), vec![]);
    let tool: Rc<dyn Tool> = Rc::new(AgentTool::new(inner));
    let call = Part::from_function_call("helper", json!({"request": "help"}).as_object().unwrap().clone());
    let outer = agent("main", scripted(vec![vec![call], vec![Part::from_text("Done.")]]), vec![tool]);
    let probe = Rc::new(Probe { name: "watch", ..Default::default() });
    for event in run(&runner(outer, vec![probe.clone()]), "Hi") {
        event.unwrap();
    }
    assert_eq!(*probe.agents.borrow(), ["main", "helper"]);
}

#[test]
fn the_global_instruction_plugin_leads_the_system_instruction_and_an_empty_one_adds_nothing() {
    let provided: Instruction = Instruction::Provider(Rc::new(|ctx| {
        let text = format!("Serve {}.", ctx.user_id());
        Box::pin(async move { Ok(text) })
    }));
    for (instruction, lead) in [(provided, "Serve u.\n\n"), (Instruction::Text(String::new()), "")] {
        let model = scripted(vec![vec![Part::from_text("Hi.")]]);
        let plugin = Rc::new(GlobalInstructionPlugin::new(instruction).named("house_rules"));
        for event in run(&runner(agent("a", model.clone(), vec![]), vec![plugin]), "Hi") {
            event.unwrap();
        }
        let system = model.requests()[0].config.system_instruction.clone().unwrap();
        assert_eq!(system, format!("{lead}You are an agent. Your internal name is \"a\"."));
    }
}

#[test]
fn the_logging_plugin_writes_a_line_for_each_hook_in_order() {
    let lines = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = lines.clone();
    let logging = Rc::new(LoggingPlugin::new(Rc::new(move |line: &str| sink.borrow_mut().push(line.to_string()))));
    for event in run(&runner(agent("a", scripted(vec![vec![Part::from_text("Hi.")]]), vec![]), vec![logging]), "Yo") {
        event.unwrap();
    }
    let headings: Vec<String> =
        lines.borrow().iter().map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" ")).collect();
    let want = [
        "[logging_plugin] 🚀 USER",
        "[logging_plugin] 🏃 INVOCATION",
        "[logging_plugin] 🤖 AGENT",
        "[logging_plugin] 🧠 LLM",
        "[logging_plugin] 🧠 LLM",
        "[logging_plugin] 📢 EVENT",
        "[logging_plugin] 🤖 AGENT",
        "[logging_plugin] ✅ INVOCATION",
    ];
    assert_eq!(headings, want);
    assert!(lines.borrow()[4].ends_with("for a: text: 'Hi.'"), "{}", lines.borrow()[4]);
}
