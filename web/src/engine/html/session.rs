//! One Pair session in full: who and where it stands, what it waits for, the timeout steps
//! ahead, the phase timeline with each message's issues, the checkpoints, change orders, the
//! contract and its fingerprints, audit reports and violations.

use super::{audit, countdown, integrity, or_unknown, panel, step_words, time};
use crate::model::{IssueView, SessionDetail, SessionPage, Step, TrafficKey, ViolationView};
use crate::routes;
use crate::words::{label, phase};
use maud::{html, Markup};
use switchboard_core::protocol::Severity;

/// The session `d` of `key`'s project as at `now_ms`: the part above the page's review
/// records and the part below them.
#[must_use]
pub fn page(d: &SessionDetail, key: &TrafficKey, now_ms: i64) -> SessionPage {
    if d.row.reading {
        return SessionPage {
            upper: panel(reading(d)),
            lower: panel(html! {}),
        };
    }
    SessionPage {
        upper: panel(html! {
            (meta(d, key))
            (waiting(d, now_ms))
            (steps(d, now_ms))
            (timeline(d, key))
            (checkpoints(d))
        }),
        lower: panel(html! {
            (change_orders(d))
            (contract(d))
            (audits(d, key))
            (violations(&d.violations))
        }),
    }
}

/// A session whose messages are still arriving: who, as far as read, and no verdict.
fn reading(d: &SessionDetail) -> Markup {
    let row = &d.row;
    html! {
        p.reading role="status" {
            "Still reading this session's mail: " (row.messages) " message(s) so far. Its phase, "
            "checkpoints and violations are shown once all of it has been read."
        }
        dl.meta.session-meta {
            dt { "Task" } dd { (row.task.as_deref().unwrap_or("(no PAIR_INIT read yet)")) }
            dt { "Planner" } dd { (or_unknown(row.planner.as_deref())) }
            dt { "Builder" } dd { (or_unknown(row.builder.as_deref())) }
        }
    }
}

fn meta(d: &SessionDetail, key: &TrafficKey) -> Markup {
    let row = &d.row;
    html! {
        dl.meta.session-meta {
            dt { "Task" } dd { (row.task.as_deref().unwrap_or("(no PAIR_INIT seen)")) }
            dt { "Planner" } dd { (or_unknown(row.planner.as_deref())) }
            dt { "Builder" } dd { (or_unknown(row.builder.as_deref())) }
            dt { "Phase" }
            dd { span.phase { (phase(row.phase)) } " · " span.status { (row.status.as_str()) } }
            dt { "Thread" }
            dd {
                @match (&row.thread_id, &row.planner) {
                    (Some(thread), Some(planner)) => {
                        a href=(routes::thread(key.src, &key.project, planner, thread)) { (thread) }
                    }
                    (None, _) => "none",
                    (Some(_), None) => {}
                }
            }
            dt { "Checkpoint" }
            dd {
                @match row.checkpoint {
                    Some(c) => {
                        strong.checkpoint { (label(c)) " is open" }
                        " · " a href=(routes::project_page(key.src, &key.project, "checkpoints")) { "decide" }
                    }
                    None => "none open",
                }
            }
            dt { "Contract" }
            dd.integrity data-integrity=(row.integrity.status.as_str()) { (integrity(&row.integrity)) }
        }
    }
}

fn waiting(d: &SessionDetail, now_ms: i64) -> Markup {
    html! {
        @if let Some(w) = &d.waiting {
            section.waiting aria-label="Waiting" {
                h3 { "Waiting" }
                p {
                    "For " (w.expected) " from " (or_unknown(w.from.as_deref()))
                    " (the response to " (w.response_to) "), since " (time(w.since_ms))
                    ". Deadline " (time(w.deadline_ms)) " (" (countdown(w.deadline_ms, now_ms)) ")"
                    @if w.warnings_sent > 0 { "; " (w.warnings_sent) " warning(s) sent" }
                    "."
                }
            }
        }
    }
}

fn steps(d: &SessionDetail, now_ms: i64) -> Markup {
    html! {
        @if !d.due.is_empty() || d.row.next.is_some() {
            section.timeouts aria-label="Timeout steps" {
                h3 { "Timeout steps" }
                ul {
                    @for s in &d.due { (step(s, now_ms, true)) }
                    @if let Some(s) = &d.row.next { (step(s, now_ms, false)) }
                }
            }
        }
    }
}

fn step(step: &Step, now_ms: i64, due: bool) -> Markup {
    let text = step_words(step);
    html! {
        li.step.due[due] {
            strong { (text.trim_start_matches("then ")) }
            @if let Some(to) = &step.to { " to " (to) }
            " · " (time(step.at_ms)) " (" (countdown(step.at_ms, now_ms)) ")"
            @if let Some(message) = &step.message {
                details { summary { "The message it sends" } pre.raw { (message) } }
            }
        }
    }
}

fn timeline(d: &SessionDetail, key: &TrafficKey) -> Markup {
    html! {
        section aria-label="Timeline" {
            h3 { "Phase timeline" }
            ol.timeline {
                @for t in &d.timeline {
                    @let invalid = !t.issues.is_empty();
                    li.timeline-item.invalid[invalid].violation[t.violation.is_some()]
                        data-type=(t.message_type.as_deref().unwrap_or_default()) {
                        span.phase { (phase(t.phase)) }
                        " ← " strong { (t.message_type.as_deref().unwrap_or("(unknown type)")) }
                        " from " (or_unknown(t.from.as_deref()))
                        @if let Some(ms) = t.at_ms { " · " (time(ms)) }
                        " · "
                        @if let Some(id) = t.id {
                            a href=(routes::message(key.src, &key.project, None, id)) { "message " (id) }
                        }
                        @if invalid { p.flag { "Invalid:" } }
                        (issues(&t.issues))
                        @if let Some(v) = &t.violation {
                            p.violation-note { span.code { (v.code.as_str()) } " " (v.message) }
                        }
                    }
                }
            }
        }
    }
}

/// A message's validation issues (as the page's `Issues` component lists them).
fn issues(issues: &[IssueView]) -> Markup {
    html! {
        @if !issues.is_empty() {
            ul.issues {
                @for issue in issues {
                    li class=[(issue.severity == Severity::Warning).then_some("warning-issue")] {
                        code { (if issue.path.is_empty() { "(root)" } else { &issue.path }) }
                        " " (issue.message) " " span.code { "(" (issue.code) ")" }
                    }
                }
            }
        }
    }
}

fn checkpoints(d: &SessionDetail) -> Markup {
    html! {
        section aria-label="Checkpoints" {
            h3 { "Checkpoints" }
            @if d.checkpoints.is_empty() { p.muted { "None opened yet." } }
            ul.checkpoint-history {
                @for c in &d.checkpoints {
                    li {
                        (label(c.checkpoint)) " "
                        @if let Some(ms) = c.opened_at_ms { "opened " (time(ms)) }
                        @match c.decision {
                            Some(decision) => {
                                " · " strong.decision { (decision.keyword()) }
                                @if let Some(text) = &c.text { ": " span.text { (text) } }
                                @if let Some(ms) = c.closed_at_ms { " · " (time(ms)) }
                            }
                            None => { " · " strong.open { "open" } }
                        }
                    }
                }
            }
        }
    }
}

fn change_orders(d: &SessionDetail) -> Markup {
    html! {
        section aria-label="Change orders" {
            h3 { "Change orders" }
            @if d.change_orders.is_empty() { p.muted { "None." } }
            @for order in &d.change_orders { (audit::change_order(order)) }
        }
    }
}

fn contract(d: &SessionDetail) -> Markup {
    html! {
        @if let Some(c) = &d.contract {
            section aria-label="Contract" {
                h3 { "Contract (revision " (c.revision) ")" }
                dl.meta {
                    dt { "Spec" } dd { code { (c.spec.as_deref().unwrap_or_default()) } }
                    dt { "Tests" } dd { code { (c.tests.as_deref().unwrap_or_default()) } }
                }
                @if !c.fingerprints.is_empty() {
                    table.fingerprints {
                        thead { tr { th scope="col" { "Fingerprinted file" } th scope="col" { "Digest" } } }
                        tbody {
                            @for (path, digest) in &c.fingerprints {
                                tr { th scope="row" { code { (path) } } td { code { (digest) } } }
                            }
                        }
                    }
                }
                ul.integrity-changes { @for change in &d.integrity_changes { li.flag { (change) } } }
            }
        }
    }
}

fn audits(d: &SessionDetail, key: &TrafficKey) -> Markup {
    html! {
        section aria-label="Audit reports" {
            h3 { "Audit reports" }
            @if d.audits.is_empty() { p.muted { "None in the mail." } }
            (audit::list(&d.audits, key))
        }
    }
}

fn violations(violations: &[ViolationView]) -> Markup {
    html! {
        @if !violations.is_empty() {
            section aria-label="Violations" {
                h3 { "Violations" }
                ul.violations {
                    @for v in violations { li { span.code { (v.code.as_str()) } " " (v.message) } }
                }
            }
        }
    }
}
