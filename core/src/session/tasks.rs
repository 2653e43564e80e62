//! The droid task board (seed 004): per `task_id`, assignment, progress, completion, error
//! reports and dependencies, and the file reservations between agents with their conflicts.
//!
//! Reservation modes conflict by this matrix (the seed defines the modes, not their
//! combinations): `exclusive` conflicts with every mode; `shared_read` ("multiple agents can
//! read, one can write": its holder is that one writer) conflicts with `shared_read` and
//! `shared_write`; `shared_write` ("multiple agents can read and write") is compatible with
//! `shared_write`. Only reservations of different agents, with overlapping patterns, still
//! active at `now` (`timestamp + duration_minutes`), conflict.
//!
//! Findings as the board folds (on the task's `violations`): a reservation that conflicts with
//! another agent's reservation active at its time; a `complete` completion after the task's
//! deadline; a completion listing files outside the assignment's `file_patterns`; a `partial`
//! completion that documents nothing missing. Findings at the time the log is judged
//! ([`TaskBoard::findings_at`]): a task past its deadline and not complete; a `blocked`
//! completion with no error report from its sender; an invalid droid message its recipients
//! never answered with an error report.

use crate::agent_mail::{Carried, Envelope};
use crate::glob::{in_scope, patterns_overlap};
use crate::protocol::{FamilyId, IssueCode};
use crate::session::fields::{items, opt_text, text, texts};
use crate::session::violation::{Mark, Violation, ViolationCode};
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
    /// The request's message.
    #[serde(skip)]
    mark: Mark,
}

impl Reservation {
    fn active(&self, now: Timestamp) -> bool {
        self.until.is_none_or(|until| now < until)
    }

    /// The first pair of overlapping patterns when `self` and `other` (of another holder)
    /// cannot both hold, whenever both are active.
    fn clash(&self, other: &Reservation) -> Option<(String, String)> {
        if self.holder == other.holder || !modes_conflict(&self.mode, &other.mode) {
            return None;
        }
        self.patterns.iter().find_map(|p| {
            other
                .patterns
                .iter()
                .find(|q| patterns_overlap(p, q))
                .map(|q| (p.clone(), q.clone()))
        })
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
    /// The assignment's message.
    #[serde(skip)]
    assignment: Option<Mark>,
    /// The assignment's `file_patterns`.
    #[serde(skip)]
    file_patterns: Vec<String>,
    /// Each `blocked` completion, with its sender.
    #[serde(skip)]
    blocked: Vec<(Mark, Option<String>)>,
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
            assignment: None,
            file_patterns: Vec::new(),
            blocked: Vec::new(),
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

    /// Folds one droid message about this task, keeping the violations it caused.
    fn apply(&mut self, env: &Envelope, kind: &str, v: &Value) {
        if self.done() && kind != "error_report" && kind != "file_reservation" {
            self.violations.push(self.after_end(env, kind));
            return;
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
                self.assignment = Some(Mark::of(env));
                self.file_patterns = texts(v, "file_patterns");
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
                self.check_completion(env, v);
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
    }

    /// A completion's findings: `complete` past the deadline (`late`, on the assignment,
    /// blamed on the agent that completed it), files outside the assignment's `file_patterns`
    /// (`out_of_scope`), `partial` with nothing documented as missing (`missing`). A `blocked`
    /// one is kept for [`TaskBoard::findings_at`], which looks for its error report.
    fn check_completion(&mut self, env: &Envelope, v: &Value) {
        let id = &self.task_id;
        match self.status {
            TaskStatus::Complete => {
                let late = self.deadline.zip(env.at).filter(|(d, at)| at > d);
                if let (Some((deadline, at)), Some(assignment)) = (late, &self.assignment) {
                    let v = assignment.violation(
                        ViolationCode::Late,
                        format!(
                            "task {id} was completed at {at}, after its deadline {deadline} (Task Assignment: 'When task must be completed')"
                        ),
                    );
                    self.violations.push(v.by(env.from.as_deref()));
                }
            }
            TaskStatus::Partial => {
                let documented = ["warnings", "errors_encountered", "next_tasks"]
                    .iter()
                    .any(|k| items(v, k).next().is_some());
                if !documented {
                    self.violations.push(Violation::at(
                        ViolationCode::Missing,
                        env,
                        format!(
                            "task_completion for {id} is partial but lists no warnings, errors_encountered or next_tasks (Task Completion: 'Partially completed (document what's missing)')"
                        ),
                    ));
                }
            }
            TaskStatus::Blocked => self.blocked.push((Mark::of(env), env.from.clone())),
            TaskStatus::Assigned | TaskStatus::InProgress => {}
        }
        if self.file_patterns.is_empty() {
            return;
        }
        let outside: Vec<String> = texts(v, "files_modified")
            .into_iter()
            .filter(|f| !in_scope(&self.file_patterns, f))
            .collect();
        if !outside.is_empty() {
            self.violations.push(Violation::at(
                ViolationCode::OutOfScope,
                env,
                format!(
                    "task_completion for {id} lists files outside the assignment's file_patterns ({}): {}",
                    self.file_patterns.join(", "),
                    outside.join(", ")
                ),
            ));
        }
    }

    /// The findings only known at `now`: past the deadline and not complete (`late`, per
    /// assignee), a `blocked` completion whose sender sent no error report for the task
    /// (`missing` an `error_report`).
    fn findings_at(&self, now: Timestamp, out: &mut Vec<Violation>) {
        let id = &self.task_id;
        let overdue = self.deadline.filter(|d| *d < now && !self.done());
        if let (Some(deadline), Some(assignment)) = (overdue, &self.assignment) {
            let owed = |who: Option<&str>| {
                let whose = who.map_or_else(String::new, |w| format!("{w}'s "));
                assignment
                    .violation(
                        ViolationCode::Late,
                        format!(
                            "{whose}task {id} is not complete at {now}, past its deadline {deadline} (Task Assignment: 'When task must be completed')"
                        ),
                    )
                    .by(who)
            };
            if self.assignees.is_empty() {
                out.push(owed(None));
            }
            out.extend(self.assignees.iter().map(|a| owed(Some(a))));
        }
        for (mark, sender) in &self.blocked {
            let reported = self
                .errors
                .iter()
                .any(|e| sender.is_none() || e.sender == *sender);
            if !reported && mark.at().is_none_or(|at| at <= now) {
                out.push(
                    mark.violation(
                        ViolationCode::Missing,
                        format!(
                            "task_completion for {id} is blocked and {} sent no error_report for it (Best Practices 5: 'Always provide `error_report` for failures')",
                            sender.as_deref().unwrap_or("its sender")
                        ),
                    )
                    .expecting("error_report"),
                );
            }
        }
    }
}

/// An invalid droid message, and the recipients that still owe its sender an error report.
#[derive(Debug, Clone)]
struct Owed {
    mark: Mark,
    /// `message 3 (task_completion)`.
    what: String,
    sender: Option<String>,
    message_id: Option<String>,
    /// The seed's words for the answer due (unknown type, version mismatch, invalid format).
    rule: &'static str,
    /// The answer due: an error_report with the code the problem calls for.
    due: &'static str,
    owing: Vec<String>,
}

impl Owed {
    /// The record of `env` when it is an invalid droid message with recipients other than its
    /// sender.
    fn of(env: &Envelope) -> Option<Owed> {
        let Carried::Invalid(invalid) = &env.carried else {
            return None;
        };
        let mut owing: Vec<String> = Vec::new();
        for to in &env.to {
            if env.from.as_ref() != Some(to) && !owing.contains(to) {
                owing.push(to.clone());
            }
        }
        let has = |code| invalid.report.errors().any(|i| i.code == code);
        let (rule, due) = if has(IssueCode::UnknownMessageType) {
            (
                "Unknown Message Type: 'Respond with `error_report` indicating unknown type'",
                UNKNOWN_TYPE_REPLY,
            )
        } else if has(IssueCode::VersionMismatch) {
            (
                "Versioning: 'If incompatible, receiver responds with version mismatch error'",
                VERSION_MISMATCH_REPLY,
            )
        } else {
            (
                "Invalid Message Format: 'Notify sender via `error_report` message'",
                INVALID_FORMAT_REPLY,
            )
        };
        (!owing.is_empty()).then(|| Owed {
            mark: Mark::of(env),
            what: format!(
                "{} ({})",
                env.reference(),
                env.message_type().unwrap_or("message")
            ),
            sender: env.from.clone(),
            message_id: env
                .value()
                .and_then(|v| v.get("message_id"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            rule,
            due,
            owing,
        })
    }

    /// Takes `report` (an error report from `from` to `to`) as the answer it may be: to this
    /// message's sender, naming its `message_id` (any string member but the report's own
    /// `message_id`), or, for a message without one, any report after it.
    fn answer(&mut self, from: &str, to: &[String], report: &Value) {
        let to_sender = self.sender.as_ref().is_none_or(|s| to.contains(s));
        let names = |id: &str| {
            report.as_object().is_some_and(|o| {
                o.iter()
                    .any(|(k, v)| k != "message_id" && holds_string(v, id))
            })
        };
        if to_sender && self.message_id.as_deref().is_none_or(names) {
            self.owing.retain(|r| r != from);
        }
    }

    /// `unanswered`, once per recipient that still owes the answer, when the message was sent
    /// by `now`.
    fn findings_at(&self, now: Timestamp, out: &mut Vec<Violation>) {
        if self.mark.at().is_some_and(|at| at > now) {
            return;
        }
        let sender = self.sender.as_deref().unwrap_or("its sender");
        let naming = self
            .message_id
            .as_deref()
            .map_or_else(|| "after it".to_owned(), |id| format!("naming {id}"));
        for r in &self.owing {
            let message = format!(
                "{} is invalid and {r} sent {sender} no error_report {naming} ({})",
                self.what, self.rule
            );
            out.push(
                self.mark
                    .violation(ViolationCode::Unanswered, message)
                    .by(Some(r))
                    .expecting(self.due),
            );
        }
    }
}

/// The answer an invalid droid message is owed, by its problem: an error_report with
/// `error.code` UNKNOWN_MESSAGE_TYPE, VERSION_MISMATCH or INVALID_FORMAT (protocol-notes §5.2).
pub const UNKNOWN_TYPE_REPLY: &str = "error_report (UNKNOWN_MESSAGE_TYPE)";
/// See [`UNKNOWN_TYPE_REPLY`].
pub const VERSION_MISMATCH_REPLY: &str = "error_report (VERSION_MISMATCH)";
/// See [`UNKNOWN_TYPE_REPLY`].
pub const INVALID_FORMAT_REPLY: &str = "error_report (INVALID_FORMAT)";

/// Whether `v` is, or holds at any depth, the string `s`.
fn holds_string(v: &Value, s: &str) -> bool {
    match v {
        Value::String(x) => x == s,
        Value::Array(a) => a.iter().any(|x| holds_string(x, s)),
        Value::Object(o) => o.values().any(|x| holds_string(x, s)),
        _ => false,
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
    /// Invalid droid messages sent to other agents, with who still owes an error report.
    owed: Vec<Owed>,
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
                if let Some(patterns) = a.clash(b) {
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
        self.answer_invalid(env);
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
        self.answer_invalid(env);
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
            let reservation = Reservation {
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
                mark: Mark::of(env),
            };
            task.violations
                .extend(conflicts_at_request(&self.reservations, &reservation));
            self.reservations.push(reservation);
            return;
        }
        task.apply(env, kind, value);
    }

    /// An error report answers the invalid messages sent to its sender that it may answer;
    /// an invalid message with recipients is owed one.
    fn answer_invalid(&mut self, env: &Envelope) {
        if env.message_type() == Some("error_report") {
            if let (Some(from), Some(report)) = (env.from.as_deref(), env.value()) {
                for owed in &mut self.owed {
                    owed.answer(from, &env.to, report);
                }
            }
        }
        self.owed.extend(Owed::of(env));
    }

    /// The findings only known at the time the log is judged, `now` (pure; the log folded so
    /// far is taken as all that was sent: a message folded after `now` still counts as an
    /// answer, so an earlier `now` never finds more):
    ///
    /// - `late`, on the task's assignment, once per assignee (or blamed on no one when it named
    ///   none): a task with a deadline before `now` that is not complete;
    /// - `missing` an `error_report`, on a `blocked` task_completion sent by `now`, when its
    ///   sender sent no error report for the task;
    /// - `unanswered`, on an invalid droid message sent by `now` (missing or mistyped member,
    ///   unknown type, another MAJOR version), once per recipient that sent its sender no
    ///   `error_report` naming its `message_id` (any member of the report but its own
    ///   `message_id`), or for a message without one, no error report after it.
    #[must_use]
    pub fn findings_at(&self, now: Timestamp) -> Vec<Violation> {
        let mut out = Vec::new();
        for task in &self.tasks {
            task.findings_at(now, &mut out);
        }
        for owed in &self.owed {
            owed.findings_at(now, &mut out);
        }
        out.sort_by_key(|v| v.entry);
        out
    }
}

/// The `reservation_conflict`s of `new` with the reservations before it that are active at
/// its time (all of them when its time is unknown).
fn conflicts_at_request(earlier: &[Reservation], new: &Reservation) -> Vec<Violation> {
    earlier
        .iter()
        .filter(|a| new.since.is_none_or(|t| a.active(t)))
        .filter_map(|a| {
            let (mine, theirs) = new.clash(a)?;
            Some(new.mark.violation(
                ViolationCode::ReservationConflict,
                format!(
                    "{} reserves {mine} ({}) while {}'s {} reservation of {theirs} ({}) is active (File Reservation Request: 'Request file reservations for conflict prevention')",
                    new.holder, new.mode, a.holder, a.mode, a.mark.reference()
                ),
            ))
        })
        .collect()
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
