//! `SessionService` for JS: one class over any session service (in memory, in IndexedDB, or
//! written in JS), as the runner and the page see it.

mod from_js;

use std::rc::Rc;

use adk_core::limits::Limit;
use wasm_bindgen::prelude::*;

use super::convert::{database_name, from_js_core, from_js_within, promise, prop, string_arg, to_js, to_js_core};
use super::sys::{JsSessionServiceObject, Protocol};
use super::to_js_error;
use crate::platform::indexeddb::{self, kv::IndexedDbStore};
use crate::session::{GetSessionConfig, InMemorySessionService, Session, SessionService, StoredSessionService};
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode, Event};

adk_core::json_struct! {
    struct CreateSessionRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        state: Option<JsonObject> => "state" opt,
        session_id: Option<String> => "sessionId" opt,
    }
}

adk_core::json_struct! {
    struct SessionKey {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        session_id: String => "sessionId" req,
        config: Option<GetSessionConfig> => "config" opt,
    }
}

adk_core::json_struct! {
    struct ListSessionsRequest {
        app_name: String => "appName" req,
        user_id: Option<String> => "userId" opt,
    }
}

adk_core::json_struct! {
    struct ListSessionsResponse {
        sessions: Vec<Session> => "sessions" req,
    }
}

/// The service's methods, by the number index.js calls `call` with (tests/api/check.mjs holds
/// index.js's list to this one); the numbers' names below.
const METHODS: [&str; 7] =
    ["createSession", "getSession", "listSessions", "deleteSession", "appendEvent", "exportSession", "importSession"];
const CREATE: u32 = 0;
const GET: u32 = 1;
const LIST: u32 = 2;
const DELETE: u32 = 3;
const APPEND: u32 = 4;
const EXPORT: u32 = 5;

/// Reads a string property, naming it in the error.
fn string_prop(object: &JsValue, name: &str, what: &str) -> Result<String, AdkError> {
    js_sys::Reflect::get(object, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.as_string())
        .ok_or_else(|| AdkError::invalid(format!("invalid {what}: {name}: expected a string")))
}

/// The session identity of a JS session object, read without copying its events.
fn session_identity(session: &JsValue) -> Result<Session, AdkError> {
    if !session.is_object() {
        return Err(AdkError::invalid("invalid appendEvent request: session: expected a session object"));
    }
    Ok(Session {
        id: string_prop(session, "id", "session")?,
        app_name: string_prop(session, "appName", "session")?,
        user_id: string_prop(session, "userId", "session")?,
        state: JsonObject::new(),
        events: Default::default(),
        // A session object without a time cannot be stale: services that check do not refuse it.
        last_update_time: js_sys::Reflect::get(session, &"lastUpdateTime".into())
            .ok()
            .and_then(|t| t.as_f64())
            .unwrap_or(f64::INFINITY),
    })
}

/// Whether `update_js_session` can write to the session object, its `events` and (when the event
/// changes state) its `state`.
fn extensible(session: &JsValue, with_state: bool) -> bool {
    let open =
        |value: &JsValue| !value.is_object() || js_sys::Object::is_extensible(value.unchecked_ref::<js_sys::Object>());
    open(session) && open(&prop(session, "events")) && (!with_state || open(&prop(session, "state")))
}

/// What ADK's `append_event` does to the caller's session object, done on the JS object in place:
/// the whole delta (`temp:` keys included) applied to `state`, the stored event pushed.
fn update_js_session(session: &JsValue, delta: &JsonObject, stored: &JsValue, timestamp: f64) -> Result<(), JsValue> {
    let state = js_sys::Reflect::get(session, &"state".into())?;
    let state = if state.is_object() {
        state
    } else {
        let fresh = js_sys::Object::new().into();
        js_sys::Reflect::set(session, &"state".into(), &fresh)?;
        fresh
    };
    for (key, value) in delta {
        js_sys::Reflect::set(&state, &JsValue::from_str(key), &to_js(value)?)?;
    }
    let events = js_sys::Reflect::get(session, &"events".into())?;
    match events.dyn_into::<js_sys::Array>() {
        Ok(events) => {
            events.push(stored);
        }
        Err(_) => {
            js_sys::Reflect::set(session, &"events".into(), &js_sys::Array::of1(stored))?;
        }
    }
    js_sys::Reflect::set(session, &"lastUpdateTime".into(), &JsValue::from_f64(timestamp))?;
    Ok(())
}

/// Sessions (ADK's `BaseSessionService`): `SessionService.inMemory()`,
/// `SessionService.indexedDb({databaseName?})` or `SessionService.fromJs(object)`.
#[wasm_bindgen(js_name = SessionService)]
pub struct SessionServiceHandle {
    inner: Rc<dyn SessionService>,
    /// The same service when it is IndexedDB's, which alone can import a session in one transaction.
    stored: Option<Rc<StoredSessionService<IndexedDbStore>>>,
}

impl SessionServiceHandle {
    /// The service, for the runner.
    pub fn service(&self) -> Rc<dyn SessionService> {
        self.inner.clone()
    }
}

#[wasm_bindgen(js_class = SessionService)]
impl SessionServiceHandle {
    /// A service by kind: kept in this page (0, `inMemory()`), in IndexedDB (1, `indexedDb(options)`)
    /// or written in JS (2, `fromJs(object)`); one export for the three (index.js names them), as
    /// each export costs a shim.
    pub fn make(kind: u32, value: JsValue) -> Result<SessionServiceHandle, JsValue> {
        match kind {
            0 => Ok(Self::in_memory()),
            1 => Self::indexed_db(value),
            _ => Self::from_js(value),
        }
    }
}

impl SessionServiceHandle {
    /// Sessions kept in this page (ADK's `InMemorySessionService`).
    fn in_memory() -> Self {
        SessionServiceHandle { inner: Rc::new(InMemorySessionService::new()), stored: None }
    }

    /// Sessions in this origin's IndexedDB (`databaseName`, default `adk-wasm`, so two apps of one
    /// origin can stay apart): kept across reloads; nothing is opened until the first call. Each
    /// `appendEvent` is one transaction; a session object that another tab appended to since it
    /// was read is refused with `FAILED_PRECONDITION`.
    fn indexed_db(options: JsValue) -> Result<SessionServiceHandle, JsValue> {
        let name = database_name("IndexedDbSessionService options", &options).map_err(to_js_error)?;
        let stored = Rc::new(StoredSessionService::new(IndexedDbStore::new(&name)));
        Ok(SessionServiceHandle { inner: stored.clone(), stored: Some(stored) })
    }

    /// A session service written in JS: any object with `createSession`, `getSession`,
    /// `listSessions`, `deleteSession` and `appendEvent` (`@google/adk`'s names), sync or async.
    /// Public for tests/web.rs.
    pub fn from_js(object: JsValue) -> Result<SessionServiceHandle, JsValue> {
        let object = JsSessionServiceObject::check(object).map_err(to_js_error)?;
        Ok(SessionServiceHandle { inner: Rc::new(from_js::JsSessionService::new(object)), stored: None })
    }
}

#[wasm_bindgen(js_class = SessionService)]
impl SessionServiceHandle {
    /// The methods index.js gives the class, by number ([`METHODS`]), in one export instead of one
    /// per method:
    /// `createSession({appName, userId, state?, sessionId?})` → `Session`;
    /// `getSession({appName, userId, sessionId, config?})` → `Session | null`;
    /// `listSessions({appName, userId?})` → `{sessions}`, without events, oldest first;
    /// `deleteSession({appName, userId, sessionId})`, a missing session not being an error;
    /// `appendEvent({session, event})` → the stored event, `session` updated in place as ADK does
    /// (state delta applied, event pushed; partial events are not stored);
    /// `exportSession({appName, userId, sessionId})` → the session, every event included, as ADK's
    /// session JSON (what an ADK server's `GET …/sessions/{id}` answers), or `null`;
    /// `importSession(session)` stores a session given as ADK's session JSON (text or object) in
    /// one transaction and resolves to it as `getSession` would return it (IndexedDB only).
    pub fn call(&self, method: u32, request: JsValue) -> js_sys::Promise {
        let (service, stored) = (self.inner.clone(), self.stored.clone());
        promise(async move {
            let label = format!("{} request", METHODS.get(method as usize).copied().unwrap_or_default());
            match method {
                CREATE => {
                    let r: CreateSessionRequest = from_js_core(&label, &request)?;
                    let session = service.create_session(&r.app_name, &r.user_id, r.state, r.session_id.as_deref());
                    to_js_core(&session.await?)
                }
                GET | EXPORT => {
                    let r: SessionKey = from_js_core(&label, &request)?;
                    let whole = method == EXPORT;
                    let config = if whole { None } else { r.config.as_ref() };
                    match service.get_session(&r.app_name, &r.user_id, &r.session_id, config).await? {
                        Some(session) if whole => Ok(JsValue::from_str(&adk_core::json::to_string(&session))),
                        Some(session) => to_js_core(&session),
                        None => Ok(JsValue::NULL),
                    }
                }
                LIST => {
                    let r: ListSessionsRequest = from_js_core(&label, &request)?;
                    let sessions = service.list_sessions(&r.app_name, r.user_id.as_deref()).await?;
                    to_js_core(&ListSessionsResponse { sessions })
                }
                DELETE => {
                    let r: SessionKey = from_js_core(&label, &request)?;
                    service.delete_session(&r.app_name, &r.user_id, &r.session_id).await?;
                    Ok(JsValue::UNDEFINED)
                }
                APPEND => append_event(&*service, &request).await,
                _ => import_session(stored, &request).await,
            }
        })
    }

    /// `SessionService.deleteDatabase(name)`: removes an IndexedDB database and everything in it
    /// (an app's "clear all data"); open services close their connection for it and reopen an empty
    /// database on their next call.
    #[wasm_bindgen(js_name = deleteDatabase)]
    pub fn delete_database(name: JsValue) -> js_sys::Promise {
        promise(async move {
            indexeddb::delete_database(&string_arg("deleteDatabase name", &name)?).await?;
            Ok(JsValue::UNDEFINED)
        })
    }
}

async fn import_session(
    stored: Option<Rc<StoredSessionService<IndexedDbStore>>>,
    session: &JsValue,
) -> Result<JsValue, AdkError> {
    let stored = stored.ok_or_else(|| {
        AdkError::new(ErrorCode::Unimplemented, "importSession: only the IndexedDB session service imports sessions")
    })?;
    let session: Session = match session.as_string() {
        Some(text) => adk_core::json::from_str("importSession session", &text)?,
        None => from_js_core("importSession session", session)?,
    };
    let id = stored.import_session(&session).await?;
    match stored.get_session(&session.app_name, &session.user_id, &id, None).await? {
        Some(session) => to_js_core(&session),
        None => Ok(JsValue::NULL),
    }
}

async fn append_event(service: &dyn SessionService, request: &JsValue) -> Result<JsValue, AdkError> {
    let session_js = js_sys::Reflect::get(request, &"session".into()).unwrap_or(JsValue::UNDEFINED);
    let event_js = js_sys::Reflect::get(request, &"event".into()).unwrap_or(JsValue::UNDEFINED);
    let mut session = session_identity(&session_js)?;
    let event: Event = from_js_within("event", &event_js, Limit::event())?;
    // The object is updated after the event is stored: one that cannot take it (not extensible:
    // frozen, as an Immer or Redux store keeps it) is refused first, so no event is stored
    // half-appended.
    if event.partial != Some(true) && !extensible(&session_js, !event.actions.state_delta.is_empty()) {
        return Err(AdkError::invalid("appendEvent: the session object cannot be changed (frozen?)"));
    }
    let delta = event.actions.state_delta.clone();
    let stored = service.append_event(&mut session, event).await?;
    let stored_js = to_js_core(&stored)?;
    if stored.partial != Some(true) {
        update_js_session(&session_js, &delta, &stored_js, stored.timestamp)
            .map_err(|_| AdkError::invalid("appendEvent: the session object could not be updated"))?;
    }
    Ok(stored_js)
}
