//! The parts of a URL the protocol clients build from caller-given text (ids, names, query values).

/// Percent-encodes everything but RFC 3986's unreserved characters, so that any text can be a
/// path segment or a query value.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    percent_encode(&mut out, text, false);
    out
}

/// Appends `text` with everything but the unreserved characters percent-encoded; a space as `+`
/// when `space_as_plus` (form encoding), else as `%20`.
fn percent_encode(out: &mut String, text: &str, space_as_plus: bool) {
    for byte in text.bytes() {
        match byte {
            b' ' if space_as_plus => out.push('+'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => out.push(char::from(byte)),
            _ => {
                out.push('%');
                out.push(hex_digit(byte >> 4));
                out.push(hex_digit(byte & 15));
            }
        }
    }
}

/// The upper-case hex digit of `n` (below 16), written out: `{:02X}` would bring in the module's
/// only padded hex formatter.
fn hex_digit(n: u8) -> char {
    char::from(if n < 10 { b'0' + n } else { b'A' - 10 + n })
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

/// Appends `text` form-encoded (`application/x-www-form-urlencoded`, as Python's `requests` and
/// authlib encode: space as `+`, everything but the unreserved characters percent-encoded).
pub fn form_encode(out: &mut String, text: &str) {
    percent_encode(out, text, true);
}

/// `a=1&b=2`, form-encoded: an OAuth token request's body, or query parameters.
pub fn form<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> String {
    let mut out = String::new();
    for (key, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        form_encode(&mut out, key.as_ref());
        out.push('=');
        form_encode(&mut out, value.as_ref());
    }
    out
}

/// The query parameters of `url` (before any fragment), decoded: `+` as space, `%XX` as its
/// byte; a malformed escape is kept as it is, and bytes that are not UTF-8 become U+FFFD.
pub fn query_params(url: &str) -> Vec<(String, String)> {
    let before_fragment = url.split('#').next().unwrap_or_default();
    let Some((_, query)) = before_fragment.split_once('?') else { return Vec::new() };
    let decode = |text: &str| {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            match (b, hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
                (b'%', Some(value)) => {
                    out.push(value);
                    i += 3;
                }
                _ => {
                    out.push(if b == b'+' { b' ' } else { b });
                    i += 1;
                }
            }
        }
        crate::text::lossy_string(out)
    };
    let mut params = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        params.push((decode(key), decode(value)));
    }
    params
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

    #[test]
    fn form_encoding_round_trips_through_the_query_reader() {
        let body = form(&[("redirect_uri", "http://127.0.0.1:8/cb?x=1"), ("scope", "openid profile")]);
        assert_eq!(body, "redirect_uri=http%3A%2F%2F127.0.0.1%3A8%2Fcb%3Fx%3D1&scope=openid+profile");
        let params = query_params(&format!("http://h/cb?{body}&bad=%zz%4&empty#code=no"));
        assert_eq!(params[0], ("redirect_uri".into(), "http://127.0.0.1:8/cb?x=1".into()));
        assert_eq!(params[1], ("scope".into(), "openid profile".into()));
        assert_eq!(params[2], ("bad".into(), "%zz%4".into()));
        assert_eq!(params[3], ("empty".into(), String::new()));
        assert_eq!(params.len(), 4);
        assert!(query_params("http://h/cb#a=b").is_empty());
        assert_eq!(query_params("?a=%C3%A9%FF")[0].1, "é\u{fffd}");
    }
}
