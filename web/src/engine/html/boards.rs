//! The task boards: Agent-PO tasks with plan revisions and fix retries against their limits
//! and each GO / NEXT gate's problems (blocked tasks first and highlighted); Agent Mail
//! (droid) tasks by status with progress, error reports by severity
//! (`needs_human_intervention` first) and reservation conflicts; Pair Claude permission
//! requests (approved, denied, timed out) and code reviews (pass, fail); per agent the
//! acknowledgement debt; and the senders and recipients that break the sender rules or are
//! not registered (`INVALID_AGENT`).

use super::{next_step, panel, time};
use crate::model::{Boards, DroidColumn, Html, PoTaskView, RequestView, TrafficKey};
use crate::routes;
use crate::words::span;
use maud::{html, Markup};
use switchboard_core::session::agent_po::Status as TaskState;

/// The boards of `key`'s project as at `now_ms`.
#[must_use]
pub fn boards(b: &Boards, key: &TrafficKey, now_ms: i64) -> Html {
    panel(html! {
        @if b.reading {
            p.reading role="status" {
                "Still reading the project's mail: the tasks as far as read. Violations, gate "
                "problems, acknowledgement debt and sender checks follow when all of it has arrived."
            }
        }
        @if b.agent_po.is_empty() && b.droid.is_empty() && b.permissions.is_empty() && b.reviews.is_empty() {
            p.muted { "No Agent-PO, droid or Pair Claude traffic in this project." }
        }
        @if !b.agent_po.is_empty() {
            section aria-label="Agent-PO tasks" {
                h3 { "Agent-PO tasks" }
                table.po-tasks {
                    thead { tr {
                        th scope="col" { "Task" } th scope="col" { "Status" }
                        th scope="col" { "Plan revisions" } th scope="col" { "Fix retries" }
                        th scope="col" { "Gates" } th scope="col" { "Next" }
                    } }
                    tbody { @for task in &b.agent_po { (po_row(task, now_ms)) } }
                }
            }
        }
        @if !b.droid.is_empty() {
            section aria-label="Agent Mail tasks" {
                h3 { "Agent Mail tasks by status" }
                div.columns { @for column in &b.droid { (droid_column(column)) } }
            }
        }
        (errors(b))
        @if !b.conflicts.is_empty() {
            section aria-label="Reservation conflicts" {
                h3 { "Reservation conflicts" }
                ul.conflicts {
                    @for c in &b.conflicts {
                        li.conflict {
                            strong { (c.holders.0) } " (" (c.modes.0) ", " code { (c.patterns.0) } ") and "
                            strong { (c.holders.1) } " (" (c.modes.1) ", " code { (c.patterns.1) } ")"
                        }
                    }
                }
            }
        }
        @if !b.permissions.is_empty() || !b.reviews.is_empty() {
            section aria-label="Pair Claude" {
                h3 { "Pair Claude permission requests" }
                (requests(&b.permissions, "permissions"))
                h3 { "Pair Claude code reviews" }
                (requests(&b.reviews, "reviews"))
            }
        }
        @if !b.ack_debt.is_empty() {
            section aria-label="Acknowledgement debt" {
                h3 { "Acknowledgement debt" }
                table.ack-debt {
                    thead { tr {
                        th scope="col" { "Agent" } th scope="col" { "Waiting" } th scope="col" { "Oldest waits" }
                    } }
                    tbody {
                        @for d in &b.ack_debt {
                            tr {
                                th scope="row" { (d.agent) }
                                td { (d.waiting) }
                                td { (d.oldest_age_ms.map(span).unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
        }
        @if !b.reading { (senders(b, key)) }
    })
}

/// Senders and recipients: who is registered (when the server listed its agents) and every
/// message whose sender lacks its type's role or whose sender or recipient is unregistered.
fn senders(b: &Boards, key: &TrafficKey) -> Markup {
    html! {
        section aria-label="Senders and recipients" {
            h3 { "Senders and recipients" }
            p.muted {
                @match &b.registered {
                    Some(names) => { (names.len()) " registered agent(s): " (names.join(", ")) "." }
                    None => "The server did not list its agents: senders are checked against their roles only.",
                }
            }
            @if b.senders.is_empty() {
                p.muted {
                    @if b.registered.is_some() {
                        "Every sender holds the role its messages require, and every sender and recipient is registered."
                    } @else {
                        "Every sender holds the role its messages require."
                    }
                }
            } @else {
                ul.violations.senders {
                    @for v in &b.senders {
                        @let code = v.code.as_str();
                        li data-code=(code) {
                            span.code { (code) } " " (v.message)
                            @if let Some(id) = v.id {
                                " · " a href=(routes::message(key.src, &key.project, None, id)) { "message " (id) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn po_row(t: &PoTaskView, now_ms: i64) -> Markup {
    let count = |(current, max): (u32, u32)| format!("{current} of {max}");
    html! {
        tr.po-task.blocked[t.phase == TaskState::Blocked].at-limit[t.at_limit] data-task=(t.task) {
            th scope="row" {
                (t.task)
                div.muted { (t.agent) @if let Some(po) = &t.po { " · PO " (po) } }
            }
            td {
                span.status { (t.status) } " · " (t.phase.as_str())
                @if let Some((by, reason)) = &t.blocked {
                    div.flag { "blocked by " (by) ": " span.reason { (reason) } }
                }
                @if let Some((status, pct, activity)) = &t.progress {
                    div { progress max="100" value=(pct) {} " " (pct) "% " (status) ": " (activity) }
                }
                @if !t.violations.is_empty() {
                    ul.violations {
                        @for v in &t.violations { li { span.code { (v.code.as_str()) } " " (v.message) } }
                    }
                }
            }
            td { (count(t.plan_revisions)) }
            td {
                (count(t.fix_retries))
                @if t.at_limit { " " strong.flag { "at the limit" } }
            }
            td {
                ul.gates {
                    @for g in &t.gates {
                        li {
                            strong { (g.directive) }
                            @if let Some(ms) = g.at_ms { " · " (time(ms)) }
                            @if !g.problems.is_empty() {
                                ul.problems {
                                    @for (kind, message) in &g.problems {
                                        li { span.code { (kind) } " " (message) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            td {
                @if let Some(s) = &t.next { (next_step(s, now_ms)) }
            }
        }
    }
}

fn droid_column(column: &DroidColumn) -> Markup {
    let status = column.status.as_str();
    html! {
        div.column data-status=(status) {
            h4 { (status.replace('_', " ")) " (" (column.tasks.len()) ")" }
            ul {
                @for t in &column.tasks {
                    li.droid-task.overdue[t.overdue] data-task=(t.task_id) {
                        strong { (t.task_id) }
                        @if let Some(p) = &t.priority { " " span.priority { (p) } }
                        @if let Some(d) = &t.description { div { (d) } }
                        @if let Some(p) = t.percentage {
                            progress max="100" value=(p) {} " " (format!("{p:.0}")) "%"
                        }
                        @if let Some(s) = &t.summary { div.muted { (s) } }
                        @for (items, class, lead, joint) in [
                            (&t.assignees, Some("muted"), "assigned to ", ", "),
                            (&t.waiting_on, None, "waiting on ", ", "),
                            (&t.blockers, Some("flag"), "blockers: ", "; "),
                        ] {
                            @if !items.is_empty() { div class=[class] { (lead) (items.join(joint)) } }
                        }
                        @if t.overdue { div.flag { "overdue" } }
                        @if t.errors > 0 { div.flag { (t.errors) " error report(s)" } }
                    }
                }
            }
        }
    }
}

fn errors(b: &Boards) -> Markup {
    html! {
        @if !b.errors.is_empty() {
            section aria-label="Error reports" {
                h3 { "Error reports" }
                table.errors {
                    thead { tr {
                        th scope="col" { "Task" } th scope="col" { "Severity" } th scope="col" { "Code" }
                        th scope="col" { "Message" } th scope="col" { "Reported" }
                    } }
                    tbody {
                        @for e in &b.errors {
                            tr.needs-human[e.needs_human] data-severity=(e.severity) {
                                th scope="row" { (e.task_id) }
                                td {
                                    (e.severity)
                                    @if e.needs_human { " " strong.flag { "needs a human" } }
                                }
                                td { code { (e.code) } }
                                td.message { (e.message) }
                                td {
                                    (e.sender.as_deref().unwrap_or_default())
                                    @if let Some(ms) = e.at_ms { " · " (time(ms)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn requests(rows: &[RequestView], class: &str) -> Markup {
    html! {
        @if rows.is_empty() { p.muted { "None." } }
        ul class=(class) {
            @for r in rows {
                @let status = r.status.as_str();
                li data-status=(status) {
                    strong.request-status { (status.replace('_', " ")) }
                    @if let Some(tool) = &r.tool { " · " code { (tool) } }
                    @if let Some(subject) = &r.subject { " · " span.subject { (subject) } }
                    @if let Some(ms) = r.requested_at_ms { " · " (time(ms)) }
                    @if let Some(comment) = &r.comment { " · " span.comment { (comment) } }
                }
            }
        }
    }
}
