//! A diff as the reviewer reads it (the core's `evidence::diff_view`): files, hunks, numbered
//! lines, each audit finding beside its line, and findings at no shown line listed apart;
//! and the audit of a session with where its report came from.

use crate::model::evidence::{AuditEvidence, AuditSource};
use leptos::prelude::*;
use switchboard_core::audit::diff::LineKind;
use switchboard_core::evidence::diff_view::{DiffView, FileView};
use switchboard_core::evidence::report::{Report, ReportedFinding};

fn line_class(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Added => "added",
        LineKind::Removed => "removed",
        LineKind::Context => "context",
    }
}

fn sign(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Added => "+",
        LineKind::Removed => "-",
        LineKind::Context => " ",
    }
}

/// One finding, as a line of text beside the diff.
fn finding(f: &ReportedFinding) -> impl IntoView {
    let severity = f.severity.map_or("?", |s| s.as_str());
    view! {
        <span class="finding" data-severity=severity>
            <strong>{severity}</strong>
            {f.pattern.clone().map(|p| view! { " " <code>{p}</code> })}
            {format!(" {}", f.description)}
            {f.location.clone().map(|l| view! { " (" <code>{l}</code> ")" })}
        </span>
    }
}

/// One file's hunks, each finding in `findings` (by index) beside its line.
#[must_use]
pub fn file_diff(file: FileView, findings: &[ReportedFinding]) -> impl IntoView {
    let title = match &file.old_path {
        Some(old) => format!("{old} → {}", file.path),
        None => file.path.clone(),
    };
    let rows = file
        .hunks
        .into_iter()
        .flat_map(|hunk| {
            let header = view! {
                <tr class="hunk"><td colspan="3"><code>{hunk.header}</code></td></tr>
            }
            .into_any();
            let lines = hunk.rows.into_iter().map(|row| {
                let notes: Vec<_> = row
                    .findings
                    .iter()
                    .filter_map(|&i| findings.get(i))
                    .map(|f| view! { <div>{finding(f)}</div> })
                    .collect();
                let has = !notes.is_empty();
                view! {
                    <tr class=line_class(row.kind) class:flagged=has data-new=row.new data-old=row.old>
                        <td class="ln">{row.old}</td>
                        <td class="ln">{row.new}</td>
                        <td class="text"><code>{format!("{}{}", sign(row.kind), row.text)}</code></td>
                    </tr>
                    {has.then(|| view! {
                        <tr class="findings-row"><td colspan="3">{notes}</td></tr>
                    })}
                }
                .into_any()
            });
            std::iter::once(header).chain(lines).collect::<Vec<_>>()
        })
        .collect_view();
    view! {
        <div class="diff-file" data-path=file.path.clone()>
            <p class="diff-path"><code>{title}</code>{file.binary.then_some(" (binary)")}</p>
            <table class="diff">{rows}</table>
        </div>
    }
}

/// A whole diff with its findings placed.
#[must_use]
pub fn diff(view: DiffView) -> impl IntoView {
    let DiffView {
        files,
        findings,
        unplaced,
    } = view;
    let apart: Vec<ReportedFinding> = unplaced
        .iter()
        .filter_map(|&i| findings.get(i).cloned())
        .collect();
    view! {
        {files.into_iter().map(|f| file_diff(f, &findings)).collect_view()}
        {(!apart.is_empty()).then(|| view! {
            <p class="muted">"Findings at no line this diff shows:"</p>
            <ul class="plain">{apart.iter().map(|f| view! { <li>{finding(f)}</li> }).collect_view()}</ul>
        })}
    }
}

fn report_summary(report: &Report) -> impl IntoView {
    view! {
        <p class="audit-summary">
            "Status " <strong>{report.status.map_or("unknown", |s| s.as_str())}</strong>
            " · severity " {report.severity.map_or("none", |s| s.as_str())}
            {report.scheming_detected.then(|| view! { " · " <strong class="error">"scheming detected"</strong> })}
            {format!(" · {} finding(s)", report.issues.len())}
        </p>
    }
}

/// The session's audit: where its report came from, the report, and the diff it audited
/// with each finding beside its line.
#[must_use]
pub fn audit(audit: AuditEvidence) -> impl IntoView {
    let source = match &audit.source {
        AuditSource::Mail(Some(id)) => format!("The AUDIT_REPORT in the mail (message {id})"),
        AuditSource::Mail(None) => "The AUDIT_REPORT in the mail".to_owned(),
        AuditSource::File(path) => format!("{path} in the folder"),
        AuditSource::Computed => {
            "No report: the core's audit, run here on the diff against the contract's files"
                .to_owned()
        }
    };
    let listed = audit.diff.is_none();
    view! {
        <section class="evidence-audit">
            <h5>"Audit"</h5>
            <p class="muted">{source}</p>
            {audit.report.as_ref().map(report_summary)}
            {audit.note.map(|n| view! { <p class="warning">{n}</p> })}
            {match audit.diff {
                Some((path, view)) => view! {
                    <p class="muted">"The diff it audited: " <code>{path.to_string()}</code></p>
                    {diff(view)}
                }.into_any(),
                None => ().into_any(),
            }}
            {listed.then(|| audit.report.map(|r| view! {
                <ul class="plain">{r.issues.iter().map(|f| view! { <li>{finding(f)}</li> }).collect_view()}</ul>
            }))}
        </section>
    }
}
