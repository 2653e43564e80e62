//! A checkpoint's evidence as HTML: every text from the folder or the mail escaped, Markdown
//! only as `crate::markdown` rendered it.

use super::markdown;
use crate::model::evidence::{
    ArtifactView, AuditEvidence, AuditSource, ChangeOrderEvidence, EvidenceView, Shown,
};
use maud::{html, Markup};
use switchboard_core::audit::diff::LineKind;
use switchboard_core::evidence::diff_view::{DiffView, FileView};
use switchboard_core::evidence::integrity::{FileState, Integrity, Verdict};
use switchboard_core::evidence::report::{Report, ReportedFinding};
use switchboard_core::evidence::Role;

/// A session's evidence.
#[must_use]
pub fn evidence(view: &EvidenceView) -> String {
    html! {
        @for v in &view.violations {
            @let code = v.code.as_str();
            p.error.violation data-code=(code) { (code) ": " (v.message) }
        }
        @if let Some(i) = &view.integrity { (integrity(i)) }
        @for a in &view.artifacts { (artifact(a)) }
        @if let Some(order) = &view.change_order { (change_order(order)) }
        @if let Some(a) = &view.audit { (audit(a)) }
    }
    .into_string()
}

fn role_key(role: Role) -> &'static str {
    match role {
        Role::SafetyReasoning => "safety_reasoning",
        Role::Spec => "spec",
        Role::Tests => "tests",
        Role::Fingerprinted => "fingerprinted",
        Role::Implementation => "implementation",
        Role::NamedByChangeOrder => "named_by_change_order",
        Role::NextVersion => "next_version",
        Role::AuditReport => "audit_report",
        Role::AuditDiff => "audit_diff",
        Role::Manifest => "manifest",
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn artifact(a: &ArtifactView) -> Markup {
    let path = a
        .path
        .as_ref()
        .map_or_else(|| a.written.clone(), ToString::to_string);
    let open = !matches!(a.role, Role::AuditReport | Role::AuditDiff | Role::Manifest);
    let changed = matches!((a.sha256, a.baseline), (Some(now), Some(then)) if now != then);
    html! {
        details.artifact data-role=(role_key(a.role)) data-path=(path) open[open] {
            summary {
                strong { (capitalized(a.role.label())) } " " code { (path) }
                @if let Some(id) = a.message { " (named by message " (id) ")" }
            }
            p.sha {
                "SHA-256 "
                code { @match a.sha256 { Some(d) => (d), None => "not read" } }
                @if changed { " " strong.error { "differs from the contract's fingerprint" } }
            }
            @if let Some(note) = &a.note { p.warning.file-note { (note) } }
            @match &a.shown {
                Shown::Markdown(rendered) => div.markdown.artifact-text { (markdown(rendered)) },
                Shown::Code(lines) => (numbered(lines.iter().enumerate().map(|(i, l)| (i + 1, l.as_str())))),
                Shown::InAudit => p.muted { "Shown with the audit below." },
                Shown::Nothing => {}
            }
        }
    }
}

fn numbered<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Markup {
    html! {
        table.code-lines {
            @for (n, text) in lines {
                tr data-line=(n) { td.ln { (n) } td.text { code { (text) } } }
            }
        }
    }
}

fn integrity(integrity: &Integrity) -> Markup {
    let (key, verdict) = match integrity.verdict {
        Verdict::Intact => (
            "intact",
            "intact: every fingerprinted file has its baseline digest",
        ),
        Verdict::Tampered => ("tampered", "tampered"),
        Verdict::Incomplete => (
            "incomplete",
            "not known: a fingerprinted file could not be read",
        ),
        Verdict::NoBaseline => (
            "no_baseline",
            "no baseline: the contract carries no fingerprints to compare with",
        ),
    };
    let tampered: Vec<&str> = integrity.tampered().map(|f| f.path.as_str()).collect();
    html! {
        div.evidence-integrity data-verdict=(key) {
            p {
                "Contract integrity (computed from the folder): "
                strong class=[(!tampered.is_empty()).then_some("error")] { (verdict) }
                @if !tampered.is_empty() { ": " (tampered.join(", ")) }
            }
            ul.plain {
                @for f in &integrity.files {
                    @let state = match f.state {
                        FileState::Same => "as fingerprinted",
                        FileState::Modified => "modified since the contract",
                        FileState::Missing => "missing from the folder",
                        FileState::NotRead => "not read",
                    };
                    li.integrity-file data-state=(state) {
                        code { (f.path.as_str()) } ": " (state)
                        @if let Some(changes) = &f.changes {
                            p.muted { "What changed since the baseline:" }
                            (file_diff(changes, &[]))
                        }
                    }
                }
            }
        }
    }
}

fn change_order(order: &ChangeOrderEvidence) -> Markup {
    html! {
        section.evidence-change-order {
            h5 { "The change order beside the contract" }
            @for t in &order.tests {
                div.named-test {
                    p { code { (t.file) } @if let Some(name) = &t.test { " · test " code { (name) } } }
                    @if let Some(note) = &t.note { p.warning { (note) } }
                    @if !t.lines.is_empty() { (numbered(t.lines.iter().map(|(n, l)| (*n, l.as_str())))) }
                }
            }
            p.muted {
                @if order.manifests.is_empty() {
                    "No dependency manifest (requirements*.txt, pyproject.toml, package.json, Cargo.toml) at the folder's root."
                } @else {
                    "Manifests read: "
                    @for (i, m) in order.manifests.iter().enumerate() {
                        @if i > 0 { ", " }
                        (m.as_str())
                    }
                    "."
                }
            }
            ul.plain {
                @for d in &order.dependencies {
                    @let declared = !d.declared.is_empty();
                    li.dependency data-declared=(declared) {
                        "Asks for " code { (d.requested.written) } ": "
                        @if declared {
                            @for (i, at) in d.declared.iter().enumerate() {
                                @if i > 0 { "; " }
                                "declared in " (at.manifest.as_str()) " line " (at.line) " (" (at.written) ")"
                            }
                        } @else {
                            "not declared in the folder's manifests"
                        }
                    }
                }
            }
        }
    }
}

fn finding(f: &ReportedFinding) -> Markup {
    let severity = f.severity.map_or("?", |s| s.as_str());
    html! {
        span.finding data-severity=(severity) {
            strong { (severity) }
            @if let Some(p) = &f.pattern { " " code { (p) } }
            " " (f.description)
            @if let Some(l) = &f.location { " (" code { (l) } ")" }
        }
    }
}

fn file_diff(file: &FileView, findings: &[ReportedFinding]) -> Markup {
    html! {
        div.diff-file data-path=(file.path) {
            p.diff-path {
                code {
                    @if let Some(old) = &file.old_path { (old) " → " }
                    (file.path)
                }
                @if file.binary { " (binary)" }
            }
            table.diff {
                @for hunk in &file.hunks {
                    tr.hunk { td colspan="3" { code { (hunk.header) } } }
                    @for row in &hunk.rows {
                        @let (class, sign) = match row.kind {
                            LineKind::Added => ("added", "+"),
                            LineKind::Removed => ("removed", "-"),
                            LineKind::Context => ("context", " "),
                        };
                        tr.(class).flagged[!row.findings.is_empty()] data-old=[row.old] data-new=[row.new] {
                            td.ln { @if let Some(n) = row.old { (n) } }
                            td.ln { @if let Some(n) = row.new { (n) } }
                            td.text { code { (sign) (row.text) } }
                        }
                        @if !row.findings.is_empty() {
                            tr.findings-row {
                                td colspan="3" {
                                    @for f in row.findings.iter().filter_map(|&i| findings.get(i)) {
                                        div { (finding(f)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn diff(view: &DiffView) -> Markup {
    html! {
        @for f in &view.files { (file_diff(f, &view.findings)) }
        @if !view.unplaced.is_empty() {
            p.muted { "Findings at no line this diff shows:" }
            ul.plain {
                @for f in view.unplaced.iter().filter_map(|&i| view.findings.get(i)) {
                    li { (finding(f)) }
                }
            }
        }
    }
}

fn report_summary(r: &Report) -> Markup {
    html! {
        p.audit-summary {
            "Status " strong { (r.status.map_or("unknown", |s| s.as_str())) }
            " · severity " (r.severity.map_or("none", |s| s.as_str()))
            @if r.scheming_detected { " · " strong.error { "scheming detected" } }
            " · " (r.issues.len()) " finding(s)"
        }
    }
}

fn audit(a: &AuditEvidence) -> Markup {
    html! {
        section.evidence-audit {
            h5 { "Audit" }
            p.muted {
                @match &a.source {
                    AuditSource::Mail(Some(id)) => { "The AUDIT_REPORT in the mail (message " (id) ")" }
                    AuditSource::Mail(None) => "The AUDIT_REPORT in the mail",
                    AuditSource::File(path) => { (path.as_str()) " in the folder" }
                    AuditSource::Computed => "No report: the core's audit, run here on the diff against the contract's files",
                }
            }
            @if let Some(r) = &a.report { (report_summary(r)) }
            @if let Some(note) = &a.note { p.warning { (note) } }
            @match (&a.diff, &a.report) {
                (Some((path, view)), _) => {
                    p.muted { "The diff it audited: " code { (path.as_str()) } }
                    (diff(view))
                }
                (None, Some(r)) => {
                    ul.plain { @for f in &r.issues { li { (finding(f)) } } }
                }
                (None, None) => {}
            }
        }
    }
}
