//! A Pair session as `switchboard session` prints it, at a given time.

use super::checkpoint::{Checkpoint, DecisionOption};
use super::timeout::{due_at, Due};
use super::{
    AuditVerdict, ChangeOrder, CheckpointRecord, Contract, Integrity, PairSession, TimelineEntry,
};
use crate::protocol::registry::families::pair::Phase;
use crate::session::violation::Violation;
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the session waits for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Waiting {
    /// The response to this message type.
    pub response_to: &'static str,
    /// What counts as the response.
    pub expected: &'static str,
    /// From whom.
    pub from: Option<String>,
    /// Since when.
    pub since: Timestamp,
    /// Until when, before warnings start.
    pub deadline: Timestamp,
    /// TIMEOUT_WARNINGs sent so far.
    pub warnings_sent: usize,
}

/// Where a Pair session stands (`active`, `merged` or `aborted`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    /// Not ended.
    Active,
    /// SESSION_COMPLETE: merged.
    Merged,
    /// SESSION_ABORT.
    Aborted,
}

impl SessionStatus {
    /// `active`, `merged` or `aborted`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            SessionStatus::Active => "active",
            SessionStatus::Merged => "merged",
            SessionStatus::Aborted => "aborted",
        }
    }
}

/// The printed form of a Pair session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairView<'a> {
    /// Always `pair`.
    pub family: &'static str,
    /// The session id.
    pub session_id: &'a str,
    /// The Agent Mail thread.
    pub thread_id: Option<&'a str>,
    /// The phase name.
    pub phase: Option<&'static str>,
    /// Running, merged or aborted.
    pub status: SessionStatus,
    /// The task.
    pub task: Option<&'a str>,
    /// `{planner, builder}` agent names.
    pub roles: BTreeMap<&'static str, Option<&'a str>>,
    /// The open human checkpoint.
    pub open_checkpoint: Option<Checkpoint>,
    /// The decisions it allows.
    pub decisions: Vec<DecisionOption>,
    /// Change orders and their outcomes.
    pub change_orders: &'a [ChangeOrder],
    /// What is due at `now`.
    pub due: Vec<Due>,
    /// When the next deadline falls.
    pub next_deadline: Option<Timestamp>,
    /// What happens then.
    pub next_action: Option<Due>,
    /// What the session waits for.
    pub waiting: Option<Waiting>,
    /// Protocol violations.
    pub violations: &'a [Violation],
    /// The contract.
    pub contract: Option<&'a Contract>,
    /// The contract's integrity.
    pub integrity: &'a Integrity,
    /// Every checkpoint with its decision.
    pub checkpoints: &'a [CheckpointRecord],
    /// Audit reports seen.
    pub audits: &'a [AuditVerdict],
    /// Every message, with the phase after it.
    pub timeline: &'a [TimelineEntry],
}

impl PairSession {
    /// The session as printed at `now`.
    #[must_use]
    pub fn view(&self, now: Timestamp) -> PairView<'_> {
        let open = self.open_checkpoint();
        let (due, next) = match (&self.wait, self.phase) {
            (Some(wait), Some(phase)) if !self.ended() => due_at(wait.schedule(phase), now),
            _ => (Vec::new(), None),
        };
        PairView {
            family: "pair",
            session_id: &self.id,
            thread_id: self.thread_id.as_deref(),
            phase: self.phase.map(Phase::as_str),
            status: match self.phase {
                Some(Phase::Merged) => SessionStatus::Merged,
                Some(Phase::Aborted) => SessionStatus::Aborted,
                _ => SessionStatus::Active,
            },
            task: self.task.as_deref(),
            roles: BTreeMap::from([
                ("builder", self.builder.as_deref()),
                ("planner", self.planner.as_deref()),
            ]),
            open_checkpoint: open,
            decisions: open.map(DecisionOption::of).unwrap_or_default(),
            change_orders: &self.change_orders,
            next_deadline: next.as_ref().map(|d| d.at),
            next_action: next,
            due,
            waiting: self
                .wait
                .as_ref()
                .filter(|_| !self.ended())
                .map(|w| Waiting {
                    response_to: w.rule.after,
                    expected: w.rule.response,
                    from: w.to.clone(),
                    since: w.since,
                    deadline: w.deadline(),
                    warnings_sent: w.warnings.len(),
                }),
            violations: &self.violations,
            contract: self.contract.as_ref(),
            integrity: &self.integrity,
            checkpoints: &self.checkpoints,
            audits: &self.audits,
            timeline: &self.timeline,
        }
    }
}
