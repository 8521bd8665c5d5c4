//! The context JS agents, callbacks and tools receive (`Context`, with its `state`).
//!
//! A context is lent for as long as its agent runs or its callback is called: JS keeps only a small
//! handle, and when the lease ends the invocation behind it (and the session it holds) is released
//! at once rather than whenever JS collects the handle. A handle used after that says so.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;

use super::convert::{from_js, from_js_core, from_js_within, promise, string_arg, to_js, to_js_core};
use super::external::{response_fields, send};
use super::to_js_error;
use crate::agent::llm::call_tool;
use crate::agent::CallbackContext;
use crate::auth::AuthConfig;
use crate::platform::abort::AbortBridge;
use crate::types::{JsonObject, Part};
use crate::{AdkError, ErrorCode};

/// What a lease lends: the context, and the signal bridged from its run once JS asked for it.
struct Lent {
    ctx: CallbackContext,
    abort: Option<AbortBridge>,
}

type Shared = Rc<RefCell<Option<Lent>>>;

/// What a JS agent, callback or tool sees of its invocation: ids, the user message, the session,
/// a writable `state`, artifacts and memory. State writes and saved artifacts go into the next
/// event the agent yields (or the callback's event).
#[wasm_bindgen(js_name = Context)]
pub struct JsContext {
    inner: Shared,
}

/// Ends a context's lease when dropped (and with it the signal's listener on the run).
pub struct Lease(Shared);

impl Drop for Lease {
    fn drop(&mut self) {
        self.0.lend_mut().take();
    }
}

impl JsContext {
    /// A handle on `inner` for JS, valid while the returned lease lives.
    pub fn lend(inner: CallbackContext) -> (JsValue, Lease) {
        let shared: Shared = Rc::new(RefCell::new(Some(Lent { ctx: inner, abort: None })));
        let handle = JsContext { inner: shared.clone() };
        (handle.into(), Lease(shared))
    }
}

fn lent(shared: &Shared) -> Result<CallbackContext, AdkError> {
    shared.lend().as_ref().map(|lent| lent.ctx.clone()).ok_or_else(ended)
}

fn ended() -> AdkError {
    AdkError::new(ErrorCode::FailedPrecondition, "this context belongs to an agent run or a callback that has ended")
}

/// An `AuthConfig` argument, checked as ADK reads one.
/// An `AuthConfig` argument of `what`, checked.
pub(crate) fn auth_config_arg(what: &str, value: &JsValue) -> Result<AuthConfig, JsValue> {
    let json: JsonObject = from_js(&format!("{what} authConfig"), value)?;
    AuthConfig::from_json(json).map_err(|e| to_js_error(AdkError::invalid(format!("{what}: {}", e.message))))
}

fn context(shared: &Shared) -> Result<CallbackContext, JsValue> {
    lent(shared).map_err(to_js_error)
}

impl JsContext {
    /// The context lent, for other exports that take one (`CredentialManager`).
    pub(crate) fn callback_context(&self) -> Result<CallbackContext, JsValue> {
        context(&self.inner)
    }

    /// Aborted when the run is stopped (AbortSignal, `break`, `cancel()`): pass it to your `fetch`es.
    fn abort_signal(&self) -> Result<web_sys::AbortSignal, JsValue> {
        let mut shared = self.inner.lend_mut();
        let lent = shared.as_mut().ok_or_else(|| to_js_error(ended()))?;
        let bridge = match lent.abort.take() {
            Some(bridge) => bridge,
            None => AbortBridge::new(&lent.ctx.invocation_context().invocation().cancellation).map_err(to_js_error)?,
        };
        let signal = bridge.signal();
        lent.abort = Some(bridge);
        Ok(signal)
    }
}

#[wasm_bindgen(js_class = Context)]
impl JsContext {
    /// What `Context`'s read-only members read, by number: one export instead of sixteen (each
    /// export costs a shim); index.js names them (`CONTEXT_READS`). `getSession()` and
    /// `getEvents()` copy the whole history, which is why they are methods; `variables` is the
    /// whole state as an object (the seeds' `variables`); `toolConfirmation` is the person's answer
    /// (`{hint, confirmed, payload}`) when a tool runs again after asking for approval, `undefined`
    /// otherwise; `state` (16) is the writable state, whose methods check the lease.
    pub fn read(&self, member: u32) -> Result<JsValue, JsValue> {
        match member {
            10 => return self.abort_signal().map(Into::into),
            16 => return Ok(JsState { inner: self.inner.clone() }.into()),
            _ => {}
        }
        let ctx = context(&self.inner)?;
        let text = |s: &str| Ok(JsValue::from_str(s));
        let optional = |s: Option<&str>| Ok(s.map_or(JsValue::UNDEFINED, JsValue::from_str));
        match member {
            0 => text(ctx.invocation_id()),
            1 => text(ctx.agent_name()),
            2 => optional(ctx.invocation_context().branch()),
            3 => optional(ctx.function_call_id()),
            4 => ctx.tool_confirmation().map_or(Ok(JsValue::UNDEFINED), |c| to_js(c)),
            5 => to_js(&ctx.user_content()),
            6 => text(&ctx.user_id()),
            7 => text(&ctx.session_id()),
            8 => to_js(&ctx.state().to_dict()),
            9 => Ok(ctx.invocation_context().end_invocation().into()),
            11 => ctx.invocation_context().with_session(|session| to_js(session)),
            12 => to_js(&ctx.events()),
            13 => to_js(&ctx.get_last_user_input()),
            14 => to_js(&ctx.get_last_agent_output()),
            _ => to_js(&ctx.parts()),
        }
    }

    /// The members that act, by number: one export instead of eleven (each export costs a shim);
    /// index.js names them (`Context.prototype`). The person asked: `requestConfirmation(options)`
    /// (ADK's `request_confirmation`: the run pauses on an `adk_request_confirmation` call, and the
    /// answer runs the tool again with `toolConfirmation`), `requestCredential(authConfig)` (an
    /// `adk_request_credential` call; once answered the tool runs again), `getAuthResponse(authConfig)`
    /// (the credential the person gave, or `undefined`); the runner's services:
    /// `saveCredential(authConfig)` and `loadCredential(authConfig)` (its credential service),
    /// `saveArtifact(filename, part)` → the version, recorded in the next event's `artifactDelta`,
    /// `loadArtifact(filename, version?)` → `Part | null`, `listArtifacts()`, `searchMemory(query)`;
    /// `callTool(name, args)` runs another tool of the agent by name and `requests.<method>(url,
    /// options)` sends an HTTP request stopped with the run, each → `{statusCode, reason, text}`
    /// (index.js wraps it in an `ExternalResponse`). The first five check their argument at once
    /// (a throw); the services' errors are rejections. And setting `endInvocation` (11, `a` the
    /// value as a whole number, as wasm reads a `bool` argument): non-zero stops this agent's run
    /// after the current event (ADK's `ctx.end_invocation = True`).
    pub fn act(&self, op: u32, a: JsValue, b: JsValue, c: JsValue) -> Result<JsValue, JsValue> {
        if op == 11 {
            context(&self.inner)?.invocation_context().set_end_invocation(a.as_f64() != Some(0.0));
            return Ok(JsValue::UNDEFINED);
        }
        const AUTH: [&str; 5] =
            ["requestConfirmation", "requestCredential", "getAuthResponse", "saveCredential", "loadCredential"];
        if op == 0 {
            return self.request_confirmation(a).map(|()| JsValue::UNDEFINED);
        }
        if let Some(what) = AUTH.get(op as usize) {
            let config = auth_config_arg(what, &a)?;
            let ctx = context(&self.inner)?;
            return match op {
                1 => ctx.request_credential(&config).map(|()| JsValue::UNDEFINED).map_err(to_js_error),
                2 => ctx.get_auth_response(&config).map_or(Ok(JsValue::UNDEFINED), |credential| to_js(&credential)),
                _ => Ok(promise(async move {
                    match op {
                        3 => ctx.save_credential(&config).await.map(|()| JsValue::UNDEFINED),
                        _ => ctx.load_credential(&config).await?.map_or(Ok(JsValue::UNDEFINED), |c| to_js_core(&c)),
                    }
                })
                .into()),
            };
        }
        // Each checks its context and arguments in the order it did as a method of its own.
        let ctx = lent(&self.inner);
        Ok(promise(async move {
            match op {
                5 => {
                    let ctx = ctx?;
                    let filename = string_arg("saveArtifact filename", &a)?;
                    let part: Part = from_js_within("artifact", &b, Limit::artifact_json())?;
                    Ok(JsValue::from_f64(ctx.save_artifact(&filename, part).await? as f64))
                }
                6 => {
                    let filename = string_arg("loadArtifact filename", &a)?;
                    // index.js gives a whole number or nothing, as wasm-bindgen's `Option<u32>` did.
                    let version = b.as_f64().map(|v| v as u64);
                    ctx?.load_artifact(&filename, version).await?.map_or(Ok(JsValue::NULL), |part| to_js_core(&part))
                }
                7 => to_js_core(&ctx?.list_artifacts().await?),
                8 => to_js_core(&ctx?.search_memory(&string_arg("searchMemory query", &a)?).await?),
                9 => {
                    let name = string_arg("callTool name", &a)?;
                    let args: JsonObject = if b.is_undefined() { JsonObject::new() } else { from_js_core("args", &b)? };
                    response_fields(&call_tool(&ctx?, &name, args).await)
                }
                _ => {
                    let (method, url) = (string_arg("request method", &a)?, string_arg("request url", &b)?);
                    let stop = ctx?.invocation_context().invocation().cancellation.clone();
                    send(&method, &url, &c, Some(stop)).await
                }
            }
        })
        .into())
    }
}

impl JsContext {
    /// `requestConfirmation(options)`: `hint` a string, `payload` any JSON.
    fn request_confirmation(&self, options: JsValue) -> Result<(), JsValue> {
        let mut options: JsonObject =
            if options.is_undefined() { JsonObject::new() } else { from_js("requestConfirmation options", &options)? };
        let hint = match options.get("hint") {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(serde_json::Value::String(hint)) => hint.clone(),
            Some(_) => return Err(to_js_error(AdkError::invalid("requestConfirmation: hint must be a string"))),
        };
        let payload = options.shift_remove("payload").filter(|p| !p.is_null());
        context(&self.inner)?.request_confirmation(&hint, payload).map_err(to_js_error)
    }
}

/// A state key given to `what`.
fn key_arg(what: &str, key: &JsValue) -> Result<String, JsValue> {
    string_arg(&format!("{what} key"), key).map_err(to_js_error)
}

/// The state seen through a context: `get`, `set`, `has`, `update`, `hasDelta`, `toObject`, and the
/// seeds' `getVariable`, `setVariable`, `removeVariable` of `Context`.
#[wasm_bindgen(js_name = State)]
pub struct JsState {
    inner: Shared,
}

#[wasm_bindgen(js_class = State)]
impl JsState {
    /// The state's methods by number: one export instead of nine (each export costs a shim);
    /// index.js names them on `State` and, for the seeds' variables, on `Context`. `arg` is the
    /// key, or `update`'s delta; `value` is `set`'s value and `getVariable`'s default (given back
    /// for a missing or null key). `removeVariable` sets the key to null.
    pub fn op(&self, op: u32, arg: JsValue, value: JsValue) -> Result<JsValue, JsValue> {
        const NAMES: [&str; 9] =
            ["state.get", "state.set", "state.has", "", "", "", "getVariable", "setVariable", "removeVariable"];
        let name = NAMES.get(op as usize).copied().unwrap_or_default();
        // The key is checked before the context, as the methods each did; `has` after it.
        let key = match op {
            2..=5 => String::new(),
            _ => key_arg(name, &arg)?,
        };
        let ctx = context(&self.inner)?;
        let state = ctx.state();
        match op {
            0 => state.get(&key).map_or(Ok(JsValue::UNDEFINED), |v| to_js(&v)),
            1 => {
                state.set(&key, from_js("state value", &value)?);
                Ok(JsValue::UNDEFINED)
            }
            2 => Ok(state.contains(&key_arg(name, &arg)?).into()),
            3 => {
                state.update(from_js("state delta", &arg)?);
                Ok(JsValue::UNDEFINED)
            }
            4 => Ok(state.has_delta().into()),
            5 => to_js(&state.to_dict()),
            6 => state.get(&key).filter(|v| !v.is_null()).map_or(Ok(value), |v| to_js(&v)),
            7 => {
                ctx.set_variable(&key, from_js("value", &value)?);
                Ok(JsValue::UNDEFINED)
            }
            _ => {
                ctx.remove_variable(&key);
                Ok(JsValue::UNDEFINED)
            }
        }
    }
}
