//! Joining owned strings, for the many places that join a `Vec<String>`: `[String]::join` is a
//! generic copy loop of its own (about a kilobyte of wasm) beside the one every `[&str]` concat
//! and join already shares. And bytes as text, without std's lossy decoder; characters counted
//! without std's counter.

use std::borrow::Cow;

/// `parts.join(separator)`.
pub fn join(parts: &[String], separator: &str) -> String {
    let mut joined = String::with_capacity(parts.iter().map(|p| p.len() + separator.len()).sum());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            joined.push_str(separator);
        }
        joined.push_str(part);
    }
    joined
}

/// `text.chars().count()` (Python's `len` of a string): the bytes that start a character. std's
/// count is an unrolled word-at-a-time loop of nearly a kilobyte of wasm, for texts counted once
/// per compaction check.
pub fn char_count(text: &str) -> usize {
    text.bytes().filter(|b| b & 0xc0 != 0x80).count()
}

/// At most the first `max` characters of `text` (a slice of it, not a collected copy).
pub fn first_chars(text: &str, max: usize) -> &str {
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    text.get(..end).unwrap_or(text)
}

/// `String::from_utf8_lossy`: `bytes` as text, each invalid sequence replaced by U+FFFD (the
/// maximal subpart `Utf8Error::error_len` gives is the one std replaces), by the strict check
/// every module has: std's lossy decoder is a kilobyte of wasm of its own, for text rarely invalid.
pub fn utf8_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(replacing_invalid(bytes)),
    }
}

/// [`utf8_lossy`] of bytes already owned: valid text keeps them, with no copy.
pub fn lossy_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| replacing_invalid(e.as_bytes()))
}

/// [`utf8_lossy`] of text known to be invalid.
pub fn replacing_invalid(mut bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(valid) => {
                text.push_str(valid);
                return text;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at_checked(e.valid_up_to()).unwrap_or((bytes, &[]));
                text.push_str(std::str::from_utf8(valid).unwrap_or_default());
                text.push('\u{FFFD}');
                bytes = rest.get(e.error_len().unwrap_or(rest.len())..).unwrap_or_default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{char_count, first_chars, join, lossy_string, utf8_lossy};

    #[test]
    fn utf8_lossy_replaces_as_std_does() {
        for bytes in [
            &b""[..],
            b"plain",
            "caf\u{e9} \u{1f600}".as_bytes(),
            b"a\xffb",
            b"\xff\xfe",
            b"a\xe2\x82",
            b"\xe2\x82a\xf0\x9f\x98",
            b"\xed\xa0\x80x",
            b"\xc0\xafz\xf4\x90\x80\x80",
        ] {
            assert_eq!(utf8_lossy(bytes), String::from_utf8_lossy(bytes), "{bytes:?}");
            assert_eq!(lossy_string(bytes.to_vec()), String::from_utf8_lossy(bytes), "{bytes:?}");
        }
    }

    #[test]
    fn joins_as_std_does() {
        for parts in [vec![], vec!["".to_string()], vec!["a".into(), "".into(), "c".into()]] {
            assert_eq!(join(&parts, ", "), parts.join(", "));
        }
    }

    #[test]
    fn first_chars_counts_characters_not_bytes() {
        for (text, max) in [("", 3), ("abc", 3), ("abcd", 3), ("서울이다", 2), ("a😀b", 2), ("abc", 0)] {
            assert_eq!(first_chars(text, max), text.chars().take(max).collect::<String>(), "{text} {max}");
        }
    }

    #[test]
    fn char_count_counts_as_std_does() {
        for text in
            ["", "abc", "caf\u{e9}", "서울이다", "a😀b", "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}"]
        {
            assert_eq!(char_count(text), text.chars().count(), "{text}");
        }
    }
}
