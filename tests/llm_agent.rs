//! LlmAgent on the scripted model: ADK's instructions_utils, llm_agent_callbacks, output_save,
//! functions_long_running, include_contents and transfer cases, translated.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use adk_wasm::agent::llm::{inject_session_state, AfterModelCallback, BeforeModelCallback, BeforeToolCallback};
use adk_wasm::agent::BuiltInCodeExecutor;
use adk_wasm::agent::{
    with_sub_agents, Agent, AgentCore, CallbackContext, IncludeContents, Instruction, LlmAgent, LlmAgentConfig,
    LoopAgent,
};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner, StreamingMode};
use adk_wasm::tool::{ExitLoopTool, FunctionTool, Tool, GOOGLE_SEARCH};
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{ErrorCode, Event, LlmResponse};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

fn text(t: &str) -> ScriptedTurn {
    ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![Part::from_text(t)])))
}

fn call(name: &str, args: Value) -> ScriptedTurn {
    let part = Part::from_function_call(name, args.as_object().cloned().unwrap());
    ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![part])))
}

fn obj(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap()
}

fn model(turns: Vec<ScriptedTurn>) -> Rc<ScriptedModel> {
    Rc::new(ScriptedModel::new(turns))
}

fn llm(name: &str, m: &Rc<ScriptedModel>, f: impl FnOnce(&mut LlmAgentConfig)) -> Rc<dyn Agent> {
    let mut config = LlmAgentConfig::new(m.clone());
    f(&mut config);
    Rc::new(LlmAgent::new(AgentCore::new(name, &format!("{name} agent")).unwrap(), config))
}

fn tool(name: &str, f: impl Fn(JsonObject) -> Value + 'static) -> Rc<dyn Tool> {
    let f = Rc::new(f);
    Rc::new(FunctionTool::new(
        name,
        "a test tool",
        None,
        Rc::new(move |args, _ctx| {
            let out = f(args);
            Box::pin(async move { Ok(out) })
        }),
    ))
}

fn setup(agent: Rc<dyn Agent>) -> Runner {
    let runner = Runner::in_memory("app", agent);
    block_on(runner.session_service().create_session(
        "app",
        "u",
        Some(obj(json!({"name": "Minsu", "user:lang": "ko"}))),
        Some("s"),
    ))
    .unwrap();
    runner
}

fn run_with(runner: &Runner, message: &str, config: RunConfig) -> Vec<Event> {
    block_on(runner.run_async("u", "s", Content::user_text(message), None, config).map(|e| e.unwrap()).collect())
}

fn run(runner: &Runner, message: &str) -> Vec<Event> {
    run_with(runner, message, RunConfig::default())
}

fn system_text(m: &ScriptedModel, call: usize) -> String {
    let request = &m.requests()[call];
    request.config.system_instruction.clone().unwrap_or_default()
}

#[test]
fn tool_loop_calls_the_tool_and_asks_the_model_again() {
    let m = model(vec![call("add", json!({"a": 2, "b": 3})), text("2 + 3 = 5")]);
    let adder = tool("add", |args| json!(args["a"].as_i64().unwrap() + args["b"].as_i64().unwrap()));
    let runner = setup(llm("calc", &m, |c| c.tools.push(adder.into())));
    let events = run(&runner, "what is 2+3?");
    assert_eq!(events.len(), 3);
    let call_id = events[0].get_function_calls()[0].id.clone().unwrap();
    assert!(call_id.starts_with("adk-"));
    let response = &events[1];
    assert_eq!((response.author.as_str(), response.content.as_ref().unwrap().role.as_deref()), ("calc", Some("user")));
    let fr = response.get_function_responses()[0];
    assert_eq!(fr.id.as_deref(), Some(call_id.as_str()));
    assert_eq!(fr.response.as_ref().unwrap(), &obj(json!({"result": 5})), "non-object results are wrapped");
    assert!(events[2].is_final_response());
    // The second request carries the call and its response, without the client id.
    let contents = &m.requests()[1].contents;
    assert_eq!(contents.len(), 3);
    assert!(contents[1].parts()[0].function_call.as_ref().unwrap().id.is_none());
    assert_eq!(m.requests()[0].config.tools[0].function_declarations[0].name, "add");
}

#[test]
fn instructions_are_templated_from_state() {
    let m = model(vec![text("ok")]);
    let runner = setup(llm("a", &m, |c| {
        c.instruction =
            Instruction::Text("Hi {name}, lang={user:lang}, opt=[{missing?}], {not a key}, {{name}}".into());
    }));
    run(&runner, "x");
    let identity = "You are an agent. Your internal name is \"a\". The description about you is \"a agent\".";
    assert_eq!(system_text(&m, 0), format!("Hi Minsu, lang=ko, opt=[], {{not a key}}, Minsu\n\n{identity}"));
}

#[test]
fn a_missing_required_key_is_a_clear_error() {
    let m = model(vec![text("never")]);
    let runner = setup(llm("a", &m, |c| c.instruction = Instruction::Text("Hello {nobody}".into())));
    let results: Vec<_> =
        block_on(runner.run_async("u", "s", Content::user_text("x"), None, RunConfig::default()).collect());
    let err = results.into_iter().find_map(Result::err).unwrap();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(err.message.contains("nobody"), "{}", err.message);
}

#[test]
fn inject_session_state_reads_artifacts() {
    let m = model(vec![text("ok")]);
    let runner =
        setup(llm("a", &m, |c| c.instruction = Instruction::Text("Doc: {artifact.doc.txt} / {artifact.none?}".into())));
    let artifacts = runner.artifact_service().unwrap().clone();
    let key =
        adk_wasm::artifact::ArtifactKey { app_name: "app", user_id: "u", session_id: Some("s"), filename: "doc.txt" };
    block_on(artifacts.save_artifact(key, Part::from_text("the contents"), None)).unwrap();
    run(&runner, "x");
    assert!(system_text(&m, 0).starts_with("Doc: the contents / \n\nYou are an agent."), "{}", system_text(&m, 0));
    let _ = inject_session_state; // exported for instruction providers
}

#[test]
fn output_key_saves_the_final_text() {
    let m = model(vec![text("Seoul is sunny.")]);
    let runner = setup(llm("a", &m, |c| c.output_key = Some("summary".into())));
    let events = run(&runner, "weather?");
    assert_eq!(events[0].actions.state_delta["summary"], "Seoul is sunny.");
    let session = block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap();
    assert_eq!(session.state["summary"], "Seoul is sunny.");
}

#[test]
fn before_model_callback_can_answer_instead_of_the_model() {
    let m = model(vec![]);
    let cb: BeforeModelCallback = Rc::new(|_ctx: CallbackContext, req| {
        Box::pin(async move { Ok((req, Some(LlmResponse::from_parts(vec![Part::from_text("from callback")])))) })
    });
    let runner = setup(llm("a", &m, |c| c.before_model_callbacks.push(cb)));
    let events = run(&runner, "x");
    assert_eq!(events[0].parts()[0].text.as_deref(), Some("from callback"));
    assert!(m.requests().is_empty(), "the model was not called");
}

#[test]
fn before_model_callback_can_change_the_request_and_after_model_the_response() {
    let m = model(vec![text("model says hi")]);
    let before: BeforeModelCallback = Rc::new(|ctx: CallbackContext, mut req| {
        ctx.state().set("seen_request", json!(true));
        req.config.settings.insert("temperature".into(), json!(0.2));
        Box::pin(async move { Ok((req, None)) })
    });
    let after: AfterModelCallback = Rc::new(|_ctx, mut resp: LlmResponse| {
        resp.content = Some(Content::model_text("rewritten"));
        Box::pin(async move { Ok(Some(resp)) })
    });
    let runner = setup(llm("a", &m, |c| {
        c.before_model_callbacks.push(before);
        c.after_model_callbacks.push(after);
    }));
    let events = run(&runner, "x");
    assert_eq!(m.requests()[0].config.settings["temperature"], 0.2);
    assert_eq!(events[0].parts()[0].text.as_deref(), Some("rewritten"));
    assert_eq!(events[0].actions.state_delta["seen_request"], true, "callback state lands in the response event");
}

#[test]
fn before_tool_callback_can_replace_the_result() {
    let m = model(vec![call("secret", json!({})), text("done")]);
    let ran = Rc::new(RefCell::new(false));
    let ran2 = ran.clone();
    let real = tool("secret", move |_| {
        *ran2.borrow_mut() = true;
        json!("real")
    });
    let cb: BeforeToolCallback =
        Rc::new(|name, args, _ctx| Box::pin(async move { Ok((args, Some(json!({"blocked": name})))) }));
    let runner = setup(llm("a", &m, |c| {
        c.tools.push(real.into());
        c.before_tool_callbacks.push(cb);
    }));
    let events = run(&runner, "x");
    assert!(!*ran.borrow());
    assert_eq!(events[1].get_function_responses()[0].response.as_ref().unwrap()["blocked"], "secret");
}

#[test]
fn long_running_tool_without_a_result_ends_the_run_and_the_answer_resumes_it() {
    let m = model(vec![call("approve", json!({"amount": 10})), text("approved, thanks")]);
    let approve: Rc<dyn Tool> = Rc::new(
        FunctionTool::new("approve", "asks a human", None, Rc::new(|_a, _c| Box::pin(async { Ok(Value::Null) })))
            .long_running(true),
    );
    let runner = setup(llm("a", &m, |c| c.tools.push(approve.into())));
    let events = run(&runner, "pay 10");
    assert_eq!(events.len(), 1);
    let call = events[0].get_function_calls()[0].clone();
    assert!(events[0].long_running_tool_ids.as_ref().unwrap().contains(call.id.as_ref().unwrap()));
    assert!(events[0].is_final_response());
    // The app answers later; the runner routes it to the agent that made the call.
    let answer = Content::new(
        "user",
        vec![Part {
            function_response: Some(adk_wasm::types::FunctionResponse {
                id: call.id.clone(),
                name: Some("approve".into()),
                response: Some(obj(json!({"status": "approved"}))),
                ..Default::default()
            }),
            ..Default::default()
        }],
    );
    let events: Vec<Event> =
        block_on(runner.run_async("u", "s", answer, None, RunConfig::default()).map(|e| e.unwrap()).collect());
    assert_eq!(events.last().unwrap().parts()[0].text.as_deref(), Some("approved, thanks"));
}

#[test]
fn long_running_tool_with_a_pending_result_lets_the_model_go_on() {
    let m = model(vec![call("start_job", json!({})), text("job started")]);
    let start: Rc<dyn Tool> = Rc::new(
        FunctionTool::new(
            "start_job",
            "",
            None,
            Rc::new(|_a, _c| Box::pin(async { Ok(json!({"status": "pending"})) })),
        )
        .long_running(true),
    );
    let runner = setup(llm("a", &m, |c| c.tools.push(start.into())));
    let events = run(&runner, "go");
    assert_eq!(events.len(), 3);
    assert_eq!(m.requests().len(), 2);
}

#[test]
fn include_contents_none_sends_only_the_current_turn() {
    let m = model(vec![text("first answer"), text("second answer")]);
    let runner = setup(llm("a", &m, |c| c.include_contents = IncludeContents::None));
    run(&runner, "first");
    run(&runner, "second");
    let contents = &m.requests()[1].contents;
    assert_eq!(contents.len(), 1);
    assert_eq!(contents[0].parts()[0].text.as_deref(), Some("second"));
}

#[test]
fn streaming_yields_chunks_then_exactly_one_final_event() {
    let chunks = || {
        ScriptedTurn::Chunks(
            ["Seo", "ul is ", "sunny."].iter().map(|t| LlmResponse::from_parts(vec![Part::from_text(t)])).collect(),
        )
    };
    let m = model(vec![chunks(), chunks()]);
    let runner = setup(llm("a", &m, |_| {}));
    let sse = RunConfig { streaming_mode: StreamingMode::Sse, ..Default::default() };
    let events = run_with(&runner, "weather", sse);
    let partial: Vec<bool> = events.iter().map(|e| e.partial == Some(true)).collect();
    assert_eq!(partial, [true, true, true, false]);
    assert_eq!(events[3].parts().len(), 1);
    assert_eq!(events[3].parts()[0].text.as_deref(), Some("Seoul is sunny."));
    let session = block_on(runner.session_service().get_session("app", "u", "s", None)).unwrap().unwrap();
    assert_eq!(session.events.len(), 2, "partials are not stored");
    let whole = run(&runner, "again");
    assert_eq!(whole.len(), 1, "without streaming only the whole response comes");
}

#[test]
fn max_llm_calls_is_enforced() {
    let m = model((0..5).map(|_| call("noop", json!({}))).collect());
    let runner = setup(llm("a", &m, |c| c.tools.push(tool("noop", |_| json!("ok")).into())));
    let config = RunConfig { max_llm_calls: 2, ..Default::default() };
    let results: Vec<_> = block_on(runner.run_async("u", "s", Content::user_text("x"), None, config).collect());
    let err = results.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert!(err.message.contains("limit of `2`"), "{}", err.message);
    assert_eq!(m.requests().len(), 2);
}

#[test]
fn coordinator_transfers_to_a_specialist_whose_tool_writes_state_and_keeps_the_conversation() {
    let coordinator_model = model(vec![call("transfer_to_agent", json!({"agent_name": "weather"}))]);
    let weather_model = model(vec![call("lookup", json!({"city": "Seoul"})), text("Seoul: 21°C"), text("Busan: 19°C")]);
    let lookup: Rc<dyn Tool> = Rc::new(FunctionTool::new(
        "lookup",
        "weather lookup",
        None,
        Rc::new(|args, ctx| {
            ctx.state().set("user:last_city", args["city"].clone());
            Box::pin(async { Ok(json!({"temp_c": 21})) })
        }),
    ));
    let specialist = llm("weather", &weather_model, |c| c.tools.push(lookup.into()));
    let root = with_sub_agents(llm("coordinator", &coordinator_model, |_| {}), vec![specialist]).unwrap();
    let runner = setup(root);
    let events = run(&runner, "weather in Seoul?");
    let authors: Vec<&str> = events.iter().map(|e| e.author.as_str()).collect();
    assert_eq!(authors, ["coordinator", "coordinator", "weather", "weather", "weather"]);
    assert_eq!(events[1].actions.transfer_to_agent.as_deref(), Some("weather"));
    assert_eq!(events[3].actions.state_delta["user:last_city"], "Seoul");
    assert!(coordinator_model.requests()[0]
        .config
        .system_instruction
        .as_ref()
        .unwrap()
        .contains("Agent name: weather"));
    // The specialist saw the coordinator's turn retold as context.
    let seen = &weather_model.requests()[0].contents;
    assert!(seen
        .iter()
        .any(|c| c.parts().iter().any(|p| p.text.as_deref().is_some_and(|t| t.starts_with("For context:")))));
    // The next message goes to the specialist directly.
    let next = run(&runner, "and Busan?");
    assert_eq!(next.iter().map(|e| e.author.as_str()).collect::<Vec<_>>(), ["weather"]);
    assert_eq!(coordinator_model.requests().len(), 1);
}

#[test]
fn loop_agent_stops_on_exit_loop() {
    let writer_model = model(vec![text("draft 1"), text("draft 2")]);
    let critic_model = model(vec![text("needs work"), call("exit_loop", json!({}))]);
    let writer = llm("writer", &writer_model, |_| {});
    let critic = llm("critic", &critic_model, |c| c.tools.push(Rc::new(ExitLoopTool).into()));
    let lp =
        with_sub_agents(Rc::new(LoopAgent::new(AgentCore::new("refine", "").unwrap(), Some(10))), vec![writer, critic])
            .unwrap();
    let runner = setup(lp);
    let events = run(&runner, "write");
    let last = events.last().unwrap();
    assert_eq!(last.actions.escalate, Some(true));
    assert_eq!(last.actions.skip_summarization, Some(true));
    assert_eq!((writer_model.remaining(), critic_model.remaining()), (0, 0));
    assert_eq!(events.len(), 5);
}

#[test]
fn model_errors_and_failed_calls_become_error_events() {
    let m = model(vec![ScriptedTurn::Response(Box::new(LlmResponse::from_error("SAFETY", "blocked")))]);
    let runner = setup(llm("a", &m, |_| {}));
    let events = run(&runner, "x");
    assert!(events[0].has_error() && events[0].is_final_response());
    let events = run(&runner, "x");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].error_code.as_deref(), Some("FAILED_PRECONDITION"));
    assert!(events[0].error_message.as_deref().is_some_and(|m| m.contains("no scripted response")));
    // The error event is stored like any other: the session keeps the whole conversation.
    assert_eq!(run(&runner, "y").len(), 1);
}

#[test]
fn agent_tool_runs_the_agent_in_its_own_session_and_returns_its_text() {
    // ADK's test_agent_tool: the wrapped agent sees the caller's state, its state writes flow back,
    // and the caller's model gets its last text as `{result: …}`.
    let inner_model = model(vec![call("save", json!({"v": "ok"})), text("translated: 안녕")]);
    let save = Rc::new(FunctionTool::new(
        "save",
        "saves",
        None,
        Rc::new(|args, ctx: CallbackContext| {
            let seen = ctx.state().get("name");
            ctx.state().set("inner_saw", seen.unwrap_or(Value::Null));
            ctx.state().set("saved", args["v"].clone());
            Box::pin(async { Ok(json!("done")) })
        }),
    )) as Rc<dyn Tool>;
    let inner = llm("translator", &inner_model, |c| c.tools = vec![save.into()]);
    let outer_model = model(vec![call("translator", json!({"request": "hello"})), text("It says 안녕.")]);
    let agent_tool = Rc::new(adk_wasm::tool::AgentTool::new(inner)) as Rc<dyn Tool>;
    let outer = llm("root", &outer_model, |c| c.tools = vec![agent_tool.clone().into()]);
    let runner = setup(outer);
    let events = run(&runner, "translate hello");

    let declaration = agent_tool.declaration();
    assert_eq!((declaration.name.as_str(), declaration.description.as_str()), ("translator", "translator agent"));
    assert_eq!(inner_model.requests()[0].contents[0].parts()[0].text.as_deref(), Some("hello"));
    let response = events[1].get_function_responses()[0].clone();
    assert_eq!(response.response, Some(obj(json!({"result": "translated: 안녕"}))));
    assert_eq!(events[1].actions.state_delta.get("saved"), Some(&json!("ok")));
    assert_eq!(events[1].actions.state_delta.get("inner_saw"), Some(&json!("Minsu")));
    assert_eq!(events.last().unwrap().content.as_ref().unwrap().parts()[0].text.as_deref(), Some("It says 안녕."));

    let bad_model = model(vec![call("translator", json!({"text": "hello"}))]);
    let runner = setup(llm("root", &bad_model, |c| c.tools = vec![agent_tool.into()]));
    let results: Vec<_> =
        block_on(runner.run_async("u", "s", Content::user_text("x"), None, RunConfig::default()).collect());
    let error = results.into_iter().find_map(Result::err).unwrap();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.contains("`request`"));
}

#[test]
fn an_agents_labels_go_with_adks_and_tools_instructions_or_schemas_in_the_settings_are_refused() {
    let m = model(vec![text("ok")]);
    let settings = json!({"labels": {"team": "web"}, "temperature": 0.2}).as_object().cloned().unwrap();
    let runner = setup(llm("a", &m, |c| c.generate_content_config = settings));
    run(&runner, "x");
    let request = &m.requests()[0];
    assert_eq!(Value::Object(request.config.labels.clone()), json!({"team": "web", "adk_agent_name": "a"}));
    let wire: Value = serde_json::from_str(&adk_core::json::to_string(request)).unwrap();
    assert_eq!(wire["config"]["labels"], json!({"team": "web", "adk_agent_name": "a"}));
    assert_eq!(wire["config"]["temperature"], json!(0.2));
    for key in ["tools", "systemInstruction", "responseSchema"] {
        let bad = json!({ key: [] }).as_object().cloned().unwrap();
        let err = adk_wasm::agent::llm::validate_generate_content_config(&bad).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{key}");
    }
}

/// ADK refuses Gemini's own tools for any other model (a `ValueError` while the request is built):
/// the run fails with `INVALID_ARGUMENT` naming the model, before the model is called.
#[test]
fn a_built_in_tool_is_refused_for_a_model_that_is_not_gemini() {
    let m = Rc::new(ScriptedModel::new(vec![]).named("gpt-4o"));
    let runner = setup(llm("searcher", &m, |c| c.tools.push(Rc::new(GOOGLE_SEARCH).into())));
    let events = runner.run_async("u", "s", Content::user_text("news?"), None, RunConfig::default());
    let results: Vec<_> = block_on(events.collect::<Vec<_>>());
    let error = results.into_iter().find_map(Result::err).expect("the run fails");
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert_eq!(error.message, "Google search tool is not supported for model gpt-4o");
    assert!(m.requests().is_empty());
}

/// Two tools of one name (a function tool and an MCP tool, say): both are declared, and the call
/// lands on the later one, as ADK's `tools_dict` keeps the last tool registered under a name.
#[test]
fn of_two_tools_with_one_name_the_later_one_runs() {
    let m = Rc::new(ScriptedModel::new(vec![
        ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![Part::from_function_call(
            "lookup",
            JsonObject::new(),
        )]))),
        ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![Part::from_text("done")]))),
    ]));
    let first = tool("lookup", |_| json!("first"));
    let second = tool("lookup", |_| json!("second"));
    let runner = setup(llm("a", &m, |c| c.tools = vec![first.into(), second.into()]));
    let events = run(&runner, "look it up");
    let declared: Vec<String> = m.requests()[0].function_declarations().map(|d| d.name.clone()).collect();
    assert_eq!(declared, ["lookup", "lookup"]);
    let response = events.iter().flat_map(|e| e.get_function_responses()).next().unwrap();
    assert_eq!(response.response.as_ref().unwrap()["result"], "second");
}

/// ADK's `BuiltInCodeExecutor` refuses any model but Gemini, in its words, before the model is called.
#[test]
fn the_built_in_code_executor_is_refused_for_a_model_that_is_not_gemini() {
    let m = Rc::new(ScriptedModel::new(vec![]).named("gpt-4o"));
    let runner = setup(llm("coder", &m, |c| c.code_executor = Some(BuiltInCodeExecutor)));
    let events = runner.run_async("u", "s", Content::user_text("2 + 2?"), None, RunConfig::default());
    let results: Vec<_> = block_on(events.collect::<Vec<_>>());
    let error = results.into_iter().find_map(Result::err).expect("the run fails");
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert_eq!(error.message, "Gemini code execution tool is not supported for model gpt-4o");
    assert!(m.requests().is_empty());
}

/// An image the model's code drew without a name is saved under the time ADK names it by
/// (`%Y%m%d_%H%M%S.<subtype>`, UTC here); other inline data stays in the reply.
#[test]
fn an_unnamed_image_is_saved_under_a_timestamp_and_other_data_stays() {
    let image = Part::from_inline_data(vec![0x89, b'P', b'N', b'G'], "image/png");
    let csv = Part::from_inline_data(b"a,b".to_vec(), "text/csv");
    let reply = LlmResponse::from_parts(vec![image, csv.clone()]);
    let m = Rc::new(ScriptedModel::new(vec![ScriptedTurn::Response(Box::new(reply))]).named("gemini-2.5-flash"));
    let runner = setup(llm("coder", &m, |c| c.code_executor = Some(BuiltInCodeExecutor)));
    let events = run_with(&runner, "Plot it.", RunConfig::default());
    let saved: Vec<(&String, &i64)> = events[0].actions.artifact_delta.iter().collect();
    let [(name, 0)] = saved.as_slice() else { panic!("one image saved: {saved:?}") };
    let (stamp, extension) = name.split_once('.').unwrap();
    assert_eq!(extension, "png");
    assert!(
        stamp.len() == 15 && stamp.chars().enumerate().all(|(i, c)| if i == 8 { c == '_' } else { c.is_ascii_digit() })
    );
    assert_eq!(events[1].parts()[0].text, Some(format!("Saved as artifact: {name}. ")));
    assert_eq!(events[1].parts()[0].inline_data, None);
    assert_eq!(events[1].parts()[1], csv);
}
