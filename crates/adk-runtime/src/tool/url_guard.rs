//! Which URLs a tool may open on its own (ADK's `_url_validator`, checked lexically): `http` and
//! `https` only, and, unless private networks are allowed, no loopback, private, link-local or
//! other non-global address and no `localhost`/`*.local`/`*.internal`/metadata name. A page cannot
//! resolve names itself, so a public name that resolves to a private address is left to the
//! browser's own Private Network Access rules; addresses are read as the browser's URL parser
//! reads them (`http://2130706433/` and `http://0x7f.1/` are 127.0.0.1).

use std::net::Ipv4Addr;

const BLOCKED_HOSTNAMES: [&str; 3] = ["localhost", "metadata", "metadata.goog"];
const BLOCKED_SUFFIXES: [&str; 4] = [".localhost", ".local", ".internal", ".metadata.goog"];

/// Why `url` may not be opened, or `None` when it may.
pub fn refusal(url: &str, allow_private_network_access: bool) -> Option<String> {
    // The first `:` ends the scheme (found as one character: a substring search costs more).
    let colon = url.find(':').unwrap_or(0);
    let (scheme, rest) = match url.get(colon..).and_then(|r| r.strip_prefix("://")) {
        Some(rest) => (url.get(..colon).unwrap_or_default(), rest),
        None => ("", url),
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Some(["Unsupported url scheme: ", url].concat());
    }
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    };
    if host.is_empty() {
        return Some(["URL is missing a hostname: ", url].concat());
    }
    if allow_private_network_access {
        return None;
    }
    // The browser's parser drops tabs and newlines, decodes `%XX` in a host and folds full-width
    // characters before it connects: a host it would rewrite so is refused rather than guessed at.
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '_');
    if !host.chars().all(plain) || url.contains(['\t', '\n', '\r']) {
        return Some(["Blocked host: ", host].concat());
    }
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let blocked = BLOCKED_HOSTNAMES.contains(&host.as_str())
        || BLOCKED_SUFFIXES.iter().any(|s| host.ends_with(s))
        || whatwg_ipv4(&host).is_some_and(|ip| !is_global_v4(ip))
        || ipv6(&host).is_some_and(|segments| !is_global_v6(segments));
    blocked.then(|| ["Blocked host: ", &host].concat())
}

/// The IPv4 address a host (lower case) is, read as the WHATWG URL parser reads it (decimal, `0x`
/// hex and `0`-octal parts; fewer than four parts fill the last), when its last label is numeric.
fn whatwg_ipv4(host: &str) -> Option<Ipv4Addr> {
    let mut labels: Vec<&str> = Vec::new();
    for label in host.strip_suffix('.').unwrap_or(host).split('.') {
        labels.push(label);
    }
    let number = |label: &str| -> Option<u64> {
        if let Some(hex) = label.strip_prefix("0x") {
            return if hex.is_empty() { Some(0) } else { digits(hex, 16) };
        }
        match label.strip_prefix('0') {
            Some(octal) if !octal.is_empty() => digits(octal, 8),
            _ => digits(label, 10),
        }
    };
    number(labels.last()?)?;
    if labels.len() > 4 {
        return None;
    }
    // Loops rather than collecting `Option`s: that adapter is code of its own per item type.
    let mut numbers: Vec<u64> = Vec::new();
    for label in &labels {
        numbers.push(number(label)?);
    }
    let (last, head) = numbers.split_last()?;
    if head.iter().any(|n| *n > 255) || *last >= 256u64.pow(5 - numbers.len() as u32) {
        return None;
    }
    let mut address = *last;
    for (i, n) in head.iter().enumerate() {
        address += n << (8 * (3 - i));
    }
    u32::try_from(address).ok().map(Ipv4Addr::from)
}

/// The number `text` spells in `radix`: digits only, at least one, no overflow. (One reader for
/// every base: the standard library's parsers are an instance each.)
fn digits(text: &str, radix: u32) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.chars().try_fold(0u64, |n, c| n.checked_mul(u64::from(radix))?.checked_add(u64::from(c.to_digit(radix)?)))
}

/// Python's `IPv4Address.is_global`: outside its private ranges and 100.64.0.0/10.
fn is_global_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, d] = ip.octets();
    let private = a == 0
        || a == 10
        || a == 127
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && c == 0 && (d < 8 || d == 170 || d == 171))
        || (a == 192 && b == 0 && c == 2)
        || (a == 192 && b == 168)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 240
        || (a == 100 && (64..128).contains(&b));
    !private
}

/// The eight groups of an IPv6 literal (`::` once, a dotted IPv4 address last), or `None`. (Its
/// own reader: the standard library's parsers cost more than this whole module.)
fn ipv6(text: &str) -> Option<[u16; 8]> {
    fn groups(part: &str, last: bool) -> Option<Vec<u16>> {
        let mut out = Vec::new();
        if part.is_empty() {
            return Some(out);
        }
        let mut pieces: Vec<&str> = Vec::new();
        for piece in part.split(':') {
            pieces.push(piece);
        }
        for (i, piece) in pieces.iter().enumerate() {
            if last && i + 1 == pieces.len() && piece.contains('.') {
                let octet = |o: &str| digits(o, 10).and_then(|n| u8::try_from(n).ok()).map(u16::from);
                let mut octets: Vec<u16> = Vec::new();
                for o in piece.split('.') {
                    octets.push(octet(o)?);
                }
                let [a, b, c, d] = octets[..] else { return None };
                out.extend([(a << 8) | b, (c << 8) | d]);
            } else if (1..=4).contains(&piece.len()) {
                out.push(digits(piece, 16)? as u16);
            } else {
                return None;
            }
        }
        Some(out)
    }
    let double = |t: &str| adk_core::scan::find(t.as_bytes(), b"::");
    let (head, tail) = match double(text) {
        Some(at) => {
            let (head, tail) = (text.get(..at).unwrap_or_default(), text.get(at + 2..).unwrap_or_default());
            if double(tail).is_some() {
                return None;
            }
            (groups(head, false)?, Some(groups(tail, true)?))
        }
        None => (groups(text, true)?, None),
    };
    let given = head.len() + tail.as_ref().map_or(0, Vec::len);
    if (tail.is_none() && given != 8) || given > 8 || (tail.is_some() && given == 8) {
        return None;
    }
    let mut segments = [0u16; 8];
    let tail = tail.unwrap_or_default();
    for (slot, value) in segments.iter_mut().zip(head.iter().copied()) {
        *slot = value;
    }
    for (slot, value) in segments.iter_mut().rev().zip(tail.iter().rev().copied()) {
        *slot = value;
    }
    Some(segments)
}

/// Global, and not carrying a non-global IPv4 address inside (mapped, compatible, 6to4, NAT64).
fn is_global_v6(s: [u16; 8]) -> bool {
    let embedded = |hi: u16, lo: u16| is_global_v4(Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo)));
    let non_global = s == [0, 0, 0, 0, 0, 0, 0, 1]
        || s == [0; 8]
        || (s[0] & 0xfe00) == 0xfc00
        || (s[0] & 0xffc0) == 0xfe80
        || (s[0] == 0x2001 && s[1] < 0x0200)
        || (s[0] == 0x2001 && s[1] == 0x0db8)
        || (s[0] == 0x0100 && s[1] == 0 && s[2] == 0 && s[3] == 0);
    let v4_inside = match s {
        [0, 0, 0, 0, 0, 0xffff, hi, lo] | [0, 0, 0, 0, 0, 0, hi, lo] | [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => {
            Some((hi, lo))
        }
        [0x2002, hi, lo, ..] => Some((hi, lo)),
        _ => None,
    };
    !non_global && v4_inside.is_none_or(|(hi, lo)| embedded(hi, lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_odd_spellings_are_blocked() {
        for url in [
            "http://localhost:8000/x",
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0177.0.0.1/",
            "http://10.1.2.3/",
            "http://169.254.169.254/latest",
            "http://[::1]:80/",
            "http://[::ffff:192.168.0.1]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://printer.local/",
            "http://db.internal./",
            "http://user@metadata.goog/",
            "http://127.0.0.%31/",
            "http://loc%61lhost/",
            "http://\u{ff11}\u{ff12}\u{ff17}.0.0.1/",
            "http://127.0.0.1\t/",
            "http://[2001:2::1]/",
            "ftp://example.com/",
            "http:///nohost",
        ] {
            assert!(refusal(url, false).is_some(), "{url}");
        }
        assert_eq!(ipv6("::ffff:192.168.0.1"), Some([0, 0, 0, 0, 0, 0xffff, 0xc0a8, 1]));
        assert_eq!(ipv6("1:2:3:4:5:6:7:8"), Some([1, 2, 3, 4, 5, 6, 7, 8]));
        for bad in ["1::2::3", "1:2:3:4:5:6:7", "12345::", "1:2:3:4:5:6:7:8::", ":", "::1.2.3"] {
            assert_eq!(ipv6(bad), None, "{bad}");
        }
        for url in ["https://example.com/a", "http://8.8.8.8/", "https://[2606:4700::1111]/", "https://1.example/"] {
            assert_eq!(refusal(url, false), None, "{url}");
        }
        assert_eq!(refusal("http://127.0.0.1:9/", true), None);
    }
}
