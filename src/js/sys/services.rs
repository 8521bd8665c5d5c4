//! The service protocols, with `@google/adk`'s method names: each method takes one request
//! object and answers a value or a Promise of one.

use wasm_bindgen::prelude::*;

use super::Protocol;

#[wasm_bindgen]
extern "C" {
    /// A session service written in JS (`BaseSessionService`).
    #[derive(Clone)]
    pub type JsSessionServiceObject;

    /// `createSession({appName, userId, state?, sessionId?})` → a session.
    #[wasm_bindgen(method, catch, js_name = createSession)]
    pub fn create_session(this: &JsSessionServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `getSession({appName, userId, sessionId, config?})` → a session or nothing.
    #[wasm_bindgen(method, catch, js_name = getSession)]
    pub fn get_session(this: &JsSessionServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `listSessions({appName, userId?})` → `{sessions}`.
    #[wasm_bindgen(method, catch, js_name = listSessions)]
    pub fn list_sessions(this: &JsSessionServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `deleteSession({appName, userId, sessionId})`.
    #[wasm_bindgen(method, catch, js_name = deleteSession)]
    pub fn delete_session(this: &JsSessionServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `appendEvent({session, event})` → the stored event, or nothing for "the event as given".
    #[wasm_bindgen(method, catch, js_name = appendEvent)]
    pub fn append_event(this: &JsSessionServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// A memory service written in JS (`BaseMemoryService`).
    #[derive(Clone)]
    pub type JsMemoryServiceObject;

    /// `addSessionToMemory(session)`.
    #[wasm_bindgen(method, catch, js_name = addSessionToMemory)]
    pub fn add_session_to_memory(this: &JsMemoryServiceObject, session: &JsValue) -> Result<JsValue, JsValue>;

    /// `searchMemory({appName, userId, query})` → `{memories}`.
    #[wasm_bindgen(method, catch, js_name = searchMemory)]
    pub fn search_memory(this: &JsMemoryServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// Optional: `addEventsToMemory({appName, userId, events, sessionId?})`.
    #[wasm_bindgen(method, catch, js_name = addEventsToMemory)]
    pub fn add_events_to_memory(this: &JsMemoryServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// Optional: `deleteMemory({appName, userId, memoryId})`.
    #[wasm_bindgen(method, catch, js_name = deleteMemory)]
    pub fn delete_memory(this: &JsMemoryServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// An artifact service written in JS (`BaseArtifactService`).
    #[derive(Clone)]
    pub type JsArtifactServiceObject;

    /// `saveArtifact({appName, userId, sessionId, filename, artifact, customMetadata?})` → the version.
    #[wasm_bindgen(method, catch, js_name = saveArtifact)]
    pub fn save_artifact(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `loadArtifact({appName, userId, sessionId, filename, version?})` → a part or nothing.
    #[wasm_bindgen(method, catch, js_name = loadArtifact)]
    pub fn load_artifact(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `listArtifactKeys({appName, userId, sessionId})` → file names.
    #[wasm_bindgen(method, catch, js_name = listArtifactKeys)]
    pub fn list_artifact_keys(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `deleteArtifact({appName, userId, sessionId, filename})`.
    #[wasm_bindgen(method, catch, js_name = deleteArtifact)]
    pub fn delete_artifact(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// `listVersions({appName, userId, sessionId, filename})` → version numbers.
    #[wasm_bindgen(method, catch, js_name = listVersions)]
    pub fn list_versions(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// Optional: `listArtifactVersions({…, filename})` → every version's metadata.
    #[wasm_bindgen(method, catch, js_name = listArtifactVersions)]
    pub fn list_artifact_versions(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;

    /// Optional: `getArtifactVersion({…, filename, version?})` → one version's metadata or nothing.
    #[wasm_bindgen(method, catch, js_name = getArtifactVersion)]
    pub fn get_artifact_version(this: &JsArtifactServiceObject, request: &JsValue) -> Result<JsValue, JsValue>;
}

impl Protocol for JsSessionServiceObject {
    const NAME: &'static str = "sessionService";
    const METHODS: &'static [&'static str] =
        &["createSession", "getSession", "listSessions", "deleteSession", "appendEvent"];
}

impl Protocol for JsMemoryServiceObject {
    const NAME: &'static str = "memoryService";
    const METHODS: &'static [&'static str] = &["addSessionToMemory", "searchMemory"];
}

impl Protocol for JsArtifactServiceObject {
    const NAME: &'static str = "artifactService";
    const METHODS: &'static [&'static str] =
        &["saveArtifact", "loadArtifact", "listArtifactKeys", "deleteArtifact", "listVersions"];
}
