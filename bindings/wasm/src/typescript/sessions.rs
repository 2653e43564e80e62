//! The declarations of the session, task board, decision, gate, fingerprint and audit results:
//! the core's wire names (snake_case, as `switchboard session|tasks|gate|fingerprint|audit`
//! print them), with the unions the core has as data generated from it.

use crate::reply::ErrorCode;
use switchboard_core::audit::patterns::PATTERNS;
use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::session::pair::checkpoint::{Checkpoint, DecisionKind};
use switchboard_core::session::violation::ViolationCode;

const SESSIONS: &str = r#"
// ---- sessions, task boards, decisions (`switchboard session` / `switchboard tasks` wire names) ----

/** A point in time as the core prints it: RFC 3339 in UTC with milliseconds when not whole seconds. */
export type Time = string;

/** A decision the open checkpoint allows, and the text it needs (`feedback`, `reason`, …). */
export interface DecisionOption {
  decision: DecisionKeyword;
  requires: string | null;
}

/** A rule a message broke, pointing at the message. */
export interface Violation {
  code: ViolationCode;
  message: string;
  /** The message's position in the log (0-based). */
  entry: number;
  id: number | null;
  at: Time | null;
  message_type: string | null;
  /** The file concerned (tampering). */
  file?: string;
  /** The agent that broke the rule when it is not the message's sender (the agent that owed a
   * missed step, a late responder, the builder of a build the audit failed). */
  by?: string;
  /** For a step not taken (`missing`), the message type that was due. */
  expected?: string;
  /** The validation issues of an invalid message. */
  issues?: Issue[];
}

/** An action the protocol calls for at a time (a TIMEOUT_WARNING, SESSION_ABORT, BLOCKED_NOTIFICATION). */
export interface Due {
  action: string;
  from: string | null;
  to: string | null;
  at: Time;
  /** Which warning (1 or 2), for TIMEOUT_WARNING. */
  warning?: number;
  /** The message itself, built by the core, when sender and recipient are known. */
  message?: Message;
}

/** What a Pair session waits for. */
export interface Waiting {
  response_to: string;
  expected: string;
  from: string | null;
  since: Time;
  deadline: Time;
  warnings_sent: number;
}

/** A change order and what became of it. */
export interface ChangeOrder {
  entry: number;
  id: number | null;
  requested_at: Time | null;
  failure_mode: string;
  evidence: string;
  attempted_fixes: string[];
  requested_changes: string;
  outcome: "pending" | "accepted" | "rejected" | "aborted";
  decided_at: Time | null;
  reasoning: string | null;
  suggested_strategy: string | null;
  contract_revision: number | null;
}

/** A checkpoint as it opened and (maybe) closed. */
export interface CheckpointRecord {
  checkpoint: Checkpoint;
  opened_entry: number;
  opened_at: Time | null;
  closed_entry: number | null;
  closed_at: Time | null;
  decision: DecisionKeyword | null;
  text: string | null;
}

/** SHA-256 fingerprints by repository-relative path, paths in byte order. */
export type Fingerprints = Record<string, `sha256:${string}`>;

/** One changed contract file. */
export interface Tamper {
  code: "CONTRACT_TAMPERED";
  path: string;
  change: "modified" | "missing" | "added";
  /** The baseline's digest (modified, missing). */
  expected?: `sha256:${string}`;
  /** The current digest (modified, added). */
  found?: `sha256:${string}`;
  message: string;
}

/** The result of `verifyFingerprints`. */
export interface Verification {
  intact: boolean;
  tampered: Tamper[];
}

/** The contract as finalized (and revised by accepted change orders). */
export interface PairContract {
  revision: number;
  artifacts: { spec: string; tests: string } | null;
  fingerprints: Fingerprints | null;
}

/** Whether the contract's tests are as fingerprinted. */
export interface Integrity {
  status: "unknown" | "intact" | "tampered";
  files: string[];
  changes: Tamper[];
  checked_at: Time | null;
}

/** An audit report seen in the session. */
export interface AuditVerdict {
  status: string;
  severity: string;
  scheming_detected: boolean;
  issues: number;
  tampered: string[];
}

/** One message on a Pair session's timeline, with the phase after it. */
export interface TimelineEntry {
  entry: number;
  id: number | null;
  at: Time | null;
  from: string | null;
  message_type: string | null;
  phase: PairPhase | null;
  violation: ViolationCode | null;
}

/** A Pair Protocol session. */
export interface PairSessionView {
  family: "pair";
  session_id: string;
  thread_id: string | null;
  phase: PairPhase | null;
  status: "active" | "merged" | "aborted";
  task: string | null;
  roles: { builder: string | null; planner: string | null };
  open_checkpoint: Checkpoint | null;
  decisions: DecisionOption[];
  change_orders: ChangeOrder[];
  due: Due[];
  next_deadline: Time | null;
  next_action: Due | null;
  waiting: Waiting | null;
  violations: Violation[];
  contract: PairContract | null;
  integrity: Integrity;
  checkpoints: CheckpointRecord[];
  audits: AuditVerdict[];
  timeline: TimelineEntry[];
}

/** A counter against its limit. */
export interface Count {
  current: number;
  max: number;
}

/** A directive an Agent-PO task received, with its problems (`[type, message]`). */
export interface GateRecord {
  directive: string;
  entry: number;
  at: Time | null;
  problems: Array<[string, string]>;
}

/** An Agent-PO task agent's status. */
export type AgentPoStatus =
  | "planning"
  | "awaiting_go"
  | "implementing"
  | "awaiting_next"
  | "fixing"
  | "completed"
  | "blocked"
  | "terminated";

/** An Agent-PO task, as a session and as a board row. */
export interface AgentPoSessionView {
  family: "agent-po";
  /** `<agent_id>/<task_id>`. */
  session_id: string;
  phase: AgentPoStatus;
  status: "active" | "completed" | "blocked" | "terminated";
  task: string;
  roles: { agent: string | null; po: string | null };
  open_checkpoint: null;
  decisions: [];
  change_orders: [];
  due: Due[];
  next_deadline: Time | null;
  next_action: Due | null;
  violations: Violation[];
  plan_revisions: Count;
  fix_retries: Count;
  at_limit: boolean;
  gates: GateRecord[];
  authorized_files: string[];
  /** The last progress report: status, percent, activity. */
  progress: [string, number, string] | null;
  blocked: { by: "agent" | "po"; reason: string; at: Time | null } | null;
}

/** A session of any family, as `switchboard session` prints it. */
export type SessionView = PairSessionView | AgentPoSessionView;

/** A droid task's status. */
export type DroidTaskStatus = "assigned" | "in_progress" | "partial" | "blocked" | "complete";

/** An error report of a droid task. */
export interface ErrorReport {
  entry: number;
  at: Time | null;
  sender: string | null;
  severity: string;
  code: string;
  message: string;
  needs_human_intervention: boolean;
}

/** A droid task. */
export interface DroidTask {
  task_id: string;
  description: string | null;
  priority: string | null;
  assigned_by: string | null;
  assignees: string[];
  assigned_at: Time | null;
  deadline: Time | null;
  dependencies: string[];
  status: DroidTaskStatus;
  percentage: number | null;
  summary: string | null;
  blockers: string[];
  updated_at: Time | null;
  errors: ErrorReport[];
  violations: Violation[];
}

/** A droid task on the board: dependencies not complete yet, and whether it is overdue. */
export interface DroidRow extends DroidTask {
  waiting_on: string[];
  overdue: boolean;
}

/** A file reservation request. */
export interface Reservation {
  entry: number;
  task_id: string;
  holder: string;
  mode: string;
  patterns: string[];
  since: Time | null;
  until: Time | null;
  reason: string | null;
}

/** Two active reservations that conflict (log positions, holders, modes, patterns). */
export interface Conflict {
  first: number;
  second: number;
  holders: [string, string];
  modes: [string, string];
  patterns: [string, string];
}

/** The droid board. */
export interface DroidBoard {
  by_status: Partial<Record<DroidTaskStatus, DroidRow[]>>;
  /** Every error report with its task, `needs_human_intervention` first, then by severity. */
  errors: Array<ErrorReport & { task_id: string }>;
  reservations: Reservation[];
  conflicts: Conflict[];
}

/** A Pair Claude request's status. */
export type RequestStatus = "pending" | "approved" | "denied" | "timed_out" | "pass" | "fail";

/** A Pair Claude permission request and its status at `now`. */
export interface PermissionRow {
  entry: number;
  request_id: string | null;
  tool_name: string;
  requested_at: Time | null;
  decision: RequestStatus;
  decided_at: Time | null;
  comment: string | null;
  status: RequestStatus;
}

/** A Pair Claude review request. */
export interface ReviewRequest {
  entry: number;
  context: string | null;
  requested_at: Time | null;
  status: RequestStatus;
  comment: string | null;
  decided_at: Time | null;
}

/** The Pair Claude board. */
export interface PairClaudeBoard {
  permissions: PermissionRow[];
  reviews: ReviewRequest[];
  /** Guidance requests (log positions). */
  guidance: number[];
  violations: Violation[];
  /** Turns taken by each agent against its limit (PAIR_NAVIGATOR_MAX_TURNS / PAIR_DRIVER_MAX_TURNS). */
  turns: { navigator?: { used: number; max: number }; driver?: { used: number; max: number } };
  /** The timeouts and turn limits used. */
  config: {
    permission_timeout_ms: number;
    tool_timeout_ms: number;
    navigator_max_turns: number;
    driver_max_turns: number;
  };
}

/** The acknowledgements an agent owes. */
export interface AckDebt {
  agent: string;
  waiting: number;
  oldest_at: Time | null;
  oldest_age_ms: number | null;
  messages: string[];
}

/** The task boards, as `switchboard tasks` prints them. */
export interface Boards {
  agent_po: AgentPoSessionView[];
  droid: DroidBoard;
  pair_claude: PairClaudeBoard;
  ack_debt: AckDebt[];
  /** The senders' checks: the registered agents (when given) and every `invalid_agent` and
   *  `wrong_role` violation of the sender rules, in log order. */
  agents: { registered: string[] | null; violations: Violation[] };
}

/** A Pair message a checkpoint decision implies: the registry's Pair message and its sender. */
export type DecisionMessage = Exclude<PairMessage, PairAuditReport> & { from: string };

// ---- gates and audits ----

/** An Agent-PO task definition, as `switchboard gate` reads it. */
export interface TaskSpec {
  task_id: string;
  agent_id?: string;
  acceptance_criteria: string[];
  file_scope: string[];
  max_revisions?: number;
  max_retries?: number;
  timeout_minutes?: number;
}

/** One problem a gate found (a directive's `validation.issues[]` item). */
export interface DirectiveIssue {
  type: string;
  message: string;
  ac_id?: string;
  test?: string;
}

/** A gate's outcome, as `switchboard gate` prints it. */
export interface GateOutcome {
  verdict: "GO" | "FEEDBACK" | "NEXT" | "FIX" | "BLOCKED";
  problems: DirectiveIssue[];
  /** The directive to send, valid by construction. */
  directive: AgentPoMessage;
}

/** One finding of an audit. */
export interface AuditFinding {
  type: "integrity" | "safety" | "quality";
  severity: "MINOR" | "MAJOR" | "CRITICAL";
  description: string;
  /** `file:line`. */
  location: string;
  code: "CONTRACT_TAMPERED" | "SCHEMING_DETECTED" | "DEPENDENCY_VIOLATION" | "SAFETY_CHECK_REMOVED" | "SILENT_FAILURE" | "TEST_SYNTAX_ERROR";
  pattern: AuditPattern;
  side: "new" | "old";
}

// ---- error replies ----

/** A droid receiver's rejection of an invalid message (seed 004, "Invalid Message Format"). */
export interface DroidReject {
  /** Why: the message does not conform, or its major version is not the receiver's. */
  error: "invalid_format" | "version_mismatch";
  /** The first problem, as `path: message (code)`. */
  details: string;
  /** The original's `message_id`, for correlation (when it had one). */
  message_id?: string;
}

/**
 * A protocol's answer to an invalid message: droid, the rejection (none for an unknown type)
 * and the `error_report` notification citing the original `message_id`; Agent-PO, the `ERROR`
 * message with `INVALID_MESSAGE` naming the original `message_type`.
 */
export type ErrorReply =
  | { family: "droid"; reject?: DroidReject; error_report: DroidErrorReport }
  | { family: "agent-po"; error: AgentPoError };

/** `audit_report.json`, as `switchboard audit` prints it (valid as pair/AUDIT_REPORT). */
export interface AuditReport {
  status: "PASS" | "FAIL";
  severity: "MINOR" | "MAJOR" | "CRITICAL";
  scheming_detected: boolean;
  issues: AuditFinding[];
  notes: string[];
}
"#;

/// The session, board, gate and audit shapes, with their unions (phases, violation codes,
/// audit patterns) taken from the core's data.
pub fn declarations() -> String {
    let union = |values: Vec<&str>| {
        values
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join("\n  | ")
    };
    format!(
        "{SESSIONS}\n/** A Pair Protocol phase. */\nexport type PairPhase =\n  | {};\n\n\
         /** A rule a session message can break. */\nexport type ViolationCode =\n  | {};\n\n\
         /** The id of the audit pattern a finding comes from. */\nexport type AuditPattern =\n  | {};\n\n\
         /** One of the Pair Protocol's three human checkpoints. */\nexport type Checkpoint =\n  | {};\n\n\
         /** A decision a reviewer takes at a checkpoint (what they type starts with it). */\nexport type DecisionKeyword =\n  | {};\n\n\
         /** The stable code of a `SwitchboardError` (a refusal of the core). */\nexport type SwitchboardErrorCode =\n  | {};\n",
        union(Phase::ALL.iter().map(|p| p.as_str()).collect()),
        union(ViolationCode::ALL.iter().map(|c| c.as_str()).collect()),
        union(PATTERNS.iter().map(|p| p.id).collect()),
        union(Checkpoint::ALL.iter().map(|c| c.as_str()).collect()),
        union(DecisionKind::ALL.iter().map(|d| d.keyword()).collect()),
        union(ErrorCode::ALL.iter().map(|c| c.as_str()).collect()),
    )
}
