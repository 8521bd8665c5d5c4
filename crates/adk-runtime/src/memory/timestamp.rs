//! Timestamps as Python writes them: memories' ISO form, and the compact form ADK names generated
//! files by.

/// `seconds` as ISO 8601 in UTC with microseconds, as Python's
/// `datetime.fromtimestamp(seconds, timezone.utc).isoformat()` writes it.
pub fn iso_timestamp_utc(seconds: f64) -> String {
    // Round to whole microseconds first, as datetime does.
    let micros_total = (seconds * 1e6).round() as i64;
    let (secs, micros) = (micros_total.div_euclid(1_000_000), micros_total.rem_euclid(1_000_000));
    let [y, m, d, hh, mm, ss] = civil_from_seconds(secs);
    let fraction = if micros == 0 { String::new() } else { format!(".{micros:06}") };
    format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}{fraction}+00:00")
}

/// `seconds` as `%Y%m%d_%H%M%S`, the name ADK gives an image the model's code drew without naming
/// it. ADK writes the host's local time; this is UTC, as the host reports no time zone.
pub fn file_timestamp(seconds: f64) -> String {
    let [y, m, d, hh, mm, ss] = civil_from_seconds(seconds.floor() as i64);
    format!("{y:04}{m:02}{d:02}_{hh:02}{mm:02}{ss:02}")
}

/// Whole seconds since the epoch → [year, month, day, hour, minute, second] in UTC.
fn civil_from_seconds(secs: i64) -> [i64; 6] {
    let (days, secs_of_day) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    [y, m, d, secs_of_day / 3600, secs_of_day % 3600 / 60, secs_of_day % 60]
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_timestamps_match_python() {
        // Values from Python: datetime.fromtimestamp(x, timezone.utc).isoformat()
        assert_eq!(iso_timestamp_utc(0.0), "1970-01-01T00:00:00+00:00");
        assert_eq!(iso_timestamp_utc(1763780000.123456), "2025-11-22T02:53:20.123456+00:00");
        assert_eq!(iso_timestamp_utc(951782400.5), "2000-02-29T00:00:00.500000+00:00");
        assert_eq!(iso_timestamp_utc(-1.0), "1969-12-31T23:59:59+00:00");
    }

    #[test]
    fn file_timestamps_are_compact() {
        assert_eq!(file_timestamp(1763780000.9), "20251122_025320");
        assert_eq!(file_timestamp(951782399.0), "20000228_235959");
    }
}
