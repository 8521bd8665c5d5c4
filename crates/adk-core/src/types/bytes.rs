//! Binary payloads: URL-safe base64 on the wire, as pydantic's `ser_json_bytes='base64'` writes them.

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD, URL_SAFE};
use base64::engine::DecodePaddingMode;
use base64::Engine;

use crate::json::{FromJson, JsonError, Reader, ToJson, Writer};

/// Accepts padded and unpadded input; the alphabet is normalised before decoding.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Raw bytes that travel as URL-safe base64 text; the standard alphabet is accepted on input too.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    /// Decodes standard or URL-safe base64, padded or not.
    pub fn from_base64(text: &str) -> Result<Self, base64::DecodeError> {
        let normalised: String = text
            .chars()
            .map(|c| match c {
                '+' => '-',
                '/' => '_',
                c => c,
            })
            .collect();
        LENIENT.decode(normalised).map(Bytes)
    }

    /// URL-safe base64 with padding, exactly as ADK Python writes it.
    pub fn to_base64(&self) -> String {
        URL_SAFE.encode(&self.0)
    }

    /// Standard base64 with padding: what protobuf's JSON mapping (A2A) and Python's `b64decode` read.
    pub fn to_standard_base64(&self) -> String {
        STANDARD.encode(&self.0)
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({})", self.to_base64())
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Bytes(v)
    }
}

impl ToJson for Bytes {
    fn write_json(&self, w: &mut Writer) {
        w.str(&self.to_base64());
    }
}

impl FromJson for Bytes {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let text = r.str()?;
        Bytes::from_base64(&text).map_err(|e| JsonError::data(format!("invalid base64: {e}")))
    }
}

crate::serde_via_json!(Bytes);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_url_safe_with_padding() {
        assert_eq!(Bytes(vec![0xfb, 0xff]).to_base64(), "-_8=");
    }

    #[test]
    fn reads_both_alphabets_with_or_without_padding() {
        for text in ["-_8=", "+/8=", "-_8", "+/8"] {
            assert_eq!(Bytes::from_base64(text).map(|b| b.0), Ok(vec![0xfb, 0xff]), "{text}");
        }
    }

    #[test]
    fn rejects_garbage() {
        assert!(Bytes::from_base64("ab$d").is_err());
        assert!(Bytes::from_base64("a").is_err());
    }
}
