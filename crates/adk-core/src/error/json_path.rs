//! Where in a JSON text an error happened, as a path like `content.parts[0].text`.
//!
//! serde_json reports a line and column; re-scanning the text up to there tells which member is
//! meant. This costs one small scanner instead of a path-tracking copy of every type's decoder
//! (which `serde_path_to_error` would monomorphize, ~100 KiB of wasm).

enum Frame {
    Object { key: Option<String>, expecting_key: bool },
    Array { index: usize },
}

/// The byte offset of serde_json's 1-based `line` and byte `column`.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column).min(text.len())
}

/// The path of the value at `offset` (serde_json's error position: the last byte it consumed or the
/// one it peeked at). With `of_container`, a closing `}`/`]` there names the container itself (a
/// missing field); otherwise the member that ended just before it (a value rejected after reading).
pub fn path_at(text: &str, offset: usize, of_container: bool) -> String {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let last = end.checked_sub(1).and_then(|i| bytes.get(i)).copied();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i + 1 < end {
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'{' => stack.push(Frame::Object { key: None, expecting_key: true }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { expecting_key, .. }) => *expecting_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let close = string_end(bytes, i + 1);
                if let Some(Frame::Object { key, expecting_key }) = stack.last_mut() {
                    if *expecting_key {
                        let raw = text.get(i..close.map_or(end, |c| c + 1)).unwrap_or_default();
                        *key = Some(serde_json::from_str(raw).unwrap_or_else(|_| raw.trim_matches('"').to_string()));
                        *expecting_key = false;
                    }
                }
                match close {
                    Some(c) => i = c,
                    None => break,
                }
            }
            _ => {}
        }
        i += 1;
    }
    let closes_container = of_container && matches!(last, Some(b'}' | b']'));
    let keep = stack.len().saturating_sub(usize::from(closes_container));
    let mut path = String::new();
    for (depth, frame) in stack.iter().enumerate() {
        let whole = depth < keep;
        match frame {
            Frame::Object { key: Some(key), .. } if whole => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Array { index } if whole => path.push_str(&format!("[{index}]")),
            _ => {}
        }
    }
    path
}

/// The index of the quote closing a string whose content starts at `from`.
fn string_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_values_keys_and_containers() {
        let text = r#"{"a": {"b": [1, {"c": "x\"y"}]}, "d": 2}"#;
        let at = |needle: &str, container| path_at(text, text.find(needle).unwrap() + needle.len(), container);
        assert_eq!(at("[1", false), "a.b[0]");
        assert_eq!(at(r#""x\"y""#, false), "a.b[1].c");
        assert_eq!(at(r#""x\"y"}"#, true), "a.b[1]");
        assert_eq!(at(r#""x\"y"}"#, false), "a.b[1].c");
        assert_eq!(at("2", false), "d");
        assert_eq!(path_at(text, text.len(), true), "");
        assert_eq!(offset_of("ab\ncd", 2, 1), 4);
    }
}
