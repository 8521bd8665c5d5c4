//! `MemoryService` for JS: one class over any memory service (in memory, in IndexedDB, or
//! written in JS), as the runner and the page see it.

mod from_js;

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{database_name, from_js_core, promise, to_js_core};
use super::sys::{JsMemoryServiceObject, Protocol};
use super::to_js_error;
use crate::memory::{InMemoryMemoryService, MemoryService, StoredMemoryService};
use crate::platform::indexeddb::kv::IndexedDbStore;
use crate::session::Session;
use crate::Event;

/// The service's methods, by the number index.js calls `call` with (tests/api/check.mjs holds
/// index.js's list to this one); the numbers' names below.
const METHODS: [&str; 4] = ["addSessionToMemory", "addEventsToMemory", "searchMemory", "deleteMemory"];
const ADD_SESSION: u32 = 0;
const ADD_EVENTS: u32 = 1;
const SEARCH: u32 = 2;

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
        session_id: Option<String> => "sessionId" opt,
    }
}

adk_core::json_struct! {
    struct DeleteMemoryRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        memory_id: String => "memoryId" req,
    }
}

/// Memory (ADK's `BaseMemoryService`): `MemoryService.inMemory()`,
/// `MemoryService.indexedDb({databaseName?})` or `MemoryService.fromJs(object)`.
#[wasm_bindgen(js_name = MemoryService)]
pub struct MemoryServiceHandle {
    inner: Rc<dyn MemoryService>,
}

impl MemoryServiceHandle {
    /// The service, for the runner.
    pub fn service(&self) -> Rc<dyn MemoryService> {
        self.inner.clone()
    }
}

#[wasm_bindgen(js_class = MemoryService)]
impl MemoryServiceHandle {
    /// A service by kind: kept in this page (0, `inMemory()`), in IndexedDB (1, `indexedDb(options)`)
    /// or written in JS (2, `fromJs(object)`); one export for the three (index.js names them), as
    /// each export costs a shim.
    pub fn make(kind: u32, value: JsValue) -> Result<MemoryServiceHandle, JsValue> {
        match kind {
            0 => Ok(Self::in_memory()),
            1 => Self::indexed_db(value),
            _ => Self::from_js(value),
        }
    }
}

impl MemoryServiceHandle {
    /// Keyword memory kept in this page (ADK's `InMemoryMemoryService`).
    fn in_memory() -> Self {
        MemoryServiceHandle { inner: Rc::new(InMemoryMemoryService::new()) }
    }

    /// Keyword memory in this origin's IndexedDB (`databaseName`, default `adk-wasm`, shared with
    /// the other services): kept across reloads.
    fn indexed_db(options: JsValue) -> Result<MemoryServiceHandle, JsValue> {
        let name = database_name("IndexedDbMemoryService options", &options).map_err(to_js_error)?;
        Ok(MemoryServiceHandle { inner: Rc::new(StoredMemoryService::new(IndexedDbStore::new(&name))) })
    }

    /// A memory service written in JS: `addSessionToMemory(session)` and
    /// `searchMemory({appName, userId, query})` (and, if it has them, `addEventsToMemory`,
    /// `deleteMemory`), sync or async.
    fn from_js(object: JsValue) -> Result<MemoryServiceHandle, JsValue> {
        let object = JsMemoryServiceObject::check(object).map_err(to_js_error)?;
        Ok(MemoryServiceHandle { inner: Rc::new(from_js::JsMemoryService::new(object)) })
    }
}

#[wasm_bindgen(js_class = MemoryService)]
impl MemoryServiceHandle {
    /// The methods index.js gives the class, by number ([`METHODS`]), in one export instead of one
    /// per method:
    /// `addSessionToMemory(session)` remembers the session's events that have content, replacing
    /// what was remembered of that session before; `addEventsToMemory({appName, userId, events,
    /// sessionId?})` adds events not remembered yet; `searchMemory({appName, userId, query})` →
    /// `{memories}`, at most ten, best first; `deleteMemory({appName, userId, memoryId})` forgets a
    /// memory for good.
    pub fn call(&self, method: u32, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let label = format!("{} request", METHODS.get(method as usize).copied().unwrap_or_default());
            match method {
                ADD_SESSION => {
                    let session: Session = from_js_core("session", &request)?;
                    inner.add_session_to_memory(&session).await?;
                }
                ADD_EVENTS => {
                    let r: AddEventsRequest = from_js_core(&label, &request)?;
                    inner.add_events_to_memory(&r.app_name, &r.user_id, &r.events, r.session_id.as_deref()).await?;
                }
                SEARCH => {
                    let r: SearchMemoryRequest = from_js_core(&label, &request)?;
                    return to_js_core(&inner.search_memory(&r.app_name, &r.user_id, &r.query).await?);
                }
                _ => {
                    let r: DeleteMemoryRequest = from_js_core(&label, &request)?;
                    inner.delete_memory(&r.app_name, &r.user_id, &r.memory_id).await?;
                }
            }
            Ok(JsValue::UNDEFINED)
        })
    }
}
