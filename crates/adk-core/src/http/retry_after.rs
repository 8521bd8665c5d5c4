//! `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.

/// The wait a `Retry-After` value asks for, in milliseconds, measured from `now` (Unix seconds);
/// `None` when the value is neither form. A date in the past asks for no wait.
pub fn retry_after_ms(value: &str, now: f64) -> Option<u64> {
    if let Some(seconds) = number(value.trim().as_bytes()) {
        return Some(seconds.saturating_mul(1000));
    }
    let at = http_date(value)?;
    Some(((at - now).max(0.0) * 1000.0) as u64)
}

/// The Unix time of an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT` (the form servers must send).
fn http_date(value: &str) -> Option<f64> {
    let mut words = split(value.as_bytes(), b' ');
    let (_weekday, day, month, year, time, zone) =
        (words.next()?, words.next()?, words.next()?, words.next()?, words.next()?, words.next()?);
    if words.next().is_some() || zone != b"GMT" {
        return None;
    }
    const MONTHS: [&[u8]; 12] =
        [b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec"];
    let month = MONTHS.iter().position(|m| *m == month)? as i64 + 1;
    let number = |s: &[u8]| number(s).and_then(|n| i64::try_from(n).ok());
    let (day, year) = (number(day)?, number(year)?);
    let mut hms = split(time, b':').map(number);
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    // Four-digit years, as IMF-fixdate has: nothing larger reaches the day arithmetic.
    let in_range = (1..=31).contains(&day) && (1000..=9999).contains(&year);
    if !in_range || !(0..24).contains(&h) || !(0..60).contains(&m) || !(0..61).contains(&s) {
        return None;
    }
    Some((days_from_civil(year, month, day) * 86_400 + h * 3600 + m * 60 + s) as f64)
}

/// The pieces of `text` between `separator`s: bytes, as `str`'s split would bring a searcher of its
/// own into the A2A module for this alone; one instance for both separators.
fn split(text: &[u8], separator: u8) -> impl Iterator<Item = &[u8]> {
    text.split(move |b| *b == separator)
}

/// Digits only, as a number (saturating: a huge wait is still a huge wait).
fn number(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(crate::scan::decimal(digits).unwrap_or(u64::MAX))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::retry_after_ms;

    #[test]
    fn seconds_and_dates() {
        assert_eq!(retry_after_ms("120", 0.0), Some(120_000));
        assert_eq!(retry_after_ms(" 0 ", 0.0), Some(0));
        assert_eq!(retry_after_ms("99999999999999999999", 0.0), Some(u64::MAX));
        // 784111777 is 1994-11-06T08:49:37Z.
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0 - 30.0), Some(30_000));
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0 + 5.0), Some(0));
        assert_eq!(retry_after_ms("Thu, 01 Jan 1970 00:00:00 GMT", 0.0), Some(0));
        assert_eq!(retry_after_ms("Tue, 29 Feb 2028 12:00:00 GMT", 1_835_438_400.0 - 1.5), Some(1500));
        for bad in [
            "",
            "-1",
            "1.5",
            "soon",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:00:00 GMT",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 999999999999 08:49:37 GMT",
        ] {
            assert_eq!(retry_after_ms(bad, 0.0), None, "{bad}");
        }
    }
}
