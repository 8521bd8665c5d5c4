//! Agent cards: v1.0 and v0.3 keys, the interface choice, discovery.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects

mod common;

use std::rc::Rc;

use adk_wasm::a2a::{card_url, A2aClient, A2aClientOptions, AgentCard, Binding, Endpoint, ProtocolVersion};
use adk_wasm::ErrorCode;
use common::a2a::{card, fixture_text};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;

fn endpoint(url: &str, binding: Binding, version: ProtocolVersion) -> Endpoint {
    Endpoint { url: url.into(), binding, version, tenant: String::new() }
}

const RPC: &str = "http://127.0.0.1:18931/rpc";
const REST: &str = "http://127.0.0.1:18931/rest";

#[test]
fn recorded_card_offers_both_versions_and_bindings_once_each() {
    let card = card();
    assert_eq!(card.name, "echo");
    assert_eq!(card.capabilities.streaming, Some(true));
    assert_eq!(card.skills[0].id, "echo");
    // a2a-sdk merges the v0.3 keys into the v1.0 card; they name the same two endpoints again.
    assert_eq!(card.url.as_deref(), Some(RPC));
    assert_eq!(
        card.endpoints(),
        [
            endpoint(RPC, Binding::JsonRpc, ProtocolVersion::V1_0),
            endpoint(REST, Binding::HttpJson, ProtocolVersion::V1_0),
            endpoint(RPC, Binding::JsonRpc, ProtocolVersion::V0_3),
            endpoint(REST, Binding::HttpJson, ProtocolVersion::V0_3),
        ]
    );
}

#[test]
fn choice_prefers_1_0_then_json_rpc_and_honours_forcing() {
    let card = card();
    let choose = |b, v| card.choose_endpoint(b, v).unwrap();
    assert_eq!(choose(None, None), endpoint(RPC, Binding::JsonRpc, ProtocolVersion::V1_0));
    assert_eq!(choose(Some(Binding::HttpJson), None), endpoint(REST, Binding::HttpJson, ProtocolVersion::V1_0));
    assert_eq!(choose(None, Some(ProtocolVersion::V0_3)), endpoint(RPC, Binding::JsonRpc, ProtocolVersion::V0_3));
    assert_eq!(
        choose(Some(Binding::HttpJson), Some(ProtocolVersion::V0_3)),
        endpoint(REST, Binding::HttpJson, ProtocolVersion::V0_3)
    );
}

#[test]
fn v0_3_only_card() {
    let card = AgentCard::from_json(
        r#"{"name":"old","description":"d","version":"1","protocolVersion":"0.3.0",
            "url":"https://a.example/rest","preferredTransport":"HTTP+JSON",
            "additionalInterfaces":[{"url":"https://a.example/grpc","transport":"GRPC"},
                                    {"url":"https://a.example/rpc","transport":"JSONRPC"}],
            "capabilities":{"streaming":true},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}"#,
    )
    .unwrap();
    assert_eq!(
        card.endpoints(),
        [
            endpoint("https://a.example/rest", Binding::HttpJson, ProtocolVersion::V0_3),
            endpoint("https://a.example/rpc", Binding::JsonRpc, ProtocolVersion::V0_3),
        ]
    );
    assert_eq!(card.choose_endpoint(None, None).unwrap().url, "https://a.example/rpc");
    let e = card.choose_endpoint(None, Some(ProtocolVersion::V1_0)).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unimplemented);
    assert!(e.message.contains("HTTP+JSON 0.3 at https://a.example/rest"), "{}", e.message);
}

#[test]
fn v0_3_card_without_preferred_transport_is_json_rpc() {
    let card = AgentCard::from_json(r#"{"name":"x","url":"https://a.example/","protocolVersion":"0.3.0"}"#).unwrap();
    assert_eq!(card.endpoints(), [endpoint("https://a.example/", Binding::JsonRpc, ProtocolVersion::V0_3)]);
}

#[test]
fn v1_0_card_with_only_grpc_or_future_versions_is_refused() {
    let card = AgentCard::from_json(
        r#"{"name":"x","supportedInterfaces":[
            {"url":"https://a.example","protocolBinding":"GRPC","protocolVersion":"1.0"},
            {"url":"https://a.example/v2","protocolBinding":"JSONRPC","protocolVersion":"2.0"}]}"#,
    )
    .unwrap();
    let e = card.choose_endpoint(None, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unimplemented);
    assert!(e.message.contains("usable: none"), "{}", e.message);
}

#[test]
fn unknown_keys_survive_a_round_trip() {
    let mut value: serde_json::Value = serde_json::from_str(&fixture_text("card.json")).unwrap();
    value["securitySchemes"] = serde_json::json!({"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}});
    value["capabilities"]["extensions"] = serde_json::json!([{"uri": "urn:x"}]);
    value["supportedInterfaces"][0]["tenant"] = "t1".into();
    let card: AgentCard = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&card).unwrap(), value);
}

#[test]
fn malformed_card_names_the_field() {
    let e = AgentCard::from_json(r#"{"name":"x","skills":[{"id":3}]}"#).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.contains("skills[0].id"), "{}", e.message);
}

#[test]
fn card_urls() {
    assert_eq!(card_url("https://a.example"), "https://a.example/.well-known/agent-card.json");
    assert_eq!(card_url("https://a.example/agent/"), "https://a.example/agent/.well-known/agent-card.json");
    assert_eq!(card_url("https://a.example/cards/x.json"), "https://a.example/cards/x.json");
    assert_eq!(card_url("https://a.example/.well-known/agent.json"), "https://a.example/.well-known/agent.json");
}

#[test]
fn discovery_fetches_the_well_known_card_with_headers_and_interceptor() {
    let http = ReplayClient::new([Reply::json(200, &fixture_text("card.json"))]);
    let options = A2aClientOptions {
        headers: vec![("X-Team".into(), "blue".into())],
        interceptor: Some(Rc::new(|r: &mut adk_wasm::http::HttpRequest| {
            r.headers.push(("Authorization".into(), "Bearer t0k".into()))
        })),
        ..Default::default()
    };
    let client = block_on(A2aClient::from_card_url("http://127.0.0.1:18931/", options, http.clone())).unwrap();
    let request = &http.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.url.as_str()),
        ("GET", "http://127.0.0.1:18931/.well-known/agent-card.json")
    );
    assert!(request.headers.contains(&("X-Team".into(), "blue".into())));
    assert!(request.headers.contains(&("Authorization".into(), "Bearer t0k".into())));
    assert_eq!(
        (client.protocol_version(), client.binding(), client.url()),
        (ProtocolVersion::V1_0, Binding::JsonRpc, RPC)
    );
    assert_eq!(client.card().name, "echo");
}

#[test]
fn discovery_errors() {
    let http = ReplayClient::new([Reply::new(404, "text/plain", b"no such agent")]);
    let e = block_on(A2aClient::from_card_url("https://a.example", A2aClientOptions::default(), http)).err().unwrap();
    assert_eq!((e.code, e.http_status), (ErrorCode::NotFound, Some(404)));
    assert!(e.message.contains("https://a.example/.well-known/agent-card.json") && e.message.contains("no such agent"));

    let http = ReplayClient::new([Reply::json(200, "<html>")]);
    let e = block_on(A2aClient::from_card_url("https://a.example", A2aClientOptions::default(), http)).err().unwrap();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.contains("not valid JSON"), "{}", e.message);
}

#[test]
fn a_fetched_card_may_only_aim_requests_at_its_own_origin() {
    // The recorded card names interfaces on 127.0.0.1:18931; read from another port, every one is
    // on another origin, so the client is refused before it sends anything there (ADK 2.13 alike).
    let http = ReplayClient::new([Reply::json(200, &fixture_text("card.json"))]);
    let e = block_on(A2aClient::from_card_url("http://127.0.0.1:9999/", A2aClientOptions::default(), http.clone()))
        .err()
        .unwrap();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.contains("another origin") && e.message.contains(RPC), "{}", e.message);
    assert_eq!(http.requests().len(), 1, "only the card was fetched");

    // The same card passed in directly is the caller's choice.
    let client = A2aClient::from_card(card(), A2aClientOptions::default(), ReplayClient::new([])).unwrap();
    assert_eq!(client.url(), RPC);
}

#[test]
fn a_card_is_fetched_over_https_or_from_a_loopback_host_only() {
    let http = ReplayClient::new([]);
    let e = block_on(A2aClient::from_card_url("http://192.168.1.5:8000", A2aClientOptions::default(), http.clone()))
        .err()
        .unwrap();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.contains("https") && e.message.contains("http://192.168.1.5:8000/.well-known"), "{}", e.message);
    assert!(http.requests().is_empty(), "nothing was sent");
}

/// An interface's tenant goes with every v1.0 request as a2a-sdk's client sends it: a member of the
/// JSON-RPC parameters (also of empty ones), the first segment of an HTTP+JSON path (escaped). 0.3
/// has no tenants.
#[test]
fn an_interfaces_tenant_is_named_in_every_v1_0_request() {
    let mut card = card();
    for interface in &mut card.supported_interfaces {
        interface.tenant = Some("acme/eu".into());
    }
    let tenants: Vec<_> = card.endpoints().into_iter().map(|e| (e.version, e.tenant)).collect();
    assert_eq!(tenants[..2], [(ProtocolVersion::V1_0, "acme/eu".into()), (ProtocolVersion::V1_0, "acme/eu".into())]);
    assert_eq!(tenants[2..], [(ProtocolVersion::V0_3, String::new()), (ProtocolVersion::V0_3, String::new())]);
    for (version, binding, prefix) in common::a2a::ALL {
        let options = common::a2a::options(version, binding);
        let replies = [Reply::json(200, &fixture_text(&format!("{prefix}-get.json")))];
        let http = ReplayClient::new(replies);
        let client = A2aClient::from_card(card.clone(), options, http.clone()).unwrap();
        let v1 = version == ProtocolVersion::V1_0;
        block_on(client.get_task("t/1", Some(1))).unwrap();
        match binding {
            Binding::JsonRpc if v1 => {
                assert_eq!(
                    http.body(0)["params"],
                    serde_json::json!({"tenant": "acme/eu", "id": "t/1", "historyLength": 1})
                )
            }
            Binding::JsonRpc => {
                assert_eq!(http.body(0)["params"], serde_json::json!({"id": "t/1", "historyLength": 1}))
            }
            Binding::HttpJson if v1 => {
                assert_eq!(http.requests()[0].url, format!("{REST}/acme%2Feu/tasks/t%2F1?historyLength=1"))
            }
            Binding::HttpJson => assert_eq!(http.requests()[0].url, format!("{REST}/v1/tasks/t%2F1?historyLength=1")),
        }
    }
    let options = common::a2a::options(ProtocolVersion::V1_0, Binding::JsonRpc);
    let http = ReplayClient::new([Reply::json(200, &fixture_text("v10-jsonrpc-list.json"))]);
    let client = A2aClient::from_card(card, options, http.clone()).unwrap();
    block_on(client.list_tasks(&Default::default())).unwrap();
    assert_eq!(http.body(0)["params"], serde_json::json!({"tenant": "acme/eu"}));
    // A null tenant is none, as a2a-sdk's protobuf reading takes it.
    let mut value: serde_json::Value = serde_json::from_str(&fixture_text("card.json")).unwrap();
    value["supportedInterfaces"][0]["tenant"] = serde_json::Value::Null;
    assert_eq!(AgentCard::from_json(&value.to_string()).unwrap().endpoints()[0].tenant, "");
}
