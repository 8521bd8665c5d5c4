//! A memory service written in JS, as the runner's `MemoryService`: each call one request object
//! in the shape `MemoryService`'s own methods take.

use async_trait::async_trait;

use super::{AddEventsRequest, DeleteMemoryRequest, SearchMemoryRequest};
use crate::js::convert::{answer_of, from_js_core, to_js_core};
use crate::js::sys::{JsMemoryServiceObject, Protocol};
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
}

#[async_trait(?Send)]
impl MemoryService for JsMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), AdkError> {
        answer_of("memoryService.addSessionToMemory()", self.0.add_session_to_memory(&to_js_core(session)?))
            .await
            .map(drop)
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
        answer_of("memoryService.addEventsToMemory()", self.0.add_events_to_memory(&to_js_core(&r)?)).await.map(drop)
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
        let answer = answer_of("memoryService.searchMemory()", self.0.search_memory(&to_js_core(&r)?)).await?;
        from_js_core("memories returned by searchMemory", &answer)
    }

    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError> {
        self.0.needs("deleteMemory")?;
        let r = DeleteMemoryRequest {
            app_name: app_name.to_string(),
            user_id: user_id.to_string(),
            memory_id: memory_id.to_string(),
        };
        answer_of("memoryService.deleteMemory()", self.0.delete_memory(&to_js_core(&r)?)).await.map(drop)
    }
}
