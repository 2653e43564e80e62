//! The protocols' own error replies for an invalid message. Time and ids are passed in; the
//! library never reads a clock or a random source.

use crate::protocol::{Issue, IssueCode, Report, Severity};
use serde_json::{json, Map, Value};

/// A one-line summary of a report's first error.
fn summary(report: &Report) -> String {
    report
        .issues
        .iter()
        .find(|i| i.severity == Severity::Error)
        .map_or_else(|| "message is invalid".to_owned(), issue_line)
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

fn str_member<'a>(original: &'a Value, key: &str) -> Option<&'a str> {
    original
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The Agent-PO `ERROR` reply (`INVALID_MESSAGE`) to an invalid message.
pub fn agent_po_error(original: &Value, report: &Report) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), "INVALID_MESSAGE".into());
    error.insert("message".into(), summary(report).into());
    if let Some(t) = str_member(original, "message_type") {
        error.insert("original_message_type".into(), t.into());
    }
    json!({
        "message_type": "ERROR",
        "error": error,
        "action": "Please resubmit with all required fields",
    })
}

/// Time and identity of a droid reply, supplied by the caller.
#[derive(Debug, Clone, Copy)]
pub struct ReplyIds<'a> {
    /// RFC 3339 timestamp of the reply.
    pub timestamp: &'a str,
    /// UUID of the reply.
    pub message_id: &'a str,
    /// The replying agent.
    pub sender_id: &'a str,
}

/// The droid `error_report` answering an invalid message, citing its `message_id` in
/// `error.context.original_message_id`. The task id is the original's when it has one, else `"unknown"`.
pub fn droid_error_report(original: &Value, report: &Report, ids: &ReplyIds<'_>) -> Value {
    let code = if report
        .issues
        .iter()
        .any(|i| i.code == IssueCode::VersionMismatch)
    {
        "VERSION_MISMATCH"
    } else if report.issues.iter().any(|i| {
        matches!(
            i.code,
            IssueCode::UnknownMessageType | IssueCode::UnknownFamily
        )
    }) {
        "UNKNOWN_MESSAGE_TYPE"
    } else {
        "INVALID_FORMAT"
    };
    let mut context = Map::new();
    if let Some(id) = str_member(original, "message_id") {
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
        .filter(|t| {
            t.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        })
        .unwrap_or("unknown");
    let steps: Vec<String> = report.errors().map(issue_line).collect();
    json!({
        "version": "1.0.0",
        "timestamp": ids.timestamp,
        "sender_id": ids.sender_id,
        "message_id": ids.message_id,
        "type": "error_report",
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
    })
}
