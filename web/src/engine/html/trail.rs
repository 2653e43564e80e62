//! A session's review records from the project's trail (kept in its mail), each with its
//! reviewer, outcome (an override with its reason, a timeout), what it sent and was shown,
//! and its check (chain, signature, approved fingerprints); the trail's verdict and head; its
//! export as JSON Lines.

use super::{esc, time};
use crate::engine::trail::TimedOut;
use std::fmt::Write;
use switchboard_core::evidence::record::Outcome;
use switchboard_core::evidence::trail::{Problem, TrailLine, Verification};

/// The records of `session` in the trail `text` (checked as `verification`), the session's
/// checkpoints that timed out, and the whole trail's export.
#[must_use]
pub fn records(
    text: &str,
    verification: &Verification,
    timeouts: &[TimedOut],
    project: &str,
    session: &str,
) -> crate::model::Html {
    let mut h = String::new();
    let problems = |line: usize| -> Vec<&Problem> {
        verification
            .problems
            .iter()
            .filter(|p| p.line == line)
            .collect()
    };
    let _ = write!(
        h,
        r#"<p class="trail-summary" data-valid="{}">{} record(s) in {}'s review trail{}"#,
        verification.valid,
        verification.records,
        esc(project),
        if verification.valid {
            ": chain and signatures verified"
        } else {
            ": PROBLEMS FOUND"
        }
    );
    if let Some(head) = verification.head {
        let _ = write!(h, r#" · head <code class="sha head">sha256:{head}</code>"#);
    }
    h.push_str("</p>");
    h.push_str(r#"<ol class="trail-records plain">"#);
    let mut any = false;
    for (index, line) in text.lines().enumerate() {
        let Ok(parsed) = TrailLine::parse(line) else {
            continue;
        };
        if parsed.record.session != session {
            continue;
        }
        any = true;
        record(&mut h, &parsed, &problems(index + 1));
    }
    for t in timeouts {
        any = true;
        let _ = write!(
            h,
            r#"<li class="trail-record" data-outcome="timed_out"><strong>#{} timed out</strong>: {}. No reviewer decided it.</li>"#,
            t.checkpoint,
            esc(&t.words)
        );
    }
    h.push_str("</ol>");
    if !any {
        h.push_str(r#"<p class="muted">No decision on this session is in the trail yet.</p>"#);
    }
    let whole: Vec<&Problem> = verification
        .problems
        .iter()
        .filter(|p| p.line == 0)
        .collect();
    problem_list(&mut h, &whole);
    if verification.records > 0 {
        let _ = write!(
            h,
            r#"<p><a class="export" download="{}-review-trail.jsonl" href="data:application/x-ndjson;charset=utf-8,{}">Export the project's trail as JSON Lines</a> (check it with <code>switchboard records verify FILE --head HEAD</code>)</p>"#,
            esc(project),
            crate::percent::encode(text)
        );
    }
    crate::model::Html(h)
}

fn problem_list(h: &mut String, problems: &[&Problem]) {
    if problems.is_empty() {
        return;
    }
    h.push_str(r#"<ul class="trail-problems">"#);
    for p in problems {
        let _ = write!(
            h,
            r#"<li class="error" data-code="{}">{}</li>"#,
            p.code.as_str(),
            esc(&p.message)
        );
    }
    h.push_str("</ul>");
}

fn record(h: &mut String, line: &TrailLine, problems: &[&Problem]) {
    let r = &line.record;
    let outcome = match &r.outcome {
        Outcome::Decided => "decided",
        Outcome::Override { .. } => "override",
        Outcome::TimedOut { .. } => "timed_out",
    };
    let _ = write!(
        h,
        r#"<li class="trail-record" data-outcome="{outcome}" data-valid="{}"><p><strong class="literal">#{} {}</strong> by <span class="reviewer">{}</span> · "#,
        problems.is_empty(),
        r.checkpoint.number(),
        esc(&r.decision),
        esc(&r.reviewer)
    );
    time(h, r.decided_at_ms);
    h.push_str("</p>");
    if let Outcome::Override { concerns, reason } = &r.outcome {
        let _ = write!(
            h,
            r#"<p class="override">Override: <q>{}</q>, over: {}</p>"#,
            esc(reason),
            esc(&concerns
                .iter()
                .map(|c| c.words())
                .collect::<Vec<_>>()
                .join("; "))
        );
    }
    h.push_str(r#"<ul class="plain sent">"#);
    for s in &r.sent {
        let _ = write!(
            h,
            "<li>Sent {} to {}{}</li>",
            esc(&s.subject),
            esc(&s.to),
            s.server_id
                .map(|id| format!(" (message {id})"))
                .unwrap_or_default()
        );
    }
    h.push_str("</ul>");
    if !r.artifacts.is_empty() {
        let _ = write!(
            h,
            r#"<details><summary>{} artifact(s) shown, with their SHA-256</summary><ul class="plain">"#,
            r.artifacts.len()
        );
        for a in &r.artifacts {
            let _ = write!(
                h,
                r#"<li><code class="path">{}</code> ({}) <code class="sha">{}</code></li>"#,
                esc(a.path.as_str()),
                a.role.label(),
                a.sha256
                    .map_or_else(|| "not read".to_owned(), |d| d.to_string())
            );
        }
        h.push_str("</ul></details>");
    }
    let _ = write!(
        h,
        r#"<p class="signature muted">Signed with key <code class="sha">{}</code>{}</p>"#,
        esc(&line.public_key),
        if problems.is_empty() {
            ": signature, chain and fingerprints verified"
        } else {
            ""
        }
    );
    problem_list(h, problems);
    h.push_str("</li>");
}

/// Decisions kept for checkpoints no longer open: `(name in storage, session, checkpoint,
/// text, what became of the checkpoint)`, each with a Discard button (`data-discard`).
#[must_use]
pub fn kept(drafts: &[(&str, String, u8, &str, String)]) -> crate::model::Html {
    let mut h = String::new();
    if !drafts.is_empty() {
        h.push_str(r#"<section class="kept-drafts" aria-labelledby="kept-title"><h3 id="kept-title">Decisions kept for checkpoints no longer open</h3><ul class="plain">"#);
        for (name, session, checkpoint, text, words) in drafts {
            let _ = write!(
                h,
                r#"<li class="kept-draft" data-session="{s}"><p><strong>{s} #{checkpoint}</strong>: {}</p><textarea readonly rows="2" aria-label="Kept decision for {s}">{}</textarea> <button type="button" class="secondary" data-discard="{}">Discard</button></li>"#,
                esc(words),
                esc(text),
                esc(name),
                s = esc(session),
            );
        }
        h.push_str("</ul></section>");
    }
    crate::model::Html(h)
}
