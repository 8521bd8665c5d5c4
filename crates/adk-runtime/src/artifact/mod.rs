//! Artifacts: versioned files (as `Part`s) saved by agents and tools, per session or per user.

mod in_memory;
mod names;
mod rules;
pub mod stored;

use async_trait::async_trait;

use crate::types::{JsonObject, Part};
use crate::AdkError;

pub use in_memory::InMemoryArtifactService;
pub use names::{validate_filename, validate_id, USER_NAMESPACE};
pub use rules::{artifact_scope, checked_mime_type, new_version, validate_listing};
pub use stored::StoredArtifactService;

adk_core::json_struct! {
    /// Metadata of one saved version (ADK's `ArtifactVersion`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct ArtifactVersion {
        /// 0, 1, 2, … per file.
        pub version: u64 => "version" req,
        /// Where the version lives, e.g. `memory://apps/a/users/u/sessions/s/artifacts/f/versions/0`.
        pub canonical_uri: String => "canonicalUri" req,
        /// Metadata given when saving.
        pub custom_metadata: JsonObject => "customMetadata" def,
        /// Seconds since the Unix epoch.
        pub create_time: f64 => "createTime" req,
        /// MIME type of the inline data, `text/plain` for text, the file's for file data.
        pub mime_type: Option<String> => "mimeType" opt,
    }
}

/// Which artifact: `user:` file names are shared by all sessions of a user, others need a session.
#[derive(Debug, Clone, Copy)]
pub struct ArtifactKey<'a> {
    /// The app.
    pub app_name: &'a str,
    /// The user.
    pub user_id: &'a str,
    /// The session; required unless the file name starts with `user:`.
    pub session_id: Option<&'a str>,
    /// The file name.
    pub filename: &'a str,
}

/// Stores versioned artifacts (ADK's `BaseArtifactService`).
#[async_trait(?Send)]
pub trait ArtifactService {
    /// Saves a new version and returns its number (0 for the first).
    async fn save_artifact(
        &self,
        key: ArtifactKey<'_>,
        artifact: Part,
        custom_metadata: Option<JsonObject>,
    ) -> Result<u64, AdkError>;

    /// The given version, or the latest; `None` when there is no such file or version.
    async fn load_artifact(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<Part>, AdkError>;

    /// The file names of the session plus the user's `user:` files, sorted.
    async fn list_artifact_keys(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
    ) -> Result<Vec<String>, AdkError>;

    /// Deletes every version of the file; a missing file is not an error.
    async fn delete_artifact(&self, key: ArtifactKey<'_>) -> Result<(), AdkError>;

    /// The version numbers of the file.
    async fn list_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<u64>, AdkError>;

    /// The metadata of every version of the file.
    async fn list_artifact_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<ArtifactVersion>, AdkError>;

    /// The metadata of the given version, or of the latest.
    async fn get_artifact_version(
        &self,
        key: ArtifactKey<'_>,
        version: Option<u64>,
    ) -> Result<Option<ArtifactVersion>, AdkError>;
}
