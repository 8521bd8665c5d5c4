//! `InMemoryArtifactService` for JS.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{from_js_core, promise, to_js_core};
use crate::artifact::{ArtifactKey, ArtifactService, InMemoryArtifactService};
use crate::types::{JsonObject, Part};
use crate::AdkError;

adk_core::json_struct! {
    /// Every artifact request: `{appName, userId, sessionId?, filename?, version?, artifact?, customMetadata?}`.
    struct ArtifactRequest {
        app_name: String => "appName" req,
        user_id: String => "userId" req,
        session_id: Option<String> => "sessionId" def,
        filename: Option<String> => "filename" def,
        version: Option<i64> => "version" def,
        artifact: Option<Part> => "artifact" def,
        custom_metadata: Option<JsonObject> => "customMetadata" def,
    }
}

impl ArtifactRequest {
    fn parse(what: &str, value: &JsValue) -> Result<Self, AdkError> {
        from_js_core(what, value)
    }

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

/// Versioned artifacts kept in this page (`InMemoryArtifactService` of ADK).
#[wasm_bindgen(js_name = InMemoryArtifactService)]
pub struct JsInMemoryArtifactService {
    inner: Rc<InMemoryArtifactService>,
}

impl JsInMemoryArtifactService {
    /// The shared core service, for the runner.
    pub fn service(&self) -> Rc<InMemoryArtifactService> {
        self.inner.clone()
    }
}

impl Default for JsInMemoryArtifactService {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen(js_class = InMemoryArtifactService)]
impl JsInMemoryArtifactService {
    /// An empty service.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        JsInMemoryArtifactService { inner: Rc::new(InMemoryArtifactService::new()) }
    }

    /// `saveArtifact({appName, userId, sessionId, filename, artifact, customMetadata?})` → `Promise<number>`.
    #[wasm_bindgen(js_name = saveArtifact)]
    pub fn save_artifact(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("saveArtifact request", &request)?;
            let artifact = r.artifact.clone().ok_or_else(|| AdkError::invalid("artifact: missing"))?;
            let version = inner.save_artifact(r.key()?, artifact, r.custom_metadata.clone()).await?;
            Ok(JsValue::from_f64(version as f64))
        })
    }

    /// `loadArtifact({appName, userId, sessionId, filename, version?})` → `Promise<Part | null>`.
    #[wasm_bindgen(js_name = loadArtifact)]
    pub fn load_artifact(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("loadArtifact request", &request)?;
            let Ok(version) = r.version() else { return Ok(JsValue::NULL) };
            match inner.load_artifact(r.key()?, version).await? {
                Some(part) => to_js_core(&part),
                None => Ok(JsValue::NULL),
            }
        })
    }

    /// `listArtifactKeys({appName, userId, sessionId?})` → the session's and the user's file names, sorted.
    #[wasm_bindgen(js_name = listArtifactKeys)]
    pub fn list_artifact_keys(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("listArtifactKeys request", &request)?;
            to_js_core(&inner.list_artifact_keys(&r.app_name, &r.user_id, r.session_id.as_deref()).await?)
        })
    }

    /// `deleteArtifact({appName, userId, sessionId, filename})`.
    #[wasm_bindgen(js_name = deleteArtifact)]
    pub fn delete_artifact(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("deleteArtifact request", &request)?;
            inner.delete_artifact(r.key()?).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// `listVersions({appName, userId, sessionId, filename})` → `Promise<number[]>`.
    #[wasm_bindgen(js_name = listVersions)]
    pub fn list_versions(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("listVersions request", &request)?;
            to_js_core(&inner.list_versions(r.key()?).await?)
        })
    }

    /// `listArtifactVersions({…})` → `Promise<ArtifactVersion[]>`.
    #[wasm_bindgen(js_name = listArtifactVersions)]
    pub fn list_artifact_versions(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("listArtifactVersions request", &request)?;
            to_js_core(&inner.list_artifact_versions(r.key()?).await?)
        })
    }

    /// `getArtifactVersion({…, version?})` → `Promise<ArtifactVersion | null>`.
    #[wasm_bindgen(js_name = getArtifactVersion)]
    pub fn get_artifact_version(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let r = ArtifactRequest::parse("getArtifactVersion request", &request)?;
            let Ok(version) = r.version() else { return Ok(JsValue::NULL) };
            match inner.get_artifact_version(r.key()?, version).await? {
                Some(v) => to_js_core(&v),
                None => Ok(JsValue::NULL),
            }
        })
    }
}
