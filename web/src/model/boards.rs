//! The task boards: Agent-PO tasks, droid tasks by status with error reports and
//! reservation conflicts, Pair Claude requests, acknowledgement debt.

use super::sessions::{Step, ViolationView};
use serde::{Deserialize, Serialize};
use switchboard_core::session::agent_po::Status as TaskState;
use switchboard_core::session::pair_claude::RequestStatus;
use switchboard_core::session::tasks::TaskStatus;

/// A directive a PO sent, with the problems it listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateView {
    /// The directive type.
    pub directive: String,
    /// When.
    pub at_ms: Option<i64>,
    /// Each problem: type and message.
    pub problems: Vec<(String, String)>,
}

/// An Agent-PO task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoTaskView {
    /// `<agent_id>/<task_id>`.
    pub id: String,
    /// The task id.
    pub task: String,
    /// The agent id.
    pub agent: String,
    /// The PO's mail name.
    pub po: Option<String>,
    /// The agent's status (`blocked` among them).
    pub phase: TaskState,
    /// The task's status for people: `active`, `completed`, `blocked` or `terminated`.
    pub status: String,
    /// Plans submitted and the revisions allowed.
    pub plan_revisions: (u32, u32),
    /// Fix retries and the retries allowed.
    pub fix_retries: (u32, u32),
    /// One more failure blocks the task.
    pub at_limit: bool,
    /// Every directive with its problems.
    pub gates: Vec<GateView>,
    /// Who blocked it and why.
    pub blocked: Option<(String, String)>,
    /// The last progress report: status, percent, activity.
    pub progress: Option<(String, u64, String)>,
    /// Violations.
    pub violations: Vec<ViolationView>,
    /// What falls due next.
    pub next: Option<Step>,
}

/// A droid task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DroidTaskView {
    /// The task id.
    pub task_id: String,
    /// What to do.
    pub description: Option<String>,
    /// Its priority.
    pub priority: Option<String>,
    /// Who it is assigned to.
    pub assignees: Vec<String>,
    /// The last reported percentage.
    pub percentage: Option<f64>,
    /// The last summary.
    pub summary: Option<String>,
    /// Current blockers.
    pub blockers: Vec<String>,
    /// Dependencies not complete yet.
    pub waiting_on: Vec<String>,
    /// Past its deadline and not complete.
    pub overdue: bool,
    /// Error reports about it.
    pub errors: usize,
}

/// The droid tasks of one status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DroidColumn {
    /// Their status.
    pub status: TaskStatus,
    /// Its tasks.
    pub tasks: Vec<DroidTaskView>,
}

/// An error report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorView {
    /// The task.
    pub task_id: String,
    /// `low`, `medium`, `high` or `blocking`.
    pub severity: String,
    /// Its code.
    pub code: String,
    /// What went wrong.
    pub message: String,
    /// Whether a human must step in.
    pub needs_human: bool,
    /// Who reported it.
    pub sender: Option<String>,
    /// When.
    pub at_ms: Option<i64>,
}

/// Two reservations that cannot both hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConflictView {
    /// Holders.
    pub holders: (String, String),
    /// Modes.
    pub modes: (String, String),
    /// The overlapping patterns.
    pub patterns: (String, String),
}

/// A Pair Claude permission or review request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestView {
    /// The request id (permissions) or the context (reviews).
    pub subject: Option<String>,
    /// The tool asked for (permissions).
    pub tool: Option<String>,
    /// When asked.
    pub requested_at_ms: Option<i64>,
    /// Where the request stands.
    pub status: RequestStatus,
    /// The navigator's comment.
    pub comment: Option<String>,
}

/// One agent's acknowledgement debt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AckDebtView {
    /// The agent.
    pub agent: String,
    /// Messages waiting for its acknowledgement.
    pub waiting: usize,
    /// How long the oldest has waited.
    pub oldest_age_ms: Option<i64>,
}

/// The task boards.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Boards {
    /// Agent-PO tasks.
    pub agent_po: Vec<PoTaskView>,
    /// Droid tasks by status.
    pub droid: Vec<DroidColumn>,
    /// Error reports, `needs_human_intervention` first, then by severity.
    pub errors: Vec<ErrorView>,
    /// Reservation conflicts.
    pub conflicts: Vec<ConflictView>,
    /// Pair Claude permission requests.
    pub permissions: Vec<RequestView>,
    /// Pair Claude code reviews.
    pub reviews: Vec<RequestView>,
    /// Acknowledgement debt per agent.
    pub ack_debt: Vec<AckDebtView>,
    /// The agents registered on the server, when it listed them.
    pub registered: Option<Vec<String>>,
    /// Senders without the role their message's type requires, and senders or recipients
    /// that are not registered (`invalid_agent`), in log order.
    pub senders: Vec<ViolationView>,
    /// The project's mail is still arriving: the tasks as far as read, without verdicts
    /// (violations, gate problems, acknowledgement debt, sender checks).
    pub reading: bool,
}
