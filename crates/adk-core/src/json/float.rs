//! Floats to and from JSON text, exactly as serde_json reads and spells them, without the 20 KiB of
//! power-of-ten tables the general algorithms carry (Eisel-Lemire to read, Schubfach to write),
//! tables gzip cannot shrink. Numbers of at most 19 significant digits and a decimal exponent
//! within ±19 (timestamps, scores, all the JSON ADK's wire holds in practice) are converted here,
//! exactly, in 128-bit integers; the rare rest goes to the host ([`crate::platform`]: the
//! browser's own `Number` conversions, natively std's and zmij's).

use crate::platform;

/// 10^0 ..= 10^19: every power of ten below 2^64.
const POW10: [u64; 20] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100_000_000_000,
    1_000_000_000_000,
    10_000_000_000_000,
    100_000_000_000_000,
    1_000_000_000_000_000,
    10_000_000_000_000_000,
    100_000_000_000_000_000,
    1_000_000_000_000_000_000,
    10_000_000_000_000_000_000,
];

/// The value of a JSON number's text (already checked to be one), correctly rounded; infinite
/// when it is out of range.
pub(super) fn parse(token: &str) -> f64 {
    decimal(token)
        .and_then(|(negative, mantissa, exp10)| exact(negative, mantissa, exp10))
        .unwrap_or_else(|| platform::parse_float(token))
}

/// Writes a finite `value` as serde_json does: the shortest digits that read back as `value`
/// (the closest of them when several are as short), `12.5`, `1.0`, `0.0001`, `1e+16`, `1.5e-7`.
pub(super) fn write(out: &mut String, value: f64) {
    if value.is_sign_negative() {
        out.push('-');
    }
    let value = value.abs();
    if value == 0.0 {
        out.push_str("0.0");
        return;
    }
    let (mut digits, mut exp10) = shortest(value).unwrap_or_else(|| {
        // The host's spelling, whatever its form (`1e+21`, `0.000001`, `1.5e-7`): only its digits
        // and their exponent are kept.
        let text = platform::shortest_float(value);
        decimal(&text).map_or((0, 0), |(_, mantissa, exp10)| (mantissa, exp10))
    });
    while digits % 10 == 0 && digits != 0 {
        digits /= 10;
        exp10 += 1;
    }
    let digits = super::Digits::new(digits);
    let text = digits.as_str();
    let length = text.len() as i32;
    // The exponent of the first digit: in -5..=15 the number is written out, else in exponent form.
    let point = length - 1 + exp10;
    let zeros = |out: &mut String, n: i32| (0..n).for_each(|_| out.push('0'));
    if !(-5..=15).contains(&point) {
        // `split_at_checked`, not `split_at`: the text is ASCII digits, but `split_at`'s char-boundary
        // panic would bring core's panic formatter (and its Unicode tables) into every module.
        let (first, rest) = text.split_at_checked(1).unwrap_or((text, ""));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push_str(if point < 0 { "e-" } else { "e+" });
        out.push_str(super::Digits::new(u64::from(point.unsigned_abs())).as_str());
    } else if exp10 >= 0 {
        out.push_str(text);
        zeros(out, exp10);
        out.push_str(".0");
    } else if point >= 0 {
        let (whole, fraction) = text.split_at_checked(point as usize + 1).unwrap_or((text, ""));
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    } else {
        out.push_str("0.");
        zeros(out, -point - 1);
        out.push_str(text);
    }
}

/// A number's sign, significant digits and decimal exponent (`-12.5e3` is `(true, 125, 2)`);
/// `None` past 19 significant digits. `text` is a JSON number, or a host's spelling of one.
fn decimal(text: &str) -> Option<(bool, u64, i32)> {
    let bytes = text.as_bytes();
    let negative = bytes.first() == Some(&b'-');
    let (mut mantissa, mut digits, mut exp10, mut fraction) = (0u64, 0, 0i32, false);
    // A slice, not `skip`: that adapter's step would be code of its own.
    let mut rest = bytes.get(usize::from(negative)..).unwrap_or_default().iter();
    for &b in rest.by_ref() {
        match b {
            b'0'..=b'9' => {
                if mantissa != 0 || b != b'0' {
                    digits += 1;
                    if digits > 19 {
                        return None;
                    }
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                }
                exp10 -= i32::from(fraction);
            }
            b'.' => fraction = true,
            _ => break,
        }
    }
    // The exponent, if any (the `e` was consumed above); past ±9999 it is out of every range anyway.
    let mut sign = 1;
    let mut exponent = 0i32;
    for &b in rest {
        match b {
            b'-' => sign = -1,
            b'0'..=b'9' => exponent = (exponent * 10 + i32::from(b - b'0')).min(9999),
            _ => {}
        }
    }
    Some((negative, mantissa, exp10 + sign * exponent))
}

/// `mantissa` × 10^`exp10`, correctly rounded, when the exponent is within ±19.
fn exact(negative: bool, mantissa: u64, exp10: i32) -> Option<f64> {
    let magnitude = if mantissa == 0 {
        0.0
    } else if exp10 >= 0 {
        let power = *POW10.get(exp10 as usize)?;
        round(u128::from(mantissa) * u128::from(power), 0, false)
    } else {
        let mut k = exp10.unsigned_abs();
        if k >= 20 {
            return None;
        }
        // The quotient keeps at least 64 bits: the dividend fills 128, the divisor is below 2^64.
        let shift = 64 + mantissa.leading_zeros();
        let mut n = u128::from(mantissa) << shift;
        let mut inexact = false;
        while k > 0 {
            let step = k.min(9);
            let (q, r) = divide(n, POW10.get(step as usize).map_or(1, |p| *p as u32));
            n = q;
            inexact |= r;
            k -= step;
        }
        round(n, -(shift as i32), inexact)
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `n` / `d` and whether there is a remainder, in 32-bit steps (no 128-bit division routine).
fn divide(n: u128, d: u32) -> (u128, bool) {
    let mut quotient = 0u128;
    let mut remainder = 0u64;
    for limb in (0..4).rev() {
        let current = remainder << 32 | ((n >> (32 * limb)) as u64 & 0xffff_ffff);
        quotient |= u128::from(current / u64::from(d)) << (32 * limb);
        remainder = current % u64::from(d);
    }
    (quotient, remainder != 0)
}

/// `n` × 2^`exp2` as the nearest double (ties to even; `inexact` says that `n` was truncated). In
/// the ranges used here (below 10^38, above 10^-20) it is always a normal number.
fn round(n: u128, exp2: i32, inexact: bool) -> f64 {
    let zeros = n.leading_zeros();
    let top = n << zeros;
    let mut bits = (top >> 75) as u64;
    let rest = top << 53;
    const HALF: u128 = 1 << 127;
    if rest > HALF || (rest == HALF && (inexact || bits & 1 == 1)) {
        bits += 1;
    }
    // The value is bits × 2^(exp2 + 75 − zeros); a carry into bit 53 is one more in the exponent,
    // which the addition below makes on its own.
    let exponent = exp2 + 75 - zeros as i32;
    f64::from_bits((((exponent + 1075 - 1) as u64) << 52).wrapping_add(bits))
}

/// The shortest digits of a positive `value` and their exponent, when found exactly here: the
/// fewest decimals whose nearest number of them reads back as `value` (no other of as many digits
/// can, the gap around `value` being symmetric). A power of two (whose gap below is half the gap
/// above), a tie that reads back, a value outside the exact ranges go to the host.
///
/// A candidate `c` reads back as `value` when it is within half a unit in the last place of it
/// (exactly half: when `value`'s significand is even, ties going to even). Everything scaled by
/// 10^decimals × 2^shift, that is a comparison of integers already at hand: no division.
fn shortest(value: f64) -> Option<(u64, i32)> {
    let bits = value.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let exp2 = biased - 1075;
    if biased == 0 || fraction == 0 || !(-120..=0).contains(&exp2) {
        return None;
    }
    let significand = u128::from(fraction | 1 << 52);
    let even = fraction & 1 == 0;
    let shift = exp2.unsigned_abs();
    let one = 1u128 << shift;
    for (decimals, power) in POW10.iter().enumerate() {
        let power = u128::from(*power);
        let scaled = significand * power;
        let whole = scaled >> shift;
        let rest = scaled - (whole << shift);
        let twice_rest = rest << 1;
        // The nearest candidate, and twice its distance to `value`.
        let (nearest, twice_distance) = match twice_rest > one {
            true => (whole + 1, (one - rest) << 1),
            false => (whole, twice_rest),
        };
        if twice_distance < power || (twice_distance == power && even) {
            // Halfway between two numbers of this many decimals (2.5 between 2 and 3), both as near
            // and both reading back as `value`: the host decides which. (When neither does, more
            // decimals are needed.)
            if twice_rest == one {
                return None;
            }
            let nearest = u64::try_from(nearest).ok()?;
            if nearest != 0 {
                return Some((nearest, -(decimals as i32)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reproducible stream of 64-bit numbers (xorshift).
    fn numbers(mut state: u64) -> impl Iterator<Item = u64> {
        std::iter::repeat_with(move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        })
    }

    fn written(value: f64) -> String {
        let mut out = String::new();
        write(&mut out, value);
        out
    }

    #[test]
    fn writes_as_zmij_does() {
        let fixed = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            0.1,
            0.3,
            1e-5,
            1.5e-5,
            1e-6,
            1.5e-7,
            1e15,
            1e16,
            1.25e16,
            123456789.125,
            1764117600.123,
            1764117600.123001,
            1753973212.4528332,
            5e-324,
            2.2250738585072014e-308,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.5,
            2.0,
            1024.0,
            9007199254740993.0,
            1e21,
            1e22,
            1e23,
            123e-20,
            4.35,
        ];
        let random = numbers(0x9E37_79B9_7F4A_7C15).take(300_000).map(f64::from_bits).filter(|v| v.is_finite());
        // Doubles near the ones on ADK's wire: timestamps and small decimals.
        let timestamps = numbers(7).take(300_000).map(|n| 1.7e9 + (n % 100_000_000_000) as f64 / 1e6);
        let decimals =
            numbers(11).take(300_000).map(|n| (n % 1_000_000) as f64 / POW10[(n >> 60) as usize % 12] as f64);
        let mut exact = 0;
        for value in fixed.into_iter().chain(random).chain(timestamps).chain(decimals) {
            assert_eq!(written(value), zmij::Buffer::new().format_finite(value), "{value:e}");
            exact += usize::from(shortest(value.abs()).is_some());
        }
        assert!(exact > 550_000, "the exact path took only {exact}");
        // Halfway at fewer decimals, still exact here.
        for value in [2.5, 1.5, 0.75, 3.25, 1e-3 * 2.5] {
            assert!(shortest(value).is_some(), "{value}");
        }
    }

    #[test]
    fn reads_as_std_does() {
        let fixed = [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "1",
            "1.5",
            "0.1",
            "1e-5",
            "1E+5",
            "1753973212.4528332",
            "9007199254740993",
            "9007199254740993.0",
            "18446744073709551615",
            "18446744073709551616",
            "1e19",
            "1e-19",
            "1e20",
            "1.7976931348623157e308",
            "1e400",
            "-1e400",
            "4.9e-324",
            "1e-400",
            "0.000000000000000000001",
            "123456789012345678901234567890",
            "2.2250738585072011e-308",
            "0.30000000000000004",
        ];
        for text in fixed {
            assert_eq!(parse(text).to_bits(), text.parse::<f64>().unwrap().to_bits(), "{text}");
        }
        let mut seen = 0;
        for n in numbers(3).take(1_000_000) {
            let digits = n % POW10[(n >> 58) as usize % 20];
            let exp10 = (n >> 40) as i32 % 23;
            let text = match n >> 63 {
                0 => format!("{digits}e{exp10}"),
                _ => format!("-0.{digits:0>19}e-{exp10}"),
            };
            let expected = text.parse::<f64>().unwrap();
            assert_eq!(parse(&text).to_bits(), expected.to_bits(), "{text}");
            seen += usize::from(decimal(&text).and_then(|(s, m, e)| exact(s, m, e)).is_some());
        }
        assert!(seen > 400_000, "the exact path took only {seen}");
    }
}
