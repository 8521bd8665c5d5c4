//! The memory services for JS: in memory, and in IndexedDB.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{database_name, from_js_core, promise, to_js_core};
use super::to_js_error;
use crate::memory::{InMemoryMemoryService, MemoryService};
use crate::platform::indexeddb::memory::IndexedDbMemoryService;
use crate::session::Session;
use crate::Event;

adk_core::json_struct! {
    struct SearchMemoryRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        query: String => "query" req,
    }
}

adk_core::json_struct! {
    struct AddEventsRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        events: Vec<Event> => "events" req,
        session_id: Option<String> => "sessionId" def,
    }
}

adk_core::json_struct! {
    struct DeleteMemoryRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        memory_id: String => "memoryId" req,
    }
}

/// Keyword memory kept in this page (`InMemoryMemoryService` of ADK).
#[wasm_bindgen(js_name = InMemoryMemoryService)]
pub struct JsInMemoryMemoryService {
    inner: Rc<InMemoryMemoryService>,
}

impl JsInMemoryMemoryService {
    /// The shared core service, for the runner.
    pub fn service(&self) -> Rc<InMemoryMemoryService> {
        self.inner.clone()
    }
}

impl Default for JsInMemoryMemoryService {
    fn default() -> Self {
        Self::new()
    }
}

/// The methods both memory services offer JS.
macro_rules! memory_service_methods {
    ($class:ident, $js:literal) => {
        #[wasm_bindgen(js_class = $js)]
        impl $class {
            /// `addSessionToMemory(session)`: remembers the session's events that have content, replacing
            /// what was remembered of that session before.
            #[wasm_bindgen(js_name = addSessionToMemory)]
            pub fn add_session_to_memory(&self, session: JsValue) -> js_sys::Promise {
                let inner = self.inner.clone();
                promise(async move {
                    let session: Session = from_js_core("session", &session)?;
                    inner.add_session_to_memory(&session).await?;
                    Ok(JsValue::UNDEFINED)
                })
            }

            /// `addEventsToMemory({appName, userId, events, sessionId?})`: adds events not remembered yet.
            #[wasm_bindgen(js_name = addEventsToMemory)]
            pub fn add_events_to_memory(&self, request: JsValue) -> js_sys::Promise {
                let inner = self.inner.clone();
                promise(async move {
                    let r: AddEventsRequest = from_js_core("addEventsToMemory request", &request)?;
                    inner.add_events_to_memory(&r.app_name, &r.user_id, &r.events, r.session_id.as_deref()).await?;
                    Ok(JsValue::UNDEFINED)
                })
            }

            /// `searchMemory({appName, userId, query})` → `Promise<{memories}>`, at most ten, best first.
            #[wasm_bindgen(js_name = searchMemory)]
            pub fn search_memory(&self, request: JsValue) -> js_sys::Promise {
                let inner = self.inner.clone();
                promise(async move {
                    let r: SearchMemoryRequest = from_js_core("searchMemory request", &request)?;
                    to_js_core(&inner.search_memory(&r.app_name, &r.user_id, &r.query).await?)
                })
            }

            /// `deleteMemory({appName, userId, memoryId})`: forgets a memory for good.
            #[wasm_bindgen(js_name = deleteMemory)]
            pub fn delete_memory(&self, request: JsValue) -> js_sys::Promise {
                let inner = self.inner.clone();
                promise(async move {
                    let r: DeleteMemoryRequest = from_js_core("deleteMemory request", &request)?;
                    inner.delete_memory(&r.app_name, &r.user_id, &r.memory_id).await?;
                    Ok(JsValue::UNDEFINED)
                })
            }
        }
    };
}

#[wasm_bindgen(js_class = InMemoryMemoryService)]
impl JsInMemoryMemoryService {
    /// An empty service.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        JsInMemoryMemoryService { inner: Rc::new(InMemoryMemoryService::new()) }
    }
}

memory_service_methods!(JsInMemoryMemoryService, "InMemoryMemoryService");

/// Keyword memory in this origin's IndexedDB (`databaseName`, shared with the other services):
/// kept across reloads.
#[wasm_bindgen(js_name = IndexedDbMemoryService)]
pub struct JsIndexedDbMemoryService {
    inner: Rc<IndexedDbMemoryService>,
}

impl JsIndexedDbMemoryService {
    /// The shared core service, for the runner.
    pub fn service(&self) -> Rc<IndexedDbMemoryService> {
        self.inner.clone()
    }
}

#[wasm_bindgen(js_class = IndexedDbMemoryService)]
impl JsIndexedDbMemoryService {
    /// `new IndexedDbMemoryService({databaseName?})` (default `adk-wasm`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsIndexedDbMemoryService, JsValue> {
        let name = database_name("IndexedDbMemoryService options", &options).map_err(to_js_error)?;
        Ok(JsIndexedDbMemoryService { inner: Rc::new(IndexedDbMemoryService::new(&name)) })
    }
}

memory_service_methods!(JsIndexedDbMemoryService, "IndexedDbMemoryService");
