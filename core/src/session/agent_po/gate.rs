//! The Product Owner's GO and NEXT gates (seed 002): a plan or a completion report checked
//! against the task, giving the directive the PO sends.
//!
//! | gate | problem | when |
//! |---|---|---|
//! | GO | `missing_coverage` | a task criterion has no `plan.ac_mapping` entry |
//! | GO | `spec_conflict` | the plan maps a criterion the task does not have |
//! | GO | `scope_violation` | a file to modify (or an `ac_mapping` file) is outside the task's file scope |
//! | GO | `missing_test` | the plan has no test approach (no unit and no integration tests) |
//! | GO | `open_questions` | the plan still asks questions |
//! | NEXT | `unmet_criterion` | a task criterion is missing from `ac_verification`, or not PASS |
//! | NEXT | `missing_evidence` | a criterion is PASS without evidence |
//! | NEXT | `test_failure` | `test_results.failed` > 0 (one issue per failing test file when detailed) |
//! | NEXT | `scope_violation` | a changed file is outside the authorized files |

use crate::glob::glob_match;
use crate::protocol::builders::agent_po::{
    blocked, feedback, fix_directive, go_directive, next_directive, Completion, DirectiveIssue,
    TaskIds,
};
use crate::protocol::builders::Text;
use crate::session::fields::items;
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::fmt;

/// Plan revisions and fix retries the seed allows by default.
pub const DEFAULT_LIMIT: u32 = 2;
/// GO's default implementation timeout (minutes).
pub const DEFAULT_TIMEOUT_MINUTES: u32 = 30;

/// A task as the PO defines it: what the gates check plans and reports against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSpec {
    /// The task (`TASK-…`).
    pub task_id: String,
    /// The agent assigned, if fixed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The acceptance criteria's ids (`AC-001`, …); objects `{id, …}` are accepted too.
    #[serde(deserialize_with = "criteria")]
    pub acceptance_criteria: Vec<String>,
    /// Paths or globs the task may touch.
    pub file_scope: Vec<String>,
    /// Plan revisions allowed before the task is blocked.
    #[serde(default = "default_limit")]
    pub max_revisions: u32,
    /// Fix retries allowed before the task is blocked.
    #[serde(default = "default_limit")]
    pub max_retries: u32,
    /// GO's implementation timeout in minutes.
    #[serde(default = "default_timeout")]
    pub timeout_minutes: u32,
}

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

fn default_timeout() -> u32 {
    DEFAULT_TIMEOUT_MINUTES
}

fn criteria<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Criterion {
        Id(String),
        Object { id: String },
    }
    let items = Vec::<Criterion>::deserialize(d)?;
    Ok(items
        .into_iter()
        .map(|c| match c {
            Criterion::Id(id) | Criterion::Object { id } => id,
        })
        .collect())
}

/// Why a gate cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateError {
    /// The task definition is not usable (why).
    BadTask(String),
    /// The message is not the right type (what it is).
    WrongMessage(String),
    /// The message is about another task or agent.
    Mismatch(String),
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadTask(why) => write!(f, "task definition: {why}"),
            Self::WrongMessage(what) => write!(f, "{what}"),
            Self::Mismatch(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for GateError {}

impl TaskSpec {
    /// Reads a task definition from JSON.
    ///
    /// # Errors
    /// [`GateError::BadTask`] for JSON that is not a task definition or ids not in their form.
    pub fn from_json(text: &str) -> Result<TaskSpec, GateError> {
        let spec: TaskSpec =
            serde_json::from_str(text).map_err(|e| GateError::BadTask(e.to_string()))?;
        if !(crate::protocol::registry::formats::PO_TASK_ID.check)(&spec.task_id) {
            return Err(GateError::BadTask(format!(
                "task_id {:?} is not ^TASK-[A-Z0-9-]+$",
                spec.task_id
            )));
        }
        Ok(spec)
    }

    fn in_scope(&self, path: &str) -> bool {
        in_any(&self.file_scope, path)
    }
}

fn in_any(patterns: &[String], path: &str) -> bool {
    let path = path.trim_start_matches("./");
    patterns
        .iter()
        .any(|p| p.trim_start_matches("./") == path || glob_match(p.trim_start_matches("./"), path))
}

/// A gate's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// GO gate passed.
    Go,
    /// GO gate failed: revise the plan.
    Feedback,
    /// NEXT gate passed.
    Next,
    /// NEXT gate failed: fix and report again.
    Fix,
    /// Past the revision or retry limit.
    Blocked,
}

/// A gate's outcome: the verdict, each problem, and the directive to send.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateOutcome {
    /// The verdict.
    pub verdict: Verdict,
    /// Every problem found.
    pub problems: Vec<DirectiveIssue>,
    /// The directive (GO_DIRECTIVE, FEEDBACK, NEXT_DIRECTIVE, FIX_DIRECTIVE or
    /// BLOCKED_NOTIFICATION), valid by construction.
    pub directive: Value,
}

fn issue(
    kind: &'static str,
    message: String,
    ac_id: Option<&str>,
    test: Option<&str>,
) -> DirectiveIssue {
    DirectiveIssue {
        kind,
        message: Text::composed(message),
        ac_id: ac_id.and_then(Text::new),
        test: test.and_then(Text::new),
    }
}

fn ids_of(message: &Value, task: &TaskSpec, expected: &str) -> Result<TaskIds, GateError> {
    let kind = message
        .get("message_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    if kind != expected {
        return Err(GateError::WrongMessage(format!(
            "expected a {expected}, found {}",
            if kind.is_empty() {
                "no message_type"
            } else {
                kind
            }
        )));
    }
    let agent = message
        .get("agent_id")
        .and_then(Value::as_str)
        .unwrap_or("");
    let task_id = message.get("task_id").and_then(Value::as_str).unwrap_or("");
    if task_id != task.task_id {
        return Err(GateError::Mismatch(format!(
            "the {expected} is for {task_id}, the task is {}",
            task.task_id
        )));
    }
    if task.agent_id.as_deref().is_some_and(|a| a != agent) {
        return Err(GateError::Mismatch(format!(
            "the {expected} comes from {agent}, the task is assigned to {}",
            task.agent_id.as_deref().unwrap_or("")
        )));
    }
    TaskIds::new(agent, task_id).ok_or_else(|| {
        GateError::WrongMessage(format!(
            "agent_id {agent:?} or task_id {task_id:?} is not in its protocol form"
        ))
    })
}

/// The GO gate: a valid PLAN_SUBMISSION against the task.
///
/// # Errors
/// The message is no PLAN_SUBMISSION, or is about another task or agent.
pub fn go_gate(
    task: &TaskSpec,
    plan_submission: &Value,
    now: Timestamp,
) -> Result<GateOutcome, GateError> {
    let ids = ids_of(plan_submission, task, "PLAN_SUBMISSION")?;
    let plan = plan_submission.get("plan").unwrap_or(&Value::Null);
    let mut problems = Vec::new();
    let mapped: Vec<&str> = items(plan, "ac_mapping")
        .filter_map(|m| m.get("ac_id").and_then(Value::as_str))
        .collect();
    for ac in &task.acceptance_criteria {
        if !mapped.contains(&ac.as_str()) {
            problems.push(issue(
                "missing_coverage",
                format!("The plan does not address {ac}"),
                Some(ac),
                None,
            ));
        }
    }
    for ac in &mapped {
        if !task.acceptance_criteria.iter().any(|a| a == ac) {
            problems.push(issue(
                "spec_conflict",
                format!(
                    "The plan maps {ac}, which is not a criterion of {}",
                    task.task_id
                ),
                Some(ac),
                None,
            ));
        }
    }
    let mut files: Vec<String> = Vec::new();
    let planned = items(plan, "files_to_modify")
        .filter_map(|f| f.get("path").and_then(Value::as_str))
        .chain(items(plan, "ac_mapping").filter_map(|m| m.get("file").and_then(Value::as_str)));
    for path in planned.filter(|p| !p.trim().is_empty()) {
        if !files.iter().any(|f| f == path) {
            files.push(path.to_owned());
        }
    }
    for path in &files {
        if !task.in_scope(path) {
            problems.push(issue(
                "scope_violation",
                format!("{path} is outside the task's file scope"),
                None,
                None,
            ));
        }
    }
    let tests = plan.get("test_approach");
    let has_tests = tests.is_some_and(|t| {
        items(t, "unit_tests").next().is_some() || items(t, "integration_tests").next().is_some()
    });
    if !has_tests {
        problems.push(issue(
            "missing_test",
            "The plan has no test approach (no unit or integration tests)".into(),
            None,
            None,
        ));
    }
    let questions = items(plan_submission, "questions").count();
    if questions > 0 {
        problems.push(issue(
            "open_questions",
            format!("The plan asks {questions} open question(s); answer them before GO"),
            None,
            None,
        ));
    }
    let revision = plan_submission
        .get("revision")
        .and_then(Value::as_u64)
        .map_or(1, |r| u32::try_from(r).unwrap_or(u32::MAX));
    let (verdict, directive) = if problems.is_empty() {
        (
            Verdict::Go,
            go_directive(&ids, now, &files, task.timeout_minutes),
        )
    } else if revision <= task.max_revisions {
        let guidance = Text::composed(format!("Revise the plan: {}", summary(&problems)));
        (
            Verdict::Feedback,
            feedback(
                &ids,
                now,
                &problems,
                &guidance,
                revision,
                task.max_revisions,
            ),
        )
    } else {
        let mut history = Map::new();
        history.insert("plan_revisions".into(), json!(revision));
        history.insert("max_revisions".into(), json!(task.max_revisions));
        history.insert(
            "last_problems".into(),
            serde_json::to_value(&problems).unwrap_or_default(),
        );
        let reason = Text::composed(format!(
            "Max plan revisions exceeded ({revision} submitted, {} revisions allowed)",
            task.max_revisions
        ));
        (Verdict::Blocked, blocked(&ids, now, &reason, history))
    };
    Ok(GateOutcome {
        verdict,
        problems,
        directive,
    })
}

fn summary(problems: &[DirectiveIssue]) -> String {
    problems
        .iter()
        .map(|p| p.message.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}

/// A report's failing tests: one `test_failure` per failing file when detailed, else one.
#[must_use]
pub fn failing_tests(report: &Value) -> Vec<DirectiveIssue> {
    let results = report.get("test_results").unwrap_or(&Value::Null);
    let failed = results.get("failed").and_then(Value::as_u64).unwrap_or(0);
    if failed == 0 {
        return Vec::new();
    }
    let named: Vec<DirectiveIssue> = items(results, "details")
        .filter(|d| d.get("failed").and_then(Value::as_u64).unwrap_or(0) > 0)
        .map(|d| {
            let file = d.get("file").and_then(Value::as_str).unwrap_or("");
            issue(
                "test_failure",
                format!("{} test(s) failed in {file}", d["failed"]),
                None,
                Some(file),
            )
        })
        .collect();
    if named.is_empty() {
        vec![issue(
            "test_failure",
            format!("{failed} test(s) failed"),
            None,
            None,
        )]
    } else {
        named
    }
}

/// A report's changed files outside `authorized` (paths or globs): one `scope_violation` each.
#[must_use]
pub fn outside(report: &Value, authorized: &[String]) -> Vec<DirectiveIssue> {
    items(report, "files_changed")
        .filter_map(|f| f.get("path").and_then(Value::as_str))
        .filter(|path| !in_any(authorized, path))
        .map(|path| {
            issue(
                "scope_violation",
                format!("{path} was changed but is not an authorized file"),
                None,
                None,
            )
        })
        .collect()
}

/// Whether `path` is one of `patterns` (paths or globs).
#[must_use]
pub fn authorizes(patterns: &[String], path: &str) -> bool {
    in_any(patterns, path)
}

/// The NEXT gate: a valid COMPLETION_REPORT against the task and the files GO authorized;
/// `fixes_so_far` is how many FIX_DIRECTIVEs the task has had.
///
/// # Errors
/// The message is no COMPLETION_REPORT, or is about another task or agent.
pub fn next_gate(
    task: &TaskSpec,
    authorized: &[String],
    report: &Value,
    fixes_so_far: u32,
    now: Timestamp,
) -> Result<GateOutcome, GateError> {
    let ids = ids_of(report, task, "COMPLETION_REPORT")?;
    let mut problems = Vec::new();
    let verified: Vec<&Value> = items(report, "ac_verification").collect();
    let mut met = 0u64;
    for ac in &task.acceptance_criteria {
        let entry = verified
            .iter()
            .find(|v| v.get("ac_id").and_then(Value::as_str) == Some(ac));
        match entry {
            None => problems.push(issue(
                "unmet_criterion",
                format!("{ac} is not verified in the report"),
                Some(ac),
                None,
            )),
            Some(v) => {
                let status = v.get("status").and_then(Value::as_str).unwrap_or("");
                let evidence = v
                    .get("evidence")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim();
                if status != "PASS" {
                    problems.push(issue(
                        "unmet_criterion",
                        format!("{ac} is {status}, not PASS"),
                        Some(ac),
                        None,
                    ));
                } else if evidence.is_empty() {
                    problems.push(issue(
                        "missing_evidence",
                        format!("{ac} is PASS without evidence"),
                        Some(ac),
                        None,
                    ));
                } else {
                    met += 1;
                }
            }
        }
    }
    let results = report.get("test_results").unwrap_or(&Value::Null);
    problems.extend(failing_tests(report));
    let changed: Vec<&str> = items(report, "files_changed")
        .filter_map(|f| f.get("path").and_then(Value::as_str))
        .collect();
    problems.extend(outside(report, authorized));
    let (verdict, directive) = if problems.is_empty() {
        let done = Completion {
            criteria_met: met,
            tests_passed: results.get("passed").and_then(Value::as_u64).unwrap_or(0),
            files_changed: changed.len() as u64,
        };
        (Verdict::Next, next_directive(&ids, now, done))
    } else {
        let retry = fixes_so_far.saturating_add(1);
        let guidance = Text::composed(format!("Fix: {}", summary(&problems)));
        if retry <= task.max_retries {
            (
                Verdict::Fix,
                fix_directive(&ids, now, &problems, &guidance, retry, task.max_retries),
            )
        } else {
            let mut history = Map::new();
            history.insert("attempts".into(), json!(retry));
            history.insert("max_retries".into(), json!(task.max_retries));
            history.insert(
                "last_problems".into(),
                serde_json::to_value(&problems).unwrap_or_default(),
            );
            let reason = Text::composed(format!(
                "Max retries exceeded ({fixes_so_far} fixes, {} allowed)",
                task.max_retries
            ));
            (Verdict::Blocked, blocked(&ids, now, &reason, history))
        }
    };
    Ok(GateOutcome {
        verdict,
        problems,
        directive,
    })
}
