//! Helpers for the A2A client tests: the recorded a2a-sdk fixtures and a client over `ReplayClient`.

use std::rc::Rc;

use adk_wasm::a2a::{
    A2aClient, A2aClientOptions, A2aStream, AgentCard, ArtifactAssembler, Binding, Message, Part, ProtocolVersion,
    Role, SendMessageParams, StreamItem, StreamResponse, TaskState,
};
use adk_wasm::AdkError;
use futures::executor::block_on;
use futures_util::StreamExt;

use super::http::{ReplayClient, Reply};

/// The recorded file `name` in `tests/fixtures/a2a/`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/a2a/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn fixture_text(name: &str) -> String {
    String::from_utf8(fixture(name)).unwrap()
}

/// The recorded card (v1.0 and v0.3 keys, four interfaces).
pub fn card() -> AgentCard {
    AgentCard::from_json(&fixture_text("card.json")).unwrap()
}

/// Every {version × binding}, with the fixture name prefix a2a-sdk's answers were recorded under.
pub const ALL: [(ProtocolVersion, Binding, &str); 4] = [
    (ProtocolVersion::V1_0, Binding::JsonRpc, "v10-jsonrpc"),
    (ProtocolVersion::V0_3, Binding::JsonRpc, "v03-jsonrpc"),
    (ProtocolVersion::V1_0, Binding::HttpJson, "v10-rest"),
    (ProtocolVersion::V0_3, Binding::HttpJson, "v03-rest"),
];

pub fn options(version: ProtocolVersion, binding: Binding) -> A2aClientOptions {
    A2aClientOptions { protocol_version: Some(version), binding: Some(binding), ..Default::default() }
}

pub fn client_with(
    options: A2aClientOptions,
    replies: impl IntoIterator<Item = Reply>,
) -> (A2aClient, Rc<ReplayClient>) {
    let http = ReplayClient::new(replies);
    (A2aClient::from_card(card(), options, http.clone()).unwrap(), http)
}

pub fn client(
    version: ProtocolVersion,
    binding: Binding,
    replies: impl IntoIterator<Item = Reply>,
) -> (A2aClient, Rc<ReplayClient>) {
    client_with(options(version, binding), replies)
}

pub fn user_message(text: &str) -> SendMessageParams {
    SendMessageParams {
        message: Message {
            message_id: "m-1".into(),
            role: Role::User,
            parts: vec![Part::text(text)],
            ..Default::default()
        },
        ..Default::default()
    }
}

pub fn collect(stream: A2aStream) -> Vec<Result<StreamItem, AdkError>> {
    block_on(stream.collect::<Vec<_>>())
}

/// What a stream delivered, folded: the artifact text, the states in order, the resume markers.
#[derive(Debug, Default, PartialEq)]
pub struct Folded {
    pub text: String,
    pub states: Vec<TaskState>,
    pub resumed: Vec<u32>,
    pub error: Option<AdkError>,
}

pub fn fold(items: &[Result<StreamItem, AdkError>]) -> Folded {
    let mut assembler = ArtifactAssembler::new();
    let mut folded = Folded::default();
    for item in items {
        match item {
            Ok(StreamItem::Event(StreamResponse::Task(t))) => {
                folded.states.push(t.status.state.clone());
                for a in &t.artifacts {
                    assembler
                        .apply(&adk_wasm::a2a::TaskArtifactUpdateEvent { artifact: a.clone(), ..Default::default() });
                }
            }
            Ok(StreamItem::Event(StreamResponse::StatusUpdate(u))) => folded.states.push(u.status.state.clone()),
            Ok(StreamItem::Event(StreamResponse::ArtifactUpdate(u))) => {
                assembler.apply(u);
            }
            Ok(StreamItem::Event(StreamResponse::Message(_))) => {}
            Ok(StreamItem::Resumed { attempt }) => folded.resumed.push(*attempt),
            Err(e) => folded.error = Some(e.clone()),
        }
    }
    folded.text = assembler.text();
    folded
}
