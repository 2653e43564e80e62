//! Seed 002, the Agent-PO Message Protocol 20.0: its rules, in the seed's order.

use super::{Level, Of, Rule, Seed};
use Level::{Must, Should};

const S: Of = Of(Seed::AgentPo);

const MEMBERS: &[&str] = &[
    "agent-po.message.required-fields",
    "agent-po.message.schema",
];
const SIDES: &[&str] = &["agent-po.role.sender", "agent-po.recipient.role"];

#[rustfmt::skip]
pub(super) static RULES: &[Rule] = &[
    S.not_mail("002.version", Must, "Agent-PO Message Protocol", "**Version:** 20.0", "No Agent-PO message carries a version (protocol-notes §5.2): the family's version is fixed by configuration."),
    S.must("002.overview.structured", "Overview", "Task Agents communicate with the Product Owner through structured messages.", &["agent-po.message.type", "agent-po.message.schema", "agent-po.role.sender"]),

    // Message Flow
    S.must("002.flow.plan-answer", "Message Flow", "◄────────       GO_DIRECTIVE", &["agent-po.order.lifecycle"]).about(&["GO_DIRECTIVE", "FEEDBACK"])
        .note("The flow answers PLAN_SUBMISSION with GO_DIRECTIVE or FEEDBACK, COMPLETION_REPORT with NEXT_DIRECTIVE, FIX_DIRECTIVE or BLOCKED_NOTIFICATION: a directive with nothing of the agent's to answer is out of order."),
    S.must("002.flow.report-answer", "Message Flow", "◄────────       NEXT_DIRECTIVE", &["agent-po.order.lifecycle"]).about(&["NEXT_DIRECTIVE", "FIX_DIRECTIVE"]),

    S.should("002.flow.acknowledgment", "Message Flow", "◄────────       (acknowledgment)", &["agent-po.ack.acknowledged"]).about(&["PROGRESS_UPDATE", "BLOCKED_NOTIFICATION"])
        .note("The PO acknowledges the agent's PROGRESS_UPDATE and BLOCKED_NOTIFICATION with Agent Mail's acknowledgement; decided where the mail asked for one (ack_required) and the log shows acknowledgements (an inbox read), not tested otherwise."),

    // Message Types: Agent to PO
    S.must("002.agent.sides", "Message Types: Agent to PO", "| Type | Purpose | When Sent |", SIDES).about(&["PLAN_SUBMISSION", "PROGRESS_UPDATE", "COMPLETION_REPORT", "BLOCKED_NOTIFICATION"])
        .note("The two tables say who sends each type: the task agent (agent_id) sends the first four, the PO the six directives. In a log without envelopes, the sender is inferred that way."),
    S.must("002.agent.plan-before-go", "Message Types: Agent to PO", "| PLAN_SUBMISSION | Submit implementation plan | Before GO |", &["agent-po.order.lifecycle"]).about(&["PLAN_SUBMISSION", "GO_DIRECTIVE"]),
    S.must("002.agent.progress-every-5-min", "Message Types: Agent to PO", "| PROGRESS_UPDATE | Report current status | Every 5 min |", &["agent-po.progress.cadence"]).about(&["GO_DIRECTIVE", "FIX_DIRECTIVE", "PROGRESS_UPDATE"])
        .note("Held while the agent works: from GO (or FIX) to its COMPLETION_REPORT, no gap of more than 5 minutes without a PROGRESS_UPDATE, judged at each message and at the time the log is judged. Before GO the agent waits on the PO, after its report on the PO again; the seed's cadence is about the work."),
    S.must("002.agent.report-after-implementation", "Message Types: Agent to PO", "| COMPLETION_REPORT | Report task completion | After implementation |", &["agent-po.order.lifecycle"]).about(&["COMPLETION_REPORT"]),
    S.must("002.agent.blocked", "Message Types: Agent to PO", "| BLOCKED_NOTIFICATION | Report blocker | When stuck |", &["agent-po.message.schema", "agent-po.task.after-end"]).about(&["BLOCKED_NOTIFICATION"]),

    // Message Types: PO to Agent
    S.must("002.po.sides", "Message Types: PO to Agent", "| GO_DIRECTIVE | Authorize implementation | After plan validated |", &["agent-po.gate.go", "agent-po.role.sender", "agent-po.recipient.role"]).about(&["GO_DIRECTIVE"])
        .note("\"After plan validated\": a GO whose own validation says plan_validated false (or ac_coverage not complete, file_scope not verified), or a GO on a plan past the revision limit, breaches the gate."),
    S.must("002.po.feedback", "Message Types: PO to Agent", "| FEEDBACK | Request plan revision | If plan has issues |", &["agent-po.gate.issues-listed", "agent-po.order.lifecycle"]).about(&["FEEDBACK"]),
    S.must("002.po.next", "Message Types: PO to Agent", "| NEXT_DIRECTIVE | Approve completion | After report validated |", &["agent-po.gate.next"]).about(&["NEXT_DIRECTIVE"])
        .note("A report is validated when it passes the NEXT gate: every acceptance criterion PASS, no failing test, every changed file among GO's authorized_files. NEXT on a report that fails it, or whose own validation says otherwise, breaches the gate."),
    S.must("002.po.fix", "Message Types: PO to Agent", "| FIX_DIRECTIVE | Request fixes | If report has issues |", &["agent-po.gate.issues-listed", "agent-po.order.lifecycle"]).about(&["FIX_DIRECTIVE"]),
    S.must("002.po.blocked", "Message Types: PO to Agent", "| BLOCKED_NOTIFICATION | Mark task blocked | After max retries |", &["agent-po.limits.revisions-and-retries"]).about(&["FEEDBACK", "FIX_DIRECTIVE"])
        .note("Past max_revisions or retry.max the PO blocks the task instead of sending another FEEDBACK or FIX."),
    S.must("002.po.terminate", "Message Types: PO to Agent", "| TERMINATE_DIRECTIVE | End agent | Abort/cleanup |", &["agent-po.task.after-end"]),

    // Message Schemas
    S.must("002.plan.members", "PLAN_SUBMISSION", "\"ac_mapping\": [", MEMBERS).about(&["PLAN_SUBMISSION"]),
    S.must("002.plan.revision", "PLAN_SUBMISSION", "\"revision\": 1", &["agent-po.plan.revision-sequence"]).about(&["PLAN_SUBMISSION"])
        .note("The first plan is revision 1 and each resubmission after FEEDBACK the next."),
    S.must("002.progress.members", "PROGRESS_UPDATE", "\"progress_percent\": 50,", MEMBERS).about(&["PROGRESS_UPDATE"]),
    S.must("002.progress.files", "PROGRESS_UPDATE", "\"files_modified\": [", &["agent-po.scope.authorized-files"]).about(&["PROGRESS_UPDATE"])
        .note("Files the agent reports modifying after GO must be among GO's authorized_files."),
    S.must("002.report.members", "COMPLETION_REPORT", "\"ac_verification\": [", MEMBERS).about(&["COMPLETION_REPORT"]),
    S.must("002.report.files", "COMPLETION_REPORT", "\"files_changed\": [", &["agent-po.scope.authorized-files"]).about(&["COMPLETION_REPORT"]),
    S.must("002.blocked.members", "BLOCKED_NOTIFICATION (Agent)", "\"blocking_since\": \"ISO8601\"", MEMBERS).about(&["BLOCKED_NOTIFICATION"]),
    S.must("002.go.members", "GO_DIRECTIVE", "\"status\": \"GO\",", MEMBERS).about(&["GO_DIRECTIVE"]),
    S.must("002.go.validated", "GO_DIRECTIVE", "\"plan_validated\": true,", &["agent-po.gate.go"]).about(&["GO_DIRECTIVE"]),
    S.must("002.go.authorized-files", "GO_DIRECTIVE", "\"authorized_files\": [", &["agent-po.scope.authorized-files", "agent-po.gate.next"]).about(&["COMPLETION_REPORT", "PROGRESS_UPDATE", "NEXT_DIRECTIVE"]),
    S.must("002.go.timeout", "GO_DIRECTIVE", "\"timeout_minutes\": 30", &["agent-po.timeout.report"]).about(&["GO_DIRECTIVE"])
        .note("The agent's COMPLETION_REPORT (or BLOCKED_NOTIFICATION) is due within timeout_minutes of GO (30 when GO names none)."),
    S.must("002.feedback.members", "FEEDBACK", "\"status\": \"NEEDS_REVISION\",", MEMBERS).about(&["FEEDBACK"]),
    S.must("002.feedback.max-revisions", "FEEDBACK", "\"max_revisions\": 2,", &["agent-po.limits.revisions-and-retries", "agent-po.gate.go"]).about(&["FEEDBACK", "GO_DIRECTIVE"]),
    S.must("002.feedback.current-revision", "FEEDBACK", "\"current_revision\": 1", &["agent-po.gate.counts"]).about(&["FEEDBACK"])
        .note("current_revision is the revision of the plan the FEEDBACK answers."),
    S.must("002.next.members", "NEXT_DIRECTIVE", "\"status\": \"NEXT\",", MEMBERS).about(&["NEXT_DIRECTIVE"]),
    S.must("002.next.tests-passed", "NEXT_DIRECTIVE", "\"tests_passed\": true,", &["agent-po.gate.next"]).about(&["NEXT_DIRECTIVE"]),
    S.must("002.fix.members", "FIX_DIRECTIVE", "\"status\": \"FIX\",", MEMBERS).about(&["FIX_DIRECTIVE"]),
    S.must("002.fix.retry", "FIX_DIRECTIVE", "\"allowed\": true", &["agent-po.gate.counts", "agent-po.limits.revisions-and-retries"]).about(&["FIX_DIRECTIVE"])
        .note("retry.count is this FIX's number (1 for the first), retry.allowed says whether count is within max, and a FIX past max is over the limit."),
    S.must("002.terminate.members", "TERMINATE_DIRECTIVE", "\"reason\": \"abort\",", MEMBERS).about(&["TERMINATE_DIRECTIVE"]),

    // Message Persistence
    S.must("002.persistence.layout", "Message Persistence: Storage Location", "Messages are persisted for audit:", &["agent-po.persistence.layout"])
        .note("Decided when the messages directory is given (switchboard conformance DIR); not tested for a mail log."),
    S.must("002.persistence.active", "Message Persistence: Retention", "- Active task messages: Keep until task complete", &["agent-po.persistence.layout"])
        .note("A message file removed before its task completed shows as a gap in its type's numbering."),
    S.not_mail("002.persistence.completed", Must, "Message Persistence: Retention", "- Completed task messages: Keep for 7 days", "Whether files are deleted after seven days is a matter of time on disk: `switchboard session DIR` lists the files past retention for the operator; keeping them longer is not a breach."),
    S.not_mail("002.persistence.archive", Should, "Message Persistence: Retention", "- Archive important messages to execution history", "Execution history is outside the messages directory and the mail."),

    // Error Handling
    S.must("002.validation.before-processing", "Error Handling: Message Validation", "All messages validated before processing:", &["agent-po.error.invalid-answered"])
        .note("A PO that answers an invalid message with a directive processed it without validating; the answer to an invalid message is ERROR."),
    S.must("002.validation.required-fields", "Error Handling: Message Validation", "  - Required fields present", &["agent-po.message.required-fields"]),
    S.must("002.validation.message-type", "Error Handling: Message Validation", "  - Valid message_type", &["agent-po.message.type"]),
    S.must("002.validation.matching-ids", "Error Handling: Message Validation", "  - Matching agent_id and task_id", &["agent-po.message.ids", "agent-po.role.sender"])
        .note("agent_id and task_id have their forms, and the agent_id of the agent's messages stays with the one mail sender that first used it."),
    S.must("002.validation.timestamp", "Error Handling: Message Validation", "  - Valid timestamp format", &["agent-po.message.timestamp"]),
    S.must("002.error.response", "Error Handling: Invalid Message Response", "\"code\": \"INVALID_MESSAGE\",", &["agent-po.error.invalid-answered"]),
    S.must("002.error.original-type", "Error Handling: Invalid Message Response", "\"original_message_type\": \"COMPLETION_REPORT\"", &["agent-po.error.invalid-answered"]).about(&["ERROR"]),
    S.should("002.error.resubmit", "Error Handling: Invalid Message Response", "\"action\": \"Please resubmit with all required fields\"", &["agent-po.error.resubmitted"]).about(&["ERROR"])
        .note("The ERROR asks the agent to resubmit: its next message of the task should be the type the ERROR names, valid."),
];
