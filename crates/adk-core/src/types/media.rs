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
