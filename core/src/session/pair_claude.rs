//! Pair Claude flows (seed 003): permission requests (approve / deny / timed out) and review
//! requests (pass / fail), per request, from the tool calls and orchestrator records.
//!
//! A decision names its request by `requestId`; without one it answers the oldest pending
//! request (the orchestrator handles one at a time). A request not answered within the
//! permission timeout has timed out: a later answer finds no live request. An approve or deny with no pending
//! permission request is, as upstream does, read as a code review (approve = pass, deny =
//! fail) when a review is pending, and otherwise reported (`out_of_order`, upstream's
//! `NAVIGATOR_APPROVE_OUTSIDE_PERMISSION_IGNORED`).

use crate::agent_mail::Envelope;
use crate::protocol::FamilyId;
use crate::session::violation::{Violation, ViolationCode};
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
}

/// What a Pair Claude message means for the flows.
#[derive(Debug, Clone, Copy)]
enum Move<'a> {
    AskPermission {
        request_id: Option<&'a str>,
        tool: &'a str,
    },
    Decide {
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
    Some(match kind {
        "PermissionRequest" => Move::AskPermission {
            request_id: s(v, "requestId"),
            tool: s(v, "toolName").unwrap_or(""),
        },
        "PermissionResult@allowed" => Move::Decide {
            request_id: s(v, "requestId"),
            allow: true,
            comment: s(v, "comment"),
        },
        "PermissionResult@denied" => Move::Decide {
            request_id: s(v, "requestId"),
            allow: false,
            comment: s(v, "reason"),
        },
        "CanUseToolResult@allow" => Move::Decide {
            request_id: None,
            allow: true,
            comment: None,
        },
        "CanUseToolResult@deny" => Move::Decide {
            request_id: None,
            allow: false,
            comment: s(v, "message"),
        },
        "navigatorApprove" | "navigatorDeny" => Move::Decide {
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
fn turn_of(kind: &str, step: Move<'_>) -> Option<Agent> {
    match (kind, step) {
        ("PermissionResult@allowed" | "PermissionResult@denied", _)
        | ("CanUseToolResult@allow" | "CanUseToolResult@deny", _) => None,
        (_, Move::Decide { .. } | Move::Review { .. }) => Some(Agent::Navigator),
        (_, Move::AskPermission { .. } | Move::AskReview { .. } | Move::AskGuidance) => {
            Some(Agent::Driver)
        }
    }
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
}

impl PairClaudeBook {
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

    /// A permission request's status at `now`: a request still pending (or decided too late)
    /// after the permission timeout has timed out.
    #[must_use]
    pub fn permission_status(&self, request: &PermissionRequest, now: Timestamp) -> RequestStatus {
        let Some(deadline) = request
            .requested_at
            .map(|t| t.plus_millis(self.config.permission_timeout_ms))
        else {
            return request.decision;
        };
        let late = request
            .decided_at
            .map_or(now >= deadline, |at| at > deadline);
        if late {
            RequestStatus::TimedOut
        } else {
            request.decision
        }
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
        if let Some(agent) = turn_of(kind, step) {
            self.count_turn(env, agent);
        }
        match step {
            Move::AskPermission { request_id, tool } => self.permissions.push(PermissionRequest {
                entry: env.index,
                request_id: request_id.map(str::to_owned),
                tool_name: tool.to_owned(),
                requested_at: env.at,
                decision: RequestStatus::Pending,
                decided_at: None,
                comment: None,
            }),
            Move::Decide {
                request_id,
                allow,
                comment,
            } => {
                let timeout = self.config.permission_timeout_ms;
                let live = |p: &PermissionRequest| match (p.requested_at, env.at) {
                    (Some(asked), Some(now)) => now < asked.plus_millis(timeout),
                    _ => true,
                };
                let pending = self.permissions.iter_mut().find(|p| {
                    p.decision == RequestStatus::Pending
                        && live(p)
                        && request_id.is_none_or(|id| p.request_id.as_deref() == Some(id))
                });
                if let Some(p) = pending {
                    p.decision = if allow {
                        RequestStatus::Approved
                    } else {
                        RequestStatus::Denied
                    };
                    p.decided_at = env.at;
                    p.comment = comment
                        .map(str::to_owned)
                        .or_else(|| (!allow).then(|| "Navigator denied permission".to_owned()));
                } else if self
                    .reviews
                    .iter()
                    .any(|r| r.status == RequestStatus::Pending)
                {
                    self.review(env, allow, comment);
                } else {
                    self.violations.push(Violation::at(
                        ViolationCode::OutOfOrder,
                        env,
                        format!(
                            "{} with no pending permission request{} (NAVIGATOR_APPROVE_OUTSIDE_PERMISSION_IGNORED)",
                            if allow { "approval" } else { "denial" },
                            request_id.map(|id| format!(" {id:?}")).unwrap_or_default()
                        ),
                    ));
                }
            }
            Move::AskReview { context } => self.reviews.push(ReviewRequest {
                entry: env.index,
                context: context.map(str::to_owned),
                requested_at: env.at,
                status: RequestStatus::Pending,
                comment: None,
                decided_at: None,
            }),
            Move::Review { pass, comment } => self.review(env, pass, comment),
            Move::AskGuidance => self.guidance.push(env.index),
        }
    }

    fn review(&mut self, env: &Envelope, pass: bool, comment: Option<&str>) {
        let status = if pass {
            RequestStatus::Pass
        } else {
            RequestStatus::Fail
        };
        match self
            .reviews
            .iter_mut()
            .find(|r| r.status == RequestStatus::Pending)
        {
            Some(r) => {
                r.status = status;
                r.comment = comment.map(str::to_owned);
                r.decided_at = env.at;
            }
            None => self.reviews.push(ReviewRequest {
                entry: env.index,
                context: None,
                requested_at: None,
                status,
                comment: comment.map(str::to_owned),
                decided_at: env.at,
            }),
        }
    }
}
