//! What every artifact service decides the same way: which scope a key names (after refusing names
//! that could escape it), an artifact's MIME type, and its canonical URI.

use super::{validate_filename, validate_id, ArtifactKey, ArtifactVersion, USER_NAMESPACE};
use crate::types::{JsonObject, Part};
use crate::AdkError;

/// The session a key's artifact belongs to, or `None` for a `user:` file (shared by the user's
/// sessions). Ids and file names that could escape their scope are refused.
pub fn artifact_scope<'a>(key: ArtifactKey<'a>) -> Result<Option<&'a str>, AdkError> {
    validate_id(key.app_name, "app_name")?;
    validate_id(key.user_id, "user_id")?;
    validate_filename(key.filename)?;
    if key.filename.starts_with(USER_NAMESPACE) {
        return Ok(None);
    }
    let session_id =
        key.session_id.ok_or_else(|| AdkError::invalid("Session ID must be provided for session-scoped artifacts."))?;
    validate_id(session_id, "session_id")?;
    Ok(Some(session_id))
}

/// The ids a listing names, refused as `artifact_scope` refuses them.
pub fn validate_listing(app_name: &str, user_id: &str, session_id: Option<&str>) -> Result<(), AdkError> {
    validate_id(app_name, "app_name")?;
    validate_id(user_id, "user_id")?;
    session_id.map_or(Ok(()), |s| validate_id(s, "session_id"))
}

/// The MIME type a version of `artifact` records: inline data's, `text/plain` for text, the file's
/// for file data. Refused: an artifact of none of these, and one whose data (inline bytes or text)
/// is over the instance's `maxArtifactBytes` (checked first).
pub fn checked_mime_type(artifact: &Part) -> Result<Option<String>, AdkError> {
    let bytes = artifact.inline_data.as_ref().and_then(|b| b.data.as_ref()).map_or(0, |d| d.0.len());
    let text = artifact.text.as_ref().map_or(0, String::len);
    adk_core::limits::Limit::artifact().check("the artifact", bytes + text)?;
    if let Some(blob) = &artifact.inline_data {
        Ok(blob.mime_type.clone())
    } else if artifact.text.is_some() {
        Ok(Some("text/plain".to_string()))
    } else if let Some(file) = &artifact.file_data {
        Ok(file.mime_type.clone())
    } else {
        Err(AdkError::invalid("Not supported artifact type: give inlineData, text or fileData."))
    }
}

/// The record of a new version of `key`'s artifact, made now, its canonical URI under `scheme`.
pub fn new_version(
    scheme: &str,
    key: ArtifactKey<'_>,
    version: u64,
    custom_metadata: Option<JsonObject>,
    mime_type: Option<String>,
) -> ArtifactVersion {
    ArtifactVersion {
        version,
        canonical_uri: canonical_uri(scheme, key, version),
        custom_metadata: custom_metadata.unwrap_or_default(),
        create_time: crate::platform::now_seconds(),
        mime_type,
    }
}

/// `{scheme}/apps/{app}/users/{user}[/sessions/{session}]/artifacts/{filename}/versions/{version}`.
fn canonical_uri(scheme: &str, key: ArtifactKey<'_>, version: u64) -> String {
    let session = match key.session_id.filter(|_| !key.filename.starts_with(USER_NAMESPACE)) {
        Some(session) => ["/sessions/", session].concat(),
        None => String::new(),
    };
    format!(
        "{scheme}/apps/{}/users/{}{session}/artifacts/{}/versions/{version}",
        key.app_name, key.user_id, key.filename
    )
}
