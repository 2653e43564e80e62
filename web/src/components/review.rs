//! The review records: one per decision the console sends (the core's
//! `evidence::record::ReviewRecord`: checkpoint, decision, time, the SHA-256 of every artifact
//! shown, each message sent with its server id), kept in this browser's localStorage per
//! source, project and session as JSON Lines (written and read by the engine), listed on the
//! session view and exported as they are kept.

use super::route::Here;
use super::traffic::{answer, engine_call};
use crate::api::Draft;
use crate::ask::{ReadRecords, RecordLine};
use crate::link::EngineLink;
use crate::routes::Source;
use crate::words::when;
use leptos::prelude::*;
use switchboard_core::evidence::record::{ReviewRecord, Sent, Shown};
use switchboard_core::fingerprint::Sha256Digest;
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

/// The records kept for a session, as JSON Lines (empty: none).
fn stored(src: Source, project: &str, session: &str) -> String {
    local_storage()
        .and_then(|s| s.get_item(&storage_key(src, project, session)).ok()?)
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

/// Keeps the record of a decision sent (written as a JSON line by the engine).
///
/// # Errors
/// The engine failed, or the browser refused to store it (storage full or disabled), in its
/// words.
pub async fn keep(link: &EngineLink, decided: Decided<'_>) -> Result<(), String> {
    let record = ReviewRecord {
        reviewer: String::new(),
        project: decided.project.to_owned(),
        session: decided.session.to_owned(),
        checkpoint: decided.checkpoint,
        decision: decided.decision,
        outcome: switchboard_core::evidence::record::Outcome::Decided,
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
    let line = link.ask(RecordLine(record)).await?;
    let storage = local_storage().ok_or("this browser keeps no local storage")?;
    let mut all = stored(decided.src, decided.project, decided.session);
    all.push_str(&line);
    all.push('\n');
    storage
        .set_item(
            &storage_key(decided.src, decided.project, decided.session),
            &all,
        )
        .map_err(|e| format!("{e:?}"))
}

/// A session's review records, with their JSON Lines export.
#[component]
pub fn ReviewRecords(
    /// The route.
    here: Here,
    /// The session.
    session: String,
) -> impl IntoView {
    let lines = stored(
        here.src.get_untracked(),
        &here.project.get_untracked(),
        &session,
    );
    let export = format!(
        "data:application/x-ndjson;charset=utf-8,{}",
        crate::percent::encode(&lines)
    );
    let file = format!("{session}-reviews.jsonl");
    let records = engine_call(here, move || Some(ReadRecords(lines.clone())));
    view! {
        <section class="review-records" aria-labelledby="review-records-title">
            <h3 id="review-records-title">"Review records"</h3>
            <p class="muted">
                "Each decision sent from this browser, with the SHA-256 of every artifact shown and \
                 the messages sent (kept in this browser's local storage)."
            </p>
            {answer(records, move |table| if table.is_empty() {
                view! { <p class="muted">"No decision was sent from this browser for this session."</p> }.into_any()
            } else {
                view! {
                    // Written by the engine: every text escaped.
                    <div inner_html=table></div>
                    <p><a class="export" href=export.clone() download=file.clone()>"Export as JSON Lines"</a></p>
                }.into_any()
            })}
        </section>
    }
}

/// The localStorage key prefix of a project's approved test texts (one key per text, named
/// by its SHA-256).
fn baselines_prefix(src: Source, project: &str) -> String {
    format!(
        "switchboard.baseline.{}.{}.",
        src.as_str(),
        crate::percent::encode(project)
    )
}

/// The texts of the test files approved in this browser for a project: a tampered file is
/// then shown with the lines that changed since.
#[must_use]
pub fn baselines(src: Source, project: &str) -> Vec<String> {
    let Some(storage) = local_storage() else {
        return Vec::new();
    };
    let prefix = baselines_prefix(src, project);
    let count = storage.length().unwrap_or(0);
    (0..count)
        .filter_map(|i| storage.key(i).ok()?)
        .filter(|key| key.starts_with(&prefix))
        .filter_map(|key| storage.get_item(&key).ok()?)
        .collect()
}

/// Keeps the texts of the test files approved, each under its SHA-256.
pub fn keep_baselines(src: Source, project: &str, texts: &[(Sha256Digest, String)]) {
    let Some(storage) = local_storage() else {
        return;
    };
    let prefix = baselines_prefix(src, project);
    for (digest, text) in texts {
        // Full storage only loses the changed-lines view, never the decision.
        let _ = storage.set_item(&format!("{prefix}{digest}"), text);
    }
}
