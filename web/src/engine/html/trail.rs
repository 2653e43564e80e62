//! A session's review records from the project's trail (kept in its mail), each with its
//! reviewer, outcome (an override with its reason, a timeout), what it sent and was shown,
//! and its check (chain, signature, approved fingerprints); the trail's verdict and head; its
//! export as JSON Lines.

use super::{panel, time};
use crate::engine::trail::TimedOut;
use crate::model::Html;
use maud::{html, Markup};
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
) -> Html {
    // Line numbers are 1-based; 0 is the trail as a whole.
    let problems = |line: usize| -> Vec<&Problem> {
        verification
            .problems
            .iter()
            .filter(|p| p.line == line)
            .collect()
    };
    let lines: Vec<(usize, TrailLine)> = text
        .lines()
        .enumerate()
        .filter_map(|(index, line)| Some((index + 1, TrailLine::parse(line).ok()?)))
        .filter(|(_, parsed)| parsed.record.session == session)
        .collect();
    panel(html! {
        p.trail-summary data-valid=(verification.valid) {
            (verification.records) " record(s) in " (project) "'s review trail"
            @if verification.valid { ": chain and signatures verified" } @else { ": PROBLEMS FOUND" }
            @if let Some(head) = verification.head {
                " · head " code.sha.head { "sha256:" (head) }
            }
        }
        ol.trail-records.plain {
            @for (line, parsed) in &lines { (record(parsed, &problems(*line))) }
            @for t in timeouts {
                li.trail-record data-outcome="timed_out" {
                    strong { "#" (t.checkpoint) " timed out" } ": " (t.words) ". No reviewer decided it."
                }
            }
        }
        @if lines.is_empty() && timeouts.is_empty() {
            p.muted { "No decision on this session is in the trail yet." }
        }
        (problem_list(&problems(0)))
        @if verification.records > 0 {
            p {
                a.export download={ (project) "-review-trail.jsonl" }
                    href={ "data:application/x-ndjson;charset=utf-8," (crate::percent::encode(text)) } {
                    "Export the project's trail as JSON Lines"
                }
                " (check it with " code { "switchboard records verify FILE --head HEAD" } ")"
            }
        }
    })
}

fn problem_list(problems: &[&Problem]) -> Markup {
    html! {
        @if !problems.is_empty() {
            ul.trail-problems {
                @for p in problems { li.error data-code=(p.code.as_str()) { (p.message) } }
            }
        }
    }
}

fn record(line: &TrailLine, problems: &[&Problem]) -> Markup {
    let r = &line.record;
    let outcome = match &r.outcome {
        Outcome::Decided => "decided",
        Outcome::Override { .. } => "override",
        Outcome::TimedOut { .. } => "timed_out",
    };
    html! {
        li.trail-record data-outcome=(outcome) data-valid=(problems.is_empty()) {
            p {
                strong.literal { "#" (r.checkpoint.number()) " " (r.decision) }
                " by " span.reviewer { (r.reviewer) } " · " (time(r.decided_at_ms))
            }
            @if let Outcome::Override { concerns, reason } = &r.outcome {
                p.override {
                    "Override: " q { (reason) } ", over: "
                    (concerns.iter().map(|c| c.words()).collect::<Vec<_>>().join("; "))
                }
            }
            ul.plain.sent {
                @for s in &r.sent {
                    li {
                        "Sent " (s.subject) " to " (s.to)
                        @if let Some(id) = s.server_id { " (message " (id) ")" }
                    }
                }
            }
            @if !r.artifacts.is_empty() {
                details {
                    summary { (r.artifacts.len()) " artifact(s) shown, with their SHA-256" }
                    ul.plain {
                        @for a in &r.artifacts {
                            li {
                                code.path { (a.path.as_str()) } " (" (a.role.label()) ") "
                                code.sha { @match a.sha256 { Some(d) => (d), None => "not read" } }
                            }
                        }
                    }
                }
            }
            p.signature.muted {
                "Signed with key " code.sha { (line.public_key) }
                @if problems.is_empty() { ": signature, chain and fingerprints verified" }
            }
            (problem_list(problems))
        }
    }
}

/// Decisions kept for checkpoints no longer open: `(name in storage, session, checkpoint,
/// text, what became of the checkpoint)`, each with a Discard button (`data-discard`).
#[must_use]
pub fn kept(drafts: &[(&str, String, u8, &str, String)]) -> Html {
    panel(html! {
        @if !drafts.is_empty() {
            section.kept-drafts aria-labelledby="kept-title" {
                h3 #kept-title { "Decisions kept for checkpoints no longer open" }
                ul.plain {
                    @for (name, session, checkpoint, text, words) in drafts {
                        li.kept-draft data-session=(session) {
                            p { strong { (session) " #" (checkpoint) } ": " (words) }
                            textarea readonly rows="2" aria-label={ "Kept decision for " (session) } { (text) }
                            " "
                            button.secondary type="button" data-discard=(name) { "Discard" }
                        }
                    }
                }
            }
        }
    })
}
