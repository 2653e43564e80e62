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

/// A core error as the JS layer throws it: a stable code, the core's one-line reason, and the
/// error's data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallError {
    /// The stable code (`bad_log`, `unknown_decision`, `bad_task`, …).
    pub code: &'static str,
    /// The core's reason, one line.
    pub message: String,
    /// The error's data (the typed input, the allowed decisions, the invalid message's report).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

impl CallError {
    /// An error with no data.
    pub fn new(code: &'static str, message: impl ToString) -> CallError {
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
            LogError::NotJson { line, column, .. } => CallError::new("bad_log", &e)
                .with("line", line)
                .with("column", column),
            LogError::Empty => CallError::new("empty_log", &e),
        }
    }
}

impl From<DecisionError> for CallError {
    fn from(e: DecisionError) -> Self {
        match &e {
            DecisionError::Unknown { input, allowed } => CallError::new("unknown_decision", &e)
                .with("input", input)
                .with("allowed", allowed),
            DecisionError::NotAllowed {
                decision,
                checkpoint,
            } => CallError::new("decision_not_allowed", &e)
                .with("decision", decision)
                .with("checkpoint", checkpoint),
            DecisionError::MissingText { decision, what } => CallError::new("missing_text", &e)
                .with("decision", decision)
                .with("what", what),
            DecisionError::UnexpectedText { decision } => {
                CallError::new("unexpected_text", &e).with("decision", decision)
            }
            DecisionError::NoOpenCheckpoint => CallError::new("no_open_checkpoint", &e),
            DecisionError::NotOpen { checkpoint, open } => {
                CallError::new("checkpoint_not_open", &e)
                    .with("checkpoint", checkpoint)
                    .with("open", open)
            }
            DecisionError::UnknownAgent { role, .. } => {
                CallError::new("unknown_roles", &e).with("role", role)
            }
        }
    }
}

impl From<GateError> for CallError {
    fn from(e: GateError) -> Self {
        let code = match e {
            GateError::BadTask(_) => "bad_task",
            GateError::WrongMessage(_) => "wrong_message",
            GateError::Mismatch(_) => "task_mismatch",
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
            | FingerprintError::DuplicatePath(_) => "bad_path",
            FingerprintError::NotJson(_)
            | FingerprintError::NotAnObject
            | FingerprintError::BadDigest { .. } => "bad_fingerprints",
        };
        CallError::new(code, e)
    }
}

impl From<DiffError> for CallError {
    fn from(e: DiffError) -> Self {
        match &e {
            DiffError::NotADiff => CallError::new("not_a_diff", &e),
            DiffError::Malformed { index, .. } => {
                CallError::new("malformed_diff", &e).with("index", index)
            }
            DiffError::BadPath(_) => CallError::new("bad_path", &e),
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
        "invalid_message",
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
    whole
        .map(Timestamp)
        .ok_or_else(|| CallError::new("bad_time", format!("{ms} is not a time in milliseconds")))
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
