//! Binary payloads: URL-safe base64 on the wire, as pydantic's `ser_json_bytes='base64'` writes them.
//!
//! The codec is written out here (a few hundred bytes of wasm) rather than taken from the `base64`
//! crate, whose general engine cost the module about 4 KiB.

use std::fmt;

use crate::json::{FromJson, JsonError, Reader, ToJson, Writer};

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Why text is not base64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base64Error {
    /// A byte outside both alphabets (or padding before the end), at this offset.
    InvalidByte(usize, u8),
    /// A length no encoding has (one symbol left over).
    InvalidLength,
    /// Padding that is not what the length calls for.
    InvalidPadding,
    /// The last symbol carries bits no encoder would set.
    InvalidLastSymbol,
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The byte as a `u32`: `u8`'s formatter would be in every module for this alone.
            Base64Error::InvalidByte(at, byte) => write!(f, "invalid symbol {}, offset {at}", u32::from(*byte)),
            Base64Error::InvalidLength => f.write_str("invalid input length"),
            Base64Error::InvalidPadding => f.write_str("invalid padding"),
            Base64Error::InvalidLastSymbol => f.write_str("invalid last symbol"),
        }
    }
}

impl std::error::Error for Base64Error {}

fn encode(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let symbol = |bits: u32| char::from(alphabet.get((bits & 63) as usize).copied().unwrap_or(b'='));
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (i, &b)| word | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { symbol(word >> (18 - 6 * i)) } else { '=' });
        }
    }
    out
}

/// Either alphabet, padded or not.
fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let bytes = text.as_bytes();
    let body = bytes.iter().rposition(|&b| b != b'=').map_or(0, |i| i + 1);
    let padding = bytes.len() - body;
    if padding > 2 || (padding > 0 && bytes.len() % 4 != 0) {
        return Err(Base64Error::InvalidPadding);
    }
    if body % 4 == 1 {
        return Err(Base64Error::InvalidLength);
    }
    let mut out = Vec::with_capacity(body / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0);
    for (at, &byte) in bytes.iter().take(body).enumerate() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return Err(Base64Error::InvalidByte(at, byte)),
        };
        acc = acc << 6 | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if acc != 0 {
        return Err(Base64Error::InvalidLastSymbol);
    }
    Ok(out)
}

/// Raw bytes that travel as URL-safe base64 text; the standard alphabet is accepted on input too.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    /// Decodes standard or URL-safe base64, padded or not.
    pub fn from_base64(text: &str) -> Result<Self, Base64Error> {
        decode(text).map(Bytes)
    }

    /// URL-safe base64 with padding, exactly as ADK Python writes it.
    pub fn to_base64(&self) -> String {
        encode(&self.0, URL_SAFE)
    }

    /// Standard base64 with padding: what protobuf's JSON mapping (A2A) and Python's `b64decode` read.
    pub fn to_standard_base64(&self) -> String {
        encode(&self.0, STANDARD)
    }
}

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
        assert_eq!(Bytes::from_base64("ab$d"), Err(Base64Error::InvalidByte(2, b'$')));
        assert_eq!(Bytes::from_base64("a"), Err(Base64Error::InvalidLength));
        for text in ["AA=", "AAAA=", "A===", "AA=A"] {
            assert!(Bytes::from_base64(text).is_err(), "{text}");
        }
        assert_eq!(Bytes::from_base64("AB=="), Err(Base64Error::InvalidLastSymbol));
    }

    #[test]
    fn round_trips_every_length() {
        let data: Vec<u8> = (0..=255).collect();
        for n in 0..40 {
            let bytes = Bytes(data.get(200..200 + n).unwrap().to_vec());
            assert_eq!(Bytes::from_base64(&bytes.to_base64()), Ok(bytes.clone()));
            assert_eq!(Bytes::from_base64(&bytes.to_standard_base64()), Ok(bytes.clone()));
            assert_eq!(Bytes::from_base64(bytes.to_base64().trim_end_matches('=')), Ok(bytes.clone()));
        }
        assert_eq!(Bytes(b"hello world".to_vec()).to_standard_base64(), "aGVsbG8gd29ybGQ=");
        assert_eq!(Bytes(vec![0xfb, 0xef, 0xbe]).to_standard_base64(), "++++");
    }
}
