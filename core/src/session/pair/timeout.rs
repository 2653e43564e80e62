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
    /// The message whose response is awaited (its position in the log).
    pub entry: usize,
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
    /// Their positions in the log.
    #[serde(skip)]
    pub warning_entries: Vec<usize>,
    /// Whether the log can show the response: a PAIR_INIT is answered by the partner's
    /// acknowledgement, which the log shows only when PAIR_INIT asked for one.
    #[serde(skip)]
    pub judged: bool,
}

/// A wait that ended: how, and when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PastWait {
    /// The wait.
    pub wait: Wait,
    /// When it ended (the time of the message that ended it, if it had one).
    pub ended_at: Option<Timestamp>,
    /// Whether the awaited agent's response ended it (else the waiting agent moved on, or the
    /// session was aborted).
    pub answered: bool,
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

impl Wait {
    /// The time the next TIMEOUT_WARNING may be sent: the deadline for the first, ten minutes
    /// after the last for the next.
    #[must_use]
    pub fn next_warning_at(&self) -> Timestamp {
        match self.warnings.last() {
            None => self.deadline(),
            Some(&last) => last.plus_minutes(GRACE_MINUTES),
        }
    }

    /// What the wait shows as late or missing by `until` (its end, or the time the log is
    /// judged): the awaited response late, a TIMEOUT_WARNING not sent when due, SESSION_ABORT
    /// not sent ten minutes after the second warning. A step is missing once its time has
    /// passed without it (`until > at`); `answered_at` is the awaited response's time.
    #[must_use]
    pub fn lapses(&self, until: Timestamp, answered_at: Option<Timestamp>) -> Vec<Lapse> {
        let mut out = Vec::new();
        let deadline = self.deadline();
        if answered_at.unwrap_or(until) > deadline {
            out.push(Lapse::Late {
                answered: answered_at.is_some(),
                deadline,
            });
        }
        let sent = self.warnings.len();
        if sent < MAX_WARNINGS as usize {
            let due = self.next_warning_at();
            if until > due {
                out.push(Lapse::Warning {
                    number: sent + 1,
                    due,
                });
            }
        } else if let Some(&second) = self.warnings.get(MAX_WARNINGS as usize - 1) {
            let due = second.plus_minutes(GRACE_MINUTES);
            if until > due {
                out.push(Lapse::Abort { due });
            }
        }
        out
    }
}

/// Something a wait shows late or missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lapse {
    /// The awaited response came after its deadline (or had not come).
    Late {
        /// Whether it came at all.
        answered: bool,
        /// Its deadline.
        deadline: Timestamp,
    },
    /// A TIMEOUT_WARNING was due and not sent.
    Warning {
        /// Which (1 or 2).
        number: usize,
        /// When it was due.
        due: Timestamp,
    },
    /// SESSION_ABORT was due after the second warning and not sent.
    Abort {
        /// When it was due.
        due: Timestamp,
    },
}

/// What is due at `now` (steps whose time has come: `at <= now`) and the next step after it.
#[must_use]
pub fn due_at(schedule: Vec<Due>, now: Timestamp) -> (Vec<Due>, Option<Due>) {
    let (due, later): (Vec<Due>, Vec<Due>) = schedule.into_iter().partition(|d| d.at <= now);
    (due, later.into_iter().next())
}

impl super::PairSession {
    /// What the session's waits show late or missing by `now`: each ended wait judged at its
    /// end, the current one at `now` (pure).
    #[must_use]
    pub fn findings_at(&self, now: Timestamp) -> Vec<crate::session::violation::Violation> {
        let ended = self.past_waits.iter().filter_map(|p| {
            Some((
                &p.wait,
                p.ended_at?,
                p.answered.then_some(p.ended_at).flatten(),
            ))
        });
        let current = self.wait.iter().map(|w| (w, now, None));
        ended
            .chain(current)
            .filter(|(wait, _, _)| wait.judged)
            .flat_map(|(wait, until, answered_at)| self.lapse_findings(wait, until, answered_at))
            .collect()
    }

    fn lapse_findings(
        &self,
        wait: &Wait,
        until: Timestamp,
        answered_at: Option<Timestamp>,
    ) -> Vec<crate::session::violation::Violation> {
        use crate::session::violation::{Violation, ViolationCode};
        let on = |entry: usize, code: ViolationCode, message: String| {
            let t = self.timeline.iter().find(|t| t.entry == entry);
            Violation::on(
                code,
                entry,
                t.and_then(|t| t.id),
                t.and_then(|t| t.at),
                t.and_then(|t| t.message_type),
                message,
            )
        };
        let awaited = wait.to.as_deref().unwrap_or("the awaited agent");
        let waiting = wait.from.as_deref().unwrap_or("the waiting agent");
        wait.lapses(until, answered_at)
            .into_iter()
            .map(|lapse| match lapse {
                Lapse::Late { answered, deadline } => on(
                    wait.entry,
                    ViolationCode::Late,
                    if answered {
                        format!(
                            "{awaited} answered {} after its {}-minute timeout ({deadline}; MESSAGE_TIMEOUT)",
                            wait.rule.after, wait.rule.minutes
                        )
                    } else {
                        format!(
                            "{awaited} has not answered {} within its {}-minute timeout ({deadline}; MESSAGE_TIMEOUT)",
                            wait.rule.after, wait.rule.minutes
                        )
                    },
                )
                .by(wait.to.as_deref()),
                Lapse::Warning { number, due } => on(
                    wait.entry,
                    ViolationCode::Missing,
                    format!(
                        "{waiting} sent no TIMEOUT_WARNING #{number} to {awaited} by {due}, when it was due (no response to {} within {} minutes)",
                        wait.rule.after, wait.rule.minutes
                    ),
                )
                .by(wait.from.as_deref())
                .expecting("TIMEOUT_WARNING"),
                Lapse::Abort { due } => {
                    let second = wait.warning_entries.get(MAX_WARNINGS as usize - 1).copied();
                    on(
                        second.unwrap_or(wait.entry),
                        ViolationCode::Missing,
                        format!(
                            "{waiting} sent no SESSION_ABORT by {due}, when it was due ({GRACE_MINUTES} minutes after the second TIMEOUT_WARNING)"
                        ),
                    )
                    .by(wait.from.as_deref())
                    .expecting("SESSION_ABORT")
                }
            })
            .collect()
    }
}
