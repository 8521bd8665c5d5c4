//! Fuzzing every decoder of what a server or a page sends: events, agent cards, SSE framing, A2A
//! streams (v1.0 and v0.3, JSON-RPC and HTTP+JSON) and unary answers, Gemini and OpenAI stream
//! chunks, and `adk api_server` runs. Inputs are the recorded fixtures, mutated.
//!
//! A target must never panic (in the browser a panic traps the instance) and every rejection must be
//! a typed error with a message. `cargo test --test fuzz` (so CI) runs a short pass with a fixed
//! seed; `make fuzz` runs each target for `FUZZ_SECONDS` (default 60) from a random seed, printed
//! so that `FUZZ_SEED` repeats it. A panicking input is written to `target/fuzz-crashes/`; once
//! fixed it belongs in `tests/fixtures/fuzz/regressions/<target>/`, which every run replays first.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use adk_wasm::a2a::{AgentCard, Binding, ProtocolVersion};
use adk_wasm::agent::Cancellation;
use adk_wasm::http::HttpClient;
use adk_wasm::model::{BaseLlm, Gemini, LlmRequest, OpenAICompatible};
use adk_wasm::server::{AdkServerClient, AdkServerOptions, RunAgentRequest};
use adk_wasm::sse::SseParser;
use adk_wasm::types::{Content, Part};
use adk_wasm::{AdkError, Event};
use common::a2a::{client, collect, user_message, ALL};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;
use futures::StreamExt;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// Executions per target in the fixed pass.
const SHORT_PASS: u64 = 1500;

/// xorshift64*: a deterministic stream of numbers from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What JSON and SSE parsers find interesting.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"null",
    b"true",
    b"-0",
    b"1e999",
    b"-1",
    b"99999999999999999999",
    b"0.0000001",
    b"\\ud800",
    b"\\udc00\\ud800",
    b"\\u0000",
    b"\x00",
    b"\xff\xfe",
    b"\xf0\x9f\x98",
    b"\r",
    b"\n\n",
    b"\r\n\r\n",
    b"data: ",
    b"event: error\n",
    b"id: 7\n",
    b"retry: 1\n",
    b": comment\n",
    b"\"kind\": \"task\"",
    b"\"state\": \"TASK_STATE_COMPLETED\"",
    b"\"append\": true",
    b"\"parts\": []",
    b"\"text\": \"",
    b"\"functionCall\": {",
    b"\"error\": {\"code\": -32603}",
];

/// One mutation of `input`: flips, interesting tokens, deletions, duplications, splices from other
/// seeds, truncation, deep nesting.
fn mutate(rng: &mut Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(9) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            2 if !out.is_empty() => {
                let end = (at + rng.below(64)).min(out.len());
                out.drain(at.min(end)..end);
            }
            3 if !out.is_empty() => {
                let start = rng.below(out.len());
                let end = (start + rng.below(256)).min(out.len());
                let piece = out[start..end].to_vec();
                out.splice(at..at, piece);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let start = rng.below(other.len());
                let end = (start + rng.below(512)).min(other.len());
                out.splice(at..at, other[start..end].iter().copied());
            }
            5 => out.truncate(at),
            6 => {
                let depth = 1 + rng.below(20_000);
                let open = if rng.below(2) == 0 { b'[' } else { b'{' };
                let nested: Vec<u8> = std::iter::repeat_n(open, depth).collect();
                out.splice(at..at, nested);
            }
            7 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = [b'"', b'\\', b'{', b'}', b'0', b'\n', 0, 0x80][rng.below(8)];
            }
            _ => {
                let i = rng.below(out.len() + 1);
                let digits = format!("{}", rng.next());
                out.splice(i..i, digits.bytes());
            }
        }
    }
    out
}

/// A rejection must be typed and say something.
fn typed(e: &AdkError) {
    assert!(!e.message.is_empty(), "an error without a message: {e:?}");
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The files of `dir` whose names start with `prefix` and end with `suffix`, in name order.
fn files(dir: &str, prefix: &str, suffix: &str) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(format!("{ROOT}/{dir}"))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix) && n.to_string_lossy().ends_with(suffix))
        })
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn event_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for file in files("tests/fixtures/events", "", ".json") {
        let doc: serde_json::Value = serde_json::from_slice(&file).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            seeds.push(case["wire"].as_str().unwrap().as_bytes().to_vec());
        }
    }
    seeds
}

fn event(data: &[u8]) {
    match Event::from_json(&text(data)) {
        // What decodes re-encodes, and reads back the same.
        Ok(event) => {
            let again = Event::from_json(&event.to_json().unwrap()).unwrap();
            assert_eq!(again.to_json().unwrap(), event.to_json().unwrap());
        }
        Err(e) => typed(&e),
    }
}

fn agent_card(data: &[u8]) {
    if let Err(e) = AgentCard::from_json(&text(data)) {
        typed(&e);
    }
}

/// Parsed whole or split anywhere, the same events (or the same failure).
fn sse(data: &[u8]) {
    let parse = |chunks: &[&[u8]]| {
        let mut parser = SseParser::new(1 << 20);
        let mut events = Vec::new();
        for chunk in chunks {
            events.extend(parser.push(chunk).map_err(|e| e.to_string())?);
        }
        events.extend(parser.finish().map_err(|e| e.to_string())?);
        Ok::<_, String>(events.into_iter().map(|e| (e.event, e.data, e.id, e.retry)).collect::<Vec<_>>())
    };
    let whole = parse(&[data]);
    let at = data.len() * 2 / 5;
    let (a, rest) = data.split_at(at);
    let (b, c) = rest.split_at(rest.len() / 3);
    assert_eq!(parse(&[a, b, c]), whole);
}

fn a2a_stream(version: ProtocolVersion, binding: Binding, data: &[u8]) {
    let (client, _) = client(version, binding, [Reply::sse(data)]);
    for item in collect(client.send_message_stream(user_message("hi"), Default::default())) {
        if let Err(e) = item {
            typed(&e);
        }
    }
}

fn a2a_get_task(version: ProtocolVersion, binding: Binding, data: &[u8]) {
    let (client, _) = client(version, binding, [Reply::json(200, &text(data))]);
    if let Err(e) = block_on(client.get_task("t-1", None)) {
        typed(&e);
    }
}

fn ask() -> LlmRequest {
    LlmRequest { contents: vec![Content::new("user", vec![Part::from_text("hi")])], ..Default::default() }
}

fn model_stream(model: &dyn BaseLlm) {
    let items: Vec<_> = block_on(model.generate_content(ask(), true, Rc::new(Cancellation::default())).collect());
    for item in items {
        if let Err(e) = item {
            typed(&e);
        }
    }
}

fn gemini(data: &[u8]) {
    let http = ReplayClient::new([Reply::sse(data)]);
    model_stream(&Gemini::new("gemini-2.5-flash", http as Rc<dyn HttpClient>));
}

fn openai(data: &[u8]) {
    let http = ReplayClient::new([Reply::sse(data)]);
    model_stream(&OpenAICompatible::new("m", "https://api.openai.com/v1", http as Rc<dyn HttpClient>));
}

fn adk_run_sse(data: &[u8]) {
    let http = ReplayClient::new([Reply::sse(data)]);
    let client = AdkServerClient::new("http://127.0.0.1:8000", AdkServerOptions::default(), http).unwrap();
    let request = RunAgentRequest {
        app_name: "a".into(),
        user_id: "u".into(),
        session_id: "s".into(),
        new_message: Some(Content::new("user", vec![Part::from_text("hi")])),
        streaming: true,
        ..Default::default()
    };
    for item in block_on(client.run_sse(&request, Rc::default()).collect::<Vec<_>>()) {
        if let Err(e) = item {
            typed(&e);
        }
    }
}

/// What a target does with one input.
type Run = Box<dyn Fn(&[u8])>;

struct Target {
    name: String,
    seeds: Vec<Vec<u8>>,
    run: Run,
}

fn target(name: &str, seeds: Vec<Vec<u8>>, run: impl Fn(&[u8]) + 'static) -> Target {
    assert!(!seeds.is_empty(), "{name}: no seeds");
    Target { name: name.into(), seeds, run: Box::new(run) }
}

fn targets() -> Vec<Target> {
    let cards =
        [files("tests/fixtures/a2a", "card", ".json"), files("tests/fixtures/a2a/recorded", "", "card.json")].concat();
    let streams = [files("tests/fixtures/a2a", "", ".sse"), files("tests/fixtures/models", "", ".sse")].concat();
    let mut all = vec![
        target("event", event_seeds(), event),
        target("agent_card", cards, agent_card),
        target("sse", streams, sse),
        target("gemini_stream", files("tests/fixtures/models", "gemini", ".sse"), gemini),
        target("openai_stream", files("tests/fixtures/models", "openai", ".sse"), openai),
        target("adk_run_sse", files("tests/fixtures/adk_server", "", ".sse"), adk_run_sse),
    ];
    for (version, binding, prefix) in ALL {
        let streams = files("tests/fixtures/a2a", prefix, ".sse");
        all.push(target(&format!("a2a_stream_{prefix}"), streams, move |d| a2a_stream(version, binding, d)));
        let tasks = files("tests/fixtures/a2a", &format!("{prefix}-get"), ".json");
        all.push(target(&format!("a2a_get_task_{prefix}"), tasks, move |d| a2a_get_task(version, binding, d)));
    }
    all
}

/// Runs `input` through `target`; the panic message if it panicked.
fn attempt(target: &Target, input: &[u8]) -> Option<String> {
    catch_unwind(AssertUnwindSafe(|| (target.run)(input))).err().map(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

fn save_crash(target: &str, input: &[u8]) -> String {
    let hash = input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let dir = format!("{ROOT}/target/fuzz-crashes");
    std::fs::create_dir_all(&dir).unwrap();
    let path = format!("{dir}/{target}-{hash:016x}");
    std::fs::write(&path, input).unwrap();
    path
}

#[test]
fn fuzz() {
    let seconds: Option<u64> = std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok());
    let seed: u64 = std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| match seconds {
        // A long run explores; the short pass repeats itself exactly.
        Some(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1,
        None => 0x5EED_ADC0_FFEE_0001,
    });
    let only = std::env::var("FUZZ_TARGET").ok();
    println!(
        "fuzz seed {seed} ({} per target)",
        seconds.map_or(format!("{SHORT_PASS} executions"), |s| format!("{s} s"))
    );
    // The default hook would print every caught panic; the summary says what failed.
    std::panic::set_hook(Box::new(|_| {}));
    let mut crashes = Vec::new();
    for target in targets() {
        if only.as_deref().is_some_and(|o| o != target.name) {
            continue;
        }
        let regressions = Path::new(ROOT).join("tests/fixtures/fuzz/regressions").join(&target.name);
        let replays: Vec<Vec<u8>> = std::fs::read_dir(&regressions)
            .map(|dir| dir.filter_map(|e| std::fs::read(e.ok()?.path()).ok()).collect())
            .unwrap_or_default();
        for input in target.seeds.iter().chain(&replays) {
            if let Some(message) = attempt(&target, input) {
                crashes.push(format!("{}: a seed or regression case panics: {message}", target.name));
            }
        }
        let mut rng = Rng(seed ^ target.name.bytes().fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b)));
        let deadline = seconds.map(|s| Instant::now() + Duration::from_secs(s));
        let (mut runs, mut found) = (0u64, 0usize);
        while deadline.map_or(runs < SHORT_PASS, |d| Instant::now() < d) {
            let pick = rng.below(target.seeds.len());
            let input = mutate(&mut rng, &target.seeds[pick], &target.seeds);
            runs += 1;
            if let Some(message) = attempt(&target, &input) {
                found += 1;
                crashes.push(format!(
                    "{}: {message} (input saved as {})",
                    target.name,
                    save_crash(&target.name, &input)
                ));
                if found >= 5 {
                    break;
                }
            }
        }
        println!("  {:<26} {runs:>9} executions, {found} crashes, {} regression cases", target.name, replays.len());
    }
    let _ = std::panic::take_hook();
    assert!(crashes.is_empty(), "{} crashes:\n{}", crashes.len(), crashes.join("\n"));
}
