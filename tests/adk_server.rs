//! The client of `adk api_server`, natively: what it sends for each endpoint, and how it reads the
//! bodies recorded from real servers (google-adk 2.13.0 and 1.39.1, `tests/fixtures/adk_server/`,
//! written by `tests/fixtures/record_adk_server.mjs`), `/run_sse` ones split at every byte.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

mod common;

use std::rc::Rc;

use adk_wasm::server::{
    AdkServerClient, AdkServerOptions, ArtifactRef, CreateSessionRequest, EventsJson, RunAgentRequest,
    SaveArtifactRequest, SessionRef, UpdateSessionRequest, UserRef,
};
use adk_wasm::{AdkError, Content, ErrorCode, Event, Part};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

const BASE: &str = "http://127.0.0.1:8000";
const VERSIONS: [&str; 2] = ["2.13.0", "1.39.1"];

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/adk_server/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn client(replies: impl IntoIterator<Item = Reply>) -> (AdkServerClient, Rc<ReplayClient>) {
    let http = ReplayClient::new(replies);
    let options = AdkServerOptions { headers: vec![("X-Test".into(), "1".into())], origin: None };
    (AdkServerClient::new(&format!("{BASE}/"), options, http.clone()).unwrap(), http)
}

fn session(id: &str) -> SessionRef {
    SessionRef { app_name: "weather".into(), user_id: "u 1".into(), session_id: id.into() }
}

fn run_request(streaming: bool) -> RunAgentRequest {
    RunAgentRequest {
        app_name: "weather".into(),
        user_id: "u".into(),
        session_id: "s".into(),
        new_message: Some(Content {
            role: Some("user".into()),
            parts: Some(vec![Part::from_text("Weather in Seoul?")]),
        }),
        streaming,
        ..Default::default()
    }
}

/// Every item of a run, errors included.
fn drain(events: adk_wasm::server::RunEvents) -> Vec<Result<Event, AdkError>> {
    block_on(events.collect())
}

/// The frames of a recorded body, each decoded on its own: what any split must give.
fn frames(body: &[u8]) -> Vec<Value> {
    std::str::from_utf8(body)
        .unwrap()
        .split("\n\n")
        .filter(|f| !f.trim().is_empty())
        .map(|f| serde_json::from_str(f.strip_prefix("data: ").unwrap()).unwrap())
        .collect()
}

#[test]
fn every_recorded_run_sse_body_reads_the_same_at_every_split() {
    let mut checked = 0;
    for version in VERSIONS {
        for name in ["weather", "weather-streaming", "story", "failing"] {
            let body = fixture(&format!("run_sse-{version}-{name}.sse"));
            let expected = frames(&body);
            let whole = drain(client([Reply::sse(&body)]).0.run_sse(&run_request(false), Rc::default()));
            let events: Vec<&Event> = whole.iter().filter_map(|r| r.as_ref().ok()).collect();
            // Every frame that is an event is one, with the server's id, in order.
            let ids: Vec<&str> = expected.iter().filter_map(|f| f["id"].as_str()).collect();
            assert_eq!(events.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ids, "{version} {name}");
            for (event, frame) in events.iter().zip(&expected) {
                assert_eq!(event.author, frame["author"].as_str().unwrap(), "{version} {name}");
                assert_eq!(event.partial, frame["partial"].as_bool(), "{version} {name}");
            }
            assert_eq!(whole.iter().filter(|r| r.is_err()).count(), usize::from(name == "failing"), "{version} {name}");
            for cut in 1..body.len() {
                let split =
                    drain(client([Reply::sse(&body).split_at(&[cut])]).0.run_sse(&run_request(false), Rc::default()));
                assert_eq!(
                    format!("{split:?}"),
                    format!("{whole:?}"),
                    "{version} {name}: a body split at byte {cut} reads differently"
                );
                checked += 1;
            }
            let bytewise = drain(client([Reply::sse(&body).chunked(1)]).0.run_sse(&run_request(false), Rc::default()));
            assert_eq!(format!("{bytewise:?}"), format!("{whole:?}"), "{version} {name}: one byte at a time");
        }
    }
    assert!(checked > 10_000, "{checked} splits");
}

/// The events as the server wrote them ([`EventsJson`], what the browser gets): each frame's own
/// text, at any split, the error frame still an error; `/run`'s array as one item.
#[test]
fn the_servers_json_is_handed_out_as_written() {
    let texts = |items: Vec<Result<EventsJson, AdkError>>| -> Vec<Result<String, ErrorCode>> {
        items.into_iter().map(|i| i.map(|EventsJson(text)| text).map_err(|e| e.code)).collect()
    };
    for version in VERSIONS {
        for name in ["weather-streaming", "story", "failing"] {
            let body = fixture(&format!("run_sse-{version}-{name}.sse"));
            let expected: Vec<Result<String, ErrorCode>> = std::str::from_utf8(&body)
                .unwrap()
                .split("\n\n")
                .filter_map(|f| f.trim().strip_prefix("data: "))
                .map(|data| match data.starts_with(r#"{"error""#) {
                    true => Err(ErrorCode::Internal),
                    false => Ok(data.to_string()),
                })
                .collect();
            assert!(expected.len() > 1, "{version} {name}");
            let whole =
                texts(drain_json(client([Reply::sse(&body)]).0.run_as(&run_request(false), true, Rc::default())));
            assert_eq!(whole, expected, "{version} {name}");
            let split = Reply::sse(&body).split_at(&[body.len() / 3, body.len() / 2]);
            assert_eq!(texts(drain_json(client([split]).0.run_as(&run_request(false), true, Rc::default()))), whole);
        }
        let body = fixture(&format!("run-{version}-weather.json"));
        let items = drain_json(client([Reply::new(200, "application/json", &body)]).0.run_as(
            &run_request(false),
            false,
            Rc::default(),
        ));
        assert_eq!(texts(items), [Ok(String::from_utf8(body).unwrap())], "{version}");
    }
    // What is not one JSON object per frame (an array would join into the batch) is not an event.
    for frame in ["[{}]", "{} {}", "{\"a\": ", "7"] {
        let reply = Reply::sse(format!("data: {frame}\n\n").as_bytes());
        let items = texts(drain_json(client([reply]).0.run_as(&run_request(false), true, Rc::default())));
        assert_eq!(items, [Err(ErrorCode::Unknown)], "{frame}");
    }
    let not_events = Reply::new(200, "application/json", br#"[{"id": "e"}, 1]"#);
    let items = texts(drain_json(client([not_events]).0.run_as(&run_request(false), false, Rc::default())));
    assert_eq!(items, [Err(ErrorCode::Unknown)]);
}

/// Every item of a run in the server's JSON.
fn drain_json(events: adk_wasm::server::RunEvents<EventsJson>) -> Vec<Result<EventsJson, AdkError>> {
    block_on(events.collect())
}

#[test]
fn streamed_partials_then_the_final_event() {
    for version in VERSIONS {
        let body = fixture(&format!("run_sse-{version}-weather-streaming.sse"));
        let events: Vec<Event> = drain(client([Reply::sse(&body)]).0.run_sse(&run_request(true), Rc::default()))
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert!(events[0].get_function_calls()[0].name.as_deref() == Some("get_weather"), "{version}");
        assert!(!events[1].get_function_responses().is_empty(), "{version}");
        let text = |e: &Event| -> String {
            e.content.iter().flat_map(|c| c.parts.iter().flatten()).filter_map(|p| p.text.as_deref()).collect()
        };
        let partial: String = events.iter().filter(|e| e.partial == Some(true)).map(text).collect();
        let last = events.last().unwrap();
        assert!(last.partial != Some(true) && last.is_final_response(), "{version}");
        let final_text = text(last);
        assert_eq!(partial, final_text, "{version}: the partial chunks add up to the final text");
        assert!(final_text.contains("21"), "{version}: {final_text}");
    }
}

#[test]
fn the_servers_error_frame_ends_the_run_after_the_events_before_it() {
    for version in VERSIONS {
        let body = fixture(&format!("run_sse-{version}-failing.sse"));
        let items = drain(client([Reply::sse(&body)]).0.run_sse(&run_request(false), Rc::default()));
        assert_eq!(items.len(), 2, "{version}");
        assert_eq!(items[0].as_ref().unwrap().author, "failing");
        let e = items[1].as_ref().unwrap_err();
        assert_eq!(e.code, ErrorCode::Internal, "{version}");
        assert!(e.message.contains("scripted failure 💥 after one event"), "{version}: {}", e.message);
    }
}

#[test]
fn a_cut_stream_keeps_the_events_before_it() {
    let body = fixture("run_sse-2.13.0-weather-streaming.sse");
    let second_frame_middle = body.windows(2).position(|w| w == b"\n\n").unwrap() + 40;
    let reply = Reply::sse(&body[..second_frame_middle]).cut();
    let items = drain(client([reply]).0.run_sse(&run_request(true), Rc::default()));
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    let e = items[1].as_ref().unwrap_err();
    assert_eq!(e.code, ErrorCode::Unavailable);
    assert!(e.message.starts_with("runSse: the stream from the ADK server was cut"), "{}", e.message);
}

#[test]
fn run_sse_sends_adks_run_agent_request() {
    let mut request = run_request(true);
    request.state_delta = Some(json!({"k": 1}).as_object().unwrap().clone());
    request.invocation_id = Some("e-1".into());
    let (client, http) = client([Reply::sse(b"")]);
    assert!(drain(client.run_sse(&request, Rc::default())).is_empty());
    let sent = &http.requests()[0];
    assert_eq!((sent.method.as_str(), sent.url.as_str()), ("POST", "http://127.0.0.1:8000/run_sse"));
    assert!(sent.headers.contains(&("Content-Type".into(), "application/json".into())));
    assert!(sent.headers.contains(&("X-Test".into(), "1".into())));
    assert_eq!(
        http.body(0),
        json!({"appName": "weather", "userId": "u", "sessionId": "s",
               "newMessage": {"parts": [{"text": "Weather in Seoul?"}], "role": "user"},
               "streaming": true, "stateDelta": {"k": 1}, "invocationId": "e-1"})
    );
}

#[test]
fn run_reads_the_recorded_array_of_events() {
    for version in VERSIONS {
        let body = fixture(&format!("run-{version}-weather.json"));
        let expected: Vec<Value> = serde_json::from_slice(&body).unwrap();
        let (client, http) = client([Reply::new(200, "application/json", &body)]);
        let events: Vec<Event> =
            drain(client.run(&run_request(false), Rc::default())).into_iter().map(Result::unwrap).collect();
        assert_eq!(http.requests()[0].url, format!("{BASE}/run"));
        let ids: Vec<&str> = expected.iter().map(|e| e["id"].as_str().unwrap()).collect();
        assert_eq!(events.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ids, "{version}");
    }
}

#[test]
fn errors_before_the_stream_are_typed() {
    for version in VERSIONS {
        let not_found = String::from_utf8(fixture(&format!("error_session_not_found-{version}.json"))).unwrap();
        let items = drain(client([Reply::json(404, &not_found)]).0.run_sse(&run_request(false), Rc::default()));
        let e = items[0].as_ref().unwrap_err();
        assert_eq!((e.code, e.http_status), (ErrorCode::NotFound, Some(404)), "{version}");
        assert!(e.message.starts_with("runSse: Session not found"), "{version}: {}", e.message);

        let invalid = String::from_utf8(fixture(&format!("error_validation-{version}.json"))).unwrap();
        let items = drain(client([Reply::json(422, &invalid)]).0.run_sse(&run_request(false), Rc::default()));
        let e = items[0].as_ref().unwrap_err();
        assert_eq!((e.code, e.http_status), (ErrorCode::InvalidArgument, Some(422)), "{version}");
        assert!(e.message.contains("body.userId: Field required"), "{version}: {}", e.message);
    }
    let html = Reply::new(200, "text/html", b"<!doctype html><title>app</title>");
    let e = drain(client([html]).0.run_sse(&run_request(false), Rc::default())).remove(0).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unimplemented);
    assert!(e.message.contains("content type `text/html`"), "{}", e.message);
    let refused = Reply::new(403, "text/plain", b"Forbidden: origin not allowed");
    let e = block_on(client([refused]).0.list_apps()).unwrap_err();
    assert_eq!((e.code, e.http_status), (ErrorCode::PermissionDenied, Some(403)));
    assert!(e.message.contains("--allow_origins"), "{}", e.message);
    let e = block_on(client([Reply::new(500, "text/plain", b"Internal Server Error")]).0.list_apps()).unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::Internal, "listApps: Internal Server Error"));
    let e = block_on(client([Reply::new(200, "text/html", b"<html>")]).0.list_apps()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unknown);
    assert!(e.message.contains("is baseUrl an ADK server's?"), "{}", e.message);
    let e = block_on(client([]).0.list_apps()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unavailable);
    assert!(e.message.contains("no answer from the ADK server at http://127.0.0.1:8000"), "{}", e.message);
}

#[test]
fn sessions_read_and_the_requests_that_fetch_them() {
    for version in VERSIONS {
        let created = fixture(&format!("create_session-{version}-weather.json"));
        let got = fixture(&format!("get_session-{version}-weather.json"));
        let listed = fixture(&format!("list_sessions-{version}-weather.json"));
        let (client, http) = client([
            Reply::new(200, "application/json", &created),
            Reply::new(200, "application/json", &got),
            Reply::new(200, "application/json", &listed),
            Reply::json(200, "null"),
        ]);
        let request = CreateSessionRequest {
            app_name: "weather".into(),
            user_id: "u 1".into(),
            session_id: Some("s/1".into()),
            state: Some(json!({"user:name": "Ada"}).as_object().unwrap().clone()),
            events: None,
            options: Some(json!({"ttl_seconds": 60}).as_object().unwrap().clone()),
        };
        let created_session = block_on(client.create_session(&request)).unwrap();
        let expected: Value = serde_json::from_slice(&created).unwrap();
        assert_eq!(created_session.id, expected["id"].as_str().unwrap(), "{version}");
        let stored = block_on(client.get_session(&session(&created_session.id))).unwrap();
        let stored_json: Value = serde_json::from_slice(&got).unwrap();
        assert_eq!(stored.events.len(), stored_json["events"].as_array().unwrap().len(), "{version}");
        assert_eq!(Value::Object(stored.state.clone()), stored_json["state"], "{version}");
        let sessions =
            block_on(client.list_sessions(&UserRef { app_name: "weather".into(), user_id: "u 1".into() })).unwrap();
        assert!(!sessions.is_empty() && sessions.iter().all(|s| s.events.is_empty()), "{version}");
        block_on(client.delete_session(&session("s/1"))).unwrap();

        let sent = http.requests();
        let calls: Vec<(&str, &str)> = sent.iter().map(|r| (r.method.as_str(), r.url.as_str())).collect();
        let sid = &created_session.id;
        assert_eq!(
            calls,
            [
                ("POST", "http://127.0.0.1:8000/apps/weather/users/u%201/sessions"),
                ("GET", &*format!("http://127.0.0.1:8000/apps/weather/users/u%201/sessions/{sid}")),
                ("GET", "http://127.0.0.1:8000/apps/weather/users/u%201/sessions"),
                ("DELETE", "http://127.0.0.1:8000/apps/weather/users/u%201/sessions/s%2F1"),
            ]
        );
        assert_eq!(
            http.body(0),
            json!({"sessionId": "s/1", "state": {"user:name": "Ada"}, "options": {"ttl_seconds": 60}})
        );
    }
}

#[test]
fn update_session_patches_a_state_delta() {
    let got = fixture("get_session-2.13.0-weather.json");
    let (client, http) = client([Reply::new(200, "application/json", &got)]);
    let request = UpdateSessionRequest {
        app_name: "weather".into(),
        user_id: "u".into(),
        session_id: "s".into(),
        state_delta: json!({"theme": "dark"}).as_object().unwrap().clone(),
    };
    block_on(client.update_session(&request)).unwrap();
    let sent = &http.requests()[0];
    assert_eq!(
        (sent.method.as_str(), sent.url.as_str()),
        ("PATCH", "http://127.0.0.1:8000/apps/weather/users/u/sessions/s")
    );
    assert_eq!(http.body(0), json!({"stateDelta": {"theme": "dark"}}));
}

#[test]
fn artifacts_and_their_versions() {
    for version in VERSIONS {
        let names = fixture(&format!("artifact_names-{version}-story.json"));
        let versions = fixture(&format!("artifact_versions-{version}-story.json"));
        let latest = fixture(&format!("artifact-{version}-story-latest.json"));
        let first = fixture(&format!("artifact-{version}-story-v0.json"));
        let (client, http) = client([
            Reply::new(200, "application/json", &names),
            Reply::new(200, "application/json", &versions),
            Reply::new(200, "application/json", &latest),
            Reply::new(200, "application/json", &first),
            Reply::json(404, r#"{"detail":"Artifact not found"}"#),
            Reply::json(404, r#"{"detail":"Not Found"}"#),
        ]);
        let story = SessionRef { app_name: "story".into(), user_id: "u".into(), session_id: "s".into() };
        assert_eq!(block_on(client.list_artifact_names(&story)).unwrap(), ["story.txt"], "{version}");
        let artifact = |version: Option<u64>| ArtifactRef {
            app_name: "story".into(),
            user_id: "u".into(),
            session_id: "s".into(),
            filename: "story.txt".into(),
            version,
        };
        assert_eq!(block_on(client.list_artifact_versions(&artifact(None))).unwrap(), [0, 1], "{version}");
        let text = |part: Part| String::from_utf8(part.inline_data.unwrap().data.unwrap().0).unwrap();
        let latest = text(block_on(client.load_artifact(&artifact(None))).unwrap().unwrap());
        let first = text(block_on(client.load_artifact(&artifact(Some(0)))).unwrap().unwrap());
        assert!(latest.starts_with("Chapter 2") && first.starts_with("Chapter 1"), "{version}: {latest} / {first}");
        assert_eq!(block_on(client.load_artifact(&artifact(Some(7)))).unwrap(), None, "{version}");
        // Any other 404 (a wrong path prefix, say) is an error, not an absent artifact.
        assert_eq!(block_on(client.load_artifact(&artifact(None))).unwrap_err().code, ErrorCode::NotFound);
        let urls: Vec<String> = http.requests().into_iter().map(|r| r.url).collect();
        let s = "http://127.0.0.1:8000/apps/story/users/u/sessions/s/artifacts";
        assert_eq!(
            urls,
            [
                s.to_string(),
                format!("{s}/story.txt/versions"),
                format!("{s}/story.txt"),
                format!("{s}/story.txt?version=0"),
                format!("{s}/story.txt?version=7"),
                format!("{s}/story.txt"),
            ]
        );
    }
}

#[test]
fn saving_and_deleting_an_artifact() {
    let saved = r#"{"version":2,"canonicalUri":"memory://apps/story/users/u/sessions/s/artifacts/notes.txt/versions/2","customMetadata":{"from":"upload"},"createTime":1795385446.5,"mimeType":"text/plain"}"#;
    let (client, http) = client([Reply::json(200, saved), Reply::json(200, "null")]);
    let request = SaveArtifactRequest {
        app_name: "story".into(),
        user_id: "u".into(),
        session_id: "s".into(),
        filename: "notes.txt".into(),
        artifact: Part::from_inline_data(b"hi".to_vec(), "text/plain"),
        custom_metadata: Some(json!({"from": "upload"}).as_object().unwrap().clone()),
    };
    let metadata = block_on(client.save_artifact(&request)).unwrap();
    assert_eq!(metadata["version"], 2);
    let artifact = ArtifactRef {
        app_name: "story".into(),
        user_id: "u".into(),
        session_id: "s".into(),
        filename: "notes.txt".into(),
        version: None,
    };
    block_on(client.delete_artifact(&artifact)).unwrap();
    let sent = http.requests();
    let s = "http://127.0.0.1:8000/apps/story/users/u/sessions/s/artifacts";
    assert_eq!((sent[0].method.as_str(), sent[0].url.as_str()), ("POST", s));
    assert_eq!(
        http.body(0),
        json!({"filename": "notes.txt", "artifact": {"inlineData": {"data": "aGk=", "mimeType": "text/plain"}},
               "customMetadata": {"from": "upload"}})
    );
    assert_eq!((sent[1].method.as_str(), sent[1].url.as_str()), ("DELETE", &*format!("{s}/notes.txt")));
}

#[test]
fn a_stored_session_keeps_its_deltas_and_the_events_of_both_runs() {
    for version in VERSIONS {
        let body = fixture(&format!("get_session-{version}-story.json"));
        let expected: Value = serde_json::from_slice(&body).unwrap();
        let (client, _) = client([Reply::new(200, "application/json", &body)]);
        let stored = block_on(client.get_session(&session("story"))).unwrap();
        assert_eq!(stored.events.len(), expected["events"].as_array().unwrap().len(), "{version}");
        assert_eq!(stored.state["user:reader"], "ada", "{version}");
        let versions: Vec<i64> =
            stored.events.iter().filter_map(|e| e.actions.artifact_delta.get("story.txt").copied()).collect();
        assert_eq!(versions, [0, 1], "{version}: one artifact delta per run, in the stored events");
        let ids: Vec<&str> = expected["events"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
        assert_eq!(stored.events.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ids, "{version}");
    }
}

#[test]
fn empty_names_are_refused_before_anything_is_sent() {
    let (client, http) = client([]);
    let e = block_on(client.get_session(&session(""))).unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::InvalidArgument, "getSession: sessionId is required (an empty one names nothing)")
    );
    assert_eq!(block_on(client.get_app_info("")).unwrap_err().code, ErrorCode::InvalidArgument);
    let mut request = run_request(true);
    request.user_id.clear();
    let items = drain(client.run_sse(&request, Rc::default()));
    assert_eq!(items.len(), 1);
    assert!(items[0].as_ref().unwrap_err().message.starts_with("runSse: userId is required"));
    assert!(http.requests().is_empty());
}

#[test]
fn apps_and_app_info() {
    for version in VERSIONS {
        let apps = fixture(&format!("list_apps-{version}.json"));
        let info = fixture(&format!("app_info-{version}-weather.json"));
        let refused = fixture(&format!("app_info-{version}-story-error.json"));
        let (client, http) = client([
            Reply::new(200, "application/json", &apps),
            Reply::new(200, "application/json", &info),
            Reply::new(400, "application/json", &refused),
        ]);
        assert_eq!(block_on(client.list_apps()).unwrap(), ["failing", "slow", "story", "weather"], "{version}");
        let info = block_on(client.get_app_info("weather")).unwrap();
        assert_eq!(info["rootAgentName"], "weather", "{version}");
        assert_eq!(http.requests()[1].url, "http://127.0.0.1:8000/apps/weather/app-info");
        // A root that is not an LlmAgent: the server's own 400 and words.
        let e = block_on(client.get_app_info("story")).unwrap_err();
        assert_eq!((e.code, e.http_status), (ErrorCode::InvalidArgument, Some(400)), "{version}");
        assert_eq!(e.message, "getAppInfo: Root agent is not an LlmAgent", "{version}");
    }
}

/// A server-sent event of a million empty parts is 3 MB of JSON but gigabytes decoded: the run
/// ends with `RESOURCE_EXHAUSTED` instead of exhausting the wasm memory.
#[test]
fn an_event_that_expands_past_the_budget_ends_the_run() {
    let parts = vec!["{}"; 1_000_000].join(",");
    let frame = format!(r#"data: {{"author": "weather", "content": {{"role": "model", "parts": [{parts}]}}}}"#);
    let items =
        drain(client([Reply::sse(format!("{frame}\n\n").as_bytes())]).0.run_sse(&run_request(true), Rc::default()));
    let e = items.iter().find_map(|i| i.as_ref().err()).expect("an error");
    assert_eq!(e.code, ErrorCode::ResourceExhausted, "{}", e.message);
    assert!(e.message.contains("maxJsonExpansion") && e.message.contains("content.parts"), "{}", e.message);
}
