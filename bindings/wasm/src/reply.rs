//! What the session, gate and contract exports return: one JSON text, `{"ok": value}` or
//! `{"error": {code, message, …details}}`, which the JS layer turns into the value or a thrown
//! `SwitchboardError`. Each core error becomes one stable code here; nothing else is decided.

use crate::report::JsReport;
use serde::Serialize;
use serde_json::{json, Map, Value};
use switchboard_core::agent_mail::LogError;
use switchboard_core::audit::DiffError;
use switchboard_core::fingerprint::FingerprintError;
use switchboard_core::protocol::Report;
use switchboard_core::session::agent_po::gate::GateError;
use switchboard_core::session::pair::checkpoint::DecisionError;
use switchboard_core::time::Timestamp;

/// The stable code of a refusal, as the JS layer's `SwitchboardError.code` carries it (and
/// `types.d.ts`'s `SwitchboardErrorCode` lists, generated from [`ErrorCode::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// A message log that is not JSON (with `line` and `column`).
    BadLog,
    /// A message log with no message.
    EmptyLog,
    /// No Pair session with that id in the log (with the `sessions` found).
    UnknownSession,
    /// A decision that is no checkpoint's (with the `input` and the `allowed` literals).
    UnknownDecision,
    /// A decision the open checkpoint does not allow.
    DecisionNotAllowed,
    /// A decision that needs text (`REVISE: <feedback>`) without it.
    MissingText,
    /// Text after a decision that takes none.
    UnexpectedText,
    /// The session has no open checkpoint.
    NoOpenCheckpoint,
    /// The named checkpoint is no longer the open one.
    CheckpointNotOpen,
    /// The session's planner or builder is not known (with the missing `role`).
    UnknownRoles,
    /// An argument that should hold JSON does not.
    NotJson,
    /// A message that is not valid where a valid one is needed (with its `report`).
    InvalidMessage,
    /// An Agent-PO task definition that cannot be read.
    BadTask,
    /// A message of another type than the gate takes.
    WrongMessage,
    /// A message for another task or agent than the gate's.
    TaskMismatch,
    /// A file path that is empty, absolute, climbs out (`..`) or repeats another.
    BadPath,
    /// Fingerprints that are not `{path: "sha256:<hex>"}`.
    BadFingerprints,
    /// File contents that do not match their lengths.
    BadFiles,
    /// Text that is not a unified diff.
    NotADiff,
    /// A diff with a malformed file patch (with its `index`).
    MalformedDiff,
    /// A time that is not one.
    BadTime,
    /// A `family/TYPE` key that names no message type (with the `known` keys).
    UnknownKey,
    /// Builder fields that are not an object.
    NotAnObject,
    /// A member given both in the fields and by an option (with `member` and `option`).
    Conflict,
    /// A required member derived from an option that was not given (with `member` and `option`).
    MissingOption,
    /// An error reply asked for a valid message.
    MessageValid,
    /// The message's protocol defines no error reply (with its `family`).
    NoErrorReply,
    /// A report that is not one of this package's reports.
    BadReport,
    /// A registered agents list that is not one (an array of names or `{name}` objects).
    BadAgents,
    /// A conformance baseline that is not one (or names an unknown check).
    BadBaseline,
}

impl ErrorCode {
    /// Every code, in documentation order.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::BadLog,
        ErrorCode::EmptyLog,
        ErrorCode::UnknownSession,
        ErrorCode::UnknownDecision,
        ErrorCode::DecisionNotAllowed,
        ErrorCode::MissingText,
        ErrorCode::UnexpectedText,
        ErrorCode::NoOpenCheckpoint,
        ErrorCode::CheckpointNotOpen,
        ErrorCode::UnknownRoles,
        ErrorCode::NotJson,
        ErrorCode::InvalidMessage,
        ErrorCode::BadTask,
        ErrorCode::WrongMessage,
        ErrorCode::TaskMismatch,
        ErrorCode::BadPath,
        ErrorCode::BadFingerprints,
        ErrorCode::BadFiles,
        ErrorCode::NotADiff,
        ErrorCode::MalformedDiff,
        ErrorCode::BadTime,
        ErrorCode::UnknownKey,
        ErrorCode::NotAnObject,
        ErrorCode::Conflict,
        ErrorCode::MissingOption,
        ErrorCode::MessageValid,
        ErrorCode::NoErrorReply,
        ErrorCode::BadReport,
        ErrorCode::BadAgents,
        ErrorCode::BadBaseline,
    ];

    /// The code as JS sees it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadLog => "bad_log",
            ErrorCode::EmptyLog => "empty_log",
            ErrorCode::UnknownSession => "unknown_session",
            ErrorCode::UnknownDecision => "unknown_decision",
            ErrorCode::DecisionNotAllowed => "decision_not_allowed",
            ErrorCode::MissingText => "missing_text",
            ErrorCode::UnexpectedText => "unexpected_text",
            ErrorCode::NoOpenCheckpoint => "no_open_checkpoint",
            ErrorCode::CheckpointNotOpen => "checkpoint_not_open",
            ErrorCode::UnknownRoles => "unknown_roles",
            ErrorCode::NotJson => "not_json",
            ErrorCode::InvalidMessage => "invalid_message",
            ErrorCode::BadTask => "bad_task",
            ErrorCode::WrongMessage => "wrong_message",
            ErrorCode::TaskMismatch => "task_mismatch",
            ErrorCode::BadPath => "bad_path",
            ErrorCode::BadFingerprints => "bad_fingerprints",
            ErrorCode::BadFiles => "bad_files",
            ErrorCode::NotADiff => "not_a_diff",
            ErrorCode::MalformedDiff => "malformed_diff",
            ErrorCode::BadTime => "bad_time",
            ErrorCode::UnknownKey => "unknown_key",
            ErrorCode::NotAnObject => "not_an_object",
            ErrorCode::Conflict => "conflict",
            ErrorCode::MissingOption => "missing_option",
            ErrorCode::MessageValid => "message_valid",
            ErrorCode::NoErrorReply => "no_error_reply",
            ErrorCode::BadReport => "bad_report",
            ErrorCode::BadAgents => "bad_agents",
            ErrorCode::BadBaseline => "bad_baseline",
        }
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A core error as the JS layer throws it: a stable code, the core's one-line reason, and the
/// error's data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallError {
    /// The stable code.
    pub code: ErrorCode,
    /// The core's reason, one line.
    pub message: String,
    /// The error's data (the typed input, the allowed decisions, the invalid message's report).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

impl CallError {
    /// An error with no data.
    pub fn new(code: ErrorCode, message: impl ToString) -> CallError {
        CallError {
            code,
            message: message.to_string(),
            details: Map::new(),
        }
    }

    /// The same error with one more datum.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl Serialize) -> CallError {
        self.details.insert(key.to_owned(), json!(value));
        self
    }
}

impl From<LogError> for CallError {
    fn from(e: LogError) -> Self {
        match &e {
            LogError::NotJson { line, column, .. } => CallError::new(ErrorCode::BadLog, &e)
                .with("line", line)
                .with("column", column),
            LogError::Empty => CallError::new(ErrorCode::EmptyLog, &e),
        }
    }
}

impl From<DecisionError> for CallError {
    fn from(e: DecisionError) -> Self {
        match &e {
            DecisionError::Unknown { input, allowed } => {
                CallError::new(ErrorCode::UnknownDecision, &e)
                    .with("input", input)
                    .with("allowed", allowed)
            }
            DecisionError::NotAllowed {
                decision,
                checkpoint,
            } => CallError::new(ErrorCode::DecisionNotAllowed, &e)
                .with("decision", decision)
                .with("checkpoint", checkpoint),
            DecisionError::MissingText { decision, what } => {
                CallError::new(ErrorCode::MissingText, &e)
                    .with("decision", decision)
                    .with("what", what)
            }
            DecisionError::UnexpectedText { decision } => {
                CallError::new(ErrorCode::UnexpectedText, &e).with("decision", decision)
            }
            DecisionError::NoOpenCheckpoint => CallError::new(ErrorCode::NoOpenCheckpoint, &e),
            DecisionError::NotOpen { checkpoint, open } => {
                CallError::new(ErrorCode::CheckpointNotOpen, &e)
                    .with("checkpoint", checkpoint)
                    .with("open", open)
            }
            DecisionError::UnknownAgent { role, .. } => {
                CallError::new(ErrorCode::UnknownRoles, &e).with("role", role)
            }
        }
    }
}

impl From<GateError> for CallError {
    fn from(e: GateError) -> Self {
        let code = match e {
            GateError::BadTask(_) => ErrorCode::BadTask,
            GateError::WrongMessage(_) => ErrorCode::WrongMessage,
            GateError::Mismatch(_) => ErrorCode::TaskMismatch,
        };
        CallError::new(code, e)
    }
}

impl From<FingerprintError> for CallError {
    fn from(e: FingerprintError) -> Self {
        let code = match e {
            FingerprintError::EmptyPath(_)
            | FingerprintError::AbsolutePath(_)
            | FingerprintError::ParentPath(_)
            | FingerprintError::DuplicatePath(_) => ErrorCode::BadPath,
            FingerprintError::NotJson(_)
            | FingerprintError::NotAnObject
            | FingerprintError::BadDigest { .. } => ErrorCode::BadFingerprints,
        };
        CallError::new(code, e)
    }
}

impl From<DiffError> for CallError {
    fn from(e: DiffError) -> Self {
        match &e {
            DiffError::NotADiff => CallError::new(ErrorCode::NotADiff, &e),
            DiffError::Malformed { index, .. } => {
                CallError::new(ErrorCode::MalformedDiff, &e).with("index", index)
            }
            DiffError::BadPath(_) => CallError::new(ErrorCode::BadPath, &e),
        }
    }
}

/// A message that is not valid where a valid one is needed: its report comes along, in the
/// package's report shape (`messageType`).
pub fn invalid_message(what: &str, report: &Report) -> CallError {
    let first = report.errors().next().map_or_else(String::new, |i| {
        format!(": {} {}", i.path.to_pointer(), i.message)
    });
    CallError::new(
        ErrorCode::InvalidMessage,
        format!("the {what} is not a valid message{first}"),
    )
    .with("report", JsReport::of(report, false))
}

/// A time in milliseconds since the epoch as the core's [`Timestamp`] (the JS layer checks it
/// is an integer in the range of a `Date`).
pub fn time(ms: f64) -> Result<Timestamp, CallError> {
    // ±8.64e15 ms is the range of a JS Date; the cast is exact within it.
    #[allow(clippy::cast_possible_truncation)]
    let whole = (ms.is_finite() && ms.abs() <= 8.64e15 && ms.fract() == 0.0).then_some(ms as i64);
    whole.map(Timestamp).ok_or_else(|| {
        CallError::new(
            ErrorCode::BadTime,
            format!("{ms} is not a time in milliseconds"),
        )
    })
}

/// The JSON text of a call's result.
pub fn reply<T: Serialize>(result: Result<T, CallError>) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "lowercase")]
    enum Reply<T> {
        Ok(T),
        Error(CallError),
    }
    let reply = match result {
        Ok(value) => Reply::Ok(value),
        Err(error) => Reply::Error(error),
    };
    // Serializing the core's results (string-keyed structs and maps) cannot fail; if it did,
    // the JS layer would throw on the text.
    serde_json::to_string(&reply).unwrap_or_default()
}
