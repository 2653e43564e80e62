//! The review records: one per decision the console sends (the core's
//! `evidence::record::ReviewRecord`: reviewer, checkpoint, decision, outcome, time, the
//! SHA-256 of every artifact shown, each message sent with its server id), chained after the
//! project's trail and signed with the reviewer's key (WebCrypto Ed25519, kept in IndexedDB by
//! `web/js/reviewer-key.js`), then kept in the project's mail (`Backend::keep_record`), where
//! every browser connected to the server reads it. The engine writes the JSON and lists a
//! session's records (`ask::ToSign`, `ask::Seal`, `ask::Trail`).

use super::drafts::local_storage;
use super::html::EngineHtml;
use super::route::Here;
use super::traffic::{answer, engine_resource};
use crate::api::{Backend, BackendError, Draft};
use crate::ask::{Seal, ToSign, Trail};
use crate::link::EngineLink;
use crate::model::TrafficKey;
use crate::routes::Source;
use crate::store::TrafficState;
use crate::words::when;
use leptos::prelude::*;
use switchboard_core::evidence::record::{Outcome, ReviewRecord, Sent, Shown};
use switchboard_core::evidence::trail::{hex, TrailLine};
use switchboard_core::fingerprint::Sha256Digest;
use switchboard_core::session::pair::checkpoint::Checkpoint;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/reviewer-key.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = reviewerPublicKey)]
    async fn public_key() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = reviewerSign)]
    async fn sign(bytes: &[u8]) -> Result<JsValue, JsValue>;
}

/// The bytes of a `Uint8Array` the key's functions answer, or the browser's refusal.
fn bytes(answer: Result<JsValue, JsValue>) -> Result<Vec<u8>, String> {
    answer
        .map(|v| js_sys::Uint8Array::new(&v).to_vec())
        .map_err(|e| format!("this browser's key store refused: {e:?}"))
}

/// What a decision sent, to record.
pub struct Decided<'a> {
    /// The reviewer.
    pub reviewer: String,
    /// The session.
    pub session: &'a str,
    /// The checkpoint decided.
    pub checkpoint: Checkpoint,
    /// The decision as sent (`REVISE: …`).
    pub decision: String,
    /// As the evidence allowed it, or an override.
    pub outcome: Outcome,
    /// Every artifact shown with the form.
    pub shown: Vec<Shown>,
    /// The drafts sent, with the ids the server gave them.
    pub sent: &'a [(Draft, u64)],
}

/// Keeps the record of a decision sent: chained after the project's trail, signed, and sent
/// to the project's mail.
///
/// # Errors
/// The key store, the engine or the server refused, in words.
pub async fn keep(
    backend: &dyn Backend,
    link: &EngineLink,
    key: &TrafficKey,
    decided: Decided<'_>,
) -> Result<(), BackendError> {
    let now_ms = backend.now_ms();
    let record = ReviewRecord {
        reviewer: decided.reviewer,
        project: key.project.clone(),
        session: decided.session.to_owned(),
        checkpoint: decided.checkpoint,
        decision: decided.decision,
        outcome: decided.outcome,
        decided_at_ms: now_ms,
        decided_at: when(now_ms),
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
    let refused = BackendError::Engine;
    let public = hex(&bytes(public_key().await).map_err(refused)?);
    let line = TrailLine::new(record, None, public);
    let signed = link
        .ask(ToSign {
            key: key.clone(),
            line,
        })
        .await
        .map_err(refused)?;
    let signature = hex(&bytes(sign(signed.as_bytes()).await).map_err(refused)?);
    let draft = link.ask(Seal(signature)).await.map_err(refused)?;
    backend.keep_record(&key.project, draft).await.map(|_| ())
}

/// A session's review records from the project's trail, each with its check, and the
/// trail's export.
#[component]
pub fn ReviewRecords(
    /// The route.
    here: Here,
    /// The project's traffic.
    key: TrafficKey,
    /// Its state.
    state: Memo<Option<TrafficState>>,
    /// The session.
    session: String,
) -> impl IntoView {
    let records = engine_resource(here, state, move || Trail {
        key: key.clone(),
        session: session.clone(),
    });
    view! {
        <section class="review-records" aria-labelledby="review-records-title">
            <h3 id="review-records-title">"Review trail"</h3>
            <p class="muted">
                "Each decision sent from a console, kept in this project's mail: who decided, on which \
                 artifacts (SHA-256), overrides with their reason, each record chained to the one before \
                 and signed with its reviewer's key."
            </p>
            {answer(records, move |html| view! { <EngineHtml html /> }.into_any())}
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
