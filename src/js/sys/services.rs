//! The service protocols, with `@google/adk`'s method names: each method takes one request
//! object and answers a value or a Promise of one. Their methods are called by name
//! ([`ask`]): one call path for all of them instead of one import each, but for a session
//! service's `appendEvent`, called for every event of a run ([`append_event`]).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::Protocol;
use crate::platform::interop::answer_of;
use crate::AdkError;

#[wasm_bindgen]
extern "C" {
    /// A session service written in JS (`BaseSessionService`).
    #[derive(Clone)]
    pub type JsSessionServiceObject;

    /// A memory service written in JS (`BaseMemoryService`).
    #[derive(Clone)]
    pub type JsMemoryServiceObject;

    /// An artifact service written in JS (`BaseArtifactService`).
    #[derive(Clone)]
    pub type JsArtifactServiceObject;
}

#[wasm_bindgen]
extern "C" {
    /// The request of a JS session service's `appendEvent`: `{session, event}`.
    #[wasm_bindgen(extends = js_sys::Object)]
    type AppendEventRequest;

    #[wasm_bindgen(method, setter = session, structural)]
    fn set_session(this: &AppendEventRequest, session: &JsValue);

    #[wasm_bindgen(method, setter = event, structural)]
    fn set_event(this: &AppendEventRequest, event: &JsValue);

    #[wasm_bindgen(method, js_name = appendEvent, structural, catch)]
    fn append_event_with(this: &JsSessionServiceObject, request: &AppendEventRequest) -> Result<JsValue, JsValue>;
}

/// `service.appendEvent({session, event})`, with its members and method named in the glue: the
/// call made for every event of a run, with no name crossing from wasm.
pub fn append_event(service: &JsSessionServiceObject, session: &JsValue, event: &JsValue) -> Result<JsValue, JsValue> {
    let request: AppendEventRequest = js_sys::Object::new().unchecked_into();
    request.set_session(session);
    request.set_event(event);
    service.append_event_with(&request)
}

/// `object.method(request)` (a service of protocol `name`), answered and awaited; a throw or a
/// rejection is an error whose message starts with `name.method()`.
pub async fn ask(object: &JsValue, name: &str, method: &str, request: &JsValue) -> Result<JsValue, AdkError> {
    let called = js_sys::Reflect::get(object, &JsValue::from_str(method))
        .and_then(|f| f.unchecked_ref::<js_sys::Function>().call1(object, request));
    answer_of(&format!("{name}.{method}()"), called).await
}

impl Protocol for JsSessionServiceObject {
    const NAME: &'static str = "sessionService";
    /// `createSession({appName, userId, state?, sessionId?})` → a session;
    /// `getSession({appName, userId, sessionId, config?})` → a session or nothing;
    /// `listSessions({appName, userId?})` → `{sessions}`; `deleteSession({appName, userId, sessionId})`;
    /// `appendEvent({session, event})` → the stored event, or nothing for "the event as given".
    const METHODS: &'static [&'static str] =
        &["createSession", "getSession", "listSessions", "deleteSession", "appendEvent"];
}

impl Protocol for JsMemoryServiceObject {
    const NAME: &'static str = "memoryService";
    /// `addSessionToMemory(session)`; `searchMemory({appName, userId, query})` → `{memories}`;
    /// optional: `addEventsToMemory({appName, userId, events, sessionId?})`,
    /// `deleteMemory({appName, userId, memoryId})`.
    const METHODS: &'static [&'static str] = &["addSessionToMemory", "searchMemory"];
}

impl Protocol for JsArtifactServiceObject {
    const NAME: &'static str = "artifactService";
    /// `saveArtifact({appName, userId, sessionId, filename, artifact, customMetadata?})` → the
    /// version; `loadArtifact({…, filename, version?})` → a part or nothing;
    /// `listArtifactKeys({appName, userId, sessionId})` → file names; `deleteArtifact({…, filename})`;
    /// `listVersions({…, filename})` → version numbers; optional: `listArtifactVersions({…,
    /// filename})` → every version's metadata, `getArtifactVersion({…, filename, version?})` → one
    /// version's metadata or nothing.
    const METHODS: &'static [&'static str] =
        &["saveArtifact", "loadArtifact", "listArtifactKeys", "deleteArtifact", "listVersions"];
}
