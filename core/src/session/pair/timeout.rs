//! The Pair Protocol's timeout table as data, and what is due at a given time.
//!
//! The seed's table ("PAIR_INIT response: 5 minutes", …, "After 2nd warning: 10 minutes →
//! SESSION_ABORT") is read literally: each row is the time the *response to* that message may
//! take. When it passes, the waiting agent sends TIMEOUT_WARNING #1 to the silent one; warning
//! #2 follows 10 minutes after #1 (as pair.md implements it); SESSION_ABORT 10 minutes after
//! #2. Warnings actually sent move the later steps; steps not sent keep their nominal times.

use crate::protocol::builders::pair::{session_abort, timeout_warning};
use crate::protocol::builders::Text;
use crate::protocol::registry::families::pair::{Phase, Role};
use crate::time::Timestamp;
use serde::Serialize;
use serde_json::Value;

/// Who must respond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Awaited {
    /// The message's recipient (PAIR_INIT: either role may send it).
    Recipient,
    /// The session's planner.
    Planner,
    /// The session's builder.
    Builder,
}

/// One row of the timeout table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TimeoutRule {
    /// The message whose response is awaited.
    pub after: &'static str,
    /// Who must respond.
    pub awaited: Awaited,
    /// Minutes allowed.
    pub minutes: i64,
    /// What counts as the response.
    pub response: &'static str,
}

/// The seed's timeout table, extended to the messages that send the builder back to work
/// (they restart the build like CONTRACT_FINAL does).
pub static TIMEOUTS: &[TimeoutRule] = &[
    TimeoutRule {
        after: "PAIR_INIT",
        awaited: Awaited::Recipient,
        minutes: 5,
        response: "the partner's acknowledgement of PAIR_INIT, or any later session message",
    },
    TimeoutRule {
        after: "CONTRACT_FINAL",
        awaited: Awaited::Builder,
        minutes: 30,
        response: "BUILD_COMPLETE or CHANGE_ORDER",
    },
    TimeoutRule {
        after: "CHANGE_ORDER_ACCEPTED",
        awaited: Awaited::Builder,
        minutes: 30,
        response: "BUILD_COMPLETE or CHANGE_ORDER",
    },
    TimeoutRule {
        after: "CHANGE_ORDER_REJECTED",
        awaited: Awaited::Builder,
        minutes: 30,
        response: "BUILD_COMPLETE or CHANGE_ORDER",
    },
    TimeoutRule {
        after: "BUILD_REJECTED",
        awaited: Awaited::Builder,
        minutes: 30,
        response: "BUILD_COMPLETE or CHANGE_ORDER",
    },
    TimeoutRule {
        after: "BUILD_COMPLETE",
        awaited: Awaited::Planner,
        minutes: 60,
        response: "SESSION_COMPLETE or BUILD_REJECTED (implementation review)",
    },
    TimeoutRule {
        after: "CHANGE_ORDER",
        awaited: Awaited::Planner,
        minutes: 30,
        response: "CHANGE_ORDER_ACCEPTED or CHANGE_ORDER_REJECTED (change order review)",
    },
];

/// Minutes between warning #1 and #2, and between #2 and SESSION_ABORT.
pub const GRACE_MINUTES: i64 = 10;
/// Warnings before the abort.
pub const MAX_WARNINGS: u32 = 2;

/// The rule for the response to `message_type`, if the table has one.
#[must_use]
pub fn rule_after(message_type: &str) -> Option<&'static TimeoutRule> {
    TIMEOUTS.iter().find(|r| r.after == message_type)
}

/// A response the session is waiting for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Wait {
    /// The rule.
    pub rule: &'static TimeoutRule,
    /// When the wait began (the awaited message's time).
    pub since: Timestamp,
    /// The waiting agent (who warns and aborts), if known.
    pub from: Option<String>,
    /// The awaited agent, if known.
    pub to: Option<String>,
    /// The awaited agent's role, if known.
    pub role: Option<Role>,
    /// When TIMEOUT_WARNINGs were sent during this wait.
    pub warnings: Vec<Timestamp>,
}

/// An action the protocol calls for at a time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Due {
    /// The message type to send (`TIMEOUT_WARNING`, `SESSION_ABORT`, `BLOCKED_NOTIFICATION`).
    pub action: &'static str,
    /// Who sends it.
    pub from: Option<String>,
    /// To whom.
    pub to: Option<String>,
    /// When it falls due.
    pub at: Timestamp,
    /// Which warning (1 or 2), for TIMEOUT_WARNING.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<u32>,
    /// The message itself, built by the core, when sender and recipient are known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Value>,
}

impl Wait {
    /// The deadline of the response itself.
    #[must_use]
    pub fn deadline(&self) -> Timestamp {
        self.since.plus_minutes(self.rule.minutes)
    }

    /// The escalation steps not yet taken, in order: the warnings still to send, then the
    /// abort. A step's time follows the previous step's actual time when it was taken.
    #[must_use]
    pub fn schedule(&self, phase: Phase) -> Vec<Due> {
        let sent = u32::try_from(self.warnings.len()).unwrap_or(u32::MAX);
        let mut last = self.deadline();
        let mut steps = Vec::new();
        for n in 1..=MAX_WARNINGS {
            let at = match self.warnings.get(n as usize - 1) {
                Some(&t) => t,
                None if n == 1 => last,
                None => last.plus_minutes(GRACE_MINUTES),
            };
            if n > sent {
                steps.push(self.step("TIMEOUT_WARNING", at, Some(n), phase));
            }
            last = at;
        }
        steps.push(self.step(
            "SESSION_ABORT",
            last.plus_minutes(GRACE_MINUTES),
            None,
            phase,
        ));
        steps
    }

    fn step(&self, action: &'static str, at: Timestamp, warning: Option<u32>, phase: Phase) -> Due {
        let from = self.from.as_deref().and_then(Text::new);
        let to = self.to.as_deref().and_then(Text::new);
        let message = from.zip(to).map(|(from, to)| {
            let built = match warning {
                Some(n) => timeout_warning(
                    &from,
                    &to,
                    phase,
                    self.rule.minutes,
                    GRACE_MINUTES,
                    n,
                    MAX_WARNINGS,
                ),
                None => session_abort(
                    &from,
                    &to,
                    phase,
                    &Text::composed(format!(
                        "No response to {} after {} minutes and {MAX_WARNINGS} warnings",
                        self.rule.after, self.rule.minutes
                    )),
                ),
            };
            built.to_value()
        });
        Due {
            action,
            from: self.from.clone(),
            to: self.to.clone(),
            at,
            warning,
            message,
        }
    }
}

/// What is due at `now` (steps whose time has come: `at <= now`) and the next step after it.
#[must_use]
pub fn due_at(schedule: Vec<Due>, now: Timestamp) -> (Vec<Due>, Option<Due>) {
    let (due, later): (Vec<Due>, Vec<Due>) = schedule.into_iter().partition(|d| d.at <= now);
    (due, later.into_iter().next())
}
