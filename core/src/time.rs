//! Points in time as data: milliseconds since the Unix epoch (UTC), parsed from and written as
//! text. The library never reads a clock; callers pass `now` in.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A point in time, in milliseconds since 1970-01-01T00:00:00Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

/// One minute in milliseconds.
pub const MINUTE_MS: i64 = 60_000;

impl Timestamp {
    /// Parses RFC 3339 (`2026-01-15T10:00:00Z`, `…+02:00`, fractions) and the forms Agent Mail
    /// servers write: a space instead of `T`, and naive times without an offset (taken as UTC,
    /// as the servers store them). Fractions below a millisecond are truncated. Years 0000–9999.
    #[must_use]
    pub fn parse(text: &str) -> Option<Timestamp> {
        let b = text.trim().as_bytes();
        let num = |r: std::ops::Range<usize>| -> Option<i64> {
            let part = b.get(r)?;
            part.iter().try_fold(0i64, |acc, &d| {
                d.is_ascii_digit().then(|| acc * 10 + i64::from(d - b'0'))
            })
        };
        let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
        if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
            return None;
        }
        if !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
            return None;
        }
        let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
            return None;
        }
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year, month)
            || hour > 23
            || minute > 59
            || second > 59
        {
            return None;
        }
        let mut i = 19;
        let mut millis = 0;
        if b.get(i) == Some(&b'.') {
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            for k in 0..3 {
                millis *= 10;
                if k < digits {
                    millis += i64::from(b[i + 1 + k] - b'0');
                }
            }
            i += 1 + digits;
        }
        let offset_minutes = match b.get(i) {
            None => 0,
            Some(b'Z' | b'z') if i + 1 == b.len() => 0,
            Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
                let (oh, om) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
                if oh > 23 || om > 59 {
                    return None;
                }
                let total = oh * 60 + om;
                if sign == b'+' {
                    total
                } else {
                    -total
                }
            }
            _ => return None,
        };
        let days = days_from_civil(year, month, day);
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
        Some(Timestamp(seconds * 1_000 + millis))
    }

    /// The RFC 3339 UTC form: `2026-01-15T10:00:00Z`, with `.mmm` when the milliseconds are
    /// not zero.
    #[must_use]
    pub fn to_rfc3339(self) -> String {
        let ms = self.0.rem_euclid(1_000);
        let seconds = self.0.div_euclid(1_000);
        let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
        let (year, month, day) = civil_from_days(days);
        let (h, m, s) = (rest / 3_600, rest % 3_600 / 60, rest % 60);
        if ms == 0 {
            format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
        } else {
            format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
        }
    }

    /// This time plus `minutes` (saturating).
    #[must_use]
    pub const fn plus_minutes(self, minutes: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(minutes.saturating_mul(MINUTE_MS)))
    }

    /// This time plus `millis` (saturating).
    #[must_use]
    pub const fn plus_millis(self, millis: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(millis))
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    /// The text forms [`Timestamp::parse`] reads; any other text is an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Timestamp::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a time: {text:?}")))
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_servers_and_seeds_write() {
        let t = |s| Timestamp::parse(s).map(Timestamp::to_rfc3339);
        assert_eq!(
            t("2026-01-15T10:00:00Z").as_deref(),
            Some("2026-01-15T10:00:00Z")
        );
        assert_eq!(
            t("1970-01-01T00:00:00Z"),
            Some("1970-01-01T00:00:00Z".into())
        );
        assert_eq!(
            Timestamp::parse("1970-01-01T00:00:01.5Z"),
            Some(Timestamp(1_500))
        );
        assert_eq!(
            t("2026-01-15T12:00:00+02:00").as_deref(),
            Some("2026-01-15T10:00:00Z")
        );
        assert_eq!(
            t("2026-02-27 10:00:00.123456").as_deref(),
            Some("2026-02-27T10:00:00.123Z")
        );
        assert_eq!(
            t("2026-02-27T10:00:00").as_deref(),
            Some("2026-02-27T10:00:00Z")
        );
        assert_eq!(
            t("2024-02-29T23:59:59-00:30").as_deref(),
            Some("2024-03-01T00:29:59Z")
        );
        for bad in [
            "ISO8601",
            "",
            "2025-02-29T00:00:00Z",
            "2025-12-25T24:00:00Z",
            "2025-12-25T12:00:00.Z",
            "2025-12-25T12:00:00+0530",
            "2025-12-25T12:00:00Zx",
        ] {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates_before_the_epoch_round_trip() {
        let t = Timestamp::parse("1969-12-31T23:59:59.999Z").unwrap();
        assert_eq!(t, Timestamp(-1));
        assert_eq!(t.to_rfc3339(), "1969-12-31T23:59:59.999Z");
    }
}
