//! Agent-PO tasks (seed 002) as a pure fold: each task agent's lifecycle from its messages and
//! the Product Owner's directives, with plan revisions and fix retries against their limits.
//!
//! - [`gate`]: the GO and NEXT gates (a plan or report against the task → the directive).
//! - [`AgentTask::step`]: one message into a task's state.
//! - [`AgentPoBook`]: every task in a stream of envelopes, keyed by `(agent_id, task_id)`.

pub mod gate;

use crate::agent_mail::Envelope;
use crate::protocol::FamilyId;
use crate::session::fields::{count, items, text, texts};
use crate::session::pair::timeout::Due;
use crate::session::violation::{Violation, ViolationCode};
use crate::session::Step;
use crate::time::Timestamp;
use gate::{TaskSpec, DEFAULT_LIMIT, DEFAULT_TIMEOUT_MINUTES};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

/// Where a task agent is (the seed's agent registry states, plus how a task ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Spawned; no plan yet (PROGRESS_UPDATE `initializing`, `researching`, `planning`).
    Planning,
    /// A plan waits for GO.
    AwaitingGo,
    /// GO given: implementing, testing or reporting.
    Implementing,
    /// A report waits for NEXT.
    AwaitingNext,
    /// FIX given: fixing.
    Fixing,
    /// NEXT given.
    Completed,
    /// Blocked (by the agent, or by the PO past the limits).
    Blocked,
    /// TERMINATE_DIRECTIVE.
    Terminated,
}

impl Status {
    /// The status name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Planning => "planning",
            Status::AwaitingGo => "awaiting_go",
            Status::Implementing => "implementing",
            Status::AwaitingNext => "awaiting_next",
            Status::Fixing => "fixing",
            Status::Completed => "completed",
            Status::Blocked => "blocked",
            Status::Terminated => "terminated",
        }
    }

    /// Whether the task has ended.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            Status::Completed | Status::Blocked | Status::Terminated
        )
    }
}

/// A directive the PO sent, with the problems it listed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateRecord {
    /// The directive type.
    pub directive: &'static str,
    /// Its position in the log.
    pub entry: usize,
    /// When.
    pub at: Option<Timestamp>,
    /// Each problem: `(type, message)`.
    pub problems: Vec<(String, String)>,
}

/// Who blocked the task and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Blocked {
    /// `agent` or `po`.
    pub by: &'static str,
    /// The reason given.
    pub reason: String,
    /// When.
    pub at: Option<Timestamp>,
}

/// A counter against its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Count {
    /// How many so far.
    pub current: u32,
    /// The limit.
    pub max: u32,
}

/// One task agent's task: the fold's state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentTask {
    /// The task agent (`agent-…`).
    pub agent_id: String,
    /// The task (`TASK-…`).
    pub task_id: String,
    /// The agent's Agent Mail name, once it sent a message.
    pub agent_name: Option<String>,
    /// The PO's Agent Mail name, once it sent a directive.
    pub po_name: Option<String>,
    /// Where the agent is.
    pub status: Status,
    /// The agent's last reported activity (PROGRESS_UPDATE status, percent, activity).
    pub progress: Option<(String, u64, String)>,
    /// When the agent last reported progress.
    pub last_progress_at: Option<Timestamp>,
    /// Plans submitted (the latest `revision`) against the revisions allowed.
    pub plan_revisions: Count,
    /// FIX_DIRECTIVEs received against the retries allowed.
    pub fix_retries: Count,
    /// Files GO authorized.
    pub authorized_files: Vec<String>,
    /// When GO was given and its timeout.
    pub go: Option<(Timestamp, u32)>,
    /// Every directive with its problems.
    pub gates: Vec<GateRecord>,
    /// Why it is blocked.
    pub blocked: Option<Blocked>,
    /// Every violation.
    pub violations: Vec<Violation>,
    /// Positions in the log of its messages.
    pub entries: Vec<usize>,
    /// What the latest COMPLETION_REPORT itself shows against NEXT (failing tests, criteria not
    /// PASS, files outside GO's authorization).
    #[serde(skip)]
    pub report_problems: Vec<String>,
    /// The GO_DIRECTIVE's position and transport id, and when the first report after it came.
    #[serde(skip)]
    pub go_entry: Option<(usize, Option<u64>)>,
    #[serde(skip)]
    reported_at: Option<Timestamp>,
    /// The agent's working spans (from GO or FIX to its report), with its progress times.
    #[serde(skip)]
    pub work: Vec<WorkSpan>,
}

/// A span the agent works in (from GO or FIX to its COMPLETION_REPORT), and when it reported
/// progress.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkSpan {
    /// The directive that began it: its position, transport id and type.
    pub entry: usize,
    /// Its transport id.
    pub id: Option<u64>,
    /// GO_DIRECTIVE or FIX_DIRECTIVE.
    pub directive: &'static str,
    /// When it began.
    pub start: Timestamp,
    /// When the report ended it.
    pub end: Option<Timestamp>,
    /// The PROGRESS_UPDATEs' times.
    pub progress: Vec<Timestamp>,
}

/// Minutes between two PROGRESS_UPDATEs ("Every 5 min").
pub const PROGRESS_MINUTES: i64 = 5;

/// Which way a message goes.
/// Whether the task agent sends a message of this registry type (else the PO does).
#[must_use]
pub fn from_agent(message_type: &str) -> bool {
    matches!(
        message_type,
        "PLAN_SUBMISSION" | "PROGRESS_UPDATE" | "COMPLETION_REPORT" | "BLOCKED_NOTIFICATION@agent"
    )
}

impl AgentTask {
    /// A task not yet heard of.
    #[must_use]
    pub fn new(agent_id: &str, task_id: &str) -> AgentTask {
        AgentTask {
            agent_id: agent_id.to_owned(),
            task_id: task_id.to_owned(),
            agent_name: None,
            po_name: None,
            status: Status::Planning,
            progress: None,
            last_progress_at: None,
            plan_revisions: Count {
                current: 0,
                max: DEFAULT_LIMIT,
            },
            fix_retries: Count {
                current: 0,
                max: DEFAULT_LIMIT,
            },
            authorized_files: Vec::new(),
            go: None,
            gates: Vec::new(),
            blocked: None,
            violations: Vec::new(),
            entries: Vec::new(),
            report_problems: Vec::new(),
            go_entry: None,
            reported_at: None,
            work: Vec::new(),
        }
    }

    /// A side finding: reported, the message still applied.
    fn note(&mut self, v: Violation) {
        self.violations.push(v);
    }

    /// The recipients of `env` include the other side of the task, once known.
    fn check_recipient(&mut self, env: &Envelope, kind: &str) {
        let other = if from_agent(kind) {
            self.po_name.clone()
        } else {
            self.agent_name.clone()
        };
        if let Some(other) = other.filter(|_| !env.to.is_empty()) {
            if !env.to.contains(&other) {
                let side = if from_agent(kind) {
                    "the PO"
                } else {
                    "the task agent"
                };
                self.note(Violation::at(
                    ViolationCode::WrongRecipient,
                    env,
                    format!(
                        "{kind} went to {}, not to {side} ({other})",
                        env.to.join(", ")
                    ),
                ));
            }
        }
    }

    /// GO on a plan its own validation does not validate, or past the revision limit.
    fn check_go(&mut self, env: &Envelope, v: &Value) {
        let validation = v.get("validation").unwrap_or(&Value::Null);
        let mut why = Vec::new();
        if validation.get("plan_validated") == Some(&Value::Bool(false)) {
            why.push("its validation says plan_validated: false".to_owned());
        }
        if let Some(c) = validation.get("ac_coverage").and_then(Value::as_str) {
            if c != "complete" {
                why.push(format!("its validation says ac_coverage: {c}"));
            }
        }
        if self.plan_revisions.current > self.plan_revisions.max {
            why.push(format!(
                "the plan is revision {}, past max_revisions {} (the task should be blocked)",
                self.plan_revisions.current, self.plan_revisions.max
            ));
        }
        if !why.is_empty() {
            self.note(Violation::at(
                ViolationCode::GateBreached,
                env,
                format!("GO_DIRECTIVE on a plan not validated: {}", why.join("; ")),
            ));
        }
    }

    /// NEXT on a report that shows problems, or whose own validation says so.
    fn check_next(&mut self, env: &Envelope, v: &Value) {
        let validation = v.get("validation").unwrap_or(&Value::Null);
        let mut why = self.report_problems.clone();
        for flag in ["report_validated", "tests_passed", "scope_verified"] {
            if validation.get(flag) == Some(&Value::Bool(false)) {
                why.push(format!("its validation says {flag}: false"));
            }
        }
        if !why.is_empty() {
            self.note(Violation::at(
                ViolationCode::GateBreached,
                env,
                format!(
                    "NEXT_DIRECTIVE on a report not validated: {}",
                    why.join("; ")
                ),
            ));
        }
    }

    /// FEEDBACK and FIX list their issues; their counters count the task's own plans and fixes.
    fn check_directive_counts(&mut self, env: &Envelope, kind: &str, v: &Value) {
        let validation = v.get("validation").unwrap_or(&Value::Null);
        if items(validation, "issues").next().is_none() {
            self.note(Violation::at(
                ViolationCode::Missing,
                env,
                format!(
                    "{kind} lists no issues (validation.issues): it asks for a revision of nothing"
                ),
            ));
        }
        let mut wrong = Vec::new();
        if kind == "FEEDBACK" {
            if let Some(n) = count(v, "current_revision") {
                if n != self.plan_revisions.current {
                    wrong.push(format!(
                        "current_revision is {n}, but the plan it answers is revision {}",
                        self.plan_revisions.current
                    ));
                }
            }
        } else {
            let retry = v.get("retry").unwrap_or(&Value::Null);
            let (n, max) = (count(retry, "count"), count(retry, "max"));
            let fixes = self.fix_retries.current + 1;
            if let Some(n) = n.filter(|n| *n != fixes) {
                wrong.push(format!("retry.count is {n}, but this is fix {fixes}"));
            }
            if let (Some(allowed), Some(n), Some(max)) =
                (retry.get("allowed").and_then(Value::as_bool), n, max)
            {
                if allowed != (n <= max) {
                    wrong.push(format!(
                        "retry.allowed is {allowed} with count {n} of max {max}"
                    ));
                }
            }
        }
        if !wrong.is_empty() {
            self.note(Violation::at(
                ViolationCode::BadValue,
                env,
                format!("{kind}: {}", wrong.join("; ")),
            ));
        }
    }

    /// Files the agent touched outside GO's authorized_files.
    fn check_scope(&mut self, env: &Envelope, kind: &str, files: Vec<String>) {
        if self.go.is_none() && self.authorized_files.is_empty() {
            return;
        }
        let outside: Vec<String> = files
            .into_iter()
            .filter(|f| !gate::authorizes(&self.authorized_files, f))
            .collect();
        if !outside.is_empty() {
            self.note(Violation::at(
                ViolationCode::OutOfScope,
                env,
                format!(
                    "{kind} touches files GO did not authorize: {}",
                    outside.join(", ")
                ),
            ));
        }
    }

    /// What the task shows late or missing by `now`: the completion report past GO's
    /// timeout_minutes, a PROGRESS_UPDATE not sent within 5 minutes while the agent worked.
    #[must_use]
    pub fn findings_at(&self, now: Timestamp) -> Vec<Violation> {
        let mut found = Vec::new();
        let agent = self
            .agent_name
            .clone()
            .unwrap_or_else(|| self.agent_id.clone());
        if let (Some((go_at, minutes)), Some((entry, id))) = (self.go, self.go_entry) {
            let deadline = go_at.plus_minutes(i64::from(minutes));
            let until = self
                .reported_at
                .or_else(|| (!self.status.is_terminal()).then_some(now));
            if until.is_some_and(|t| t > deadline) {
                let what = if self.reported_at.is_some() {
                    "came after"
                } else {
                    "has not come within"
                };
                found.push(
                    Violation::on(
                        ViolationCode::Late,
                        entry,
                        id,
                        Some(go_at),
                        Some("GO_DIRECTIVE"),
                        format!("the completion report for {} {what} GO's {minutes} minutes ({deadline})", self.task_id),
                    )
                    .by(Some(&agent)),
                );
            }
        }
        for span in &self.work {
            let until = span.end.unwrap_or(now);
            let mut last = span.start;
            for &p in span.progress.iter().chain(std::iter::once(&until)) {
                if p > last.plus_minutes(PROGRESS_MINUTES) {
                    let due = last.plus_minutes(PROGRESS_MINUTES);
                    found.push(
                        Violation::on(
                            ViolationCode::Missing,
                            span.entry,
                            span.id,
                            Some(span.start),
                            Some(span.directive),
                            format!(
                                "no PROGRESS_UPDATE on {} between {last} and {p} (one was due at {due}: every {PROGRESS_MINUTES} minutes while working)",
                                self.task_id
                            ),
                        )
                        .by(Some(&agent))
                        .expecting("PROGRESS_UPDATE"),
                    );
                    break;
                }
                last = p;
            }
        }
        found
    }

    /// Folds one message of this task.
    #[must_use]
    pub fn step(mut self, env: &Envelope) -> Step<AgentTask> {
        let violation = self.fold(env);
        Step {
            state: self,
            violation,
        }
    }

    /// [`AgentTask::step`] in place: what a book folding many messages uses.
    pub(crate) fn fold(&mut self, env: &Envelope) -> Option<Violation> {
        self.entries.push(env.index);
        let violation = self.apply(env);
        if let Some(v) = &violation {
            self.violations.push(v.clone());
        }
        violation
    }

    fn apply(&mut self, env: &Envelope) -> Option<Violation> {
        let Some(message) = env.message() else {
            return Some(Violation::invalid(env));
        };
        let kind = message.message_type;
        let v = &message.value;
        if self.status.is_terminal() {
            return Some(Violation::at(
                ViolationCode::AfterEnd,
                env,
                format!(
                    "{kind} came after the task ended ({})",
                    self.status.as_str()
                ),
            ));
        }
        if let Some(from) = &env.from {
            let (mine, theirs) = if from_agent(kind) {
                (&mut self.agent_name, &self.po_name)
            } else {
                (&mut self.po_name, &self.agent_name)
            };
            if theirs.as_deref() == Some(from.as_str()) {
                return Some(Violation::at(
                    ViolationCode::WrongRole,
                    env,
                    format!("{kind} from {from}, who plays the other side of this task"),
                ));
            }
            mine.get_or_insert_with(|| from.clone());
        }
        self.check_recipient(env, kind);
        let out_of_order = |why: &str| {
            Some(Violation::at(
                ViolationCode::OutOfOrder,
                env,
                format!("{kind} {why} (task is {})", self.status.as_str()),
            ))
        };
        match kind {
            "PLAN_SUBMISSION" => {
                if !matches!(self.status, Status::Planning) {
                    return out_of_order("without FEEDBACK asking for a revision");
                }
                let next = self.plan_revisions.current + 1;
                let revision = count(v, "revision").unwrap_or(next);
                // The first plan the log shows may follow plans it does not (a log that starts
                // mid-task): only the plans after it are held to the sequence.
                if self.plan_revisions.current > 0 && revision != next {
                    self.note(Violation::at(
                        ViolationCode::BadValue,
                        env,
                        format!("PLAN_SUBMISSION is revision {revision}, but it is plan {next} of the task"),
                    ));
                }
                self.plan_revisions.current = revision;
                self.status = Status::AwaitingGo;
            }
            "PROGRESS_UPDATE" => {
                let reported = text(v, "status");
                let needs_go = matches!(
                    reported,
                    "implementing" | "testing" | "reporting" | "awaiting_next" | "fixing"
                );
                if needs_go && self.go.is_none() {
                    return out_of_order(&format!("reports {reported:?} before any GO_DIRECTIVE"));
                }
                if reported == "fixing" && self.fix_retries.current == 0 {
                    return out_of_order("reports \"fixing\" before any FIX_DIRECTIVE");
                }
                if let (Some(at), Some(span)) = (env.at, self.work.last_mut()) {
                    if span.end.is_none() {
                        span.progress.push(at);
                    }
                }
                if self.go.is_some() {
                    self.check_scope(env, "PROGRESS_UPDATE", texts(v, "files_modified"));
                }
                self.progress = Some((
                    reported.to_owned(),
                    v.get("progress_percent")
                        .and_then(Value::as_u64)
                        .unwrap_or(0),
                    text(v, "current_activity").to_owned(),
                ));
                self.last_progress_at = env.at.or(self.last_progress_at);
            }
            "COMPLETION_REPORT" => {
                if !matches!(self.status, Status::Implementing | Status::Fixing) {
                    return out_of_order("without GO (or FIX) to report on");
                }
                if let Some(span) = self.work.last_mut() {
                    span.end = span.end.or(env.at);
                }
                self.reported_at = self.reported_at.or(env.at);
                let changed: Vec<String> = items(v, "files_changed")
                    .map(|f| text(f, "path").to_owned())
                    .filter(|p| !p.is_empty())
                    .collect();
                self.check_scope(env, "COMPLETION_REPORT", changed);
                let mut problems: Vec<String> = gate::failing_tests(v)
                    .into_iter()
                    .chain(gate::outside(v, &self.authorized_files))
                    .map(|i| i.message.as_str().to_owned())
                    .collect();
                problems.extend(
                    items(v, "ac_verification")
                        .filter(|a| text(a, "status") != "PASS")
                        .map(|a| {
                            format!("{} is {}, not PASS", text(a, "ac_id"), text(a, "status"))
                        }),
                );
                self.report_problems = problems;
                self.status = Status::AwaitingNext;
            }
            "BLOCKED_NOTIFICATION@agent" | "BLOCKED_NOTIFICATION@po" => {
                self.status = Status::Blocked;
                self.blocked = Some(Blocked {
                    by: if kind.ends_with("@po") { "po" } else { "agent" },
                    reason: text(v, "reason").to_owned(),
                    at: env.at,
                });
                self.record(env, "BLOCKED_NOTIFICATION", v);
            }
            "GO_DIRECTIVE" => {
                if self.status != Status::AwaitingGo {
                    return out_of_order("with no plan awaiting GO");
                }
                self.check_go(env, v);
                let auth = v.get("authorization").unwrap_or(&Value::Null);
                self.authorized_files = texts(auth, "authorized_files");
                let timeout = count(auth, "timeout_minutes").unwrap_or(DEFAULT_TIMEOUT_MINUTES);
                self.go = env.at.map(|at| (at, timeout)).or(self.go);
                self.go_entry = Some((env.index, env.id));
                self.start_work(env, "GO_DIRECTIVE");
                self.status = Status::Implementing;
                self.record(env, "GO_DIRECTIVE", v);
            }
            "FEEDBACK" => {
                if self.status != Status::AwaitingGo {
                    return out_of_order("with no plan awaiting review");
                }
                self.check_directive_counts(env, kind, v);
                self.plan_revisions.max =
                    count(v, "max_revisions").unwrap_or(self.plan_revisions.max);
                self.status = Status::Planning;
                self.record(env, "FEEDBACK", v);
                if self.plan_revisions.current > self.plan_revisions.max {
                    return Some(Violation::at(
                        ViolationCode::LimitExceeded,
                        env,
                        format!(
                            "FEEDBACK on plan revision {} of {} allowed: the task should be blocked",
                            self.plan_revisions.current, self.plan_revisions.max
                        ),
                    ));
                }
            }
            "NEXT_DIRECTIVE" => {
                if self.status != Status::AwaitingNext {
                    return out_of_order("with no completion report awaiting review");
                }
                self.check_next(env, v);
                self.status = Status::Completed;
                self.record(env, "NEXT_DIRECTIVE", v);
            }
            "FIX_DIRECTIVE" => {
                if self.status != Status::AwaitingNext {
                    return out_of_order("with no completion report awaiting review");
                }
                self.check_directive_counts(env, kind, v);
                self.start_work(env, "FIX_DIRECTIVE");
                let retry = v.get("retry").unwrap_or(&Value::Null);
                self.fix_retries.current =
                    count(retry, "count").unwrap_or(self.fix_retries.current + 1);
                self.fix_retries.max = count(retry, "max").unwrap_or(self.fix_retries.max);
                self.status = Status::Fixing;
                self.record(env, "FIX_DIRECTIVE", v);
                if self.fix_retries.current > self.fix_retries.max {
                    return Some(Violation::at(
                        ViolationCode::LimitExceeded,
                        env,
                        format!(
                            "FIX retry {} of {} allowed: the task should be blocked",
                            self.fix_retries.current, self.fix_retries.max
                        ),
                    ));
                }
            }
            "TERMINATE_DIRECTIVE" => {
                self.status = Status::Terminated;
                self.record(env, "TERMINATE_DIRECTIVE", v);
            }
            _ => {}
        }
        None
    }

    /// GO or FIX: the agent works from here to its report.
    fn start_work(&mut self, env: &Envelope, directive: &'static str) {
        if let Some(start) = env.at {
            self.work.push(WorkSpan {
                entry: env.index,
                id: env.id,
                directive,
                start,
                end: None,
                progress: Vec::new(),
            });
        }
    }

    fn record(&mut self, env: &Envelope, directive: &'static str, v: &Value) {
        let validation = v.get("validation").unwrap_or(&Value::Null);
        let problems = items(validation, "issues")
            .map(|i| (text(i, "type").to_owned(), text(i, "message").to_owned()))
            .collect();
        self.gates.push(GateRecord {
            directive,
            entry: env.index,
            at: env.at,
            problems,
        });
    }

    /// What is due at `now`: after GO, the completion report within the GO timeout, else the
    /// PO blocks the task (`BLOCKED_NOTIFICATION`, reason `agent_timeout`).
    #[must_use]
    pub fn due(&self, now: Timestamp) -> (Vec<Due>, Option<Due>) {
        let Some((go_at, minutes)) = self.go.filter(|_| self.status == Status::Implementing) else {
            return (Vec::new(), None);
        };
        let step = Due {
            action: "BLOCKED_NOTIFICATION",
            from: self.po_name.clone(),
            to: self.agent_name.clone(),
            at: go_at.plus_minutes(i64::from(minutes)),
            warning: None,
            message: None,
        };
        if step.at <= now {
            (vec![step], None)
        } else {
            (Vec::new(), Some(step))
        }
    }

    /// Whether the task is the one `spec` defines.
    #[must_use]
    pub fn matches(&self, spec: &TaskSpec) -> bool {
        spec.task_id == self.task_id && spec.agent_id.as_deref().is_none_or(|a| a == self.agent_id)
    }
}

/// Every Agent-PO task in a stream of envelopes (fed in time order).
#[derive(Debug, Clone, Default)]
pub struct AgentPoBook {
    tasks: Vec<AgentTask>,
    index: HashMap<(String, String), usize>,
    /// Agent-PO messages that name no task (ERROR replies).
    pub unattached: Vec<usize>,
    /// Violations of no one task: invalid messages processed instead of answered with ERROR.
    pub violations: Vec<Violation>,
    /// Invalid messages from agents not answered yet.
    unanswered: Vec<Pending>,
    /// ERRORs whose resubmission is awaited.
    resubmissions: Vec<Resubmission>,
}

/// An invalid message awaiting its ERROR.
#[derive(Debug, Clone)]
struct Pending {
    entry: usize,
    id: Option<u64>,
    at: Option<Timestamp>,
    message_type: Option<&'static str>,
    from: Option<String>,
    to: Vec<String>,
}

/// An ERROR and what it asks the agent to resubmit.
#[derive(Debug, Clone)]
struct Resubmission {
    entry: usize,
    id: Option<u64>,
    at: Option<Timestamp>,
    agent: Option<String>,
    message_type: String,
    done: bool,
}

impl AgentPoBook {
    /// An empty book.
    #[must_use]
    pub fn new() -> AgentPoBook {
        AgentPoBook::default()
    }

    /// The tasks, in order of their first message.
    #[must_use]
    pub fn tasks(&self) -> &[AgentTask] {
        &self.tasks
    }

    /// Every task, mutable (to show violations found beside the fold, such as INVALID_AGENT).
    pub fn tasks_mut(&mut self) -> &mut [AgentTask] {
        &mut self.tasks
    }

    /// What the tasks show late or missing by `now`, and the ERRORs whose message was never
    /// resubmitted.
    #[must_use]
    pub fn findings_at(&self, now: Timestamp) -> Vec<Violation> {
        let mut found: Vec<Violation> =
            self.tasks.iter().flat_map(|t| t.findings_at(now)).collect();
        for r in self.resubmissions.iter().filter(|r| !r.done) {
            found.push(
                Violation::on(
                    ViolationCode::Missing,
                    r.entry,
                    r.id,
                    r.at,
                    Some("ERROR"),
                    format!(
                        "the ERROR asked to resubmit {} with all required fields; no valid {} followed",
                        r.message_type, r.message_type
                    ),
                )
                .by(r.agent.as_deref()),
            );
        }
        found
    }

    /// An invalid message waits for its ERROR; a message of the other side answers it (ERROR
    /// resolves it, a directive processes it: `unanswered`); an agent's valid message may be
    /// the resubmission an ERROR asked for.
    fn answer(&mut self, env: &Envelope) {
        let kind = env.message_type();
        let from = env.from.clone();
        if matches!(env.carried, crate::agent_mail::Carried::Invalid(_)) {
            self.unanswered.push(Pending {
                entry: env.index,
                id: env.id,
                at: env.at,
                message_type: kind,
                from,
                to: env.to.clone(),
            });
            return;
        }
        let Some(kind) = kind else {
            return;
        };
        if from_agent(kind) {
            for r in self
                .resubmissions
                .iter_mut()
                .filter(|r| !r.done && (r.agent.is_none() || r.agent == from))
            {
                if kind.split('@').next() == Some(r.message_type.as_str()) {
                    r.done = true;
                }
            }
            return;
        }
        // A message of the PO's side: the pending invalid messages it answers.
        let answers = |p: &Pending| match (&from, p.to.is_empty()) {
            (Some(f), false) => p.to.contains(f),
            (Some(f), true) => p.from.as_ref() != Some(f),
            (None, _) => true,
        };
        let (answered, waiting): (Vec<Pending>, Vec<Pending>) =
            std::mem::take(&mut self.unanswered)
                .into_iter()
                .partition(answers);
        self.unanswered = waiting;
        for p in answered {
            if kind == "ERROR" {
                let original = env
                    .value()
                    .and_then(|v| v.pointer("/error/original_message_type"))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .or_else(|| {
                        p.message_type
                            .map(|t| t.split('@').next().unwrap_or(t).to_owned())
                    });
                if let Some(message_type) = original {
                    self.resubmissions.push(Resubmission {
                        entry: env.index,
                        id: env.id,
                        at: env.at,
                        agent: p.from.clone(),
                        message_type,
                        done: false,
                    });
                }
            } else {
                self.violations.push(
                    Violation::on(
                        ViolationCode::Unanswered,
                        p.entry,
                        p.id,
                        p.at,
                        p.message_type,
                        format!(
                            "the invalid {} was answered with {kind}, not ERROR: \"All messages validated before processing\"",
                            p.message_type.unwrap_or("message")
                        ),
                    )
                    .by(from.as_deref()),
                );
            }
        }
    }

    /// Folds one envelope into its task; other families are ignored.
    pub fn observe(&mut self, env: &Envelope) {
        if env.family() != Some(FamilyId::AgentPo) {
            return;
        }
        self.answer(env);
        let ids = env
            .value()
            .map(|v| (text(v, "agent_id"), text(v, "task_id")));
        let Some((agent, task)) = ids.filter(|(a, t)| !a.is_empty() && !t.is_empty()) else {
            self.unattached.push(env.index);
            return;
        };
        let key = (agent.to_owned(), task.to_owned());
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                self.tasks.push(AgentTask::new(agent, task));
                self.index.insert(key, self.tasks.len() - 1);
                self.tasks.len() - 1
            }
        };
        let _ = self.tasks[i].fold(env);
    }
}
