//! An app that compacts its sessions (ADK's `App` with `EventsCompactionConfig`): a long
//! conversation keeps its requests small (by sliding window, or under a token budget), a config ADK refuses is refused with ADK's message, and a
//! summarizer that fails costs the conversation nothing. (tests/flows.rs compares the requests and
//! the compaction events with ADK's own.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::rc::Rc;

use adk_wasm::agent::{Agent, AgentCore, LlmAgent, LlmAgentConfig, SequentialAgent};
use adk_wasm::apps::{App, BaseEventsSummarizer, EventsCompactionConfig, LlmEventSummarizer, SummaryFuture};
use adk_wasm::cancellation::Cancellation;
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::{BaseLlm, LlmRequest, LlmResponseStream, ScriptedModel};
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::types::{Content, Part, UsageMetadata};
use adk_wasm::{AdkError, ErrorCode, Event, LlmResponse};
use futures::executor::block_on;
use futures::StreamExt;

fn texts(texts: impl IntoIterator<Item = String>) -> Rc<ScriptedModel> {
    let turns = texts
        .into_iter()
        .map(|t| ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![Part::from_text(&t)]))))
        .collect();
    Rc::new(ScriptedModel::new(turns))
}

fn chat(model: Rc<ScriptedModel>) -> Rc<dyn Agent> {
    Rc::new(LlmAgent::new(AgentCore::new("chat", "").unwrap(), LlmAgentConfig::new(model)))
}

fn window(summarizer: Option<Rc<dyn BaseEventsSummarizer>>, interval: i64, overlap: i64) -> EventsCompactionConfig {
    EventsCompactionConfig {
        summarizer,
        compaction_interval: Some(interval),
        overlap_size: Some(overlap),
        ..Default::default()
    }
}

/// Runs `turns` user messages; every run must succeed.
fn converse(runner: &Runner, turns: usize) {
    block_on(runner.session_service().create_session("app", "user", None, Some("s"))).unwrap();
    for turn in 0..turns {
        let message = Content::user_text(&format!("Question {turn}: tell me something long enough to matter."));
        let run = runner.run_async("user", "s", message, None, RunConfig::default());
        for event in block_on(run.collect::<Vec<_>>()) {
            event.unwrap();
        }
    }
}

fn session(runner: &Runner) -> adk_wasm::session::Session {
    block_on(runner.session_service().get_session("app", "user", "s", None)).unwrap().unwrap()
}

/// Hundreds of turns: the raw history a request carries stays within the window (interval plus
/// overlap invocations and the new message); what grows is one short summary per window, as in
/// ADK, whose sliding-window summaries overlap without containing one another.
#[test]
fn a_long_conversation_keeps_its_requests_small() {
    const TURNS: usize = 300;
    let model = texts((0..TURNS).map(|i| format!("Answer {i}, which is long enough to be worth summarizing.")));
    let summarizer = texts((0..TURNS).map(|i| format!("S{i}")));
    let config = window(Some(Rc::new(LlmEventSummarizer::new(summarizer.clone(), None).unwrap())), 3, 1);
    let app = App::new("app", chat(model.clone())).unwrap().with_events_compaction_config(config).unwrap();
    let runner = Runner::in_memory_from_app(&app);
    converse(&runner, TURNS);

    let compactions = session(&runner).events.iter().filter(|e| e.actions.compaction.is_some()).count();
    assert_eq!(compactions, TURNS / 3, "one summary every three turns");
    assert_eq!(summarizer.requests().len(), compactions);
    for (turn, request) in model.requests().iter().enumerate() {
        let summaries =
            request.contents.iter().filter(|c| c.parts()[0].text.as_deref().unwrap().starts_with('S')).count();
        let raw = request.contents.len() - summaries;
        // Before the current turn: at most the 3 + 1 invocations of the window, 2 contents each.
        assert!(raw <= 2 * 4 + 1, "turn {turn}: {raw} raw contents");
        assert_eq!(summaries, turn / 3, "turn {turn}");
        assert!(request.contents.last().unwrap().parts()[0]
            .text
            .as_deref()
            .unwrap()
            .starts_with(&format!("Question {turn}:")));
    }
    // Each summarizer request holds only its window: 4 invocations at most, never the history.
    for request in summarizer.requests() {
        let prompt = request.contents[0].parts()[0].text.clone().unwrap();
        assert!(prompt.matches("user: Question").count() <= 4, "{prompt}");
    }
}

/// A model whose every answer reports the prompt it got as one token per four characters of its
/// contents' JSON, as a real model's count grows with the request; it keeps those counts.
struct Measuring {
    prompt_tokens: RefCell<Vec<i64>>,
}

impl BaseLlm for Measuring {
    fn model(&self) -> &str {
        "measuring"
    }

    fn generate_content(&self, request: LlmRequest, _stream: bool, _c: Rc<Cancellation>) -> LlmResponseStream {
        let tokens = adk_core::json::to_string(&request.contents).chars().count() as i64 / 4;
        let turn = self.prompt_tokens.borrow().len();
        self.prompt_tokens.borrow_mut().push(tokens);
        let text = format!("Answer {turn}, which is long enough to be worth summarizing.");
        let mut response = LlmResponse::from_parts(vec![Part::from_text(&text)]);
        response.usage_metadata = Some(UsageMetadata { prompt_token_count: Some(tokens), ..Default::default() });
        Box::pin(futures::stream::iter([Ok(response)]))
    }
}

/// The acceptance test, with the token trigger: a two-day-style conversation of hundreds of
/// turns keeps every request under its budget. A prompt at or over the threshold is compacted
/// before the next request is built, so no request exceeds the threshold by more than what one turn
/// adds (a question and an answer, about 40 tokens here): the budget is the threshold plus a
/// quarter. Without compaction the last requests would be twenty times that.
#[test]
fn a_long_conversation_stays_under_its_token_budget() {
    const TURNS: usize = 300;
    const THRESHOLD: i64 = 600;
    let model = Rc::new(Measuring { prompt_tokens: RefCell::default() });
    let summarizer = texts((0..TURNS).map(|i| format!("Summary {i} of the conversation so far.")));
    let config = EventsCompactionConfig {
        summarizer: Some(Rc::new(LlmEventSummarizer::new(summarizer.clone(), None).unwrap())),
        token_threshold: Some(THRESHOLD),
        event_retention_size: Some(4),
        ..Default::default()
    };
    let agent: Rc<dyn Agent> =
        Rc::new(LlmAgent::new(AgentCore::new("chat", "").unwrap(), LlmAgentConfig::new(model.clone())));
    let app = App::new("app", agent).unwrap().with_events_compaction_config(config).unwrap();
    let runner = Runner::in_memory_from_app(&app);
    converse(&runner, TURNS);

    let sizes = model.prompt_tokens.borrow();
    assert_eq!(sizes.len(), TURNS);
    for (turn, tokens) in sizes.iter().enumerate() {
        assert!(*tokens < THRESHOLD + THRESHOLD / 4, "turn {turn}: {tokens} tokens");
    }
    // The budget was reached again and again, and each time a rolling summary replaced the last.
    let compactions = session(&runner).events.iter().filter(|e| e.actions.compaction.is_some()).count();
    assert!(compactions >= 10, "{compactions} compactions");
    assert_eq!(summarizer.requests().len(), compactions);
    for request in summarizer.requests() {
        let prompt = request.contents[0].parts()[0].text.clone().unwrap();
        assert!(prompt.matches("Summary ").count() <= 1, "one earlier summary at most: {prompt}");
        assert!(prompt.matches("user: Question").count() <= 20, "{prompt}");
    }
}

#[test]
fn configs_adk_refuses_are_refused_with_its_message() {
    let refused = |config: EventsCompactionConfig| {
        let app = App::new("app", chat(texts([]))).unwrap();
        let error = app.with_events_compaction_config(config).err().unwrap();
        assert_eq!(error.code, ErrorCode::InvalidArgument);
        error.message
    };
    let half = EventsCompactionConfig { compaction_interval: Some(2), ..Default::default() };
    assert_eq!(refused(half), "compaction_interval and overlap_size must be set together.");
    let half = EventsCompactionConfig { event_retention_size: Some(2), ..Default::default() };
    assert_eq!(refused(half), "token_threshold and event_retention_size must be set together.");
    assert!(
        refused(EventsCompactionConfig::default()).starts_with("At least one compaction trigger must be configured")
    );
    assert_eq!(refused(window(None, 0, 0)), "compaction_interval: Input should be greater than 0");
    let token =
        EventsCompactionConfig { token_threshold: Some(0), event_retention_size: Some(4), ..Default::default() };
    assert_eq!(refused(token), "token_threshold: Input should be greater than 0");
    let e = App::new("my app", chat(texts([]))).err().unwrap();
    assert_eq!(e.message, "Invalid app name 'my app': must start with a letter and can only consist of letters, digits, underscores, and hyphens.");
    let e = LlmEventSummarizer::new(texts([]), Some("Summarize {history}")).err().unwrap();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
}

struct Failing;

impl BaseEventsSummarizer for Failing {
    fn maybe_summarize_events<'a>(&'a self, _events: &'a [Event], _c: Rc<Cancellation>) -> SummaryFuture<'a> {
        Box::pin(async { Err(AdkError::new(ErrorCode::Unavailable, "the summarizer is down")) })
    }
}

/// ADK catches a summarizer's failure: the turn was answered, the history is whole, the next
/// request carries all of it. Both a summarizer that fails and a model that does.
#[test]
fn a_failing_summarizer_leaves_the_session_whole() {
    let broken_model: Rc<dyn BaseEventsSummarizer> = Rc::new(LlmEventSummarizer::new(texts([]), None).unwrap());
    for summarizer in [Rc::new(Failing) as Rc<dyn BaseEventsSummarizer>, broken_model] {
        let model = texts((0..4).map(|i| format!("Answer {i}")));
        let app = App::new("app", chat(model.clone())).unwrap();
        let app = app.with_events_compaction_config(window(Some(summarizer), 1, 0)).unwrap();
        let runner = Runner::in_memory_from_app(&app);
        converse(&runner, 4);
        let events = session(&runner).events;
        assert_eq!(events.len(), 8);
        assert!(events.iter().all(|e| e.actions.compaction.is_none()));
        assert_eq!(model.requests()[3].contents.len(), 7, "the whole history");
    }
}

/// Without a summarizer ADK summarizes with the root agent's model, and refuses, once a window is
/// due, a root that has none (after the turn's events: the turn itself was answered).
#[test]
fn the_default_summarizer_is_the_root_agents_model() {
    let model = texts(["Answer 0".to_string(), "Summary.".to_string(), "Answer 1".to_string()]);
    let app = App::new("app", chat(model.clone())).unwrap().with_events_compaction_config(window(None, 1, 0)).unwrap();
    let runner = Runner::in_memory_from_app(&app);
    converse(&runner, 2);
    assert_eq!(model.requests()[1].contents.len(), 1, "the summarizer's prompt");
    assert_eq!(model.requests()[2].contents[0].parts()[0].text.as_deref(), Some("Summary."));

    let pipeline: Rc<dyn Agent> = Rc::new(SequentialAgent::new(AgentCore::new("pipeline", "").unwrap()));
    let pipeline = adk_wasm::agent::with_sub_agents(pipeline, vec![chat(texts(["Answer".to_string()]))]).unwrap();
    let app = App::new("app", pipeline).unwrap().with_events_compaction_config(window(None, 1, 0)).unwrap();
    let runner = Runner::in_memory_from_app(&app);
    block_on(runner.session_service().create_session("app", "user", None, Some("s"))).unwrap();
    let run = runner.run_async("user", "s", Content::user_text("Hi"), None, RunConfig::default());
    let results = block_on(run.collect::<Vec<_>>());
    assert!(results[0].is_ok());
    let error = results.last().unwrap().as_ref().err().unwrap();
    assert_eq!(error.message, "No LlmAgent model available for event compaction summarizer.");
    assert_eq!(session(&runner).events.len(), 2, "the turn is kept");
}
