//! Seed 004, the MCP Agent Mail droid message formats 1.0.0: its rules, in the seed's order.

use super::{Level, Of, Rule, Seed};
use Level::{Must, Should};

const S: Of = Of(Seed::Droid);

const REQUIRED: &[&str] = &["droid.message.required-fields"];
const SCHEMA: &[&str] = &["droid.message.schema"];
const ASSIGNMENT: &[&str] = &["task_assignment"];
const COMPLETION: &[&str] = &["task_completion"];
const ERROR: &[&str] = &["error_report"];
const STATUS: &[&str] = &["status_update"];
/// The answers the seed requires (unknown type, version mismatch); an invalid format's answer
/// is a recommendation ("receivers should"), decided by its own rules.
const ANSWERED: &[&str] = &[
    "droid.error.unknown-answered",
    "droid.error.version-answered",
];
const INVALID: &[&str] = &["droid.error.invalid-answered"];
const UNKNOWN: &[&str] = &["droid.error.unknown-answered"];

#[rustfmt::skip]
pub(super) static RULES: &[Rule] = &[
    // Overview
    S.must("004.overview.conform", "Overview", "All messages must conform to these formats to ensure interoperability.", &["droid.message.type", "droid.common.required-fields", "droid.message.required-fields", "droid.message.schema"]),

    // Common Fields
    S.must("004.common.version", "Common Fields", "| `version` | string | Yes | Message format version (currently \"1.0.0\") |", &["droid.common.required-fields", "droid.common.version"]),
    S.must("004.common.timestamp", "Common Fields", "| `timestamp` | ISO 8601 | Yes | When message was created (UTC) |", &["droid.common.required-fields", "droid.common.timestamp-utc"])
        .note("ISO 8601 in UTC: a Z or +00:00 offset. 2025-12-25T14:00:00+02:00 is ISO 8601 but not UTC."),
    S.must("004.common.sender-id", "Common Fields", "| `sender_id` | string | Yes | Name of the sending agent |", &["droid.common.required-fields", "droid.sender.authorized"])
        .note("The sending agent is the mail's sender: a sender_id naming another agent is a message under someone else's name."),
    S.must("004.common.message-id", "Common Fields", "| `message_id` | string | Yes | Unique identifier (UUID v4) |", &["droid.common.required-fields", "droid.common.message-id-uuid", "droid.common.message-id-unique"])
        .note("Every example writes msg-<uuid>, the table a bare UUID: both are accepted (protocol-notes §4). Unique: no two messages of the log share one."),
    S.must("004.common.type", "Common Fields", "| `type` | string | Yes | Message type identifier |", &["droid.common.required-fields", "droid.message.type"]),

    // 1. Task Assignment
    S.must("004.assignment.delegate", "1. Task Assignment", "**Purpose:** Delegate a task from one agent to another", &["droid.assignment.recipient"]).about(ASSIGNMENT)
        .note("Delegated to another agent: the assignment goes to at least one agent other than its sender."),
    S.must("004.assignment.task-id", "1. Task Assignment", "| `task_id` | string | Yes | Reference to bd task ID |", REQUIRED).about(ASSIGNMENT),
    S.must("004.assignment.description", "1. Task Assignment", "| `description` | string | Yes | Human-readable task description |", REQUIRED).about(ASSIGNMENT),
    S.must("004.assignment.specification", "1. Task Assignment", "| `specification` | object | Yes | Detailed task specification |", REQUIRED).about(ASSIGNMENT),
    S.must("004.assignment.acceptance-criteria", "1. Task Assignment", "| `specification.acceptance_criteria` | array | Yes | List of acceptance criteria |", REQUIRED).about(ASSIGNMENT),
    S.must("004.assignment.file-patterns", "1. Task Assignment", "| `file_patterns` | array | Yes | Glob patterns for affected files |", REQUIRED).about(ASSIGNMENT),
    S.must("004.assignment.priority", "1. Task Assignment", "| `priority` | string | Yes | \"low\", \"normal\", \"high\", \"urgent\" |", &["droid.message.required-fields", "droid.message.schema"]).about(ASSIGNMENT),
    S.must("004.assignment.priority-value", "1. Task Assignment", "| `priority_value` | number | Yes | Numeric priority (0=urgent, 1=high, 2=normal, 3=low) |", &["droid.message.required-fields", "droid.task.priority-consistent"]).about(ASSIGNMENT),
    S.must("004.assignment.deadline", "1. Task Assignment", "| `deadline` | ISO 8601 | No | When task must be completed |", &["droid.task.deadline"]).about(ASSIGNMENT)
        .note("Optional, but when given binding (\"must be completed\"): a task not complete by its deadline — completed later, or not yet when the log is judged — is late, and the assignee's."),
    S.should("004.assignment.scope", "1. Task Assignment", "| `file_patterns` | array | Yes | Glob patterns for affected files |", &["droid.task.scope"]).about(COMPLETION)
        .note("The patterns describe the files the task affects; a completion listing files outside them is a warning (the table describes rather than forbids)."),

    // 2. Task Completion
    S.must("004.completion.notify", "2. Task Completion", "**Purpose:** Notify that a task has been completed", &["droid.sender.authorized", "droid.order.lifecycle"]).about(COMPLETION),
    S.must("004.completion.task-id", "2. Task Completion", "| `task_id` | string | Yes | Reference to completed task |", REQUIRED).about(COMPLETION),
    S.must("004.completion.status", "2. Task Completion", "| `status` | string | Yes | \"complete\", \"partial\", \"blocked\" |", &["droid.message.required-fields", "droid.message.schema"]).about(COMPLETION),
    S.must("004.completion.summary", "2. Task Completion", "| `completion_summary` | string | Yes | Summary of what was done |", REQUIRED).about(COMPLETION),
    S.must("004.completion.files-modified", "2. Task Completion", "| `files_modified` | array | Yes | List of modified files |", REQUIRED).about(COMPLETION),
    S.must("004.completion.test-results", "2. Task Completion", "| `test_results` | object | Yes | Test execution results |", REQUIRED).about(COMPLETION),
    S.must("004.completion.errors", "2. Task Completion", "| `errors_encountered` | array | Yes | List of errors (empty if none) |", REQUIRED).about(COMPLETION),
    S.should("004.completion.partial", "2. Task Completion", "- `partial` - Partially completed (document what's missing)", &["droid.completion.partial-documented"]).about(COMPLETION)
        .note("What is missing is documented in the completion's warnings, errors_encountered or next_tasks; a partial completion with all three empty documents nothing."),
    S.should("004.completion.blocked", "2. Task Completion", "- `blocked` - Cannot complete due to blockers", &["droid.completion.blocked-reported"]).about(COMPLETION)
        .note("With Best Practices 5 (\"Always provide error_report for failures\"): a blocked completion comes with the agent's error_report on the task."),

    // 3. Error Report
    S.must("004.error-report.task-id", "3. Error Report", "| `task_id` | string | Yes | Task during which error occurred |", REQUIRED).about(ERROR),
    S.must("004.error-report.severity", "3. Error Report", "| `severity` | string | Yes | \"low\", \"medium\", \"high\", \"blocking\" |", &["droid.message.required-fields", "droid.message.schema"]).about(ERROR),
    S.must("004.error-report.error", "3. Error Report", "| `error` | object | Yes | Error details |", REQUIRED).about(ERROR),
    S.must("004.error-report.code", "3. Error Report", "| `error.code` | string | Yes | Machine-readable error code |", REQUIRED).about(ERROR),
    S.must("004.error-report.message", "3. Error Report", "| `error.message` | string | Yes | Human-readable error message |", REQUIRED).about(ERROR),
    S.must("004.error-report.reproduction", "3. Error Report", "| `reproduction_steps` | array | Yes | Steps to reproduce |", REQUIRED).about(ERROR),
    S.must("004.error-report.human", "3. Error Report", "| `needs_human_intervention` | boolean | Yes | Whether human help needed |", &["droid.message.required-fields", "droid.message.schema"]).about(ERROR),

    // 4. Status Update
    S.must("004.status.purpose", "4. Status Update", "**Purpose:** Provide periodic status updates on task progress", &["droid.sender.authorized", "droid.order.lifecycle"]).about(STATUS)
        .note("No period is given (metadata.update_frequency is free text), so the cadence is not held; the updates come from the assignee while the task is open."),
    S.must("004.status.update-types", "4. Status Update", "- `progress` - Regular progress update", SCHEMA).about(STATUS),
    S.must("004.status.task-id", "4. Status Update", "| `task_id` | string | Yes | Task being updated |", REQUIRED).about(STATUS),
    S.must("004.status.update-type", "4. Status Update", "| `update_type` | string | Yes | Type of update |", REQUIRED).about(STATUS),
    S.must("004.status.summary", "4. Status Update", "| `status_summary` | string | Yes | Brief status summary |", REQUIRED).about(STATUS),
    S.must("004.status.percentage", "4. Status Update", "| `progress.percentage` | number | No | Completion percentage (0-100) |", SCHEMA).about(STATUS),
    S.must("004.status.blockers", "4. Status Update", "| `blockers` | array | Yes | List of current blockers (empty if none) |", REQUIRED).about(STATUS),

    // 5. Coordination Request
    S.must("004.coordination.purpose", "5. Coordination Request", "**Purpose:** Request coordination between multiple agents", &["droid.coordination.participants", "droid.message.schema"]).about(&["coordination_request"])
        .note("Between multiple agents: at least two participants, and the request goes to the participants other than its sender."),
    S.must("004.coordination.request-types", "5. Coordination Request", "- `parallel_execution` - Coordinate parallel work", SCHEMA).about(&["coordination_request"]),

    // 6. File Reservation Request
    S.must("004.reservation.purpose", "6. File Reservation Request", "**Purpose:** Request file reservations for conflict prevention", &["droid.reservation.conflict"]).about(&["file_reservation"])
        .note("A reservation that conflicts with another agent's active one (by the mode matrix in docs/protocol.md) prevents nothing: it is a conflict."),
    S.must("004.reservation.modes", "6. File Reservation Request", "- `exclusive` - Only this agent can access", SCHEMA).about(&["file_reservation"])
        .note("The example's alternative mode \"shared\" is read as shared_read (lenient)."),

    // Error Handling
    S.should("004.invalid.reject", "Error Handling: Invalid Message Format", "1. Reject with error message: `{\"error\": \"invalid_format\", \"details\": \"Missing required field: task_id\"}`", INVALID)
        .note("\"Receivers should\": the reply the seed shows is not itself a droid message (protocol-notes §5.2), so the answer is an error_report with error.code INVALID_FORMAT to the sender, correlating the message_id; a warning when none follows."),
    S.should("004.invalid.correlate", "Error Handling: Invalid Message Format", "2. Include the `message_id` from original for correlation", INVALID),
    S.should("004.invalid.notify", "Error Handling: Invalid Message Format", "3. Notify sender via `error_report` message", INVALID),
    S.must("004.unknown.respond", "Error Handling: Unknown Message Type", "1. Respond with `error_report` indicating unknown type", UNKNOWN)
        .note("Unlike the invalid-format list, this one is imperative: a message of an unknown type gets an error_report (UNKNOWN_MESSAGE_TYPE) to its sender."),
    S.must("004.unknown.correlate", "Error Handling: Unknown Message Type", "2. Include sender's `message_id` for correlation", UNKNOWN),
    S.not_mail("004.unknown.log", Must, "Error Handling: Unknown Message Type", "3. Log for analysis", "What a receiver logs locally is not mail."),

    // Versioning
    S.must("004.version.current", "Versioning", "**Current Version:** 1.0.0", &["droid.common.version"]),
    S.must("004.version.format", "Versioning", "**Version Format:** MAJOR.MINOR.PATCH", &["droid.common.version"]),
    S.must("004.version.major", "Versioning", "- **MAJOR:** Breaking changes, incompatible with previous versions", &["droid.common.version", "droid.error.version-answered"])
        .note("A message of another MAJOR version than 1.x is incompatible: it fails its version, and its receiver owes a version mismatch error."),
    S.must("004.version.sender", "Versioning: Version Negotiation", "1. Sender includes their version in `version` field", &["droid.common.required-fields"]),
    S.not_mail("004.version.check", Must, "Versioning: Version Negotiation", "2. Receiver checks compatibility with their supported version", "The check itself is the receiver's; its outcome shows as the mismatch error below."),
    S.must("004.version.mismatch", "Versioning: Version Negotiation", "3. If incompatible, receiver responds with version mismatch error", &["droid.error.version-answered"])
        .note("Incompatible is another MAJOR version; the answer is an error_report with error.code VERSION_MISMATCH to the sender (no code is defined; protocol-notes §5.2)."),

    // Security Considerations
    S.not_mail("004.security.authentication", Must, "Security Considerations", "**Authentication:** All messages sent through authenticated MCP Agent Mail channel", "Authentication is the transport's (a server token), not in the messages."),
    S.should("004.security.authorization", "Security Considerations", "**Authorization:** Agents should only accept messages from authorized senders", &["droid.sender.authorized"])
        .note("Authorized senders: a report on a task comes from an agent it was assigned to, under its own sender_id."),
    S.not_mail("004.security.sanitization", Must, "Security Considerations", "**Data Sanitization:** Validate all input fields to prevent injection attacks", "How a receiver sanitizes input is inside it; what mail shows (invalid messages answered) is checked under Error Handling."),
    S.must("004.security.secrets", "Security Considerations", "**Sensitive Data:** Never include passwords, API keys, or secrets in messages", &["any.secret-in-message"]).all_mail()
        .note("Held for every mail, whatever family it carries, and for plain mail too."),
    S.not_mail("004.security.audit-trail", Must, "Security Considerations", "**Audit Trail:** All messages are logged in MCP Agent Mail for audit purposes", "Logging is the server's behaviour."),

    // Best Practices
    S.should("004.practice.uuid", "Best Practices", "**Use UUIDs for message IDs:** Ensure uniqueness across all agents", &["droid.common.message-id-uuid", "droid.common.message-id-unique"]),
    S.should("004.practice.utc", "Best Practices", "**Include timestamps in UTC:** Standardize on UTC timezone", &["droid.common.timestamp-utc"]),
    S.not_mail("004.practice.concise", Should, "Best Practices", "**Keep messages concise:** Only include necessary information", "What is necessary is the author's judgement."),
    S.not_mail("004.practice.structured", Should, "Best Practices", "**Use structured data:** Prefer arrays/objects over free-form text", "A preference the schema already shapes; no threshold to hold."),
    S.should("004.practice.error-reports", "Best Practices", "**Handle errors gracefully:** Always provide `error_report` for failures", &["droid.completion.blocked-reported", "droid.error.invalid-answered", "droid.error.unknown-answered", "droid.error.version-answered"]),
    S.should("004.practice.acknowledge", "Best Practices", "**Acknowledge messages:** Use MCP Agent Mail's acknowledgment mechanism", &["droid.ack.acknowledged"])
        .note("Decided where the mail asked for an acknowledgement (ack_required) and the log shows acknowledgements; not tested otherwise."),
    S.not_mail("004.practice.edge-cases", Should, "Best Practices", "**Document edge cases:** Note any non-standard usage in `metadata`", "Whether a usage is non-standard is the author's judgement."),

    // Implementation Checklist
    S.not_mail("004.checklist.constants", Must, "Implementation Checklist", "- [ ] Import message format constants from this spec", "Source code, not mail."),
    S.must("004.checklist.validate-outgoing", "Implementation Checklist", "- [ ] Validate outgoing messages against schema", &["droid.message.schema", "droid.message.required-fields"]),
    S.must("004.checklist.validate-incoming", "Implementation Checklist", "- [ ] Validate incoming messages before processing", ANSWERED)
        .note("What mail shows of it: an invalid incoming message is answered with an error_report."),
    S.must("004.checklist.handle-invalid", "Implementation Checklist", "- [ ] Handle unknown/invalid messages gracefully", ANSWERED)
        .note("Unknown and incompatible messages must be answered (Error Handling: Unknown Message Type; Versioning); a message of an invalid format should be (\"receivers should\"), which the Invalid Message Format rules hold as a warning."),
    S.must("004.checklist.required", "Implementation Checklist", "- [ ] Include all required fields", &["droid.common.required-fields", "droid.message.required-fields"]),
    S.must("004.checklist.types", "Implementation Checklist", "- [ ] Use proper data types for all fields", SCHEMA),
    S.must("004.checklist.uuids", "Implementation Checklist", "- [ ] Generate UUIDs for `message_id`", &["droid.common.message-id-uuid", "droid.common.message-id-unique"]),
    S.must("004.checklist.utc", "Implementation Checklist", "- [ ] Use UTC timestamps", &["droid.common.timestamp-utc"]),
    S.must("004.checklist.error-reports", "Implementation Checklist", "- [ ] Send appropriate error reports", ANSWERED)
        .note("The error reports the seed requires answer unknown and incompatible messages; one for a blocked task, or for a message of an invalid format, is recommended (Best Practices 5; \"receivers should\") and held as a warning by those rules."),
    S.must("004.checklist.acknowledge", "Implementation Checklist", "- [ ] Acknowledge received messages", &["droid.ack.acknowledged"]),

    // Held for every message (the project applies it to all mail)
    S.must("004.overview.json", "Overview", "All messages must conform to these formats to ensure interoperability.", &["any.json", "any.known-message"]).all_mail()
        .note("A message that is not JSON, or of no known family, conforms to no format; held for every mail that carries something meant as a protocol message (plain mail is not judged by it)."),
];
