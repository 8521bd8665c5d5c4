//! Joining owned strings, for the many places that join a `Vec<String>`: `[String]::join` is a
//! generic copy loop of its own (about a kilobyte of wasm) beside the one every `[&str]` concat
//! and join already shares.

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

/// At most the first `max` characters of `text` (a slice of it, not a collected copy).
pub fn first_chars(text: &str, max: usize) -> &str {
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    text.get(..end).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::{first_chars, join};

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
}
