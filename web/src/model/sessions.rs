//! Pair sessions as the sessions and session views show them: a row per session, and one
//! session in full (timeline, checkpoints, change orders, contract, waits, timeouts).

use super::audits::AuditCard;
use super::message::IssueView;
use super::Html;
use serde::{Deserialize, Serialize};
use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::session::pair::checkpoint::{Checkpoint, DecisionKind};
use switchboard_core::session::pair::{IntegrityStatus, Outcome, SessionStatus};
use switchboard_core::session::violation::ViolationCode;

/// Sessions listed before "Show all" (the list is sorted: open checkpoints and active
/// sessions first).
pub const FIRST_ROWS: usize = 200;

/// A protocol violation found in a session or task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationView {
    /// The rule broken.
    pub code: ViolationCode,
    /// What happened.
    pub message: String,
    /// The message that caused it.
    pub id: Option<u64>,
    /// The file it names (tampering).
    pub file: Option<String>,
}

/// An action the protocol calls for at a time (a timeout step, a PO block).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The message type it sends.
    pub action: String,
    /// When it falls due.
    pub at_ms: i64,
    /// Who sends it.
    pub from: Option<String>,
    /// To whom.
    pub to: Option<String>,
    /// Which warning (1, 2), for TIMEOUT_WARNING.
    pub warning: Option<u32>,
    /// The message the core builds for it (pretty JSON), when sender and recipient are known.
    pub message: Option<String>,
}

/// The contract's integrity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegrityView {
    /// Intact, tampered or unknown.
    pub status: IntegrityStatus,
    /// The files found tampered.
    pub files: Vec<String>,
}

/// One Pair session in the sessions list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRow {
    /// The session id (the thread id, or `pair:<a>+<b>#<n>`).
    pub id: String,
    /// The Agent Mail thread.
    pub thread_id: Option<String>,
    /// PAIR_INIT's task.
    pub task: Option<String>,
    /// The planner.
    pub planner: Option<String>,
    /// The builder.
    pub builder: Option<String>,
    /// The phase.
    pub phase: Option<Phase>,
    /// Running, merged or aborted.
    pub status: SessionStatus,
    /// The open human checkpoint.
    pub checkpoint: Option<Checkpoint>,
    /// The contract's integrity.
    pub integrity: IntegrityView,
    /// Change orders.
    pub change_orders: usize,
    /// Change orders not decided yet.
    pub pending_change_orders: usize,
    /// Protocol violations.
    pub violations: usize,
    /// Messages in the session.
    pub messages: usize,
    /// When its last message was sent.
    pub last_at_ms: Option<i64>,
    /// The next timeout step and what it does.
    pub next: Option<Step>,
    /// The latest timeout step already due (nobody acted on it).
    pub overdue: Option<Step>,
    /// Its messages are still arriving: it has no phase, checkpoint or verdict yet.
    pub reading: bool,
}

/// One message on a session's timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineItem {
    /// Its transport id.
    pub id: Option<u64>,
    /// When.
    pub at_ms: Option<i64>,
    /// Who sent it.
    pub from: Option<String>,
    /// Its type, when known.
    pub message_type: Option<String>,
    /// The phase after it.
    pub phase: Option<Phase>,
    /// The rule it broke.
    pub violation: Option<ViolationView>,
    /// Its validation issues (an invalid message).
    pub issues: Vec<IssueView>,
}

/// A checkpoint as it opened and closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointHistory {
    /// Which checkpoint.
    pub checkpoint: Checkpoint,
    /// When it opened.
    pub opened_at_ms: Option<i64>,
    /// When it closed.
    pub closed_at_ms: Option<i64>,
    /// The decision taken.
    pub decision: Option<DecisionKind>,
    /// The decision's text.
    pub text: Option<String>,
}

/// A change order and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeOrderView {
    /// The CHANGE_ORDER's transport id.
    pub id: Option<u64>,
    /// When it was requested.
    pub requested_at_ms: Option<i64>,
    /// `logic_impossible`, `dependency_missing` or `test_flakiness`.
    pub failure_mode: String,
    /// What failed.
    pub evidence: String,
    /// What the builder tried.
    pub attempted_fixes: Vec<String>,
    /// What the builder asks.
    pub requested_changes: String,
    /// Pending, accepted, rejected or aborted.
    pub outcome: Outcome,
    /// When decided.
    pub decided_at_ms: Option<i64>,
    /// The planner's reasoning.
    pub reasoning: Option<String>,
    /// The strategy sent with a rejection.
    pub strategy: Option<String>,
    /// The contract revision an acceptance produced.
    pub revision: Option<u32>,
}

/// The contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractView {
    /// 1 at CONTRACT_FINAL, +1 per accepted change order.
    pub revision: u32,
    /// The spec artifact.
    pub spec: Option<String>,
    /// The tests artifact.
    pub tests: Option<String>,
    /// The fingerprinted files and their digests.
    pub fingerprints: Vec<(String, String)>,
}

/// What a session waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingView {
    /// The response to this message type.
    pub response_to: String,
    /// What counts as the response.
    pub expected: String,
    /// From whom.
    pub from: Option<String>,
    /// Since when.
    pub since_ms: i64,
    /// The response's deadline.
    pub deadline_ms: i64,
    /// TIMEOUT_WARNINGs sent.
    pub warnings_sent: usize,
}

/// One Pair session in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionDetail {
    /// The summary.
    pub row: SessionRow,
    /// Every message with the phase after it.
    pub timeline: Vec<TimelineItem>,
    /// Every checkpoint with its decision.
    pub checkpoints: Vec<CheckpointHistory>,
    /// Change orders.
    pub change_orders: Vec<ChangeOrderView>,
    /// The contract.
    pub contract: Option<ContractView>,
    /// What changed in the fingerprinted files.
    pub integrity_changes: Vec<String>,
    /// What the session waits for.
    pub waiting: Option<WaitingView>,
    /// Timeout steps already due.
    pub due: Vec<Step>,
    /// Audit reports carried in the session.
    pub audits: Vec<AuditCard>,
    /// Every violation.
    pub violations: Vec<ViolationView>,
}

/// One session in full as the engine wrote it: above the page's review records (who, where
/// it stands, waits, timeout steps, the timeline, checkpoints) and below them (change orders,
/// the contract, audit reports, violations).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionPage {
    /// Above the review records.
    pub upper: Html,
    /// Below the review records.
    pub lower: Html,
}

/// The sessions list as the engine wrote it, and the ids of its rows in order (the page's
/// keys move between them and open one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionList {
    /// The table.
    pub html: Html,
    /// The ids of the rows drawn, in order.
    pub ids: Vec<String>,
    /// How many sessions there are.
    pub total: usize,
}
