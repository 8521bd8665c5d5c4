//! Where a card read over the network may send the client's requests, as ADK 2.13's
//! `RemoteA2aAgent` checks it: the card is fetched over https (or plain http from a loopback host,
//! for local development), and the interface the client uses is on the origin it was fetched from
//! (ADK refuses a card that offers any interface elsewhere). Otherwise a card could aim the
//! requests, and the headers the client adds to each (a bearer token), at a host its caller never
//! named.

use adk_core::url::origin;

use crate::{AdkError, ErrorCode};

/// Refuses a card URL that is neither https nor http on a loopback host, before anything is sent.
#[inline(never)]
pub(crate) fn check_card_url(url: &str) -> Result<(), AdkError> {
    let origin = origin(url).unwrap_or_default();
    let scheme_is = |scheme: &str| origin.get(..scheme.len()).is_some_and(|s| s.eq_ignore_ascii_case(scheme));
    if scheme_is("https://") || (scheme_is("http://") && loopback(origin)) {
        return Ok(());
    }
    Err(refused("the agent card URL must use https, or http on a loopback host: ", url, ""))
}

/// Refuses `target`, the interface a client of the card read from `card_url` would use, on
/// another origin than the card's.
#[inline(never)]
pub(crate) fn check_target(card_url: &str, target: &str) -> Result<(), AdkError> {
    match (origin(card_url), origin(target)) {
        (Some(a), Some(b)) if without_default_port(a).eq_ignore_ascii_case(without_default_port(b)) => Ok(()),
        // The way out named: a card passed in directly is its caller's own choice, as in ADK.
        _ => Err(refused(
            "the agent card names an interface on another origin than its own: ",
            target,
            &[" (the card was read from ", card_url, "; pass the card itself to use it anyway)"].concat(),
        )),
    }
}

fn refused(what: &str, url: &str, more: &str) -> AdkError {
    AdkError::new(ErrorCode::InvalidArgument, [what, url, more].concat())
}

/// `origin` without its scheme's default port: `https://a.example:443` is `https://a.example`.
fn without_default_port(origin: &str) -> &str {
    let https = origin.get(..6).is_some_and(|s| s.eq_ignore_ascii_case("https:"));
    origin.strip_suffix(if https { ":443" } else { ":80" }).unwrap_or(origin)
}

/// Whether `origin`'s host names this machine: `localhost` and `*.localhost`, an IPv4 address in
/// 127.0.0.0/8, or `[::1]` (ADK's test: Python's `ip_address(host).is_loopback`).
fn loopback(origin: &str) -> bool {
    let bytes = origin.as_bytes();
    // The host: after the scheme's `://` and any user info, before any port (an IPv6 host keeps
    // its brackets).
    let start = bytes.iter().rposition(|&b| b == b'@' || b == b'/').map_or(0, |i| i + 1);
    let host = bytes.get(start..).unwrap_or_default();
    let end = if host.first() == Some(&b'[') {
        host.iter().position(|&b| b == b']').map_or(host.len(), |i| i + 1)
    } else {
        host.iter().position(|&b| b == b':').unwrap_or(host.len())
    };
    let host = host.get(..end).unwrap_or_default();
    let named = |name: &[u8]| {
        host.len() >= name.len() && host.get(host.len() - name.len()..).is_some_and(|h| h.eq_ignore_ascii_case(name))
    };
    if host.eq_ignore_ascii_case(b"localhost") || named(b".localhost") || host == b"[::1]" {
        return true;
    }
    let Some(rest) = host.strip_prefix(b"127.") else { return false };
    // Three more decimal parts of at most three digits, each at most 255.
    let (mut parts, mut digits, mut value) = (1, 0, 0u32);
    for &b in rest {
        match b {
            b'.' if digits > 0 => (parts, digits, value) = (parts + 1, 0, 0),
            b'0'..=b'9' if digits < 3 => {
                (digits, value) = (digits + 1, value * 10 + u32::from(b - b'0'));
                if value > 255 {
                    return false;
                }
            }
            _ => return false,
        }
    }
    parts == 3 && digits > 0
}

#[cfg(test)]
mod tests {
    use super::{check_card_url, check_target};

    #[test]
    fn a_card_url_is_https_or_http_on_a_loopback_host() {
        for url in [
            "https://a.example/.well-known/agent-card.json",
            "HTTPS://a.example",
            "http://localhost:8000/",
            "http://LOCALHOST",
            "http://agent.localhost:8000/card.json",
            "http://127.0.0.1:18931/rpc",
            "http://127.255.0.9",
            "http://[::1]:8000/",
            "http://user@127.0.0.1:9/",
        ] {
            assert!(check_card_url(url).is_ok(), "{url} refused");
        }
        for url in [
            "http://a.example/",
            "http://192.168.1.5:8000/",
            "http://127.0.0.1.evil.example/",
            "http://127.evil.example/",
            "http://127.0.0.256/",
            "http://127.0.1/",
            "http://localhost.evil.example/",
            "http://localhost@evil.example/",
            "http://[::2]:8000/",
            "ftp://a.example/",
            "ftp://localhost/",
            "http://evil.example\\@localhost/",
            "/relative/card.json",
            "",
        ] {
            let e = check_card_url(url).unwrap_err();
            assert_eq!(e.code, adk_core::ErrorCode::InvalidArgument);
            assert!(e.message.ends_with(url), "{}", e.message);
        }
    }

    #[test]
    fn every_interface_is_on_the_cards_origin() {
        let card = "https://a.example/agents/x/.well-known/agent-card.json";
        for target in
            ["https://a.example/rpc", "https://A.EXAMPLE:443/rpc", "https://a.example", "https://a.example?x#y"]
        {
            assert!(check_target(card, target).is_ok(), "{target} refused");
        }
        for target in [
            "http://a.example/rpc",
            "https://a.example:8443/rpc",
            "https://b.example/rpc",
            "https://a.example.evil.example/rpc",
            "https://a.example@evil.example/rpc",
            "/rpc",
            "",
        ] {
            let e = check_target(card, target).unwrap_err();
            assert!(e.message.contains(card) && e.message.contains(&format!("own: {target} (")), "{}", e.message);
        }
        assert!(check_target("http://127.0.0.1:80/card.json", "http://127.0.0.1/rpc").is_ok());
        assert!(check_target("http://127.0.0.1:8000/card.json", "http://localhost:8000/rpc").is_err());
    }
}
