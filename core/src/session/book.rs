//! Every protocol in one fold: a [`Book`] routes each envelope to its family's book, and
//! prints sessions and task boards at a given time.

use super::ack::{AckDebt, AckLedger};
use super::agent_po::{AgentPoBook, AgentTask, Count, GateRecord};
use super::agents::{AgentBook, Registry};
use super::pair::timeout::Due;
use super::pair::{PairBook, PairView};
use super::pair_claude::{
    Agent, PairClaudeBook, PairClaudeConfig, RequestStatus, ReviewRequest, Turns,
};
use super::tasks::{Conflict, DroidTask, ErrorReport, Reservation, TaskBoard, TaskStatus};
use super::violation::Violation;
use super::{in_time_order, Envelope};
use crate::time::Timestamp;
use serde::Serialize;
use std::collections::BTreeMap;

/// All sessions and boards of a message log.
#[derive(Debug, Clone, Default)]
pub struct Book {
    /// Pair Protocol sessions.
    pub pair: PairBook,
    /// Agent-PO tasks.
    pub agent_po: AgentPoBook,
    /// Droid tasks and reservations.
    pub tasks: TaskBoard,
    /// Pair Claude requests.
    pub pair_claude: PairClaudeBook,
    /// Acknowledgement debt.
    pub acks: AckLedger,
    /// Senders and recipients: registered agents, the roles message types require.
    pub agents: AgentBook,
}

impl Book {
    /// An empty book with these Pair Claude timeouts.
    #[must_use]
    pub fn new(config: PairClaudeConfig) -> Book {
        Book {
            pair_claude: PairClaudeBook::new(config),
            ..Book::default()
        }
    }

    /// This book, checking senders and recipients against the registered agents.
    #[must_use]
    pub fn with_agents(self, registry: Registry) -> Book {
        Book {
            agents: AgentBook::new(Some(registry)),
            ..self
        }
    }

    /// Folds envelopes in time order ([`in_time_order`]).
    #[must_use]
    pub fn replay(envelopes: &[Envelope], config: PairClaudeConfig) -> Book {
        Book::new(config).replayed(envelopes)
    }

    /// This book with `envelopes` folded in time order.
    #[must_use]
    pub fn replayed(mut self, envelopes: &[Envelope]) -> Book {
        for env in in_time_order(envelopes) {
            self.observe(env);
        }
        self
    }

    /// Folds one envelope (envelopes must come in time order).
    pub fn observe(&mut self, env: &Envelope) {
        let flagged = self.agents.observe(env);
        // A message whose sender does not hold the role its type requires (a droid report
        // from an agent the task was not assigned to, or under another's sender_id; a
        // navigator's call from the driver) is reported, not applied: it must not move the
        // board (a later real completion would then read as after the task's end); one about a
        // droid task already complete is still after its end.
        let unauthorized = flagged
            .iter()
            .any(|v| v.code == crate::session::violation::ViolationCode::WrongRole);
        self.acks.observe(env);
        self.pair.observe(env);
        self.agent_po.observe(env);
        if unauthorized {
            self.tasks.observe_unauthorized(env);
        } else {
            self.tasks.observe(env);
            self.pair_claude.observe(env);
        }
        if !flagged.is_empty() {
            self.attach(env, &flagged);
        }
    }

    /// Shows the sender and recipient violations of `env` on the session or task that took
    /// it too (Pair sessions, Agent-PO tasks, the Pair Claude board); droid ones stay in
    /// [`Book::agents`], which the boards print.
    fn attach(&mut self, env: &Envelope, flagged: &[crate::session::violation::Violation]) {
        if let Some(s) = self
            .pair
            .sessions_mut()
            .iter_mut()
            .find(|s| s.timeline.iter().any(|t| t.entry == env.index))
        {
            s.violations.extend_from_slice(flagged);
        }
        if let Some(t) = self
            .agent_po
            .tasks_mut()
            .iter_mut()
            .find(|t| t.entries.contains(&env.index))
        {
            t.violations.extend_from_slice(flagged);
        }
        if env.family() == Some(crate::protocol::FamilyId::PairClaude) {
            self.pair_claude.violations.extend_from_slice(flagged);
        }
    }

    /// Every session (Pair sessions, then Agent-PO tasks) as printed at `now`.
    #[must_use]
    pub fn sessions(&self, now: Timestamp) -> Vec<SessionView<'_>> {
        let pair = self
            .pair
            .sessions()
            .iter()
            .map(|s| SessionView::Pair(s.view(now)));
        let po = self
            .agent_po
            .tasks()
            .iter()
            .map(|t| SessionView::AgentPo(AgentPoView::of(t, now)));
        pair.chain(po).collect()
    }

    /// What is late or missing at `now` beyond what folding the log found: responses and
    /// steps whose time has come and that the log does not hold (pure: the book is unchanged).
    #[must_use]
    pub fn findings_at(&self, now: Timestamp) -> Vec<Violation> {
        let mut found = self.pair.findings_at(now);
        found.extend(self.agent_po.findings_at(now));
        found.extend(self.tasks.findings_at(now));
        found.extend(self.pair_claude.findings_at(now));
        found
    }

    /// Whether any session or board has a violation.
    #[must_use]
    pub fn has_violations(&self) -> bool {
        self.pair
            .sessions()
            .iter()
            .any(|s| !s.violations.is_empty())
            || self
                .agent_po
                .tasks()
                .iter()
                .any(|t| !t.violations.is_empty())
            || self.tasks.tasks().iter().any(|t| !t.violations.is_empty())
            || !self.pair_claude.violations.is_empty()
            || !self.agents.violations.is_empty()
    }

    /// The task boards at `now`.
    #[must_use]
    pub fn boards(&self, now: Timestamp) -> Boards<'_> {
        let mut by_status: BTreeMap<TaskStatus, Vec<DroidRow<'_>>> = BTreeMap::new();
        for task in self.tasks.tasks() {
            by_status.entry(task.status).or_default().push(DroidRow {
                task,
                waiting_on: self.tasks.waiting_on(task),
                overdue: task.deadline.is_some_and(|d| d < now)
                    && task.status != TaskStatus::Complete,
            });
        }
        let mut errors: Vec<(&str, &ErrorReport)> = self
            .tasks
            .tasks()
            .iter()
            .flat_map(|t| t.errors.iter().map(move |e| (t.task_id.as_str(), e)))
            .collect();
        errors.sort_by_key(|(_, e)| e.rank());
        let pc = &self.pair_claude;
        Boards {
            agent_po: self
                .agent_po
                .tasks()
                .iter()
                .map(|t| AgentPoView::of(t, now))
                .collect(),
            droid: DroidBoard {
                by_status,
                errors: errors
                    .into_iter()
                    .map(|(task_id, error)| TaskError { task_id, error })
                    .collect(),
                reservations: &self.tasks.reservations,
                conflicts: self.tasks.conflicts(now),
            },
            pair_claude: PairClaudeBoard {
                permissions: pc
                    .permissions
                    .iter()
                    .map(|p| PermissionRow {
                        status: pc.permission_status(p, now),
                        request: p,
                    })
                    .collect(),
                reviews: &pc.reviews,
                guidance: &pc.guidance,
                violations: &pc.violations,
                turns: [Agent::Navigator, Agent::Driver]
                    .into_iter()
                    .map(|a| (a, pc.turns(a)))
                    .collect(),
                config: pc.config,
            },
            ack_debt: self.acks.debts(now),
            agents: AgentsBoard {
                registered: self.agents.registry.as_ref().map(|r| r.names().collect()),
                violations: &self.agents.violations,
            },
        }
    }
}

/// A session of any family, as `switchboard session` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SessionView<'a> {
    /// A Pair Protocol session.
    Pair(PairView<'a>),
    /// An Agent-PO task agent's session.
    AgentPo(AgentPoView<'a>),
}

/// An Agent-PO task as a session and a board row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentPoView<'a> {
    /// Always `agent-po`.
    pub family: &'static str,
    /// `<agent_id>/<task_id>`.
    pub session_id: String,
    /// The agent's status.
    pub phase: super::agent_po::Status,
    /// `active`, `completed`, `blocked` or `terminated`.
    pub status: &'static str,
    /// The task.
    pub task: &'a str,
    /// `{agent, po}`: the agent id and the PO's mail name.
    pub roles: BTreeMap<&'static str, Option<&'a str>>,
    /// Agent-PO has no human checkpoint.
    pub open_checkpoint: Option<&'static str>,
    /// None.
    pub decisions: [(); 0],
    /// None.
    pub change_orders: [(); 0],
    /// What is due at `now` (the completion report past the GO timeout).
    pub due: Vec<Due>,
    /// When the next deadline falls.
    pub next_deadline: Option<Timestamp>,
    /// What happens then.
    pub next_action: Option<Due>,
    /// Violations.
    pub violations: &'a [Violation],
    /// Plans submitted against the revisions allowed.
    pub plan_revisions: Count,
    /// Fix retries against the retries allowed.
    pub fix_retries: Count,
    /// Whether a limit is reached (one more failure blocks the task).
    pub at_limit: bool,
    /// Every directive with its problems.
    pub gates: &'a [GateRecord],
    /// Files GO authorized.
    pub authorized_files: &'a [String],
    /// The last progress report `(status, percent, activity)`.
    pub progress: Option<&'a (String, u64, String)>,
    /// Why it is blocked.
    pub blocked: Option<&'a super::agent_po::Blocked>,
}

impl<'a> AgentPoView<'a> {
    fn of(t: &'a AgentTask, now: Timestamp) -> AgentPoView<'a> {
        let (due, next) = t.due(now);
        AgentPoView {
            family: "agent-po",
            session_id: format!("{}/{}", t.agent_id, t.task_id),
            phase: t.status,
            status: match t.status {
                s if !s.is_terminal() => "active",
                s => s.as_str(),
            },
            task: &t.task_id,
            roles: BTreeMap::from([
                ("agent", Some(t.agent_id.as_str())),
                ("po", t.po_name.as_deref()),
            ]),
            open_checkpoint: None,
            decisions: [],
            change_orders: [],
            next_deadline: next.as_ref().map(|d| d.at),
            next_action: next,
            due,
            violations: &t.violations,
            plan_revisions: t.plan_revisions,
            fix_retries: t.fix_retries,
            at_limit: t.plan_revisions.current > t.plan_revisions.max
                || t.fix_retries.current >= t.fix_retries.max,
            gates: &t.gates,
            authorized_files: &t.authorized_files,
            progress: t.progress.as_ref(),
            blocked: t.blocked.as_ref(),
        }
    }
}

/// The task boards.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Boards<'a> {
    /// Agent-PO tasks.
    pub agent_po: Vec<AgentPoView<'a>>,
    /// Droid tasks.
    pub droid: DroidBoard<'a>,
    /// Pair Claude requests.
    pub pair_claude: PairClaudeBoard<'a>,
    /// Per agent, the acknowledgements it owes.
    pub ack_debt: Vec<AckDebt>,
    /// Senders and recipients: the registered agents (when given) and every violation of the
    /// sender rules or the registry.
    pub agents: AgentsBoard<'a>,
}

/// The senders board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentsBoard<'a> {
    /// The registered agents, when given.
    pub registered: Option<Vec<&'a str>>,
    /// `invalid_agent` and `wrong_role` violations of the sender rules, in log order.
    pub violations: &'a [crate::session::violation::Violation],
}

/// A droid task on the board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroidRow<'a> {
    /// The task.
    #[serde(flatten)]
    pub task: &'a DroidTask,
    /// Dependencies not complete yet.
    pub waiting_on: Vec<String>,
    /// Past its deadline and not complete.
    pub overdue: bool,
}

/// An error report with its task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskError<'a> {
    /// The task.
    pub task_id: &'a str,
    /// The report.
    #[serde(flatten)]
    pub error: &'a ErrorReport,
}

/// The droid board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroidBoard<'a> {
    /// Tasks by status.
    pub by_status: BTreeMap<TaskStatus, Vec<DroidRow<'a>>>,
    /// Every error report, `needs_human_intervention` first, then by severity.
    pub errors: Vec<TaskError<'a>>,
    /// Every reservation request.
    pub reservations: &'a [Reservation],
    /// Conflicts among the active ones.
    pub conflicts: Vec<Conflict>,
}

/// A permission request with its status at `now`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PermissionRow<'a> {
    /// The request.
    #[serde(flatten)]
    pub request: &'a super::pair_claude::PermissionRequest,
    /// `pending`, `approved`, `denied` or `timed_out`.
    pub status: RequestStatus,
}

/// The Pair Claude board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairClaudeBoard<'a> {
    /// Permission requests.
    pub permissions: Vec<PermissionRow<'a>>,
    /// Review requests.
    pub reviews: &'a [ReviewRequest],
    /// Guidance requests (log positions).
    pub guidance: &'a [usize],
    /// Violations.
    pub violations: &'a [Violation],
    /// Turns taken by each agent against its limit.
    pub turns: BTreeMap<Agent, Turns>,
    /// The timeouts and turn limits used.
    pub config: PairClaudeConfig,
}
