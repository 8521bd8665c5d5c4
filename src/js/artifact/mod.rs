//! `ArtifactService` for JS: one class over any artifact service (in memory, in IndexedDB, or
//! written in JS), as the runner and the page see it.

mod from_js;

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;

use super::convert::{database_name, from_js_core, from_js_within, promise, to_js_core};
use super::sys::{JsArtifactServiceObject, Protocol};
use super::to_js_error;
use crate::artifact::{ArtifactKey, ArtifactService, InMemoryArtifactService, StoredArtifactService};
use crate::platform::indexeddb::kv::IndexedDbStore;
use crate::types::{JsonObject, Part};
use crate::AdkError;

/// The service's methods, by the number index.js calls `call` with (tests/api/check.mjs holds
/// index.js's list to this one); the numbers' names below.
const METHODS: [&str; 7] = [
    "saveArtifact",
    "loadArtifact",
    "listArtifactKeys",
    "deleteArtifact",
    "listVersions",
    "listArtifactVersions",
    "getArtifactVersion",
];
const SAVE: u32 = 0;
const LOAD: u32 = 1;
const LIST_KEYS: u32 = 2;
const DELETE: u32 = 3;
const LIST_VERSIONS: u32 = 4;
const GET_VERSION: u32 = 6;

adk_core::json_struct! {
    /// Every artifact request: `{appName, userId, sessionId?, filename?, version?, artifact?, customMetadata?}`.
    #[derive(Default)]
    struct ArtifactRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        session_id: Option<String> => "sessionId" opt,
        filename: Option<String> => "filename" opt,
        version: Option<i64> => "version" opt,
        artifact: Option<Part> => "artifact" opt,
        custom_metadata: Option<JsonObject> => "customMetadata" opt,
    }
}

impl ArtifactRequest {
    fn key(&self) -> Result<ArtifactKey<'_>, AdkError> {
        let filename = self.filename.as_deref().ok_or_else(|| AdkError::invalid("filename: missing"))?;
        Ok(ArtifactKey {
            app_name: &self.app_name,
            user_id: &self.user_id,
            session_id: self.session_id.as_deref(),
            filename,
        })
    }

    /// `None` for "the latest"; `Err(())` for a negative version, which ADK treats as out of range.
    fn version(&self) -> Result<Option<u64>, ()> {
        self.version.map(|v| u64::try_from(v).map_err(|_| ())).transpose()
    }
}

/// Versioned artifacts (ADK's `BaseArtifactService`): `ArtifactService.inMemory()`,
/// `ArtifactService.indexedDb({databaseName?})` or `ArtifactService.fromJs(object)`.
#[wasm_bindgen(js_name = ArtifactService)]
pub struct ArtifactServiceHandle {
    inner: Rc<dyn ArtifactService>,
}

impl ArtifactServiceHandle {
    /// The service, for the runner.
    pub fn service(&self) -> Rc<dyn ArtifactService> {
        self.inner.clone()
    }
}

#[wasm_bindgen(js_class = ArtifactService)]
impl ArtifactServiceHandle {
    /// A service by kind: kept in this page (0, `inMemory()`), in IndexedDB (1, `indexedDb(options)`)
    /// or written in JS (2, `fromJs(object)`); one export for the three (index.js names them), as
    /// each export costs a shim.
    pub fn make(kind: u32, value: JsValue) -> Result<ArtifactServiceHandle, JsValue> {
        match kind {
            0 => Ok(Self::in_memory()),
            1 => Self::indexed_db(value),
            _ => Self::from_js(value),
        }
    }
}

impl ArtifactServiceHandle {
    /// Artifacts kept in this page (ADK's `InMemoryArtifactService`).
    fn in_memory() -> Self {
        ArtifactServiceHandle { inner: Rc::new(InMemoryArtifactService::new()) }
    }

    /// Artifacts in this origin's IndexedDB (`databaseName`, default `adk-wasm`, shared with the
    /// other services), inline data stored as bytes: kept across reloads.
    fn indexed_db(options: JsValue) -> Result<ArtifactServiceHandle, JsValue> {
        let name = database_name("IndexedDbArtifactService options", &options).map_err(to_js_error)?;
        let scheme = format!("indexeddb://{name}");
        Ok(ArtifactServiceHandle { inner: Rc::new(StoredArtifactService::new(IndexedDbStore::new(&name), &scheme)) })
    }

    /// An artifact service written in JS: `saveArtifact`, `loadArtifact`, `listArtifactKeys`,
    /// `deleteArtifact`, `listVersions` (and, if it has them, `listArtifactVersions`,
    /// `getArtifactVersion`), each taking the request object these methods take, sync or async.
    fn from_js(object: JsValue) -> Result<ArtifactServiceHandle, JsValue> {
        let object = JsArtifactServiceObject::check(object).map_err(to_js_error)?;
        Ok(ArtifactServiceHandle { inner: Rc::new(from_js::JsArtifactService::new(object)) })
    }
}

#[wasm_bindgen(js_class = ArtifactService)]
impl ArtifactServiceHandle {
    /// The methods index.js gives the class, by number ([`METHODS`]), in one export instead of one
    /// per method:
    /// `saveArtifact({appName, userId, sessionId, filename, artifact, customMetadata?})` → the
    /// version; `loadArtifact({…, version?})` → `Part | null`; `listArtifactKeys({appName, userId,
    /// sessionId?})` → the session's and the user's file names, sorted; `deleteArtifact`;
    /// `listVersions` → numbers; `listArtifactVersions` → `ArtifactVersion[]`;
    /// `getArtifactVersion({…, version?})` → `ArtifactVersion | null`.
    pub fn call(&self, method: u32, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let label = format!("{} request", METHODS.get(method as usize).copied().unwrap_or_default());
            if method == SAVE {
                let mut r: ArtifactRequest = from_js_within(&label, &request, Limit::artifact_json())?;
                let artifact = r.artifact.take().ok_or_else(|| AdkError::invalid("artifact: missing"))?;
                let metadata = r.custom_metadata.take();
                let version = inner.save_artifact(r.key()?, artifact, metadata).await?;
                return Ok(JsValue::from_f64(version as f64));
            }
            let r: ArtifactRequest = from_js_core(&label, &request)?;
            match method {
                LOAD | GET_VERSION => {
                    let Ok(version) = r.version() else { return Ok(JsValue::NULL) };
                    let found = match method == LOAD {
                        true => inner.load_artifact(r.key()?, version).await?.map(|part| to_js_core(&part)),
                        false => inner.get_artifact_version(r.key()?, version).await?.map(|v| to_js_core(&v)),
                    };
                    found.unwrap_or(Ok(JsValue::NULL))
                }
                LIST_KEYS => {
                    to_js_core(&inner.list_artifact_keys(&r.app_name, &r.user_id, r.session_id.as_deref()).await?)
                }
                DELETE => {
                    inner.delete_artifact(r.key()?).await?;
                    Ok(JsValue::UNDEFINED)
                }
                LIST_VERSIONS => to_js_core(&inner.list_versions(r.key()?).await?),
                _ => to_js_core(&inner.list_artifact_versions(r.key()?).await?),
            }
        })
    }
}
