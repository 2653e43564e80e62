//! Does each agent follow the protocol? The core's conformance report of a project's traffic
//! (`switchboard_core::conformance`), per agent: its level, and every check with its stable
//! id, seed section, status and the messages that decide it.

use serde::{Deserialize, Serialize};
use switchboard_core::conformance::Status;

/// The report of a project's traffic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConformanceReport {
    /// Every sender: failing agents first, then warnings, then passing ones (by name within).
    pub agents: Vec<AgentConformance>,
    /// Whether the registered agents were known (`any.registered-agent` applies).
    pub registry_known: bool,
    /// No agent fails a check.
    pub conforms: bool,
}

/// One agent's checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentConformance {
    /// The sender's name (`(unknown sender)` for messages without one).
    pub agent: String,
    /// Whether it is registered (when the registered agents are known).
    pub registered: Option<bool>,
    /// Its worst status.
    pub level: Status,
    /// How many of its checks have each status, worst first.
    pub counts: Vec<(Status, usize)>,
    /// Every check of every family it sent: failures first, then warnings, passes and those
    /// that do not apply (table order within).
    pub checks: Vec<CheckRow>,
}

/// One check for one agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRow {
    /// The stable id (`droid.common.sender-id-matches`, `any.secret-in-message`, …).
    pub id: String,
    /// `any`, `pair`, `agent-po`, `droid` or `pair-claude`.
    pub family: String,
    /// The seed section it comes from.
    pub seed: String,
    /// What it asks.
    pub title: String,
    /// The outcome.
    pub status: Status,
    /// The messages that decide it (the first [`MESSAGES_SHOWN`]).
    pub messages: Vec<MessageLink>,
    /// How many more messages decide it.
    pub more: usize,
    /// What broke it, in the validator's and the engine's words (the first
    /// [`MESSAGES_SHOWN`]).
    pub details: Vec<String>,
    /// How many more details there are.
    pub more_details: usize,
}

/// How many deciding messages, and details, a check lists.
pub const MESSAGES_SHOWN: usize = 12;

/// A message that decides a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageLink {
    /// The transport's id (the message view's).
    pub id: Option<u64>,
    /// The message's own id (droid `message_id`).
    pub message_id: Option<String>,
}
