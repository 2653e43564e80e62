//! The demo's dates. The clock is fixed: the data are dated up to [`DEMO_NOW_MS`], and the
//! demo's time runs on from there while the page is open.

/// 2026-11-10T00:00:00Z, where the demo's dates start.
pub const BASE_MS: i64 = 1_794_268_800_000;
/// 2026-11-12T09:00:00Z: what the demo's clock shows when it opens.
pub const DEMO_NOW_MS: i64 = 1_794_474_000_000;

/// `2026-11-10T00:00:00.ffffff+00:00` plus `seconds` (a made-up fraction, the same each time).
#[must_use]
pub fn timestamp(seconds: u64) -> String {
    let day = 10 + seconds / 86_400;
    let rest = seconds % 86_400;
    format!(
        "2026-11-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        (seconds * 7919) % 1_000_000
    )
}

/// The time `ms` (since the epoch, at or after [`BASE_MS`]) as the demo writes it.
#[must_use]
pub fn timestamp_ms(ms: i64) -> String {
    timestamp(u64::try_from((ms - BASE_MS) / 1000).unwrap_or(0))
}
