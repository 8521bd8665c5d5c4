//! What the client sends and how it reads a2a-sdk's recorded answers, for every {version × binding}.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

mod common;

use adk_wasm::a2a::v03::{from_v03, to_v03, Dialect};
use adk_wasm::a2a::{
    Artifact, Binding, ListTasksParams, Message, Part, PartContent, ProtocolVersion, Role, SendMessageConfiguration,
    StreamItem, StreamResponse, Task, TaskArtifactUpdateEvent, TaskOrMessage, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use adk_wasm::types::Bytes;
use adk_wasm::ErrorCode;
use common::a2a::{client, collect, fixture, fixture_text, fold, user_message, ALL};
use common::http::Reply;
use futures::executor::block_on;
use serde_json::json;

const RPC: &str = "http://127.0.0.1:18931/rpc";
const REST: &str = "http://127.0.0.1:18931/rest";

fn header<'a>(r: &'a adk_wasm::http::HttpRequest, name: &str) -> Option<&'a str> {
    r.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

#[test]
fn send_message_requests_and_recorded_results() {
    for (version, binding, prefix) in ALL {
        let (client, http) =
            client(version, binding, [Reply::json(200, &fixture_text(&format!("{prefix}-send.json")))]);
        let mut params = user_message("hi");
        params.configuration = Some(SendMessageConfiguration {
            accepted_output_modes: vec!["text/plain".into()],
            history_length: Some(2),
            return_immediately: Some(false),
        });
        let TaskOrMessage::Task(task) = block_on(client.send_message(&params)).unwrap() else { panic!("{prefix}") };
        assert_eq!(task.status.state, TaskState::Completed, "{prefix}");
        let parts: Vec<_> = task.artifacts[0].parts.iter().filter_map(Part::as_text).collect();
        assert_eq!(parts, ["echo: ", "hi", "!"], "{prefix}");
        assert_eq!(task.history[0].role, Role::User, "{prefix}");

        let request = &http.requests()[0];
        let body = http.body(0);
        assert_eq!(request.method, "POST");
        assert_eq!(header(request, "A2A-Version"), (version == ProtocolVersion::V1_0).then_some("1.0"), "{prefix}");
        assert_eq!(header(request, "Content-Type"), Some("application/json"));
        let (url, message, config) = match binding {
            Binding::JsonRpc => {
                assert_eq!(body["jsonrpc"], "2.0");
                assert_eq!(body["id"], 1);
                let method = if version == ProtocolVersion::V1_0 { "SendMessage" } else { "message/send" };
                assert_eq!(body["method"], method);
                (RPC.to_string(), &body["params"]["message"], &body["params"]["configuration"])
            }
            Binding::HttpJson => {
                let prefix = if version == ProtocolVersion::V1_0 { "" } else { "/v1" };
                (format!("{REST}{prefix}/message:send"), &body["message"], &body["configuration"])
            }
        };
        assert_eq!(request.url, url, "{prefix}");
        let expected_message = match (version, binding) {
            (ProtocolVersion::V1_0, _) => json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}),
            (_, Binding::JsonRpc) => {
                json!({"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "hi"}]})
            }
            (_, Binding::HttpJson) => json!({"messageId": "m-1", "role": "ROLE_USER", "content": [{"text": "hi"}]}),
        };
        assert_eq!(message, &expected_message, "{prefix}");
        let expected_config = if version == ProtocolVersion::V1_0 {
            json!({"acceptedOutputModes": ["text/plain"], "historyLength": 2, "returnImmediately": false})
        } else {
            json!({"acceptedOutputModes": ["text/plain"], "historyLength": 2, "blocking": true})
        };
        assert_eq!(config, &expected_config, "{prefix}");
    }
}

#[test]
fn a_direct_message_answer() {
    let (client, _) = client(
        ProtocolVersion::V1_0,
        Binding::JsonRpc,
        [Reply::json(200, &fixture_text("v10-jsonrpc-send-message.json"))],
    );
    let TaskOrMessage::Message(m) = block_on(client.send_message(&user_message("hello message"))).unwrap() else {
        panic!()
    };
    assert_eq!((m.role, m.parts[0].as_text()), (Role::Agent, Some("just a message")));
}

#[test]
fn get_and_cancel_requests() {
    for (version, binding, prefix) in ALL {
        let text = fixture_text(&format!("{prefix}-get.json"));
        // The second request (the cancel) has JSON-RPC id 2; REST bodies carry no id.
        let second = text.replace(r#""id":1,"#, r#""id":2,"#);
        let (client, http) = client(version, binding, [Reply::json(200, &text), Reply::json(200, &second)]);
        let task = block_on(client.get_task("t/1", Some(1))).unwrap();
        assert_eq!(task.status.state, TaskState::Completed, "{prefix}");
        // The recorded cancel answers are errors; a task body reads the same way as get's.
        let canceled = block_on(client.cancel_task("t/1")).unwrap();
        assert_eq!(canceled.status.state, TaskState::Completed, "{prefix}");
        let requests = http.requests();
        match binding {
            Binding::JsonRpc => {
                let v1 = version == ProtocolVersion::V1_0;
                assert_eq!(http.body(0)["method"], if v1 { "GetTask" } else { "tasks/get" });
                assert_eq!(http.body(0)["params"], json!({"id": "t/1", "historyLength": 1}));
                assert_eq!(http.body(1)["method"], if v1 { "CancelTask" } else { "tasks/cancel" });
                assert_eq!(http.body(1)["id"], 2);
            }
            Binding::HttpJson => {
                let base = if version == ProtocolVersion::V1_0 { REST.to_string() } else { format!("{REST}/v1") };
                assert_eq!(
                    (requests[0].method.as_str(), requests[0].url.clone()),
                    ("GET", format!("{base}/tasks/t%2F1?historyLength=1"))
                );
                assert_eq!(
                    (requests[1].method.as_str(), requests[1].url.clone()),
                    ("POST", format!("{base}/tasks/t%2F1:cancel"))
                );
            }
        }
    }
}

#[test]
fn list_tasks_on_1_0_and_refused_on_0_3() {
    for (binding, prefix) in [(Binding::JsonRpc, "v10-jsonrpc"), (Binding::HttpJson, "v10-rest")] {
        let (client, http) =
            client(ProtocolVersion::V1_0, binding, [Reply::json(200, &fixture_text(&format!("{prefix}-list.json")))]);
        let params = ListTasksParams {
            page_size: Some(1),
            status: Some(TaskState::Completed),
            context_id: Some("c 1".into()),
            ..Default::default()
        };
        let page = block_on(client.list_tasks(&params)).unwrap();
        assert_eq!((page.tasks.len(), page.page_size), (1, 1), "{prefix}");
        assert!(!page.next_page_token.is_empty());
        match binding {
            Binding::JsonRpc => {
                assert_eq!(http.body(0)["method"], "ListTasks");
                assert_eq!(
                    http.body(0)["params"],
                    json!({"contextId": "c 1", "status": "TASK_STATE_COMPLETED", "pageSize": 1})
                );
            }
            Binding::HttpJson => assert_eq!(
                http.requests()[0].url,
                format!("{REST}/tasks?contextId=c%201&status=TASK_STATE_COMPLETED&pageSize=1")
            ),
        }
    }
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let (client, http) = client(ProtocolVersion::V0_3, binding, []);
        let e = block_on(client.list_tasks(&ListTasksParams::default())).unwrap_err();
        assert_eq!(e.code, ErrorCode::Unimplemented);
        assert!(http.requests().is_empty());
    }
}

/// The items of recorded stream `name` delivered in chunks of `size` bytes.
fn stream_items(
    version: ProtocolVersion,
    binding: Binding,
    body: &[u8],
    reply: impl Fn(Reply) -> Reply,
) -> Vec<StreamItem> {
    let (client, http) = client(version, binding, [reply(Reply::sse(body))]);
    let items = collect(client.send_message_stream(user_message("hi"), Default::default()));
    assert_eq!(http.remaining(), 0);
    items.into_iter().map(Result::unwrap).collect()
}

#[test]
fn recorded_streams_split_at_every_byte_give_the_same_items() {
    for (version, binding, prefix) in ALL {
        let body = fixture(&format!("{prefix}-stream.sse"));
        let whole = stream_items(version, binding, &body, |r| r);
        let events: Vec<_> = whole
            .iter()
            .map(|i| match i {
                StreamItem::Event(StreamResponse::Task(_)) => "task",
                StreamItem::Event(StreamResponse::StatusUpdate(_)) => "status",
                StreamItem::Event(StreamResponse::ArtifactUpdate(_)) => "artifact",
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(events, ["task", "status", "artifact", "artifact", "artifact", "status"], "{prefix}");
        let folded = fold(&whole.iter().cloned().map(Ok).collect::<Vec<_>>());
        assert_eq!(folded.text, "echo: hi!");
        assert_eq!(folded.states, [TaskState::Submitted, TaskState::Working, TaskState::Completed]);
        assert_eq!(stream_items(version, binding, &body, |r| r.chunked(1)), whole, "{prefix} byte by byte");
        for i in 0..=body.len() {
            assert_eq!(stream_items(version, binding, &body, |r| r.split_at(&[i])), whole, "{prefix} split at {i}");
        }
    }
}

#[test]
fn stream_requests() {
    for (version, binding, prefix) in ALL {
        let (client, http) = client(version, binding, [Reply::sse(&fixture(&format!("{prefix}-stream.sse")))]);
        collect(client.send_message_stream(user_message("hi"), Default::default()));
        let request = &http.requests()[0];
        assert_eq!(header(request, "Accept"), Some("text/event-stream"));
        match binding {
            Binding::JsonRpc => {
                let v1 = version == ProtocolVersion::V1_0;
                assert_eq!(http.body(0)["method"], if v1 { "SendStreamingMessage" } else { "message/stream" });
            }
            Binding::HttpJson => {
                let base = if version == ProtocolVersion::V1_0 { REST.to_string() } else { format!("{REST}/v1") };
                assert_eq!(request.url, format!("{base}/message:stream"));
            }
        }
    }
}

#[test]
fn interrupted_task_ends_the_stream() {
    let (client, _) =
        client(ProtocolVersion::V1_0, Binding::JsonRpc, [Reply::sse(&fixture("v10-jsonrpc-ask.sse")).cut()]);
    let folded = fold(&collect(client.send_message_stream(user_message("ask me"), Default::default())));
    assert_eq!(folded.states.last(), Some(&TaskState::InputRequired));
    assert_eq!((folded.error, folded.resumed.len()), (None, 0), "no resume after an interrupted state");
}

fn sample_items() -> Vec<StreamResponse> {
    let meta = json!({"k": "v"}).as_object().cloned();
    let message = Message {
        message_id: "m".into(),
        context_id: Some("c".into()),
        task_id: Some("t".into()),
        role: Role::Agent,
        parts: vec![
            Part::text("hello"),
            Part {
                media_type: Some("image/png".into()),
                filename: Some("a.png".into()),
                ..Part::new(PartContent::Raw(Bytes(vec![1, 2, 255])))
            },
            Part {
                media_type: Some("application/pdf".into()),
                ..Part::new(PartContent::Url("https://x/y.pdf".into()))
            },
            Part { metadata: meta.clone(), ..Part::new(PartContent::Data(json!({"a": [1, 2]}))) },
        ],
        metadata: meta.clone(),
        extensions: vec!["urn:e".into()],
        reference_task_ids: vec![],
    };
    let artifact = Artifact {
        artifact_id: "a".into(),
        name: Some("n".into()),
        parts: message.parts.clone(),
        ..Default::default()
    };
    let states = [
        TaskState::Submitted,
        TaskState::Working,
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
        TaskState::InputRequired,
        TaskState::Rejected,
        TaskState::AuthRequired,
    ];
    let mut items = vec![
        StreamResponse::Message(message.clone()),
        StreamResponse::Task(Task {
            id: "t".into(),
            context_id: "c".into(),
            status: TaskStatus {
                state: TaskState::Working,
                message: Some(message.clone()),
                timestamp: Some("2025-01-01T00:00:00Z".into()),
            },
            artifacts: vec![artifact.clone()],
            history: vec![Message { role: Role::User, ..message.clone() }],
            metadata: meta,
        }),
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
            task_id: "t".into(),
            context_id: "c".into(),
            artifact,
            append: true,
            last_chunk: true,
            metadata: None,
        }),
    ];
    items.extend(states.into_iter().map(|state| {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: "t".into(),
            context_id: "c".into(),
            status: TaskStatus { state, ..Default::default() },
            metadata: None,
            last: false,
        })
    }));
    items
}

#[test]
fn v0_3_mapping_round_trips() {
    for dialect in [Dialect::JsonRpc, Dialect::Rest] {
        for item in sample_items() {
            let wire = to_v03(&item, dialect);
            assert_eq!(from_v03(wire.clone(), dialect).unwrap(), item, "{dialect:?} {wire}");
        }
    }
    // The spellings that differ.
    let items = sample_items();
    let (message, task) = (&items[0], &items[1]);
    let wire = to_v03(message, Dialect::JsonRpc);
    assert_eq!((wire["kind"].as_str(), wire["role"].as_str()), (Some("message"), Some("agent")));
    assert_eq!(
        wire["parts"][1],
        json!({"kind": "file", "file": {"bytes": "AQL/", "mimeType": "image/png", "name": "a.png"}})
    );
    assert_eq!(
        wire["parts"][2],
        json!({"kind": "file", "file": {"uri": "https://x/y.pdf", "mimeType": "application/pdf"}})
    );
    assert_eq!(wire["parts"][3], json!({"kind": "data", "data": {"a": [1, 2]}, "metadata": {"k": "v"}}));
    let rest = to_v03(message, Dialect::Rest);
    assert_eq!(rest["message"]["content"][1]["file"]["fileWithBytes"], "AQL/");
    assert_eq!(rest["message"]["content"][3]["data"], json!({"data": {"a": [1, 2]}}));
    assert_eq!(to_v03(task, Dialect::JsonRpc)["status"]["state"], "working");
    let input = to_v03(&items[8], Dialect::JsonRpc);
    assert_eq!(
        (input["kind"].as_str(), input["status"]["state"].as_str(), input["final"].as_bool()),
        (Some("status-update"), Some("input-required"), Some(true))
    );
    assert_eq!(to_v03(&items[7], Dialect::Rest)["statusUpdate"]["status"]["state"], "TASK_STATE_CANCELLED");
    assert_eq!(to_v03(&items[4], Dialect::JsonRpc)["final"], false);
}

#[test]
fn v0_3_unknown_state_and_kind() {
    let unknown =
        from_v03(json!({"kind": "status-update", "taskId": "t", "status": {"state": "paused"}}), Dialect::JsonRpc)
            .unwrap();
    let StreamResponse::StatusUpdate(u) = unknown else { panic!() };
    assert_eq!(u.status.state, TaskState::Other("TASK_STATE_PAUSED".into()));
    assert!(!u.status.state.is_terminal() && !u.status.state.is_interrupted());
    assert_eq!(from_v03(json!({"kind": "nope"}), Dialect::JsonRpc).unwrap_err().code, ErrorCode::InvalidArgument);
}

#[test]
fn task_states() {
    for (state, terminal, interrupted) in [
        (TaskState::Submitted, false, false),
        (TaskState::Working, false, false),
        (TaskState::Completed, true, false),
        (TaskState::Failed, true, false),
        (TaskState::Canceled, true, false),
        (TaskState::Rejected, true, false),
        (TaskState::InputRequired, false, true),
        (TaskState::AuthRequired, false, true),
    ] {
        assert_eq!((state.is_terminal(), state.is_interrupted()), (terminal, interrupted), "{state:?}");
        assert_eq!(TaskState::parse(state.as_str()), state);
    }
}
