//! An artifact service written in JS, as the runner's `ArtifactService`: each call one request
//! object in the shape `ArtifactService`'s own methods take, each answer decoded once.

use async_trait::async_trait;
use wasm_bindgen::JsValue;

use super::ArtifactRequest;
use crate::artifact::{ArtifactKey, ArtifactService, ArtifactVersion};
use crate::js::convert::{from_js_core, to_js_core};
use crate::js::sys::{ask, JsArtifactServiceObject, Protocol};
use crate::types::{JsonObject, Part};
use crate::AdkError;

/// The JS object behind an `ArtifactService.fromJs`.
pub struct JsArtifactService(JsArtifactServiceObject);

impl JsArtifactService {
    /// Over an object that has the protocol's methods.
    pub fn new(object: JsArtifactServiceObject) -> Self {
        JsArtifactService(object)
    }

    /// The object's `method(r)`, answered.
    async fn ask(&self, method: &str, r: &ArtifactRequest) -> Result<JsValue, AdkError> {
        ask(&self.0, JsArtifactServiceObject::NAME, method, &to_js_core(r)?).await
    }
}

/// The request naming `key` (and `version`).
fn request(key: ArtifactKey<'_>, version: Option<u64>) -> ArtifactRequest {
    ArtifactRequest {
        app_name: key.app_name.to_string(),
        user_id: key.user_id.to_string(),
        session_id: key.session_id.map(str::to_string),
        filename: Some(key.filename.to_string()),
        version: version.and_then(|v| i64::try_from(v).ok()),
        ..ArtifactRequest::default()
    }
}

/// A JS answer that may be nothing (`undefined` or `null`).
fn maybe<T: adk_core::json::FromJson>(what: &str, answer: JsValue) -> Result<Option<T>, AdkError> {
    if answer.is_undefined() || answer.is_null() {
        return Ok(None);
    }
    from_js_core(what, &answer).map(Some)
}

#[async_trait(?Send)]
impl ArtifactService for JsArtifactService {
    async fn save_artifact(
        &self,
        key: ArtifactKey<'_>,
        artifact: Part,
        custom_metadata: Option<JsonObject>,
    ) -> Result<u64, AdkError> {
        let r = ArtifactRequest { artifact: Some(artifact), custom_metadata, ..request(key, None) };
        from_js_core("version returned by saveArtifact", &self.ask("saveArtifact", &r).await?)
    }

    async fn load_artifact(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<Part>, AdkError> {
        maybe("part returned by loadArtifact", self.ask("loadArtifact", &request(key, version)).await?)
    }

    async fn list_artifact_keys(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
    ) -> Result<Vec<String>, AdkError> {
        let r = ArtifactRequest {
            app_name: app_name.to_string(),
            user_id: user_id.to_string(),
            session_id: session_id.map(str::to_string),
            ..ArtifactRequest::default()
        };
        from_js_core("names returned by listArtifactKeys", &self.ask("listArtifactKeys", &r).await?)
    }

    async fn delete_artifact(&self, key: ArtifactKey<'_>) -> Result<(), AdkError> {
        self.ask("deleteArtifact", &request(key, None)).await.map(drop)
    }

    async fn list_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<u64>, AdkError> {
        from_js_core("versions returned by listVersions", &self.ask("listVersions", &request(key, None)).await?)
    }

    async fn list_artifact_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<ArtifactVersion>, AdkError> {
        self.0.needs("listArtifactVersions")?;
        let answer = self.ask("listArtifactVersions", &request(key, None)).await?;
        from_js_core("versions returned by listArtifactVersions", &answer)
    }

    async fn get_artifact_version(
        &self,
        key: ArtifactKey<'_>,
        version: Option<u64>,
    ) -> Result<Option<ArtifactVersion>, AdkError> {
        self.0.needs("getArtifactVersion")?;
        let answer = self.ask("getArtifactVersion", &request(key, version)).await?;
        maybe("version returned by getArtifactVersion", answer)
    }
}
