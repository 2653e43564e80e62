//! The task boards: Agent-PO tasks with plan revisions and fix retries against their limits
//! and each GO / NEXT gate's problems (blocked tasks first and highlighted); Agent Mail
//! (droid) tasks by status with progress, error reports by severity
//! (`needs_human_intervention` first) and reservation conflicts; Pair Claude permission
//! requests (approved, denied, timed out) and code reviews (pass, fail); per agent the
//! acknowledgement debt; and the senders and recipients that break the sender rules or are
//! not registered (`INVALID_AGENT`).

use super::{countdown, esc, time, written};
use crate::model::{Boards, DroidColumn, Html, PoTaskView, RequestView, TrafficKey};
use crate::routes;
use crate::words::{span, step_text};
use std::fmt::Write;
use switchboard_core::session::agent_po::Status as TaskState;

/// The boards of `key`'s project as at `now_ms`.
#[must_use]
pub fn boards(b: &Boards, key: &TrafficKey, now_ms: i64) -> Html {
    written(|h| {
        if b.agent_po.is_empty()
            && b.droid.is_empty()
            && b.permissions.is_empty()
            && b.reviews.is_empty()
        {
            h.push_str(
                r#"<p class="muted">No Agent-PO, droid or Pair Claude traffic in this project.</p>"#,
            );
        }
        if !b.agent_po.is_empty() {
            h.push_str(r#"<section aria-label="Agent-PO tasks"><h3>Agent-PO tasks</h3><table class="po-tasks"><thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Plan revisions</th><th scope="col">Fix retries</th><th scope="col">Gates</th><th scope="col">Next</th></tr></thead><tbody>"#);
            for task in &b.agent_po {
                po_row(h, task, now_ms);
            }
            h.push_str("</tbody></table></section>");
        }
        if !b.droid.is_empty() {
            h.push_str(r#"<section aria-label="Agent Mail tasks"><h3>Agent Mail tasks by status</h3><div class="columns">"#);
            for column in &b.droid {
                droid_column(h, column);
            }
            h.push_str("</div></section>");
        }
        errors(h, b);
        if !b.conflicts.is_empty() {
            h.push_str(r#"<section aria-label="Reservation conflicts"><h3>Reservation conflicts</h3><ul class="conflicts">"#);
            for c in &b.conflicts {
                let _ = write!(
                    h,
                    r#"<li class="conflict"><strong>{}</strong> ({}, <code>{}</code>) and <strong>{}</strong> ({}, <code>{}</code>)</li>"#,
                    esc(&c.holders.0),
                    esc(&c.modes.0),
                    esc(&c.patterns.0),
                    esc(&c.holders.1),
                    esc(&c.modes.1),
                    esc(&c.patterns.1)
                );
            }
            h.push_str("</ul></section>");
        }
        if !b.permissions.is_empty() || !b.reviews.is_empty() {
            h.push_str(
                r#"<section aria-label="Pair Claude"><h3>Pair Claude permission requests</h3>"#,
            );
            requests(h, &b.permissions, "permissions");
            h.push_str("<h3>Pair Claude code reviews</h3>");
            requests(h, &b.reviews, "reviews");
            h.push_str("</section>");
        }
        if !b.ack_debt.is_empty() {
            h.push_str(r#"<section aria-label="Acknowledgement debt"><h3>Acknowledgement debt</h3><table class="ack-debt"><thead><tr><th scope="col">Agent</th><th scope="col">Waiting</th><th scope="col">Oldest waits</th></tr></thead><tbody>"#);
            for d in &b.ack_debt {
                let _ = write!(
                    h,
                    r#"<tr><th scope="row">{}</th><td>{}</td><td>{}</td></tr>"#,
                    esc(&d.agent),
                    d.waiting,
                    d.oldest_age_ms.map(span).unwrap_or_default()
                );
            }
            h.push_str("</tbody></table></section>");
        }
        senders(h, b, key);
    })
}

/// Senders and recipients: who is registered (when the server listed its agents) and every
/// message whose sender lacks its type's role or whose sender or recipient is unregistered.
fn senders(h: &mut String, b: &Boards, key: &TrafficKey) {
    h.push_str(r#"<section aria-label="Senders and recipients"><h3>Senders and recipients</h3><p class="muted">"#);
    match &b.registered {
        Some(names) => {
            let _ = write!(
                h,
                "{} registered agent(s): {}.",
                names.len(),
                esc(&names.join(", "))
            );
        }
        None => h.push_str(
            "The server did not list its agents: senders are checked against their roles only.",
        ),
    }
    h.push_str("</p>");
    if b.senders.is_empty() {
        h.push_str(match b.registered {
            Some(_) => r#"<p class="muted">Every sender holds the role its messages require, and every sender and recipient is registered.</p>"#,
            None => r#"<p class="muted">Every sender holds the role its messages require.</p>"#,
        });
    } else {
        h.push_str(r#"<ul class="violations senders">"#);
        for v in &b.senders {
            let _ = write!(
                h,
                r#"<li data-code="{code}"><span class="code">{code}</span> {}"#,
                esc(&v.message),
                code = v.code.as_str()
            );
            if let Some(id) = v.id {
                let href = routes::message(key.src, &key.project, None, id);
                let _ = write!(h, r#" · <a href="{}">message {id}</a>"#, esc(&href));
            }
            h.push_str("</li>");
        }
        h.push_str("</ul>");
    }
    h.push_str("</section>");
}

fn po_row(h: &mut String, t: &PoTaskView, now_ms: i64) {
    let _ = write!(
        h,
        r#"<tr class="po-task{}{}" data-task="{}"><th scope="row">{}<div class="muted">{}"#,
        if t.phase == TaskState::Blocked {
            " blocked"
        } else {
            ""
        },
        if t.at_limit { " at-limit" } else { "" },
        esc(&t.task),
        esc(&t.task),
        esc(&t.agent)
    );
    if let Some(po) = &t.po {
        let _ = write!(h, " · PO {}", esc(po));
    }
    let _ = write!(
        h,
        r#"</div></th><td><span class="status">{}</span> · {}"#,
        esc(&t.status),
        t.phase.as_str()
    );
    if let Some((by, reason)) = &t.blocked {
        let _ = write!(
            h,
            r#"<div class="flag">blocked by {}: <span class="reason">{}</span></div>"#,
            esc(by),
            esc(reason)
        );
    }
    if let Some((status, pct, activity)) = &t.progress {
        let _ = write!(
            h,
            r#"<div><progress max="100" value="{pct}"></progress> {pct}% {}: {}</div>"#,
            esc(status),
            esc(activity)
        );
    }
    if !t.violations.is_empty() {
        h.push_str(r#"<ul class="violations">"#);
        for v in &t.violations {
            let _ = write!(
                h,
                r#"<li><span class="code">{}</span> {}</li>"#,
                v.code.as_str(),
                esc(&v.message)
            );
        }
        h.push_str("</ul>");
    }
    let count = |(current, max): (u32, u32)| format!("{current} of {max}");
    let _ = write!(
        h,
        "</td><td>{}</td><td>{}",
        count(t.plan_revisions),
        count(t.fix_retries)
    );
    if t.at_limit {
        h.push_str(r#" <strong class="flag">at the limit</strong>"#);
    }
    h.push_str(r#"</td><td><ul class="gates">"#);
    for g in &t.gates {
        let _ = write!(h, "<li><strong>{}</strong>", esc(&g.directive));
        if let Some(ms) = g.at_ms {
            h.push_str(" · ");
            time(h, ms);
        }
        if !g.problems.is_empty() {
            h.push_str(r#"<ul class="problems">"#);
            for (kind, message) in &g.problems {
                let _ = write!(
                    h,
                    r#"<li><span class="code">{}</span> {}</li>"#,
                    esc(kind),
                    esc(message)
                );
            }
            h.push_str("</ul>");
        }
        h.push_str("</li>");
    }
    h.push_str("</ul></td><td>");
    if let Some(s) = &t.next {
        countdown(h, s.at_ms, now_ms);
        let _ = write!(
            h,
            r#"<div class="muted">{}</div>"#,
            esc(&step_text(&s.action, s.warning, s.from.as_deref()))
        );
    }
    h.push_str("</td></tr>");
}

fn droid_column(h: &mut String, column: &DroidColumn) {
    let status = column.status.as_str();
    let _ = write!(
        h,
        r#"<div class="column" data-status="{status}"><h4>{} ({})</h4><ul>"#,
        status.replace('_', " "),
        column.tasks.len()
    );
    for t in &column.tasks {
        let _ = write!(
            h,
            r#"<li class="droid-task{}" data-task="{}"><strong>{}</strong>"#,
            if t.overdue { " overdue" } else { "" },
            esc(&t.task_id),
            esc(&t.task_id)
        );
        if let Some(p) = &t.priority {
            let _ = write!(h, r#" <span class="priority">{}</span>"#, esc(p));
        }
        if let Some(d) = &t.description {
            let _ = write!(h, "<div>{}</div>", esc(d));
        }
        if let Some(p) = t.percentage {
            let _ = write!(h, r#"<progress max="100" value="{p}"></progress> {p:.0}%"#);
        }
        if let Some(s) = &t.summary {
            let _ = write!(h, r#"<div class="muted">{}</div>"#, esc(s));
        }
        let lists = [
            (&t.assignees, "muted", "assigned to ", ", "),
            (&t.waiting_on, "", "waiting on ", ", "),
            (&t.blockers, "flag", "blockers: ", "; "),
        ];
        for (items, class, lead, joint) in lists {
            if !items.is_empty() {
                let class = if class.is_empty() {
                    String::new()
                } else {
                    format!(r#" class="{class}""#)
                };
                let _ = write!(h, "<div{class}>{lead}{}</div>", esc(&items.join(joint)));
            }
        }
        if t.overdue {
            h.push_str(r#"<div class="flag">overdue</div>"#);
        }
        if t.errors > 0 {
            let _ = write!(h, r#"<div class="flag">{} error report(s)</div>"#, t.errors);
        }
        h.push_str("</li>");
    }
    h.push_str("</ul></div>");
}

fn errors(h: &mut String, b: &Boards) {
    if b.errors.is_empty() {
        return;
    }
    h.push_str(r#"<section aria-label="Error reports"><h3>Error reports</h3><table class="errors"><thead><tr><th scope="col">Task</th><th scope="col">Severity</th><th scope="col">Code</th><th scope="col">Message</th><th scope="col">Reported</th></tr></thead><tbody>"#);
    for e in &b.errors {
        let _ = write!(
            h,
            r#"<tr{} data-severity="{}"><th scope="row">{}</th><td>{}"#,
            if e.needs_human {
                r#" class="needs-human""#
            } else {
                ""
            },
            esc(&e.severity),
            esc(&e.task_id),
            esc(&e.severity)
        );
        if e.needs_human {
            h.push_str(r#" <strong class="flag">needs a human</strong>"#);
        }
        let _ = write!(
            h,
            r#"</td><td><code>{}</code></td><td class="message">{}</td><td>{}"#,
            esc(&e.code),
            esc(&e.message),
            esc(e.sender.as_deref().unwrap_or_default())
        );
        if let Some(ms) = e.at_ms {
            h.push_str(" · ");
            time(h, ms);
        }
        h.push_str("</td></tr>");
    }
    h.push_str("</tbody></table></section>");
}

fn requests(h: &mut String, rows: &[RequestView], class: &str) {
    if rows.is_empty() {
        h.push_str(r#"<p class="muted">None.</p>"#);
    }
    let _ = write!(h, r#"<ul class="{class}">"#);
    for r in rows {
        let status = r.status.as_str();
        let _ = write!(
            h,
            r#"<li data-status="{status}"><strong class="request-status">{}</strong>"#,
            status.replace('_', " ")
        );
        if let Some(tool) = &r.tool {
            let _ = write!(h, " · <code>{}</code>", esc(tool));
        }
        if let Some(subject) = &r.subject {
            let _ = write!(h, r#" · <span class="subject">{}</span>"#, esc(subject));
        }
        if let Some(ms) = r.requested_at_ms {
            h.push_str(" · ");
            time(h, ms);
        }
        if let Some(comment) = &r.comment {
            let _ = write!(h, r#" · <span class="comment">{}</span>"#, esc(comment));
        }
        h.push_str("</li>");
    }
    h.push_str("</ul>");
}
