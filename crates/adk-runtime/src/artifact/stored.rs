//! Artifacts in a key-value store ([`crate::store`]): the browser's IndexedDB in the wasm crate,
//! [`crate::store::InMemoryStore`] in the native tests. The same semantics as
//! [`super::InMemoryArtifactService`] (versions from 0, `user:` files shared by the user's
//! sessions, metadata, the same names refused). One record per version; inline data is stored
//! beside it as bytes, not in its JSON as base64 text.

use async_trait::async_trait;

use super::{
    artifact_scope, checked_mime_type, new_version, validate_listing, ArtifactKey, ArtifactService, ArtifactVersion,
};
use crate::store::{decode, KeyPart, KeyRange, KvStore, KvTransaction, StoreLayout};
use crate::types::{JsonObject, Part};
use crate::AdkError;

/// One record per version of an artifact.
pub const ARTIFACTS: &str = "artifacts";

/// The object store the artifacts take: `scope` is the session id, or "" for the user's `user:`
/// files (a session id is never blank).
pub const LAYOUT: &[StoreLayout] =
    &[StoreLayout { name: ARTIFACTS, key_path: &["appName", "userId", "scope", "filename", "version"], indexes: &[] }];

adk_core::json_struct! {
    /// One version of one artifact; its inline bytes are kept beside it.
    struct ArtifactRow {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        /// The session id, or "" for a `user:` file.
        scope: String => "scope" req,
        filename: String => "filename" req,
        version: u64 => "version" req,
        meta: ArtifactVersion => "meta" req,
        part: Part => "part" req,
    }
}

/// Versioned artifacts in one store.
pub struct StoredArtifactService<S> {
    db: S,
    /// `{scheme}://{database}`, the start of canonical URIs.
    scheme: String,
}

impl<S: KvStore> StoredArtifactService<S> {
    /// The service over `db`, whose object stores include [`LAYOUT`]'s; canonical URIs start with
    /// `scheme` (`indexeddb://my-app`).
    pub fn new(db: S, scheme: &str) -> Self {
        StoredArtifactService { db, scheme: scheme.to_string() }
    }

    /// Every version of `key`'s artifact.
    fn versions(key: ArtifactKey<'_>) -> Result<KeyRange, AdkError> {
        let scope = artifact_scope(key)?.unwrap_or_default();
        Ok(KeyRange::prefix(&[key.app_name, key.user_id, scope, key.filename]))
    }

    /// The record of `version` (the latest without one), its bytes back in its inline data.
    async fn find(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<ArtifactRow>, AdkError> {
        let range = Self::versions(key)?;
        let tx = self.db.read(&[ARTIFACTS]).await?;
        let at = match version {
            Some(version) => {
                let mut at = range.prefix.clone();
                at.push(KeyPart::from(version));
                at
            }
            None => match tx.keys(ARTIFACTS, &range).await?.pop() {
                Some(latest) => latest,
                None => return Ok(None),
            },
        };
        let Some((text, bytes)) = tx.get_with_bytes(ARTIFACTS, &at).await? else { return Ok(None) };
        let mut row: ArtifactRow = decode("artifact", &text)?;
        if let (Some(bytes), Some(blob)) = (bytes, row.part.inline_data.as_mut()) {
            blob.data = Some(bytes.into());
        }
        Ok(Some(row))
    }
}

/// The `index`-th part of each key, when it is text.
fn names(keys: &[Vec<KeyPart>], index: usize) -> impl Iterator<Item = &str> {
    keys.iter().filter_map(move |k| match k.get(index) {
        Some(KeyPart::Text(name)) => Some(name.as_str()),
        _ => None,
    })
}

#[async_trait(?Send)]
impl<S: KvStore> ArtifactService for StoredArtifactService<S> {
    async fn save_artifact(
        &self,
        key: ArtifactKey<'_>,
        mut artifact: Part,
        custom_metadata: Option<JsonObject>,
    ) -> Result<u64, AdkError> {
        let scope = artifact_scope(key)?.unwrap_or_default();
        let mime_type = checked_mime_type(&artifact)?;
        let tx = self.db.write(&[ARTIFACTS]).await?;
        let version = tx.keys(ARTIFACTS, &Self::versions(key)?).await?.len() as u64;
        let meta = new_version(&self.scheme, key, version, custom_metadata, mime_type);
        let bytes = artifact.inline_data.as_mut().and_then(|blob| blob.data.take());
        let row = ArtifactRow {
            app_name: key.app_name.into(),
            user_id: key.user_id.into(),
            scope: scope.into(),
            filename: key.filename.into(),
            version,
            meta,
            part: artifact,
        };
        let text = adk_core::json::to_string(&row);
        match bytes {
            Some(bytes) => tx.put_with_bytes(ARTIFACTS, &text, &bytes.0)?,
            None => tx.put(ARTIFACTS, &text)?,
        }
        tx.commit("saving an artifact").await?;
        Ok(version)
    }

    async fn load_artifact(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<Part>, AdkError> {
        Ok(self.find(key, version).await?.map(|row| row.part).filter(|p| *p != Part::default()))
    }

    async fn list_artifact_keys(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
    ) -> Result<Vec<String>, AdkError> {
        validate_listing(app_name, user_id, session_id)?;
        let tx = self.db.read(&[ARTIFACTS]).await?;
        let mut found: Vec<String> = Vec::new();
        for scope in std::iter::once("").chain(session_id) {
            let keys = tx.keys(ARTIFACTS, &KeyRange::prefix(&[app_name, user_id, scope])).await?;
            for name in names(&keys, 3) {
                if !found.iter().any(|n| n == name) {
                    found.push(name.to_string());
                }
            }
        }
        Ok(adk_core::sort::sort_by(found, |a, b| a < b))
    }

    async fn delete_artifact(&self, key: ArtifactKey<'_>) -> Result<(), AdkError> {
        let range = Self::versions(key)?;
        let tx = self.db.write(&[ARTIFACTS]).await?;
        tx.delete(ARTIFACTS, &range)?;
        tx.commit("deleting an artifact").await
    }

    async fn list_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<u64>, AdkError> {
        let range = Self::versions(key)?;
        let keys = self.db.read(&[ARTIFACTS]).await?.keys(ARTIFACTS, &range).await?;
        let mut versions = Vec::new();
        for key in &keys {
            if let Some(KeyPart::Number(n)) = key.get(4) {
                versions.push(*n as u64);
            }
        }
        Ok(versions)
    }

    async fn list_artifact_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<ArtifactVersion>, AdkError> {
        let range = Self::versions(key)?;
        let records = self.db.read(&[ARTIFACTS]).await?.get_all(ARTIFACTS, &range).await?;
        // A loop rather than collecting `Result`s: that adapter is code of its own per item type.
        let mut versions = Vec::new();
        for text in &records {
            versions.push(decode::<ArtifactRow>("artifact", text)?.meta);
        }
        Ok(versions)
    }

    async fn get_artifact_version(
        &self,
        key: ArtifactKey<'_>,
        version: Option<u64>,
    ) -> Result<Option<ArtifactVersion>, AdkError> {
        Ok(self.find(key, version).await?.map(|row| row.meta))
    }
}
