//! Times as the console writes them (UTC, to the second), countdowns to deadlines and the
//! timeout steps they count down to.

use leptos::prelude::*;
use switchboard_core::time::Timestamp;

/// The models are re-asked this often (the countdowns tick every second in the page).
pub const REFRESH_MS: i64 = 15_000;

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

/// A time element.
#[component]
pub fn Time(
    /// Milliseconds since the epoch.
    ms: i64,
) -> impl IntoView {
    view! { <time datetime=Timestamp(ms).to_rfc3339()>{when(ms)}</time> }
}

/// A countdown to `at_ms` that ticks with `now`.
#[component]
pub fn Countdown(
    /// The deadline.
    at_ms: i64,
    /// The source's clock.
    now: ReadSignal<i64>,
) -> impl IntoView {
    view! {
        <span class="countdown" class:overdue={move || now.get() > at_ms} role="timer">
            {move || countdown(at_ms, now.get())}
        </span>
    }
}

/// The source's clock, ticking every second while the calling view lives.
#[must_use]
pub fn use_clock(read: impl Fn() -> i64 + 'static) -> ReadSignal<i64> {
    let (now, set_now) = signal(read());
    #[cfg(target_arch = "wasm32")]
    {
        let handle = set_interval_with_handle(
            move || set_now.set(read()),
            std::time::Duration::from_secs(1),
        );
        if let Ok(handle) = handle {
            on_cleanup(move || handle.clear());
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (set_now, read);
    now
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
