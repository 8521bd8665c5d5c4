//! The pause for a credential and the resume after it (ADK 2.x's `generate_auth_event` and its
//! auth request processor): a tool that asked becomes an `adk_request_credential` call of the
//! agent, which ends the invocation; the person's answer is stored for the rest of the next
//! invocation, and the tools that asked run again.

use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use super::confirmation::{answers, branch_of, on_branch};
use super::functions::asking_for_credentials;
use super::toolset_auth::TOOLSET_AUTH_PREFIX;
use crate::agent::InvocationContext;
use crate::agents::calls_in;
use crate::auth::{credential_in_answer, oauth2, stored_form, AuthConfig, REQUEST_CREDENTIAL};
use crate::types::{FunctionCall, JsonObject};
use crate::{AdkError, Event};

/// The event asking the person for each credential the tools of `response` asked for,
/// with the role of the response event. `None` when nothing asked.
pub(super) fn request_event(ctx: &InvocationContext, response: &Event) -> Option<Event> {
    let role = response.content.as_ref().and_then(|c| c.role.as_deref()).unwrap_or_default();
    asking_for_credentials(ctx, role, response.actions.requested_auth_configs.as_slice())
}

/// A credential the person gave, for the config the agent asked with; `mine` when this agent asked.
struct Answered {
    requested: AuthConfig,
    credential: JsonObject,
    mine: bool,
}

/// The calls to run again with the credentials the person's last message gave, and those
/// credentials.
fn plan(events: &[&Event], me: &str) -> (Vec<FunctionCall>, Vec<Answered>) {
    // The last event with content must be the person's, answering credential requests.
    let Some(last) = events.iter().rev().find(|e| e.content.is_some()) else { return (Vec::new(), Vec::new()) };
    if last.author != "user" {
        return (Vec::new(), Vec::new());
    }
    let mut answers: Vec<(&str, &JsonObject)> = Vec::new();
    for r in last.get_function_responses() {
        if let (true, Some(id), Some(body)) = (r.name.as_deref() == Some(REQUEST_CREDENTIAL), &r.id, &r.response) {
            answers.push((id, body));
        }
    }
    if answers.is_empty() {
        return (Vec::new(), Vec::new());
    }
    // Only what this session asked for is taken: the request as the agent wrote it, not as the
    // answer repeats it.
    let mut to_resume: Vec<String> = Vec::new();
    let mut authorized: Vec<String> = Vec::new();
    let mut answered: Vec<Answered> = Vec::new();
    for (event, call) in calls_in(events) {
        if call.name.as_deref() != Some(REQUEST_CREDENTIAL) {
            continue;
        }
        let Some((_, answer)) = answers.iter().find(|(id, _)| call.id.as_deref() == Some(*id)) else { continue };
        let args = call.args.as_ref();
        let Some(Value::String(original)) = args.and_then(|a| a.get("functionCallId")) else { continue };
        let Some(Value::Object(config)) = args.and_then(|a| a.get("authConfig")) else { continue };
        let Ok(requested) = AuthConfig::from_json(config.clone()) else { continue };
        if let Some(credential) = credential_in_answer(answer) {
            authorized.push(requested.credential_key().to_string());
            let credential = requested.with_configured_client(completed(credential, &requested), true);
            answered.push(Answered { requested, credential, mine: event.author == me });
        }
        // A toolset's credential resumes no call: its tools are listed with it next.
        if !original.starts_with(TOOLSET_AUTH_PREFIX) {
            to_resume.push(original.clone());
        }
    }
    // Other calls that asked for a credential now given run again too.
    for event in events {
        let asked = &event.actions.requested_auth_configs;
        if asked.keys().any(|id| to_resume.contains(id)) {
            for (id, config) in asked {
                let key = config.get("credentialKey").and_then(Value::as_str).unwrap_or_default();
                if authorized.iter().any(|k| k == key) && !to_resume.contains(id) {
                    to_resume.push(id.clone());
                }
            }
        }
    }
    if to_resume.is_empty() {
        return (Vec::new(), answered);
    }
    // The agent's latest event with one of those calls (before the answer itself).
    let before_answer = events.len().saturating_sub(1);
    for event in events.iter().take(before_answer).rev() {
        let calls = event.get_function_calls();
        if !calls.iter().any(|c| c.id.as_ref().is_some_and(|id| to_resume.contains(id))) {
            continue;
        }
        if event.author != me {
            continue;
        }
        let mut resumed = Vec::new();
        for call in calls {
            if call.id.as_ref().is_some_and(|id| to_resume.contains(id)) {
                resumed.push(call.clone());
            }
        }
        return (resumed, answered);
    }
    (Vec::new(), answered)
}

/// The OAuth2 fields the answer left out, from what the agent asked with: the client, the
/// redirect URI and the PKCE verifier (ADK's `_merge_credential_oauth2_fields`). The `state` is
/// always the one the agent generated, so the exchange checks the authorization response against
/// the sign-in the agent started, not against whatever the answer claims (ADK pins it the same
/// way for workflow nodes).
fn completed(mut credential: JsonObject, requested: &AuthConfig) -> JsonObject {
    let source = requested.exchanged_credential().or(requested.raw_credential());
    let Some(Value::Object(source)) = source.and_then(|s| s.get("oauth2")) else { return credential };
    let Some(Value::Object(oauth2)) = credential.get_mut("oauth2") else { return credential };
    if let Some(state) = source.get("state") {
        oauth2.insert("state".into(), state.clone());
    }
    for field in
        ["clientId", "clientSecret", "redirectUri", "codeVerifier", "codeChallengeMethod", "tokenEndpointAuthMethod"]
    {
        if oauth2.get(field).is_none_or(Value::is_null) {
            if let Some(value) = source.get(field) {
                oauth2.insert(field.into(), value.clone());
            }
        }
    }
    credential
}

/// Stores the credentials the person's last message gave, before toolsets are listed with them;
/// the calls that asked for them, to run again before the next model call (ADK's auth request
/// processor). Boxed: awaited once a step by the agent's loop.
pub(super) fn take_answers(ctx: &InvocationContext) -> LocalBoxFuture<'_, Result<Vec<FunctionCall>, AdkError>> {
    Box::pin(store_answers(ctx))
}

async fn store_answers(ctx: &InvocationContext) -> Result<Vec<FunctionCall>, AdkError> {
    // Read in place, as the confirmations are: the plan owns what it keeps, so the session is
    // free again before storing the answer writes to it. Most steps have no answer to read: the
    // last event with content is looked at first, from the end.
    let (calls, answered) = ctx.with_session(|s| {
        let branch_events = || s.events.iter().filter(|e| on_branch(e, ctx.branch()));
        let last = branch_events().rev().find(|e| e.content.is_some());
        if !last.is_some_and(|e| e.author == "user" && answers(e, REQUEST_CREDENTIAL)) {
            return (Vec::new(), Vec::new());
        }
        plan(&branch_of(&s.events, ctx.branch()), ctx.agent_name())
    });
    let invocation = ctx.invocation();
    for Answered { requested, mut credential, mine } in answered {
        // ADK exchanges a public client's code when the tool reads it (`get_auth_response`), which
        // blocks; here it is exchanged now, before the tool runs again. Only a sign-in this agent
        // started with PKCE, as it does for a client without a secret: the request the person saw
        // has no secret, so a confidential client's code is left to `CredentialManager`, which
        // holds the tool's own config. A failed exchange keeps the credential as it came, as ADK
        // does.
        let pkce = credential.get("oauth2").and_then(|o| o.get("codeVerifier")).is_some_and(Value::is_string);
        if let Some(http) = invocation.http_client.as_ref().filter(|_| mine && pkce) {
            if oauth2::is_exchangeable(requested.auth_scheme(), &credential, true) {
                let scheme = requested.auth_scheme();
                let _ = oauth2::exchange(&**http, scheme, &mut credential, invocation.cancellation.clone()).await;
            }
        }
        ctx.put_unrecorded_state(&format!("temp:{}", requested.credential_key()), stored_form(credential));
    }
    Ok(calls)
}
