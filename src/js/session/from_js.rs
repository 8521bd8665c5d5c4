//! A session service written in JS, as the runner's `SessionService`.
//!
//! What crosses is the request and what changes. The session objects the service hands out are
//! kept by id, with what was read of them: `appendEvent` gets back the service's own object (which
//! it may update in place, as ADK services do), never a copy of the history, and a session the
//! service hands out again as the same object is read as the append-only log it is (its state,
//! its time and the events after those already read), so a run costs what it adds, not what the
//! session holds. The event crosses once, and the event the service answers is read back only when
//! it is another object or the service changed it. Kept as lent, it is recorded as the JSON text it
//! was lent as, which the run hands JS: an event costs wasm one encoding.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use async_trait::async_trait;
use wasm_bindgen::{JsCast, JsValue};

use crate::js::convert::{from_js_core, object, prop, to_js_core};
use crate::js::in_place::InPlace;
use crate::js::sys::{append_event, ask, JsSessionServiceObject, Protocol};
use crate::platform::interop::answer_of;
use crate::session::{event_text, trim_temp_delta, GetSessionConfig, Recorded, Session, SessionService};
use crate::types::JsonObject;
use crate::{AdkError, Event};

/// A session's identity: app, user, id.
type Key = (String, String, String);

/// The JS object behind a `SessionService.fromJs`, and the session objects it handed out (a list
/// rather than a hashed map: a page holds few sessions, and a map type per value is more code to
/// download).
pub struct JsSessionService {
    object: JsSessionServiceObject,
    sessions: RefCell<Vec<(Key, Known)>>,
}

/// A session object the service handed out, and what was read of it (its events shared with the
/// copies handed to runs).
#[derive(Clone)]
struct Known {
    js: JsValue,
    read: Session,
}

impl JsSessionService {
    /// Over an object that has the protocol's methods.
    pub fn new(object: JsSessionServiceObject) -> Self {
        JsSessionService { object, sessions: RefCell::new(Vec::new()) }
    }

    /// The object's `method(req)`, answered.
    async fn ask(&self, method: &str, req: &JsValue) -> Result<JsValue, AdkError> {
        ask(&self.object, JsSessionServiceObject::NAME, method, req).await
    }

    /// The session object kept for `key`, with what was read of it, when it is `js` (only then copied).
    fn known(&self, key: &Key, js: &JsValue) -> Option<Known> {
        self.sessions.lend().iter().find(|(k, known)| k == key && known.js == *js).map(|(_, known)| known.clone())
    }

    /// Forgets the session object kept for `key`.
    fn forget(&self, key: &Key) {
        let mut sessions = self.sessions.lend_mut();
        if let Some(i) = sessions.iter().position(|(k, _)| k == key) {
            sessions.swap_remove(i);
        }
    }

    fn remember(&self, session: &Session, js: &JsValue) {
        let key = (session.app_name.clone(), session.user_id.clone(), session.id.clone());
        self.forget(&key);
        self.sessions.lend_mut().push((key, Known { js: js.clone(), read: session.clone() }));
    }

    /// `js`, the whole session the service answered: read in full, or, when it is an object
    /// already read, only what changed since (`None` when it is not that log any more).
    fn read_again(&self, key: &Key, js: &JsValue) -> Result<Option<Session>, AdkError> {
        let Some(known) = self.known(key, js) else {
            return Ok(None);
        };
        let Ok(events) = prop(js, "events").dyn_into::<js_sys::Array>() else {
            return Ok(None);
        };
        let read = known.read.events.len() as u32;
        if events.length() < read {
            return Ok(None);
        }
        let added: Vec<Event> =
            from_js_core("events of the session returned by getSession", &events.slice(read, events.length()))?;
        // Its state and time are read on their own: stringifying the session would copy the history.
        let state = prop(js, "state");
        let mut session = known.read;
        session.state = if state.is_undefined() {
            JsonObject::new()
        } else {
            from_js_core("state of the session returned by getSession", &state)?
        };
        for event in added {
            session.record_event(event);
        }
        session.last_update_time = prop(js, "lastUpdateTime").as_f64().unwrap_or_default();
        Ok(Some(session))
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
        let js = self.ask("createSession", &req).await?;
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
        // A filtered session (`config`) is not the whole log: read in full, and not kept.
        let whole = config.is_none();
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
        let js = self.ask("getSession", &req).await?;
        if js.is_null() || js.is_undefined() {
            return Ok(None);
        }
        let key = (app_name.to_string(), user_id.to_string(), session_id.to_string());
        let again = if whole { self.read_again(&key, &js)? } else { None };
        let session = match again {
            Some(session) => session,
            None => from_js_core("session returned by getSession", &js)?,
        };
        if whole {
            self.remember(&session, &js);
        }
        Ok(Some(session))
    }

    async fn list_sessions(&self, app_name: &str, user_id: Option<&str>) -> Result<Vec<Session>, AdkError> {
        let req = object(&[("appName", app_name.into()), ("userId", opt(user_id))]);
        let js = self.ask("listSessions", &req).await?;
        Ok(from_js_core::<super::ListSessionsResponse>("listSessions response", &js)?.sessions)
    }

    async fn delete_session(&self, app_name: &str, user_id: &str, session_id: &str) -> Result<(), AdkError> {
        let req = object(&[("appName", app_name.into()), ("userId", user_id.into()), ("sessionId", session_id.into())]);
        self.ask("deleteSession", &req).await?;
        self.forget(&(app_name.to_string(), user_id.to_string(), session_id.to_string()));
        Ok(())
    }

    async fn append_event(&self, session: &mut Session, event: Event) -> Result<Event, AdkError> {
        if event.partial == Some(true) {
            return Ok(event);
        }
        let cached = self.sessions.lend().iter().find_map(|((app, user, id), known)| {
            let this = *app == session.app_name && *user == session.user_id && *id == session.id;
            this.then(|| known.js.clone())
        });
        // A session this service did not hand out goes without its events: never a copy of the history.
        let session_js = match cached {
            Some(js) => js,
            None => to_js_core(&Session { events: Default::default(), ..session.clone() })?,
        };
        let text = event_text(&event);
        let lent = InPlace::from_text(&text)?;
        let called = append_event(&self.object, &session_js, &lent.js());
        let stored_js = answer_of("sessionService.appendEvent()", called).await?;
        session.apply_state_delta(&event.actions.state_delta);
        let answered = !stored_js.is_undefined() && !stored_js.is_null();
        let what = if answered { "event returned by appendEvent" } else { "event after appendEvent" };
        let (mut stored, mut kept) = if answered && stored_js != lent.js() {
            (from_js_core(what, &stored_js)?, false)
        } else if lent.unchanged(what)? {
            (event, true)
        } else {
            (from_js_core(what, &lent.js())?, false)
        };
        if !answered {
            // Nothing answered: the event as given, without temp: keys, is what was stored.
            let keys = stored.actions.state_delta.len();
            trim_temp_delta(&mut stored);
            kept &= keys == stored.actions.state_delta.len();
        }
        // Recorded as the in-memory service records it, as its JSON text (which the run hands JS)
        // but when big: kept as lent, the text it was lent as.
        let text = match kept {
            true => text,
            false => event_text(&stored),
        };
        session.record_shared(Rc::new(Recorded::of(&stored, text)), stored.timestamp);
        Ok(stored)
    }
}
