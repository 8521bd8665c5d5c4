//! `InMemorySessionService` for JS, and a JS object acting as the session service.

use std::cell::RefCell;
use std::rc::Rc;

use adk_core::limits::Limit;
use async_trait::async_trait;
use indexmap::IndexMap;
use wasm_bindgen::prelude::*;

use super::convert::{
    call_method, database_name, from_js_core, from_js_within, method_of, object, promise, string_arg, to_js, to_js_core,
};
use super::to_js_error;
use crate::platform::indexeddb::{self, sessions::IndexedDbSessionService};
use crate::session::{trim_temp_delta, GetSessionConfig, InMemorySessionService, Session, SessionService};
use crate::types::JsonObject;
use crate::{AdkError, Event};

adk_core::json_struct! {
    struct CreateSessionRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        state: Option<JsonObject> => "state" def,
        session_id: Option<String> => "sessionId" def,
    }
}

adk_core::json_struct! {
    struct SessionKey {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        session_id: String => "sessionId" req,
        config: Option<GetSessionConfig> => "config" def,
    }
}

adk_core::json_struct! {
    struct ListSessionsRequest {
        app_name: String => "appName" req,
        user_id: Option<String> => "userId" def,
    }
}

adk_core::json_struct! {
    struct ListSessionsResponse {
        sessions: Vec<Session> => "sessions" req,
    }
}

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

/// Sessions kept in this page's memory (`InMemorySessionService` of ADK).
#[wasm_bindgen(js_name = InMemorySessionService)]
pub struct JsInMemorySessionService {
    inner: Rc<InMemorySessionService>,
}

impl JsInMemorySessionService {
    /// The shared core service, for the runner.
    pub fn service(&self) -> Rc<InMemorySessionService> {
        self.inner.clone()
    }
}

impl Default for JsInMemorySessionService {
    fn default() -> Self {
        Self::new()
    }
}

/// The methods both session services offer JS, each handing the request to the shared function of
/// the same name.
macro_rules! session_service_methods {
    ($class:ident, $js:literal) => {
        #[wasm_bindgen(js_class = $js)]
        impl $class {
            /// `createSession({appName, userId, state?, sessionId?})` → `Promise<Session>`.
            #[wasm_bindgen(js_name = createSession)]
            pub fn create_session(&self, request: JsValue) -> js_sys::Promise {
                create_session(self.inner.clone(), request)
            }

            /// `getSession({appName, userId, sessionId, config?})` → `Promise<Session | null>`.
            #[wasm_bindgen(js_name = getSession)]
            pub fn get_session(&self, request: JsValue) -> js_sys::Promise {
                get_session(self.inner.clone(), request)
            }

            /// `listSessions({appName, userId?})` → `Promise<{sessions}>`, without events, oldest first.
            #[wasm_bindgen(js_name = listSessions)]
            pub fn list_sessions(&self, request: JsValue) -> js_sys::Promise {
                list_sessions(self.inner.clone(), request)
            }

            /// `deleteSession({appName, userId, sessionId})`; a missing session is not an error.
            #[wasm_bindgen(js_name = deleteSession)]
            pub fn delete_session(&self, request: JsValue) -> js_sys::Promise {
                delete_session(self.inner.clone(), request)
            }

            /// `appendEvent({session, event})` → `Promise<Event>`: stores the event and updates
            /// `session` in place as ADK does (state delta applied, event pushed). Partial events
            /// are not stored.
            #[wasm_bindgen(js_name = appendEvent)]
            pub fn append_event(&self, request: JsValue) -> js_sys::Promise {
                append_event(self.inner.clone(), request)
            }
        }
    };
}

#[wasm_bindgen(js_class = InMemorySessionService)]
impl JsInMemorySessionService {
    /// An empty service.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        JsInMemorySessionService { inner: Rc::new(InMemorySessionService::new()) }
    }
}

session_service_methods!(JsInMemorySessionService, "InMemorySessionService");

/// Sessions in this origin's IndexedDB (`databaseName`, default `adk-wasm`): kept across reloads.
/// Each `appendEvent` is one transaction; a session object that another tab appended to since it
/// was read is refused with `FAILED_PRECONDITION`.
#[wasm_bindgen(js_name = IndexedDbSessionService)]
pub struct JsIndexedDbSessionService {
    inner: Rc<IndexedDbSessionService>,
}

impl JsIndexedDbSessionService {
    /// The shared core service, for the runner.
    pub fn service(&self) -> Rc<IndexedDbSessionService> {
        self.inner.clone()
    }
}

#[wasm_bindgen(js_class = IndexedDbSessionService)]
impl JsIndexedDbSessionService {
    /// `new IndexedDbSessionService({databaseName?})`: a service over that database (default
    /// `adk-wasm`, so two apps of one origin can stay apart); nothing is opened until the first call.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsIndexedDbSessionService, JsValue> {
        let name = database_name("IndexedDbSessionService options", &options).map_err(to_js_error)?;
        Ok(JsIndexedDbSessionService { inner: Rc::new(IndexedDbSessionService::new(&name)) })
    }

    /// `exportSession({appName, userId, sessionId})` → `Promise<string | null>`: the session, every
    /// event included, as ADK's session JSON (what an ADK server's `GET …/sessions/{id}` answers).
    #[wasm_bindgen(js_name = exportSession)]
    pub fn export_session(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r: SessionKey = from_js_core("exportSession request", &request)?;
            match inner.get_session(&r.app_name, &r.user_id, &r.session_id, None).await? {
                Some(session) => Ok(JsValue::from_str(&adk_core::json::to_string(&session))),
                None => Ok(JsValue::NULL),
            }
        })
    }

    /// `importSession(session)`: stores a session given as ADK's session JSON (text or object), in
    /// one transaction, and resolves to it as `getSession` would return it.
    #[wasm_bindgen(js_name = importSession)]
    pub fn import_session(&self, session: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let session: Session = match session.as_string() {
                Some(text) => adk_core::json::from_str("importSession session", &text)?,
                None => from_js_core("importSession session", &session)?,
            };
            let id = inner.import_session(&session).await?;
            match inner.get_session(&session.app_name, &session.user_id, &id, None).await? {
                Some(stored) => to_js_core(&stored),
                None => Ok(JsValue::NULL),
            }
        })
    }

    /// `IndexedDbSessionService.deleteDatabase(name)`: removes the database and everything in it
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

session_service_methods!(JsIndexedDbSessionService, "IndexedDbSessionService");

fn create_session(service: Rc<dyn SessionService>, request: JsValue) -> js_sys::Promise {
    promise(async move {
        let r: CreateSessionRequest = from_js_core("createSession request", &request)?;
        to_js_core(&service.create_session(&r.app_name, &r.user_id, r.state, r.session_id.as_deref()).await?)
    })
}

fn get_session(service: Rc<dyn SessionService>, request: JsValue) -> js_sys::Promise {
    promise(async move {
        let r: SessionKey = from_js_core("getSession request", &request)?;
        match service.get_session(&r.app_name, &r.user_id, &r.session_id, r.config.as_ref()).await? {
            Some(session) => to_js_core(&session),
            None => Ok(JsValue::NULL),
        }
    })
}

fn list_sessions(service: Rc<dyn SessionService>, request: JsValue) -> js_sys::Promise {
    promise(async move {
        let r: ListSessionsRequest = from_js_core("listSessions request", &request)?;
        let sessions = service.list_sessions(&r.app_name, r.user_id.as_deref()).await?;
        to_js_core(&ListSessionsResponse { sessions })
    })
}

fn delete_session(service: Rc<dyn SessionService>, request: JsValue) -> js_sys::Promise {
    promise(async move {
        let r: SessionKey = from_js_core("deleteSession request", &request)?;
        service.delete_session(&r.app_name, &r.user_id, &r.session_id).await?;
        Ok(JsValue::UNDEFINED)
    })
}

fn append_event(service: Rc<dyn SessionService>, request: JsValue) -> js_sys::Promise {
    promise(async move {
        let session_js = js_sys::Reflect::get(&request, &"session".into()).unwrap_or(JsValue::UNDEFINED);
        let event_js = js_sys::Reflect::get(&request, &"event".into()).unwrap_or(JsValue::UNDEFINED);
        let mut session = session_identity(&session_js)?;
        let event: Event = from_js_within("event", &event_js, Limit::event())?;
        let delta = event.actions.state_delta.clone();
        let stored = service.append_event(&mut session, event).await?;
        let stored_js = to_js_core(&stored)?;
        if stored.partial != Some(true) {
            update_js_session(&session_js, &delta, &stored_js, stored.timestamp)
                .map_err(|_| AdkError::invalid("appendEvent: the session object could not be updated"))?;
        }
        Ok(stored_js)
    })
}

/// A session service written in JS: any object with ADK's method names
/// (`createSession`, `getSession`, `listSessions`, `deleteSession`, `appendEvent`), sync or async.
///
/// The JS session objects it returns are kept by id, so `appendEvent` hands the service back its own
/// object (which it may update in place, as ADK services do) without copying the history.
pub struct JsSessionService {
    object: JsValue,
    sessions: RefCell<IndexMap<(String, String, String), JsValue>>,
}

impl JsSessionService {
    /// Wraps `object`; fails unless it has all five methods.
    pub fn new(object: JsValue) -> Result<Self, AdkError> {
        for method in ["createSession", "getSession", "listSessions", "deleteSession", "appendEvent"] {
            if method_of(&object, method).is_none() {
                return Err(AdkError::invalid(format!("sessionService: missing method {method}()")));
            }
        }
        Ok(JsSessionService { object, sessions: RefCell::new(IndexMap::new()) })
    }

    async fn call(&self, method: &str, request: &JsValue) -> Result<JsValue, AdkError> {
        call_method(&self.object, method, std::slice::from_ref(request))
            .await
            .map_err(|e| AdkError::new(e.code, format!("sessionService.{method}(): {}", e.message)))
    }

    fn remember(&self, session: &Session, js: &JsValue) {
        let key = (session.app_name.clone(), session.user_id.clone(), session.id.clone());
        self.sessions.borrow_mut().insert(key, js.clone());
    }
}

fn opt(value: Option<&str>) -> JsValue {
    value.map_or(JsValue::UNDEFINED, JsValue::from_str)
}

#[async_trait(?Send)]
impl SessionService for JsSessionService {
    async fn create_session(
        &self,
        app_name: &str,
        user_id: &str,
        state: Option<JsonObject>,
        session_id: Option<&str>,
    ) -> Result<Session, AdkError> {
        let state = match state {
            Some(s) => to_js_core(&s)?,
            None => JsValue::UNDEFINED,
        };
        let req = object(&[
            ("appName", app_name.into()),
            ("userId", user_id.into()),
            ("state", state),
            ("sessionId", opt(session_id)),
        ]);
        let js = self.call("createSession", &req).await?;
        let session: Session = from_js_core("session returned by createSession", &js)?;
        self.remember(&session, &js);
        Ok(session)
    }

    async fn get_session(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: &str,
        config: Option<&GetSessionConfig>,
    ) -> Result<Option<Session>, AdkError> {
        let config = match config {
            Some(c) => to_js_core(c)?,
            None => JsValue::UNDEFINED,
        };
        let req = object(&[
            ("appName", app_name.into()),
            ("userId", user_id.into()),
            ("sessionId", session_id.into()),
            ("config", config),
        ]);
        let js = self.call("getSession", &req).await?;
        if js.is_null() || js.is_undefined() {
            return Ok(None);
        }
        let session: Session = from_js_core("session returned by getSession", &js)?;
        self.remember(&session, &js);
        Ok(Some(session))
    }

    async fn list_sessions(&self, app_name: &str, user_id: Option<&str>) -> Result<Vec<Session>, AdkError> {
        let js = self.call("listSessions", &object(&[("appName", app_name.into()), ("userId", opt(user_id))])).await?;
        adk_core::json_struct! {
                    struct Listed {
                sessions: Vec<Session> => "sessions" req,
            }
        }
        Ok(from_js_core::<Listed>("listSessions response", &js)?.sessions)
    }

    async fn delete_session(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<(), AdkError> {
        let req = object(&[("appName", app_name.into()), ("userId", user_id.into()), ("sessionId", session_id.into())]);
        self.call("deleteSession", &req).await?;
        self.sessions.borrow_mut().swap_remove(&(app_name.to_string(), user_id.to_string(), session_id.to_string()));
        Ok(())
    }

    async fn append_event(&self, session: &mut Session, event: Event) -> Result<Event, AdkError> {
        if event.partial == Some(true) {
            return Ok(event);
        }
        let key = (session.app_name.clone(), session.user_id.clone(), session.id.clone());
        let cached = self.sessions.borrow().get(&key).cloned();
        let session_js = match cached {
            Some(js) => js,
            None => to_js_core(session)?,
        };
        let req = object(&[("session", session_js), ("event", to_js_core(&event)?)]);
        let stored_js = self.call("appendEvent", &req).await?;
        session.apply_state_delta(&event.actions.state_delta);
        // A service may return nothing; the event as given, without temp: keys, is then what was stored.
        let stored = if stored_js.is_undefined() || stored_js.is_null() {
            let mut e = event;
            trim_temp_delta(&mut e);
            e
        } else {
            from_js_core("event returned by appendEvent", &stored_js)?
        };
        session.record_event(stored.clone());
        Ok(stored)
    }
}
