//! A checkpoint's evidence as HTML: every text from the folder or the mail escaped, Markdown
//! only as `crate::markdown` rendered it.

use super::esc;
use crate::model::evidence::{
    ArtifactView, AuditEvidence, AuditSource, ChangeOrderEvidence, EvidenceView, Shown,
};
use std::fmt::Write;
use switchboard_core::audit::diff::LineKind;
use switchboard_core::evidence::diff_view::{DiffView, FileView};
use switchboard_core::evidence::integrity::{FileState, Integrity, Verdict};
use switchboard_core::evidence::report::{Report, ReportedFinding};
use switchboard_core::evidence::Role;

/// A session's evidence.
#[must_use]
pub fn evidence(view: &EvidenceView) -> String {
    let mut h = String::new();
    for v in &view.violations {
        let _ = write!(
            h,
            r#"<p class="error violation" data-code="{code}">{code}: {}</p>"#,
            esc(&v.message),
            code = v.code.as_str()
        );
    }
    if let Some(i) = &view.integrity {
        integrity(&mut h, i);
    }
    for a in &view.artifacts {
        artifact(&mut h, a);
    }
    if let Some(order) = &view.change_order {
        change_order(&mut h, order);
    }
    if let Some(a) = &view.audit {
        audit(&mut h, a);
    }
    h
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

fn artifact(h: &mut String, a: &ArtifactView) {
    let path = a
        .path
        .as_ref()
        .map_or_else(|| a.written.clone(), ToString::to_string);
    let open = !matches!(a.role, Role::AuditReport | Role::AuditDiff | Role::Manifest);
    let _ = write!(
        h,
        r#"<details class="artifact" data-role="{}" data-path="{}"{}><summary><strong>{}</strong> <code>{}</code>{}</summary>"#,
        role_key(a.role),
        esc(&path),
        if open { " open" } else { "" },
        capitalized(a.role.label()),
        esc(&path),
        a.message
            .map(|id| format!(" (named by message {id})"))
            .unwrap_or_default()
    );
    let sha = a
        .sha256
        .map_or_else(|| "not read".to_owned(), |d| d.to_string());
    let changed = matches!((a.sha256, a.baseline), (Some(now), Some(then)) if now != then);
    let _ = write!(
        h,
        r#"<p class="sha">SHA-256 <code>{sha}</code>{}</p>"#,
        if changed {
            r#" <strong class="error">differs from the contract's fingerprint</strong>"#
        } else {
            ""
        }
    );
    if let Some(note) = &a.note {
        let _ = write!(h, r#"<p class="warning file-note">{}</p>"#, esc(note));
    }
    match &a.shown {
        Shown::Markdown(html) => {
            let _ = write!(h, r#"<div class="markdown artifact-text">{html}</div>"#);
        }
        Shown::Code(lines) => numbered(
            h,
            lines.iter().enumerate().map(|(i, l)| (i + 1, l.as_str())),
        ),
        Shown::InAudit => h.push_str(r#"<p class="muted">Shown with the audit below.</p>"#),
        Shown::Nothing => {}
    }
    h.push_str("</details>");
}

fn numbered<'a>(h: &mut String, lines: impl Iterator<Item = (usize, &'a str)>) {
    h.push_str(r#"<table class="code-lines">"#);
    for (n, text) in lines {
        let _ = write!(
            h,
            r#"<tr data-line="{n}"><td class="ln">{n}</td><td class="text"><code>{}</code></td></tr>"#,
            esc(text)
        );
    }
    h.push_str("</table>");
}

fn integrity(h: &mut String, integrity: &Integrity) {
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
    let tampered: Vec<String> = integrity.tampered().map(|f| esc(f.path.as_str())).collect();
    let _ = write!(
        h,
        r#"<div class="evidence-integrity" data-verdict="{key}"><p>Contract integrity (computed from the folder): <strong{}>{verdict}</strong>{}</p><ul class="plain">"#,
        if tampered.is_empty() {
            ""
        } else {
            r#" class="error""#
        },
        if tampered.is_empty() {
            String::new()
        } else {
            format!(": {}", tampered.join(", "))
        }
    );
    for f in &integrity.files {
        let state = match f.state {
            FileState::Same => "as fingerprinted",
            FileState::Modified => "modified since the contract",
            FileState::Missing => "missing from the folder",
            FileState::NotRead => "not read",
        };
        let _ = write!(
            h,
            r#"<li class="integrity-file" data-state="{state}"><code>{}</code>: {state}"#,
            esc(f.path.as_str())
        );
        if let Some(changes) = &f.changes {
            h.push_str(r#"<p class="muted">What changed since the baseline:</p>"#);
            file_diff(h, changes, &[]);
        }
        h.push_str("</li>");
    }
    h.push_str("</ul></div>");
}

fn change_order(h: &mut String, order: &ChangeOrderEvidence) {
    h.push_str(
        r#"<section class="evidence-change-order"><h5>The change order beside the contract</h5>"#,
    );
    for t in &order.tests {
        let _ = write!(
            h,
            r#"<div class="named-test"><p><code>{}</code>"#,
            esc(&t.file)
        );
        if let Some(name) = &t.test {
            let _ = write!(h, " · test <code>{}</code>", esc(name));
        }
        h.push_str("</p>");
        if let Some(note) = &t.note {
            let _ = write!(h, r#"<p class="warning">{}</p>"#, esc(note));
        }
        if !t.lines.is_empty() {
            numbered(h, t.lines.iter().map(|(n, l)| (*n, l.as_str())));
        }
        h.push_str("</div>");
    }
    let manifests = if order.manifests.is_empty() {
        "No dependency manifest (requirements*.txt, pyproject.toml, package.json, Cargo.toml) at the folder's root.".to_owned()
    } else {
        let names: Vec<String> = order.manifests.iter().map(|m| esc(m.as_str())).collect();
        format!("Manifests read: {}.", names.join(", "))
    };
    let _ = write!(h, r#"<p class="muted">{manifests}</p><ul class="plain">"#);
    for d in &order.dependencies {
        let declared = !d.declared.is_empty();
        let said = if declared {
            d.declared
                .iter()
                .map(|at| {
                    format!(
                        "declared in {} line {} ({})",
                        esc(at.manifest.as_str()),
                        at.line,
                        esc(&at.written)
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            "not declared in the folder's manifests".to_owned()
        };
        let _ = write!(
            h,
            r#"<li class="dependency" data-declared="{declared}">Asks for <code>{}</code>: {said}</li>"#,
            esc(&d.requested.written)
        );
    }
    h.push_str("</ul></section>");
}

fn finding(f: &ReportedFinding) -> String {
    let severity = f.severity.map_or("?", |s| s.as_str());
    let mut out =
        format!(r#"<span class="finding" data-severity="{severity}"><strong>{severity}</strong>"#);
    if let Some(p) = &f.pattern {
        let _ = write!(out, " <code>{}</code>", esc(p));
    }
    let _ = write!(out, " {}", esc(&f.description));
    if let Some(l) = &f.location {
        let _ = write!(out, " (<code>{}</code>)", esc(l));
    }
    out.push_str("</span>");
    out
}

fn file_diff(h: &mut String, file: &FileView, findings: &[ReportedFinding]) {
    let title = match &file.old_path {
        Some(old) => format!("{old} → {}", file.path),
        None => file.path.clone(),
    };
    let _ = write!(
        h,
        r#"<div class="diff-file" data-path="{}"><p class="diff-path"><code>{}</code>{}</p><table class="diff">"#,
        esc(&file.path),
        esc(&title),
        if file.binary { " (binary)" } else { "" }
    );
    for hunk in &file.hunks {
        let _ = write!(
            h,
            r#"<tr class="hunk"><td colspan="3"><code>{}</code></td></tr>"#,
            esc(&hunk.header)
        );
        for row in &hunk.rows {
            let (class, sign) = match row.kind {
                LineKind::Added => ("added", "+"),
                LineKind::Removed => ("removed", "-"),
                LineKind::Context => ("context", " "),
            };
            let flagged = if row.findings.is_empty() {
                ""
            } else {
                " flagged"
            };
            let num = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
            let attr = |name: &str, n: Option<usize>| {
                n.map(|n| format!(r#" {name}="{n}""#)).unwrap_or_default()
            };
            let _ = write!(
                h,
                r#"<tr class="{class}{flagged}"{}{}><td class="ln">{}</td><td class="ln">{}</td><td class="text"><code>{sign}{}</code></td></tr>"#,
                attr("data-old", row.old),
                attr("data-new", row.new),
                num(row.old),
                num(row.new),
                esc(&row.text)
            );
            if !row.findings.is_empty() {
                h.push_str(r#"<tr class="findings-row"><td colspan="3">"#);
                for f in row.findings.iter().filter_map(|&i| findings.get(i)) {
                    let _ = write!(h, "<div>{}</div>", finding(f));
                }
                h.push_str("</td></tr>");
            }
        }
    }
    h.push_str("</table></div>");
}

fn diff(h: &mut String, view: &DiffView) {
    for f in &view.files {
        file_diff(h, f, &view.findings);
    }
    if !view.unplaced.is_empty() {
        h.push_str(
            r#"<p class="muted">Findings at no line this diff shows:</p><ul class="plain">"#,
        );
        for f in view.unplaced.iter().filter_map(|&i| view.findings.get(i)) {
            let _ = write!(h, "<li>{}</li>", finding(f));
        }
        h.push_str("</ul>");
    }
}

fn report_summary(h: &mut String, r: &Report) {
    let _ = write!(
        h,
        r#"<p class="audit-summary">Status <strong>{}</strong> · severity {}{} · {} finding(s)</p>"#,
        r.status.map_or("unknown", |s| s.as_str()),
        r.severity.map_or("none", |s| s.as_str()),
        if r.scheming_detected {
            r#" · <strong class="error">scheming detected</strong>"#
        } else {
            ""
        },
        r.issues.len()
    );
}

fn audit(h: &mut String, a: &AuditEvidence) {
    let source = match &a.source {
        AuditSource::Mail(Some(id)) => format!("The AUDIT_REPORT in the mail (message {id})"),
        AuditSource::Mail(None) => "The AUDIT_REPORT in the mail".to_owned(),
        AuditSource::File(path) => format!("{} in the folder", esc(path.as_str())),
        AuditSource::Computed => {
            "No report: the core's audit, run here on the diff against the contract's files"
                .to_owned()
        }
    };
    let _ = write!(
        h,
        r#"<section class="evidence-audit"><h5>Audit</h5><p class="muted">{source}</p>"#
    );
    if let Some(r) = &a.report {
        report_summary(h, r);
    }
    if let Some(note) = &a.note {
        let _ = write!(h, r#"<p class="warning">{}</p>"#, esc(note));
    }
    match (&a.diff, &a.report) {
        (Some((path, view)), _) => {
            let _ = write!(
                h,
                r#"<p class="muted">The diff it audited: <code>{}</code></p>"#,
                esc(path.as_str())
            );
            diff(h, view);
        }
        (None, Some(r)) => {
            h.push_str(r#"<ul class="plain">"#);
            for f in &r.issues {
                let _ = write!(h, "<li>{}</li>", finding(f));
            }
            h.push_str("</ul>");
        }
        (None, None) => {}
    }
    h.push_str("</section>");
}
