//! One Pair session in full: who and where it stands, what it waits for, the timeout steps
//! ahead, the phase timeline with each message's issues, the checkpoints, change orders, the
//! contract and its fingerprints, audit reports and violations.

use super::{audit, countdown, esc, or_unknown, time, written};
use crate::model::{
    IntegrityView, IssueView, SessionDetail, SessionPage, Step, TrafficKey, ViolationView,
};
use crate::routes;
use crate::words::{label, phase, step_text};
use std::fmt::Write;
use switchboard_core::protocol::Severity;
use switchboard_core::session::pair::IntegrityStatus;

/// The session `d` of `key`'s project as at `now_ms`: the part above the page's review
/// records and the part below them.
#[must_use]
pub fn page(d: &SessionDetail, key: &TrafficKey, now_ms: i64) -> SessionPage {
    SessionPage {
        upper: written(|h| {
            meta(h, d, key);
            waiting(h, d, now_ms);
            steps(h, d, now_ms);
            timeline(h, d, key);
            checkpoints(h, d);
        }),
        lower: written(|h| {
            change_orders(h, d);
            contract(h, d);
            audits(h, d, key);
            violations(h, &d.violations);
        }),
    }
}

fn meta(h: &mut String, d: &SessionDetail, key: &TrafficKey) {
    let row = &d.row;
    let _ = write!(
        h,
        r#"<dl class="meta session-meta"><dt>Task</dt><dd>{}</dd><dt>Planner</dt><dd>{}</dd><dt>Builder</dt><dd>{}</dd><dt>Phase</dt><dd><span class="phase">{}</span> · <span class="status">{}</span></dd><dt>Thread</dt><dd>"#,
        row.task
            .as_deref()
            .map_or_else(|| "(no PAIR_INIT seen)".to_owned(), esc),
        or_unknown(row.planner.as_deref()),
        or_unknown(row.builder.as_deref()),
        phase(row.phase),
        row.status.as_str()
    );
    match (&row.thread_id, &row.planner) {
        (Some(thread), Some(planner)) => {
            let href = routes::thread(key.src, &key.project, planner, thread);
            let _ = write!(h, r#"<a href="{}">{}</a>"#, esc(&href), esc(thread));
        }
        (None, _) => h.push_str("none"),
        (Some(_), None) => {}
    }
    h.push_str("</dd><dt>Checkpoint</dt><dd>");
    match row.checkpoint {
        Some(c) => {
            let href = routes::project_page(key.src, &key.project, "checkpoints");
            let _ = write!(
                h,
                r#"<strong class="checkpoint">{} is open</strong> · <a href="{}">decide</a>"#,
                label(c),
                esc(&href)
            );
        }
        None => h.push_str("none open"),
    }
    let _ = write!(
        h,
        r#"</dd><dt>Contract</dt><dd class="integrity" data-integrity="{}">"#,
        row.integrity.status.as_str()
    );
    integrity(h, &row.integrity);
    h.push_str("</dd></dl>");
}

/// A contract's integrity: `tampered:` flagged with the files, else its status.
fn integrity(h: &mut String, integrity: &IntegrityView) {
    match integrity.status {
        IntegrityStatus::Tampered => {
            let _ = write!(
                h,
                r#"<strong class="flag">tampered: </strong> <code>{}</code>"#,
                esc(&integrity.files.join(", "))
            );
        }
        status => h.push_str(status.as_str()),
    }
}

fn waiting(h: &mut String, d: &SessionDetail, now_ms: i64) {
    let Some(w) = &d.waiting else { return };
    let _ = write!(
        h,
        r#"<section class="waiting" aria-label="Waiting"><h3>Waiting</h3><p>For {} from {} (the response to {}), since "#,
        esc(&w.expected),
        or_unknown(w.from.as_deref()),
        esc(&w.response_to)
    );
    time(h, w.since_ms);
    h.push_str(". Deadline ");
    time(h, w.deadline_ms);
    h.push_str(" (");
    countdown(h, w.deadline_ms, now_ms);
    h.push(')');
    if w.warnings_sent > 0 {
        let _ = write!(h, "; {} warning(s) sent", w.warnings_sent);
    }
    h.push_str(".</p></section>");
}

fn steps(h: &mut String, d: &SessionDetail, now_ms: i64) {
    if d.due.is_empty() && d.row.next.is_none() {
        return;
    }
    h.push_str(
        r#"<section class="timeouts" aria-label="Timeout steps"><h3>Timeout steps</h3><ul>"#,
    );
    for s in &d.due {
        step(h, s, now_ms, true);
    }
    if let Some(s) = &d.row.next {
        step(h, s, now_ms, false);
    }
    h.push_str("</ul></section>");
}

fn step(h: &mut String, step: &Step, now_ms: i64, due: bool) {
    let text = step_text(&step.action, step.warning, step.from.as_deref());
    let _ = write!(
        h,
        r#"<li class="step{}"><strong>{}</strong>"#,
        if due { " due" } else { "" },
        esc(text.trim_start_matches("then "))
    );
    if let Some(to) = &step.to {
        let _ = write!(h, " to {}", esc(to));
    }
    h.push_str(" · ");
    time(h, step.at_ms);
    h.push_str(" (");
    countdown(h, step.at_ms, now_ms);
    h.push(')');
    if let Some(message) = &step.message {
        let _ = write!(
            h,
            r#"<details><summary>The message it sends</summary><pre class="raw">{}</pre></details>"#,
            esc(message)
        );
    }
    h.push_str("</li>");
}

fn timeline(h: &mut String, d: &SessionDetail, key: &TrafficKey) {
    h.push_str(r#"<section aria-label="Timeline"><h3>Phase timeline</h3><ol class="timeline">"#);
    for t in &d.timeline {
        let invalid = !t.issues.is_empty();
        let _ = write!(
            h,
            r#"<li class="timeline-item{}{}" data-type="{}"><span class="phase">{}</span> ← <strong>{}</strong> from {}"#,
            if invalid { " invalid" } else { "" },
            if t.violation.is_some() {
                " violation"
            } else {
                ""
            },
            esc(t.message_type.as_deref().unwrap_or_default()),
            phase(t.phase),
            t.message_type
                .as_deref()
                .map_or_else(|| "(unknown type)".to_owned(), esc),
            or_unknown(t.from.as_deref())
        );
        if let Some(ms) = t.at_ms {
            h.push_str(" · ");
            time(h, ms);
        }
        h.push_str(" · ");
        if let Some(id) = t.id {
            let href = routes::message(key.src, &key.project, None, id);
            let _ = write!(h, r#"<a href="{}">message {id}</a>"#, esc(&href));
        }
        if invalid {
            h.push_str(r#"<p class="flag">Invalid:</p>"#);
        }
        issues(h, &t.issues);
        if let Some(v) = &t.violation {
            let _ = write!(
                h,
                r#"<p class="violation-note"><span class="code">{}</span> {}</p>"#,
                v.code.as_str(),
                esc(&v.message)
            );
        }
        h.push_str("</li>");
    }
    h.push_str("</ol></section>");
}

/// A message's validation issues (as the page's `Issues` component lists them).
fn issues(h: &mut String, issues: &[IssueView]) {
    if issues.is_empty() {
        return;
    }
    h.push_str(r#"<ul class="issues">"#);
    for issue in issues {
        let path = if issue.path.is_empty() {
            "(root)"
        } else {
            &issue.path
        };
        let _ = write!(
            h,
            r#"<li{}><code>{}</code> {} <span class="code">({})</span></li>"#,
            if issue.severity == Severity::Warning {
                r#" class="warning-issue""#
            } else {
                ""
            },
            esc(path),
            esc(&issue.message),
            issue.code
        );
    }
    h.push_str("</ul>");
}

fn checkpoints(h: &mut String, d: &SessionDetail) {
    h.push_str(r#"<section aria-label="Checkpoints"><h3>Checkpoints</h3>"#);
    if d.checkpoints.is_empty() {
        h.push_str(r#"<p class="muted">None opened yet.</p>"#);
    }
    h.push_str(r#"<ul class="checkpoint-history">"#);
    for c in &d.checkpoints {
        let _ = write!(h, "<li>{} ", label(c.checkpoint));
        if let Some(ms) = c.opened_at_ms {
            h.push_str("opened ");
            time(h, ms);
        }
        match c.decision {
            Some(decision) => {
                let _ = write!(
                    h,
                    r#" · <strong class="decision">{}</strong>"#,
                    decision.keyword()
                );
                if let Some(text) = &c.text {
                    let _ = write!(h, r#": <span class="text">{}</span>"#, esc(text));
                }
                if let Some(ms) = c.closed_at_ms {
                    h.push_str(" · ");
                    time(h, ms);
                }
            }
            None => h.push_str(r#" · <strong class="open">open</strong>"#),
        }
        h.push_str("</li>");
    }
    h.push_str("</ul></section>");
}

fn change_orders(h: &mut String, d: &SessionDetail) {
    h.push_str(r#"<section aria-label="Change orders"><h3>Change orders</h3>"#);
    if d.change_orders.is_empty() {
        h.push_str(r#"<p class="muted">None.</p>"#);
    }
    for order in &d.change_orders {
        audit::change_order(h, order);
    }
    h.push_str("</section>");
}

fn contract(h: &mut String, d: &SessionDetail) {
    let Some(c) = &d.contract else { return };
    let _ = write!(
        h,
        r#"<section aria-label="Contract"><h3>Contract (revision {})</h3><dl class="meta"><dt>Spec</dt><dd><code>{}</code></dd><dt>Tests</dt><dd><code>{}</code></dd></dl>"#,
        c.revision,
        esc(c.spec.as_deref().unwrap_or_default()),
        esc(c.tests.as_deref().unwrap_or_default())
    );
    if !c.fingerprints.is_empty() {
        h.push_str(r#"<table class="fingerprints"><thead><tr><th scope="col">Fingerprinted file</th><th scope="col">Digest</th></tr></thead><tbody>"#);
        for (path, digest) in &c.fingerprints {
            let _ = write!(
                h,
                r#"<tr><th scope="row"><code>{}</code></th><td><code>{}</code></td></tr>"#,
                esc(path),
                esc(digest)
            );
        }
        h.push_str("</tbody></table>");
    }
    h.push_str(r#"<ul class="integrity-changes">"#);
    for change in &d.integrity_changes {
        let _ = write!(h, r#"<li class="flag">{}</li>"#, esc(change));
    }
    h.push_str("</ul></section>");
}

fn audits(h: &mut String, d: &SessionDetail, key: &TrafficKey) {
    h.push_str(r#"<section aria-label="Audit reports"><h3>Audit reports</h3>"#);
    if d.audits.is_empty() {
        h.push_str(r#"<p class="muted">None in the mail.</p>"#);
    }
    audit::list(h, &d.audits, key);
    h.push_str("</section>");
}

fn violations(h: &mut String, violations: &[ViolationView]) {
    if violations.is_empty() {
        return;
    }
    h.push_str(r#"<section aria-label="Violations"><h3>Violations</h3><ul class="violations">"#);
    for v in violations {
        let _ = write!(
            h,
            r#"<li><span class="code">{}</span> {}</li>"#,
            v.code.as_str(),
            esc(&v.message)
        );
    }
    h.push_str("</ul></section>");
}
