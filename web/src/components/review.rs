//! The review records: one per decision the console sends (the core's
//! `evidence::record::ReviewRecord`: checkpoint, decision, time, the SHA-256 of every artifact
//! shown, each message sent with its server id), kept in this browser's localStorage per
//! source, project and session, listed on the session view and exported as JSON Lines.

use super::time::when;
use crate::api::Draft;
use crate::routes::Source;
use leptos::prelude::*;
use switchboard_core::evidence::record::{json_lines, ReviewRecord, Sent, Shown};
use switchboard_core::session::pair::checkpoint::Checkpoint;

/// The localStorage key of a session's records.
fn storage_key(src: Source, project: &str, session: &str) -> String {
    format!(
        "switchboard.reviews.{}.{}.{}",
        src.as_str(),
        crate::percent::encode(project),
        crate::percent::encode(session)
    )
}

fn local_storage() -> Option<web_sys::Storage> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()?.local_storage().ok()?
    } else {
        None
    }
}

/// The records kept for a session, oldest first (lines that are no record are skipped).
#[must_use]
pub fn records(src: Source, project: &str, session: &str) -> Vec<ReviewRecord> {
    local_storage()
        .and_then(|s| s.get_item(&storage_key(src, project, session)).ok()?)
        .map(|text| {
            text.lines()
                .filter_map(|line| ReviewRecord::from_json_line(line).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// What a decision sent, to record.
pub struct Decided<'a> {
    /// The source.
    pub src: Source,
    /// The project.
    pub project: &'a str,
    /// The session.
    pub session: &'a str,
    /// The checkpoint decided.
    pub checkpoint: Checkpoint,
    /// The decision as sent (`REVISE: …`).
    pub decision: String,
    /// The source's time when it was sent.
    pub now_ms: i64,
    /// Every artifact shown with the form.
    pub shown: Vec<Shown>,
    /// The drafts sent, with the ids the server gave them.
    pub sent: &'a [(Draft, u64)],
}

/// Keeps the record of a decision sent.
///
/// # Errors
/// The browser refused to store it (storage full or disabled), in its words.
pub fn keep(decided: Decided<'_>) -> Result<(), String> {
    let record = ReviewRecord {
        project: decided.project.to_owned(),
        session: decided.session.to_owned(),
        checkpoint: decided.checkpoint,
        decision: decided.decision,
        decided_at_ms: decided.now_ms,
        decided_at: when(decided.now_ms),
        artifacts: decided.shown,
        sent: decided
            .sent
            .iter()
            .map(|(draft, id)| Sent {
                from: draft.sender.clone().unwrap_or_default(),
                to: draft.to.join(", "),
                subject: draft.subject.clone(),
                thread_id: draft.thread_id.clone(),
                body_md: draft.body_md.clone(),
                server_id: Some(*id),
            })
            .collect(),
    };
    let Some(storage) = local_storage() else {
        return Err("this browser keeps no local storage".into());
    };
    let key = storage_key(decided.src, decided.project, decided.session);
    let mut all = records(decided.src, decided.project, decided.session);
    all.push(record);
    storage
        .set_item(&key, &json_lines(&all))
        .map_err(|e| format!("{e:?}"))
}

/// A session's review records, with their JSON Lines export.
#[component]
pub fn ReviewRecords(
    /// The source.
    src: Source,
    /// The project.
    project: String,
    /// The session.
    session: String,
) -> impl IntoView {
    let records = records(src, &project, &session);
    let export = format!(
        "data:application/x-ndjson;charset=utf-8,{}",
        crate::percent::encode(&json_lines(&records))
    );
    let file = format!("{session}-reviews.jsonl");
    view! {
        <section class="review-records" aria-labelledby="review-records-title">
            <h3 id="review-records-title">"Review records"</h3>
            <p class="muted">
                "Each decision sent from this browser, with the SHA-256 of every artifact shown and \
                 the messages sent (kept in this browser's local storage)."
            </p>
            {if records.is_empty() {
                view! { <p class="muted">"No decision was sent from this browser for this session."</p> }.into_any()
            } else {
                view! {
                    <table class="review-table">
                        <thead><tr><th>"When"</th><th>"Checkpoint"</th><th>"Decision"</th><th>"Artifacts shown"</th><th>"Sent"</th></tr></thead>
                        <tbody>
                            {records.into_iter().map(record_row).collect_view()}
                        </tbody>
                    </table>
                    <p><a class="export" href=export download=file>"Export as JSON Lines"</a></p>
                }.into_any()
            }}
        </section>
    }
}

fn record_row(record: ReviewRecord) -> impl IntoView {
    view! {
        <tr class="review-record">
            <td>{record.decided_at}</td>
            <td>{format!("#{}", record.checkpoint.number())}</td>
            <td><strong>{record.decision}</strong></td>
            <td>
                {if record.artifacts.is_empty() { Some("none (no folder linked)") } else { None }}
                <ul class="plain">
                    {record.artifacts.into_iter().map(|a| view! {
                        <li>
                            <code>{a.path.to_string()}</code>
                            {format!(" ({}) ", a.role.label())}
                            <code class="sha">{a.sha256.map_or_else(|| "not read".to_owned(), |d| d.to_string())}</code>
                        </li>
                    }).collect_view()}
                </ul>
            </td>
            <td>
                <ul class="plain">
                    {record.sent.into_iter().map(|s| view! {
                        <li>{format!("{} to {}", s.subject, s.to)}
                            {s.server_id.map(|id| format!(" (message {id})"))}</li>
                    }).collect_view()}
                </ul>
            </td>
        </tr>
    }
}

/// The localStorage key of a project's approved test texts.
fn baselines_key(src: Source, project: &str) -> String {
    format!(
        "switchboard.baselines.{}.{}",
        src.as_str(),
        crate::percent::encode(project)
    )
}

/// How many approved test texts are kept per project (the newest).
const BASELINES_KEPT: usize = 32;

/// The texts of the test files approved in this browser for a project: a tampered file is
/// then shown with the lines that changed since.
#[must_use]
pub fn baselines(src: Source, project: &str) -> Vec<String> {
    local_storage()
        .and_then(|s| s.get_item(&baselines_key(src, project)).ok()?)
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Keeps the texts of the test files approved (the newest [`BASELINES_KEPT`]).
pub fn keep_baselines(src: Source, project: &str, texts: &[String]) {
    let Some(storage) = local_storage() else {
        return;
    };
    let mut all = baselines(src, project);
    all.retain(|t| !texts.contains(t));
    all.extend(texts.iter().cloned());
    let start = all.len().saturating_sub(BASELINES_KEPT);
    if let Ok(text) = serde_json::to_string(&all[start..]) {
        // Full storage only loses the changed-lines view, never the decision.
        let _ = storage.set_item(&baselines_key(src, project), &text);
    }
}
