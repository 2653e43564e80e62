//! The typed seam between the console's two modules: the UI (the main wasm module: views,
//! router, network client, mailbox pane) asks, the engine (a Web Worker: the core's protocol
//! validation, sessions, boards, audits, Markdown rendering and the demo server) answers.
//! Both sides compile these types from this one file; they cross the worker boundary as
//! postcard bytes ([`crate::link`]).
//!
//! Times are milliseconds since the Unix epoch (UTC). Texts that come from mail are data:
//! the views render them as text, never as markup (the rendered Markdown in
//! [`Inspection::html`] is the only HTML, produced by [`crate::markdown::render`]).

use crate::api::{
    Agent, BackendError, Draft, MailRow, Project, Reservation, SearchHit, UnifiedRow,
};
use serde::{Deserialize, Serialize};

/// Which project's traffic: `demo` or `live`, and the project slug.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TrafficKey {
    /// `demo` or `live`.
    pub src: String,
    /// The project slug.
    pub project: String,
}

/// What the UI asks the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Renders untrusted Markdown to safe HTML.
    Render(String),
    /// Validates one message and lays out what it carries; names its session or task when
    /// the project's traffic is loaded.
    Inspect {
        /// The project.
        key: TrafficKey,
        /// The message.
        message: MailRow,
    },
    /// Adds messages to a project's traffic (`reset`: replaces what was loaded).
    Load {
        /// The project.
        key: TrafficKey,
        /// The messages (any order; ids already loaded are skipped).
        rows: Vec<MailRow>,
        /// Forget what was loaded before.
        reset: bool,
    },
    /// Every Pair session at `now_ms`.
    Sessions {
        /// The project.
        key: TrafficKey,
        /// The time.
        now_ms: i64,
    },
    /// One Pair session in full.
    Session {
        /// The project.
        key: TrafficKey,
        /// The session id.
        id: String,
        /// The time.
        now_ms: i64,
    },
    /// The open human checkpoints across sessions.
    Checkpoints {
        /// The project.
        key: TrafficKey,
        /// The time.
        now_ms: i64,
    },
    /// What a reviewer's decision (`REVISE: feedback`) at a session's open checkpoint sends.
    Decide {
        /// The project.
        key: TrafficKey,
        /// The session id.
        session: String,
        /// The decision as typed.
        text: String,
    },
    /// The audit reports carried in the project's mail.
    Audits(TrafficKey),
    /// Audits a diff against a contract, in the browser.
    RunAudit(AuditRun),
    /// The task boards at `now_ms`.
    Boards {
        /// The project.
        key: TrafficKey,
        /// The time.
        now_ms: i64,
    },
    /// A call to the demo server.
    Demo(DemoCall),
}

/// What the engine answers (the variant matching the request).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Response {
    /// [`Request::Render`].
    Html(String),
    /// [`Request::Inspect`].
    Inspection(Box<Inspection>),
    /// [`Request::Load`].
    Loaded(TrafficSummary),
    /// [`Request::Sessions`].
    Sessions(Vec<SessionRow>),
    /// [`Request::Session`] (`None`: no such session).
    Session(Option<Box<SessionDetail>>),
    /// [`Request::Checkpoints`].
    Checkpoints(Vec<CheckpointCard>),
    /// [`Request::Decide`].
    Decision(DecisionPreview),
    /// [`Request::Audits`].
    Audits(Vec<AuditCard>),
    /// [`Request::RunAudit`]: the report, or why the input could not be audited.
    Audit(Result<AuditCard, String>),
    /// [`Request::Boards`].
    Boards(Box<Boards>),
    /// [`Request::Demo`].
    Demo(Result<DemoReply, BackendError>),
    /// The request could not be served (e.g. the project's traffic is not loaded).
    Failed(String),
}

/// A project's traffic after a load.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrafficSummary {
    /// Messages held.
    pub messages: usize,
    /// Pair sessions found.
    pub sessions: usize,
    /// The newest `created_ts` held (to ask only for newer mail next time).
    pub newest: Option<String>,
    /// The open human checkpoints.
    pub open: Vec<OpenCheckpoint>,
}

/// An open human checkpoint, as the tab title and notifications count them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct OpenCheckpoint {
    /// The session.
    pub session: String,
    /// Which checkpoint.
    pub checkpoint: CheckpointRef,
    /// The log position of the message that opened it (tells a reopened checkpoint apart).
    pub entry: usize,
}

/// A human checkpoint: its number (#1, #2, #3), name and title.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CheckpointRef {
    /// 1, 2 or 3.
    pub number: u8,
    /// `contract_review`, `implementation_review` or `change_order_review`.
    pub name: String,
}

impl CheckpointRef {
    /// `Contract review`, `Implementation review`, `Change-order review`.
    #[must_use]
    pub fn title(&self) -> &'static str {
        match self.number {
            1 => "Contract review",
            2 => "Implementation review",
            _ => "Change-order review",
        }
    }
}

/// A validation issue, or a rule a message broke.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssueView {
    /// JSON Pointer into the message (empty: the whole message).
    pub path: String,
    /// The issue code.
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// An error (else a warning).
    pub error: bool,
}

/// A protocol violation found in a session or task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationView {
    /// The violation code.
    pub code: String,
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
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IntegrityView {
    /// `intact`, `tampered` or `unknown`.
    pub status: String,
    /// The files found tampered.
    pub files: Vec<String>,
}

/// One Pair session in the sessions list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
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
    pub phase: Option<String>,
    /// `active`, `merged` or `aborted`.
    pub status: String,
    /// The open human checkpoint.
    pub checkpoint: Option<CheckpointRef>,
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
    pub phase: Option<String>,
    /// The rule it broke.
    pub violation: Option<ViolationView>,
    /// Its validation issues (an invalid message).
    pub issues: Vec<IssueView>,
}

/// A checkpoint as it opened and closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointHistory {
    /// Which checkpoint.
    pub checkpoint: CheckpointRef,
    /// When it opened.
    pub opened_at_ms: Option<i64>,
    /// When it closed.
    pub closed_at_ms: Option<i64>,
    /// The decision (`APPROVED`, `REVISE`, …).
    pub decision: Option<String>,
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
    /// `pending`, `accepted`, `rejected` or `aborted`.
    pub outcome: String,
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

/// A decision a checkpoint allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionOption {
    /// The keyword (`APPROVED`, `REVISE`, …).
    pub keyword: String,
    /// The text it requires (`feedback`, `reason`, `reasoning`, `strategy`).
    pub requires: Option<String>,
}

/// An open checkpoint in the queue, with what the reviewer needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointCard {
    /// The session.
    pub session: SessionRow,
    /// Which checkpoint.
    pub checkpoint: CheckpointRef,
    /// When it opened.
    pub opened_at_ms: Option<i64>,
    /// The message that opened it.
    pub opened_by: Option<u64>,
    /// That message's content, as labelled values (artifacts, build result, evidence).
    pub fields: Vec<Field>,
    /// The change order under review (#3).
    pub change_order: Option<ChangeOrderView>,
    /// The session's audit reports.
    pub audits: Vec<AuditCard>,
    /// The allowed decisions.
    pub decisions: Vec<DecisionOption>,
}

/// A message a decision sends, validated before it may be sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outgoing {
    /// The sender (the planner).
    pub from: String,
    /// The recipient.
    pub to: String,
    /// The subject (the message type).
    pub subject: String,
    /// The body as sent (`body_md`: the body's JSON).
    pub body_md: String,
    /// The thread to send it in.
    pub thread_id: Option<String>,
    /// Whether it validates.
    pub valid: bool,
    /// Its validation issues.
    pub issues: Vec<IssueView>,
}

impl Outgoing {
    /// The message as the backend sends it: from the planner, in the session's thread.
    #[must_use]
    pub fn draft(&self) -> crate::api::Draft {
        crate::api::Draft {
            sender: Some(self.from.clone()),
            to: vec![self.to.clone()],
            subject: self.subject.clone(),
            body_md: self.body_md.clone(),
            thread_id: self.thread_id.clone(),
            ack_required: false,
            importance: "normal".into(),
        }
    }
}

/// What a typed decision would send, or why it cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionPreview {
    /// The decision as the seed writes it (`REVISE: add expiry tests`).
    pub literal: Option<String>,
    /// Why the text is no decision here.
    pub error: Option<String>,
    /// The messages it sends.
    pub messages: Vec<Outgoing>,
}

/// A value of a message, labelled for reading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The member's name, for people (`Attempted fixes`).
    pub label: String,
    /// JSON Pointer to it.
    pub path: String,
    /// The value.
    pub value: FieldValue,
    /// Validation issues about it.
    pub issues: Vec<IssueView>,
}

/// A value in a [`Field`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FieldValue {
    /// Text.
    Text(String),
    /// A file or artifact path, an id or a code.
    Code(String),
    /// A number, boolean or null, as written.
    Literal(String),
    /// A required member that is absent.
    Missing,
    /// An array's items.
    List(Vec<Field>),
    /// An object's members.
    Group(Vec<Field>),
}

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// No protocol message: plain Markdown.
    Plain,
    /// A valid protocol message.
    Valid,
    /// An invalid or unrecognized one.
    Invalid,
}

/// Where a message belongs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Belongs {
    /// A Pair session, and the phase after this message.
    Session {
        /// The session id.
        id: String,
        /// The phase after the message.
        phase: Option<String>,
    },
    /// An Agent-PO task (`agent/task`) or a droid task.
    Task(String),
}

/// One message, inspected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inspection {
    /// Plain, valid or invalid.
    pub verdict: Verdict,
    /// The family.
    pub family: Option<String>,
    /// The message type.
    pub message_type: Option<String>,
    /// The version it declares or the family's.
    pub version: Option<String>,
    /// Every validation issue.
    pub issues: Vec<IssueView>,
    /// The carried message as labelled values, each issue beside its field.
    pub fields: Vec<Field>,
    /// The carried message as pretty JSON.
    pub raw: Option<String>,
    /// The body rendered as safe HTML.
    pub html: String,
    /// Its session or task, when the project's traffic is loaded.
    pub belongs: Option<Belongs>,
}

/// One finding of an audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditIssueView {
    /// `integrity`, `safety` or `quality`.
    pub kind: String,
    /// `CRITICAL`, `MAJOR` or `MINOR`.
    pub severity: String,
    /// What was found.
    pub description: String,
    /// `file:line`.
    pub location: Option<String>,
    /// The error code (`CONTRACT_TAMPERED`, …).
    pub code: Option<String>,
    /// The pattern that matched.
    pub pattern: Option<String>,
}

/// An audit report, carried in mail or run in the browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditCard {
    /// The session it belongs to.
    pub session: Option<String>,
    /// The message that carried it.
    pub id: Option<u64>,
    /// When it was sent.
    pub at_ms: Option<i64>,
    /// Who sent it.
    pub from: Option<String>,
    /// `PASS` or `FAIL`.
    pub status: String,
    /// The worst severity.
    pub severity: String,
    /// Whether gaming patterns were found.
    pub scheming: bool,
    /// Each finding.
    pub issues: Vec<AuditIssueView>,
    /// The report's notes.
    pub notes: Vec<String>,
}

/// An audit to run in the browser: a diff against a contract's files.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AuditRun {
    /// The session whose contract it is (shown on the report).
    pub session: Option<String>,
    /// The contract's files: repository-relative path and text.
    pub contract: Vec<(String, String)>,
    /// The builder's change: `git diff` output or a unified diff.
    pub diff: String,
    /// Dependencies accepted change orders allow.
    pub approved: Vec<String>,
}

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
    /// The agent's status.
    pub phase: String,
    /// `active`, `completed`, `blocked` or `terminated`.
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
    /// `assigned`, `in_progress`, `partial`, `blocked` or `complete`.
    pub status: String,
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
    /// `pending`, `approved`, `denied`, `timed_out`, `pass` or `fail`.
    pub status: String,
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
}

/// A call to the demo server (which runs in the engine): one per
/// [`Backend`](crate::api::Backend) method, plus the contracts it audited with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DemoCall {
    /// [`Backend::projects`].
    Projects,
    /// [`Backend::agents`].
    Agents {
        /// Project.
        project: String,
    },
    /// [`Backend::inbox`].
    Inbox {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    },
    /// [`Backend::outbox`].
    Outbox {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    },
    /// [`Backend::contacts`].
    Contacts {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    },
    /// [`Backend::acked`].
    Acked {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    },
    /// [`Backend::message`].
    Message {
        /// Project.
        project: String,
        /// Whose view.
        agent: Option<String>,
        /// Message id.
        id: u64,
    },
    /// [`Backend::acknowledge`].
    Acknowledge {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
        /// Message id.
        id: u64,
    },
    /// [`Backend::mark_read`].
    MarkRead {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
        /// Message id.
        id: u64,
    },
    /// [`Backend::reply`], at the demo's time `now_ms`.
    Reply {
        /// Project.
        project: String,
        /// Replying agent.
        agent: String,
        /// Message replied to.
        id: u64,
        /// Body.
        body_md: String,
        /// The demo's time.
        now_ms: i64,
    },
    /// [`Backend::send`], at the demo's time `now_ms`.
    Send {
        /// Project.
        project: String,
        /// The message.
        draft: Draft,
        /// The demo's time.
        now_ms: i64,
    },
    /// [`Backend::search`].
    Search {
        /// Project.
        project: String,
        /// Query.
        query: String,
    },
    /// [`Backend::reservations`].
    Reservations {
        /// Project.
        project: String,
    },
    /// [`Backend::release_reservation`].
    Release {
        /// Project.
        project: String,
        /// Holder.
        agent: String,
        /// Reservation id.
        id: u64,
    },
    /// [`Backend::unified_inbox`].
    Unified,
    /// [`Backend::traffic`].
    Traffic {
        /// Project.
        project: String,
        /// Only messages sent after this `created_ts`.
        since: Option<String>,
    },
    /// The contract files and diff a demo session was audited with.
    Contract {
        /// The session's thread.
        thread: String,
    },
}

/// The demo server's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DemoReply {
    /// Projects.
    Projects(Vec<Project>),
    /// Agents.
    Agents(Vec<Agent>),
    /// Canonical row-array text (mailbox streams).
    Text(String),
    /// Message ids.
    Ids(Vec<u64>),
    /// One message.
    Message(MailRow),
    /// Done.
    Done,
    /// A new message's id.
    Id(u64),
    /// Search hits.
    Hits(Vec<SearchHit>),
    /// Reservations.
    Reservations(Vec<Reservation>),
    /// Unified inbox rows.
    Unified(Vec<UnifiedRow>),
    /// Traffic rows.
    Rows(Vec<MailRow>),
    /// A contract's files and the builder's diff, if the session has them.
    Contract(Option<(Vec<(String, String)>, String)>),
}
