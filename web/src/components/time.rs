//! Times and countdowns in the page: a `<time>` element, a countdown that ticks with the
//! source's clock (their words are [`crate::words`]').

use crate::words::{countdown, when};
use leptos::prelude::*;
use switchboard_core::time::Timestamp;

/// The models are re-asked this often (the countdowns tick every second in the page).
pub const REFRESH_MS: i64 = 15_000;

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
