//! The console's words for times, countdowns, timeout steps, phases and checkpoints: the
//! same in the page's views and in what the engine writes.

use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::session::pair::checkpoint::Checkpoint;
use switchboard_core::time::Timestamp;

/// `2026-11-12 09:00:00 UTC`.
#[must_use]
pub fn when(ms: i64) -> String {
    let text = Timestamp(ms).to_rfc3339();
    format!("{} UTC", text.get(..19).unwrap_or(&text).replace('T', " "))
}

/// A duration as `1h 05m`, `12m 30s` or `45s`.
#[must_use]
pub fn span(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60);
    match (h, m) {
        (0, 0) => format!("{sec}s"),
        (0, _) => format!("{m}m {sec:02}s"),
        _ => format!("{h}h {m:02}m"),
    }
}

/// How far `at_ms` is from `now_ms`: `in 12m 30s` or `overdue by 3m 02s`.
#[must_use]
pub fn countdown(at_ms: i64, now_ms: i64) -> String {
    if at_ms >= now_ms {
        format!("in {}", span(at_ms - now_ms))
    } else {
        format!("overdue by {}", span(now_ms - at_ms))
    }
}

/// What a timeout step does, in words.
#[must_use]
pub fn step_text(action: &str, warning: Option<u32>, from: Option<&str>) -> String {
    let by = from.map(|f| format!(" from {f}")).unwrap_or_default();
    match (action, warning) {
        ("TIMEOUT_WARNING", Some(n)) => format!("then TIMEOUT_WARNING #{n}{by}"),
        ("SESSION_ABORT", _) => format!("then SESSION_ABORT{by}"),
        (other, _) => format!("then {other}{by}"),
    }
}

/// A phase as the seed names it (`-`: none yet).
#[must_use]
pub fn phase(phase: Option<Phase>) -> &'static str {
    phase.map_or("-", Phase::as_str)
}

/// `Contract review`, `Implementation review`, `Change-order review`.
#[must_use]
pub const fn title(checkpoint: Checkpoint) -> &'static str {
    match checkpoint {
        Checkpoint::ContractReview => "Contract review",
        Checkpoint::ImplementationReview => "Implementation review",
        Checkpoint::ChangeOrderReview => "Change-order review",
    }
}

/// `#1 Contract review`.
#[must_use]
pub fn label(checkpoint: Checkpoint) -> String {
    format!("#{} {}", checkpoint.number(), title(checkpoint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_countdowns_read_plainly() {
        assert_eq!(when(1_794_474_000_000), "2026-11-12 09:00:00 UTC");
        assert_eq!(countdown(90_000, 0), "in 1m 30s");
        assert_eq!(countdown(0, 3_600_000 + 120_000), "overdue by 1h 02m");
        assert_eq!(span(5_000), "5s");
    }
}
