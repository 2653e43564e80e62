//! The read-only panels, written here as HTML: a checkpoint's evidence ([`evidence`]), a
//! session's review trail ([`trail`]), audit reports and change orders ([`audit`]), a session in full
//! ([`session`]) and the task boards ([`boards`]). Every text from the mail or the folder is
//! escaped ([`esc`]); the page inserts the result as it inserts rendered Markdown
//! (`components::html::EngineHtml`, which also ticks the countdowns written by
//! [`countdown`]). Laid out by the main module, these panels cost it about 60 KB gzipped
//! over its 400 KB goal (docs/console.md, "Size").

pub mod audit;
pub mod boards;
pub mod evidence;
pub mod session;
pub mod trail;

use crate::model::Html;
use crate::words::{self, when};
use std::fmt::Write;
use switchboard_core::time::Timestamp;

/// `text` escaped for HTML text and attribute values.
#[must_use]
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Writes `f`'s HTML into a new [`Html`].
pub fn written(f: impl FnOnce(&mut String)) -> Html {
    let mut h = String::new();
    f(&mut h);
    Html(h)
}

/// A `<time>` element for `ms` (as the page's `Time` component writes it).
fn time(h: &mut String, ms: i64) {
    let _ = write!(
        h,
        r#"<time datetime="{}">{}</time>"#,
        Timestamp(ms).to_rfc3339(),
        when(ms)
    );
}

/// `text` escaped, or `?` when there is none.
fn or_unknown(text: Option<&str>) -> String {
    text.map_or_else(|| "?".to_owned(), esc)
}

/// A countdown to `at_ms` as at `now_ms`; the page's `EngineHtml` ticks it every second
/// from its `data-at`.
fn countdown(h: &mut String, at_ms: i64, now_ms: i64) {
    let _ = write!(
        h,
        r#"<span class="countdown{}" role="timer" data-at="{at_ms}">{}</span>"#,
        if now_ms > at_ms { " overdue" } else { "" },
        words::countdown(at_ms, now_ms)
    );
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc(r#"<img src=x onerror="a('b')">&"#),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
    }
}
