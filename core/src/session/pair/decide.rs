//! A human checkpoint decision as the protocol messages it implies, valid by construction, and
//! as the Agent Mail drafts that send them ([`Decide`] → [`PairSession::drafts`]).

use super::checkpoint::{Checkpoint, Decision, DecisionError, DecisionKind};
use super::timeout::rule_after;
use super::PairSession;
use crate::agent_mail::{Draft, Importance};
use crate::fingerprint::Fingerprints;
use crate::protocol::builders::pair::{
    build_rejected, change_order_accepted, change_order_rejected, contract_final,
    contract_revision_requested, session_abort, session_complete, ContractArtifacts, PairMessage,
};
use crate::protocol::builders::Text;
use crate::protocol::registry::families::pair::{Phase, Role};
use serde::{Deserialize, Serialize};

/// A reviewer's decision at a named checkpoint: what the console's worker receives, as the
/// view typed it (serde both ways).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decide {
    /// The checkpoint decided; it must still be the session's open one.
    pub checkpoint: Checkpoint,
    /// The decision.
    pub kind: DecisionKind,
    /// Its text: required for REVISE, REJECT, ACCEPT CHANGE, REJECT CHANGE; an optional
    /// reason for ABORT; none otherwise.
    #[serde(default)]
    pub text: Option<Text>,
    /// The fingerprints of the contract's test files as the reviewer read them: APPROVED sends
    /// them as CONTRACT_FINAL's `test_fingerprints` (and ACCEPT CHANGE as the revised
    /// contract's) instead of the draft's, so what was approved is what later checks compare
    /// against. Other decisions set no baseline and ignore them.
    #[serde(default)]
    pub reviewed: Option<Fingerprints>,
}

/// How a Pair message travels: the importance and acknowledgement the session asks of it.
/// A message whose answer the session then waits for (a row of the timeout table:
/// CONTRACT_FINAL, CHANGE_ORDER_ACCEPTED, …) or that ends it early (SESSION_ABORT) or warns
/// (TIMEOUT_WARNING) asks the recipient to acknowledge it; the last two are `high`.
#[must_use]
pub fn draft(message: &PairMessage, thread_id: Option<&str>) -> Draft {
    let urgent = matches!(message.subject, "SESSION_ABORT" | "TIMEOUT_WARNING");
    let awaited = rule_after(message.subject).is_some();
    let importance = if urgent {
        Importance::High
    } else {
        Importance::Normal
    };
    Draft::pair(message, thread_id, importance, urgent || awaited)
}

impl PairSession {
    /// The drafts a decision at the named checkpoint sends, in the session's thread, ready to
    /// send: built once from typed data, valid by construction.
    ///
    /// # Errors
    /// The checkpoint is not the open one ([`DecisionError::NotOpen`]), the decision is not
    /// one it allows or lacks its text, or the agents to address are not known.
    pub fn drafts(&self, decide: &Decide) -> Result<Vec<Draft>, DecisionError> {
        let open = self.open_checkpoint();
        if open != Some(decide.checkpoint) {
            return Err(DecisionError::NotOpen {
                checkpoint: decide.checkpoint,
                open,
            });
        }
        if !decide.checkpoint.decisions().contains(&decide.kind) {
            return Err(DecisionError::NotAllowed {
                decision: decide.kind,
                checkpoint: decide.checkpoint,
            });
        }
        let text = decide.text.as_ref().map_or("", Text::as_str);
        let decision = Decision::new(decide.kind, text)?;
        let messages = self.messages(&decision, decide.reviewed.as_ref())?;
        let thread = self.thread_id.as_deref();
        Ok(messages.iter().map(|m| draft(m, thread)).collect())
    }

    /// What a reviewer typed at the open checkpoint (`REVISE: add expiry tests`), parsed and
    /// turned into the messages it implies ([`PairSession::decide`]).
    ///
    /// # Errors
    /// No open checkpoint, text that is no decision of it, or unknown agents.
    pub fn decide_text(&self, text: &str) -> Result<Vec<PairMessage>, DecisionError> {
        let checkpoint = self
            .open_checkpoint()
            .ok_or(DecisionError::NoOpenCheckpoint)?;
        self.decide(&Decision::parse(checkpoint, text)?)
    }

    /// The messages a decision at the open checkpoint implies, from the planner:
    ///
    /// | checkpoint | decision | messages |
    /// |---|---|---|
    /// | #1 contract review | APPROVED | CONTRACT_FINAL → builder (the draft's artifacts, `spec_draft` renamed `spec_final`, its fingerprints) |
    /// | | REVISE: feedback | CONTRACT_REVISION_REQUESTED → planner (extension; see `docs/protocol.md`) |
    /// | #2 implementation review | MERGE APPROVED | SESSION_COMPLETE → builder |
    /// | | REJECT: reason | BUILD_REJECTED → builder (extension) |
    /// | #3 change order review | ACCEPT CHANGE: reasoning | CHANGE_ORDER_ACCEPTED → builder (the next `_vN` of spec and tests) |
    /// | | REJECT CHANGE: strategy | CHANGE_ORDER_REJECTED → builder |
    /// | any | ABORT | SESSION_ABORT → builder |
    ///
    /// # Errors
    /// No open checkpoint, a decision it does not allow, or unknown agents.
    pub fn decide(&self, decision: &Decision) -> Result<Vec<PairMessage>, DecisionError> {
        self.messages(decision, None)
    }

    /// The agent playing `role`, or the error naming the role that is missing.
    fn addressee(&self, role: Role) -> Result<Text, DecisionError> {
        self.agent(role)
            .and_then(Text::new)
            .ok_or(DecisionError::UnknownAgent {
                role,
                pair_init_seen: self.task.is_some(),
            })
    }

    /// [`PairSession::decide`], with the reviewer's fingerprints for a new baseline.
    fn messages(
        &self,
        decision: &Decision,
        reviewed: Option<&Fingerprints>,
    ) -> Result<Vec<PairMessage>, DecisionError> {
        let checkpoint = self
            .open_checkpoint()
            .ok_or(DecisionError::NoOpenCheckpoint)?;
        if !checkpoint.decisions().contains(&decision.kind) {
            return Err(DecisionError::NotAllowed {
                decision: decision.kind,
                checkpoint,
            });
        }
        let planner = self.addressee(Role::Planner)?;
        // REVISE goes back to the planner; every other decision tells the builder.
        let builder = || self.addressee(Role::Builder);
        let text = || match &decision.text {
            Some(t) => Ok(t.clone()),
            None => Err(DecisionError::MissingText {
                decision: decision.kind,
                what: decision.kind.requires().unwrap_or("text"),
            }),
        };
        let message = match decision.kind {
            DecisionKind::Approved => {
                let draft = self.draft.as_ref().ok_or(DecisionError::NoOpenCheckpoint)?;
                let artifacts = ContractArtifacts {
                    spec: draft.artifacts.spec.finalized(),
                    tests: draft.artifacts.tests.clone(),
                };
                let fingerprints = reviewed.or(draft.fingerprints.as_ref());
                contract_final(&planner, &builder()?, &artifacts, fingerprints)
            }
            DecisionKind::Revise => contract_revision_requested(&planner, &planner, &text()?),
            DecisionKind::MergeApproved => session_complete(
                &planner,
                &builder()?,
                &Text::composed(
                    "Pair session completed successfully. Implementation approved at human review and merged."
                        .to_owned(),
                ),
            ),
            DecisionKind::Reject => build_rejected(&planner, &builder()?, &text()?),
            DecisionKind::AcceptChange => {
                let current = self
                    .contract
                    .as_ref()
                    .and_then(|c| c.artifacts.clone())
                    .or_else(|| self.draft.as_ref().map(|d| d.artifacts.clone()))
                    .ok_or(DecisionError::NoOpenCheckpoint)?;
                let updated = ContractArtifacts {
                    spec: current.spec.next_version(),
                    tests: current.tests.next_version(),
                };
                change_order_accepted(&planner, &builder()?, &updated, &text()?, reviewed)
            }
            DecisionKind::RejectChange => change_order_rejected(
                &planner,
                &builder()?,
                &Text::composed(
                    "Change order rejected at human checkpoint #3 (change order review).".to_owned(),
                ),
                &text()?,
            ),
            DecisionKind::Abort => {
                let reason = decision.text.clone().unwrap_or_else(|| {
                    Text::composed(format!("User requested abort during {}", review_name(checkpoint)))
                });
                let phase = self.phase.unwrap_or(Phase::ContractGeneration);
                session_abort(&planner, &builder()?, phase, &reason)
            }
        };
        Ok(vec![message])
    }
}

fn review_name(checkpoint: Checkpoint) -> &'static str {
    match checkpoint {
        Checkpoint::ContractReview => "contract review",
        Checkpoint::ImplementationReview => "implementation review",
        Checkpoint::ChangeOrderReview => "change order review",
    }
}
