//! An audit report (status, severity, the scheming flag, each finding with its `file:line`,
//! the notes) and a change order (evidence, attempted fixes, outcome), wherever a view shows
//! one: the audits view, a checkpoint card, a session.

use super::{panel, time};
use crate::model::{AuditCard, ChangeOrderView, Html, TrafficKey};
use crate::routes;
use maud::{html, Markup};
use switchboard_core::audit::{Severity, Status};

/// A report's or a finding's severity as the report writes it (`NONE`: none given).
fn severity(severity: Option<Severity>) -> &'static str {
    severity.map_or("NONE", Severity::as_str)
}

/// The audit reports in a project's mail, with their count.
#[must_use]
pub fn in_mail(cards: &[AuditCard], key: &TrafficKey) -> Html {
    panel(html! {
        p.summary { (cards.len()) " audit report(s) in the mail" }
        (list(cards, key))
    })
}

/// The report of an audit run in the browser.
#[must_use]
pub fn result(report: &AuditCard, key: &TrafficKey) -> Html {
    panel(card(report, key))
}

/// Audit reports, one after the other.
#[must_use]
pub fn list(cards: &[AuditCard], key: &TrafficKey) -> Markup {
    html! { @for c in cards { (card(c, key)) } }
}

/// One audit report; its links lead into `key`'s project.
fn card(card: &AuditCard, key: &TrafficKey) -> Markup {
    let status = card.status.as_str();
    html! {
        article.audit.failed[card.status == Status::Fail] data-status=(status) {
            p.audit-head {
                strong.audit-status { (status) }
                " · severity "
                span.severity { (severity(card.severity)) }
                @if card.scheming {
                    " · " strong.flag.scheming { "scheming detected" }
                }
                @if let Some(id) = &card.session {
                    " · session " a href=(routes::session(key.src, &key.project, id)) { (id) }
                }
                @if let Some(id) = card.id {
                    " · " a href=(routes::message(key.src, &key.project, None, id)) { "message " (id) }
                }
                @if let Some(from) = &card.from {
                    " · from " (from)
                }
                @if let Some(ms) = card.at_ms {
                    " · " (time(ms))
                }
            }
            @if card.issues.is_empty() {
                p.muted { "No findings." }
            }
            ul.findings {
                @for i in &card.issues {
                    @let severity = severity(i.severity);
                    li data-severity=(severity) {
                        code.location { (i.location.as_deref().unwrap_or("(no location)")) }
                        " " span.severity { (severity) }
                        " " span.kind { (i.kind.as_str()) }
                        @if let Some(code) = &i.code {
                            " " span.code { (code) }
                        }
                        ": " span.description { (i.description) }
                        @if let Some(pattern) = &i.pattern {
                            " " span.muted { "[" (pattern) "]" }
                        }
                    }
                }
            }
            @if !card.notes.is_empty() {
                details.notes {
                    summary { "Notes" }
                    ul { @for note in &card.notes { li { (note) } } }
                }
            }
        }
    }
}

/// A change order with its evidence, attempted fixes and outcome.
#[must_use]
pub fn change_order(order: &ChangeOrderView) -> Markup {
    let outcome = order.outcome.as_str();
    html! {
        article.change-order data-outcome=(outcome) {
            p {
                strong.failure-mode { (order.failure_mode) }
                " · " span.outcome { (outcome) }
                @if let Some(ms) = order.requested_at_ms {
                    " · " (time(ms))
                }
                @if let Some(revision) = order.revision {
                    " · contract revision " (revision)
                }
            }
            dl.meta {
                dt { "Evidence" }
                dd.evidence { (order.evidence) }
                dt { "Attempted fixes" }
                dd { ul.attempted { @for fix in &order.attempted_fixes { li { (fix) } } } }
                dt { "Requested changes" }
                dd.requested { (order.requested_changes) }
                @if let Some(reasoning) = &order.reasoning {
                    dt { "Reasoning" } dd { (reasoning) }
                }
                @if let Some(strategy) = &order.strategy {
                    dt { "Suggested strategy" } dd { (strategy) }
                }
            }
        }
    }
}
