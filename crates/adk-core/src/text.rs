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

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn joins_as_std_does() {
        for parts in [vec![], vec!["".to_string()], vec!["a".into(), "".into(), "c".into()]] {
            assert_eq!(join(&parts, ", "), parts.join(", "));
        }
    }
}
