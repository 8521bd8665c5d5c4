//! The parts of a URL the protocol clients build from caller-given text (ids, names, query values).

use std::fmt::Write;

/// Percent-encodes everything but RFC 3986's unreserved characters, so that any text can be a
/// path segment or a query value.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => out.push(b as char),
            // Writing into a String cannot fail.
            _ => drop(write!(out, "%{b:02X}")),
        }
    }
    out
}

/// `?a=1&b=2` of the pairs that have a value, each value encoded; empty when none has.
pub fn query(pairs: &[(&str, Option<String>)]) -> String {
    let mut out = String::new();
    for (key, value) in pairs {
        if let Some(value) = value {
            out.push(if out.is_empty() { '?' } else { '&' });
            out.push_str(key);
            out.push('=');
            out.push_str(&encode_component(value));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_all_but_unreserved_characters() {
        assert_eq!(encode_component("a-b_c.d~e"), "a-b_c.d~e");
        assert_eq!(encode_component("report/v1 final"), "report%2Fv1%20final");
        assert_eq!(encode_component("user:세션"), "user%3A%EC%84%B8%EC%85%98");
    }

    #[test]
    fn a_query_of_the_values_given() {
        assert_eq!(
            query(&[("a", None), ("version", Some("2".into())), ("q", Some("x&y".into()))]),
            "?version=2&q=x%26y"
        );
        assert_eq!(query(&[("a", None)]), "");
    }
}
