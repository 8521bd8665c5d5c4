//! Artifacts kept in memory (ADK's `InMemoryArtifactService`).

use adk_core::cell::Lend;
use std::cell::RefCell;

use adk_core::sort::sort_by;
use async_trait::async_trait;

use super::{
    artifact_scope, checked_mime_type, new_version, validate_listing, ArtifactKey, ArtifactService, ArtifactVersion,
};
use crate::pairs::{entry, get};
use crate::types::{JsonObject, Part};
use crate::AdkError;

/// Where a file lives: the user's namespace or one session.
#[derive(Debug, Clone, PartialEq)]
enum Scope {
    User,
    Session(String),
}

type Path = (String, String, Scope, String);

#[derive(Debug)]
struct Entry {
    data: Part,
    version: ArtifactVersion,
}

/// Keeps every version of every artifact in memory; the files in a list of pairs
/// (`crate::pairs`), which listings read whole anyway.
#[derive(Debug, Default)]
pub struct InMemoryArtifactService {
    artifacts: RefCell<Vec<(Path, Vec<Entry>)>>,
}

impl InMemoryArtifactService {
    /// An empty service.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Validates the key and gives the storage path of the file.
fn path(key: ArtifactKey<'_>) -> Result<Path, AdkError> {
    let scope = match artifact_scope(key)? {
        None => Scope::User,
        Some(session_id) => Scope::Session(session_id.to_string()),
    };
    Ok((key.app_name.to_string(), key.user_id.to_string(), scope, key.filename.to_string()))
}

fn pick(entries: &[Entry], version: Option<u64>) -> Option<&Entry> {
    match version {
        None => entries.last(),
        Some(v) => entries.get(usize::try_from(v).ok()?),
    }
}

#[async_trait(?Send)]
impl ArtifactService for InMemoryArtifactService {
    async fn save_artifact(
        &self,
        key: ArtifactKey<'_>,
        artifact: Part,
        custom_metadata: Option<JsonObject>,
    ) -> Result<u64, AdkError> {
        let path = path(key)?;
        let mime_type = checked_mime_type(&artifact)?;
        let mut artifacts = self.artifacts.lend_mut();
        let Some(entries) = entry(&mut artifacts, path) else { return Ok(0) };
        let version = entries.len() as u64;
        let meta = new_version("memory:/", key, version, custom_metadata, mime_type);
        entries.push(Entry { data: artifact, version: meta });
        Ok(version)
    }

    async fn load_artifact(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<Part>, AdkError> {
        let path = path(key)?;
        let artifacts = self.artifacts.lend();
        let picked = get(&artifacts, &path).and_then(|e| pick(e, version));
        Ok(picked.map(|e| e.data.clone()).filter(|p| *p != Part::default()))
    }

    async fn list_artifact_keys(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
    ) -> Result<Vec<String>, AdkError> {
        validate_listing(app_name, user_id, session_id)?;
        let artifacts = self.artifacts.lend();
        let mut names: Vec<String> = Vec::new();
        for ((app, user, scope, filename), entries) in artifacts.iter() {
            let in_scope = match scope {
                Scope::User => true,
                Scope::Session(s) => session_id == Some(s.as_str()),
            };
            if app == app_name && user == user_id && !entries.is_empty() && in_scope {
                names.push(filename.clone());
            }
        }
        Ok(sort_by(names, |a, b| a < b))
    }

    async fn delete_artifact(&self, key: ArtifactKey<'_>) -> Result<(), AdkError> {
        let path = path(key)?;
        self.artifacts.lend_mut().retain(|(p, _)| *p != path);
        Ok(())
    }

    async fn list_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<u64>, AdkError> {
        let path = path(key)?;
        let mut versions = Vec::new();
        for version in 0..get(&self.artifacts.lend(), &path).map_or(0, |e| e.len() as u64) {
            versions.push(version);
        }
        Ok(versions)
    }

    async fn list_artifact_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<ArtifactVersion>, AdkError> {
        let path = path(key)?;
        let mut versions = Vec::new();
        for entry in get(&self.artifacts.lend(), &path).map(Vec::as_slice).unwrap_or_default() {
            versions.push(entry.version.clone());
        }
        Ok(versions)
    }

    async fn get_artifact_version(
        &self,
        key: ArtifactKey<'_>,
        version: Option<u64>,
    ) -> Result<Option<ArtifactVersion>, AdkError> {
        let path = path(key)?;
        Ok(get(&self.artifacts.lend(), &path).and_then(|e| pick(e, version)).map(|e| e.version.clone()))
    }
}
