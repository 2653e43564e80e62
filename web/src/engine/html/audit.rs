//! An audit report (status, severity, the scheming flag, each finding with its `file:line`,
//! the notes) and a change order (evidence, attempted fixes, outcome), wherever a view shows
//! one: the audits view, a checkpoint card, a session.

use super::{esc, time, written};
use crate::model::{AuditCard, ChangeOrderView, Html, TrafficKey};
use crate::routes;
use std::fmt::Write;
use switchboard_core::audit::{Severity, Status};

/// A report's or a finding's severity as the report writes it (`NONE`: none given).
fn severity(severity: Option<Severity>) -> &'static str {
    severity.map_or("NONE", Severity::as_str)
}

/// The audit reports in a project's mail, with their count.
#[must_use]
pub fn in_mail(cards: &[AuditCard], key: &TrafficKey) -> Html {
    written(|h| {
        let _ = write!(
            h,
            r#"<p class="summary">{} audit report(s) in the mail</p>"#,
            cards.len()
        );
        list(h, cards, key);
    })
}

/// The report of an audit run in the browser.
#[must_use]
pub fn result(report: &AuditCard, key: &TrafficKey) -> Html {
    written(|h| card(h, report, key))
}

/// Audit reports, one after the other.
pub fn list(h: &mut String, cards: &[AuditCard], key: &TrafficKey) {
    for c in cards {
        card(h, c, key);
    }
}

/// One audit report; its links lead into `key`'s project.
pub fn card(h: &mut String, card: &AuditCard, key: &TrafficKey) {
    let status = card.status.as_str();
    let failed = if card.status == Status::Fail {
        " failed"
    } else {
        ""
    };
    let _ = write!(
        h,
        r#"<article class="audit{failed}" data-status="{status}"><p class="audit-head"><strong class="audit-status">{status}</strong> · severity <span class="severity">{}</span>"#,
        severity(card.severity)
    );
    if card.scheming {
        h.push_str(r#" · <strong class="flag scheming">scheming detected</strong>"#);
    }
    if let Some(id) = &card.session {
        let href = routes::session(key.src, &key.project, id);
        let _ = write!(h, r#" · session <a href="{}">{}</a>"#, esc(&href), esc(id));
    }
    if let Some(id) = card.id {
        let href = routes::message(key.src, &key.project, None, id);
        let _ = write!(h, r#" · <a href="{}">message {id}</a>"#, esc(&href));
    }
    if let Some(from) = &card.from {
        let _ = write!(h, " · from {}", esc(from));
    }
    if let Some(ms) = card.at_ms {
        h.push_str(" · ");
        time(h, ms);
    }
    h.push_str("</p>");
    if card.issues.is_empty() {
        h.push_str(r#"<p class="muted">No findings.</p>"#);
    }
    h.push_str(r#"<ul class="findings">"#);
    for i in &card.issues {
        let severity = severity(i.severity);
        let _ = write!(
            h,
            r#"<li data-severity="{severity}"><code class="location">{}</code> <span class="severity">{severity}</span> <span class="kind">{}</span>"#,
            i.location
                .as_deref()
                .map_or_else(|| "(no location)".to_owned(), esc),
            i.kind.as_str()
        );
        if let Some(code) = &i.code {
            let _ = write!(h, r#" <span class="code">{}</span>"#, esc(code));
        }
        let _ = write!(
            h,
            r#": <span class="description">{}</span>"#,
            esc(&i.description)
        );
        if let Some(pattern) = &i.pattern {
            let _ = write!(h, r#" <span class="muted">[{}]</span>"#, esc(pattern));
        }
        h.push_str("</li>");
    }
    h.push_str("</ul>");
    if !card.notes.is_empty() {
        h.push_str(r#"<details class="notes"><summary>Notes</summary><ul>"#);
        for note in &card.notes {
            let _ = write!(h, "<li>{}</li>", esc(note));
        }
        h.push_str("</ul></details>");
    }
    h.push_str("</article>");
}

/// A change order with its evidence, attempted fixes and outcome.
pub fn change_order(h: &mut String, order: &ChangeOrderView) {
    let outcome = order.outcome.as_str();
    let _ = write!(
        h,
        r#"<article class="change-order" data-outcome="{outcome}"><p><strong class="failure-mode">{}</strong> · <span class="outcome">{outcome}</span>"#,
        esc(&order.failure_mode)
    );
    if let Some(ms) = order.requested_at_ms {
        h.push_str(" · ");
        time(h, ms);
    }
    if let Some(revision) = order.revision {
        let _ = write!(h, " · contract revision {revision}");
    }
    let _ = write!(
        h,
        r#"</p><dl class="meta"><dt>Evidence</dt><dd class="evidence">{}</dd><dt>Attempted fixes</dt><dd><ul class="attempted">"#,
        esc(&order.evidence)
    );
    for fix in &order.attempted_fixes {
        let _ = write!(h, "<li>{}</li>", esc(fix));
    }
    let _ = write!(
        h,
        r#"</ul></dd><dt>Requested changes</dt><dd class="requested">{}</dd>"#,
        esc(&order.requested_changes)
    );
    if let Some(reasoning) = &order.reasoning {
        let _ = write!(h, "<dt>Reasoning</dt><dd>{}</dd>", esc(reasoning));
    }
    if let Some(strategy) = &order.strategy {
        let _ = write!(h, "<dt>Suggested strategy</dt><dd>{}</dd>", esc(strategy));
    }
    h.push_str("</dl></article>");
}
