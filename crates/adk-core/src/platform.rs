//! What the core needs from its host: the clock, randomness for ids, Unicode normalisation and
//! lower-casing, and the floats JSON's own reading and writing leaves over (in the browser its own,
//! so the module carries no Unicode tables nor power-of-ten tables for them).
//!
//! Natively these come from `std`, `getrandom`, `unicode-normalization` and `zmij`. In the browser the wasm
//! crate installs the browser's own ([`install`]) when the module starts, so that nothing here
//! imports JavaScript bindings: the dependency points from the boundary to the core, never back.

use crate::cell::Lend;
use std::sync::OnceLock;

/// The host's services.
#[derive(Clone, Copy)]
pub struct Host {
    /// Seconds since the Unix epoch.
    pub now_seconds: fn() -> f64,
    /// Fills the buffer with cryptographically random bytes; `false` if the host has none.
    pub fill_random: fn(&mut [u8]) -> bool,
    /// The text in Unicode Normalization Form C.
    pub nfc: fn(&str) -> String,
    /// The text lower-cased by Unicode's default rules (final sigma included), as Python's `str.lower`.
    pub lowercase: fn(&str) -> String,
    /// The value of a JSON number's text, correctly rounded (infinite when out of range).
    pub parse_float: fn(&str) -> f64,
    /// The shortest text that reads back as a positive finite double (the closest of them when
    /// several are as short), in any of the forms JSON numbers take.
    pub shortest_float: fn(f64) -> String,
}

static HOST: OnceLock<Host> = OnceLock::new();

/// Installs the host's services; the first installation wins. Returns whether this one did.
pub fn install(host: Host) -> bool {
    HOST.set(host).is_ok()
}

fn host() -> Host {
    HOST.get().copied().unwrap_or(DEFAULT)
}

#[cfg(not(target_arch = "wasm32"))]
const DEFAULT: Host = Host {
    now_seconds: native::now_seconds,
    fill_random: native::fill_random,
    nfc: native::nfc,
    lowercase: str::to_lowercase,
    parse_float: native::parse_float,
    shortest_float: native::shortest_float,
};

/// A wasm module without an installed host (the wasm crate always installs one): the clock stands
/// at the epoch, ids come from uuid's fallback generator, text is left as it is (but for ASCII case),
/// and the rare floats JSON does not convert itself read as out of range and write as zero.
#[cfg(target_arch = "wasm32")]
const DEFAULT: Host = Host {
    now_seconds: || 0.0,
    fill_random: |_| false,
    nfc: str::to_string,
    lowercase: str::to_ascii_lowercase,
    parse_float: |_| f64::INFINITY,
    shortest_float: |_| String::new(),
};

#[cfg(not(target_arch = "wasm32"))]
mod native {
    pub fn now_seconds() -> f64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
    }

    pub fn fill_random(buf: &mut [u8]) -> bool {
        getrandom::getrandom(buf).is_ok()
    }

    pub fn nfc(text: &str) -> String {
        use unicode_normalization::UnicodeNormalization;
        text.nfc().collect()
    }

    pub fn parse_float(text: &str) -> f64 {
        text.parse().unwrap_or(f64::INFINITY)
    }

    pub fn shortest_float(value: f64) -> String {
        zmij::Buffer::new().format_finite(value).to_string()
    }
}

/// Seconds since the Unix epoch, as ADK's `time.time()`, but strictly increasing from one call to
/// the next: event timestamps order a session, and compaction covers events by timestamp range, so
/// two events must never share one (a browser clock ticks in whole milliseconds, and an instant
/// model answers within one). A microsecond apart, when the clock has not moved.
pub fn now_seconds() -> f64 {
    thread_local! {
        static LAST: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::MIN) };
    }
    let now = (host().now_seconds)();
    LAST.with(|last| {
        let next = after(last.get(), now);
        last.set(next);
        next
    })
}

/// `now`, or the whole microsecond after `last` when the clock has not moved past it (a whole
/// microsecond, so the timestamp stays as short as the clock's own: `…​.123001`, not `…​.1230009`).
fn after(last: f64, now: f64) -> f64 {
    if now > last {
        return now;
    }
    let bumped = ((last * 1e6).round() + 1.0) / 1e6;
    // Past 2^53 microseconds (the year 2255) a whole microsecond is no longer one step.
    if bumped > last {
        bumped
    } else {
        last + 1e-6
    }
}

/// The value of a JSON number's text, by the host (see [`Host::parse_float`]).
pub fn parse_float(text: &str) -> f64 {
    (host().parse_float)(text)
}

/// The shortest text of a positive finite double, by the host (see [`Host::shortest_float`]).
pub fn shortest_float(value: f64) -> String {
    (host().shortest_float)(value)
}

/// `text` in Unicode Normalization Form C.
pub fn nfc(text: &str) -> String {
    (host().nfc)(text)
}

/// `text` lower-cased, as Python's `str.lower()`.
pub fn lowercase(text: &str) -> String {
    (host().lowercase)(text)
}

/// A random number in [0, 1) from the host's randomness (0.5 if it has none): for spreading out
/// retries, not for secrets.
pub fn random_fraction() -> f64 {
    let mut bytes = [0u8; 4];
    match (host().fill_random)(&mut bytes) {
        true => f64::from(u32::from_le_bytes(bytes)) / 4_294_967_296.0,
        false => 0.5,
    }
}

/// `length` random ASCII letters and digits from the host's cryptographic randomness (authlib's
/// `generate_token`, for OAuth `state` and PKCE verifiers); `None` when the host has none, since
/// these guard a sign-in and must not fall back to guessable values.
pub fn random_token(length: usize) -> Option<String> {
    const CHARS: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = String::with_capacity(length);
    while out.len() < length {
        let mut bytes = [0u8; 64];
        if !(host().fill_random)(&mut bytes) {
            return None;
        }
        // 62 * 4 = 248: bytes from 248 up are dropped so every character is equally likely.
        for b in bytes.iter().filter(|b| **b < 248).take(length - out.len()) {
            out.push(char::from(CHARS.get(usize::from(b % 62)).copied().unwrap_or(b'A')));
        }
    }
    Some(out)
}

/// A random uuid4 string (ADK's `str(uuid.uuid4())`). Random bytes are drawn from the host 4 KiB at
/// a time: one call per 256 ids, not per id.
pub fn new_uuid() -> String {
    thread_local! {
        static POOL: std::cell::RefCell<(Vec<u8>, usize)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
        static FALLBACK: std::cell::Cell<u64> = const { std::cell::Cell::new(0x9E37_79B9_7F4A_7C15) };
    }
    let mut bytes = [0u8; 16];
    let drawn = POOL.with(|pool| {
        let mut pool = pool.lend_mut();
        let (buf, used) = &mut *pool;
        if *used + 16 > buf.len() {
            buf.resize(4096, 0);
            if !(host().fill_random)(buf) {
                buf.clear();
            }
            *used = 0;
        }
        let chunk = buf.get(*used..*used + 16)?;
        bytes.copy_from_slice(chunk);
        *used += 16;
        Some(())
    });
    if drawn.is_none() {
        // No system randomness: splitmix64, seeded by the clock. Unique ids, not secrets.
        FALLBACK.with(|state| {
            for half in bytes.chunks_mut(8) {
                let mut z = state.get().wrapping_add(0x9E37_79B9_7F4A_7C15) ^ now_seconds().to_bits();
                state.set(z);
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                half.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
            }
        });
    }
    uuid4(bytes)
}

/// RFC 4122 version 4, variant 1, in its 8-4-4-4-12 hex form.
fn uuid4(mut bytes: [u8; 16]) -> String {
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = |nibble: u8| char::from(nibble + if nibble < 10 { b'0' } else { b'a' - 10 });
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.into_iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(hex(b >> 4));
        out.push(hex(b & 0x0f));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_tokens_are_alphanumeric_and_distinct() {
        let a = random_token(48).unwrap();
        assert_eq!(a.len(), 48);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_ne!(a, random_token(48).unwrap());
    }

    #[test]
    fn uuids_are_version_4_and_distinct() {
        let a = new_uuid();
        let b = new_uuid();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
        assert_eq!(uuid4([0xff; 16]), "ffffffff-ffff-4fff-bfff-ffffffffffff");
    }
}

#[cfg(test)]
mod clock_tests {
    #[test]
    fn a_clock_that_stands_still_still_moves_on() {
        let now = 1_795_649_388.281;
        let a = super::after(f64::MIN, now);
        let b = super::after(a, now);
        let c = super::after(b, now - 0.5);
        assert!(a == now && a < b && b < c, "{a} {b} {c}");
        // A browser's clock: whole milliseconds; the bumps are whole microseconds, as short.
        let ms = super::after(super::after(f64::MIN, 1_764_117_600.123), 1_764_117_600.123);
        assert_eq!(ms.to_string(), "1764117600.123001");
    }
}
