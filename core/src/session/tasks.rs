//! The droid task board (seed 004): per `task_id`, assignment, progress, completion, error
//! reports and dependencies, and the file reservations between agents with their conflicts.
//!
//! Reservation modes conflict by this matrix (the seed defines the modes, not their
//! combinations): `exclusive` conflicts with every mode; `shared_read` ("multiple agents can
//! read, one can write": its holder is that one writer) conflicts with `shared_read` and
//! `shared_write`; `shared_write` ("multiple agents can read and write") is compatible with
//! `shared_write`. Only reservations of different agents, with overlapping patterns, still
//! active at `now` (`timestamp + duration_minutes`), conflict.

use crate::agent_mail::Envelope;
use crate::glob::patterns_overlap;
use crate::protocol::FamilyId;
use crate::session::fields::{opt_text, text, texts};
use crate::session::violation::{Violation, ViolationCode};
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

/// Where a droid task is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Assigned, no update yet.
    Assigned,
    /// Status updates arrived.
    InProgress,
    /// Completed with status `partial`.
    Partial,
    /// Completed with status `blocked`.
    Blocked,
    /// Completed with status `complete`.
    Complete,
}

impl TaskStatus {
    /// Its name as it serializes (`assigned`, `in_progress`, `partial`, `blocked`, `complete`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Assigned => "assigned",
            TaskStatus::InProgress => "in_progress",
            TaskStatus::Partial => "partial",
            TaskStatus::Blocked => "blocked",
            TaskStatus::Complete => "complete",
        }
    }
}

/// An error report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorReport {
    /// Position in the log.
    pub entry: usize,
    /// When.
    pub at: Option<Timestamp>,
    /// Who reported it.
    pub sender: Option<String>,
    /// `low`, `medium`, `high`, `blocking`.
    pub severity: String,
    /// Machine-readable code.
    pub code: String,
    /// What went wrong.
    pub message: String,
    /// Whether a human must step in.
    pub needs_human_intervention: bool,
}

impl ErrorReport {
    /// Sort key: human intervention first, then severity (blocking first), then time.
    pub(crate) fn rank(&self) -> (bool, u8, Option<Timestamp>) {
        let severity = match self.severity.as_str() {
            "blocking" => 0,
            "high" => 1,
            "medium" => 2,
            _ => 3,
        };
        (!self.needs_human_intervention, severity, self.at)
    }
}

/// A file reservation request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reservation {
    /// Position in the log.
    pub entry: usize,
    /// The task it is for.
    pub task_id: String,
    /// The agent holding it.
    pub holder: String,
    /// `exclusive`, `shared_read` or `shared_write`.
    pub mode: String,
    /// The reserved patterns.
    pub patterns: Vec<String>,
    /// From when.
    pub since: Option<Timestamp>,
    /// Until when (`timestamp + duration_minutes`), if it expires.
    pub until: Option<Timestamp>,
    /// Why.
    pub reason: Option<String>,
}

impl Reservation {
    fn active(&self, now: Timestamp) -> bool {
        self.until.is_none_or(|until| now < until)
    }
}

/// Two reservations that cannot both hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Conflict {
    /// The earlier reservation's log position.
    pub first: usize,
    /// The later one's.
    pub second: usize,
    /// Their holders.
    pub holders: (String, String),
    /// Their modes.
    pub modes: (String, String),
    /// The overlapping patterns.
    pub patterns: (String, String),
}

/// Whether two reservation modes exclude each other.
#[must_use]
pub fn modes_conflict(a: &str, b: &str) -> bool {
    match (a, b) {
        ("shared_write", "shared_write") => false,
        ("exclusive", _) | (_, "exclusive") => true,
        ("shared_read", "shared_read" | "shared_write") | ("shared_write", "shared_read") => true,
        _ => false,
    }
}

/// One droid task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroidTask {
    /// The task id.
    pub task_id: String,
    /// What to do.
    pub description: Option<String>,
    /// `low`, `normal`, `high`, `urgent`.
    pub priority: Option<String>,
    /// Who assigned it.
    pub assigned_by: Option<String>,
    /// Who it was assigned to (the mail's recipients).
    pub assignees: Vec<String>,
    /// When.
    pub assigned_at: Option<Timestamp>,
    /// Due by.
    pub deadline: Option<Timestamp>,
    /// Tasks it depends on.
    pub dependencies: Vec<String>,
    /// Where it is.
    pub status: TaskStatus,
    /// The last reported percentage.
    pub percentage: Option<f64>,
    /// The last reported step or summary.
    pub summary: Option<String>,
    /// Current blockers.
    pub blockers: Vec<String>,
    /// When it was last heard of.
    pub updated_at: Option<Timestamp>,
    /// Error reports, most urgent first.
    pub errors: Vec<ErrorReport>,
    /// Violations.
    pub violations: Vec<Violation>,
}

impl DroidTask {
    fn new(task_id: &str) -> DroidTask {
        DroidTask {
            task_id: task_id.to_owned(),
            description: None,
            priority: None,
            assigned_by: None,
            assignees: Vec::new(),
            assigned_at: None,
            deadline: None,
            dependencies: Vec::new(),
            status: TaskStatus::Assigned,
            percentage: None,
            summary: None,
            blockers: Vec::new(),
            updated_at: None,
            errors: Vec::new(),
            violations: Vec::new(),
        }
    }

    fn done(&self) -> bool {
        self.status == TaskStatus::Complete
    }

    fn after_end(&self, env: &Envelope, kind: &str) -> Violation {
        Violation::at(
            ViolationCode::AfterEnd,
            env,
            format!("{kind} for {} after it was complete", self.task_id),
        )
    }

    /// Folds one droid message about this task; returns the violation it caused.
    fn apply(&mut self, env: &Envelope, kind: &str, v: &Value) -> Option<Violation> {
        if self.done() && kind != "error_report" && kind != "file_reservation" {
            return Some(self.after_end(env, kind));
        }
        self.updated_at = env.at.or(self.updated_at);
        match kind {
            "task_assignment" => {
                self.description = opt_text(v, "description");
                self.priority = opt_text(v, "priority");
                self.assigned_by = env.from.clone();
                self.assignees.clone_from(&env.to);
                self.assigned_at = env.at;
                self.deadline = v
                    .get("deadline")
                    .and_then(Value::as_str)
                    .and_then(Timestamp::parse);
                self.dependencies = texts(v, "dependencies");
            }
            "status_update" => {
                self.status = TaskStatus::InProgress;
                let progress = v.get("progress").unwrap_or(&Value::Null);
                self.percentage = progress
                    .get("percentage")
                    .and_then(Value::as_f64)
                    .or(self.percentage);
                self.summary = opt_text(v, "status_summary");
                self.blockers = texts(v, "blockers");
            }
            "task_completion" => {
                self.status = match v.get("status").and_then(Value::as_str) {
                    Some("complete") => TaskStatus::Complete,
                    Some("blocked") => TaskStatus::Blocked,
                    _ => TaskStatus::Partial,
                };
                if self.status == TaskStatus::Complete {
                    self.percentage = Some(100.0);
                }
                self.summary = opt_text(v, "completion_summary").or(self.summary.take());
            }
            "error_report" => {
                let error = v.get("error").unwrap_or(&Value::Null);
                let report = ErrorReport {
                    entry: env.index,
                    at: env.at,
                    sender: env.from.clone(),
                    severity: text(v, "severity").to_owned(),
                    code: error
                        .get("code")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    message: error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    needs_human_intervention: v.get("needs_human_intervention")
                        == Some(&Value::Bool(true)),
                };
                let at = self.errors.partition_point(|e| e.rank() <= report.rank());
                self.errors.insert(at, report);
            }
            _ => {}
        }
        None
    }
}

/// Every droid task and reservation in a stream of envelopes (fed in time order).
#[derive(Debug, Clone, Default)]
pub struct TaskBoard {
    tasks: Vec<DroidTask>,
    index: HashMap<String, usize>,
    /// Every file reservation request, in order.
    pub reservations: Vec<Reservation>,
    /// Coordination requests (side channel): their log positions.
    pub coordination: Vec<usize>,
}

impl TaskBoard {
    /// An empty board.
    #[must_use]
    pub fn new() -> TaskBoard {
        TaskBoard::default()
    }

    /// The tasks, in order of their first message.
    #[must_use]
    pub fn tasks(&self) -> &[DroidTask] {
        &self.tasks
    }

    /// The tasks `task` waits on: dependencies not complete (unknown ones included).
    #[must_use]
    pub fn waiting_on(&self, task: &DroidTask) -> Vec<String> {
        task.dependencies
            .iter()
            .filter(|d| self.index.get(*d).is_none_or(|&i| !self.tasks[i].done()))
            .cloned()
            .collect()
    }

    /// Conflicts among the reservations active at `now`.
    #[must_use]
    pub fn conflicts(&self, now: Timestamp) -> Vec<Conflict> {
        let active: Vec<&Reservation> =
            self.reservations.iter().filter(|r| r.active(now)).collect();
        let mut out = Vec::new();
        for (i, a) in active.iter().enumerate() {
            for b in &active[i + 1..] {
                if a.holder == b.holder || !modes_conflict(&a.mode, &b.mode) {
                    continue;
                }
                let overlap = a.patterns.iter().find_map(|p| {
                    b.patterns
                        .iter()
                        .find(|q| patterns_overlap(p, q))
                        .map(|q| (p.clone(), q.clone()))
                });
                if let Some(patterns) = overlap {
                    out.push(Conflict {
                        first: a.entry,
                        second: b.entry,
                        holders: (a.holder.clone(), b.holder.clone()),
                        modes: (a.mode.clone(), b.mode.clone()),
                        patterns,
                    });
                }
            }
        }
        out
    }

    /// A droid message whose sender does not hold the role its type requires: it moves
    /// nothing, but one about a task already complete is still after its end.
    pub fn observe_unauthorized(&mut self, env: &Envelope) {
        let Some(m) = env.message().filter(|m| m.family == FamilyId::Droid) else {
            return;
        };
        let task = m.value.get("task_id").and_then(Value::as_str);
        let Some(&i) = task.and_then(|t| self.index.get(t)) else {
            return;
        };
        let task = &mut self.tasks[i];
        if task.done() && !matches!(m.message_type, "error_report" | "file_reservation") {
            task.violations.push(task.after_end(env, m.message_type));
        }
    }

    /// Folds one envelope; other families are ignored.
    pub fn observe(&mut self, env: &Envelope) {
        if env.family() != Some(FamilyId::Droid) {
            return;
        }
        let Some(value) = env.value() else { return };
        let kind = env.message_type().unwrap_or_default();
        if kind == "coordination_request" {
            self.coordination.push(env.index);
            return;
        }
        let Some(task_id) = value
            .get("task_id")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
        else {
            return;
        };
        let i = *self.index.entry(task_id.to_owned()).or_insert_with(|| {
            self.tasks.push(DroidTask::new(task_id));
            self.tasks.len() - 1
        });
        let task = &mut self.tasks[i];
        if env.message().is_none() {
            task.violations.push(Violation::invalid(env));
            return;
        }
        if kind == "file_reservation" {
            let request = value.get("reservation_request").unwrap_or(&Value::Null);
            let since = env.at.or_else(|| {
                value
                    .get("timestamp")
                    .and_then(Value::as_str)
                    .and_then(Timestamp::parse)
            });
            let minutes = request.get("duration_minutes").and_then(Value::as_f64);
            self.reservations.push(Reservation {
                entry: env.index,
                task_id: task_id.to_owned(),
                holder: env.from.clone().unwrap_or_default(),
                mode: request
                    .get("mode")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                patterns: request
                    .get("file_patterns")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default(),
                since,
                #[allow(clippy::cast_possible_truncation)]
                until: since
                    .zip(minutes)
                    .map(|(s, m)| s.plus_millis((m * 60_000.0) as i64)),
                reason: request
                    .get("reason")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            });
            return;
        }
        if let Some(v) = task.apply(env, kind, value) {
            task.violations.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::modes_conflict;

    #[test]
    fn the_mode_matrix_is_symmetric() {
        let modes = ["exclusive", "shared_read", "shared_write"];
        for a in modes {
            for b in modes {
                assert_eq!(modes_conflict(a, b), modes_conflict(b, a), "{a} {b}");
            }
        }
        assert!(modes_conflict("exclusive", "shared_write"));
        assert!(!modes_conflict("shared_write", "shared_write"));
        assert!(modes_conflict("shared_read", "shared_read"));
    }
}
