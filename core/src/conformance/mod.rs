//! Does an agent follow the protocol? A conformance report over a message log: per agent and
//! family, every rule of the seeds ([`rules`]) that concerns it, with its level (MUST,
//! SHOULD), the seed's words, its status (pass, fail, warning, not applicable, or **not
//! tested** when it could not be decided: no sender, no recipients, no time, no agent list, no
//! contract folder…) and the messages that decide it; per agent, how many of its MUST rules were
//! actually tested. With a baseline of expected failures, which failures are new and which listed
//! ones now pass (a stale baseline).
//!
//! The rules are decided by checks ([`checks::CHECKS`]), which are not a second copy of the
//! protocol: each names the issues the validator reports and the violations the session engine
//! reports (one fold of the log, the same as `switchboard session`, plus what is late or missing
//! at the time the log is judged), and a finding goes to the check of its message's family that
//! claims it.
//!
//! ```
//! use switchboard_core::agent_mail::read_log;
//! use switchboard_core::conformance::{check, Options, Status};
//! use switchboard_core::protocol;
//!
//! let log = br#"{"to": "bob", "subject": "PAIR_INIT", "from": "alice",
//!   "created_ts": "2026-03-02T09:00:00Z",
//!   "body": {"protocol_version": "3.1", "task": "t", "my_role": "PLANNER",
//!   "your_role": "BUILDER", "status": "INITIALIZED"}}"#;
//! let envelopes = read_log(log, &protocol::Options::default()).unwrap();
//! let report = check(&envelopes, &Options::default());
//! let alice = &report.agents[0];
//! assert_eq!(alice.agent, "alice");
//! assert_eq!(alice.level, Status::Pass);
//! assert!(report.conforms);
//! ```

pub mod baseline;
pub mod checks;
mod computed;
mod evaluate;
mod junit;
mod markdown;
pub mod rules;
mod table;

pub use baseline::{Baseline, BaselineError, BaselineResult};
pub use checks::{Check, Need, Party, Source, CHECKS};
pub use rules::{Level, Rule, Seed};

use crate::agent_mail::Envelope;
use crate::factory::Problem;
use crate::session::agents::Registry;
use crate::session::pair_claude::PairClaudeConfig;
use crate::session::Book;
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a report is computed with.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The Pair Claude timeouts and turn limits.
    pub config: PairClaudeConfig,
    /// The registered agents (without them, rules about registered names are not tested).
    pub agents: Option<Registry>,
    /// Expected failures.
    pub baseline: Option<Baseline>,
    /// The log came from an Agent-PO messages directory: its files (by entry) and problems.
    pub factory: Option<FactoryInput>,
    /// The contract's files were checked (without them, whether the tests parse is not
    /// tested).
    pub contract_checked: bool,
    /// When the log is judged: what is late or missing is late or missing at this time. By
    /// default, the time of the log's last message (the log read as a record that ends there).
    pub now: Option<Timestamp>,
}

/// An Agent-PO messages directory's part in a report.
#[derive(Debug, Clone, Default)]
pub struct FactoryInput {
    /// The file of each entry.
    pub paths: Vec<String>,
    /// Its problems.
    pub problems: Vec<Problem>,
}

/// A rule's outcome for one agent. Ordered from the least to the most telling, so an agent's
/// level is the greatest of its rules'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// None of the agent's messages gives it occasion.
    NotApplicable,
    /// It applies, but could not be decided (what it needs is not in the log or the options).
    NotTested,
    /// It applies, it was decided on every message it applies to, and none breaks it.
    Pass,
    /// A SHOULD rule is broken, or a MUST rule only in a way lenient mode accepts.
    Warning,
    /// A MUST rule is broken.
    Fail,
}

impl Status {
    /// Every status, from the most to the least telling (the order reports print them in).
    pub const SHOWN: [Status; 5] = [
        Status::Fail,
        Status::Warning,
        Status::NotTested,
        Status::Pass,
        Status::NotApplicable,
    ];

    /// The word reports print.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::NotApplicable => "n/a",
            Status::NotTested => "not tested",
            Status::Warning => "warning",
            Status::Fail => "fail",
        }
    }
}

/// A message a rule looked at.
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

/// One rule for one agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleResult {
    /// The rule's stable id.
    pub id: &'static str,
    /// The seed (`000`, `002`, `003`, `004`).
    pub seed: Seed,
    /// The seed's section.
    pub section: &'static str,
    /// MUST or SHOULD.
    pub level: Level,
    /// The seed's words.
    pub quote: &'static str,
    /// The outcome.
    pub status: Status,
    /// The checks that decide it.
    pub checks: &'static [&'static str],
    /// The checks whose findings broke it (fail, warning).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub broken_by: Vec<&'static str>,
    /// The messages that decide it: those that break it (fail, warning), else the first 20 it
    /// applied to.
    pub messages: Vec<MessageRef>,
    /// How many of the agent's messages it applied to.
    pub applied: usize,
    /// What broke it, in the validator's and the engine's words (secrets masked).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    /// Why it could not be decided (not tested).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub untested: Vec<String>,
}

/// One family's rules for one agent (`any` for the rules held to every mail).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FamilyResult {
    /// `any`, `pair`, `agent-po`, `droid` or `pair-claude`.
    pub family: &'static str,
    /// The greatest status of its rules.
    pub level: Status,
    /// Every rule of the family, in the matrix's order.
    pub rules: Vec<RuleResult>,
}

/// How many rules of a level applied to an agent, and how they came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Tally {
    /// Rules that applied (every status but not applicable).
    pub applicable: usize,
    /// Rules actually decided (pass, warning or fail).
    pub tested: usize,
    /// Passed.
    pub pass: usize,
    /// Warnings.
    pub warning: usize,
    /// Failed.
    pub fail: usize,
    /// Could not be decided.
    pub not_tested: usize,
}

impl Tally {
    fn add(&mut self, status: Status) {
        match status {
            Status::NotApplicable => return,
            Status::NotTested => self.not_tested += 1,
            Status::Pass => self.pass += 1,
            Status::Warning => self.warning += 1,
            Status::Fail => self.fail += 1,
        }
        self.applicable += 1;
        if status != Status::NotTested {
            self.tested += 1;
        }
    }

    fn merge(&mut self, other: Tally) {
        self.applicable += other.applicable;
        self.tested += other.tested;
        self.pass += other.pass;
        self.warning += other.warning;
        self.fail += other.fail;
        self.not_tested += other.not_tested;
    }
}

/// Where an agent's name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribution {
    /// The mail's envelopes name it as the sender.
    Mail,
    /// Inferred from the protocol messages' own fields (a log without envelopes).
    Inferred,
    /// Some of its messages named it, others were inferred.
    Mixed,
    /// No message names a sender (`(unknown sender)`).
    Unknown,
}

/// One agent's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentResult {
    /// The sender's name (`(unknown sender)` for messages without one).
    pub agent: String,
    /// Whether it is registered (when the registered agents were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registered: Option<bool>,
    /// Where its name came from.
    pub attribution: Attribution,
    /// The greatest status of its rules.
    pub level: Status,
    /// How many of its rules have each status.
    pub counts: BTreeMap<Status, usize>,
    /// Its MUST rules: how many applied, were tested, passed, failed.
    pub must: Tally,
    /// Its SHOULD rules.
    pub should: Tally,
    /// `any` first, then each family it took part in.
    pub families: Vec<FamilyResult>,
}

/// The report's totals over every agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Totals {
    /// MUST rules, summed over agents.
    pub must: Tally,
    /// SHOULD rules, summed over agents.
    pub should: Tally,
    /// Rules of the matrix no message can show (exempt).
    pub exempt: usize,
}

/// One rule across every agent it applied to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleTotal {
    /// The rule's id.
    pub id: &'static str,
    /// MUST or SHOULD.
    pub level: Level,
    /// How many agents pass, warn, fail and could not be tested on it.
    pub pass: usize,
    /// Warnings.
    pub warning: usize,
    /// Failures.
    pub fail: usize,
    /// Agents it could not be decided for.
    pub not_tested: usize,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConformanceReport {
    /// When the log was judged (what was late or missing then), if any message had a time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged_at: Option<Timestamp>,
    /// Every agent, by name.
    pub agents: Vec<AgentResult>,
    /// Per level, summed over agents.
    pub totals: Totals,
    /// Per rule that applied to some agent (matrix order), how its agents came out.
    pub rules: Vec<RuleTotal>,
    /// The comparison with the baseline, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineResult>,
    /// Whether the log conforms: no failure, or (with a baseline) no failure it does not list
    /// and no listed failure that now passes. Rules not tested do not make a log fail; the
    /// tallies say how many there were.
    pub conforms: bool,
}

/// What the report calls a message without a sender.
pub const UNKNOWN_SENDER: &str = "(unknown sender)";

/// The report of a log (envelopes as read, in any order: they are folded in time order).
/// Senders the envelopes lack are inferred first ([`crate::session::attribute`]).
#[must_use]
pub fn check(envelopes: &[Envelope], options: &Options) -> ConformanceReport {
    let mut envelopes = envelopes.to_vec();
    crate::session::attribute(&mut envelopes);
    let book = Book::new(options.config);
    let book = match &options.agents {
        Some(r) => book.with_agents(r.clone()),
        None => book,
    };
    check_book(&envelopes, &book.replayed(&envelopes), options)
}

/// The report of a log already folded into `book` (as `switchboard session` folds it, with
/// `--contract` checks applied, say); senders already attributed as the book saw them.
#[must_use]
pub fn check_book(envelopes: &[Envelope], book: &Book, options: &Options) -> ConformanceReport {
    evaluate::report(envelopes, book, options)
}

impl ConformanceReport {
    /// The report as a readable table (`switchboard conformance --format table`).
    #[must_use]
    pub fn table(&self) -> String {
        table::render(self)
    }

    /// The report as JUnit XML: one test case per agent and rule that applied
    /// (`--format junit`).
    #[must_use]
    pub fn junit(&self) -> String {
        junit::render(self)
    }

    /// The report as Markdown (`--format markdown`).
    #[must_use]
    pub fn markdown(&self) -> String {
        markdown::render(self)
    }
}

/// The matrix's coverage per seed, as a Markdown table (what `docs/conformance.md` shows).
#[must_use]
pub fn coverage_markdown() -> String {
    markdown::coverage()
}
