//! A human checkpoint decision as the protocol messages it implies, valid by construction.

use super::checkpoint::{Checkpoint, Decision, DecisionError, DecisionKind};
use super::PairSession;
use crate::protocol::builders::pair::{
    build_rejected, change_order_accepted, change_order_rejected, contract_final,
    contract_revision_requested, session_abort, session_complete, ContractArtifacts, PairMessage,
};
use crate::protocol::builders::Text;
use crate::protocol::registry::families::pair::Phase;

impl PairSession {
    /// What a reviewer typed at the open checkpoint (`REVISE: add expiry tests`), parsed and
    /// turned into the messages it implies ([`PairSession::decide`]).
    ///
    /// # Errors
    /// No open checkpoint, text that is no decision of it, or unknown roles.
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
    /// | | REVISE: feedback | CONTRACT_REVISION_REQUESTED → planner (extension) |
    /// | #2 implementation review | MERGE APPROVED | SESSION_COMPLETE → builder |
    /// | | REJECT: reason | BUILD_REJECTED → builder (extension) |
    /// | #3 change order review | ACCEPT CHANGE: reasoning | CHANGE_ORDER_ACCEPTED → builder (the next `_vN` of spec and tests) |
    /// | | REJECT CHANGE: strategy | CHANGE_ORDER_REJECTED → builder |
    /// | any | ABORT | SESSION_ABORT → builder |
    ///
    /// # Errors
    /// No open checkpoint, a decision it does not allow, or unknown roles.
    pub fn decide(&self, decision: &Decision) -> Result<Vec<PairMessage>, DecisionError> {
        let checkpoint = self
            .open_checkpoint()
            .ok_or(DecisionError::NoOpenCheckpoint)?;
        if !checkpoint.decisions().contains(&decision.kind) {
            return Err(DecisionError::NotAllowed {
                decision: decision.kind,
                checkpoint,
            });
        }
        let planner = self.planner.as_deref().and_then(Text::new);
        let builder = self.builder.as_deref().and_then(Text::new);
        let (Some(planner), Some(builder)) = (planner, builder) else {
            return Err(DecisionError::UnknownRoles);
        };
        let text = || match &decision.text {
            Some(t) => Ok(t.clone()),
            None => Err(DecisionError::MissingText {
                decision: decision.kind,
                what: decision.kind.requires().unwrap_or("text"),
            }),
        };
        let message = match decision.kind {
            DecisionKind::Approved => {
                let (draft, fingerprints) = self.draft.as_ref().ok_or(DecisionError::NoOpenCheckpoint)?;
                let artifacts = ContractArtifacts {
                    spec: draft.spec.finalized(),
                    tests: draft.tests.clone(),
                };
                contract_final(&planner, &builder, &artifacts, fingerprints.as_ref())
            }
            DecisionKind::Revise => contract_revision_requested(&planner, &planner, &text()?),
            DecisionKind::MergeApproved => session_complete(
                &planner,
                &builder,
                &Text::composed(
                    "Pair session completed successfully. Implementation approved at human review and merged."
                        .to_owned(),
                ),
            ),
            DecisionKind::Reject => build_rejected(&planner, &builder, &text()?),
            DecisionKind::AcceptChange => {
                let current = self
                    .contract
                    .as_ref()
                    .and_then(|c| c.artifacts.clone())
                    .or_else(|| self.draft.as_ref().map(|(a, _)| a.clone()))
                    .ok_or(DecisionError::NoOpenCheckpoint)?;
                let updated = ContractArtifacts {
                    spec: current.spec.next_version(),
                    tests: current.tests.next_version(),
                };
                change_order_accepted(&planner, &builder, &updated, &text()?, None)
            }
            DecisionKind::RejectChange => change_order_rejected(
                &planner,
                &builder,
                &Text::composed(
                    "Change order rejected at human checkpoint #3 (change order review).".to_owned(),
                ),
                &text()?,
            ),
            DecisionKind::Abort => {
                let reason = decision.text.clone().unwrap_or_else(|| {
                    Text::composed(format!("User requested abort during {}", review_name(checkpoint)))
                });
                session_abort(&planner, &builder, self.phase.unwrap_or(Phase::ContractGeneration), &reason)
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
