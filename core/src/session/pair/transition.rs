//! What each Pair message does to a session once it is in order: the checkpoint it closes or
//! opens, the draft, contract and change orders it records, the phase it moves to.

use super::checkpoint::{Checkpoint, DecisionKind};
use super::event::{AuditVerdict, Carried, Event, Request};
use super::integrity::split;
use super::rules::Transition;
use super::timeout::MAX_WARNINGS;
use super::{
    push_short, Build, ChangeOrder, CheckpointRecord, Contract, ContractDraft, Integrity,
    IntegrityStatus, Outcome, PairSession,
};
use crate::agent_mail::Envelope;
use crate::protocol::builders::pair::ContractArtifacts;
use crate::protocol::builders::ArtifactPath;
use crate::protocol::registry::families::pair::Phase;
use crate::session::violation::{Violation, ViolationCode};

impl PairSession {
    /// Applies a message that is in order (see `apply`): its event, then the checkpoint the
    /// rule opens and the phase it moves to.
    pub(super) fn transition(
        &mut self,
        env: &Envelope,
        rule: &Transition,
        event: Event,
    ) -> Option<Violation> {
        let open = self.open_checkpoint();
        let violation = match event {
            Event::Init { .. } | Event::ClarificationRequest | Event::ClarificationResponse => None,
            Event::ContractDraft {
                artifacts,
                safety_reasoning,
                fingerprints,
            } => self.contract_draft(env, open, artifacts, safety_reasoning, fingerprints),
            Event::RevisionRequested { feedback } => {
                if open != Some(Checkpoint::ContractReview) {
                    return Some(Violation::at(
                        ViolationCode::OutOfOrder,
                        env,
                        "CONTRACT_REVISION_REQUESTED with no contract under review".into(),
                    ));
                }
                let decision = DecisionKind::Revise;
                self.close(env, Checkpoint::ContractReview, decision, Some(feedback));
                None
            }
            Event::ContractFinal {
                artifacts,
                fingerprints,
            } => self.contract_final(env, open, artifacts, fingerprints),
            Event::BuildComplete {
                files,
                fingerprints,
            } => {
                let (observed, bad) = split(fingerprints, env);
                let violation =
                    bad.or_else(|| observed.as_ref().and_then(|o| self.check_integrity(env, o)));
                self.build = Some(Build {
                    entry: env.index,
                    id: env.id,
                    files,
                    fingerprints: observed,
                });
                violation
            }
            Event::ChangeOrder(request) => {
                self.change_order(env, request);
                None
            }
            Event::ChangeOrderAccepted {
                artifacts,
                reasoning,
                fingerprints,
            } => self.change_order_accepted(env, artifacts, reasoning, fingerprints),
            Event::ChangeOrderRejected {
                reasoning,
                strategy,
            } => {
                let outcome = Outcome::Rejected;
                self.decide_change_order(
                    env,
                    outcome,
                    Some(reasoning),
                    Some(strategy.clone()),
                    None,
                );
                let decision = DecisionKind::RejectChange;
                self.close(env, Checkpoint::ChangeOrderReview, decision, Some(strategy));
                None
            }
            Event::BuildRejected { reason } => {
                let decision = DecisionKind::Reject;
                self.close(
                    env,
                    Checkpoint::ImplementationReview,
                    decision,
                    Some(reason),
                );
                None
            }
            Event::SessionComplete => {
                let decision = DecisionKind::MergeApproved;
                self.close(env, Checkpoint::ImplementationReview, decision, None);
                None
            }
            Event::SessionAbort { reason } => {
                if let Some(open) = open {
                    self.close(env, open, DecisionKind::Abort, Some(reason));
                }
                self.decide_change_order(env, Outcome::Aborted, None, None, None);
                None
            }
            Event::TimeoutWarning { phase } => return self.warning(env, phase),
            Event::AuditReport(verdict) => self.audit_report(env, verdict),
        };
        if let Some(checkpoint) = rule.opens {
            self.open(env, checkpoint);
        }
        if let Some(to) = rule.to {
            self.phase = Some(to);
            self.wait = self.wait_for(rule.message, env);
        }
        violation
    }

    /// CONTRACT_DRAFT: a new draft while one is under review means the reviewer asked for a
    /// revision.
    fn contract_draft(
        &mut self,
        env: &Envelope,
        open: Option<Checkpoint>,
        artifacts: ContractArtifacts,
        safety_reasoning: Option<ArtifactPath>,
        fingerprints: Carried,
    ) -> Option<Violation> {
        if open == Some(Checkpoint::ContractReview) {
            self.close(env, Checkpoint::ContractReview, DecisionKind::Revise, None);
        }
        let (fingerprints, bad) = split(fingerprints, env);
        self.draft = Some(ContractDraft {
            entry: env.index,
            artifacts,
            safety_reasoning,
            fingerprints,
        });
        bad
    }

    /// CONTRACT_FINAL: checkpoint #1 approved (or skipped); the contract's fingerprints are
    /// the ones it carries, else the draft's.
    fn contract_final(
        &mut self,
        env: &Envelope,
        open: Option<Checkpoint>,
        artifacts: Option<ContractArtifacts>,
        fingerprints: Carried,
    ) -> Option<Violation> {
        let skipped = if open == Some(Checkpoint::ContractReview) {
            self.close(
                env,
                Checkpoint::ContractReview,
                DecisionKind::Approved,
                None,
            );
            None
        } else {
            Some(Violation::at(
                ViolationCode::CheckpointSkipped,
                env,
                "CONTRACT_FINAL with no CONTRACT_DRAFT under review: the contract skipped human checkpoint #1".into(),
            ))
        };
        let (carried, bad) = split(fingerprints, env);
        let from_draft = self.draft.as_ref().and_then(|d| d.fingerprints.clone());
        self.contract = Some(Contract {
            revision: 1,
            artifacts: artifacts.or_else(|| self.draft.as_ref().map(|d| d.artifacts.clone())),
            fingerprints: carried.or(from_draft),
        });
        skipped.or(bad)
    }

    /// CHANGE_ORDER: a pending change order.
    fn change_order(&mut self, env: &Envelope, request: Request) {
        push_short(
            &mut self.change_orders,
            ChangeOrder {
                entry: env.index,
                id: env.id,
                requested_at: env.at,
                request,
                outcome: Outcome::Pending,
                decided_at: None,
                reasoning: None,
                suggested_strategy: None,
                contract_revision: None,
            },
        );
    }

    /// CHANGE_ORDER_ACCEPTED: the contract's next revision, and checkpoint #3 closed.
    fn change_order_accepted(
        &mut self,
        env: &Envelope,
        artifacts: ContractArtifacts,
        reasoning: String,
        fingerprints: Carried,
    ) -> Option<Violation> {
        let (fingerprints, bad) = split(fingerprints, env);
        let revision = self.contract.as_ref().map_or(1, |c| c.revision) + 1;
        self.contract = Some(Contract {
            revision,
            artifacts: Some(artifacts),
            fingerprints,
        });
        let outcome = Outcome::Accepted;
        self.decide_change_order(env, outcome, Some(reasoning.clone()), None, Some(revision));
        let decision = DecisionKind::AcceptChange;
        self.close(
            env,
            Checkpoint::ChangeOrderReview,
            decision,
            Some(reasoning),
        );
        bad
    }

    /// An audit report: tampered contract files make the integrity tampered.
    fn audit_report(&mut self, env: &Envelope, verdict: AuditVerdict) -> Option<Violation> {
        let mut violation = None;
        if !verdict.tampered.is_empty() {
            self.integrity = Integrity {
                status: IntegrityStatus::Tampered,
                files: verdict.tampered.clone(),
                changes: Vec::new(),
                checked_at: env.at,
            };
            violation = Some(Violation {
                file: verdict.tampered.first().cloned(),
                ..Violation::at(
                    ViolationCode::ContractTampered,
                    env,
                    format!(
                        "the audit report found contract test files changed: {}",
                        verdict.tampered.join(", ")
                    ),
                )
            });
        }
        push_short(&mut self.audits, verdict);
        violation
    }

    fn close(
        &mut self,
        env: &Envelope,
        checkpoint: Checkpoint,
        decision: DecisionKind,
        text: Option<String>,
    ) {
        if let Some(open) = self
            .checkpoints
            .last_mut()
            .filter(|c| c.closed_entry.is_none() && c.checkpoint == checkpoint)
        {
            open.closed_entry = Some(env.index);
            open.closed_at = env.at;
            open.decision = Some(decision);
            open.text = text.filter(|t| !t.is_empty());
        }
    }

    fn open(&mut self, env: &Envelope, checkpoint: Checkpoint) {
        push_short(
            &mut self.checkpoints,
            CheckpointRecord {
                checkpoint,
                opened_entry: env.index,
                opened_at: env.at,
                closed_entry: None,
                closed_at: None,
                decision: None,
                text: None,
            },
        );
    }

    fn decide_change_order(
        &mut self,
        env: &Envelope,
        outcome: Outcome,
        reasoning: Option<String>,
        strategy: Option<String>,
        revision: Option<u32>,
    ) {
        if let Some(order) = self
            .change_orders
            .iter_mut()
            .rev()
            .find(|o| o.outcome == Outcome::Pending)
        {
            order.outcome = outcome;
            order.decided_at = env.at;
            order.reasoning = reasoning;
            order.suggested_strategy = strategy;
            order.contract_revision = revision;
        }
    }

    fn warning(&mut self, env: &Envelope, phase: Option<Phase>) -> Option<Violation> {
        if self.phase.is_none() {
            self.phase = phase;
        }
        let Some(wait) = self.wait.as_mut() else {
            return Some(Violation::at(
                ViolationCode::OutOfOrder,
                env,
                "TIMEOUT_WARNING while no response is awaited".into(),
            ));
        };
        if wait.warnings.len() >= MAX_WARNINGS as usize {
            return Some(Violation::at(
                ViolationCode::LimitExceeded,
                env,
                format!(
                    "TIMEOUT_WARNING number {} (at most {MAX_WARNINGS}; SESSION_ABORT was due)",
                    wait.warnings.len() + 1
                ),
            ));
        }
        if let Some(at) = env.at {
            wait.warnings.push(at);
        }
        None
    }
}
