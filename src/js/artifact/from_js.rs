//! An artifact service written in JS, as the runner's `ArtifactService`: each call one request
//! object in the shape `ArtifactService`'s own methods take, each answer decoded once.

use async_trait::async_trait;
use wasm_bindgen::JsValue;

use super::ArtifactRequest;
use crate::artifact::{ArtifactKey, ArtifactService, ArtifactVersion};
use crate::js::convert::{answer_of, from_js_core, to_js_core};
use crate::js::sys::{JsArtifactServiceObject, Protocol};
use crate::types::{JsonObject, Part};
use crate::AdkError;

/// The JS object behind an `ArtifactService.fromJs`.
pub struct JsArtifactService(JsArtifactServiceObject);

impl JsArtifactService {
    /// Over an object that has the protocol's methods.
    pub fn new(object: JsArtifactServiceObject) -> Self {
        JsArtifactService(object)
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
        let answer = answer_of("artifactService.saveArtifact()", self.0.save_artifact(&to_js_core(&r)?)).await?;
        from_js_core("version returned by saveArtifact", &answer)
    }

    async fn load_artifact(&self, key: ArtifactKey<'_>, version: Option<u64>) -> Result<Option<Part>, AdkError> {
        let r = to_js_core(&request(key, version))?;
        maybe(
            "part returned by loadArtifact",
            answer_of("artifactService.loadArtifact()", self.0.load_artifact(&r)).await?,
        )
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
        let answer =
            answer_of("artifactService.listArtifactKeys()", self.0.list_artifact_keys(&to_js_core(&r)?)).await?;
        from_js_core("names returned by listArtifactKeys", &answer)
    }

    async fn delete_artifact(&self, key: ArtifactKey<'_>) -> Result<(), AdkError> {
        let r = to_js_core(&request(key, None))?;
        answer_of("artifactService.deleteArtifact()", self.0.delete_artifact(&r)).await.map(drop)
    }

    async fn list_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<u64>, AdkError> {
        let r = to_js_core(&request(key, None))?;
        let answer = answer_of("artifactService.listVersions()", self.0.list_versions(&r)).await?;
        from_js_core("versions returned by listVersions", &answer)
    }

    async fn list_artifact_versions(&self, key: ArtifactKey<'_>) -> Result<Vec<ArtifactVersion>, AdkError> {
        self.0.needs("listArtifactVersions")?;
        let r = to_js_core(&request(key, None))?;
        let answer = answer_of("artifactService.listArtifactVersions()", self.0.list_artifact_versions(&r)).await?;
        from_js_core("versions returned by listArtifactVersions", &answer)
    }

    async fn get_artifact_version(
        &self,
        key: ArtifactKey<'_>,
        version: Option<u64>,
    ) -> Result<Option<ArtifactVersion>, AdkError> {
        self.0.needs("getArtifactVersion")?;
        let r = to_js_core(&request(key, version))?;
        maybe(
            "version returned by getArtifactVersion",
            answer_of("artifactService.getArtifactVersion()", self.0.get_artifact_version(&r)).await?,
        )
    }
}
