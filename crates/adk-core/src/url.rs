//! The pieces of a URL the clients compare: an origin, where a path starts. Text, not a parsed
//! URL: each caller needs only these, and a URL parser would be most of a client's size. Bytes
//! are searched rather than `char` patterns, which would bring a searcher into a module that has none.

/// `scheme://authority` of an absolute URL, as it is spelled; `None` without an authority.
pub fn origin(url: &str) -> Option<&str> {
    let colon = url.bytes().position(|b| b == b':')?;
    let authority = url.get(colon + 1..)?.strip_prefix("//")?;
    url.get(..colon + 3 + path_start(authority))
}

/// Where the path (or query, or fragment) of `text` begins: a `\` begins one too, as a browser
/// reads an http(s) URL (`http://a.example\@b.example/` is on `a.example`).
pub fn path_start(text: &str) -> usize {
    text.bytes().position(|b| matches!(b, b'/' | b'?' | b'#' | b'\\')).unwrap_or(text.len())
}
