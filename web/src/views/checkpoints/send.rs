//! Sending one decision, once: the newest mail is read and the engine says what became of the
//! checkpoint (`ask::CheckpointFate`); only a checkpoint still open as shown is sent to. A
//! send that fails is read back the same way: stored (the server's reply was lost), it counts
//! as sent; not stored, it may be sent again; unreadable, nothing is assumed. Once sent, the
//! decision is recorded, signed, in the project's review trail.

use crate::api::{Backend, BackendError, CheckpointDecision, Decided, Draft, OpenCheckpoint};
use crate::ask::CheckpointFate;
use crate::components::evidence::Seen;
use crate::components::review;
use crate::model::{Fate, TrafficKey};
use crate::session::Session;
use std::rc::Rc;
use switchboard_core::evidence::record::Outcome;
use switchboard_core::fingerprint::Fingerprints;
use switchboard_core::session::pair::checkpoint::{Decision, DecisionKind};

/// A decision about to be sent, with what its record needs.
pub struct Sending {
    /// The project.
    pub key: TrafficKey,
    /// The checkpoint as the card showed it.
    pub at: OpenCheckpoint,
    /// The message that opened it.
    pub opened: Option<u64>,
    /// The decision.
    pub decision: Decision,
    /// The messages it sends (as previewed).
    pub drafts: Vec<Draft>,
    /// What the reviewer was shown.
    pub seen: Seen,
    /// Who decides.
    pub reviewer: String,
    /// As the evidence allowed it, or an override.
    pub outcome: Outcome,
}

/// Whether a decision approves (and so may override what the evidence shows).
#[must_use]
pub fn approves(kind: DecisionKind) -> bool {
    matches!(
        kind,
        DecisionKind::Approved | DecisionKind::MergeApproved | DecisionKind::AcceptChange
    )
}

/// The fingerprints APPROVED sends as CONTRACT_FINAL's `test_fingerprints`: those of the
/// tests shown. Other decisions set no baseline from them (ACCEPT CHANGE names the next
/// version of the tests, which the reviewer was not shown).
#[must_use]
pub fn approving(decision: &Decision, shown: Option<Fingerprints>) -> Option<Fingerprints> {
    shown.filter(|_| decision.kind == DecisionKind::Approved)
}

/// What became of the checkpoint, from the newest mail.
async fn fate(
    backend: &Rc<dyn Backend>,
    session: Session,
    s: &Sending,
) -> Result<Fate, BackendError> {
    let link = session.link();
    session
        .traffic
        .catch_up(backend.clone(), link.clone(), &s.key)
        .await?;
    link.ask(CheckpointFate {
        key: s.key.clone(),
        session: s.at.session.clone(),
        opened: s.opened,
        entry: s.at.entry,
        sent: s.drafts.clone(),
    })
    .await
    .map_err(BackendError::Engine)
}

/// Sends the decision at most once and records it; the words to show.
///
/// # Errors
/// The thread could not be read, decided elsewhere or timed out (who, when), not sent (why,
/// and that Send tries again), or not known whether the server stored it; in words.
pub async fn send_once(
    backend: Rc<dyn Backend>,
    session: Session,
    s: Sending,
) -> Result<String, BackendError> {
    // Read the thread, send if the checkpoint is still open, and after a failed send read
    // the thread again: the decision may have been stored though its reply was lost.
    let mut failed: Option<BackendError> = None;
    let ids = loop {
        match (fate(&backend, session, &s).await, failed.take()) {
            (Ok(Fate::Closed(words)), _) => return Err(BackendError::Invalid(words)),
            (Ok(Fate::Sent(id)), _) => break vec![id],
            (Ok(Fate::Open), Some(error)) => {
                return Err(BackendError::Invalid(format!(
                    "Not sent: {error} (read back: not in the thread). Send tries again."
                )))
            }
            (Err(_), Some(error)) => {
                return Err(BackendError::Invalid(format!(
                    "{error} Not known whether it was stored (the thread could not be read \
                     back). Send reads it back first."
                )))
            }
            (Err(error), None) => return Err(error),
            (Ok(Fate::Open), None) => {}
        }
        let decided = Decided {
            decision: CheckpointDecision::at(&s.at, &s.decision)
                .with_reviewed(approving(&s.decision, s.seen.fingerprints.clone())),
            drafts: s.drafts.clone(),
        };
        match backend.send_decision(&s.key.project, decided).await {
            Ok(ids) => break ids,
            Err(error) => failed = Some(error),
        }
    };
    let sent: Vec<(Draft, u64)> = s.drafts.iter().cloned().zip(ids).collect();
    if approves(s.decision.kind) {
        review::keep_baselines(s.key.src, &s.key.project, &s.seen.tests);
    }
    let record = review::keep(
        backend.as_ref(),
        &session.link(),
        &s.key,
        review::Decided {
            reviewer: s.reviewer,
            session: &s.at.session,
            checkpoint: s.at.checkpoint,
            decision: s.decision.literal(),
            outcome: s.outcome,
            shown: s.seen.shown,
            sent: &sent,
        },
    )
    .await;
    let sent: Vec<String> = sent
        .iter()
        .map(|(d, id)| format!("{} to {} (message {id})", d.subject, d.to.join(", ")))
        .collect();
    let kept = match record {
        Ok(()) => " The review record is in the project's trail.".to_owned(),
        Err(why) => format!(" The review record could not be kept in the mail: {why}"),
    };
    Ok(format!("Sent {}.{kept}", sent.join(", ")))
}
