//! `switchboard session`: the protocol sessions in a message log.

use super::edge::{clock, parse_now};
use super::factory as factory_cli;
use super::output::{self, read_input, Style};
use super::tree::read_tree;
use crate::agent_mail::{read_log, Envelope};
use crate::factory::{self, FactoryLog};
use crate::fingerprint::fingerprint;
use crate::protocol::Options;
use crate::session::agents::Registry;
use crate::session::pair_claude::PairClaudeConfig;
use crate::session::Book;
use crate::syntax;
use crate::time::Timestamp;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Print every protocol session found in a message log: phase, roles, the open human
/// checkpoint and its decisions, change orders, what is due and violations.
///
/// The log is a JSON array or JSON Lines, of bare protocol messages or Agent Mail rows
/// (`subject`, `body_md`, `from`, `to`, `created_ts`, `thread_id`). Sessions are found by thread,
/// else by the partner pair.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 no violation, 1 some session has a violation, 2 unusable input \
(unreadable file, not a log, bad --now or --agents; reason on stderr). FILE may be an Agent-PO \
messages directory: the output is then {sessions, factory: {problems, past_retention}}, and a \
problem (an unreadable or non-JSON file, a gap in NNN …) is exit 1 too."
)]
pub struct Args {
    #[command(flatten)]
    log: Log,
    /// Verify each session's contract fingerprints against the files under DIR (paths
    /// relative to the repository root), and parse its test files (TEST_SYNTAX_ERROR).
    #[arg(long, value_name = "DIR")]
    contract: Option<PathBuf>,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

fn unusable(reason: impl std::fmt::Display) -> ExitCode {
    output::fail("session", 2, reason)
}

/// A message log and the time to read it at: the arguments `session`, `tasks` and
/// `conformance` share.
#[derive(Debug, clap::Args)]
pub struct Log {
    /// The log file (a JSON array or JSON Lines), `-` for stdin, or an Agent-PO messages
    /// directory (`.factory/execution/messages`, or a project holding one).
    file: PathBuf,
    /// The time to compute what is due at (timeouts, expiries, ages, retention; RFC 3339);
    /// default: the clock (`conformance`: the log's last message).
    #[arg(long, value_parser = parse_now)]
    now: Option<Timestamp>,
    /// Accept the seeds' documented deviations (as for validate --lenient; `conformance` reads
    /// leniently unless --strict).
    #[arg(long)]
    lenient: bool,
    /// The agents registered on the Agent Mail server: names separated by commas, or a JSON
    /// file listing them; any other sender or recipient is INVALID_AGENT.
    #[arg(long, value_name = "NAMES|FILE")]
    agents: Option<String>,
}

/// A log as read: its envelopes, the time, the registered agents, and for a messages
/// directory what was out of place.
pub struct LogInput {
    /// The messages.
    pub envelopes: Vec<Envelope>,
    /// `--now`, else the clock.
    pub now: Timestamp,
    /// `--agents`.
    pub agents: Option<Registry>,
    /// The directory read, when the log was one.
    pub factory: Option<FactoryLog>,
}

impl LogInput {
    /// A book of this log, its senders checked against the registered agents when given.
    pub fn book(&self, config: PairClaudeConfig) -> Book {
        let book = Book::new(config);
        let book = match &self.agents {
            Some(registry) => book.with_agents(registry.clone()),
            None => book,
        };
        book.replayed(&self.envelopes)
    }
}

impl Log {
    /// `--now`, when given.
    #[must_use]
    pub fn now_given(&self) -> Option<Timestamp> {
        self.now
    }

    /// The log read for `command` (`session`, `tasks`, `conformance`).
    ///
    /// # Errors
    /// The exit status after a one-line reason: an unreadable file, a log that is not one, an
    /// agents list that is not one.
    pub fn read(&self, command: &str) -> Result<LogInput, ExitCode> {
        self.read_with(command, self.lenient)
    }

    /// [`Log::read`], in lenient mode or not whatever `--lenient` says.
    ///
    /// # Errors
    /// As [`Log::read`].
    pub fn read_with(&self, command: &str, lenient: bool) -> Result<LogInput, ExitCode> {
        let file = &self.file;
        let fail = |reason: String| output::fail(command, 2, reason);
        let options = Options {
            family: None,
            lenient,
        };
        let agents = match &self.agents {
            None => None,
            Some(arg) if std::path::Path::new(arg).is_file() => {
                let bytes =
                    std::fs::read(arg).map_err(|e| fail(format!("cannot read {arg}: {e}")))?;
                Some(
                    Registry::from_json(&bytes)
                        .map_err(|e| fail(format!("--agents {arg}: {e}")))?,
                )
            }
            Some(arg) => {
                Some(Registry::parse_list(arg).map_err(|e| fail(format!("--agents: {e}")))?)
            }
        };
        let now = self.now.unwrap_or_else(clock);
        if file.is_dir() {
            let root = factory_cli::messages_dir(file);
            let log = factory::read(factory_cli::read_files(&root), &options);
            return Ok(LogInput {
                envelopes: log.envelopes.clone(),
                now,
                agents,
                factory: Some(log),
            });
        }
        let bytes =
            read_input(file).map_err(|e| fail(format!("cannot read {}: {e}", file.display())))?;
        let envelopes =
            read_log(&bytes, &options).map_err(|e| fail(format!("{}: {e}", file.display())))?;
        Ok(LogInput {
            envelopes,
            now,
            agents,
            factory: None,
        })
    }
}

/// What a messages directory adds to `session` and `tasks`: its problems and what is past
/// retention at `--now`.
#[derive(Serialize)]
pub struct FactoryReport<'a> {
    /// Unreadable or non-JSON files, names out of the layout, gaps in `NNN` …
    pub problems: &'a [factory::Problem],
    /// Completed tasks' files past the 7-day retention.
    pub past_retention: Vec<factory::Expired>,
}

impl<'a> FactoryReport<'a> {
    /// The report of a directory read, for `book` at `now`.
    pub fn of(log: &'a FactoryLog, book: &Book, now: Timestamp) -> FactoryReport<'a> {
        FactoryReport {
            problems: &log.problems,
            past_retention: factory::past_retention(log, book, now),
        }
    }
}

/// Checks each Pair session's contract against the files under `dir` (paths relative to the
/// repository root): their fingerprints against the session's baseline, and whether its test
/// files parse (TEST_SYNTAX_ERROR).
///
/// # Errors
/// An unreadable directory or a path that is not a contract path.
pub fn check_contract(book: &mut Book, dir: &Path, now: Timestamp) -> Result<(), String> {
    let files = read_tree(dir)?;
    let current = fingerprint(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let syntax_errors = syntax::check_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
    for session in book.pair.sessions_mut() {
        let _ = session.verify_contract(&current, Some(now));
        session.check_test_syntax(&syntax_errors);
    }
    Ok(())
}

/// `session` on a messages directory: the sessions beside what the directory holds.
#[derive(Serialize)]
struct WithFactory<'a, T: Serialize> {
    sessions: T,
    factory: FactoryReport<'a>,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let input = match args.log.read("session") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let now = input.now;
    let mut book = input.book(PairClaudeConfig::default());
    if let Some(dir) = &args.contract {
        if let Err(reason) = check_contract(&mut book, dir, now) {
            return unusable(reason);
        }
    }
    let style = Style::compact_if(args.compact);
    match &input.factory {
        Some(log) => {
            let failed = book.has_violations() || !log.problems.is_empty();
            let out = WithFactory {
                sessions: book.sessions(now),
                factory: FactoryReport::of(log, &book, now),
            };
            output::print_json("session", &out, style, u8::from(failed))
        }
        None => {
            let failed = book.has_violations();
            output::print_json("session", &book.sessions(now), style, u8::from(failed))
        }
    }
}
