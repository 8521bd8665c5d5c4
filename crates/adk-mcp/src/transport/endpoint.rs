//! Where an HTTP+SSE server's `endpoint` event says to POST: a URL reference resolved against the
//! stream's URL (as the `mcp` SDK's `urljoin` and the TypeScript SDK's `new URL(data, url)` do),
//! and refused on any other origin, as both SDKs refuse it: a stream must not be able to send the
//! session's messages, and the headers that go with them, to a third party.

use adk_core::url::{origin, path_start};

/// `reference` resolved against `base`; `None` when it leads to another origin (or `base` has none).
pub fn resolve(base: &str, reference: &str) -> Option<String> {
    let origin = origin(base)?;
    let resolved = if reference.starts_with("//") {
        [base.get(..base.find(':')? + 1)?, reference].concat()
    } else if reference.starts_with('/') {
        [origin, reference].concat()
    } else if reference.get(..path_start(reference)).is_some_and(|first| first.contains(':')) {
        // A scheme: a relative reference's first segment has no `:`.
        reference.to_string()
    } else {
        // Relative to the base's path: the whole of it for a query, else its last segment replaced.
        let path = base.get(origin.len()..base.find(['?', '#']).unwrap_or(base.len()))?;
        let kept = if reference.starts_with('?') { path.len() } else { path.rfind('/').map_or(0, |i| i + 1) };
        let path = path.get(..kept)?;
        [origin, if path.starts_with('/') { "" } else { "/" }, path, reference].concat()
    };
    self::origin(&resolved)?.eq_ignore_ascii_case(origin).then_some(resolved)
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn references_resolve_against_the_stream_url_on_its_origin_only() {
        let base = "http://127.0.0.1:8000/mcp/sse?x=1";
        let cases = [
            ("/messages/?session_id=ab", Some("http://127.0.0.1:8000/messages/?session_id=ab")),
            ("messages?session_id=ab", Some("http://127.0.0.1:8000/mcp/messages?session_id=ab")),
            ("?session_id=ab", Some("http://127.0.0.1:8000/mcp/sse?session_id=ab")),
            ("http://127.0.0.1:8000/m", Some("http://127.0.0.1:8000/m")),
            ("HTTP://127.0.0.1:8000/m", Some("HTTP://127.0.0.1:8000/m")),
            ("//127.0.0.1:8000/m", Some("http://127.0.0.1:8000/m")),
            ("https://127.0.0.1:8000/m", None),
            ("http://127.0.0.1:9000/m", None),
            ("//evil.example/m", None),
            ("http://evil.example/?http://127.0.0.1:8000", None),
            ("javascript:alert(1)", None),
        ];
        for (reference, expected) in cases {
            assert_eq!(resolve(base, reference).as_deref(), expected, "{reference}");
        }
        assert_eq!(resolve("http://h:1", "m").as_deref(), Some("http://h:1/m"));
        assert_eq!(resolve("not a url", "/m"), None);
    }
}
