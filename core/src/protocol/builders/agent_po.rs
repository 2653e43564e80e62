//! Agent-PO directives from the Product Owner to a task agent: the outputs of the GO and NEXT
//! gates.

use super::Text;
use crate::protocol::registry::formats::{AGENT_ID, PO_TASK_ID};
use crate::time::Timestamp;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The agent and task a directive is about, both in their protocol forms
/// (`^agent-[a-z0-9]+$`, `^TASK-[A-Z0-9-]+$`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaskIds {
    /// The task agent.
    pub agent_id: String,
    /// The task.
    pub task_id: String,
}

impl TaskIds {
    /// The ids, when both have their protocol form.
    #[must_use]
    pub fn new(agent_id: &str, task_id: &str) -> Option<TaskIds> {
        ((AGENT_ID.check)(agent_id) && (PO_TASK_ID.check)(task_id)).then(|| TaskIds {
            agent_id: agent_id.to_owned(),
            task_id: task_id.to_owned(),
        })
    }
}

/// One problem a gate found, as a directive's `validation.issues[]` item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DirectiveIssue {
    /// The issue type (`missing_coverage`, `scope_violation`, `test_failure`, …).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// What is wrong.
    pub message: Text,
    /// The acceptance criterion concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ac_id: Option<Text>,
    /// The test (file) concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<Text>,
}

fn base(message_type: &str, ids: &TaskIds, now: Timestamp) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("message_type".into(), message_type.into());
    m.insert("task_id".into(), ids.task_id.clone().into());
    m.insert("agent_id".into(), ids.agent_id.clone().into());
    m.insert("timestamp".into(), now.to_rfc3339().into());
    m
}

fn with(mut m: Map<String, Value>, members: Value) -> Value {
    if let Value::Object(extra) = members {
        m.extend(extra);
    }
    Value::Object(m)
}

/// GO_DIRECTIVE: the plan passed the GO gate; implement within `timeout_minutes` (≥ 1).
#[must_use]
pub fn go_directive(
    ids: &TaskIds,
    now: Timestamp,
    authorized_files: &[String],
    timeout_minutes: u32,
) -> Value {
    with(
        base("GO_DIRECTIVE", ids, now),
        json!({
            "status": "GO",
            "validation": {"plan_validated": true, "ac_coverage": "complete",
                "file_scope": "verified", "test_delta": "addressed"},
            "authorization": {"authorized_files": authorized_files,
                "timeout_minutes": timeout_minutes.max(1)},
            "message": "GO. Plan validated. Begin implementation.",
        }),
    )
}

/// FEEDBACK: the plan failed the GO gate; revise it (`current_revision` of `max_revisions`).
#[must_use]
pub fn feedback(
    ids: &TaskIds,
    now: Timestamp,
    issues: &[DirectiveIssue],
    guidance: &Text,
    current_revision: u32,
    max_revisions: u32,
) -> Value {
    with(
        base("FEEDBACK", ids, now),
        json!({
            "status": "NEEDS_REVISION",
            "validation": {"issues": issues},
            "guidance": guidance,
            "revision_required": true,
            "max_revisions": max_revisions,
            "current_revision": current_revision,
        }),
    )
}

/// FIX_DIRECTIVE: the completion report failed the NEXT gate; fix it (retry `count` of `max`).
#[must_use]
pub fn fix_directive(
    ids: &TaskIds,
    now: Timestamp,
    issues: &[DirectiveIssue],
    guidance: &Text,
    count: u32,
    max: u32,
) -> Value {
    with(
        base("FIX_DIRECTIVE", ids, now),
        json!({
            "status": "FIX",
            "validation": {"issues": issues},
            "retry": {"count": count, "max": max, "allowed": count <= max},
            "guidance": guidance,
            "message": "FIX required. Address issues and resubmit.",
        }),
    )
}

/// What a NEXT_DIRECTIVE summarises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Completion {
    /// Acceptance criteria met.
    pub criteria_met: u64,
    /// Tests passed.
    pub tests_passed: u64,
    /// Files changed.
    pub files_changed: u64,
}

/// NEXT_DIRECTIVE: the completion report passed the NEXT gate.
#[must_use]
pub fn next_directive(ids: &TaskIds, now: Timestamp, done: Completion) -> Value {
    with(
        base("NEXT_DIRECTIVE", ids, now),
        json!({
            "status": "NEXT",
            "validation": {"report_validated": true, "ac_verified": "complete",
                "tests_passed": true, "scope_verified": true},
            "summary": done,
            "message": "NEXT. Task completed successfully.",
            "cleanup": {"worktree": "ready_for_merge",
                "branch": format!("agent/{}/{}", ids.agent_id, ids.task_id)},
        }),
    )
}

/// BLOCKED_NOTIFICATION (PO → agent): the task is blocked; `history` lists what was tried.
#[must_use]
pub fn blocked(ids: &TaskIds, now: Timestamp, reason: &Text, history: Map<String, Value>) -> Value {
    with(
        base("BLOCKED_NOTIFICATION", ids, now),
        json!({
            "reason": reason,
            "history": history,
            "next_steps": {"options": ["Revise the task definition", "Reassign the task"],
                "escalate": true},
        }),
    )
}
