//! An audit report: status, severity, the scheming flag, each finding with its `file:line`,
//! and the notes. Texts from the report are text in the DOM.

use super::time::Time;
use crate::model::AuditCard;
use switchboard_core::audit::{Severity, Status};

/// A report's or a finding's severity as the report writes it (`NONE`: none given).
fn severity(severity: Option<Severity>) -> &'static str {
    severity.map_or("NONE", Severity::as_str)
}
use crate::routes::{self, Source};
use leptos::prelude::*;

/// One audit report.
#[component]
pub fn AuditReport(
    /// The report.
    card: AuditCard,
    /// The demo or the connected server.
    src: Source,
    /// The project.
    project: String,
) -> impl IntoView {
    let failed = card.status == Status::Fail;
    let status = card.status.as_str();
    let session = card.session.clone().map(|id| {
        let href = routes::session(src, &project, &id);
        view! { " · session " <a href=href>{id}</a> }
    });
    let message = card.id.map(|id| {
        let href = routes::message(src, &project, None, id);
        view! { " · " <a href=href>{format!("message {id}")}</a> }
    });
    view! {
        <article class="audit" class:failed=failed data-status=status>
            <p class="audit-head">
                <strong class="audit-status">{status}</strong>
                " · severity " <span class="severity">{severity(card.severity)}</span>
                {card.scheming.then(|| view! { " · " <strong class="flag scheming">"scheming detected"</strong> })}
                {session}
                {message}
                {card.from.clone().map(|f| view! { " · from " {f} })}
                {card.at_ms.map(|ms| view! { " · " <Time ms /> })}
            </p>
            {card.issues.is_empty().then(|| view! { <p class="muted">"No findings."</p> })}
            <ul class="findings">
                {card.issues.into_iter().map(|i| {
                    let severity = severity(i.severity);
                    view! {
                    <li data-severity=severity>
                        <code class="location">{i.location.unwrap_or_else(|| "(no location)".into())}</code>
                        " " <span class="severity">{severity}</span>
                        " " <span class="kind">{i.kind.as_str()}</span>
                        {i.code.map(|c| view! { " " <span class="code">{c}</span> })}
                        ": " <span class="description">{i.description}</span>
                        {i.pattern.map(|p| view! { " " <span class="muted">{format!("[{p}]")}</span> })}
                    </li>
                }}).collect_view()}
            </ul>
            {(!card.notes.is_empty()).then(|| view! {
                <details class="notes"><summary>"Notes"</summary>
                    <ul>{card.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </details>
            })}
        </article>
    }
}
