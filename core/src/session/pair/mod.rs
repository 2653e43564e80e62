//! Pair Protocol sessions (seed 000) as a pure fold: [`PairSession::step`] takes the state and
//! one [`Envelope`] and returns the next state and the violation, if the message broke a rule.
//! A message that breaks a rule does not move the session (except a skipped checkpoint, which
//! is reported and applied, because the agents went on).
//!
//! - [`rules`]: who sends what, in which phase, leading where (data).
//! - [`checkpoint`]: the three human checkpoints and their decisions.
//! - [`timeout`]: the timeout table and what is due at a time.
//! - [`PairBook`]: finding sessions in mail traffic (by thread, else by partner pair).
//! - [`decide`]: a checkpoint decision as the messages it implies ([`PairSession::decide`]) and
//!   as the drafts that send them ([`PairSession::drafts`]).

mod book;
pub mod checkpoint;
pub mod decide;
mod event;
mod integrity;
mod roles;
pub mod rules;
pub mod timeout;
mod transition;
mod view;

pub use book::PairBook;
pub use event::{AuditVerdict, Event, Request};
pub use view::{PairView, SessionStatus};

use crate::agent_mail::Envelope;
use crate::fingerprint::{Fingerprints, Tamper};
use crate::protocol::builders::pair::ContractArtifacts;
use crate::protocol::builders::ArtifactPath;
use crate::protocol::registry::families::pair::{Phase, Role};
use crate::session::violation::{Violation, ViolationCode};
use crate::session::Step;
use crate::time::Timestamp;
use checkpoint::{Checkpoint, DecisionKind};
use serde::{Deserialize, Serialize};
use timeout::Wait;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

impl Outcome {
    /// Its name as it serializes (`pending`, `accepted`, `rejected`, `aborted`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Pending => "pending",
            Outcome::Accepted => "accepted",
            Outcome::Rejected => "rejected",
            Outcome::Aborted => "aborted",
        }
    }
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

/// The latest contract draft (CONTRACT_DRAFT): what checkpoint #1 reviews.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContractDraft {
    /// The CONTRACT_DRAFT's position in the log.
    pub entry: usize,
    /// Its spec and tests.
    pub artifacts: ContractArtifacts,
    /// Its safety reasoning, if it named one.
    pub safety_reasoning: Option<ArtifactPath>,
    /// The test fingerprints it carried.
    pub fingerprints: Option<Fingerprints>,
}

/// The latest BUILD_COMPLETE: what checkpoint #2 reviews.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Build {
    /// The BUILD_COMPLETE's position in the log.
    pub entry: usize,
    /// Its transport id.
    pub id: Option<u64>,
    /// The implementation files it names.
    pub files: Vec<String>,
    /// The contract's test fingerprints as the builder found them, if carried.
    pub fingerprints: Option<Fingerprints>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntegrityStatus {
    /// No check yet (no fingerprints, or none reported since).
    Unknown,
    /// The last check matched.
    Intact,
    /// A check found a changed, missing or added test file.
    Tampered,
}

impl IntegrityStatus {
    /// Its name as it serializes (`unknown`, `intact`, `tampered`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            IntegrityStatus::Unknown => "unknown",
            IntegrityStatus::Intact => "intact",
            IntegrityStatus::Tampered => "tampered",
        }
    }
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
    pub draft: Option<ContractDraft>,
    /// The latest build reported complete.
    pub build: Option<Build>,
    /// The contract.
    pub contract: Option<Contract>,
    /// Change orders, in order.
    pub change_orders: Vec<ChangeOrder>,
    /// The response being waited for.
    pub wait: Option<Wait>,
    /// The waits that ended, in order (what was late or missing is read from them).
    #[serde(skip)]
    pub past_waits: Vec<timeout::PastWait>,
    /// The audit report since the latest BUILD_COMPLETE, if any.
    #[serde(skip)]
    pub audit_since_build: Option<AuditVerdict>,
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
            build: None,
            contract: None,
            change_orders: Vec::new(),
            wait: None,
            past_waits: Vec::new(),
            audit_since_build: None,
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
            let init = self.init(env, *my_role, task);
            if init.is_none() {
                if let Some(v) = self.check_recipient(env, rule) {
                    push_short(&mut self.violations, v);
                }
            }
            return init;
        }
        self.infer_roles(env, rule);
        if let Some(v) = self.check_sender(env, rule) {
            return Some(v);
        }
        if let Some(v) = self.check_recipient(env, rule) {
            // Reported, and applied: the agents went on.
            push_short(&mut self.violations, v);
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
