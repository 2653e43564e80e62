//! The checks, as data: each names the rule the validator or the session engine already
//! applies (issue codes, violation codes, persistence problems), the seed section it comes
//! from and the messages it applies to. A finding goes to the first check (in this order) of
//! its family or of `any` that claims it, so the specific checks come before the general ones.

use crate::protocol::{FamilyId, IssueCode};
use crate::session::violation::ViolationCode;

/// Which findings a check claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Validation issues with one of these codes, at a path this matcher accepts.
    Issue(&'static [IssueCode], Where),
    /// Session violations with one of these codes whose message contains `contains` (when
    /// given).
    Violation(&'static [ViolationCode], Option<&'static str>),
    /// Problems of an Agent-PO messages directory (`factory::Problem`).
    Persistence,
}

/// The JSON Pointers an issue check accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Where {
    /// Any path.
    Anywhere,
    /// One of these pointers exactly.
    At(&'static [&'static str]),
}

impl Where {
    /// Whether `pointer` is accepted.
    #[must_use]
    pub fn accepts(self, pointer: &str) -> bool {
        match self {
            Where::Anywhere => true,
            Where::At(paths) => paths.contains(&pointer),
        }
    }
}

/// One check of the report.
#[derive(Debug)]
pub struct Check {
    /// Stable id: `<family|any>.<area>.<rule>`.
    pub id: &'static str,
    /// The family it checks (`None`: every family).
    pub family: Option<FamilyId>,
    /// The seed and section it comes from.
    pub seed: &'static str,
    /// What it asks, in words.
    pub title: &'static str,
    /// The message types it applies to (empty: every type of its family).
    pub types: &'static [&'static str],
    /// The findings it claims.
    pub source: Source,
}

impl Check {
    /// Whether plain mail (no protocol message in the body) counts for it: the `any` checks of
    /// what every mail is checked for, secrets and registered names.
    #[must_use]
    pub fn reads_plain_mail(&self) -> bool {
        self.family.is_none()
            && match self.source {
                Source::Issue(codes, _) => codes.contains(&I::SecretInMessage),
                Source::Violation(codes, _) => codes.contains(&V::InvalidAgent),
                Source::Persistence => false,
            }
    }
}

use IssueCode as I;
use ViolationCode as V;

/// Every schema issue a "schema" check claims once the specific checks have had theirs.
const SCHEMA: &[IssueCode] = &[
    I::WrongType,
    I::NotInEnum,
    I::OutOfRange,
    I::EmptyString,
    I::BadTimestamp,
    I::BadId,
    I::BadPattern,
    I::VersionMismatch,
    I::InconsistentFields,
    I::TooManyIssues,
];
const TYPES: &[IssueCode] = &[I::UnknownMessageType, I::AmbiguousMessageType];

const fn check(
    id: &'static str,
    family: Option<FamilyId>,
    seed: &'static str,
    title: &'static str,
    types: &'static [&'static str],
    source: Source,
) -> Check {
    Check {
        id,
        family,
        seed,
        title,
        types,
        source,
    }
}

const PAIR: Option<FamilyId> = Some(FamilyId::Pair);
const PO: Option<FamilyId> = Some(FamilyId::AgentPo);
const DROID: Option<FamilyId> = Some(FamilyId::Droid);
const CLAUDE: Option<FamilyId> = Some(FamilyId::PairClaude);

/// The table (`docs/protocol.md`, "Conformance", prints it; a test keeps the two in step).
pub static CHECKS: &[Check] = &[
    check("any.json", None, "004 Error Handling: Invalid Message Format", "every message is JSON", &[],
        Source::Issue(&[I::NotJson], Where::Anywhere)),
    check("any.known-message", None, "004 Error Handling: Unknown Message Type", "every message is of a known family", &[],
        Source::Issue(&[I::UnknownFamily, I::AmbiguousFamily], Where::Anywhere)),
    check("any.secret-in-message", None, "004 Security Considerations 4", "no password, API key or secret in a message", &[],
        Source::Issue(&[I::SecretInMessage], Where::Anywhere)),
    check("any.registered-agent", None, "000 Error Codes: INVALID_AGENT; Troubleshooting", "senders and recipients are registered agents (when they are known: --agents, or the server's list in the console)", &[],
        Source::Violation(&[V::InvalidAgent], None)),
    // Pair Protocol (seed 000).
    check("pair.message.type", PAIR, "000 Message Types", "the subject names a Pair message type", &[],
        Source::Issue(TYPES, Where::Anywhere)),
    check("pair.init.protocol-version", PAIR, "000 1. PAIR_INIT", "PAIR_INIT declares protocol_version 3.x", &["PAIR_INIT"],
        Source::Issue(&[I::VersionMismatch, I::BadPattern], Where::At(&["/body/protocol_version"]))),
    check("pair.init.roles", PAIR, "000 1. PAIR_INIT", "the two agents take the two roles, and keep them", &["PAIR_INIT"],
        Source::Issue(&[I::InconsistentFields], Where::At(&["/body/your_role"]))),
    check("pair.init.role-conflict", PAIR, "000 1. PAIR_INIT", "a second PAIR_INIT agrees on the roles", &["PAIR_INIT"],
        Source::Violation(&[V::RoleConflict], None)),
    check("pair.message.required-fields", PAIR, "000 Message Structure; Message Types", "every required member is present", &[],
        Source::Issue(&[I::MissingField], Where::Anywhere)),
    check("pair.message.schema", PAIR, "000 Message Types", "every member has its type and values", &[],
        Source::Issue(SCHEMA, Where::Anywhere)),
    check("pair.role.sender", PAIR, "000 Message Types (Sender)", "each message comes from the role that sends it", &[],
        Source::Violation(&[V::WrongRole], None)),
    check("pair.checkpoint.contract-before-final", PAIR, "000 Human Review Checkpoints: #1 Contract Review", "CONTRACT_FINAL follows a CONTRACT_DRAFT under human review", &["CONTRACT_FINAL"],
        Source::Violation(&[V::CheckpointSkipped], None)),
    check("pair.order.phase", PAIR, "000 Communication Patterns", "each message comes in a phase that expects it", &[],
        Source::Violation(&[V::OutOfOrder], None)),
    check("pair.contract.immutable-tests", PAIR, "000 Security Considerations 1; Error Codes: CONTRACT_TAMPERED", "the contract's test files keep their fingerprints", &[],
        Source::Violation(&[V::ContractTampered], None)),
    check("pair.contract.fingerprints", PAIR, "000 Security Considerations 1", "test_fingerprints map paths to sha256 digests", &[],
        Source::Violation(&[V::BadFingerprints], None)),
    check("pair.contract.tests-parse", PAIR, "000 Error Codes: TEST_SYNTAX_ERROR", "the contract's test files parse (given --contract)", &["CONTRACT_DRAFT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED"],
        Source::Violation(&[V::TestSyntaxError], None)),
    check("pair.timeout.warnings", PAIR, "000 Timeout Configuration", "at most two TIMEOUT_WARNINGs, then SESSION_ABORT", &["TIMEOUT_WARNING"],
        Source::Violation(&[V::LimitExceeded], None)),
    check("pair.session.after-end", PAIR, "000 Pattern 4: Abort; 8. SESSION_COMPLETE", "nothing follows the session's end", &[],
        Source::Violation(&[V::AfterEnd], None)),
    // Agent-PO (seed 002).
    check("agent-po.message.type", PO, "002 Error Handling: Message Validation (valid message_type)", "message_type names an Agent-PO type", &[],
        Source::Issue(TYPES, Where::Anywhere)),
    check("agent-po.message.required-fields", PO, "002 Error Handling: Message Validation (required fields present)", "every required member is present", &[],
        Source::Issue(&[I::MissingField], Where::Anywhere)),
    check("agent-po.message.ids", PO, "002 Error Handling: Message Validation (matching agent_id and task_id)", "agent_id and task_id have their forms", &[],
        Source::Issue(&[I::BadId, I::BadPattern], Where::At(&["/agent_id", "/task_id"]))),
    check("agent-po.message.timestamp", PO, "002 Error Handling: Message Validation (valid timestamp format)", "timestamp is an ISO 8601 date-time", &[],
        Source::Issue(&[I::BadTimestamp], Where::At(&["/timestamp"]))),
    check("agent-po.message.schema", PO, "002 Message Schemas", "every member has its type and values", &[],
        Source::Issue(SCHEMA, Where::Anywhere)),
    check("agent-po.role.sender", PO, "002 Message Flow (Agent → PO, PO → Agent)", "the task agent sends reports, the PO directives", &[],
        Source::Violation(&[V::WrongRole], None)),
    check("agent-po.order.lifecycle", PO, "002 Message Flow", "each message comes in the task's order (plan, GO, progress, report, NEXT)", &[],
        Source::Violation(&[V::OutOfOrder], None)),
    check("agent-po.limits.revisions-and-retries", PO, "002 FEEDBACK (max_revisions); FIX_DIRECTIVE (retry)", "at most 2 plan revisions and 2 fix retries, then BLOCKED", &["FEEDBACK", "FIX_DIRECTIVE"],
        Source::Violation(&[V::LimitExceeded], None)),
    check("agent-po.task.after-end", PO, "002 Message Flow", "nothing follows the task's end", &[],
        Source::Violation(&[V::AfterEnd], None)),
    check("agent-po.persistence.layout", PO, "002 Message Persistence", "messages kept as <agent>/TYPE_NNN.json and received/, numbered without gaps (given a .factory directory)", &[],
        Source::Persistence),
    // Droid message formats (seed 004).
    check("droid.message.type", DROID, "004 Error Handling: Unknown Message Type", "type names a droid message type", &[],
        Source::Issue(TYPES, Where::Anywhere)),
    check("droid.common.version", DROID, "004 Versioning", "version is MAJOR.MINOR.PATCH with MAJOR 1", &[],
        Source::Issue(&[I::VersionMismatch, I::BadPattern], Where::At(&["/version"]))),
    check("droid.common.timestamp-utc", DROID, "004 Common Fields; Best Practices 2", "timestamp is an ISO 8601 date-time", &[],
        Source::Issue(&[I::BadTimestamp], Where::At(&["/timestamp"]))),
    check("droid.common.message-id-uuid", DROID, "004 Common Fields; Best Practices 1", "message_id is a UUID v4 (msg- prefix allowed)", &[],
        Source::Issue(&[I::BadId, I::BadPattern], Where::At(&["/message_id"]))),
    check("droid.common.required-fields", DROID, "004 Common Fields", "version, timestamp, sender_id, message_id and type are present", &[],
        Source::Issue(&[I::MissingField], Where::At(&["/version", "/timestamp", "/sender_id", "/message_id", "/type"]))),
    check("droid.message.required-fields", DROID, "004 Message Types (Fields tables)", "every required member of the type is present", &[],
        Source::Issue(&[I::MissingField], Where::Anywhere)),
    check("droid.task.priority-consistent", DROID, "004 1. Task Assignment (priority, priority_value)", "priority_value matches priority (urgent 0, high 1, normal 2, low 3)", &["task_assignment"],
        Source::Issue(&[I::InconsistentFields], Where::At(&["/priority_value"]))),
    check("droid.message.schema", DROID, "004 Message Types", "every member has its type and values", &[],
        Source::Issue(SCHEMA, Where::Anywhere)),
    check("droid.sender.authorized", DROID, "004 Security Considerations 1-2", "reports come from the assignee, under its own sender_id", &[],
        Source::Violation(&[V::WrongRole], None)),
    check("droid.order.lifecycle", DROID, "004 2. Task Completion (status values)", "nothing but reports follows a task's completion", &[],
        Source::Violation(&[V::AfterEnd, V::OutOfOrder], None)),
    // Pair Claude (seed 003).
    check("pair-claude.message.type", CLAUDE, "003 MCP Tool Semantics", "a known tool call, command or record", &[],
        Source::Issue(TYPES, Where::Anywhere)),
    check("pair-claude.message.schema", CLAUDE, "003 Navigator and Driver tools", "tool arguments and records have their members", &[],
        Source::Issue(&[I::MissingField, I::WrongType, I::NotInEnum, I::OutOfRange, I::EmptyString, I::BadTimestamp, I::BadId, I::BadPattern, I::VersionMismatch, I::InconsistentFields, I::TooManyIssues], Where::Anywhere)),
    check("pair-claude.role.tool", CLAUDE, "003 Key Design Principles 1: Agent Isolation", "the navigator calls navigator tools, the driver driver tools", &[],
        Source::Violation(&[V::WrongRole], None)),
    check("pair-claude.permission.in-order", CLAUDE, "003 2. Permission Flow", "approve and deny answer a pending permission request", &[],
        Source::Violation(&[V::OutOfOrder], None)),
    check("pair-claude.turns.navigator-max", CLAUDE, "003 Environment Configuration: PAIR_NAVIGATOR_MAX_TURNS", "the navigator stays within its turns", &["navigatorApprove", "navigatorDeny", "navigatorCodeReview", "NavigatorCommand"],
        Source::Violation(&[V::LimitExceeded], Some("navigator turn"))),
    check("pair-claude.turns.driver-max", CLAUDE, "003 Environment Configuration: PAIR_DRIVER_MAX_TURNS", "the driver stays within its turns", &["driverRequestReview", "driverRequestGuidance", "DriverCommand", "PermissionRequest"],
        Source::Violation(&[V::LimitExceeded], Some("driver turn"))),
];

/// The check that claims an issue of a message of `family`.
#[must_use]
pub fn for_issue(
    family: Option<FamilyId>,
    code: IssueCode,
    pointer: &str,
) -> Option<&'static Check> {
    CHECKS.iter().find(|c| {
        (c.family.is_none() || c.family == family)
            && matches!(c.source, Source::Issue(codes, at) if codes.contains(&code) && at.accepts(pointer))
    })
}

/// The check that claims a violation of a message of `family`.
#[must_use]
pub fn for_violation(
    family: Option<FamilyId>,
    code: ViolationCode,
    message: &str,
) -> Option<&'static Check> {
    CHECKS.iter().find(|c| {
        (c.family.is_none() || c.family == family)
            && matches!(c.source, Source::Violation(codes, contains)
                if codes.contains(&code) && contains.is_none_or(|s| message.contains(s)))
    })
}
