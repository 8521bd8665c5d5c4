//! Finding the next byte of interest several bytes at a time: the text between JSON quotes and
//! between SSE line breaks is most of what the parsers read. Sixteen at a time in wasm's SIMD
//! lanes (the module is built with them: see `.cargo/config.toml`), eight at a time in a `u64`
//! elsewhere. And the value of the digits the parsers find.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use lanes::{find2_in, string_special_in};
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
use words::{find2_in, string_special_in};

/// The index of the first `a` or `b` in `bytes`.
pub fn find2(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    find2_in(bytes, a, b)
}

/// The index of the first `"`, `\` or control character (below U+0020): where a JSON string's
/// plain run ends.
pub fn find_string_special(bytes: &[u8]) -> Option<usize> {
    let at = string_special_end(bytes);
    (at < bytes.len()).then_some(at)
}

/// [`find_string_special`], `bytes.len()` when there is none: the JSON reader's form, a plain
/// number (an `Option` goes through memory in wasm, at every string read).
#[inline(never)]
pub(crate) fn string_special_end(bytes: &[u8]) -> usize {
    string_special_in(bytes).unwrap_or(bytes.len())
}

/// Sixteen bytes at a time, in a 128-bit vector.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::{u64x2, u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_or};

    /// The index of the first byte of `bytes` for which `hit` (the lane test) and `is` (the byte
    /// test) agree. Inlined into its two callers, as [`super::words`]'s is.
    #[inline(always)]
    fn first(bytes: &[u8], hit: impl Fn(v128) -> v128, is: impl Fn(u8) -> bool) -> Option<usize> {
        let half = |h: &[u8]| u64::from_le_bytes(h.try_into().unwrap_or_default());
        let mut offset = 0;
        let mut rest = bytes;
        while let Some((chunk, tail)) = rest.split_first_chunk::<16>() {
            // Two 8-byte halves: the compiler loads them straight into the vector (the one-load
            // `v128_load` is unsafe; built from sixteen bytes, the vector took sixteen loads).
            let (low, high) = chunk.split_at(8);
            let found = u8x16_bitmask(hit(u64x2(half(low), half(high))));
            if found != 0 {
                return Some(offset + found.trailing_zeros() as usize);
            }
            offset += 16;
            rest = tail;
        }
        rest.iter().position(|&b| is(b)).map(|i| offset + i)
    }

    pub(super) fn find2_in(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
        let (va, vb) = (u8x16_splat(a), u8x16_splat(b));
        first(bytes, |v| v128_or(u8x16_eq(v, va), u8x16_eq(v, vb)), |c| c == a || c == b)
    }

    pub(super) fn string_special_in(bytes: &[u8]) -> Option<usize> {
        let (quote, backslash, space) = (u8x16_splat(b'"'), u8x16_splat(b'\\'), u8x16_splat(0x20));
        first(
            bytes,
            |v| v128_or(v128_or(u8x16_eq(v, quote), u8x16_eq(v, backslash)), u8x16_lt(v, space)),
            |c| c == b'"' || c == b'\\' || c < 0x20,
        )
    }
}

/// Eight bytes at a time, in a `u64`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod words {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    /// High bit set in each byte of `word` that is zero (exact for the lowest such byte).
    #[inline(always)]
    fn zero_bytes(word: u64) -> u64 {
        word.wrapping_sub(ONES) & !word & HIGHS
    }

    /// The index of the first byte of `bytes` for which `hit` (the word test) and `is` (the byte
    /// test) agree. Inlined into its two callers: built for size, the compiler would otherwise
    /// call out for each word's slice iterator step and copy.
    #[inline(always)]
    fn first(bytes: &[u8], hit: impl Fn(u64) -> u64, is: impl Fn(u8) -> bool) -> Option<usize> {
        let mut offset = 0;
        let mut rest = bytes;
        while let Some((word, tail)) = rest.split_first_chunk::<8>() {
            let found = hit(u64::from_le_bytes(*word));
            if found != 0 {
                return Some(offset + (found.trailing_zeros() / 8) as usize);
            }
            offset += 8;
            rest = tail;
        }
        rest.iter().position(|&b| is(b)).map(|i| offset + i)
    }

    pub(super) fn find2_in(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
        let (wa, wb) = (ONES * u64::from(a), ONES * u64::from(b));
        first(bytes, |w| zero_bytes(w ^ wa) | zero_bytes(w ^ wb), |c| c == a || c == b)
    }

    pub(super) fn string_special_in(bytes: &[u8]) -> Option<usize> {
        let (quote, backslash) = (ONES * u64::from(b'"'), ONES * u64::from(b'\\'));
        // Bytes below 0x20: subtracting 0x20 borrows into the high bit of those (and only of
        // those that were not already ≥ 0x80).
        let control = |w: u64| w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
        first(
            bytes,
            |w| zero_bytes(w ^ quote) | zero_bytes(w ^ backslash) | control(w),
            |c| c == b'"' || c == b'\\' || c < 0x20,
        )
    }
}

/// Whether `a` and `b` are the same bytes, compared eight at a time: slice `==` calls the
/// `memcmp` the wasm module carries, which compares byte by byte.
pub fn same(a: &[u8], b: &[u8]) -> bool {
    let (mut a, mut b) = (a, b);
    if a.len() != b.len() {
        return false;
    }
    while let (Some((x, rest_a)), Some((y, rest_b))) = (a.split_first_chunk::<8>(), b.split_first_chunk::<8>()) {
        if u64::from_le_bytes(*x) != u64::from_le_bytes(*y) {
            return false;
        }
        (a, b) = (rest_a, rest_b);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Where `needle` first occurs in `bytes` (an empty needle at 0), compared byte by byte: UTF-8 text
/// matches where its bytes do, and the standard library's substring search would bring its
/// searcher and its panic formatting into the wasm module.
pub fn find(bytes: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    bytes.windows(needle.len()).position(|w| w == needle)
}

/// The value of `digits` (ASCII digits, as the caller checked), `None` when it overflows `u64`: what
/// `str::parse` gives for them, without its generic code in the wasm module.
pub fn decimal(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &digit| n.checked_mul(10)?.checked_add(u64::from(digit.wrapping_sub(b'0'))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_as_str_find_does() {
        let hay = "https://a::b/.well-known/x ::é";
        for needle in ["", "://", "::", "/.well-known/", "é", "x ::é", "missing", "https://a::b/.well-known/x ::é!"]
        {
            assert_eq!(find(hay.as_bytes(), needle.as_bytes()), hay.find(needle), "{needle:?}");
        }
        assert_eq!(find(b"", b"a"), None);
    }

    #[test]
    fn agrees_with_a_plain_scan() {
        let text: Vec<u8> = (0..300u32).map(|i| (i * 37 % 251) as u8).collect();
        for start in 0..text.len() {
            let s = &text[start..];
            assert_eq!(find2(s, b'\n', b'\r'), s.iter().position(|&b| b == b'\n' || b == b'\r'), "{start}");
            let plain = s.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            assert_eq!(find_string_special(s), plain, "{start}");
        }
        assert_eq!(find_string_special("한국어 ☃ text\"".as_bytes()), Some(18));
        assert_eq!(find2(b"abcdefghijklmnop", b'x', b'y'), None);
    }

    #[test]
    fn same_as_slice_equality() {
        let text: Vec<u8> = (0..40u32).map(|i| (i * 37 % 251) as u8).collect();
        for len in 0..text.len() {
            let a = &text[..len];
            assert!(same(a, a), "{len}");
            assert!(!same(a, &text[..len + 1]), "{len}");
            // One byte changed anywhere: in a word or in the tail after the last one.
            for at in 0..len {
                let mut b = a.to_vec();
                b[at] ^= 0x80;
                assert!(!same(a, &b), "{len} {at}");
            }
        }
    }
}
