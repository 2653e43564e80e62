//! `switchboard session`: the protocol sessions in a message log.

use super::edge::{clock, parse_now};
use super::output::{self, read_input, Style};
use super::tree::read_tree;
use crate::agent_mail::{read_log, Envelope};
use crate::fingerprint::fingerprint;
use crate::protocol::Options;
use crate::session::pair_claude::PairClaudeConfig;
use crate::session::Book;
use crate::time::Timestamp;
use std::path::PathBuf;
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
(unreadable file, not a log, bad --now; reason on stderr)."
)]
pub struct Args {
    #[command(flatten)]
    log: Log,
    /// Verify each session's contract fingerprints against the files under DIR (paths
    /// relative to the repository root).
    #[arg(long, value_name = "DIR")]
    contract: Option<PathBuf>,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

fn unusable(reason: impl std::fmt::Display) -> ExitCode {
    output::fail("session", 2, reason)
}

/// A message log and the time to read it at: the arguments `session` and `tasks` share.
#[derive(Debug, clap::Args)]
pub struct Log {
    /// The log file (a JSON array or JSON Lines), or `-` for stdin.
    file: PathBuf,
    /// The time to compute what is due at (timeouts, expiries, ages; RFC 3339); default: the
    /// clock.
    #[arg(long, value_parser = parse_now)]
    now: Option<Timestamp>,
    /// Accept the seeds' documented deviations (as for validate --lenient).
    #[arg(long)]
    lenient: bool,
}

impl Log {
    /// The log's envelopes, read for `command` (`session`, `tasks`), and the time.
    ///
    /// # Errors
    /// The exit status after a one-line reason: an unreadable file or a log that is not one.
    pub fn read(&self, command: &str) -> Result<(Vec<Envelope>, Timestamp), ExitCode> {
        let file = &self.file;
        let bytes = read_input(file).map_err(|e| {
            output::fail(command, 2, format!("cannot read {}: {e}", file.display()))
        })?;
        let options = Options {
            family: None,
            lenient: self.lenient,
        };
        let envelopes = read_log(&bytes, &options)
            .map_err(|e| output::fail(command, 2, format!("{}: {e}", file.display())))?;
        Ok((envelopes, self.now.unwrap_or_else(clock)))
    }
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let (envelopes, now) = match args.log.read("session") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let mut book = Book::replay(&envelopes, PairClaudeConfig::default());
    if let Some(dir) = &args.contract {
        let files = match read_tree(dir) {
            Ok(files) => files,
            Err(reason) => return unusable(reason),
        };
        let current = match fingerprint(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))) {
            Ok(current) => current,
            Err(e) => return unusable(format!("{}: {e}", dir.display())),
        };
        for session in book.pair.sessions_mut() {
            let _ = session.verify_contract(&current, Some(now));
        }
    }
    let violations = book.has_violations();
    let style = Style::compact_if(args.compact);
    output::print_json("session", &book.sessions(now), style, u8::from(violations))
}
