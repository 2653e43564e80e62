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
}

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
        }
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
                self.plan_revisions.current =
                    count(v, "revision").unwrap_or(self.plan_revisions.current + 1);
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
                let auth = v.get("authorization").unwrap_or(&Value::Null);
                self.authorized_files = texts(auth, "authorized_files");
                let timeout = count(auth, "timeout_minutes").unwrap_or(DEFAULT_TIMEOUT_MINUTES);
                self.go = env.at.map(|at| (at, timeout)).or(self.go);
                self.status = Status::Implementing;
                self.record(env, "GO_DIRECTIVE", v);
            }
            "FEEDBACK" => {
                if self.status != Status::AwaitingGo {
                    return out_of_order("with no plan awaiting review");
                }
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
                self.status = Status::Completed;
                self.record(env, "NEXT_DIRECTIVE", v);
            }
            "FIX_DIRECTIVE" => {
                if self.status != Status::AwaitingNext {
                    return out_of_order("with no completion report awaiting review");
                }
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

    /// Folds one envelope into its task; other families are ignored.
    pub fn observe(&mut self, env: &Envelope) {
        if env.family() != Some(FamilyId::AgentPo) {
            return;
        }
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
