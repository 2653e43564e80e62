//! What each Pair message does to a session once it is in order: the checkpoint it closes or
//! opens, the draft, contract and change orders it records, the phase it moves to.

use super::checkpoint::{Checkpoint, DecisionKind};
use super::event::{AuditVerdict, Carried, Event, Request};
use super::integrity::split;
use super::rules::Transition;
use super::timeout::{PastWait, GRACE_MINUTES, MAX_WARNINGS};
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
                self.audit_since_build = None;
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
            } => {
                self.check_new_contract(env, &artifacts);
                self.change_order_accepted(env, artifacts, reasoning, fingerprints)
            }
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
                self.check_merge(env);
                let decision = DecisionKind::MergeApproved;
                self.close(env, Checkpoint::ImplementationReview, decision, None);
                None
            }
            Event::SessionAbort { reason, phase } => {
                self.check_phase(env, phase);
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
            self.end_wait(env);
            self.wait = self.wait_for(rule.message, env);
        }
        violation
    }

    /// Ends the current wait at `env`: answered when the awaited agent sent it.
    pub(super) fn end_wait(&mut self, env: &Envelope) {
        let Some(wait) = self.wait.take() else {
            return;
        };
        let answered = match (&wait.to, &env.from) {
            (Some(to), Some(from)) => to == from,
            (None, Some(from)) => wait.from.as_deref() != Some(from.as_str()),
            (_, None) => false,
        };
        push_short(
            &mut self.past_waits,
            PastWait {
                wait,
                ended_at: env.at,
                answered,
            },
        );
    }

    /// A side finding: reported, the message still applied.
    fn note(&mut self, violation: Violation) {
        push_short(&mut self.violations, violation);
    }

    /// TIMEOUT_WARNING and SESSION_ABORT name the phase the session is in.
    fn check_phase(&mut self, env: &Envelope, named: Option<Phase>) {
        if let (Some(named), Some(current)) = (named, self.phase) {
            if named != current {
                let kind = env.message_type().unwrap_or("message");
                self.note(Violation::at(
                    ViolationCode::BadValue,
                    env,
                    format!(
                        "{kind} names phase {}, but the session is in {}",
                        named.as_str(),
                        current.as_str()
                    ),
                ));
            }
        }
    }

    /// SESSION_COMPLETE (MERGE APPROVED): the automated audit ran on the build (an
    /// AUDIT_REPORT since the last BUILD_COMPLETE), and did not fail it; the contract is not
    /// known to be tampered.
    fn check_merge(&mut self, env: &Envelope) {
        match &self.audit_since_build {
            None => {
                let v = Violation::at(
                    ViolationCode::Missing,
                    env,
                    "SESSION_COMPLETE with no AUDIT_REPORT since the last BUILD_COMPLETE: the automated audit (Pattern 1, step 9) left no report".into(),
                )
                .expecting("AUDIT_REPORT");
                self.note(v);
            }
            Some(a) if a.failed() => {
                let why = a.why_failed();
                self.note(Violation::at(
                    ViolationCode::GateBreached,
                    env,
                    format!("SESSION_COMPLETE after the audit failed the build ({why}): the seed's recovery is \"Reject build, restart\""),
                ));
            }
            Some(_) => {}
        }
        if self.integrity.status == IntegrityStatus::Tampered
            && !self
                .audit_since_build
                .as_ref()
                .is_some_and(AuditVerdict::failed)
        {
            let files = self.integrity.files.join(", ");
            self.note(Violation::at(
                ViolationCode::GateBreached,
                env,
                format!("SESSION_COMPLETE with the contract's tests tampered ({files}): CONTRACT_TAMPERED calls for \"Reject build, restart\""),
            ));
        }
    }

    /// CHANGE_ORDER_ACCEPTED names the contract's next files: the finalized spec and tests
    /// are immutable after contract approval.
    fn check_new_contract(&mut self, env: &Envelope, updated: &ContractArtifacts) {
        let Some(current) = self.contract.as_ref().and_then(|c| c.artifacts.as_ref()) else {
            return;
        };
        let reused: Vec<String> = [
            (&updated.spec, &current.spec),
            (&updated.tests, &current.tests),
        ]
        .into_iter()
        .filter(|(new, old)| new.as_str() == old.as_str())
        .map(|(new, _)| new.as_str().to_owned())
        .collect();
        if !reused.is_empty() {
            self.note(Violation::at(
                ViolationCode::ArtifactReused,
                env,
                format!(
                    "CHANGE_ORDER_ACCEPTED names {} again: the finalized contract is immutable after approval, an update is new files (…_v2)",
                    reused.join(" and ")
                ),
            ));
        }
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

    /// An audit report: tampered contract files make the integrity tampered (the builder's
    /// doing); a report that finds tampering is a CRITICAL FAIL; a failed build is the
    /// builder's.
    fn audit_report(&mut self, env: &Envelope, verdict: AuditVerdict) -> Option<Violation> {
        let mut violation = None;
        let builder = self.builder.clone();
        let tampered =
            !verdict.tampered.is_empty() || self.integrity.status == IntegrityStatus::Tampered;
        if tampered && (verdict.status != "FAIL" || verdict.severity != "CRITICAL") {
            self.note(Violation::at(
                ViolationCode::BadValue,
                env,
                format!(
                    "the contract's tests are tampered, yet the audit report says {} / {}: \"Any modification triggers CRITICAL alert\" (FAIL / CRITICAL)",
                    verdict.status, verdict.severity
                ),
            ));
        }
        if verdict.failed() {
            let why = verdict.why_failed();
            self.note(
                Violation::at(
                    ViolationCode::AuditFailed,
                    env,
                    format!("the audit failed the build ({why})"),
                )
                .by(builder.as_deref()),
            );
        }
        if !verdict.tampered.is_empty() {
            self.integrity = Integrity {
                status: IntegrityStatus::Tampered,
                files: verdict.tampered.clone(),
                changes: Vec::new(),
                checked_at: env.at,
            };
            violation = Some(Violation {
                file: verdict.tampered.first().cloned(),
                by: builder,
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
        self.audit_since_build = Some(verdict.clone());
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
        if let Some(wait) = &self.wait {
            let mut found = Vec::new();
            if let (Some(to), false) = (&wait.to, env.to.is_empty()) {
                if !env.to.contains(to) {
                    found.push(Violation::at(
                        ViolationCode::WrongRecipient,
                        env,
                        format!(
                            "TIMEOUT_WARNING went to {}, not to {to}, whose response to {} is awaited",
                            env.to.join(", "),
                            wait.rule.after
                        ),
                    ));
                }
            }
            if let (Some(waiting), Some(from)) = (&wait.from, &env.from) {
                if waiting != from {
                    found.push(Violation::at(
                        ViolationCode::WrongRole,
                        env,
                        format!(
                            "TIMEOUT_WARNING from {from}, but {waiting} is the one waiting for the response to {}",
                            wait.rule.after
                        ),
                    ));
                }
            }
            for v in found {
                self.note(v);
            }
            self.check_phase(env, phase);
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
            let due = wait.next_warning_at();
            if at < due {
                return Some(Violation::at(
                    ViolationCode::Premature,
                    env,
                    format!(
                        "TIMEOUT_WARNING number {} at {at}, before it was due ({due}: {} minutes after {})",
                        wait.warnings.len() + 1,
                        if wait.warnings.is_empty() { wait.rule.minutes } else { GRACE_MINUTES },
                        if wait.warnings.is_empty() { wait.rule.after } else { "the previous warning" },
                    ),
                ));
            }
            wait.warnings.push(at);
            wait.warning_entries.push(env.index);
        }
        None
    }
}
