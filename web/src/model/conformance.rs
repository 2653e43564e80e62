//! Does each agent follow the protocol? The core's conformance report of a project's traffic
//! (`switchboard_core::conformance`), per agent: its level, how many of its MUST rules were
//! actually tested, and every rule of the seeds that concerns it with its stable id, the seed's
//! words, MUST or SHOULD, its status (not tested is never a pass) and the messages that decide
//! it. The report is every sender's [`AgentConformance`]: failing agents first, then warnings,
//! passes and agents nothing could be tested for (by name within).

use serde::{Deserialize, Serialize};
use switchboard_core::conformance::{Level, Status};

/// One agent's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentConformance {
    /// The sender's name (`(unknown sender)` for messages without one).
    pub agent: String,
    /// Whether it is registered (when the registered agents are known).
    pub registered: Option<bool>,
    /// Its most telling status.
    pub level: Status,
    /// How many of its rules fail, warn, could not be tested, pass and do not apply.
    pub counts: [usize; 5],
    /// Its MUST rules: `(tested, applicable)`.
    pub must_tested: (usize, usize),
    /// Every rule of every family it took part in: failures first, then warnings, rules not
    /// tested, passes and those that do not apply (matrix order within).
    pub rules: Vec<RuleRow>,
}

/// One rule for one agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleRow {
    /// The rule's stable id, led by its seed (`000.contract-final.recipient`, …).
    pub id: String,
    /// The seed's number and section (`000 3. CONTRACT_FINAL`).
    pub section: String,
    /// The seed's words.
    pub quote: String,
    /// MUST or SHOULD.
    pub level: Level,
    /// The outcome.
    pub status: Status,
    /// The checks that decide it.
    pub checks: Vec<String>,
    /// The transport ids of the messages that decide it (the first [`MESSAGES_SHOWN`], or
    /// [`PASSES_SHOWN`] for a pass).
    pub messages: Vec<u64>,
    /// How many more messages decide it.
    pub more: usize,
    /// What broke it, in the validator's and the engine's words, or why it could not be tested
    /// (the first [`MESSAGES_SHOWN`], then how many more).
    pub details: Vec<String>,
}

/// How many deciding messages, and details, a failing rule lists.
pub const MESSAGES_SHOWN: usize = 12;

/// How many of the messages a passing rule applied to it lists.
pub const PASSES_SHOWN: usize = 3;
