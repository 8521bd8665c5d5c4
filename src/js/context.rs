//! The context JS agents, callbacks and tools receive (`Context`, with its `state`).
//!
//! A context is lent for as long as its agent runs or its callback is called: JS keeps only a small
//! handle, and when the lease ends the invocation behind it (and the session it holds) is released
//! at once rather than whenever JS collects the handle. A handle used after that says so.

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
        self.0.borrow_mut().take();
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
    shared.borrow().as_ref().map(|lent| lent.ctx.clone()).ok_or_else(ended)
}

fn ended() -> AdkError {
    AdkError::new(ErrorCode::FailedPrecondition, "this context belongs to an agent run or a callback that has ended")
}

/// An `AuthConfig` argument, checked as ADK reads one.
/// An `AuthConfig` argument of `what`, checked.
pub(crate) fn auth_config_arg(what: &str, value: &JsValue) -> Result<AuthConfig, JsValue> {
    let json: JsonObject = from_js(&[what, " authConfig"].concat(), value)?;
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
        let mut shared = self.inner.borrow_mut();
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
    /// Asks the person to approve this tool call (ADK's `request_confirmation`): the run pauses on an
    /// `adk_request_confirmation` call, and the answer runs the tool again with `toolConfirmation`.
    #[wasm_bindgen(js_name = requestConfirmation)]
    pub fn request_confirmation(&self, options: JsValue) -> Result<(), JsValue> {
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

    /// Asks the person for the credential `authConfig` describes (ADK's `request_credential`): the
    /// run pauses on an `adk_request_credential` call; once answered the tool runs again and
    /// `getAuthResponse` finds the credential.
    #[wasm_bindgen(js_name = requestCredential)]
    pub fn request_credential(&self, auth_config: JsValue) -> Result<(), JsValue> {
        let config = auth_config_arg("requestCredential", &auth_config)?;
        context(&self.inner)?.request_credential(&config).map_err(to_js_error)
    }

    /// The credential the person gave for `authConfig`, or `undefined` (ADK's `get_auth_response`).
    #[wasm_bindgen(js_name = getAuthResponse)]
    pub fn get_auth_response(&self, auth_config: JsValue) -> Result<JsValue, JsValue> {
        let config = auth_config_arg("getAuthResponse", &auth_config)?;
        match context(&self.inner)?.get_auth_response(&config) {
            Some(credential) => to_js(&credential),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Saves `authConfig`'s `exchangedAuthCredential` in the runner's credential service (ADK's
    /// `save_credential`).
    #[wasm_bindgen(js_name = saveCredential)]
    pub fn save_credential(&self, auth_config: JsValue) -> Result<js_sys::Promise, JsValue> {
        let config = auth_config_arg("saveCredential", &auth_config)?;
        let ctx = context(&self.inner)?;
        Ok(promise(async move { ctx.save_credential(&config).await.map(|()| JsValue::UNDEFINED) }))
    }

    /// The credential the runner's credential service holds for `authConfig`, or `undefined`
    /// (ADK's `load_credential`).
    #[wasm_bindgen(js_name = loadCredential)]
    pub fn load_credential(&self, auth_config: JsValue) -> Result<js_sys::Promise, JsValue> {
        let config = auth_config_arg("loadCredential", &auth_config)?;
        let ctx = context(&self.inner)?;
        Ok(promise(async move {
            match ctx.load_credential(&config).await? {
                Some(credential) => to_js_core(&credential),
                None => Ok(JsValue::UNDEFINED),
            }
        }))
    }

    /// The writable state.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> JsState {
        JsState { inner: self.inner.clone() }
    }

    /// What `Context`'s read-only members read, by number: one export instead of sixteen (each
    /// export costs a shim); index.js names them (`CONTEXT_READS`). `getSession()` and
    /// `getEvents()` copy the whole history, which is why they are methods; `variables` is the
    /// whole state as an object (the seeds' `variables`); `toolConfirmation` is the person's answer
    /// (`{hint, confirmed, payload}`) when a tool runs again after asking for approval, `undefined`
    /// otherwise.
    pub fn read(&self, member: u32) -> Result<JsValue, JsValue> {
        if member == 10 {
            return self.abort_signal().map(Into::into);
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

    /// Sets `endInvocation`: `true` stops this agent's run after the current event (ADK's
    /// `ctx.end_invocation = True`).
    #[wasm_bindgen(js_name = setEndInvocation)]
    pub fn set_end_invocation(&self, end: bool) -> Result<(), JsValue> {
        context(&self.inner)?.invocation_context().set_end_invocation(end);
        Ok(())
    }

    /// The seeds' `get_variable(key, default)`.
    #[wasm_bindgen(js_name = getVariable)]
    pub fn get_variable(&self, key: &JsValue, default_value: JsValue) -> Result<JsValue, JsValue> {
        let key = key_arg("getVariable", key)?;
        match context(&self.inner)?.state().get(&key).filter(|v| !v.is_null()) {
            Some(v) => to_js(&v),
            None => Ok(default_value),
        }
    }

    /// The seeds' `set_variable(key, value)`.
    #[wasm_bindgen(js_name = setVariable)]
    pub fn set_variable(&self, key: &JsValue, value: JsValue) -> Result<(), JsValue> {
        let key = key_arg("setVariable", key)?;
        context(&self.inner)?.set_variable(&key, from_js("value", &value)?);
        Ok(())
    }

    /// The seeds' `remove_variable(key)`: sets the key to null, which `getVariable` reads as missing.
    #[wasm_bindgen(js_name = removeVariable)]
    pub fn remove_variable(&self, key: &JsValue) -> Result<(), JsValue> {
        let key = key_arg("removeVariable", key)?;
        context(&self.inner)?.remove_variable(&key);
        Ok(())
    }

    /// `saveArtifact(filename, part)` → `Promise<number>`; recorded in the next event's `artifactDelta`.
    #[wasm_bindgen(js_name = saveArtifact)]
    pub fn save_artifact(&self, filename: JsValue, artifact: JsValue) -> js_sys::Promise {
        let ctx = lent(&self.inner);
        promise(async move {
            let ctx = ctx?;
            let filename = string_arg("saveArtifact filename", &filename)?;
            let part: Part = from_js_within("artifact", &artifact, Limit::artifact_json())?;
            Ok(JsValue::from_f64(ctx.save_artifact(&filename, part).await? as f64))
        })
    }

    /// `loadArtifact(filename, version?)` → `Promise<Part | null>`.
    #[wasm_bindgen(js_name = loadArtifact)]
    pub fn load_artifact(&self, filename: JsValue, version: Option<u32>) -> js_sys::Promise {
        let ctx = lent(&self.inner);
        promise(async move {
            let filename = string_arg("loadArtifact filename", &filename)?;
            match ctx?.load_artifact(&filename, version.map(u64::from)).await? {
                Some(part) => to_js_core(&part),
                None => Ok(JsValue::NULL),
            }
        })
    }

    /// `listArtifacts()` → `Promise<string[]>`.
    #[wasm_bindgen(js_name = listArtifacts)]
    pub fn list_artifacts(&self) -> js_sys::Promise {
        let ctx = lent(&self.inner);
        promise(async move { to_js_core(&ctx?.list_artifacts().await?) })
    }

    /// `searchMemory(query)` → `Promise<{memories}>`.
    #[wasm_bindgen(js_name = searchMemory)]
    pub fn search_memory(&self, query: JsValue) -> js_sys::Promise {
        let ctx = lent(&self.inner);
        promise(async move { to_js_core(&ctx?.search_memory(&string_arg("searchMemory query", &query)?).await?) })
    }

    /// Runs another tool of the agent by name → `Promise<{statusCode, reason, text}>`
    /// (`callTool` and `tools.<name>` in index.js wrap it in an `ExternalResponse`).
    #[wasm_bindgen(js_name = callToolFields)]
    pub fn call_tool_fields(&self, name: JsValue, args: JsValue) -> js_sys::Promise {
        let ctx = lent(&self.inner);
        promise(async move {
            let name = string_arg("callTool name", &name)?;
            let args: JsonObject = if args.is_undefined() { JsonObject::new() } else { from_js_core("args", &args)? };
            response_fields(&call_tool(&ctx?, &name, args).await)
        })
    }

    /// An HTTP request stopped with the run → `Promise<{statusCode, reason, text}>` (`requests` in
    /// index.js).
    #[wasm_bindgen(js_name = requestFields)]
    pub fn request_fields(&self, method: JsValue, url: JsValue, options: JsValue) -> js_sys::Promise {
        let ctx = lent(&self.inner);
        promise(async move {
            let (method, url) = (string_arg("request method", &method)?, string_arg("request url", &url)?);
            let stop = ctx?.invocation_context().invocation().cancellation.clone();
            send(&method, &url, &options, Some(stop)).await
        })
    }
}

/// A state key given to `what`.
fn key_arg(what: &str, key: &JsValue) -> Result<String, JsValue> {
    string_arg(&format!("{what} key"), key).map_err(to_js_error)
}

/// The state seen through a context: `get`, `set`, `has`, `update`, `toObject`.
#[wasm_bindgen(js_name = State)]
pub struct JsState {
    inner: Shared,
}

#[wasm_bindgen(js_class = State)]
impl JsState {
    /// The value of `key`, or `undefined`.
    pub fn get(&self, key: &JsValue) -> Result<JsValue, JsValue> {
        let key = key_arg("state.get", key)?;
        match context(&self.inner)?.state().get(&key) {
            Some(v) => to_js(&v),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Writes `key` (any JSON value); visible at once, recorded for the next event.
    pub fn set(&self, key: &JsValue, value: JsValue) -> Result<(), JsValue> {
        let key = key_arg("state.set", key)?;
        context(&self.inner)?.state().set(&key, from_js("state value", &value)?);
        Ok(())
    }

    /// Whether `key` has a value.
    pub fn has(&self, key: &JsValue) -> Result<bool, JsValue> {
        Ok(context(&self.inner)?.state().contains(&key_arg("state.has", key)?))
    }

    /// Writes every key of `delta`.
    pub fn update(&self, delta: JsValue) -> Result<(), JsValue> {
        context(&self.inner)?.state().update(from_js("state delta", &delta)?);
        Ok(())
    }

    /// Whether there are writes not yet in an event.
    #[wasm_bindgen(js_name = hasDelta)]
    pub fn has_delta(&self) -> Result<bool, JsValue> {
        Ok(context(&self.inner)?.state().has_delta())
    }

    /// The whole state as a plain object.
    #[wasm_bindgen(js_name = toObject)]
    pub fn to_object(&self) -> Result<JsValue, JsValue> {
        to_js(&context(&self.inner)?.state().to_dict())
    }
}
