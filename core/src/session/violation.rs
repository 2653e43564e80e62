//! Protocol violations found while folding a message log into sessions.

use crate::agent_mail::{Carried, Envelope};
use crate::protocol::Issue;
use crate::time::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What kind of rule a message broke. The table in `docs/protocol.md` ("Sessions") lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViolationCode {
    /// The message failed validation; it does not move the session.
    InvalidMessage,
    /// The message is not allowed in the session's current phase; it does not move the session.
    OutOfOrder,
    /// The message came from the wrong role (e.g. CONTRACT_FINAL from the builder); it does not
    /// move the session.
    WrongRole,
    /// The message came after the session ended (merged, aborted, completed, blocked).
    AfterEnd,
    /// A step the protocol requires was skipped (e.g. CONTRACT_FINAL with no CONTRACT_DRAFT, so
    /// no human contract review); the message still moves the session.
    CheckpointSkipped,
    /// A contract test file differs from its fingerprint at CONTRACT_FINAL (the seed's
    /// `CONTRACT_TAMPERED`).
    ContractTampered,
    /// A `test_fingerprints` member that is not `{"<path>": "sha256:<hex>"}`.
    BadFingerprints,
    /// A retry, revision or warning limit was passed without the session ending.
    LimitExceeded,
    /// Two PAIR_INITs disagree about the roles.
    RoleConflict,
    /// A message names an artifact path that leaves the project folder (`..` above it, an
    /// absolute path, a drive, a home directory or another variable than `$PROJECT_ROOT`);
    /// found by the console's evidence resolver, which never reads it.
    ArtifactOutsideFolder,
    /// A sender or recipient that is not a registered agent (the seed's `INVALID_AGENT`).
    InvalidAgent,
    /// A contract test file that does not parse (the seed's `TEST_SYNTAX_ERROR`).
    TestSyntaxError,
    /// A message went to someone other than the agent the protocol names as its recipient.
    WrongRecipient,
    /// A message came before the protocol allows it (a TIMEOUT_WARNING before the deadline).
    Premature,
    /// A step the protocol requires was not taken by the time it was due (a warning, an
    /// abort, an audit before the merge, a progress report, an error report).
    Missing,
    /// A response or report came after its deadline.
    Late,
    /// A directive or decision went against the evidence it answers (GO on a plan not
    /// validated, NEXT on failing tests, a merge after a failed audit).
    GateBreached,
    /// Files touched outside the scope the task authorized.
    OutOfScope,
    /// A build the audit failed (gaming patterns, tampered tests, unauthorized dependencies).
    AuditFailed,
    /// An artifact path reused where the protocol wants a new one (a finalized contract
    /// overwritten, two sessions sharing a directory).
    ArtifactReused,
    /// Agents that must talk through the orchestrator mailed each other.
    DirectMessage,
    /// A message id used by two messages.
    DuplicateId,
    /// A member whose value breaks a rule the schema cannot state (a timestamp not in UTC, a
    /// message body's phase that is not the session's).
    BadValue,
    /// Two active file reservations of different agents that conflict.
    ReservationConflict,
    /// A message that calls for an answer got another message, or none, from the agent
    /// that owed it (an invalid Agent-PO message answered with a directive instead of ERROR,
    /// an invalid or unknown droid message with no error_report to its sender).
    Unanswered,
}

impl ViolationCode {
    /// Every code, in documentation order.
    pub const ALL: &'static [ViolationCode] = &[
        ViolationCode::InvalidMessage,
        ViolationCode::OutOfOrder,
        ViolationCode::WrongRole,
        ViolationCode::AfterEnd,
        ViolationCode::CheckpointSkipped,
        ViolationCode::ContractTampered,
        ViolationCode::BadFingerprints,
        ViolationCode::LimitExceeded,
        ViolationCode::RoleConflict,
        ViolationCode::ArtifactOutsideFolder,
        ViolationCode::InvalidAgent,
        ViolationCode::TestSyntaxError,
        ViolationCode::WrongRecipient,
        ViolationCode::Premature,
        ViolationCode::Missing,
        ViolationCode::Late,
        ViolationCode::GateBreached,
        ViolationCode::OutOfScope,
        ViolationCode::AuditFailed,
        ViolationCode::ArtifactReused,
        ViolationCode::DirectMessage,
        ViolationCode::DuplicateId,
        ViolationCode::BadValue,
        ViolationCode::ReservationConflict,
        ViolationCode::Unanswered,
    ];

    /// The stable snake_case name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ViolationCode::InvalidMessage => "invalid_message",
            ViolationCode::OutOfOrder => "out_of_order",
            ViolationCode::WrongRole => "wrong_role",
            ViolationCode::AfterEnd => "after_end",
            ViolationCode::CheckpointSkipped => "checkpoint_skipped",
            ViolationCode::ContractTampered => "contract_tampered",
            ViolationCode::BadFingerprints => "bad_fingerprints",
            ViolationCode::LimitExceeded => "limit_exceeded",
            ViolationCode::RoleConflict => "role_conflict",
            ViolationCode::ArtifactOutsideFolder => "artifact_outside_folder",
            ViolationCode::InvalidAgent => "invalid_agent",
            ViolationCode::TestSyntaxError => "test_syntax_error",
            ViolationCode::WrongRecipient => "wrong_recipient",
            ViolationCode::Premature => "premature",
            ViolationCode::Missing => "missing",
            ViolationCode::Late => "late",
            ViolationCode::GateBreached => "gate_breached",
            ViolationCode::OutOfScope => "out_of_scope",
            ViolationCode::AuditFailed => "audit_failed",
            ViolationCode::ArtifactReused => "artifact_reused",
            ViolationCode::DirectMessage => "direct_message",
            ViolationCode::DuplicateId => "duplicate_id",
            ViolationCode::BadValue => "bad_value",
            ViolationCode::ReservationConflict => "reservation_conflict",
            ViolationCode::Unanswered => "unanswered",
        }
    }
}

impl ViolationCode {
    /// What the code means, and whether the message still moves the session.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            ViolationCode::InvalidMessage => "the message fails validation (its issues are listed); not applied",
            ViolationCode::OutOfOrder => "the message is not expected in the current phase (or leaves it while a checkpoint is open without deciding it); not applied (a driver's call while its permission request is pending is applied: the flow is synchronous, the call should have waited)",
            ViolationCode::WrongRole => "the message comes from the wrong role (CONTRACT_FINAL from the builder, a directive from the task agent: not applied; a droid report from an agent the task was not assigned to (an error_report may also come from the agent that assigned it) or under another agent's sender_id, a navigator's tool call from the driver: reported, the board still applies it)",
            ViolationCode::AfterEnd => "the message comes after the session or task ended; not applied",
            ViolationCode::CheckpointSkipped => "a human checkpoint was skipped (CONTRACT_FINAL with no CONTRACT_DRAFT under review); applied",
            ViolationCode::ContractTampered => "a contract test file differs from its fingerprint (the seed's CONTRACT_TAMPERED), from BUILD_COMPLETE's fingerprints or an audit report; applied, the file named",
            ViolationCode::BadFingerprints => "a `test_fingerprints` member is not `{\"<path>\": \"sha256:<hex>\"}`; applied without it",
            ViolationCode::LimitExceeded => "a limit was passed without the end it calls for (a third TIMEOUT_WARNING, FEEDBACK past max_revisions, FIX past retry.max, a Pair Claude turn past PAIR_NAVIGATOR_MAX_TURNS / PAIR_DRIVER_MAX_TURNS); applied",
            ViolationCode::RoleConflict => "a second PAIR_INIT claims the role the session gave the other agent; not applied",
            ViolationCode::ArtifactOutsideFolder => "a message names an artifact path that leaves the project folder (`..` above it, absolute, a drive, `~`, another variable than `$PROJECT_ROOT`); found when the console resolves a session's artifacts, which it then never reads; the message is applied",
            ViolationCode::InvalidAgent => "a sender or recipient is not a registered agent (the seed's INVALID_AGENT; checked when the registered agents are given); applied",
            ViolationCode::TestSyntaxError => "a contract test file does not parse (the seed's TEST_SYNTAX_ERROR: the planner fixes the tests; checked when the contract's files are given), the file and line named; applied",
            ViolationCode::WrongRecipient => "the message goes to someone other than the agent the protocol names (CONTRACT_FINAL to a third agent, a TIMEOUT_WARNING not to the silent agent, a directive not to the task agent); applied",
            ViolationCode::Premature => "the message comes before the protocol allows it (a TIMEOUT_WARNING before the response's deadline or the 10 minutes after the last warning); applied",
            ViolationCode::Missing => "a step the protocol requires was not taken when it was due (a TIMEOUT_WARNING or SESSION_ABORT, the audit before a merge, a PROGRESS_UPDATE every 5 minutes, an ERROR or error_report answering an invalid message); found at the next message or at the time the log is judged, and blamed on the agent that owed the step",
            ViolationCode::Late => "a response or report came after its deadline (or had not come by the time the log is judged): the builder's answer to CONTRACT_FINAL after 30 minutes, a COMPLETION_REPORT past GO's timeout_minutes, a droid task past its deadline, a permission request unanswered past PAIR_PERMISSION_TIMEOUT_MS, a review request past PAIR_TOOL_TIMEOUT_MS",
            ViolationCode::GateBreached => "a directive or decision goes against the evidence it answers (GO on a plan not validated or past the revision limit, NEXT on failing tests, unmet criteria or files outside GO's authorization, a merge after a failed audit or a tampered contract); applied",
            ViolationCode::OutOfScope => "the agent touched files outside the scope its task authorized (GO's authorized_files, a droid assignment's file_patterns); applied",
            ViolationCode::AuditFailed => "the audit failed the builder's build (scheming detected, tampered tests, an unauthorized dependency); blamed on the builder",
            ViolationCode::ArtifactReused => "an artifact path is reused where the protocol wants a new one (an accepted change order overwriting the finalized spec or tests, two sessions sharing one tmp/pair_<timestamp>_ directory); applied",
            ViolationCode::DirectMessage => "the navigator and the driver mailed each other directly (seed 003: all inter-agent communication flows through the orchestrator)",
            ViolationCode::DuplicateId => "two messages carry the same message_id (seed 004: unique identifiers)",
            ViolationCode::BadValue => "a member's value breaks a rule the schema does not state (a droid timestamp not in UTC, a TIMEOUT_WARNING or SESSION_ABORT naming another phase than the session's, a PermissionRequest for a tool that needs no approval); applied",
            ViolationCode::ReservationConflict => "a file reservation conflicts with an active reservation of another agent; applied",
            ViolationCode::Unanswered => "a message that calls for an answer got another message, or none, from the agent that owed it (an invalid Agent-PO message answered with a directive instead of ERROR; an invalid, unknown or incompatible droid message with no error_report to its sender)",
        }
    }
}

impl Serialize for ViolationCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ViolationCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::names::by_name(d, ViolationCode::ALL, ViolationCode::as_str)
    }
}

/// One violation, pointing at the message that caused it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// What rule.
    pub code: ViolationCode,
    /// What happened, in words.
    pub message: String,
    /// The message's position in the log (0-based).
    pub entry: usize,
    /// The transport's message id.
    pub id: Option<u64>,
    /// When the message was sent.
    pub at: Option<Timestamp>,
    /// The message's type, when known.
    pub message_type: Option<&'static str>,
    /// The file concerned (tampering).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The agent that broke the rule when it is not the message's sender (the agent that owed
    /// a missed step, a late responder, the builder of a build the audit failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// For a step not taken (`missing`), the message type that was due.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<&'static str>,
    /// The validation issues of an invalid message.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<Issue>,
}

impl Violation {
    /// A violation caused by `env`.
    #[must_use]
    pub fn at(code: ViolationCode, env: &Envelope, message: String) -> Violation {
        Violation {
            code,
            message,
            entry: env.index,
            id: env.id,
            at: env.at,
            message_type: env.message_type(),
            file: None,
            by: None,
            expected: None,
            issues: Vec::new(),
        }
    }

    /// This violation, for a step not taken: the message type that was due.
    #[must_use]
    pub fn expecting(self, message_type: &'static str) -> Violation {
        Violation {
            expected: Some(message_type),
            ..self
        }
    }

    /// This violation, blamed on `agent` rather than on the message's sender.
    #[must_use]
    pub fn by(self, agent: Option<&str>) -> Violation {
        Violation {
            by: agent.map(str::to_owned),
            ..self
        }
    }

    /// A violation about a message known by its place in the log (a finding made after
    /// folding, from what a session kept of the message).
    #[must_use]
    pub fn on(
        code: ViolationCode,
        entry: usize,
        id: Option<u64>,
        at: Option<Timestamp>,
        message_type: Option<&'static str>,
        message: String,
    ) -> Violation {
        Violation {
            code,
            message,
            entry,
            id,
            at,
            message_type,
            file: None,
            by: None,
            expected: None,
            issues: Vec::new(),
        }
    }

    /// The `invalid_message` violation of an envelope whose message failed validation.
    #[must_use]
    pub fn invalid(env: &Envelope) -> Violation {
        let issues = match &env.carried {
            Carried::Invalid(invalid) => invalid.report.errors().cloned().collect(),
            _ => Vec::new(),
        };
        let first = issues.first().map_or_else(String::new, |i: &Issue| {
            format!(": {} {}", i.path.to_pointer(), i.message)
        });
        let what = env.message_type().unwrap_or("message");
        Violation {
            issues,
            ..Violation::at(
                ViolationCode::InvalidMessage,
                env,
                format!("{} ({what}) is invalid{first}", env.reference()),
            )
        }
    }
}

/// Where a message is in the log, kept so that a finding made later (at another message, or at
/// the time the log is judged) points at it as [`Violation::at`] would.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mark {
    entry: usize,
    id: Option<u64>,
    at: Option<Timestamp>,
    message_type: Option<&'static str>,
}

impl Mark {
    /// The mark of `env`.
    pub(crate) fn of(env: &Envelope) -> Mark {
        Mark {
            entry: env.index,
            id: env.id,
            at: env.at,
            message_type: env.message_type(),
        }
    }

    /// When the message was sent.
    pub(crate) fn at(&self) -> Option<Timestamp> {
        self.at
    }

    /// The transport's message id.
    pub(crate) fn id(&self) -> Option<u64> {
        self.id
    }

    /// A violation caused by the marked message.
    pub(crate) fn violation(&self, code: ViolationCode, message: String) -> Violation {
        Violation {
            code,
            message,
            entry: self.entry,
            id: self.id,
            at: self.at,
            message_type: self.message_type,
            file: None,
            by: None,
            expected: None,
            issues: Vec::new(),
        }
    }

    /// `message 12` (transport id) or `entry 3` (log position), as [`Envelope::reference`].
    pub(crate) fn reference(&self) -> String {
        match self.id {
            Some(id) => format!("message {id}"),
            None => format!("entry {}", self.entry + 1),
        }
    }
}
