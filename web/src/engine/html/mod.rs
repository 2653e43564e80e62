//! The read-only panels, written here as HTML: a checkpoint's evidence ([`evidence`]), a
//! session's review trail ([`trail`]), audit reports and change orders ([`audit`]), a session
//! in full ([`session`]), the sessions list ([`sessions`]), a message's inspection
//! ([`message`]), the server's queue of open checkpoints ([`queue`]), the task boards ([`boards`]) and agent conformance
//! ([`conformance`]). They are `maud` templates: every text spliced in is escaped by its
//! type, and the one HTML taken as it is, Markdown as the console's safe renderer wrote it,
//! goes through [`markdown`]. The page inserts the result as it inserts rendered Markdown
//! (`components::html::EngineHtml`, which also ticks the countdowns written by
//! [`countdown`]). Laid out by the main module, these panels cost it about 60 KB gzipped
//! over its 400 KB goal (docs/console.md, "Size").

pub mod audit;
pub mod boards;
pub mod conformance;
pub mod evidence;
pub mod message;
pub mod queue;
pub mod session;
pub mod sessions;
pub mod trail;

use crate::model::{Html, IntegrityView, Step};
use crate::words::{self, step_text, when};
use maud::{html, Markup, PreEscaped};
use switchboard_core::session::pair::IntegrityStatus;
use switchboard_core::time::Timestamp;

/// A panel as it crosses to the page.
#[must_use]
pub fn panel(markup: Markup) -> Html {
    Html(markup.into_string())
}

/// Markdown as `crate::markdown::render` wrote it (its allow-list keeps to safe tags,
/// attributes and URL schemes): the only HTML the panels insert as it is.
fn markdown(rendered: &str) -> PreEscaped<&str> {
    PreEscaped(rendered)
}

/// A `<time>` element for `ms` (as the page's `Time` component writes it).
fn time(ms: i64) -> Markup {
    html! { time datetime=(Timestamp(ms).to_rfc3339()) { (when(ms)) } }
}

/// `text`, or `?` when there is none.
fn or_unknown(text: Option<&str>) -> &str {
    text.unwrap_or("?")
}

/// A contract's integrity: `tampered:` flagged with the files, else its status.
fn integrity(integrity: &IntegrityView) -> Markup {
    html! {
        @match integrity.status {
            IntegrityStatus::Tampered => {
                strong.flag { "tampered: " } code { (integrity.files.join(", ")) }
            }
            status => (status.as_str()),
        }
    }
}

/// What a timeout step does, in words (`then TIMEOUT_WARNING #1 from GreenCastle`).
fn step_words(step: &Step) -> String {
    step_text(&step.action, step.warning, step.from.as_deref())
}

/// A row's next timeout step: its countdown, and what it does under it.
fn next_step(step: &Step, now_ms: i64) -> Markup {
    html! {
        (countdown(step.at_ms, now_ms))
        div.muted { (step_words(step)) }
    }
}

/// A countdown to `at_ms` as at `now_ms`; the page's `EngineHtml` ticks it every second
/// from its `data-at`.
fn countdown(at_ms: i64, now_ms: i64) -> Markup {
    html! {
        span.countdown.overdue[now_ms > at_ms] role="timer" data-at=(at_ms) {
            (words::countdown(at_ms, now_ms))
        }
    }
}

#[cfg(test)]
mod hostile_tests;
