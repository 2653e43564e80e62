//! Pair Claude flows (seed 003): permission requests (approve / deny / timed out) and review
//! requests (pass / fail), per request, from the tool calls and orchestrator records.
//!
//! The navigator decides a permission request (`navigatorApprove` / `navigatorDeny`,
//! NavigatorCommand `approve` / `deny`): the one its `requestId` names, else the oldest pending
//! one (the orchestrator handles one at a time). The orchestrator's records of that decision
//! (PermissionResult to it, CanUseToolResult to the driver) decide nothing again: each answers
//! the request it names, else the latest decided request no record of its kind covers yet
//! (unless a request asked after that decision is pending), and one that disagrees with the
//! decision is `bad_value`; a record with no decision to cover decides a pending request (logs
//! with only the orchestrator's records). A decision after the permission timeout still reaches
//! its request but is `late` (the request stays timed out). An approve or deny with no pending
//! permission request is, as upstream does, read as a code review (approve = pass, deny =
//! fail) when a review is pending, and otherwise reported (`out_of_order`, upstream's
//! `NAVIGATOR_APPROVE_OUTSIDE_PERMISSION_IGNORED`).
//!
//! Also found as the book folds: a permission request for a tool that needs no approval
//! (`bad_value`), a driver message while one of its permission requests is pending
//! (`out_of_order`: the permission flow is synchronous), a review after `PAIR_TOOL_TIMEOUT_MS`
//! (`late`). [`PairClaudeBook::findings_at`] finds the requests still pending past their timeout.

use crate::agent_mail::Envelope;
use crate::protocol::FamilyId;
use crate::session::violation::{Mark, Violation, ViolationCode};
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The tools whose use needs the navigator's approval (upstream's `FILE_MODIFICATION_TOOLS`).
pub const APPROVAL_TOOLS: [&str; 3] = ["Write", "Edit", "MultiEdit"];

/// The timeouts and turn limits of seed 003's environment table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PairClaudeConfig {
    /// `PAIR_PERMISSION_TIMEOUT_MS`: the seed documents 15 000 (upstream's code uses 45 000).
    pub permission_timeout_ms: i64,
    /// `PAIR_TOOL_TIMEOUT_MS`: 120 000.
    pub tool_timeout_ms: i64,
    /// `PAIR_NAVIGATOR_MAX_TURNS`: the seed documents 20 (upstream's code reads
    /// `CLAUDE_PAIR_NAVIGATOR_MAX_TURNS`, default 50).
    pub navigator_max_turns: u32,
    /// `PAIR_DRIVER_MAX_TURNS`: 20 (upstream: `CLAUDE_PAIR_DRIVER_MAX_TURNS`, 20).
    pub driver_max_turns: u32,
}

impl Default for PairClaudeConfig {
    fn default() -> Self {
        PairClaudeConfig {
            permission_timeout_ms: 15_000,
            tool_timeout_ms: 120_000,
            navigator_max_turns: 20,
            driver_max_turns: 20,
        }
    }
}

/// The two agents of a Pair Claude flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agent {
    /// Plans and reviews; approves or denies the driver's edits.
    Navigator,
    /// Implements; asks for permission, review and guidance.
    Driver,
}

impl Agent {
    /// The agent's name in upstream's environment variables and tool names.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Agent::Navigator => "navigator",
            Agent::Driver => "driver",
        }
    }
}

/// The turns an agent took, against its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Turns {
    /// Turns seen in the log (tool calls and commands that reached the orchestrator).
    pub used: u32,
    /// `PAIR_NAVIGATOR_MAX_TURNS` / `PAIR_DRIVER_MAX_TURNS`.
    pub max: u32,
}

/// Where a request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestStatus {
    /// Waiting for the navigator.
    Pending,
    /// Permission granted.
    Approved,
    /// Permission refused.
    Denied,
    /// No decision within the permission timeout.
    TimedOut,
    /// Review passed.
    Pass,
    /// Review failed.
    Fail,
}

impl RequestStatus {
    /// Its name as it serializes (`pending`, `approved`, `denied`, `timed_out`, `pass`, `fail`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RequestStatus::Pending => "pending",
            RequestStatus::Approved => "approved",
            RequestStatus::Denied => "denied",
            RequestStatus::TimedOut => "timed_out",
            RequestStatus::Pass => "pass",
            RequestStatus::Fail => "fail",
        }
    }
}

/// A permission request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PermissionRequest {
    /// Position in the log.
    pub entry: usize,
    /// The request id, if given.
    pub request_id: Option<String>,
    /// The tool the driver wants to use.
    pub tool_name: String,
    /// When it was asked.
    pub requested_at: Option<Timestamp>,
    /// The decision (without the timeout, which [`PairClaudeBook::permission_status`] applies).
    pub decision: RequestStatus,
    /// When decided.
    pub decided_at: Option<Timestamp>,
    /// The navigator's comment or reason.
    pub comment: Option<String>,
    /// The request's message.
    #[serde(skip)]
    mark: Mark,
    /// Who asked (the driver).
    #[serde(skip)]
    sender: Option<String>,
    /// When it was asked, in fold order.
    #[serde(skip)]
    asked_seq: u64,
    /// Its answer, on time or late.
    #[serde(skip)]
    answer: Option<Answer>,
    /// Whether a PermissionResult, a CanUseToolResult recorded the answer.
    #[serde(skip)]
    recorded: [bool; 2],
}

/// How a permission request was answered. A late answer leaves the request timed out (its
/// `decision` pending): it is kept so that the records of it find it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Answer {
    allow: bool,
    by: Decider,
    /// When, in fold order.
    seq: u64,
}

impl PermissionRequest {
    /// `permission request "r1" (entry 3)`.
    fn name(&self) -> String {
        match &self.request_id {
            Some(id) => format!("permission request {id:?} ({})", self.mark.reference()),
            None => format!("permission request ({})", self.mark.reference()),
        }
    }
}

/// A review request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReviewRequest {
    /// Position in the log (the request's, or the review's when none was asked).
    pub entry: usize,
    /// What the driver asked about.
    pub context: Option<String>,
    /// When asked.
    pub requested_at: Option<Timestamp>,
    /// `pending`, `pass` or `fail`.
    pub status: RequestStatus,
    /// The navigator's comment.
    pub comment: Option<String>,
    /// When reviewed.
    pub decided_at: Option<Timestamp>,
    /// The request's message (none for a review nobody asked for).
    #[serde(skip)]
    mark: Option<Mark>,
}

/// One of the orchestrator's records of a permission decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Record {
    /// `PermissionResult{allowed, …}`, the decision as the orchestrator took it.
    PermissionResult,
    /// The SDK's `canUseTool` result `{behavior, …}` to the driver.
    CanUseToolResult,
}

impl Record {
    const fn name(self) -> &'static str {
        match self {
            Record::PermissionResult => "PermissionResult",
            Record::CanUseToolResult => "CanUseToolResult",
        }
    }

    /// What the record says, in its own words.
    const fn says(self, allow: bool) -> &'static str {
        match (self, allow) {
            (Record::PermissionResult, true) => "allowed",
            (Record::PermissionResult, false) => "not allowed",
            (Record::CanUseToolResult, true) => "allow",
            (Record::CanUseToolResult, false) => "deny",
        }
    }
}

/// Who decides a permission request: the navigator, or a record when no decision came first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decider {
    Navigator,
    Record(Record),
}

/// What a Pair Claude message means for the flows.
#[derive(Debug, Clone, Copy)]
enum Move<'a> {
    AskPermission {
        request_id: Option<&'a str>,
        tool: &'a str,
    },
    Decide {
        by: Decider,
        request_id: Option<&'a str>,
        allow: bool,
        comment: Option<&'a str>,
    },
    AskReview {
        context: Option<&'a str>,
    },
    Review {
        pass: bool,
        comment: Option<&'a str>,
    },
    AskGuidance,
}

fn read<'a>(kind: &str, v: &'a Value) -> Option<Move<'a>> {
    let args = v.get("arguments").unwrap_or(v);
    let s = |x: &'a Value, k: &str| x.get(k).and_then(Value::as_str);
    let record = |r: Record, allow: bool, comment: Option<&'a str>| Move::Decide {
        by: Decider::Record(r),
        request_id: s(v, "requestId"),
        allow,
        comment,
    };
    Some(match kind {
        "PermissionRequest" => Move::AskPermission {
            request_id: s(v, "requestId"),
            tool: s(v, "toolName").unwrap_or(""),
        },
        "PermissionResult@allowed" => record(Record::PermissionResult, true, s(v, "comment")),
        "PermissionResult@denied" => record(Record::PermissionResult, false, s(v, "reason")),
        "CanUseToolResult@allow" => record(Record::CanUseToolResult, true, None),
        "CanUseToolResult@deny" => record(Record::CanUseToolResult, false, s(v, "message")),
        "navigatorApprove" | "navigatorDeny" => Move::Decide {
            by: Decider::Navigator,
            request_id: s(args, "requestId"),
            allow: kind == "navigatorApprove",
            comment: s(args, "comment"),
        },
        "navigatorCodeReview" => Move::Review {
            pass: args.get("pass") == Some(&Value::Bool(true)),
            comment: s(args, "comment"),
        },
        "driverRequestReview" => Move::AskReview {
            context: s(args, "context"),
        },
        "driverRequestGuidance" => Move::AskGuidance,
        "NavigatorCommand" => match s(v, "type")? {
            "code_review" => Move::Review {
                pass: v.get("pass") == Some(&Value::Bool(true)),
                comment: s(v, "comment"),
            },
            t => Move::Decide {
                by: Decider::Navigator,
                request_id: s(v, "requestId"),
                allow: t == "approve",
                comment: s(v, "comment"),
            },
        },
        "DriverCommand" => match s(v, "type")? {
            "request_review" => Move::AskReview {
                context: s(v, "context"),
            },
            _ => Move::AskGuidance,
        },
        _ => return None,
    })
}

/// Whose turn a message is: the navigator's tool calls and commands, the driver's tool calls,
/// commands and permission requests (its attempted edits); `None` for the orchestrator's own
/// records of a decision (PermissionResult, CanUseToolResult), which are no agent's turn.
fn turn_of(step: Move<'_>) -> Option<Agent> {
    match step {
        Move::Decide {
            by: Decider::Record(_),
            ..
        } => None,
        Move::Decide { .. } | Move::Review { .. } => Some(Agent::Navigator),
        Move::AskPermission { .. } | Move::AskReview { .. } | Move::AskGuidance => {
            Some(Agent::Driver)
        }
    }
}

/// The permission request (by position) a decision or record answers, or what else it is.
enum Target {
    /// Decided already: a record covers it.
    Decided(usize),
    /// Pending, within the timeout.
    Live(usize),
    /// Pending, past the timeout: decided late.
    Expired(usize),
    /// No permission request: a pending review takes it (upstream's coercion).
    Review,
    /// Nothing it can answer.
    Nothing,
}

/// Every Pair Claude request in a stream of envelopes (fed in time order).
#[derive(Debug, Clone, Default)]
pub struct PairClaudeBook {
    /// Permission requests, in order.
    pub permissions: Vec<PermissionRequest>,
    /// Review requests, in order.
    pub reviews: Vec<ReviewRequest>,
    /// Guidance requests: their log positions.
    pub guidance: Vec<usize>,
    /// Violations.
    pub violations: Vec<Violation>,
    /// Turns taken: navigator, driver.
    pub turns: [u32; 2],
    /// The timeouts and turn limits.
    pub config: PairClaudeConfig,
    /// The agent that plays the navigator: the first to send a navigator's message (as
    /// `session::agents::SENDER_RULES` has it).
    navigator: Option<String>,
    /// The agent that plays the driver: the first to send a driver's message.
    driver: Option<String>,
    /// Messages folded so far.
    seq: u64,
}

impl PairClaudeBook {
    /// The agent that plays `agent`: the first to send one of its messages.
    #[must_use]
    pub fn player(&self, agent: Agent) -> Option<&str> {
        match agent {
            Agent::Navigator => self.navigator.as_deref(),
            Agent::Driver => self.driver.as_deref(),
        }
    }

    /// An empty book with these timeouts.
    #[must_use]
    pub fn new(config: PairClaudeConfig) -> PairClaudeBook {
        PairClaudeBook {
            config,
            ..PairClaudeBook::default()
        }
    }

    /// The turns an agent took against its limit.
    #[must_use]
    pub fn turns(&self, agent: Agent) -> Turns {
        let max = match agent {
            Agent::Navigator => self.config.navigator_max_turns,
            Agent::Driver => self.config.driver_max_turns,
        };
        Turns {
            used: self.turns[agent as usize],
            max,
        }
    }

    /// Counts a turn of `agent`; the one past its limit is `limit_exceeded` (upstream ends the
    /// agent's conversation there, so nothing after it should come from that agent).
    fn count_turn(&mut self, env: &Envelope, agent: Agent) {
        self.turns[agent as usize] += 1;
        let Turns { used, max } = self.turns(agent);
        if used == max + 1 {
            let var = match agent {
                Agent::Navigator => "PAIR_NAVIGATOR_MAX_TURNS",
                Agent::Driver => "PAIR_DRIVER_MAX_TURNS",
            };
            self.violations.push(Violation::at(
                ViolationCode::LimitExceeded,
                env,
                format!(
                    "{} turn {used} is past {var} = {max}: the {} had no turns left",
                    agent.as_str(),
                    agent.as_str()
                ),
            ));
        }
    }

    /// When a permission request asked at `asked` times out.
    fn permission_deadline(&self, asked: Timestamp) -> Timestamp {
        asked.plus_millis(self.config.permission_timeout_ms)
    }

    /// When a review asked at `asked` is due.
    fn review_deadline(&self, asked: Timestamp) -> Timestamp {
        asked.plus_millis(self.config.tool_timeout_ms)
    }

    /// Whether `request` can still be decided at `at` (not answered, within the timeout; a
    /// request or a message without a time is taken as within it).
    fn live(&self, request: &PermissionRequest, at: Option<Timestamp>) -> bool {
        request.answer.is_none()
            && match (request.requested_at, at) {
                (Some(asked), Some(at)) => at < self.permission_deadline(asked),
                _ => true,
            }
    }

    /// A permission request's status at `now`: a request still pending at its deadline (asked
    /// plus the permission timeout), or decided at or after it, has timed out.
    #[must_use]
    pub fn permission_status(&self, request: &PermissionRequest, now: Timestamp) -> RequestStatus {
        let Some(deadline) = request.requested_at.map(|t| self.permission_deadline(t)) else {
            return request.decision;
        };
        let late = request.decided_at.unwrap_or(now) >= deadline;
        if late {
            RequestStatus::TimedOut
        } else {
            request.decision
        }
    }

    /// The findings only known at the time the log is judged, `now` (pure; the log folded so
    /// far is taken as all that was sent, so an earlier `now` never finds more): `late`, blamed
    /// on the navigator, on each permission request still pending at its deadline
    /// (`PAIR_PERMISSION_TIMEOUT_MS` after it was asked) and each review request still pending
    /// at its deadline (`PAIR_TOOL_TIMEOUT_MS` after it was asked).
    #[must_use]
    pub fn findings_at(&self, now: Timestamp) -> Vec<Violation> {
        let navigator = self.navigator.as_deref();
        let mut out = Vec::new();
        for p in &self.permissions {
            let due = p.requested_at.map(|t| self.permission_deadline(t));
            if p.answer.is_none() && due.is_some_and(|d| d <= now) {
                let v = p.mark.violation(
                    ViolationCode::Late,
                    format!(
                        "{} is not decided at {now}, {} ms after it was asked (PAIR_PERMISSION_TIMEOUT_MS: 'Permission request timeout')",
                        p.name(),
                        self.config.permission_timeout_ms
                    ),
                );
                out.push(v.by(navigator));
            }
        }
        let pending = self
            .reviews
            .iter()
            .filter(|r| r.status == RequestStatus::Pending);
        for r in pending {
            let (Some(mark), Some(asked)) = (&r.mark, r.requested_at) else {
                continue;
            };
            if self.review_deadline(asked) <= now {
                let v = mark.violation(
                    ViolationCode::Late,
                    format!(
                        "review request ({}) is not reviewed at {now}, {} ms after it was asked (PAIR_TOOL_TIMEOUT_MS: 'Tool completion timeout')",
                        mark.reference(),
                        self.config.tool_timeout_ms
                    ),
                );
                out.push(v.by(navigator));
            }
        }
        out.sort_by_key(|v| v.entry);
        out
    }

    /// Folds one envelope; other families are ignored.
    pub fn observe(&mut self, env: &Envelope) {
        if env.family() != Some(FamilyId::PairClaude) {
            return;
        }
        let Some(m) = env.message() else {
            self.violations.push(Violation::invalid(env));
            return;
        };
        let tool = m.value.get("name").and_then(Value::as_str).map(|n| {
            [
                "navigatorApprove",
                "navigatorDeny",
                "navigatorCodeReview",
                "driverRequestReview",
                "driverRequestGuidance",
            ]
            .into_iter()
            .find(|t| n.ends_with(t))
            .unwrap_or(m.message_type)
        });
        let kind = tool.unwrap_or(m.message_type);
        let Some(step) = read(kind, &m.value) else {
            return;
        };
        self.seq += 1;
        match turn_of(step) {
            Some(Agent::Navigator) => {
                if self.navigator.is_none() {
                    self.navigator.clone_from(&env.from);
                }
                self.count_turn(env, Agent::Navigator);
            }
            Some(Agent::Driver) => {
                if self.driver.is_none() {
                    self.driver.clone_from(&env.from);
                }
                self.while_permission_pending(env, kind);
                self.count_turn(env, Agent::Driver);
            }
            None => {}
        }
        match step {
            Move::AskPermission { request_id, tool } => self.ask_permission(env, request_id, tool),
            Move::Decide {
                by,
                request_id,
                allow,
                comment,
            } => self.decide(env, by, request_id, allow, comment),
            Move::AskReview { context } => self.reviews.push(ReviewRequest {
                entry: env.index,
                context: context.map(str::to_owned),
                requested_at: env.at,
                status: RequestStatus::Pending,
                comment: None,
                decided_at: None,
                mark: Some(Mark::of(env)),
            }),
            Move::Review { pass, comment } => self.review(env, pass, comment),
            Move::AskGuidance => self.guidance.push(env.index),
        }
    }

    /// A driver's message while one of its permission requests is pending is `out_of_order`:
    /// the permission flow is synchronous (the message is still applied).
    fn while_permission_pending(&mut self, env: &Envelope, kind: &str) {
        let same_driver = |p: &PermissionRequest| match (&p.sender, &env.from) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let pending = self
            .permissions
            .iter()
            .find(|p| same_driver(p) && self.live(p, env.at));
        if let Some(p) = pending {
            let v = Violation::at(
                ViolationCode::OutOfOrder,
                env,
                format!(
                    "{kind} while {} is pending: the driver waits for the navigator's decision (Key Design Principles 4: 'Permission Flow: Sync, security-focused, real-time interception')",
                    p.name()
                ),
            );
            self.violations.push(v);
        }
    }

    fn ask_permission(&mut self, env: &Envelope, request_id: Option<&str>, tool: &str) {
        if !APPROVAL_TOOLS.contains(&tool) {
            self.violations.push(Violation::at(
                ViolationCode::BadValue,
                env,
                format!(
                    "PermissionRequest for {tool:?}: only Write, Edit and MultiEdit need approval (Permission Flow: 'Needs approval (Write/Edit/MultiEdit)')"
                ),
            ));
        }
        self.permissions.push(PermissionRequest {
            entry: env.index,
            request_id: request_id.map(str::to_owned),
            tool_name: tool.to_owned(),
            requested_at: env.at,
            decision: RequestStatus::Pending,
            decided_at: None,
            comment: None,
            mark: Mark::of(env),
            sender: env.from.clone(),
            asked_seq: self.seq,
            answer: None,
            recorded: [false; 2],
        });
    }

    /// What a decision or record answers (see the module's documentation).
    fn target(&self, env: &Envelope, by: Decider, request_id: Option<&str>) -> Target {
        let ps = &self.permissions;
        let pending = |p: &PermissionRequest| p.answer.is_none();
        let named =
            |p: &PermissionRequest| request_id.is_none_or(|id| p.request_id.as_deref() == Some(id));
        let as_pending = |i: usize| {
            if self.live(&ps[i], env.at) {
                Target::Live(i)
            } else {
                Target::Expired(i)
            }
        };
        let review = || {
            if self
                .reviews
                .iter()
                .any(|r| r.status == RequestStatus::Pending)
            {
                Target::Review
            } else {
                Target::Nothing
            }
        };
        let uncovered = |p: &PermissionRequest| match by {
            Decider::Record(r) => p.answer.is_some() && !p.recorded[r as usize],
            Decider::Navigator => false,
        };
        if request_id.is_some() {
            if let Some(i) = ps.iter().position(|p| named(p) && uncovered(p)) {
                return Target::Decided(i);
            }
            if let Some(i) = ps.iter().position(|p| named(p) && pending(p)) {
                return as_pending(i);
            }
            if let (Decider::Record(_), Some(i)) = (by, ps.iter().position(named)) {
                return Target::Decided(i);
            }
            return review();
        }
        let live = ps.iter().position(|p| self.live(p, env.at));
        let decided = ps
            .iter()
            .enumerate()
            .filter(|(_, p)| uncovered(p))
            .max_by_key(|(_, p)| p.answer.map(|a| a.seq))
            .map(|(i, _)| i);
        let answered = |i: usize| ps[i].answer.map_or(0, |a| a.seq);
        match (decided, live) {
            (Some(d), Some(l)) if ps[l].asked_seq < answered(d) => Target::Decided(d),
            (Some(d), None) => Target::Decided(d),
            (_, Some(l)) => Target::Live(l),
            (_, None) => match review() {
                Target::Nothing => ps
                    .iter()
                    .position(pending)
                    .map_or(Target::Nothing, Target::Expired),
                t => t,
            },
        }
    }

    fn decide(
        &mut self,
        env: &Envelope,
        by: Decider,
        request_id: Option<&str>,
        allow: bool,
        comment: Option<&str>,
    ) {
        let target = self.target(env, by, request_id);
        let record = match by {
            Decider::Record(r) => Some(r),
            Decider::Navigator => None,
        };
        let i = match target {
            Target::Decided(i) => {
                let p = &mut self.permissions[i];
                let (Some(r), Some(answer)) = (record, p.answer) else {
                    return;
                };
                p.recorded[r as usize] = true;
                let decided = answer.allow;
                if decided != allow {
                    let who = match answer.by {
                        Decider::Record(first) => first.name(),
                        Decider::Navigator => "the navigator",
                    };
                    let verb = match (answer.by, decided) {
                        (Decider::Navigator, true) => "approved",
                        (Decider::Record(_), true) => "allowed",
                        (_, false) => "denied",
                    };
                    let message = format!(
                        "{} says {} but {who} {verb} {} (Permission Flow: the orchestrator passes the navigator's decision on)",
                        r.name(),
                        r.says(allow),
                        p.name()
                    );
                    self.violations
                        .push(Violation::at(ViolationCode::BadValue, env, message));
                }
                return;
            }
            Target::Live(i) | Target::Expired(i) => i,
            Target::Review => return self.review(env, allow, comment),
            Target::Nothing => {
                self.violations.push(Violation::at(
                    ViolationCode::OutOfOrder,
                    env,
                    format!(
                        "{} with no pending permission request{} (NAVIGATOR_APPROVE_OUTSIDE_PERMISSION_IGNORED)",
                        if allow { "approval" } else { "denial" },
                        request_id.map(|id| format!(" {id:?}")).unwrap_or_default()
                    ),
                ));
                return;
            }
        };
        let seq = self.seq;
        let navigator = self.navigator.clone();
        let timeout = self.config.permission_timeout_ms;
        let p = &mut self.permissions[i];
        p.answer = Some(Answer { allow, by, seq });
        if let Some(r) = record {
            p.recorded[r as usize] = true;
        }
        if let Target::Live(_) = target {
            p.decision = if allow {
                RequestStatus::Approved
            } else {
                RequestStatus::Denied
            };
            p.decided_at = env.at;
            p.comment = comment
                .map(str::to_owned)
                .or_else(|| (!allow).then(|| "Navigator denied permission".to_owned()));
        } else if let Some(at) = env.at {
            let v = p.mark.violation(
                ViolationCode::Late,
                format!(
                    "{} was decided at {at}, past PAIR_PERMISSION_TIMEOUT_MS = {timeout} after it was asked (PAIR_PERMISSION_TIMEOUT_MS: 'Permission request timeout')",
                    p.name()
                ),
            );
            self.violations.push(v.by(navigator.as_deref()));
        }
    }

    fn review(&mut self, env: &Envelope, pass: bool, comment: Option<&str>) {
        let status = if pass {
            RequestStatus::Pass
        } else {
            RequestStatus::Fail
        };
        let Some(i) = self
            .reviews
            .iter()
            .position(|r| r.status == RequestStatus::Pending)
        else {
            self.reviews.push(ReviewRequest {
                entry: env.index,
                context: None,
                requested_at: None,
                status,
                comment: comment.map(str::to_owned),
                decided_at: env.at,
                mark: None,
            });
            return;
        };
        let due = self.reviews[i]
            .requested_at
            .map(|t| self.review_deadline(t));
        let r = &mut self.reviews[i];
        r.status = status;
        r.comment = comment.map(str::to_owned);
        r.decided_at = env.at;
        let late = due.zip(env.at).filter(|(due, at)| at >= due);
        if let (Some((_, at)), Some(mark)) = (late, &r.mark) {
            let v = mark.violation(
                ViolationCode::Late,
                format!(
                    "review request ({}) was reviewed at {at}, past PAIR_TOOL_TIMEOUT_MS = {} after it was asked (PAIR_TOOL_TIMEOUT_MS: 'Tool completion timeout')",
                    mark.reference(),
                    self.config.tool_timeout_ms
                ),
            );
            self.violations.push(v.by(self.navigator.as_deref()));
        }
    }
}
