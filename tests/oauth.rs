//! OAuth2 sign-in for a tool, natively, against a token endpoint played by the test (the wire form
//! of the requests is what is checked here; tests/browser/oauth.html runs the same flows in
//! Chromium against a real OpenID provider): the authorization URL the agent asks with, the code
//! exchanged with the PKCE verifier before the tool runs again, the state checked, tokens kept out
//! of the stored events, and `CredentialManager` refreshing an expired token into the session's
//! state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::rc::Rc;

use adk_core::cancellation::Cancellation;
use adk_core::http::{query_params, HttpClient, HttpRequest, HttpResponse};
use adk_wasm::agent::{AgentCore, LlmAgent, LlmAgentConfig};
use adk_wasm::auth::{AuthConfig, CredentialManager, SessionStateCredentialService};
use adk_wasm::model::scripted::ScriptedTurn;
use adk_wasm::model::ScriptedModel;
use adk_wasm::runner::{RunConfig, Runner};
use adk_wasm::tool::{FunctionTool, ToolFunction};
use adk_wasm::types::{Content, FunctionResponse, JsonObject, Part};
use adk_wasm::{AdkError, Event, LlmResponse};
use async_trait::async_trait;
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

/// A token endpoint: records each form it is sent and answers the next scripted body.
#[derive(Default)]
struct TokenEndpoint {
    forms: RefCell<Vec<Vec<(String, String)>>>,
    answers: RefCell<Vec<(u16, Value)>>,
}

#[async_trait(?Send)]
impl HttpClient for TokenEndpoint {
    async fn send(&self, request: HttpRequest, _: Rc<Cancellation>) -> Result<HttpResponse, AdkError> {
        assert_eq!((request.method.as_str(), request.url.as_str()), ("POST", "http://idp.test/token"));
        assert!(request.headers.contains(&("Content-Type".into(), "application/x-www-form-urlencoded".into())));
        self.forms.borrow_mut().push(query_params(&format!("?{}", request.body.unwrap())));
        let (status, body) = self.answers.borrow_mut().remove(0);
        let chunks: Vec<Result<Vec<u8>, AdkError>> = vec![Ok(body.to_string().into_bytes())];
        Ok(HttpResponse { status, headers: vec![], body: Box::pin(futures::stream::iter(chunks)) })
    }
}

fn form_value<'a>(form: &'a [(String, String)], key: &str) -> Option<&'a str> {
    form.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// A public browser client of `http://idp.test`, as a page configures it: no secret.
fn mail_auth() -> AuthConfig {
    client_auth(None)
}

fn client_auth(secret: Option<&str>) -> AuthConfig {
    let mut oauth2 = json!({"clientId": "page", "redirectUri": "http://app.test/cb"});
    if let Some(secret) = secret {
        oauth2["clientSecret"] = secret.into();
    }
    AuthConfig::from_json(
        json!({
            "authScheme": {"type": "oauth2", "flows": {"authorizationCode": {
                "authorizationUrl": "http://idp.test/auth", "tokenUrl": "http://idp.test/token",
                "scopes": {"openid": "", "mail.read": ""}}}},
            "rawAuthCredential": {"authType": "oauth2", "oauth2": oauth2},
        })
        .as_object()
        .cloned()
        .unwrap(),
    )
    .unwrap()
}

fn turn(parts: Vec<Part>) -> ScriptedTurn {
    ScriptedTurn::Response(Box::new(LlmResponse::from_parts(parts)))
}

/// A mail agent whose `read_mail` needs the person's token, over `endpoint`; the tokens its tool
/// was given (it tells the model only whether it has one).
fn mail_runner(endpoint: Rc<TokenEndpoint>) -> (Runner, Rc<RefCell<Vec<Value>>>) {
    mail_runner_with(endpoint, mail_auth)
}

fn mail_runner_with(endpoint: Rc<TokenEndpoint>, auth: fn() -> AuthConfig) -> (Runner, Rc<RefCell<Vec<Value>>>) {
    let tokens = Rc::new(RefCell::new(Vec::new()));
    let given = tokens.clone();
    let run: ToolFunction = Rc::new(move |_args, ctx| {
        let given = given.clone();
        Box::pin(async move {
            match ctx.get_auth_response(&auth()) {
                Some(credential) => {
                    let token = credential["oauth2"].get("accessToken").cloned().unwrap_or(Value::Null);
                    given.borrow_mut().push(token.clone());
                    Ok(json!({"signed_in": !token.is_null()}))
                }
                None => {
                    ctx.request_credential(&auth())?;
                    Ok(json!({"pending": true}))
                }
            }
        })
    });
    let tool = FunctionTool::new("read_mail", "Reads mail.", None, run);
    let turns =
        vec![turn(vec![Part::from_function_call("read_mail", JsonObject::new())]), turn(vec![Part::from_text("done")])];
    let mut config = LlmAgentConfig::new(Rc::new(ScriptedModel::new(turns)));
    config.tools = vec![Rc::new(tool).into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("mailer", "").unwrap(), config));
    (Runner::in_memory("app", agent).with_http_client(endpoint).with_auto_create_session(true), tokens)
}

fn run(runner: &Runner, message: Content) -> Vec<Event> {
    let events = runner.run_async("user", "s", message, None, RunConfig::default());
    block_on(events.collect::<Vec<_>>()).into_iter().collect::<Result<_, _>>().unwrap()
}

/// The sign-in the agent asked for: the call id and its auth config.
fn asked(events: &[Event]) -> (String, JsonObject) {
    let call = events
        .iter()
        .flat_map(|e| e.get_function_calls())
        .find(|c| c.name.as_deref() == Some("adk_request_credential"))
        .expect("the agent asks for a sign-in")
        .clone();
    (call.id.unwrap(), call.args.unwrap()["authConfig"].as_object().cloned().unwrap())
}

/// What a page sends back after the redirect (adk-web's answer): the auth config with the
/// redirect's URL.
fn redirected(id: &str, config: &JsonObject, response_uri: &str) -> Content {
    let mut config = config.clone();
    config["exchangedAuthCredential"]["oauth2"]["authResponseUri"] = response_uri.into();
    let response = FunctionResponse {
        id: Some(id.into()),
        name: Some("adk_request_credential".into()),
        response: Some(config),
        ..Default::default()
    };
    Content::new("user", vec![Part { function_response: Some(response), ..Default::default() }])
}

fn tool_result(events: &[Event]) -> Value {
    let response =
        events.iter().flat_map(|e| e.get_function_responses()).find(|r| r.name.as_deref() == Some("read_mail"));
    Value::Object(response.unwrap().response.clone().unwrap())
}

#[test]
fn the_code_is_exchanged_with_the_pkce_verifier_and_the_token_stays_out_of_the_events() {
    let endpoint = Rc::new(TokenEndpoint::default());
    endpoint.answers.borrow_mut().push((
        200,
        json!({"access_token": "AT-secret", "refresh_token": "RT-secret", "expires_in": 3600, "token_type": "Bearer"}),
    ));
    let (runner, tokens) = mail_runner(endpoint.clone());
    let (id, config) = asked(&run(&runner, Content::new("user", vec![Part::from_text("any mail?")])));
    let oauth2 = config["exchangedAuthCredential"]["oauth2"].as_object().unwrap();
    let uri = oauth2["authUri"].as_str().unwrap();
    let params = query_params(uri);
    assert!(uri.starts_with("http://idp.test/auth?response_type=code&client_id=page&redirect_uri="), "{uri}");
    assert_eq!(form_value(&params, "scope"), Some("openid mail.read"));
    assert_eq!(form_value(&params, "state"), oauth2["state"].as_str());
    assert_eq!(form_value(&params, "code_challenge_method"), Some("S256"));
    let verifier = oauth2["codeVerifier"].as_str().unwrap();
    assert_eq!(verifier.len(), 48);

    let state = oauth2["state"].as_str().unwrap();
    let events = run(&runner, redirected(&id, &config, &format!("http://app.test/cb?code=C-1&state={state}")));
    let forms = endpoint.forms.borrow();
    assert_eq!(forms.len(), 1);
    for (key, value) in [
        ("grant_type", "authorization_code"),
        ("code", "C-1"),
        ("redirect_uri", "http://app.test/cb"),
        ("code_verifier", verifier),
        ("client_id", "page"),
    ] {
        assert_eq!(form_value(&forms[0], key), Some(value), "{key}");
    }
    assert_eq!(tool_result(&events), json!({"signed_in": true}));
    assert_eq!(*tokens.borrow(), [json!("AT-secret")]);
    // The tokens went to the tool, not into the stored history.
    let session = block_on(runner.session_service().get_session("app", "user", "s", None)).unwrap().unwrap();
    let stored = adk_core::json::to_string(&Value::Array(
        session.events.iter().map(|event| adk_core::json::to_value(event)).collect(),
    ));
    assert!(!stored.contains("AT-secret") && !stored.contains("RT-secret"));
}

#[test]
fn a_redirect_with_another_state_is_not_exchanged() {
    let endpoint = Rc::new(TokenEndpoint::default());
    let (runner, tokens) = mail_runner(endpoint.clone());
    let (id, mut config) = asked(&run(&runner, Content::new("user", vec![Part::from_text("any mail?")])));
    // The answer even claims the forged state as its own: the agent checks against the one it made.
    config["exchangedAuthCredential"]["oauth2"]["state"] = "forged".into();
    let events = run(&runner, redirected(&id, &config, "http://app.test/cb?code=C-1&state=forged"));
    assert!(endpoint.forms.borrow().is_empty());
    assert_eq!(tool_result(&events), json!({"signed_in": false}));
    assert_eq!(*tokens.borrow(), [Value::Null]);
}

#[test]
fn the_credential_manager_refreshes_an_expired_token_into_session_state() {
    let endpoint = Rc::new(TokenEndpoint::default());
    endpoint.answers.borrow_mut().push((200, json!({"access_token": "AT-2", "expires_in": 3600})));
    let manager = Rc::new(CredentialManager::new(mail_auth()));
    let key = mail_auth().credential_key().to_string();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let (m, s) = (manager.clone(), seen.clone());
    let run_tool: ToolFunction = Rc::new(move |_args, ctx| {
        let (manager, seen) = (m.clone(), s.clone());
        Box::pin(async move {
            let credential = manager.get_auth_credential(&ctx).await?;
            seen.borrow_mut().push(credential.clone());
            Ok(json!({"ok": credential.is_some()}))
        })
    });
    let tool = FunctionTool::new("read_mail", "Reads mail.", None, run_tool);
    let turns =
        vec![turn(vec![Part::from_function_call("read_mail", JsonObject::new())]), turn(vec![Part::from_text("done")])];
    let mut config = LlmAgentConfig::new(Rc::new(ScriptedModel::new(turns)));
    config.tools = vec![Rc::new(tool).into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("mailer", "").unwrap(), config));
    let runner = Runner::in_memory("app", agent)
        .with_http_client(endpoint.clone())
        .with_credential_service(Rc::new(SessionStateCredentialService::new()));
    // A token saved by an earlier sign-in, expired an hour ago.
    let expired = json!({"authType": "oauth2", "oauth2": {"clientId": "page", "accessToken": "AT-1", "refreshToken": "RT-1",
        "expiresAt": adk_core::platform::now_seconds() as i64 - 3600}});
    block_on(runner.session_service().create_session(
        "app",
        "user",
        Some(JsonObject::from_iter([(key.clone(), expired)])),
        Some("s"),
    ))
    .unwrap();
    run(&runner, Content::new("user", vec![Part::from_text("any mail?")]));
    let forms = endpoint.forms.borrow();
    assert_eq!(form_value(&forms[0], "grant_type"), Some("refresh_token"));
    assert_eq!(form_value(&forms[0], "refresh_token"), Some("RT-1"));
    let got = seen.borrow()[0].clone().unwrap();
    assert_eq!(got["oauth2"]["accessToken"], "AT-2");
    // authlib keeps the refresh token a refresh response leaves out.
    assert_eq!(got["oauth2"]["refreshToken"], "RT-1");
    let session = block_on(runner.session_service().get_session("app", "user", "s", None)).unwrap().unwrap();
    assert_eq!(session.state[&key]["oauth2"]["accessToken"], "AT-2");
}

#[test]
fn a_refused_code_leaves_the_credential_unexchanged_and_the_run_goes_on() {
    // ADK: a failed exchange keeps the credential as it came; the tool finds no token.
    let endpoint = Rc::new(TokenEndpoint::default());
    endpoint.answers.borrow_mut().push((400, json!({"error": "invalid_grant", "error_description": "code expired"})));
    let (runner, tokens) = mail_runner(endpoint.clone());
    let (id, config) = asked(&run(&runner, Content::new("user", vec![Part::from_text("any mail?")])));
    let state = config["exchangedAuthCredential"]["oauth2"]["state"].as_str().unwrap().to_string();
    let events = run(&runner, redirected(&id, &config, &format!("http://app.test/cb?code=old&state={state}")));
    assert_eq!(endpoint.forms.borrow().len(), 1);
    assert_eq!(tool_result(&events), json!({"signed_in": false}));
    assert_eq!(*tokens.borrow(), [Value::Null]);
    assert_eq!(events.last().unwrap().content.as_ref().unwrap().parts()[0].text.as_deref(), Some("done"));
}

#[test]
fn a_confidential_clients_code_is_left_to_the_credential_manager() {
    // The request the person saw has no secret; without PKCE (ADK adds it only for a client
    // without a secret) the agent does not try the code at the token endpoint on its own.
    let endpoint = Rc::new(TokenEndpoint::default());
    let (runner, tokens) = mail_runner_with(endpoint.clone(), || client_auth(Some("s3cret")));
    let (id, config) = asked(&run(&runner, Content::new("user", vec![Part::from_text("any mail?")])));
    let oauth2 = config["exchangedAuthCredential"]["oauth2"].as_object().unwrap();
    assert!(oauth2.get("codeVerifier").is_none() && oauth2.get("clientSecret").is_none(), "{oauth2:?}");
    let state = oauth2["state"].as_str().unwrap().to_string();
    let events = run(&runner, redirected(&id, &config, &format!("http://app.test/cb?code=C-1&state={state}")));
    assert!(endpoint.forms.borrow().is_empty());
    assert_eq!(tool_result(&events), json!({"signed_in": false}));
    assert_eq!(*tokens.borrow(), [Value::Null]);
}
