//! A memory service written in JS, as the runner's `MemoryService`: each call one request object
//! in the shape `MemoryService`'s own methods take.

use async_trait::async_trait;
use wasm_bindgen::JsValue;

use super::{AddEventsRequest, DeleteMemoryRequest, SearchMemoryRequest};
use crate::js::convert::{from_js_core, to_js_core};
use crate::js::sys::{ask, JsMemoryServiceObject, Protocol};
use crate::memory::{MemoryService, SearchMemoryResponse};
use crate::session::Session;
use crate::{AdkError, Event};

/// The JS object behind a `MemoryService.fromJs`.
pub struct JsMemoryService(JsMemoryServiceObject);

impl JsMemoryService {
    /// Over an object that has the protocol's methods.
    pub fn new(object: JsMemoryServiceObject) -> Self {
        JsMemoryService(object)
    }

    /// The object's `method(request)`, answered.
    async fn ask(&self, method: &str, request: &dyn adk_core::json::ToJson) -> Result<JsValue, AdkError> {
        ask(&self.0, JsMemoryServiceObject::NAME, method, &to_js_core(request)?).await
    }
}

#[async_trait(?Send)]
impl MemoryService for JsMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), AdkError> {
        self.ask("addSessionToMemory", session).await.map(drop)
    }

    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        events: &[Event],
        session_id: Option<&str>,
    ) -> Result<(), AdkError> {
        self.0.needs("addEventsToMemory")?;
        let r = AddEventsRequest {
            app_name: app_name.to_string(),
            user_id: user_id.to_string(),
            events: events.to_vec(),
            session_id: session_id.map(str::to_string),
        };
        self.ask("addEventsToMemory", &r).await.map(drop)
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, AdkError> {
        let r = SearchMemoryRequest {
            app_name: app_name.to_string(),
            user_id: user_id.to_string(),
            query: query.to_string(),
        };
        from_js_core("memories returned by searchMemory", &self.ask("searchMemory", &r).await?)
    }

    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError> {
        self.0.needs("deleteMemory")?;
        let r = DeleteMemoryRequest {
            app_name: app_name.to_string(),
            user_id: user_id.to_string(),
            memory_id: memory_id.to_string(),
        };
        self.ask("deleteMemory", &r).await.map(drop)
    }
}
