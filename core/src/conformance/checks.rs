//! The checks, as data: each names the findings it claims — issues the validator reports,
//! violations the session engine reports, problems of an Agent-PO messages directory, or a
//! few findings only a whole log shows ([`Computed`]) —, the messages it applies to, whose
//! messages those are ([`Party`]) and what it needs to be decided ([`Need`]). A finding goes to
//! the first check (in this order) of its family or of `any` that claims it, so the specific
//! checks come before the general ones. The rules of the seeds ([`super::rules`]) name the
//! checks that decide them.

use crate::protocol::{FamilyId, IssueCode};
use crate::session::tasks::{INVALID_FORMAT_REPLY, UNKNOWN_TYPE_REPLY, VERSION_MISMATCH_REPLY};
use crate::session::violation::ViolationCode;

/// Which findings a check claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Validation issues with one of these codes, at a path this matcher accepts.
    Issue(&'static [IssueCode], Where),
    /// Session violations with one of these codes, of a message of the check's types, due
    /// this step (`expected`: the message type a missing step owed, `None` for the others).
    Violation(&'static [ViolationCode], Option<&'static str>),
    /// Problems of an Agent-PO messages directory (`factory::Problem`).
    Persistence,
    /// A finding only the whole log shows.
    Computed(Computed),
}

/// The findings the report computes over the whole log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computed {
    /// A Pair contract finalized without test fingerprints in mail.
    NoFingerprints,
    /// Pair artifacts outside their session's one `tmp/pair_<timestamp>_` directory, or a
    /// directory two sessions share.
    SharedArtifacts,
    /// Mail that asked for an acknowledgement and got none (of this family).
    Unacknowledged(FamilyId),
    /// Mail between the Pair Claude navigator and driver.
    DirectMessages,
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

/// Whose messages a check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    /// The messages an agent sent: the rule binds their sender.
    Sender,
    /// The messages that oblige an agent to act (answer in time, warn, report, acknowledge):
    /// the rule binds the agent they oblige, not their sender.
    Obliged,
}

/// What a check must know of a message to decide it; without it, the check is not tested
/// there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Need {
    /// Who sent it.
    Sender,
    /// Whom it went to.
    Recipients,
    /// When it was sent.
    Time,
    /// The agents registered on the server (`--agents`).
    Registry,
    /// The contract's files (`--contract`).
    Contract,
    /// An Agent-PO messages directory.
    Factory,
    /// The contract's integrity checked against fingerprints (a Pair session whose tests were
    /// compared at least once).
    Integrity,
    /// Whether it was acknowledged (mail that asked for it, from a log that shows it).
    Acknowledgement,
}

impl Need {
    /// Why a check could not be decided, in words.
    #[must_use]
    pub const fn missing(self) -> &'static str {
        match self {
            Need::Sender => "the sender is unknown",
            Need::Recipients => "the recipients are unknown",
            Need::Time => "the message has no time",
            Need::Registry => "the registered agents are not known (--agents, or the server's list)",
            Need::Contract => "the contract's files were not read (--contract)",
            Need::Factory => "no Agent-PO messages directory was read",
            Need::Integrity => "the contract's tests were never compared with fingerprints (none in mail, no --contract)",
            Need::Acknowledgement => "the log does not show acknowledgements (no mail asked for one)",
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
    /// What it asks, in words.
    pub title: &'static str,
    /// The message types it applies to (registry names, an `@` variant counting as its base;
    /// empty: every type of its family).
    pub types: &'static [&'static str],
    /// The findings it claims.
    pub sources: &'static [Source],
    /// Whose messages it reads.
    pub party: Party,
    /// What it must know of a message to decide it.
    pub needs: &'static [Need],
}

impl Check {
    /// Whether plain mail (no protocol message in the body) counts for it: the `any` checks of
    /// what every mail is checked for, secrets and registered names.
    #[must_use]
    pub fn reads_plain_mail(&self) -> bool {
        self.family.is_none()
            && self.sources.iter().any(|s| match s {
                Source::Issue(codes, _) => codes.contains(&I::SecretInMessage),
                Source::Violation(codes, _) => codes.contains(&V::InvalidAgent),
                Source::Persistence | Source::Computed(_) => false,
            })
    }

    /// Whether it applies to a message of type `message_type` (a registry name).
    #[must_use]
    pub fn applies_to(&self, message_type: Option<&str>) -> bool {
        self.types.is_empty()
            || message_type.is_some_and(|t| {
                let base = t.split('@').next().unwrap_or(t);
                self.types.contains(&base)
            })
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

const PAIR: Option<FamilyId> = Some(FamilyId::Pair);
const PO: Option<FamilyId> = Some(FamilyId::AgentPo);
const DROID: Option<FamilyId> = Some(FamilyId::Droid);
const CLAUDE: Option<FamilyId> = Some(FamilyId::PairClaude);

const SENDER: &[Need] = &[Need::Sender];
const TIME: &[Need] = &[Need::Time];
const SENDER_TIME: &[Need] = &[Need::Sender, Need::Time];

/// Pair messages after which an agent waits for the other's response (the timeout table; the
/// PAIR_INIT row has a check of its own).
const PAIR_WAITS: &[&str] = &[
    "CONTRACT_FINAL",
    "CHANGE_ORDER_ACCEPTED",
    "CHANGE_ORDER_REJECTED",
    "BUILD_REJECTED",
    "BUILD_COMPLETE",
    "CHANGE_ORDER",
];
const NAVIGATOR_CALLS: &[&str] = &[
    "navigatorApprove",
    "navigatorDeny",
    "navigatorCodeReview",
    "NavigatorCommand",
];
const DRIVER_CALLS: &[&str] = &[
    "driverRequestReview",
    "driverRequestGuidance",
    "DriverCommand",
    "PermissionRequest",
];

/// A check of `party`'s messages.
const fn of(
    party: Party,
    id: &'static str,
    family: Option<FamilyId>,
    title: &'static str,
    types: &'static [&'static str],
    sources: &'static [Source],
    needs: &'static [Need],
) -> Check {
    Check {
        id,
        family,
        title,
        types,
        sources,
        party,
        needs,
    }
}

/// A check of the messages an agent sends.
const fn check(
    id: &'static str,
    family: Option<FamilyId>,
    title: &'static str,
    types: &'static [&'static str],
    sources: &'static [Source],
    needs: &'static [Need],
) -> Check {
    of(Party::Sender, id, family, title, types, sources, needs)
}

/// A check of what messages oblige an agent to do.
const fn duty(
    id: &'static str,
    family: Option<FamilyId>,
    title: &'static str,
    types: &'static [&'static str],
    sources: &'static [Source],
    needs: &'static [Need],
) -> Check {
    of(Party::Obliged, id, family, title, types, sources, needs)
}

const fn issue(codes: &'static [IssueCode]) -> Source {
    Source::Issue(codes, Where::Anywhere)
}
const fn issue_at(codes: &'static [IssueCode], at: &'static [&'static str]) -> Source {
    Source::Issue(codes, Where::At(at))
}
const fn violation(codes: &'static [ViolationCode]) -> Source {
    Source::Violation(codes, None)
}
const fn missing(step: &'static str) -> Source {
    Source::Violation(&[V::Missing], Some(step))
}
const MISSING: Source = Source::Violation(&[V::Missing], None);

/// The table (`docs/conformance.md` prints it with the rules each decides).
#[rustfmt::skip]
pub static CHECKS: &[Check] = &[
    check("any.json", None, "every message is JSON", &[], &[issue(&[I::NotJson])], &[]),
    check("any.known-message", None, "every message is of a known family", &[], &[issue(&[I::UnknownFamily, I::AmbiguousFamily])], &[]),
    check("any.secret-in-message", None, "no password, API key or secret in a message", &[], &[issue(&[I::SecretInMessage])], &[]),
    check("any.registered-agent", None, "senders and recipients are registered agents", &[], &[violation(&[V::InvalidAgent])], &[Need::Registry]),

    // Pair Protocol (seed 000).
    check("pair.message.type", PAIR, "the subject names a Pair message type", &[], &[issue(TYPES)], &[]),
    check("pair.init.protocol-version", PAIR, "PAIR_INIT declares protocol_version 3.x", &["PAIR_INIT"], &[issue_at(&[I::VersionMismatch, I::BadPattern], &["/body/protocol_version"])], &[]),
    check("pair.init.roles", PAIR, "the two agents take the two roles", &["PAIR_INIT"], &[issue_at(&[I::InconsistentFields], &["/body/your_role"])], &[]),
    check("pair.init.role-conflict", PAIR, "a second PAIR_INIT agrees on the roles", &["PAIR_INIT"], &[violation(&[V::RoleConflict])], SENDER),
    check("pair.message.required-fields", PAIR, "every required member is present", &[], &[issue(&[I::MissingField])], &[]),
    check("pair.message.schema", PAIR, "every member has its type and values", &[], &[issue(SCHEMA)], &[]),
    check("pair.message.phase-current", PAIR, "TIMEOUT_WARNING and SESSION_ABORT name the session's phase", &["TIMEOUT_WARNING", "SESSION_ABORT"], &[violation(&[V::BadValue])], &[]),
    check("pair.timeout.warning-recipient", PAIR, "a TIMEOUT_WARNING goes from the waiting agent to the silent one", &["TIMEOUT_WARNING"], &[violation(&[V::WrongRecipient, V::WrongRole])], &[Need::Sender, Need::Recipients]),
    check("pair.recipient.role", PAIR, "each message goes to the role the seed names (partner, builder, planner)", &[], &[violation(&[V::WrongRecipient])], &[Need::Sender, Need::Recipients]),
    check("pair.role.sender", PAIR, "each message comes from the role that sends it", &[], &[violation(&[V::WrongRole])], SENDER),
    check("pair.checkpoint.contract-before-final", PAIR, "CONTRACT_FINAL follows a CONTRACT_DRAFT under human review", &["CONTRACT_FINAL"], &[violation(&[V::CheckpointSkipped])], &[]),
    check("pair.order.phase", PAIR, "each message comes in a phase that expects it", &[], &[violation(&[V::OutOfOrder])], &[]),
    check("pair.contract.immutable-tests", PAIR, "the contract's test files keep the fingerprints taken at CONTRACT_FINAL", &["BUILD_COMPLETE"], &[violation(&[V::ContractTampered])], &[Need::Integrity]),
    check("pair.contract.fingerprints", PAIR, "test_fingerprints map paths to sha256 digests", &[], &[violation(&[V::BadFingerprints])], &[]),
    check("pair.contract.fingerprinted", PAIR, "the finalized contract's tests are fingerprinted in mail", &["CONTRACT_FINAL"], &[Source::Computed(Computed::NoFingerprints)], &[]),
    check("pair.contract.tests-parse", PAIR, "the contract's test files parse", &["CONTRACT_DRAFT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED"], &[violation(&[V::TestSyntaxError])], &[Need::Contract]),
    check("pair.change-order.new-contract", PAIR, "an accepted change order names new contract files, not the finalized ones", &["CHANGE_ORDER_ACCEPTED"], &[violation(&[V::ArtifactReused])], &[]),
    check("pair.artifacts.isolated", PAIR, "a session's artifacts share one tmp/pair_<timestamp>_ directory of its own", &["CONTRACT_DRAFT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED"], &[Source::Computed(Computed::SharedArtifacts)], &[]),
    check("pair.timeout.warnings", PAIR, "at most two TIMEOUT_WARNINGs, then SESSION_ABORT", &["TIMEOUT_WARNING"], &[violation(&[V::LimitExceeded])], &[]),
    check("pair.timeout.warning-premature", PAIR, "no TIMEOUT_WARNING before the response is late", &["TIMEOUT_WARNING"], &[violation(&[V::Premature])], TIME),
    check("pair.timeout.init-answered", PAIR, "PAIR_INIT is acknowledged within 5 minutes, else its sender warns", &["PAIR_INIT"], &[missing("TIMEOUT_WARNING"), violation(&[V::Late])], &[Need::Sender, Need::Time, Need::Acknowledgement]),
    check("pair.timeout.warning-missing", PAIR, "a TIMEOUT_WARNING once the response is late (and the second ten minutes after the first)", PAIR_WAITS, &[missing("TIMEOUT_WARNING")], SENDER_TIME),
    check("pair.timeout.abort-missing", PAIR, "SESSION_ABORT ten minutes after the second TIMEOUT_WARNING", &["TIMEOUT_WARNING"], &[missing("SESSION_ABORT")], SENDER_TIME),
    duty("pair.timeout.late-response", PAIR, "the awaited agent responds within the timeout", PAIR_WAITS, &[violation(&[V::Late])], TIME),
    check("pair.audit.before-merge", PAIR, "an AUDIT_REPORT since the last BUILD_COMPLETE before SESSION_COMPLETE", &["SESSION_COMPLETE"], &[missing("AUDIT_REPORT")], &[]),
    check("pair.audit.merge-after-fail", PAIR, "no SESSION_COMPLETE after a failed audit or a tampered contract", &["SESSION_COMPLETE"], &[violation(&[V::GateBreached])], &[]),
    check("pair.audit.tamper-critical", PAIR, "an audit report that finds the tests tampered is a CRITICAL FAIL", &["AUDIT_REPORT"], &[violation(&[V::BadValue])], &[]),
    duty("pair.audit.clean-build", PAIR, "the builder's build passes the audit (no scheming, tampering or unauthorized dependency)", &["AUDIT_REPORT"], &[violation(&[V::AuditFailed])], &[]),
    check("pair.session.after-end", PAIR, "nothing follows the session's end", &[], &[violation(&[V::AfterEnd])], &[]),

    // Agent-PO (seed 002).
    check("agent-po.message.type", PO, "message_type names an Agent-PO type", &[], &[issue(TYPES)], &[]),
    check("agent-po.message.required-fields", PO, "every required member is present", &[], &[issue(&[I::MissingField])], &[]),
    check("agent-po.message.ids", PO, "agent_id and task_id have their forms", &[], &[issue_at(&[I::BadId, I::BadPattern], &["/agent_id", "/task_id"])], &[]),
    check("agent-po.message.timestamp", PO, "timestamp is an ISO 8601 date-time", &[], &[issue_at(&[I::BadTimestamp], &["/timestamp"])], &[]),
    check("agent-po.message.schema", PO, "every member has its type and values", &[], &[issue(SCHEMA)], &[]),
    check("agent-po.role.sender", PO, "the task agent sends plans and reports, the PO directives", &[], &[violation(&[V::WrongRole])], SENDER),
    check("agent-po.recipient.role", PO, "the agent's messages go to the PO, the directives to the task agent", &[], &[violation(&[V::WrongRecipient])], &[Need::Sender, Need::Recipients]),
    check("agent-po.gate.go", PO, "GO only on a validated plan within the revision limit", &["GO_DIRECTIVE"], &[violation(&[V::GateBreached])], &[]),
    check("agent-po.gate.next", PO, "NEXT only on a validated report: criteria met, tests passing, files in scope", &["NEXT_DIRECTIVE"], &[violation(&[V::GateBreached])], &[]),
    check("agent-po.gate.issues-listed", PO, "FEEDBACK and FIX list the issues they ask to address", &["FEEDBACK", "FIX_DIRECTIVE"], &[MISSING], &[]),
    check("agent-po.gate.counts", PO, "FEEDBACK's current_revision and FIX's retry count the task's own plans and fixes", &["FEEDBACK", "FIX_DIRECTIVE"], &[violation(&[V::BadValue])], &[]),
    check("agent-po.plan.revision-sequence", PO, "plans are numbered 1, 2, … per resubmission", &["PLAN_SUBMISSION"], &[violation(&[V::BadValue])], &[]),
    check("agent-po.scope.authorized-files", PO, "the agent touches only the files GO authorized", &["PROGRESS_UPDATE", "COMPLETION_REPORT"], &[violation(&[V::OutOfScope])], &[]),
    duty("agent-po.timeout.report", PO, "the completion report comes within GO's timeout_minutes", &["GO_DIRECTIVE"], &[violation(&[V::Late])], TIME),
    duty("agent-po.progress.cadence", PO, "a PROGRESS_UPDATE at least every 5 minutes while the agent works", &["GO_DIRECTIVE", "FIX_DIRECTIVE"], &[missing("PROGRESS_UPDATE")], TIME),
    duty("agent-po.error.invalid-answered", PO, "an invalid message is answered with ERROR, not processed", &[], &[violation(&[V::Unanswered])], &[]),
    duty("agent-po.error.resubmitted", PO, "after an ERROR the agent resubmits the message it names", &["ERROR"], &[MISSING], &[]),
    duty("agent-po.ack.acknowledged", PO, "the PO acknowledges progress updates and blocked notifications", &["PROGRESS_UPDATE", "BLOCKED_NOTIFICATION"], &[Source::Computed(Computed::Unacknowledged(FamilyId::AgentPo))], &[Need::Acknowledgement]),
    check("agent-po.order.lifecycle", PO, "each message comes in the task's order (plan, GO, progress, report, NEXT)", &[], &[violation(&[V::OutOfOrder])], &[]),
    check("agent-po.limits.revisions-and-retries", PO, "at most max_revisions plans and retry.max fixes, then BLOCKED", &["FEEDBACK", "FIX_DIRECTIVE"], &[violation(&[V::LimitExceeded])], &[]),
    check("agent-po.task.after-end", PO, "nothing follows the task's end", &[], &[violation(&[V::AfterEnd])], &[]),
    check("agent-po.persistence.layout", PO, "messages kept as <agent>/TYPE_NNN.json and received/, numbered without gaps", &[], &[Source::Persistence], &[Need::Factory]),

    // Droid message formats (seed 004).
    check("droid.message.type", DROID, "type names a droid message type", &[], &[issue(TYPES)], &[]),
    check("droid.common.version", DROID, "version is MAJOR.MINOR.PATCH with MAJOR 1", &[], &[issue_at(&[I::VersionMismatch, I::BadPattern], &["/version"])], &[]),
    check("droid.common.timestamp-utc", DROID, "timestamp is an ISO 8601 date-time in UTC", &[], &[issue_at(&[I::BadTimestamp], &["/timestamp"]), violation(&[V::BadValue])], &[]),
    check("droid.common.message-id-uuid", DROID, "message_id is a UUID v4 (msg- prefix allowed)", &[], &[issue_at(&[I::BadId, I::BadPattern], &["/message_id"])], &[]),
    check("droid.common.message-id-unique", DROID, "no two messages share a message_id", &[], &[violation(&[V::DuplicateId])], &[]),
    check("droid.common.required-fields", DROID, "version, timestamp, sender_id, message_id and type are present", &[], &[issue_at(&[I::MissingField], &["/version", "/timestamp", "/sender_id", "/message_id", "/type"])], &[]),
    check("droid.message.required-fields", DROID, "every required member of the type is present", &[], &[issue(&[I::MissingField])], &[]),
    check("droid.task.priority-consistent", DROID, "priority_value matches priority (urgent 0, high 1, normal 2, low 3)", &["task_assignment"], &[issue_at(&[I::InconsistentFields], &["/priority_value"])], &[]),
    check("droid.message.schema", DROID, "every member has its type and values", &[], &[issue(SCHEMA)], &[]),
    check("droid.sender.authorized", DROID, "reports come from the assignee, under its own sender_id", &[], &[violation(&[V::WrongRole])], SENDER),
    check("droid.assignment.recipient", DROID, "a task is assigned to another agent", &["task_assignment"], &[violation(&[V::WrongRecipient])], &[Need::Recipients]),
    duty("droid.task.deadline", DROID, "the assignee completes the task by its deadline", &["task_assignment"], &[violation(&[V::Late])], TIME),
    check("droid.task.scope", DROID, "a completion's files match the assignment's file_patterns", &["task_completion"], &[violation(&[V::OutOfScope])], &[]),
    check("droid.completion.blocked-reported", DROID, "a blocked completion comes with an error_report", &["task_completion"], &[missing("error_report")], &[]),
    check("droid.completion.partial-documented", DROID, "a partial completion documents what is missing", &["task_completion"], &[MISSING], &[]),
    duty("droid.error.invalid-answered", DROID, "a message of an invalid format is answered with an error_report to its sender, naming its message_id", &[], &[Source::Violation(&[V::Unanswered], Some(INVALID_FORMAT_REPLY))], &[Need::Recipients]),
    duty("droid.error.unknown-answered", DROID, "a message of an unknown type is answered with an error_report to its sender, naming its message_id", &[], &[Source::Violation(&[V::Unanswered], Some(UNKNOWN_TYPE_REPLY))], &[Need::Recipients]),
    duty("droid.error.version-answered", DROID, "a message of another MAJOR version is answered with a version mismatch error_report", &[], &[Source::Violation(&[V::Unanswered], Some(VERSION_MISMATCH_REPLY))], &[Need::Recipients]),
    check("droid.reservation.conflict", DROID, "a reservation does not conflict with another agent's active one", &["file_reservation"], &[violation(&[V::ReservationConflict])], TIME),
    duty("droid.ack.acknowledged", DROID, "mail that asks for an acknowledgement is acknowledged", &[], &[Source::Computed(Computed::Unacknowledged(FamilyId::Droid))], &[Need::Acknowledgement]),
    check("droid.coordination.participants", DROID, "a coordination request names several participants and goes to them", &["coordination_request"], &[violation(&[V::WrongRecipient]), MISSING], &[]),
    check("droid.order.lifecycle", DROID, "nothing but reports follows a task's completion", &[], &[violation(&[V::AfterEnd, V::OutOfOrder])], &[]),

    // Pair Claude (seed 003).
    check("pair-claude.message.type", CLAUDE, "a known tool call, command or record", &[], &[issue(TYPES)], &[]),
    check("pair-claude.message.schema", CLAUDE, "tool arguments and records have their members", &[], &[issue(&[I::MissingField, I::WrongType, I::NotInEnum, I::OutOfRange, I::EmptyString, I::BadTimestamp, I::BadId, I::BadPattern, I::VersionMismatch, I::InconsistentFields, I::TooManyIssues])], &[]),
    check("pair-claude.role.tool", CLAUDE, "the navigator calls navigator tools, the driver driver tools", &[], &[violation(&[V::WrongRole])], SENDER),
    check("pair-claude.permission.tools", CLAUDE, "permission is asked only for Write, Edit and MultiEdit", &["PermissionRequest"], &[violation(&[V::BadValue])], &[]),
    check("pair-claude.permission.result-matches", CLAUDE, "the orchestrator's result agrees with the navigator's decision", &["PermissionResult", "CanUseToolResult"], &[violation(&[V::BadValue])], &[]),
    check("pair-claude.permission.sync", CLAUDE, "the driver waits while its permission request is pending", DRIVER_CALLS, &[violation(&[V::OutOfOrder])], TIME),
    check("pair-claude.permission.in-order", CLAUDE, "approve and deny answer a pending permission request", &[], &[violation(&[V::OutOfOrder])], &[]),
    duty("pair-claude.permission.answered", CLAUDE, "the navigator answers a permission request within PAIR_PERMISSION_TIMEOUT_MS", &["PermissionRequest"], &[violation(&[V::Late])], TIME),
    duty("pair-claude.review.answered", CLAUDE, "the navigator reviews within PAIR_TOOL_TIMEOUT_MS", &["driverRequestReview", "DriverCommand"], &[violation(&[V::Late])], TIME),
    check("pair-claude.isolation.no-direct", CLAUDE, "the navigator and the driver never mail each other", &[], &[Source::Computed(Computed::DirectMessages)], &[Need::Recipients]),
    check("pair-claude.turns.navigator-max", CLAUDE, "the navigator stays within its turns", NAVIGATOR_CALLS, &[violation(&[V::LimitExceeded])], &[]),
    check("pair-claude.turns.driver-max", CLAUDE, "the driver stays within its turns", DRIVER_CALLS, &[violation(&[V::LimitExceeded])], &[]),
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
            && c.sources.iter().any(|s| {
                matches!(s, Source::Issue(codes, at)
                if codes.contains(&code) && at.accepts(pointer))
            })
    })
}

/// The check that claims a violation of a message of `family` and type `message_type`.
#[must_use]
pub fn for_violation(
    family: Option<FamilyId>,
    message_type: Option<&str>,
    code: ViolationCode,
    expected: Option<&str>,
) -> Option<&'static Check> {
    CHECKS.iter().find(|c| {
        (c.family.is_none() || c.family == family)
            && c.applies_to(message_type)
            && c.sources.iter().any(|s| {
                matches!(s, Source::Violation(codes, due)
                if codes.contains(&code) && *due == expected)
            })
    })
}

/// The check with this id.
#[must_use]
pub fn by_id(id: &str) -> Option<&'static Check> {
    CHECKS.iter().find(|c| c.id == id)
}
