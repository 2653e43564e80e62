//! The protocols' own answers to a message that fails validation: [`error_reply`].
//!
//! - droid (seed 004, "Error Handling"): the receiver rejects the message
//!   (`{"error": "invalid_format", "details": …}` with the original's `message_id`) and notifies
//!   the sender with an `error_report` citing it; an unknown type gets only the `error_report`;
//!   a different major `version` is rejected as `version_mismatch`. The `error_report` codes
//!   are protocol-notes §5.2's proposal: `INVALID_FORMAT`, `UNKNOWN_MESSAGE_TYPE`,
//!   `VERSION_MISMATCH`.
//! - Agent-PO (seed 002, "Invalid Message Response"): `ERROR` with `INVALID_MESSAGE`, naming the
//!   original `message_type`.
//! - Pair and Pair Claude define no error reply.
//!
//! Both are built by [`super::build`], so time and ids come from the caller's
//! [`ReplyOptions`]; the library never reads a clock or a random source.

use super::build::{build, BuildError, BuildOptions};
use crate::protocol::model::Message;
use crate::protocol::registry::formats::BEADS_ID;
use crate::protocol::registry::FamilyId;
use crate::protocol::{Issue, IssueCode, Report};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::fmt;

/// Why a droid receiver rejects a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectCode {
    /// The message does not conform to the standard.
    InvalidFormat,
    /// Its major `version` is not the receiver's.
    VersionMismatch,
}

/// A droid receiver's rejection (seed 004: "Reject with error message").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reject {
    /// Why.
    pub error: RejectCode,
    /// The first problem, as `path: message (code)`.
    pub details: String,
    /// The original's `message_id`, for correlation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
}

/// A family's answer to an invalid message.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "family")]
pub enum ErrorReply {
    /// Droid: the rejection (none for an unknown type) and the `error_report` notification.
    #[serde(rename = "droid")]
    Droid {
        /// The rejection.
        #[serde(skip_serializing_if = "Option::is_none")]
        reject: Option<Reject>,
        /// The `error_report` to the sender.
        error_report: Message,
    },
    /// Agent-PO: the `ERROR` message.
    #[serde(rename = "agent-po")]
    AgentPo {
        /// The `ERROR` message.
        error: Message,
    },
}

/// How to reply: the replying protocol (default: the message's, when it could be told) and
/// the reply's time, id and sender.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplyOptions {
    /// The receiver's protocol, when it is not (or cannot be) told from the message.
    #[serde(default)]
    pub family: Option<FamilyId>,
    /// `now`, `random` and `sender` for the reply (the others are not used).
    #[serde(flatten)]
    pub build: BuildOptions,
}

/// Why no error reply could be built.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum ReplyError {
    /// The message is valid: there is nothing to answer.
    Valid,
    /// The message's family (if it could be told) defines no error reply.
    NoErrorReply {
        /// The family, when detected.
        family: Option<FamilyId>,
    },
    /// The reply itself could not be built (e.g. no `now` for its timestamp).
    Build {
        /// Why.
        cause: BuildError,
    },
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Valid => f.write_str("the message is valid: there is no error to reply to"),
            Self::NoErrorReply { family: Some(id) } => {
                write!(f, "the {} protocol defines no error reply", id.as_str())
            }
            Self::NoErrorReply { family: None } => f.write_str(
                "the message's family could not be told, so no protocol's error reply applies",
            ),
            Self::Build { cause } => write!(f, "the reply cannot be built: {cause}"),
        }
    }
}

impl std::error::Error for ReplyError {}

impl From<BuildError> for ReplyError {
    fn from(cause: BuildError) -> Self {
        ReplyError::Build { cause }
    }
}

fn issue_line(i: &Issue) -> String {
    let p = i.path.to_pointer();
    format!(
        "{}: {} ({})",
        if p.is_empty() { "/" } else { &p },
        i.message,
        i.code
    )
}

/// A one-line summary of a report's first error.
fn summary(report: &Report) -> String {
    report
        .errors()
        .next()
        .map_or_else(|| "message is invalid".to_owned(), issue_line)
}

fn str_member<'a>(original: &'a Value, key: &str) -> Option<&'a str> {
    original
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The reply to `original`, the protocol message `report` found invalid (for an Agent Mail
/// row, the message it carries), in the receiver's protocol (`options.family`, else the
/// message's), with the reply's time, id and sender from `options`.
///
/// # Errors
/// [`ReplyError`]: the message is valid, the protocol defines no reply, or the reply cannot
/// be built (a droid reply needs `now`, `random` and `sender`).
pub fn error_reply(
    report: &Report,
    original: &Value,
    options: &ReplyOptions,
) -> Result<ErrorReply, ReplyError> {
    if report.valid {
        return Err(ReplyError::Valid);
    }
    match options.family.or(report.family) {
        Some(FamilyId::Droid) => droid(report, original, &options.build),
        Some(FamilyId::AgentPo) => agent_po(report, original, &options.build),
        family => Err(ReplyError::NoErrorReply { family }),
    }
}

fn agent_po(
    report: &Report,
    original: &Value,
    options: &BuildOptions,
) -> Result<ErrorReply, ReplyError> {
    let mut error = Map::new();
    error.insert("code".into(), "INVALID_MESSAGE".into());
    error.insert("message".into(), summary(report).into());
    if let Some(t) = str_member(original, "message_type") {
        error.insert("original_message_type".into(), t.into());
    }
    let fields = json!({"error": error, "action": "Please resubmit with all required fields"});
    let options = BuildOptions {
        now: options.now,
        ..BuildOptions::default()
    };
    Ok(ErrorReply::AgentPo {
        error: build("agent-po/ERROR", &fields, &options)?,
    })
}

fn droid(
    report: &Report,
    original: &Value,
    options: &BuildOptions,
) -> Result<ErrorReply, ReplyError> {
    let has = |codes: &[IssueCode]| report.issues.iter().any(|i| codes.contains(&i.code));
    let (code, reject) = if has(&[IssueCode::VersionMismatch]) {
        ("VERSION_MISMATCH", Some(RejectCode::VersionMismatch))
    } else if has(&[IssueCode::UnknownMessageType, IssueCode::UnknownFamily]) {
        ("UNKNOWN_MESSAGE_TYPE", None)
    } else {
        ("INVALID_FORMAT", Some(RejectCode::InvalidFormat))
    };
    let message_id = str_member(original, "message_id");
    let mut context = Map::new();
    if let Some(id) = message_id {
        context.insert("original_message_id".into(), id.into());
    }
    if let Some(t) = str_member(original, "type") {
        context.insert("original_type".into(), t.into());
    }
    let issues: Vec<Value> = report
        .errors()
        .map(|i| json!({ "path": i.path.to_pointer(), "code": i.code, "message": i.message }))
        .collect();
    context.insert("issues".into(), issues.into());
    let task_id = str_member(original, "task_id")
        .filter(|t| (BEADS_ID.check)(t))
        .unwrap_or("unknown");
    let steps: Vec<String> = report.errors().map(issue_line).collect();
    let fields = json!({
        "task_id": task_id,
        "severity": "high",
        "error": {
            "code": code,
            "message": format!("invalid message: {}", summary(report)),
            "context": context,
        },
        "reproduction_steps": steps,
        "needs_human_intervention": false,
        "suggested_actions": ["Fix the listed fields and resend the message"],
    });
    let options = BuildOptions {
        now: options.now,
        random: options.random,
        sender: options.sender.clone(),
        ..BuildOptions::default()
    };
    Ok(ErrorReply::Droid {
        reject: reject.map(|error| Reject {
            error,
            details: summary(report),
            message_id: message_id.map(str::to_owned),
        }),
        error_report: build("droid/error_report", &fields, &options)?,
    })
}
