//! Does each agent follow the protocol? The core's conformance report of a project's traffic
//! (`switchboard_core::conformance`), per agent: its level, and every check with its stable
//! id, seed section, status and the messages that decide it. The report is every sender's
//! [`AgentConformance`]: failing agents first, then warnings, then passing ones (by name
//! within).

use serde::{Deserialize, Serialize};
use switchboard_core::conformance::Status;

/// One agent's checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentConformance {
    /// The sender's name (`(unknown sender)` for messages without one).
    pub agent: String,
    /// Whether it is registered (when the registered agents are known).
    pub registered: Option<bool>,
    /// Its worst status.
    pub level: Status,
    /// How many of its checks fail, warn, pass and do not apply.
    pub counts: [usize; 4],
    /// Every check of every family it sent: failures first, then warnings, passes and those
    /// that do not apply (table order within).
    pub checks: Vec<CheckRow>,
}

/// One check for one agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRow {
    /// The stable id, led by its family (`droid.sender.authorized`, `any.secret-in-message`,
    /// …).
    pub id: String,
    /// The seed section it comes from.
    pub seed: String,
    /// What it asks.
    pub title: String,
    /// The outcome.
    pub status: Status,
    /// The transport ids of the messages that decide it (the first [`MESSAGES_SHOWN`], or
    /// [`PASSES_SHOWN`] for a pass).
    pub messages: Vec<u64>,
    /// How many more messages decide it.
    pub more: usize,
    /// What broke it, in the validator's and the engine's words (the first
    /// [`MESSAGES_SHOWN`], then how many more).
    pub details: Vec<String>,
}

/// How many deciding messages, and details, a failing check lists.
pub const MESSAGES_SHOWN: usize = 12;

/// How many of the messages a passing check applied to it lists.
pub const PASSES_SHOWN: usize = 3;
