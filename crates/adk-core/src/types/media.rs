//! Inline and referenced media.

use super::Bytes;

crate::json_struct! {
    /// Inline bytes with their MIME type (`types.Blob`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Blob {
        /// The bytes, URL-safe base64 on the wire.
        pub data: Option<Bytes> => "data" opt,
        /// A label for the blob, e.g. a file name.
        pub display_name: Option<String> => "displayName" opt,
        /// IANA MIME type of the data.
        pub mime_type: Option<String> => "mimeType" opt,
        /// What an audio blob says, when the channel transcribed it (the seeds' `Blob`; genai's
        /// has no such field).
        pub transcript: Option<String> => "transcript" opt,
    }
}

impl Blob {
    /// JSON text as a blob of MIME type `application/json` (the seeds' `Blob.from_json`).
    pub fn from_json(data: &str) -> Self {
        Blob {
            data: Some(Bytes(data.as_bytes().to_vec())),
            mime_type: Some("application/json".into()),
            ..Default::default()
        }
    }

    /// The transcript of an audio blob, when there is one (the seeds' `Blob.transcript()`).
    pub fn transcript(&self) -> Option<&str> {
        self.transcript.as_deref()
    }
}

crate::json_struct! {
    /// Media referenced by URI (`types.FileData`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct FileData {
        /// A label for the file.
        pub display_name: Option<String> => "displayName" opt,
        /// Where the file is, e.g. `gs://…` or `https://…`.
        pub file_uri: Option<String> => "fileUri" opt,
        /// IANA MIME type of the file.
        pub mime_type: Option<String> => "mimeType" opt,
    }
}
