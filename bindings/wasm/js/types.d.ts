// Generated from switchboard-core's protocol registry and pane contract by
// bindings/wasm/src/typescript.rs. Do not edit: after a change run
//   SWITCHBOARD_BLESS=1 cargo test -p switchboard-wasm --test typescript

/** A protocol family name. */
export type Family = "pair" | "agent-po" | "droid" | "pair-claude";

/** A stable issue code; `docs/protocol.md` ("Issue codes") says what each means. */
export type IssueCode =
  | "not_json"
  | "no_protocol_message"
  | "unknown_family"
  | "ambiguous_family"
  | "unknown_message_type"
  | "ambiguous_message_type"
  | "missing_field"
  | "wrong_type"
  | "not_in_enum"
  | "out_of_range"
  | "empty_string"
  | "bad_timestamp"
  | "bad_id"
  | "bad_pattern"
  | "version_mismatch"
  | "inconsistent_fields"
  | "secret_in_message"
  | "too_many_issues";

/** How bad an issue is: errors make a message invalid, warnings (lenient-mode deviations) do not. */
export type Severity = "error" | "warning";

// ---- pair (Pair Protocol 3.1) ----

/**
 * Initialize a pair session (either agent to its partner).
 *
 * `pair/PAIR_INIT` (Pair Protocol 3.1).
 */
export interface PairPairInit {
  /** Non-empty. */
  to: string;
  subject: "PAIR_INIT";
  body: {
    /** A 2-part dotted version with major version 3. */
    protocol_version: string;
    /** Non-empty. */
    task: string;
    my_role: "PLANNER" | "BUILDER";
    your_role: "PLANNER" | "BUILDER";
    status: "INITIALIZED";
  };
}

/**
 * Ask the orchestrator clarifying questions before the contract (PHASE 0).
 *
 * `pair/CLARIFICATION_REQUEST` (Pair Protocol 3.1).
 */
export interface PairClarificationRequest {
  /** Non-empty. */
  to: string;
  subject: "CLARIFICATION_REQUEST";
  body: {
    phase: "CLARIFICATION";
    /** At least 1 item(s). */
    questions: Array<{
      /** Non-empty. */
      id: string;
      /** Non-empty. */
      question: string;
      context?: string;
      options?: string[];
    }>;
    status: "AWAITING_USER_INPUT";
  };
}

/**
 * Answer clarifying questions.
 *
 * `pair/CLARIFICATION_RESPONSE` (Pair Protocol 3.1).
 */
export interface PairClarificationResponse {
  /** Non-empty. */
  to: string;
  subject: "CLARIFICATION_RESPONSE";
  body: {
    phase: "CLARIFICATION_COMPLETE";
    /** At least 1 item(s). */
    answers: Array<{
      /** Non-empty. */
      question_id: string;
      /** Non-empty. */
      answer: string;
      reasoning?: string;
    }>;
    status: "PROCEED_WITH_IMPLEMENTATION";
  };
}

/**
 * Planner shares the draft contract for internal review.
 *
 * `pair/CONTRACT_DRAFT` (Pair Protocol 3.1).
 */
export interface PairContractDraft {
  /** Non-empty. */
  to: string;
  subject: "CONTRACT_DRAFT";
  body: {
    phase: "CONTRACT_GENERATION";
    artifacts: {
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      safety_reasoning: string;
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      spec: string;
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      tests: string;
    };
    status: "AWAITING_HUMAN_REVIEW";
    test_fingerprints?: Record<string, unknown>;
  };
}

/**
 * Planner sends the finalized, immutable contract to the builder.
 *
 * `pair/CONTRACT_FINAL` (Pair Protocol 3.1).
 */
export interface PairContractFinal {
  /** Non-empty. */
  to: string;
  subject: "CONTRACT_FINAL";
  body: {
    phase: "CONTRACT_FINALIZED";
    /** Required in strict mode; lenient mode accepts its absence (`pair_cli_abbreviated_body`). */
    artifacts: {
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      spec: string;
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      tests: string;
    };
    /** Required in strict mode; lenient mode accepts its absence (`pair_cli_abbreviated_body`). */
    contract_immutable: true;
    status: "READY_FOR_BUILD";
    test_fingerprints?: Record<string, unknown>;
  };
}

/**
 * Builder reports that all tests pass.
 *
 * `pair/BUILD_COMPLETE` (Pair Protocol 3.1).
 */
export interface PairBuildComplete {
  /** Non-empty. */
  to: string;
  subject: "BUILD_COMPLETE";
  body: {
    phase: "BUILD_COMPLETE";
    test_results: "ALL_PASS";
    /** At least 1 item(s). Each item: Non-empty. */
    implementation_files: string[];
    status: "READY_FOR_REVIEW";
    test_fingerprints?: Record<string, unknown>;
  };
}

/**
 * Builder requests a contract change because of a blocker.
 *
 * `pair/CHANGE_ORDER` (Pair Protocol 3.1).
 */
export interface PairChangeOrder {
  /** Non-empty. */
  to: string;
  subject: "CHANGE_ORDER";
  body: {
    /** Required in strict mode; lenient mode accepts its absence (`pair_change_order_bare`). */
    phase: "BUILD_BLOCKED";
    change_order: {
      /** Required in strict mode; lenient mode accepts its absence (`pair_change_order_bare`). */
      status: "CHANGE_ORDER_REQUIRED";
      failure_mode: "logic_impossible" | "dependency_missing" | "test_flakiness";
      /** Non-empty. */
      evidence: string;
      attempted_fixes: string[];
      /** Non-empty. */
      requested_changes: string;
    };
    /** Required in strict mode; lenient mode accepts its absence (`pair_change_order_bare`). */
    status: "AWAITING_MEDIATION";
  };
}

/**
 * Planner accepts a change order and sends the updated contract.
 *
 * `pair/CHANGE_ORDER_ACCEPTED` (Pair Protocol 3.1).
 */
export interface PairChangeOrderAccepted {
  /** Non-empty. */
  to: string;
  subject: "CHANGE_ORDER_ACCEPTED";
  body: {
    phase: "CONTRACT_REVISED";
    decision: "ACCEPTED";
    updated_artifacts: {
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      spec: string;
      /** A pair_artifact: `^tmp/pair_[0-9]+_[^\n]+$`. */
      tests: string;
    };
    /** Non-empty. */
    reasoning: string;
    status: "READY_FOR_BUILD";
    test_fingerprints?: Record<string, unknown>;
  };
}

/**
 * Planner rejects a change order and suggests a strategy.
 *
 * `pair/CHANGE_ORDER_REJECTED` (Pair Protocol 3.1).
 */
export interface PairChangeOrderRejected {
  /** Non-empty. */
  to: string;
  subject: "CHANGE_ORDER_REJECTED";
  body: {
    phase: "CHANGE_ORDER_REJECTED";
    decision: "REJECTED";
    /** Non-empty. */
    reasoning: string;
    /** Non-empty. */
    suggested_strategy: string;
    status: "RETRY_BUILD";
  };
}

/**
 * Extension: the planner sends the build back after implementation review (checkpoint #2 REJECT: reason).
 *
 * `pair/BUILD_REJECTED` (Pair Protocol 3.1).
 */
export interface PairBuildRejected {
  /** Non-empty. */
  to: string;
  subject: "BUILD_REJECTED";
  body: {
    phase: "BUILD_REJECTED";
    decision: "REJECTED";
    /** Non-empty. */
    reason: string;
    status: "RETRY_BUILD";
  };
}

/**
 * Extension: the human reviewer asks the planner to regenerate the contract (checkpoint #1 REVISE: feedback).
 *
 * `pair/CONTRACT_REVISION_REQUESTED` (Pair Protocol 3.1).
 */
export interface PairContractRevisionRequested {
  /** Non-empty. */
  to: string;
  subject: "CONTRACT_REVISION_REQUESTED";
  body: {
    phase: "CONTRACT_GENERATION";
    decision: "REVISE";
    /** Non-empty. */
    feedback: string;
    status: "REVISION_REQUESTED";
  };
}

/**
 * Planner reports completion and merge (commit_sha/branch optional: removed upstream later).
 *
 * `pair/SESSION_COMPLETE` (Pair Protocol 3.1).
 */
export interface PairSessionComplete {
  /** Non-empty. */
  to: string;
  subject: "SESSION_COMPLETE";
  body: {
    phase: "MERGED";
    status: "SUCCESS";
    /** A commit_sha: `^[0-9a-f]{7,40}$`. */
    commit_sha?: string;
    /** Non-empty. */
    branch?: string;
    /** Non-empty. */
    message: string;
  };
}

/**
 * Either agent aborts the session.
 *
 * `pair/SESSION_ABORT` (Pair Protocol 3.1).
 */
export interface PairSessionAbort {
  /** Non-empty. */
  to: string;
  subject: "SESSION_ABORT";
  body: {
    phase: "CLARIFICATION" | "CLARIFICATION_COMPLETE" | "CONTRACT_GENERATION" | "CONTRACT_FINALIZED" | "BUILD_BLOCKED" | "CONTRACT_REVISED" | "CHANGE_ORDER_REJECTED" | "BUILD_COMPLETE" | "BUILD_REJECTED" | "MERGED";
    /** Non-empty. */
    reason: string;
    status: "ABORTED";
    cleanup_required: boolean;
  };
}

/**
 * Warn a silent partner about an impending timeout (counters optional).
 *
 * `pair/TIMEOUT_WARNING` (Pair Protocol 3.1).
 */
export interface PairTimeoutWarning {
  /** Non-empty. */
  to: string;
  subject: "TIMEOUT_WARNING";
  body: {
    phase: "CLARIFICATION" | "CLARIFICATION_COMPLETE" | "CONTRACT_GENERATION" | "CONTRACT_FINALIZED" | "BUILD_BLOCKED" | "CONTRACT_REVISED" | "CHANGE_ORDER_REJECTED" | "BUILD_COMPLETE" | "BUILD_REJECTED" | "MERGED";
    status: "TIMEOUT";
    /** Non-empty. */
    message: string;
    /** An integer from 1 to 1000. */
    warnings_sent?: number;
    /** An integer from 1 to 1000. */
    max_warnings?: number;
  };
}

/**
 * The planner's automated audit report (audit_report.json, recognised by scheming_detected).
 *
 * `pair/AUDIT_REPORT` (Pair Protocol 3.1).
 */
export interface PairAuditReport {
  status: "PASS" | "FAIL";
  severity: "CRITICAL" | "MAJOR" | "MINOR";
  scheming_detected: boolean;
  issues: Array<{
    type: "integrity" | "safety" | "quality";
    severity: "CRITICAL" | "MAJOR" | "MINOR";
    /** Non-empty. */
    description: string;
    location?: string;
  }>;
  notes?: string[];
}

/** The message types of the `pair` family, by registry name. */
export interface PairTypes {
  PAIR_INIT: PairPairInit;
  CLARIFICATION_REQUEST: PairClarificationRequest;
  CLARIFICATION_RESPONSE: PairClarificationResponse;
  CONTRACT_DRAFT: PairContractDraft;
  CONTRACT_FINAL: PairContractFinal;
  BUILD_COMPLETE: PairBuildComplete;
  CHANGE_ORDER: PairChangeOrder;
  CHANGE_ORDER_ACCEPTED: PairChangeOrderAccepted;
  CHANGE_ORDER_REJECTED: PairChangeOrderRejected;
  BUILD_REJECTED: PairBuildRejected;
  CONTRACT_REVISION_REQUESTED: PairContractRevisionRequested;
  SESSION_COMPLETE: PairSessionComplete;
  SESSION_ABORT: PairSessionAbort;
  TIMEOUT_WARNING: PairTimeoutWarning;
  AUDIT_REPORT: PairAuditReport;
}

/** Any message of the `pair` family. */
export type PairMessage = PairTypes[keyof PairTypes];

// ---- agent-po (Agent-PO Message Protocol 20.0) ----

/**
 * Agent submits its implementation plan before GO.
 *
 * `agent-po/PLAN_SUBMISSION` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoPlanSubmission {
  message_type: "PLAN_SUBMISSION";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  plan: {
    /** Non-empty. */
    approach: string;
    ac_mapping: Array<{
      /** Non-empty. */
      ac_id: string;
      /** Non-empty. */
      implementation: string;
      file?: string;
      line_estimate?: string;
    }>;
    files_to_modify: Array<{
      /** Non-empty. */
      path: string;
      changes: string;
    }>;
    test_approach?: {
      unit_tests?: string[];
      integration_tests?: string[];
    };
  };
  questions?: string[];
  /** An integer, at least 1. */
  revision?: number;
}

/**
 * Agent reports its current status (every 5 minutes).
 *
 * `agent-po/PROGRESS_UPDATE` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoProgressUpdate {
  message_type: "PROGRESS_UPDATE";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  status: "initializing" | "researching" | "planning" | "awaiting_go" | "implementing" | "testing" | "reporting" | "awaiting_next" | "fixing" | "blocked";
  /** An integer from 0 to 100. */
  progress_percent: number;
  /** Non-empty. */
  current_activity: string;
  files_modified?: string[];
  issues?: string[];
  /** An integer, at least 0. */
  eta_minutes?: number;
}

/**
 * Agent reports task completion.
 *
 * `agent-po/COMPLETION_REPORT` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoCompletionReport {
  message_type: "COMPLETION_REPORT";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  summary: {
    /** An RFC 3339 date-time. */
    started_at: string;
    /** An RFC 3339 date-time. */
    completed_at: string;
    /** An integer, at least 0. */
    duration_minutes?: number;
  };
  ac_verification: Array<{
    /** Non-empty. */
    ac_id: string;
    status: "PASS" | "FAIL" | "PARTIAL";
    evidence?: string;
    tested?: boolean;
  }>;
  test_results: {
    /** An integer, at least 0. */
    passed: number;
    /** An integer, at least 0. */
    failed: number;
    /** An integer, at least 0. */
    skipped?: number;
    details?: Array<{
      /** Non-empty. */
      file?: string;
      /** An integer, at least 0. */
      passed?: number;
      /** An integer, at least 0. */
      failed?: number;
    }>;
  };
  files_changed: Array<{
    /** Non-empty. */
    path: string;
    action: "created" | "modified" | "deleted";
    /** An integer, at least 0. */
    lines_added?: number;
    /** An integer, at least 0. */
    lines_removed?: number;
  }>;
  issues?: string[];
  recommendations?: string[];
}

/**
 * Agent reports a blocker (agent → PO; recognised by details/suggested_action).
 *
 * `agent-po/BLOCKED_NOTIFICATION@agent` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoBlockedNotificationAgent {
  message_type: "BLOCKED_NOTIFICATION";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  /** Non-empty. */
  reason: string;
  details: {
    /** Non-empty. */
    issue: string;
    attempts?: string[];
    /** An RFC 3339 date-time. */
    blocking_since?: string;
  };
  suggested_action?: string;
}

/**
 * PO marks the task blocked after max retries (PO → agent; recognised by history/next_steps).
 *
 * `agent-po/BLOCKED_NOTIFICATION@po` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoBlockedNotificationPo {
  message_type: "BLOCKED_NOTIFICATION";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  /** Non-empty. */
  reason: string;
  history: Record<string, unknown>;
  next_steps?: {
    options?: string[];
    escalate?: unknown;
  };
}

/**
 * PO authorizes implementation after validating the plan.
 *
 * `agent-po/GO_DIRECTIVE` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoGoDirective {
  message_type: "GO_DIRECTIVE";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  status: "GO";
  validation?: {
    plan_validated?: boolean;
    ac_coverage?: string;
    file_scope?: string;
    test_delta?: string;
  };
  authorization: {
    authorized_files: string[];
    /** An integer, at least 1. */
    timeout_minutes?: number;
  };
  message?: string;
}

/**
 * PO requests a plan revision.
 *
 * `agent-po/FEEDBACK` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoFeedback {
  message_type: "FEEDBACK";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  status: "NEEDS_REVISION";
  validation: {
    issues: Array<{
      /** Non-empty. */
      type: string;
      /** Non-empty. */
      message: string;
      /** Non-empty. */
      ac_id?: string;
      /** Non-empty. */
      test?: string;
    }>;
  };
  /** Non-empty. */
  guidance: string;
  revision_required?: boolean;
  /** An integer, at least 0. */
  max_revisions?: number;
  /** An integer, at least 0. */
  current_revision?: number;
}

/**
 * PO approves completion.
 *
 * `agent-po/NEXT_DIRECTIVE` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoNextDirective {
  message_type: "NEXT_DIRECTIVE";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  status: "NEXT";
  validation?: {
    report_validated?: boolean;
    ac_verified?: string;
    tests_passed?: boolean;
    scope_verified?: boolean;
  };
  summary?: {
    /** An integer, at least 0. */
    criteria_met?: number;
    /** An integer, at least 0. */
    tests_passed?: number;
    /** An integer, at least 0. */
    files_changed?: number;
  };
  message?: string;
  cleanup?: {
    /** Non-empty. */
    worktree?: string;
    /** Non-empty. */
    branch?: string;
  };
}

/**
 * PO requests fixes to a completion report.
 *
 * `agent-po/FIX_DIRECTIVE` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoFixDirective {
  message_type: "FIX_DIRECTIVE";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  status: "FIX";
  validation: {
    issues: Array<{
      /** Non-empty. */
      type: string;
      /** Non-empty. */
      message: string;
      /** Non-empty. */
      ac_id?: string;
      /** Non-empty. */
      test?: string;
    }>;
  };
  retry?: {
    /** An integer, at least 0. */
    count?: number;
    /** An integer, at least 0. */
    max?: number;
    allowed?: boolean;
  };
  guidance?: string;
  message?: string;
}

/**
 * PO ends the agent (abort or cleanup).
 *
 * `agent-po/TERMINATE_DIRECTIVE` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoTerminateDirective {
  message_type: "TERMINATE_DIRECTIVE";
  /** A agent_id: `^agent-[a-z0-9]+$`. */
  agent_id: string;
  /** A po_task_id: `^TASK-[A-Z0-9-]+$`. */
  task_id: string;
  /** An RFC 3339 date-time. */
  timestamp: string;
  /** Non-empty. */
  reason: string;
  cleanup?: {
    /** Non-empty. */
    worktree?: string;
    /** Non-empty. */
    branch?: string;
  };
  message?: string;
}

/**
 * Invalid-message response (no base fields).
 *
 * `agent-po/ERROR` (Agent-PO Message Protocol 20.0).
 */
export interface AgentPoError {
  message_type: "ERROR";
  error: {
    /** A upper_snake: `^[A-Z][A-Z0-9_]*$`. */
    code: string;
    /** Non-empty. */
    message: string;
    /** Non-empty. */
    original_message_type?: string;
  };
  action?: string;
}

/** The message types of the `agent-po` family, by registry name. */
export interface AgentPoTypes {
  PLAN_SUBMISSION: AgentPoPlanSubmission;
  PROGRESS_UPDATE: AgentPoProgressUpdate;
  COMPLETION_REPORT: AgentPoCompletionReport;
  "BLOCKED_NOTIFICATION@agent": AgentPoBlockedNotificationAgent;
  "BLOCKED_NOTIFICATION@po": AgentPoBlockedNotificationPo;
  GO_DIRECTIVE: AgentPoGoDirective;
  FEEDBACK: AgentPoFeedback;
  NEXT_DIRECTIVE: AgentPoNextDirective;
  FIX_DIRECTIVE: AgentPoFixDirective;
  TERMINATE_DIRECTIVE: AgentPoTerminateDirective;
  ERROR: AgentPoError;
}

/** Any message of the `agent-po` family. */
export type AgentPoMessage = AgentPoTypes[keyof AgentPoTypes];

// ---- droid (MCP Agent Mail droid message formats 1.0.0) ----

/**
 * Delegate a task from one agent to another.
 *
 * `droid/task_assignment` (MCP Agent Mail droid message formats 1.0.0).
 */
export interface DroidTaskAssignment {
  /** A 3-part dotted version with major version 1. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  version: string;
  /** An RFC 3339 date-time. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  timestamp: string;
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  sender_id: string;
  /** A message_id: `^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  message_id: string;
  type: "task_assignment";
  /** A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
  task_id: string;
  /** Non-empty. */
  description: string;
  /** Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  specification: {
    acceptance_criteria: string[];
    technical_requirements?: string[];
  };
  file_patterns: string[];
  priority: "low" | "normal" | "high" | "urgent";
  /** An integer from 0 to 3. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  priority_value: number;
  /** Each item: A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
  dependencies?: string[];
  /** A number, at least 0. */
  estimated_duration_minutes?: number;
  /** An RFC 3339 date-time. */
  deadline?: string;
  metadata?: {
    labels?: string[];
    component?: string;
    epic?: string;
  };
}

/**
 * Notify that a task has been completed.
 *
 * `droid/task_completion` (MCP Agent Mail droid message formats 1.0.0).
 */
export interface DroidTaskCompletion {
  /** A 3-part dotted version with major version 1. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  version: string;
  /** An RFC 3339 date-time. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  timestamp: string;
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  sender_id: string;
  /** A message_id: `^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  message_id: string;
  type: "task_completion";
  /** A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
  task_id: string;
  status: "complete" | "partial" | "blocked";
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  completion_summary: string;
  files_modified: string[];
  test_results: {
    unit_tests?: {
      /** An integer, at least 0. */
      total?: number;
      /** An integer, at least 0. */
      passed?: number;
      /** An integer, at least 0. */
      failed?: number;
      /** A number from 0 to 100. */
      coverage?: number;
    };
    integration_tests?: {
      /** An integer, at least 0. */
      total?: number;
      /** An integer, at least 0. */
      passed?: number;
      /** An integer, at least 0. */
      failed?: number;
      /** A number from 0 to 100. */
      coverage?: number;
    };
  };
  /** Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  errors_encountered: unknown[];
  warnings?: string[];
  /** A number, at least 0. */
  time_spent_minutes?: number;
  next_tasks?: Array<{
    /** A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
    task_id: string;
    relationship?: string;
    reason?: string;
  }>;
  metadata?: Record<string, unknown>;
}

/**
 * Report errors encountered during task execution.
 *
 * `droid/error_report` (MCP Agent Mail droid message formats 1.0.0).
 */
export interface DroidErrorReport {
  /** A 3-part dotted version with major version 1. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  version: string;
  /** An RFC 3339 date-time. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  timestamp: string;
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  sender_id: string;
  /** A message_id: `^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  message_id: string;
  type: "error_report";
  /** A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
  task_id: string;
  severity: "low" | "medium" | "high" | "blocking";
  error: {
    /** A upper_snake: `^[A-Z][A-Z0-9_]*$`. */
    code: string;
    /** Non-empty. */
    message: string;
    stack_trace?: string;
    context?: Record<string, unknown>;
  };
  attempted_solutions?: Array<{
    /** Non-empty. */
    solution: string;
    result?: string;
    details?: string;
  }>;
  /** Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  reproduction_steps: string[];
  needs_human_intervention: boolean;
  suggested_actions?: string[];
  impact?: {
    affected_users?: string;
    affected_features?: string[];
    workaround?: string;
  };
  attachments?: Array<{
    type?: string;
    filename?: string;
    url?: string;
  }>;
}

/**
 * Periodic status update on task progress.
 *
 * `droid/status_update` (MCP Agent Mail droid message formats 1.0.0).
 */
export interface DroidStatusUpdate {
  /** A 3-part dotted version with major version 1. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  version: string;
  /** An RFC 3339 date-time. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  timestamp: string;
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  sender_id: string;
  /** A message_id: `^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  message_id: string;
  type: "status_update";
  /** A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
  task_id: string;
  update_type: "progress" | "milestone" | "blocker" | "unblocker";
  /** Non-empty. */
  status_summary: string;
  progress?: {
    /** A number from 0 to 100. */
    percentage?: number;
    completed_steps?: string[];
    current_step?: string;
    remaining_steps?: string[];
    /** An RFC 3339 date-time. */
    estimated_completion?: string;
  };
  metrics?: Record<string, unknown>;
  /** Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  blockers: unknown[];
  next_milestone?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Request coordination between multiple agents (required set from the example).
 *
 * `droid/coordination_request` (MCP Agent Mail droid message formats 1.0.0).
 */
export interface DroidCoordinationRequest {
  /** A 3-part dotted version with major version 1. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  version: string;
  /** An RFC 3339 date-time. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  timestamp: string;
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  sender_id: string;
  /** A message_id: `^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  message_id: string;
  type: "coordination_request";
  request_type: "parallel_execution" | "handoff" | "review" | "sync";
  /** At least 1 item(s). Each item: Non-empty. */
  participants: string[];
  /** Non-empty. */
  coordination_topic: string;
  shared_resources?: Array<{
    /** Non-empty. */
    type: string;
    patterns?: string[];
    schema?: string;
    access_mode?: "read_write" | "read_only";
  }>;
  schedule?: {
    /** An RFC 3339 date-time. */
    start_time?: string;
    /** A number, at least 0. */
    duration_minutes?: number;
    /** A number, at least 0. */
    checkpoint_interval_minutes?: number;
  };
  communication_protocol?: {
    primary_channel?: string;
    fallback_channel?: string;
    escalation_contact?: string;
  };
  success_criteria?: string[];
  metadata?: Record<string, unknown>;
}

/**
 * Request file reservations for conflict prevention (required set from the example).
 *
 * `droid/file_reservation` (MCP Agent Mail droid message formats 1.0.0).
 */
export interface DroidFileReservation {
  /** A 3-part dotted version with major version 1. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  version: string;
  /** An RFC 3339 date-time. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  timestamp: string;
  /** Non-empty. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  sender_id: string;
  /** A message_id: `^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`. Required in strict mode; lenient mode accepts its absence (`droid_short_form`). */
  message_id: string;
  type: "file_reservation";
  /** A beads_id: `^[A-Za-z0-9][A-Za-z0-9._-]*$`. */
  task_id: string;
  reservation_request: {
    mode: "exclusive" | "shared_read" | "shared_write";
    /** At least 1 item(s). Each item: Non-empty. */
    file_patterns: string[];
    /** A number, at least 0. */
    duration_minutes?: number;
    reason?: string;
  };
  alternatives?: Array<{
    /** Non-empty. */
    pattern: string;
    mode: "exclusive" | "shared_read" | "shared_write" | "shared";
    note?: string;
  }>;
}

/** The message types of the `droid` family, by registry name. */
export interface DroidTypes {
  task_assignment: DroidTaskAssignment;
  task_completion: DroidTaskCompletion;
  error_report: DroidErrorReport;
  status_update: DroidStatusUpdate;
  coordination_request: DroidCoordinationRequest;
  file_reservation: DroidFileReservation;
}

/** Any message of the `droid` family. */
export type DroidMessage = DroidTypes[keyof DroidTypes];

// ---- pair-claude (Pair Claude tool calls and records 1.0.0) ----

/**
 * Navigator approves a pending permission request.
 *
 * `pair-claude/navigatorApprove` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeNavigatorApprove {
  name: "navigatorApprove" | "mcp__navigator__navigatorApprove" | "pair-navigator_navigatorApprove";
  arguments: {
    requestId?: string;
    comment: string;
  };
}

/**
 * Navigator denies a pending permission request.
 *
 * `pair-claude/navigatorDeny` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeNavigatorDeny {
  name: "navigatorDeny" | "mcp__navigator__navigatorDeny" | "pair-navigator_navigatorDeny";
  arguments: {
    requestId?: string;
    comment: string;
  };
}

/**
 * Navigator reviews the driver's work; pass ends the session.
 *
 * `pair-claude/navigatorCodeReview` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeNavigatorCodeReview {
  name: "navigatorCodeReview" | "mcp__navigator__navigatorCodeReview" | "pair-navigator_navigatorCodeReview";
  arguments: {
    comment: string;
    pass: boolean;
  };
}

/**
 * Driver asks the navigator for a review.
 *
 * `pair-claude/driverRequestReview` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeDriverRequestReview {
  name: "driverRequestReview" | "mcp__driver__driverRequestReview" | "pair-driver_driverRequestReview";
  arguments: {
    context?: string;
  };
}

/**
 * Driver asks the navigator for guidance.
 *
 * `pair-claude/driverRequestGuidance` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeDriverRequestGuidance {
  name: "driverRequestGuidance" | "mcp__driver__driverRequestGuidance" | "pair-driver_driverRequestGuidance";
  arguments: {
    context: string;
  };
}

/**
 * The command the orchestrator derives from a navigator tool call.
 *
 * `pair-claude/NavigatorCommand` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeNavigatorCommand {
  type: "code_review" | "approve" | "deny";
  comment?: string;
  pass?: boolean;
  requestId?: string;
}

/**
 * The command the orchestrator derives from a driver tool call.
 *
 * `pair-claude/DriverCommand` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeDriverCommand {
  type: "request_review" | "request_guidance";
  context?: string;
}

/**
 * A driver's file-modifying tool use, sent to the navigator for approval.
 *
 * `pair-claude/PermissionRequest` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudePermissionRequest {
  requestId?: string;
  driverTranscript: string;
  /** Non-empty. */
  toolName: string;
  input: Record<string, unknown>;
  toolId?: string;
}

/**
 * The navigator's approval of a permission request.
 *
 * `pair-claude/PermissionResult@allowed` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudePermissionResultAllowed {
  allowed: true;
  updatedInput: Record<string, unknown>;
  comment?: string;
}

/**
 * The navigator's denial of a permission request.
 *
 * `pair-claude/PermissionResult@denied` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudePermissionResultDenied {
  allowed: false;
  /** Non-empty. */
  reason: string;
}

/**
 * The SDK canUseTool answer that lets the driver's tool run.
 *
 * `pair-claude/CanUseToolResult@allow` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeCanUseToolResultAllow {
  behavior: "allow";
  updatedInput: Record<string, unknown>;
}

/**
 * The SDK canUseTool answer that blocks the driver's tool.
 *
 * `pair-claude/CanUseToolResult@deny` (Pair Claude tool calls and records 1.0.0).
 */
export interface PairClaudeCanUseToolResultDeny {
  behavior: "deny";
  /** Non-empty. */
  message: string;
}

/** The message types of the `pair-claude` family, by registry name. */
export interface PairClaudeTypes {
  navigatorApprove: PairClaudeNavigatorApprove;
  navigatorDeny: PairClaudeNavigatorDeny;
  navigatorCodeReview: PairClaudeNavigatorCodeReview;
  driverRequestReview: PairClaudeDriverRequestReview;
  driverRequestGuidance: PairClaudeDriverRequestGuidance;
  NavigatorCommand: PairClaudeNavigatorCommand;
  DriverCommand: PairClaudeDriverCommand;
  PermissionRequest: PairClaudePermissionRequest;
  "PermissionResult@allowed": PairClaudePermissionResultAllowed;
  "PermissionResult@denied": PairClaudePermissionResultDenied;
  "CanUseToolResult@allow": PairClaudeCanUseToolResultAllow;
  "CanUseToolResult@deny": PairClaudeCanUseToolResultDeny;
}

/** Any message of the `pair-claude` family. */
export type PairClaudeMessage = PairClaudeTypes[keyof PairClaudeTypes];

// ---- all families ----

/** The message types of each family, by registry name. */
export interface FamilyTypes {
  pair: PairTypes;
  "agent-po": AgentPoTypes;
  droid: DroidTypes;
  "pair-claude": PairClaudeTypes;
}

/** Every message type, keyed `family/TYPE`. */
export interface MessageTypes {
  "pair/PAIR_INIT": PairPairInit;
  "pair/CLARIFICATION_REQUEST": PairClarificationRequest;
  "pair/CLARIFICATION_RESPONSE": PairClarificationResponse;
  "pair/CONTRACT_DRAFT": PairContractDraft;
  "pair/CONTRACT_FINAL": PairContractFinal;
  "pair/BUILD_COMPLETE": PairBuildComplete;
  "pair/CHANGE_ORDER": PairChangeOrder;
  "pair/CHANGE_ORDER_ACCEPTED": PairChangeOrderAccepted;
  "pair/CHANGE_ORDER_REJECTED": PairChangeOrderRejected;
  "pair/BUILD_REJECTED": PairBuildRejected;
  "pair/CONTRACT_REVISION_REQUESTED": PairContractRevisionRequested;
  "pair/SESSION_COMPLETE": PairSessionComplete;
  "pair/SESSION_ABORT": PairSessionAbort;
  "pair/TIMEOUT_WARNING": PairTimeoutWarning;
  "pair/AUDIT_REPORT": PairAuditReport;
  "agent-po/PLAN_SUBMISSION": AgentPoPlanSubmission;
  "agent-po/PROGRESS_UPDATE": AgentPoProgressUpdate;
  "agent-po/COMPLETION_REPORT": AgentPoCompletionReport;
  "agent-po/BLOCKED_NOTIFICATION@agent": AgentPoBlockedNotificationAgent;
  "agent-po/BLOCKED_NOTIFICATION@po": AgentPoBlockedNotificationPo;
  "agent-po/GO_DIRECTIVE": AgentPoGoDirective;
  "agent-po/FEEDBACK": AgentPoFeedback;
  "agent-po/NEXT_DIRECTIVE": AgentPoNextDirective;
  "agent-po/FIX_DIRECTIVE": AgentPoFixDirective;
  "agent-po/TERMINATE_DIRECTIVE": AgentPoTerminateDirective;
  "agent-po/ERROR": AgentPoError;
  "droid/task_assignment": DroidTaskAssignment;
  "droid/task_completion": DroidTaskCompletion;
  "droid/error_report": DroidErrorReport;
  "droid/status_update": DroidStatusUpdate;
  "droid/coordination_request": DroidCoordinationRequest;
  "droid/file_reservation": DroidFileReservation;
  "pair-claude/navigatorApprove": PairClaudeNavigatorApprove;
  "pair-claude/navigatorDeny": PairClaudeNavigatorDeny;
  "pair-claude/navigatorCodeReview": PairClaudeNavigatorCodeReview;
  "pair-claude/driverRequestReview": PairClaudeDriverRequestReview;
  "pair-claude/driverRequestGuidance": PairClaudeDriverRequestGuidance;
  "pair-claude/NavigatorCommand": PairClaudeNavigatorCommand;
  "pair-claude/DriverCommand": PairClaudeDriverCommand;
  "pair-claude/PermissionRequest": PairClaudePermissionRequest;
  "pair-claude/PermissionResult@allowed": PairClaudePermissionResultAllowed;
  "pair-claude/PermissionResult@denied": PairClaudePermissionResultDenied;
  "pair-claude/CanUseToolResult@allow": PairClaudeCanUseToolResultAllow;
  "pair-claude/CanUseToolResult@deny": PairClaudeCanUseToolResultDeny;
}

/** A `family/TYPE` key, as `jsonSchema` and `switchboard schema` take. */
export type MessageKey = keyof MessageTypes;

/** A message type's registry name (`PAIR_INIT`, `BLOCKED_NOTIFICATION@po`, `task_assignment`). */
export type MessageTypeName = { [F in Family]: keyof FamilyTypes[F] }[Family];

/** Any message of family `F`. */
export type FamilyMessage<F extends Family> = FamilyTypes[F][keyof FamilyTypes[F]];

/** Any protocol message. */
export type Message = MessageTypes[MessageKey];

// ---- results of this package ----

/** Options of `validate`, `validateJson`, `validateBytes` and `validateBatch`. */
export interface ValidateOptions {
  /** Skip family detection and validate as this family (the CLI's `--family`). */
  family?: Family;
  /** Lenient mode: the seeds' documented deviations become warnings (the CLI's `--lenient`). */
  lenient?: boolean;
}

/** One finding, exactly as `switchboard validate` prints it. */
export interface Issue {
  /** Where: an RFC 6901 JSON Pointer into the (carried) message; `""` is the whole message. */
  path: string;
  /** What, as a stable code. */
  code: IssueCode;
  /** A human-readable explanation. */
  message: string;
  /** `error`, or `warning` for a deviation lenient mode accepts. */
  severity: Severity;
}

/**
 * The result of validating one message: `switchboard validate`'s report with `message_type`
 * spelled `messageType`.
 */
export interface Report {
  /** No issue of severity `error` (warnings never invalidate). */
  valid: boolean;
  /** The detected or hinted family, also when the message type is unknown. */
  family: Family | null;
  /** The registry name of the detected message type. */
  messageType: MessageTypeName | null;
  /** The version the message declares when well-formed, else the family version modeled. */
  version: string | null;
  /** Every issue found, errors and warnings, in registry order. */
  issues: Issue[];
}

/** One report of `validateBatch`: the input line (1-based, blank lines counted), then the report. */
export interface LineReport extends Report {
  /** The input line the message is on. */
  line: number;
}

/**
 * An issue as the schema objects give it (Standard Schema and `safeParse`): `path` is the list
 * of segments Standard Schema asks for (member names and array indexes), `pointer` the same
 * place as the JSON Pointer string that `Issue.path` holds.
 */
export interface SchemaIssue {
  /** Where, as segments: strings for member names, numbers for array indexes. */
  path: Array<string | number>;
  /** Where, as an RFC 6901 JSON Pointer. */
  pointer: string;
  /** What, as a stable code. */
  code: IssueCode;
  /** A human-readable explanation. */
  message: string;
  /** `error`, or `warning` for a deviation lenient mode accepts. */
  severity: Severity;
}

// ---- the Agent Mail pane (doctor-agent-mail-pane-v1 wire names) ----

/** One normalized message row. */
export interface PaneMessageItem {
  id: number;
  subject: string;
  from: string;
  created_ts: string;
  importance: string;
  ack_required: boolean;
  acknowledged: boolean;
  thread_id: string | null;
  /** `received` for inbox rows; the row's `delivery_status` (default `sent`) for outbox rows. */
  delivery_status: string;
  direction: "inbox" | "outbox";
}

/** One normalized contact row. */
export interface PaneContactItem {
  peer: string;
  status: string;
  reason: string;
  updated_ts: string;
  expires_ts: string | null;
}

/** One structured pane event. */
export interface PaneEvent {
  event_kind: PaneEventKind;
  source: "inbox" | "outbox" | "contacts" | "thread" | "snapshot";
  message_id: number | null;
  thread_id: string | null;
  message: string;
}

/** A `doctor-agent-mail-pane-v1` snapshot, as `switchboard pane` prints it. */
export interface PaneSnapshot {
  schema_version: string;
  thread_filter_mode: PaneMode;
  active_thread: string | null;
  refresh_fingerprint: string;
  inbox: PaneMessageItem[];
  outbox: PaneMessageItem[];
  thread_messages: PaneMessageItem[];
  contacts: PaneContactItem[];
  pending_ack_count: number;
  replay_commands: string[];
  parse_errors: string[];
  events: PaneEvent[];
}

/** The sizes of a snapshot (`buildPaneSummary`). */
export interface PaneSummary {
  inbox: number;
  outbox: number;
  threadMessages: number;
  contacts: number;
  pendingAckCount: number;
  events: number;
  parseErrors: string[];
  refreshFingerprintBytes: number;
}

/** One step of the reference smoke workflow. */
export interface PaneWorkflowStep {
  step_id: string;
  action: string;
  snapshot: PaneSnapshot;
}

/** The reference smoke workflow transcript, as `switchboard pane-smoke` prints it. */
export interface PaneTranscript {
  scenario_id: string;
  steps: PaneWorkflowStep[];
}

/** A thread filter mode of the pane contract. */
export type PaneMode = "ack_required" | "all" | "thread_only" | "unacked_only";

/** An event kind of the pane contract's taxonomy. */
export type PaneEventKind =
  | "ack_transition"
  | "command_invoked"
  | "contact_attention_required"
  | "delivery_failure"
  | "parse_failure"
  | "snapshot_built"
  | "thread_continuity_gap"
  | "thread_view_updated";

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

/** A Pair Protocol phase. */
export type PairPhase =
  | "CLARIFICATION"
  | "CLARIFICATION_COMPLETE"
  | "CONTRACT_GENERATION"
  | "CONTRACT_FINALIZED"
  | "BUILD_BLOCKED"
  | "CONTRACT_REVISED"
  | "CHANGE_ORDER_REJECTED"
  | "BUILD_COMPLETE"
  | "BUILD_REJECTED"
  | "MERGED"
  | "ABORTED";

/** A rule a session message can break. */
export type ViolationCode =
  | "invalid_message"
  | "out_of_order"
  | "wrong_role"
  | "after_end"
  | "checkpoint_skipped"
  | "contract_tampered"
  | "bad_fingerprints"
  | "limit_exceeded"
  | "role_conflict"
  | "artifact_outside_folder"
  | "invalid_agent"
  | "test_syntax_error"
  | "wrong_recipient"
  | "premature"
  | "missing"
  | "late"
  | "gate_breached"
  | "out_of_scope"
  | "audit_failed"
  | "artifact_reused"
  | "direct_message"
  | "duplicate_id"
  | "bad_value"
  | "reservation_conflict"
  | "unanswered";

/** The id of the audit pattern a finding comes from. */
export type AuditPattern =
  | "contract-test-edited"
  | "test-syntax-error"
  | "env-test-detection"
  | "test-runner-detection"
  | "cfg-test-item"
  | "assertion-mocked"
  | "hardcoded-test-expectation"
  | "clock-override"
  | "skipped-test"
  | "new-dependency"
  | "new-import"
  | "safety-check-removed"
  | "empty-error-handler"
  | "result-discarded";

/** One of the Pair Protocol's three human checkpoints. */
export type Checkpoint =
  | "contract_review"
  | "implementation_review"
  | "change_order_review";

/** A decision a reviewer takes at a checkpoint (what they type starts with it). */
export type DecisionKeyword =
  | "APPROVED"
  | "REVISE"
  | "ABORT"
  | "MERGE APPROVED"
  | "REJECT"
  | "ACCEPT CHANGE"
  | "REJECT CHANGE";

/** The stable code of a `SwitchboardError` (a refusal of the core). */
export type SwitchboardErrorCode =
  | "bad_log"
  | "empty_log"
  | "unknown_session"
  | "unknown_decision"
  | "decision_not_allowed"
  | "missing_text"
  | "unexpected_text"
  | "no_open_checkpoint"
  | "checkpoint_not_open"
  | "unknown_roles"
  | "not_json"
  | "invalid_message"
  | "bad_task"
  | "wrong_message"
  | "task_mismatch"
  | "bad_path"
  | "bad_fingerprints"
  | "bad_files"
  | "not_a_diff"
  | "malformed_diff"
  | "bad_time"
  | "unknown_key"
  | "not_an_object"
  | "conflict"
  | "missing_option"
  | "message_valid"
  | "no_error_reply"
  | "bad_report"
  | "bad_agents"
  | "bad_baseline";

// ---- conformance ----

/** A rule's outcome for one agent: decided and held (`pass`), broken (`fail`: a MUST rule;
 *  `warning`: a SHOULD rule, or a MUST rule only in a way lenient mode accepts), applying but
 *  impossible to decide from the log and options (`not_tested`: never counted as a pass), or
 *  given no occasion by the agent's messages (`not_applicable`). */
export type ConformanceStatus = "pass" | "fail" | "warning" | "not_tested" | "not_applicable";

/** How strongly the seed states a rule. */
export type ConformanceLevel = "MUST" | "SHOULD";

/** A message a rule looked at. */
export interface ConformanceMessage {
  /** Its position in the log (0-based). */
  entry?: number;
  /** The Agent Mail id. */
  id?: number;
  /** The droid `message_id`. */
  message_id?: string;
  /** The file of an Agent-PO messages directory it was read from. */
  path?: string;
}

/** One rule of the seeds for one agent. */
export interface ConformanceRule {
  /** The rule's stable id (`<seed>.<section>.<rule>`). */
  id: ConformanceRuleId;
  /** The seed: `000` Pair Protocol, `002` Agent-PO, `003` Pair Claude, `004` droid formats. */
  seed: "000" | "002" | "003" | "004";
  /** The seed's section. */
  section: string;
  level: ConformanceLevel;
  /** The seed's words, verbatim. */
  quote: string;
  status: ConformanceStatus;
  /** The checks that decide it. */
  checks: ConformanceCheckId[];
  /** The checks whose findings broke it (fail, warning). */
  broken_by?: ConformanceCheckId[];
  /** The messages that break it (fail, warning), else the first 20 it applied to. */
  messages: ConformanceMessage[];
  /** How many of the agent's messages it applied to. */
  applied: number;
  /** What broke it, in the validator's and the session engine's words (secrets masked). */
  details?: string[];
  /** Why it could not be decided (`not_tested`). */
  untested?: string[];
}

/** One family's rules for one agent (`any`: the rules held to every mail). */
export interface ConformanceFamily {
  family: "any" | "pair" | "agent-po" | "droid" | "pair-claude";
  /** The most telling status of its rules. */
  level: ConformanceStatus;
  rules: ConformanceRule[];
}

/** How many rules of a level applied to an agent, and how they came out. */
export interface ConformanceTally {
  /** Rules that applied (every status but `not_applicable`). */
  applicable: number;
  /** Rules actually decided (`pass`, `warning`, `fail`). */
  tested: number;
  pass: number;
  warning: number;
  fail: number;
  not_tested: number;
}

/** One agent (a sender of the log) and how it follows the protocols. */
export interface ConformanceAgent {
  /** The sender's name (`(unknown sender)` for messages without one). */
  agent: string;
  /** Whether it is registered (when `agents` was given). */
  registered?: boolean;
  /** Where the name came from: the mail, inferred from the messages' own fields (a log
   *  without envelopes), both, or nowhere. */
  attribution: "mail" | "inferred" | "mixed" | "unknown";
  /** The most telling status of its rules: `fail`, then `warning`, `pass`, `not_tested`. */
  level: ConformanceStatus;
  /** How many of its rules have each status. */
  counts: Partial<Record<ConformanceStatus, number>>;
  /** Its MUST rules: how many applied and were actually tested. */
  must: ConformanceTally;
  /** Its SHOULD rules. */
  should: ConformanceTally;
  /** `any` first, then each family it took part in. */
  families: ConformanceFamily[];
}

/** An expected failure of a baseline: an agent (`*`: any) and a rule (or a check). */
export interface ConformanceExpected {
  agent: string;
  id: ConformanceRuleId | ConformanceCheckId;
}

/** A report compared with its baseline. */
export interface ConformanceBaselineResult {
  /** Failures the baseline lists. */
  expected: ConformanceExpected[];
  /** Failures it does not list: the log does not conform. */
  new_failures: ConformanceExpected[];
  /** Listed failures that now pass or only warn: the baseline is stale (the log does not conform). */
  stale: ConformanceExpected[];
  /** Listed failures this log does not exercise or could not test: reported only. */
  unused: ConformanceExpected[];
}

/** The conformance report of a message log, as `switchboard conformance --compact` prints it. */
export interface ConformanceReport {
  /** When the log was judged (what was late or missing then): `now`, else its last message. */
  judged_at?: string;
  /** Every agent, by name. */
  agents: ConformanceAgent[];
  /** Per level, summed over agents; and how many rules of the seeds no message can show. */
  totals: { must: ConformanceTally; should: ConformanceTally; exempt: number };
  /** Per rule that applied to some agent (matrix order): how many agents pass, warn, fail, or
   *  could not be tested on it. */
  rules: { id: ConformanceRuleId; level: ConformanceLevel; pass: number; warning: number; fail: number; not_tested: number }[];
  /** The comparison with the baseline, when one was given. */
  baseline?: ConformanceBaselineResult;
  /** No failure; with a baseline: no failure it does not list and no listed failure that
   *  passes. Rules not tested do not fail a log: the tallies say how many there were. */
  conforms: boolean;
}

/** The stable id of a rule of the seeds (docs/conformance.md). */
export type ConformanceRuleId =
  | "000.structure.json"
  | "000.structure.recipient"
  | "000.structure.subject"
  | "000.structure.phase"
  | "000.structure.status"
  | "000.pair-init.sender"
  | "000.pair-init.recipient"
  | "000.pair-init.purpose"
  | "000.pair-init.protocol-version"
  | "000.pair-init.roles"
  | "000.pair-init.members"
  | "000.contract-draft.sender"
  | "000.contract-draft.recipient"
  | "000.contract-draft.review"
  | "000.contract-draft.members"
  | "000.contract-final.sender"
  | "000.contract-final.recipient"
  | "000.contract-final.immutable"
  | "000.contract-final.members"
  | "000.build-complete.sender"
  | "000.build-complete.recipient"
  | "000.build-complete.all-pass"
  | "000.build-complete.members"
  | "000.change-order.sender"
  | "000.change-order.recipient"
  | "000.change-order.purpose"
  | "000.change-order.members"
  | "000.change-order-accepted.sender"
  | "000.change-order-accepted.recipient"
  | "000.change-order-accepted.updated-contract"
  | "000.change-order-accepted.members"
  | "000.change-order-rejected.sender"
  | "000.change-order-rejected.recipient"
  | "000.change-order-rejected.strategy"
  | "000.change-order-rejected.members"
  | "000.session-complete.sender"
  | "000.session-complete.recipient"
  | "000.session-complete.purpose"
  | "000.session-complete.members"
  | "000.session-abort.sender"
  | "000.session-abort.recipient"
  | "000.session-abort.members"
  | "000.timeout-warning.sender"
  | "000.timeout-warning.recipient"
  | "000.timeout-warning.purpose"
  | "000.timeout-warning.max-warnings"
  | "000.timeout-warning.members"
  | "000.pattern-1.init"
  | "000.pattern-1.draft"
  | "000.pattern-1.contract-review"
  | "000.pattern-1.final"
  | "000.pattern-1.build"
  | "000.pattern-1.audit"
  | "000.pattern-1.implementation-review"
  | "000.pattern-1.merge"
  | "000.pattern-1.complete"
  | "000.pattern-2.attempts"
  | "000.pattern-2.change-order"
  | "000.pattern-2.change-order-review"
  | "000.pattern-2.update-contract"
  | "000.pattern-2.accepted"
  | "000.pattern-2.retry"
  | "000.pattern-3.change-order-review"
  | "000.pattern-3.rejected"
  | "000.pattern-3.retry"
  | "000.pattern-4.abort"
  | "000.pattern-4.detect"
  | "000.pattern-4.cleanup"
  | "000.pattern-4.exit"
  | "000.timeout.pair-init"
  | "000.timeout.contract-final"
  | "000.timeout.build-complete"
  | "000.timeout.change-order"
  | "000.timeout.second-warning"
  | "000.error.invalid-agent"
  | "000.error.message-timeout"
  | "000.error.contract-tampered"
  | "000.error.scheming-detected"
  | "000.error.dependency-violation"
  | "000.error.test-syntax-error"
  | "000.practice.planner-specific"
  | "000.practice.planner-malicious"
  | "000.practice.planner-assumptions"
  | "000.practice.planner-examples"
  | "000.practice.builder-tests"
  | "000.practice.builder-fail-fast"
  | "000.practice.builder-change-orders"
  | "000.practice.builder-no-shortcuts"
  | "000.practice.communicate-early"
  | "000.practice.trust-protocol"
  | "000.practice.clean-exit"
  | "000.practice.keep-artifacts"
  | "000.checkpoint-1.when"
  | "000.checkpoint-1.purpose"
  | "000.checkpoint-1.revise"
  | "000.checkpoint-1.actions"
  | "000.checkpoint-2.when"
  | "000.checkpoint-2.purpose"
  | "000.checkpoint-2.reject"
  | "000.checkpoint-2.merge"
  | "000.checkpoint-3.when"
  | "000.checkpoint-3.purpose"
  | "000.checkpoint-3.accept"
  | "000.checkpoint-3.reject"
  | "000.checkpoint.abort"
  | "000.artifacts.format"
  | "000.artifacts.contract-immutable"
  | "000.artifacts.audit-report"
  | "000.artifacts.spec-draft"
  | "000.artifacts.tests-immutable"
  | "000.artifacts.safety-reasoning"
  | "000.commands.register"
  | "000.commands.pseudo"
  | "000.security.test-immutability"
  | "000.security.fingerprints-in-mail"
  | "000.security.artifact-isolation"
  | "000.security.audit-trail"
  | "000.security.dependency-locking"
  | "000.security.scheming-detection"
  | "000.troubleshooting.registered"
  | "000.troubleshooting.case-sensitive"
  | "000.version"
  | "002.version"
  | "002.overview.structured"
  | "002.flow.plan-answer"
  | "002.flow.report-answer"
  | "002.flow.acknowledgment"
  | "002.agent.sides"
  | "002.agent.plan-before-go"
  | "002.agent.progress-every-5-min"
  | "002.agent.report-after-implementation"
  | "002.agent.blocked"
  | "002.po.sides"
  | "002.po.feedback"
  | "002.po.next"
  | "002.po.fix"
  | "002.po.blocked"
  | "002.po.terminate"
  | "002.plan.members"
  | "002.plan.revision"
  | "002.progress.members"
  | "002.progress.files"
  | "002.report.members"
  | "002.report.files"
  | "002.blocked.members"
  | "002.go.members"
  | "002.go.validated"
  | "002.go.authorized-files"
  | "002.go.timeout"
  | "002.feedback.members"
  | "002.feedback.max-revisions"
  | "002.feedback.current-revision"
  | "002.next.members"
  | "002.next.tests-passed"
  | "002.fix.members"
  | "002.fix.retry"
  | "002.terminate.members"
  | "002.persistence.layout"
  | "002.persistence.active"
  | "002.persistence.completed"
  | "002.persistence.archive"
  | "002.validation.before-processing"
  | "002.validation.required-fields"
  | "002.validation.message-type"
  | "002.validation.matching-ids"
  | "002.validation.timestamp"
  | "002.error.response"
  | "002.error.original-type"
  | "002.error.resubmit"
  | "003.overview.roles"
  | "003.overview.sessions"
  | "003.architecture.navigator-tools"
  | "003.architecture.driver-tools"
  | "003.review.request"
  | "003.review.answered"
  | "003.review.result"
  | "003.review.feedback"
  | "003.permission.tools"
  | "003.permission.decision"
  | "003.permission.result"
  | "003.permission.allow"
  | "003.permission.deny"
  | "003.isolation.context"
  | "003.isolation.tools-only"
  | "003.isolation.no-direct"
  | "003.mediation.orchestrator"
  | "003.mediation.translation"
  | "003.mediation.timing"
  | "003.semantics.navigator"
  | "003.semantics.driver"
  | "003.flow.permission-sync"
  | "003.flow.review-async"
  | "003.extensibility.endpoints"
  | "003.extensibility.vocabulary"
  | "003.extensibility.user-messages"
  | "003.extensibility.schemas"
  | "003.env.tool-timeout"
  | "003.env.permission-timeout"
  | "003.env.navigator-turns"
  | "003.env.driver-turns"
  | "003.files"
  | "004.overview.conform"
  | "004.common.version"
  | "004.common.timestamp"
  | "004.common.sender-id"
  | "004.common.message-id"
  | "004.common.type"
  | "004.assignment.delegate"
  | "004.assignment.task-id"
  | "004.assignment.description"
  | "004.assignment.specification"
  | "004.assignment.acceptance-criteria"
  | "004.assignment.file-patterns"
  | "004.assignment.priority"
  | "004.assignment.priority-value"
  | "004.assignment.deadline"
  | "004.assignment.scope"
  | "004.completion.notify"
  | "004.completion.task-id"
  | "004.completion.status"
  | "004.completion.summary"
  | "004.completion.files-modified"
  | "004.completion.test-results"
  | "004.completion.errors"
  | "004.completion.partial"
  | "004.completion.blocked"
  | "004.error-report.task-id"
  | "004.error-report.severity"
  | "004.error-report.error"
  | "004.error-report.code"
  | "004.error-report.message"
  | "004.error-report.reproduction"
  | "004.error-report.human"
  | "004.status.purpose"
  | "004.status.update-types"
  | "004.status.task-id"
  | "004.status.update-type"
  | "004.status.summary"
  | "004.status.percentage"
  | "004.status.blockers"
  | "004.coordination.purpose"
  | "004.coordination.request-types"
  | "004.reservation.purpose"
  | "004.reservation.modes"
  | "004.invalid.reject"
  | "004.invalid.correlate"
  | "004.invalid.notify"
  | "004.unknown.respond"
  | "004.unknown.correlate"
  | "004.unknown.log"
  | "004.version.current"
  | "004.version.format"
  | "004.version.major"
  | "004.version.sender"
  | "004.version.check"
  | "004.version.mismatch"
  | "004.security.authentication"
  | "004.security.authorization"
  | "004.security.sanitization"
  | "004.security.secrets"
  | "004.security.audit-trail"
  | "004.practice.uuid"
  | "004.practice.utc"
  | "004.practice.concise"
  | "004.practice.structured"
  | "004.practice.error-reports"
  | "004.practice.acknowledge"
  | "004.practice.edge-cases"
  | "004.checklist.constants"
  | "004.checklist.validate-outgoing"
  | "004.checklist.validate-incoming"
  | "004.checklist.handle-invalid"
  | "004.checklist.required"
  | "004.checklist.types"
  | "004.checklist.uuids"
  | "004.checklist.utc"
  | "004.checklist.error-reports"
  | "004.checklist.acknowledge"
  | "004.overview.json";

/** The stable id of a conformance check (docs/conformance.md, "The checks"). */
export type ConformanceCheckId =
  | "any.json"
  | "any.known-message"
  | "any.secret-in-message"
  | "any.registered-agent"
  | "pair.message.type"
  | "pair.init.protocol-version"
  | "pair.init.roles"
  | "pair.init.role-conflict"
  | "pair.message.required-fields"
  | "pair.message.schema"
  | "pair.message.phase-current"
  | "pair.timeout.warning-recipient"
  | "pair.recipient.role"
  | "pair.role.sender"
  | "pair.checkpoint.contract-before-final"
  | "pair.order.phase"
  | "pair.contract.immutable-tests"
  | "pair.contract.fingerprints"
  | "pair.contract.fingerprinted"
  | "pair.contract.tests-parse"
  | "pair.change-order.new-contract"
  | "pair.artifacts.isolated"
  | "pair.timeout.warnings"
  | "pair.timeout.warning-premature"
  | "pair.timeout.init-answered"
  | "pair.timeout.warning-missing"
  | "pair.timeout.abort-missing"
  | "pair.timeout.late-response"
  | "pair.audit.before-merge"
  | "pair.audit.merge-after-fail"
  | "pair.audit.tamper-critical"
  | "pair.audit.clean-build"
  | "pair.session.after-end"
  | "agent-po.message.type"
  | "agent-po.message.required-fields"
  | "agent-po.message.ids"
  | "agent-po.message.timestamp"
  | "agent-po.message.schema"
  | "agent-po.role.sender"
  | "agent-po.recipient.role"
  | "agent-po.gate.go"
  | "agent-po.gate.next"
  | "agent-po.gate.issues-listed"
  | "agent-po.gate.counts"
  | "agent-po.plan.revision-sequence"
  | "agent-po.scope.authorized-files"
  | "agent-po.timeout.report"
  | "agent-po.progress.cadence"
  | "agent-po.error.invalid-answered"
  | "agent-po.error.resubmitted"
  | "agent-po.ack.acknowledged"
  | "agent-po.order.lifecycle"
  | "agent-po.limits.revisions-and-retries"
  | "agent-po.task.after-end"
  | "agent-po.persistence.layout"
  | "droid.message.type"
  | "droid.common.version"
  | "droid.common.timestamp-utc"
  | "droid.common.message-id-uuid"
  | "droid.common.message-id-unique"
  | "droid.common.required-fields"
  | "droid.message.required-fields"
  | "droid.task.priority-consistent"
  | "droid.message.schema"
  | "droid.sender.authorized"
  | "droid.assignment.recipient"
  | "droid.task.deadline"
  | "droid.task.scope"
  | "droid.completion.blocked-reported"
  | "droid.completion.partial-documented"
  | "droid.error.invalid-answered"
  | "droid.error.unknown-answered"
  | "droid.error.version-answered"
  | "droid.reservation.conflict"
  | "droid.ack.acknowledged"
  | "droid.coordination.participants"
  | "droid.order.lifecycle"
  | "pair-claude.message.type"
  | "pair-claude.message.schema"
  | "pair-claude.role.tool"
  | "pair-claude.permission.tools"
  | "pair-claude.permission.result-matches"
  | "pair-claude.permission.sync"
  | "pair-claude.permission.in-order"
  | "pair-claude.permission.answered"
  | "pair-claude.review.answered"
  | "pair-claude.isolation.no-direct"
  | "pair-claude.turns.navigator-max"
  | "pair-claude.turns.driver-max";
