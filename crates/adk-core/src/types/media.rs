//! Inline and referenced media.

use serde::{Deserialize, Serialize};

use super::Bytes;

/// Inline bytes with their MIME type (`types.Blob`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Blob {
    /// The bytes, URL-safe base64 on the wire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Bytes>,
    /// A label for the blob, e.g. a file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// IANA MIME type of the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

/// Media referenced by URI (`types.FileData`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileData {
    /// A label for the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// Where the file is, e.g. `gs://…` or `https://…`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_uri: Option<String>,
    /// IANA MIME type of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}
