//! Pair Protocol sessions (seed 000) as a pure fold: [`PairSession::step`] takes the state and
//! one [`Envelope`] and returns the next state and the violation, if the message broke a rule.
//! A message that breaks a rule does not move the session (except a skipped checkpoint, which
//! is reported and applied, because the agents went on).
//!
//! - [`rules`]: who sends what, in which phase, leading where (data).
//! - [`checkpoint`]: the three human checkpoints and their decisions.
//! - [`timeout`]: the timeout table and what is due at a time.
//! - [`PairBook`]: finding sessions in mail traffic (by thread, else by partner pair).
//! - [`PairSession::decide`]: a checkpoint decision as the messages it implies.

mod book;
pub mod checkpoint;
mod decide;
mod event;
pub mod rules;
pub mod timeout;
mod view;

pub use book::PairBook;
pub use event::{AuditVerdict, Event, Request};
pub use view::PairView;

use crate::agent_mail::Envelope;
use crate::fingerprint::{verify, Fingerprints, Tamper};
use crate::protocol::builders::pair::ContractArtifacts;
use crate::protocol::registry::families::pair::{Phase, Role};
use crate::session::violation::{Violation, ViolationCode};
use crate::session::Step;
use crate::time::Timestamp;
use checkpoint::{Checkpoint, DecisionKind};
use rules::{Sender, Transition};
use serde::Serialize;
use timeout::{rule_after, Awaited, Wait, MAX_WARNINGS};

/// A change order and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangeOrder {
    /// The CHANGE_ORDER's position in the log.
    pub entry: usize,
    /// Its transport id.
    pub id: Option<u64>,
    /// When it was sent.
    pub requested_at: Option<Timestamp>,
    /// What the builder asked.
    #[serde(flatten)]
    pub request: Request,
    /// `pending`, `accepted`, `rejected` or `aborted` (the session ended while it was pending).
    pub outcome: Outcome,
    /// When it was decided.
    pub decided_at: Option<Timestamp>,
    /// The planner's reasoning.
    pub reasoning: Option<String>,
    /// The strategy sent with a rejection.
    pub suggested_strategy: Option<String>,
    /// The contract revision an acceptance produced.
    pub contract_revision: Option<u32>,
}

/// What became of a change order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Not decided yet.
    Pending,
    /// CHANGE_ORDER_ACCEPTED.
    Accepted,
    /// CHANGE_ORDER_REJECTED.
    Rejected,
    /// The session was aborted first.
    Aborted,
}

/// A checkpoint as it opened and (maybe) closed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckpointRecord {
    /// Which checkpoint.
    pub checkpoint: Checkpoint,
    /// The message that opened it.
    pub opened_entry: usize,
    /// When it opened.
    pub opened_at: Option<Timestamp>,
    /// The message that closed it.
    pub closed_entry: Option<usize>,
    /// When it closed.
    pub closed_at: Option<Timestamp>,
    /// The decision taken (from the closing message).
    pub decision: Option<DecisionKind>,
    /// The decision's text (feedback, reason, reasoning, strategy), when the message carries it.
    pub text: Option<String>,
}

/// The contract as finalized (and revised by accepted change orders).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contract {
    /// 1 at CONTRACT_FINAL, +1 per accepted change order.
    pub revision: u32,
    /// Spec and tests (absent only for a lenient abbreviated CONTRACT_FINAL).
    pub artifacts: Option<ContractArtifacts>,
    /// The test fingerprints taken at CONTRACT_FINAL (or the accepted change order).
    pub fingerprints: Option<Fingerprints>,
}

/// Whether the contract's tests are as fingerprinted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntegrityStatus {
    /// No check yet (no fingerprints, or none reported since).
    Unknown,
    /// The last check matched.
    Intact,
    /// A check found a changed, missing or added test file.
    Tampered,
}

/// The contract's integrity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Integrity {
    /// The verdict.
    pub status: IntegrityStatus,
    /// The files found tampered.
    pub files: Vec<String>,
    /// The digest differences, when fingerprints were compared.
    pub changes: Vec<Tamper>,
    /// When it was last checked.
    pub checked_at: Option<Timestamp>,
}

/// One message on the session's timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimelineEntry {
    /// Position in the log.
    pub entry: usize,
    /// Transport id.
    pub id: Option<u64>,
    /// Time.
    pub at: Option<Timestamp>,
    /// Sender.
    pub from: Option<String>,
    /// Message type, when known.
    pub message_type: Option<&'static str>,
    /// The phase after it.
    pub phase: Option<Phase>,
    /// The violation it caused, if any.
    pub violation: Option<ViolationCode>,
}

/// One Pair session: the fold's state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairSession {
    /// The thread id, or `pair:<a>+<b>#<n>` for a session found by its partner pair.
    pub id: String,
    /// The Agent Mail thread, if the session has one.
    pub thread_id: Option<String>,
    /// PAIR_INIT's task.
    pub task: Option<String>,
    /// The planner's agent name.
    pub planner: Option<String>,
    /// The builder's agent name.
    pub builder: Option<String>,
    /// The phase (`None` before any message moved it).
    pub phase: Option<Phase>,
    /// Every checkpoint opened, in order; the last one is open when it has no closing entry.
    pub checkpoints: Vec<CheckpointRecord>,
    /// The latest contract draft.
    pub draft: Option<(ContractArtifacts, Option<Fingerprints>)>,
    /// The contract.
    pub contract: Option<Contract>,
    /// Change orders, in order.
    pub change_orders: Vec<ChangeOrder>,
    /// The response being waited for.
    pub wait: Option<Wait>,
    /// Audit reports seen.
    pub audits: Vec<AuditVerdict>,
    /// The contract's integrity.
    pub integrity: Integrity,
    /// Every message of the session.
    pub timeline: Vec<TimelineEntry>,
    /// Every violation.
    pub violations: Vec<Violation>,
    /// Agents seen in the session (for matching threadless mail).
    pub participants: Vec<String>,
    /// Transport ids of its messages (for Agent Mail's reply threads, named after an id).
    pub message_ids: Vec<u64>,
}

impl PairSession {
    /// An empty session.
    #[must_use]
    pub fn new(id: String, thread_id: Option<String>) -> PairSession {
        PairSession {
            id,
            thread_id,
            task: None,
            planner: None,
            builder: None,
            phase: None,
            checkpoints: Vec::new(),
            draft: None,
            contract: None,
            change_orders: Vec::new(),
            wait: None,
            audits: Vec::new(),
            integrity: Integrity {
                status: IntegrityStatus::Unknown,
                files: Vec::new(),
                changes: Vec::new(),
                checked_at: None,
            },
            timeline: Vec::new(),
            violations: Vec::new(),
            participants: Vec::new(),
            message_ids: Vec::new(),
        }
    }

    /// The open checkpoint, if any.
    #[must_use]
    pub fn open_checkpoint(&self) -> Option<Checkpoint> {
        self.checkpoints
            .last()
            .filter(|c| c.closed_entry.is_none())
            .map(|c| c.checkpoint)
    }

    /// Whether the session has ended (merged or aborted).
    #[must_use]
    pub fn ended(&self) -> bool {
        self.phase.is_some_and(Phase::is_terminal)
    }

    /// The agent playing `role`, if known.
    #[must_use]
    pub fn agent(&self, role: Role) -> Option<&str> {
        match role {
            Role::Planner => self.planner.as_deref(),
            Role::Builder => self.builder.as_deref(),
        }
    }

    fn role_of(&self, agent: &str) -> Option<Role> {
        if self.planner.as_deref() == Some(agent) {
            Some(Role::Planner)
        } else if self.builder.as_deref() == Some(agent) {
            Some(Role::Builder)
        } else {
            None
        }
    }

    /// Folds one message into the session (the envelope must belong to it; see [`PairBook`]).
    #[must_use]
    pub fn step(mut self, env: &Envelope) -> Step<PairSession> {
        let violation = self.fold(env);
        Step {
            state: self,
            violation,
        }
    }

    /// [`PairSession::step`] in place: what a book folding many messages uses.
    pub(crate) fn fold(&mut self, env: &Envelope) -> Option<Violation> {
        for agent in env.from.iter().chain(&env.to) {
            if !self.participants.contains(agent) {
                push_short(&mut self.participants, agent.clone());
            }
        }
        if let Some(id) = env.id {
            self.message_ids.push(id);
        }
        let violation = self.apply(env);
        self.timeline.push(TimelineEntry {
            entry: env.index,
            id: env.id,
            at: env.at,
            from: env.from.clone(),
            message_type: env.message_type(),
            phase: self.phase,
            violation: violation.as_ref().map(|v| v.code),
        });
        if let Some(v) = &violation {
            push_short(&mut self.violations, v.clone());
        }
        violation
    }

    /// Applies a message; returns the violation it caused.
    fn apply(&mut self, env: &Envelope) -> Option<Violation> {
        let Some(message) = env.message() else {
            return Some(Violation::invalid(env));
        };
        let (Some(event), Some(rule)) = (
            Event::read(message),
            rules::transition(message.message_type),
        ) else {
            return Some(Violation::invalid(env));
        };
        if self.ended() {
            let phase = self.phase.map_or("", Phase::as_str);
            return Some(Violation::at(
                ViolationCode::AfterEnd,
                env,
                format!(
                    "{} came after the session ended ({phase})",
                    message.message_type
                ),
            ));
        }
        if let Event::Init { my_role, task } = &event {
            return self.init(env, *my_role, task);
        }
        self.infer_roles(env, rule);
        if let Some(v) = self.check_sender(env, rule) {
            return Some(v);
        }
        if let Some(phase) = self.phase {
            if !rule.from.contains(&phase) {
                return Some(Violation::at(
                    ViolationCode::OutOfOrder,
                    env,
                    format!(
                        "{} is not expected in phase {}",
                        rule.message,
                        phase.as_str()
                    ),
                ));
            }
        }
        if let (Some(open), Some(to)) = (self.open_checkpoint(), rule.to) {
            // Leaving the phase while a checkpoint is open takes its decision (or the abort).
            if rule.closes != Some(open) && to != Phase::Aborted && Some(to) != self.phase {
                return Some(Violation::at(
                    ViolationCode::OutOfOrder,
                    env,
                    format!(
                        "{} while human checkpoint #{} ({}) is open",
                        rule.message,
                        open.number(),
                        open.as_str()
                    ),
                ));
            }
        }
        self.transition(env, rule, event)
    }

    fn init(&mut self, env: &Envelope, my_role: Role, task: &str) -> Option<Violation> {
        let recipient = env.to.first().cloned();
        if self.phase.is_some() || self.planner.is_some() || self.builder.is_some() {
            // Both agents may run /pair: a second PAIR_INIT that agrees on the roles is the
            // partner's answer; one that disagrees is a conflict.
            let agrees = env
                .from
                .as_deref()
                .is_none_or(|from| self.role_of(from).is_none_or(|r| r == my_role));
            if !agrees {
                return Some(Violation::at(
                    ViolationCode::RoleConflict,
                    env,
                    format!(
                        "PAIR_INIT claims {} for {}, which the session gave the other role",
                        my_role.wire(),
                        env.from.as_deref().unwrap_or("?")
                    ),
                ));
            }
            if self.phase != Some(Phase::ContractGeneration) || !self.checkpoints.is_empty() {
                return Some(Violation::at(
                    ViolationCode::OutOfOrder,
                    env,
                    "PAIR_INIT after the session had started".into(),
                ));
            }
            self.wait = None;
            return None;
        }
        self.task = Some(task.to_owned());
        self.set_role(my_role, env.from.clone());
        self.set_role(my_role.other(), recipient);
        self.phase = Some(Phase::ContractGeneration);
        self.wait = if env.acknowledged {
            None
        } else {
            self.wait_for("PAIR_INIT", env)
        };
        None
    }

    fn set_role(&mut self, role: Role, agent: Option<String>) {
        let slot = match role {
            Role::Planner => &mut self.planner,
            Role::Builder => &mut self.builder,
        };
        if slot.is_none() {
            *slot = agent;
        }
    }

    /// Learns the roles from a message only one role sends (a log without PAIR_INIT).
    fn infer_roles(&mut self, env: &Envelope, rule: &Transition) {
        if let Sender::Only(role) = rule.sender {
            if self.agent(role).is_none()
                && env
                    .from
                    .as_deref()
                    .is_none_or(|f| self.role_of(f).is_none())
            {
                self.set_role(role, env.from.clone());
            }
            let recipient = env.to.first().cloned();
            if self.agent(role.other()).is_none()
                && recipient
                    .as_deref()
                    .is_some_and(|r| self.role_of(r).is_none())
            {
                self.set_role(role.other(), recipient);
            }
        }
    }

    fn check_sender(&self, env: &Envelope, rule: &Transition) -> Option<Violation> {
        let from = env.from.as_deref()?;
        let sender = self.role_of(from);
        let ok = match rule.sender {
            Sender::Either => true,
            Sender::Only(role) => self.agent(role).is_none_or(|a| a == from),
            Sender::NotBuilder => sender != Some(Role::Builder),
        };
        (!ok).then(|| {
            let expected = match rule.sender {
                Sender::Only(role) => format!(
                    "the {} ({})",
                    role.wire().to_lowercase(),
                    self.agent(role).unwrap_or("?")
                ),
                _ => "the planner's side".to_owned(),
            };
            Violation::at(
                ViolationCode::WrongRole,
                env,
                format!("{} must come from {expected}, not {from}", rule.message),
            )
        })
    }

    /// A wait for the response to `message_type` sent in `env`, when the table has a rule and
    /// the message has a time.
    fn wait_for(&self, message_type: &str, env: &Envelope) -> Option<Wait> {
        let rule = rule_after(message_type)?;
        let since = env.at?;
        let (role, to, from) = match rule.awaited {
            Awaited::Recipient => {
                let to = env.to.first().cloned();
                (
                    to.as_deref().and_then(|t| self.role_of(t)),
                    to,
                    env.from.clone(),
                )
            }
            Awaited::Planner => (
                Some(Role::Planner),
                self.planner.clone(),
                self.builder.clone(),
            ),
            Awaited::Builder => (
                Some(Role::Builder),
                self.builder.clone(),
                self.planner.clone(),
            ),
        };
        Some(Wait {
            rule,
            since,
            from,
            to,
            role,
            warnings: Vec::new(),
        })
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

    fn transition(&mut self, env: &Envelope, rule: &Transition, event: Event) -> Option<Violation> {
        let mut violation = None;
        let open = self.open_checkpoint();
        match event {
            Event::Init { .. } | Event::ClarificationRequest | Event::ClarificationResponse => {}
            Event::ContractDraft {
                artifacts,
                fingerprints,
            } => {
                // A new draft while one is under review: the reviewer asked for a revision.
                if open == Some(Checkpoint::ContractReview) {
                    self.close(env, Checkpoint::ContractReview, DecisionKind::Revise, None);
                }
                let (fingerprints, bad) = split(fingerprints, env);
                violation = bad;
                self.draft = Some((artifacts, fingerprints));
            }
            Event::RevisionRequested { feedback } => {
                if open != Some(Checkpoint::ContractReview) {
                    return Some(Violation::at(
                        ViolationCode::OutOfOrder,
                        env,
                        "CONTRACT_REVISION_REQUESTED with no contract under review".into(),
                    ));
                }
                self.close(
                    env,
                    Checkpoint::ContractReview,
                    DecisionKind::Revise,
                    Some(feedback),
                );
            }
            Event::ContractFinal {
                artifacts,
                fingerprints,
            } => {
                if open == Some(Checkpoint::ContractReview) {
                    self.close(
                        env,
                        Checkpoint::ContractReview,
                        DecisionKind::Approved,
                        None,
                    );
                } else {
                    violation = Some(Violation::at(
                        ViolationCode::CheckpointSkipped,
                        env,
                        "CONTRACT_FINAL with no CONTRACT_DRAFT under review: the contract skipped human checkpoint #1".into(),
                    ));
                }
                let (carried, bad) = split(fingerprints, env);
                violation = violation.or(bad);
                let from_draft = self.draft.as_ref().and_then(|(_, f)| f.clone());
                self.contract = Some(Contract {
                    revision: 1,
                    artifacts: artifacts.or_else(|| self.draft.as_ref().map(|(a, _)| a.clone())),
                    fingerprints: carried.or(from_draft),
                });
            }
            Event::BuildComplete { fingerprints, .. } => {
                let (observed, bad) = split(fingerprints, env);
                violation = bad.or_else(|| observed.and_then(|o| self.check_integrity(env, &o)));
            }
            Event::ChangeOrder(request) => {
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
            Event::ChangeOrderAccepted {
                artifacts,
                reasoning,
                fingerprints,
            } => {
                let (fingerprints, bad) = split(fingerprints, env);
                violation = bad;
                let revision = self.contract.as_ref().map_or(1, |c| c.revision) + 1;
                self.contract = Some(Contract {
                    revision,
                    artifacts: Some(artifacts),
                    fingerprints,
                });
                self.decide_change_order(
                    env,
                    Outcome::Accepted,
                    Some(reasoning.clone()),
                    None,
                    Some(revision),
                );
                self.close(
                    env,
                    Checkpoint::ChangeOrderReview,
                    DecisionKind::AcceptChange,
                    Some(reasoning),
                );
            }
            Event::ChangeOrderRejected {
                reasoning,
                strategy,
            } => {
                self.decide_change_order(
                    env,
                    Outcome::Rejected,
                    Some(reasoning),
                    Some(strategy.clone()),
                    None,
                );
                self.close(
                    env,
                    Checkpoint::ChangeOrderReview,
                    DecisionKind::RejectChange,
                    Some(strategy),
                );
            }
            Event::BuildRejected { reason } => {
                self.close(
                    env,
                    Checkpoint::ImplementationReview,
                    DecisionKind::Reject,
                    Some(reason),
                );
            }
            Event::SessionComplete => {
                self.close(
                    env,
                    Checkpoint::ImplementationReview,
                    DecisionKind::MergeApproved,
                    None,
                );
            }
            Event::SessionAbort { reason } => {
                if let Some(open) = open {
                    self.close(env, open, DecisionKind::Abort, Some(reason));
                }
                self.decide_change_order(env, Outcome::Aborted, None, None, None);
            }
            Event::TimeoutWarning { phase } => return self.warning(env, phase),
            Event::AuditReport(verdict) => {
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
            }
        }
        if let Some(checkpoint) = rule.opens {
            self.open(env, checkpoint);
        }
        if let Some(to) = rule.to {
            self.phase = Some(to);
            self.wait = self.wait_for(rule.message, env);
        }
        violation
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

    /// Compares test fingerprints seen now with the contract's; records and reports tampering.
    fn check_integrity(&mut self, env: &Envelope, observed: &Fingerprints) -> Option<Violation> {
        let baseline = self.contract.as_ref()?.fingerprints.as_ref()?;
        let result = verify(baseline, observed);
        self.integrity = Integrity {
            status: if result.is_intact() {
                IntegrityStatus::Intact
            } else {
                IntegrityStatus::Tampered
            },
            files: result
                .tampered
                .iter()
                .map(|t| t.path().to_string())
                .collect(),
            changes: result.tampered.clone(),
            checked_at: env.at,
        };
        let first = result.tampered.first()?;
        Some(Violation {
            file: Some(first.path().to_string()),
            ..Violation::at(ViolationCode::ContractTampered, env, first.to_string())
        })
    }

    /// Verifies the contract's test files as they are now (e.g. read from disk) against the
    /// fingerprints taken at CONTRACT_FINAL; `None` when the session has no fingerprints.
    #[must_use]
    pub fn verify_contract(
        &mut self,
        current: &Fingerprints,
        at: Option<Timestamp>,
    ) -> Option<IntegrityStatus> {
        let baseline = self.contract.as_ref()?.fingerprints.as_ref()?;
        let result = verify(baseline, current);
        self.integrity = Integrity {
            status: if result.is_intact() {
                IntegrityStatus::Intact
            } else {
                IntegrityStatus::Tampered
            },
            files: result
                .tampered
                .iter()
                .map(|t| t.path().to_string())
                .collect(),
            changes: result.tampered,
            checked_at: at,
        };
        Some(self.integrity.status)
    }
}

/// Splits carried fingerprints into the usable set and the violation of a malformed one.
fn split(carried: event::Carried, env: &Envelope) -> (Option<Fingerprints>, Option<Violation>) {
    match carried {
        None => (None, None),
        Some(Ok(f)) => (Some(f), None),
        Some(Err(e)) => (
            None,
            Some(Violation::at(
                ViolationCode::BadFingerprints,
                env,
                format!("test_fingerprints is unusable: {e}"),
            )),
        ),
    }
}

/// Pushes onto a list a session usually keeps short (checkpoints, change orders, participants):
/// capacity grows 1, 2, 4, … instead of starting at 4. A book holds every session of a log, so
/// the unused slots add up (measured: 0.8 KB per session).
fn push_short<T>(items: &mut Vec<T>, item: T) {
    if items.len() == items.capacity() {
        items.reserve_exact(items.len().max(1));
    }
    items.push(item);
}
