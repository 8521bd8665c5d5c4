//! Memory: what agents can recall from earlier sessions of the same user.

mod in_memory;
mod search;
pub mod stored;
mod timestamp;
mod tokenize;

use async_trait::async_trait;

use crate::session::Session;
use crate::types::{Content, JsonObject};
use crate::{AdkError, Event};

pub use in_memory::InMemoryMemoryService;
pub use search::{has_content, memory_text, rank, MAX_SEARCH_RESULTS, UNKNOWN_SESSION_ID};
pub use stored::StoredMemoryService;
pub(crate) use timestamp::file_timestamp;

adk_core::json_struct! {
    /// One recalled piece of conversation (ADK's `MemoryEntry`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct MemoryEntry {
        /// The remembered content.
        pub content: Content => "content" req,
        /// App-defined metadata.
        pub custom_metadata: JsonObject => "customMetadata" def,
        /// The id of the event it came from.
        pub id: Option<String> => "id" opt,
        /// Who wrote it.
        pub author: Option<String> => "author" opt,
        /// When, as ISO 8601 text (UTC, e.g. `2025-11-21T10:15:00.250000+00:00`).
        pub timestamp: Option<String> => "timestamp" opt,
    }
}

adk_core::json_struct! {
    /// The answer to a memory search (ADK's `SearchMemoryResponse`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct SearchMemoryResponse {
        /// Best matches first.
        pub memories: Vec<MemoryEntry> => "memories" req,
    }
}

/// Stores and searches memories, scoped by app and user (ADK's `BaseMemoryService`).
#[async_trait(?Send)]
pub trait MemoryService {
    /// Replaces what is remembered of `session` with its events that have content.
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), AdkError>;

    /// Adds events (skipping ones already remembered, by id) under `session_id`, if given.
    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        events: &[Event],
        session_id: Option<&str>,
    ) -> Result<(), AdkError>;

    /// The memories of this app and user that match `query`.
    async fn search_memory(&self, app_name: &str, user_id: &str, query: &str)
        -> Result<SearchMemoryResponse, AdkError>;

    /// Forgets the memory with this id (an event id) and never re-adds it (ADK 2.x `delete_memory`).
    async fn delete_memory(&self, app_name: &str, user_id: &str, memory_id: &str) -> Result<(), AdkError>;
}
