//! Artifacts in IndexedDB: the same semantics as `InMemoryArtifactService` (versions from 0,
//! `user:` files shared by the user's sessions, metadata, the same names refused), kept across
//! reloads. One record per version; inline data is stored as bytes (a `Uint8Array`), not as
//! base64 text.

use adk_core::types::{JsonObject, Part};
use adk_core::AdkError;
use adk_runtime::artifact::{
    artifact_scope, canonical_uri, check_size, mime_type, validate_listing, ArtifactKey, ArtifactService,
    ArtifactVersion,
};
use async_trait::async_trait;
use wasm_bindgen::{JsCast, JsValue};

use super::records::{from_js, get_all, put_value, to_js};
use super::schema::{ARTIFACTS, SCHEMA};
use super::{done, idb_error, numbered_key, prefix_range, Connection, IdbCursor, IdbTransaction};

adk_core::json_struct! {
    /// One version of one artifact; its inline bytes sit beside it as `bytes`.
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

const BYTES: &str = "bytes";

/// The record of `row`, its inline data moved out of the JSON into a `Uint8Array`.
fn record(mut row: ArtifactRow) -> Result<JsValue, AdkError> {
    let bytes = row.part.inline_data.as_mut().and_then(|blob| blob.data.take());
    let value = to_js(&row)?;
    if let Some(bytes) = bytes {
        let array = js_sys::Uint8Array::from(bytes.0.as_slice());
        js_sys::Reflect::set(&value, &BYTES.into(), &array).map_err(|e| idb_error(&e, "writing an artifact"))?;
    }
    Ok(value)
}

/// A record read back, its bytes returned to the inline data.
fn row_of(value: &JsValue) -> Result<ArtifactRow, AdkError> {
    let bytes = js_sys::Reflect::get(value, &BYTES.into()).ok().filter(|b| !b.is_undefined());
    let _ = js_sys::Reflect::delete_property(value.unchecked_ref::<js_sys::Object>(), &BYTES.into());
    let mut row: ArtifactRow = from_js("artifact", value)?;
    if let (Some(bytes), Some(blob)) = (bytes, row.part.inline_data.as_mut()) {
        blob.data = Some(js_sys::Uint8Array::new(&bytes).to_vec().into());
    }
    Ok(row)
}

/// Versioned artifacts in one IndexedDB database.
pub struct IndexedDbArtifactService {
    db: Connection,
    /// `indexeddb://{database}`, the scheme of canonical URIs.
    scheme: String,
}

impl IndexedDbArtifactService {
    /// The service over the database `database_name` (shared with the other services).
    pub fn new(database_name: &str) -> Self {
        IndexedDbArtifactService {
            db: Connection::new(database_name, SCHEMA),
            scheme: ["indexeddb://", database_name].concat(),
        }
    }

    /// A read-only transaction and the key range of every version of `key`'s artifact.
    async fn versions_of(&self, key: ArtifactKey<'_>) -> Result<(IdbTransaction, JsValue), AdkError> {
        let scope = artifact_scope(key)?.unwrap_or_default();
        let range = prefix_range(&[key.app_name, key.user_id, scope, key.filename])?;
        Ok((self.db.read(&[ARTIFACTS]).await?, range))
    }

    /// The record of `version` (the latest without one), if there is one.
    async fn find(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<ArtifactRow>, AdkError> {
        let (tx, range) = self.versions_of(key).await?;
        let store = tx.object_store(ARTIFACTS).map_err(|e| idb_error(&e, "reading an artifact"))?;
        let found = match version {
            Some(version) => {
                let scope = artifact_scope(key)?.unwrap_or_default();
                let at = numbered_key(&[key.app_name, key.user_id, scope, key.filename], &[version]);
                done(&store.get(&at).map_err(|e| idb_error(&e, "reading an artifact"))?, "reading an artifact").await?
            }
            None => {
                let cursor = store.open_cursor(&range, "prev").map_err(|e| idb_error(&e, "reading an artifact"))?;
                let at = done(&cursor, "reading an artifact").await?;
                match at.is_null() || at.is_undefined() {
                    true => JsValue::UNDEFINED,
                    false => at.unchecked_into::<IdbCursor>().value(),
                }
            }
        };
        match found.is_undefined() || found.is_null() {
            true => Ok(None),
            false => row_of(&found).map(Some),
        }
    }
}

/// The `index`-th part of each key in `keys` (an array of compound keys).
fn key_parts(keys: &JsValue, index: u32) -> Vec<JsValue> {
    js_sys::Array::from(keys).iter().map(|k| js_sys::Array::from(&k).get(index)).collect()
}

#[async_trait(?Send)]
impl ArtifactService for IndexedDbArtifactService {
    async fn save_artifact(
        &self,
        key: ArtifactKey<'_>,
        artifact: Part,
        custom_metadata: Option<JsonObject>,
    ) -> Result<u64, AdkError> {
        let scope = artifact_scope(key)?.unwrap_or_default();
        check_size(&artifact)?;
        let mime_type = mime_type(&artifact)?;
        let tx = self.db.write(&[ARTIFACTS]).await?;
        let store = tx.object_store(ARTIFACTS).map_err(|e| idb_error(&e, "saving an artifact"))?;
        let range = prefix_range(&[key.app_name, key.user_id, scope, key.filename])?;
        let count = store.count(&range).map_err(|e| idb_error(&e, "saving an artifact"))?;
        let version = done(&count, "saving an artifact").await?.as_f64().unwrap_or_default() as u64;
        let meta = ArtifactVersion {
            version,
            canonical_uri: canonical_uri(&self.scheme, key, version),
            custom_metadata: custom_metadata.unwrap_or_default(),
            create_time: adk_core::platform::now_seconds(),
            mime_type,
        };
        let row = ArtifactRow {
            app_name: key.app_name.into(),
            user_id: key.user_id.into(),
            scope: scope.into(),
            filename: key.filename.into(),
            version,
            meta,
            part: artifact,
        };
        put_value(&tx, ARTIFACTS, &record(row)?)?;
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
        let store = tx.object_store(ARTIFACTS).map_err(|e| idb_error(&e, "listing artifacts"))?;
        let mut names: Vec<String> = Vec::new();
        for scope in std::iter::once("").chain(session_id) {
            let range = prefix_range(&[app_name, user_id, scope])?;
            let keys = store.get_all_keys(&range).map_err(|e| idb_error(&e, "listing artifacts"))?;
            for name in key_parts(&done(&keys, "listing artifacts").await?, 3).iter().filter_map(JsValue::as_string) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        Ok(adk_core::sort::sort_by(names, |a, b| a < b))
    }

    async fn delete_artifact(&self, key: ArtifactKey<'_>) -> Result<(), AdkError> {
        let scope = artifact_scope(key)?.unwrap_or_default();
        let tx = self.db.write(&[ARTIFACTS]).await?;
        let range = prefix_range(&[key.app_name, key.user_id, scope, key.filename])?;
        let store = tx.object_store(ARTIFACTS).map_err(|e| idb_error(&e, "deleting an artifact"))?;
        store.delete(&range).map_err(|e| idb_error(&e, "deleting an artifact"))?;
        tx.commit("deleting an artifact").await
    }

    async fn list_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<u64>, AdkError> {
        let (tx, range) = self.versions_of(key).await?;
        let keys = tx.object_store(ARTIFACTS).and_then(|s| s.get_all_keys(&range));
        let keys = done(&keys.map_err(|e| idb_error(&e, "listing versions"))?, "listing versions").await?;
        Ok(key_parts(&keys, 4).iter().filter_map(JsValue::as_f64).map(|v| v as u64).collect())
    }

    async fn list_artifact_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<ArtifactVersion>, AdkError> {
        let (tx, range) = self.versions_of(key).await?;
        get_all(&tx, ARTIFACTS, &range, "listing versions")
            .await?
            .iter()
            .map(|value| row_of(&value).map(|row| row.meta))
            .collect()
    }

    async fn get_artifact_version(
        &self,
        key: ArtifactKey<'_>,
        version: Option<u64>,
    ) -> Result<Option<ArtifactVersion>, AdkError> {
        Ok(self.find(key, version).await?.map(|row| row.meta))
    }
}
