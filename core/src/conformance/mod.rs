//! Does an agent follow the protocol? A conformance report over a message log: per agent and
//! family, every check ([`checks::CHECKS`]) with its stable id, the seed section it comes from,
//! its status (pass, fail, warning, not applicable) and the messages that decide it, and a
//! level per agent; with a baseline of expected failures, which failures are new and which
//! listed ones now pass (a stale baseline).
//!
//! The checks are not a second copy of the rules: each names the issues the validator reports
//! and the violations the session engine reports (one fold of the log, the same as `switchboard
//! session`), and a finding goes to the check of its message's family that claims it.
//!
//! ```
//! use switchboard_core::agent_mail::read_log;
//! use switchboard_core::conformance::{check, Options, Status};
//! use switchboard_core::protocol;
//!
//! let log = br#"{"to": "bob", "subject": "PAIR_INIT", "from": "alice",
//!   "body": {"protocol_version": "3.1", "task": "t", "my_role": "PLANNER",
//!   "your_role": "BUILDER", "status": "INITIALIZED"}}"#;
//! let envelopes = read_log(log, &protocol::Options::default()).unwrap();
//! let report = check(&envelopes, &Options::default());
//! let alice = &report.agents[0];
//! assert_eq!(alice.agent, "alice");
//! assert_eq!(alice.level, Status::Pass);
//! ```

pub mod baseline;
pub mod checks;
mod table;

pub use baseline::{Baseline, BaselineError, BaselineResult};
pub use checks::{Check, Source, CHECKS};

use crate::agent_mail::{Carried, Envelope};
use crate::factory::Problem;
use crate::protocol::{FamilyId, Severity};
use crate::session::agents::Registry;
use crate::session::pair_claude::PairClaudeConfig;
use crate::session::violation::Violation;
use crate::session::Book;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What a report is computed with.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The Pair Claude timeouts and turn limits.
    pub config: PairClaudeConfig,
    /// The registered agents (without them, `any.registered-agent` does not apply).
    pub agents: Option<Registry>,
    /// Expected failures.
    pub baseline: Option<Baseline>,
    /// The log came from an Agent-PO messages directory: its files (by entry) and problems.
    pub factory: Option<FactoryInput>,
    /// The contract's files were checked (without them, `pair.contract.tests-parse` does not
    /// apply).
    pub contract_checked: bool,
}

/// An Agent-PO messages directory's part in a report.
#[derive(Debug, Clone, Default)]
pub struct FactoryInput {
    /// The file of each entry.
    pub paths: Vec<String>,
    /// Its problems.
    pub problems: Vec<Problem>,
}

/// A check's outcome for one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It applies to none of the agent's messages.
    NotApplicable,
    /// None of the agent's messages it applies to breaks it.
    Pass,
    /// A message breaks it in a way lenient mode accepts (a seed's own deviation).
    Warning,
    /// A message breaks it.
    Fail,
}

impl Status {
    /// The word the table prints.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::NotApplicable => "n/a",
            Status::Warning => "warning",
            Status::Fail => "fail",
        }
    }
}

/// A message a check looked at.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct MessageRef {
    /// Its position in the log (0-based); none for a file of a messages directory that holds
    /// no message (not JSON, unreadable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<usize>,
    /// The transport's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The message's own id (droid `message_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The file it was read from (an Agent-PO messages directory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// One check for one agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckResult {
    /// The check's stable id.
    pub id: &'static str,
    /// The seed section.
    pub seed: &'static str,
    /// What it asks.
    pub title: &'static str,
    /// The outcome.
    pub status: Status,
    /// The messages that decide it: those that break it (fail, warning), else those it
    /// applied to (pass).
    pub messages: Vec<MessageRef>,
    /// What broke it, in the validator's and the engine's words (secrets masked).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
}

/// One family's checks for one agent (`any` for the checks of every family).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FamilyResult {
    /// `any`, `pair`, `agent-po`, `droid` or `pair-claude`.
    pub family: &'static str,
    /// The worst status of its checks.
    pub level: Status,
    /// Every check of the family, in table order.
    pub checks: Vec<CheckResult>,
}

/// One agent's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentResult {
    /// The sender's name (`(unknown sender)` for messages without one).
    pub agent: String,
    /// Whether it is registered (when the registered agents were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registered: Option<bool>,
    /// The worst status of its checks: `fail`, `warning` or `pass`.
    pub level: Status,
    /// How many of its checks have each status.
    pub counts: BTreeMap<Status, usize>,
    /// `any` first, then each family it sent messages of.
    pub families: Vec<FamilyResult>,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConformanceReport {
    /// Every sender, by name.
    pub agents: Vec<AgentResult>,
    /// The comparison with the baseline, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineResult>,
    /// Whether the log conforms: no failure, or (with a baseline) no failure it does not list
    /// and no listed failure that now passes.
    pub conforms: bool,
}

/// What the report calls a message without a sender.
pub const UNKNOWN_SENDER: &str = "(unknown sender)";

/// One finding about one message.
struct Hit {
    check: &'static Check,
    entry: usize,
    severity: Severity,
    detail: String,
}

/// The report of a log (envelopes as read, in any order: they are folded in time order).
#[must_use]
pub fn check(envelopes: &[Envelope], options: &Options) -> ConformanceReport {
    let book = Book::new(options.config);
    let book = match &options.agents {
        Some(r) => book.with_agents(r.clone()),
        None => book,
    };
    check_book(envelopes, &book.replayed(envelopes), options)
}

/// The report of a log already folded into `book` (as `switchboard session` folds it, with
/// `--contract` checks applied, say).
#[must_use]
pub fn check_book(envelopes: &[Envelope], book: &Book, options: &Options) -> ConformanceReport {
    let by_index: BTreeMap<usize, &Envelope> = envelopes.iter().map(|e| (e.index, e)).collect();
    let sender = |e: &Envelope| e.from.clone().unwrap_or_else(|| UNKNOWN_SENDER.to_owned());
    let mut hits: BTreeMap<String, Vec<Hit>> = BTreeMap::new();
    for env in envelopes {
        let issues = match &env.carried {
            Carried::Message(m) => &m.warnings,
            Carried::Invalid(inv) => &inv.report.issues,
            Carried::Plain { secrets } => secrets,
        };
        for issue in issues {
            let pointer = issue.path.to_pointer();
            if let Some(check) = checks::for_issue(env.family(), issue.code, &pointer) {
                hits.entry(sender(env)).or_default().push(Hit {
                    check,
                    entry: env.index,
                    severity: issue.severity,
                    detail: format!("{}: {}", env.reference(), issue),
                });
            }
        }
    }
    for v in violations(book) {
        let Some(env) = by_index.get(&v.entry) else {
            continue;
        };
        if let Some(check) = checks::for_violation(env.family(), v.code, &v.message) {
            hits.entry(sender(env)).or_default().push(Hit {
                check,
                entry: v.entry,
                severity: Severity::Error,
                detail: format!("{}: {}", env.reference(), v.message),
            });
        }
    }
    // The senders of protocol messages, and of plain mail that breaks a check (a secret, an
    // unregistered name).
    let mut senders: BTreeSet<String> = envelopes
        .iter()
        .filter(|e| !matches!(e.carried, Carried::Plain { .. }))
        .map(sender)
        .chain(hits.keys().cloned())
        .collect();
    let mut persistence: BTreeMap<String, Vec<&Problem>> = BTreeMap::new();
    if let Some(f) = &options.factory {
        for p in &f.problems {
            let agent = p.path.split('/').next().unwrap_or_default().to_owned();
            senders.insert(agent.clone());
            persistence.entry(agent).or_default().push(p);
        }
    }
    let agents: Vec<AgentResult> = senders
        .into_iter()
        .map(|agent| {
            let mine: Vec<&Envelope> = envelopes.iter().filter(|e| sender(e) == agent).collect();
            let found = hits.remove(&agent).unwrap_or_default();
            let problems = persistence.remove(&agent).unwrap_or_default();
            agent_result(agent, &mine, &found, &problems, options)
        })
        .collect();
    let baseline = options.baseline.as_ref().map(|b| b.compare(&agents));
    let conforms = match &baseline {
        Some(b) => b.new_failures.is_empty() && b.stale.is_empty(),
        None => agents.iter().all(|a| a.level != Status::Fail),
    };
    ConformanceReport {
        agents,
        baseline,
        conforms,
    }
}

/// Every violation the engine found, once (a sender violation is shown on its session too).
fn violations(book: &Book) -> Vec<&Violation> {
    let mut seen = BTreeSet::new();
    let all = book
        .pair
        .sessions()
        .iter()
        .flat_map(|s| &s.violations)
        .chain(book.agent_po.tasks().iter().flat_map(|t| &t.violations))
        .chain(book.tasks.tasks().iter().flat_map(|t| &t.violations))
        .chain(&book.pair_claude.violations)
        .chain(&book.agents.violations);
    all.filter(|v| seen.insert((v.entry, v.code.as_str(), v.message.clone())))
        .collect()
}

fn message_ref(env: &Envelope, options: &Options) -> MessageRef {
    MessageRef {
        entry: Some(env.index),
        id: env.id,
        message_id: env
            .value()
            .and_then(|v| v.get("message_id"))
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        path: options
            .factory
            .as_ref()
            .and_then(|f| f.paths.get(env.index).cloned()),
    }
}

fn agent_result(
    agent: String,
    mine: &[&Envelope],
    hits: &[Hit],
    problems: &[&Problem],
    options: &Options,
) -> AgentResult {
    let families: BTreeSet<FamilyId> = mine.iter().filter_map(|e| e.family()).collect();
    let mut scopes: Vec<Option<FamilyId>> = vec![None];
    scopes.extend(families.iter().copied().map(Some));
    if !problems.is_empty() && !families.contains(&FamilyId::AgentPo) {
        scopes.push(Some(FamilyId::AgentPo));
    }
    let mut counts = BTreeMap::new();
    let families: Vec<FamilyResult> = scopes
        .into_iter()
        .map(|scope| {
            let checks: Vec<CheckResult> = CHECKS
                .iter()
                .filter(|c| c.family == scope)
                .map(|c| one_check(c, mine, hits, problems, options))
                .collect();
            for c in &checks {
                *counts.entry(c.status).or_insert(0) += 1;
            }
            FamilyResult {
                family: scope.map_or("any", FamilyId::as_str),
                level: level(checks.iter().map(|c| c.status)),
                checks,
            }
        })
        .collect();
    AgentResult {
        registered: options.agents.as_ref().map(|r| r.contains(&agent)),
        agent,
        level: level(families.iter().map(|f| f.level)),
        counts,
        families,
    }
}

/// The worst status: fail, then warning, then pass; not applicable only when all are (the
/// order of [`Status`]).
fn level(statuses: impl Iterator<Item = Status>) -> Status {
    statuses.max().unwrap_or(Status::NotApplicable)
}

fn one_check(
    c: &'static Check,
    mine: &[&Envelope],
    hits: &[Hit],
    problems: &[&Problem],
    options: &Options,
) -> CheckResult {
    let applies = |e: &&&Envelope| {
        if matches!(e.carried, Carried::Plain { .. }) {
            return c.reads_plain_mail();
        }
        (c.family.is_none() || e.family() == c.family)
            && (c.types.is_empty()
                || e.message_type()
                    .is_some_and(|t| c.types.contains(&t.split('@').next().unwrap_or(t))))
    };
    let applicable: Vec<&&Envelope> = mine.iter().filter(applies).collect();
    let gated = match c.source {
        Source::Violation(codes, _) => {
            use crate::session::violation::ViolationCode as V;
            (codes.contains(&V::InvalidAgent) && options.agents.is_none())
                || (codes.contains(&V::TestSyntaxError) && !options.contract_checked)
        }
        Source::Persistence => options.factory.is_none(),
        Source::Issue(..) => false,
    };
    let mine_hits: Vec<&Hit> = hits.iter().filter(|h| std::ptr::eq(h.check, c)).collect();
    let mut result = CheckResult {
        id: c.id,
        seed: c.seed,
        title: c.title,
        status: Status::NotApplicable,
        messages: Vec::new(),
        details: Vec::new(),
    };
    if matches!(c.source, Source::Persistence) && !problems.is_empty() {
        result.status = Status::Fail;
        result.details = problems
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect();
        result.messages = problems
            .iter()
            .map(|p| MessageRef {
                entry: None,
                id: None,
                message_id: None,
                path: Some(p.path.clone()),
            })
            .collect();
        return result;
    }
    if !mine_hits.is_empty() {
        let fail = mine_hits.iter().any(|h| h.severity == Severity::Error);
        result.status = if fail { Status::Fail } else { Status::Warning };
        let entries: BTreeSet<usize> = mine_hits.iter().map(|h| h.entry).collect();
        result.messages = mine
            .iter()
            .filter(|e| entries.contains(&e.index))
            .map(|e| message_ref(e, options))
            .collect();
        result.details = mine_hits.iter().map(|h| h.detail.clone()).collect();
        return result;
    }
    if !gated && !applicable.is_empty() {
        result.status = Status::Pass;
        result.messages = applicable.iter().map(|e| message_ref(e, options)).collect();
    }
    result
}

impl ConformanceReport {
    /// The report as a readable table (what `switchboard conformance --table` prints).
    #[must_use]
    pub fn table(&self) -> String {
        table::render(self)
    }
}
