//! The sessions list: one row per Pair session — id and task, phase and status (or "still
//! reading"), violations, planner and builder, the open checkpoint, change orders, the
//! contract's integrity, and the next timeout step with its countdown (or the step overdue).
//! The page marks the selected row (`data-index`) and opens it with Enter.

use super::{countdown, integrity, next_step, or_unknown, panel, step_words};
use crate::model::{Html, SessionRow, TrafficKey};
use crate::routes;
use crate::words::{label, phase};
use maud::{html, Markup};
use switchboard_core::session::pair::{IntegrityStatus, SessionStatus};

/// The table of `rows` (the first `shown` of them) of `key`'s project at `now_ms`.
#[must_use]
pub fn list(rows: &[SessionRow], shown: usize, key: &TrafficKey, now_ms: i64) -> Html {
    panel(html! {
        p.summary { (rows.len()) " Pair sessions" }
        @if rows.is_empty() {
            p.muted { "No Pair Protocol session in this project's mail." }
        }
        table.sessions-table {
            thead { tr {
                th scope="col" { "Session" } th scope="col" { "Phase" }
                th scope="col" { "Planner · builder" } th scope="col" { "Checkpoint" }
                th scope="col" { "Change orders" } th scope="col" { "Contract" }
                th scope="col" { "Next timeout" }
            } }
            tbody {
                @for (i, r) in rows.iter().take(shown).enumerate() { (row(r, i, key, now_ms)) }
            }
        }
    })
}

fn row(r: &SessionRow, i: usize, key: &TrafficKey, now_ms: i64) -> Markup {
    let tampered = r.integrity.status == IntegrityStatus::Tampered;
    html! {
        tr.session-row.tampered[tampered].reading[r.reading] data-session=(r.id)
            data-status=(r.status.as_str()) data-index=(i) {
            th scope="row" {
                a href=(routes::session(key.src, &key.project, &r.id)) { (r.id) }
                @if let Some(task) = &r.task { div.muted.task { (task) } }
            }
            td {
                @if r.reading { span.reading { "still reading" } } @else { span.phase { (phase(r.phase)) } }
                @if r.status != SessionStatus::Active { " " span.status { (r.status.as_str()) } }
                @if r.violations > 0 { div.flag { (r.violations) " violation(s)" } }
            }
            td { (or_unknown(r.planner.as_deref())) " · " (or_unknown(r.builder.as_deref())) }
            td { @if let Some(c) = r.checkpoint { strong.checkpoint { (label(c)) } } }
            td {
                @if r.change_orders > 0 {
                    (r.change_orders) " (" (r.pending_change_orders) " pending)"
                }
            }
            td.integrity data-integrity=(r.integrity.status.as_str()) {
                @if !r.reading { (integrity(&r.integrity)) }
            }
            td {
                @match (&r.next, &r.overdue) {
                    (Some(step), _) => (next_step(step, now_ms)),
                    (None, Some(step)) => {
                        span.flag { (step_words(step).replacen("then ", "", 1)) }
                        " " (countdown(step.at_ms, now_ms))
                    }
                    (None, None) => {}
                }
            }
        }
    }
}
