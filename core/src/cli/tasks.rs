//! `switchboard tasks`: the task boards of a message log.

use super::output::{self, Style};
use super::session::{FactoryReport, Log};
use crate::session::pair_claude::PairClaudeConfig;
use std::process::ExitCode;

/// Print the task boards of a message log: Agent-PO tasks (plan revisions and fix retries
/// against their limits, GO / NEXT gate results), droid tasks by status (progress, error
/// reports with `needs_human_intervention` first, dependencies, reservation conflicts), Pair
/// Claude permission and review requests, and per agent the acknowledgement debt.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 no violation, 1 some task has a violation, 2 unusable input \
(reason on stderr)."
)]
pub struct Args {
    #[command(flatten)]
    log: Log,
    #[command(flatten)]
    flows: PairClaudeArgs,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let input = match args.log.read("tasks") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let now = input.now;
    let config = args.flows.config();
    let book = input.book(config);
    let style = Style::compact_if(args.compact);
    match &input.factory {
        Some(log) => {
            let failed = book.has_violations() || !log.problems.is_empty();
            let out = BoardsWithFactory {
                boards: book.boards(now),
                factory: FactoryReport::of(log, &book, now),
            };
            output::print_json("tasks", &out, style, u8::from(failed))
        }
        None => {
            let code = u8::from(book.has_violations());
            output::print_json("tasks", &book.boards(now), style, code)
        }
    }
}

/// `tasks` on a messages directory: the boards and what the directory holds.
#[derive(serde::Serialize)]
struct BoardsWithFactory<'a> {
    #[serde(flatten)]
    boards: crate::session::Boards<'a>,
    factory: FactoryReport<'a>,
}

/// Pair Claude's timeouts and turn limits on the command line (`tasks`, `conformance`).
#[derive(Debug, clap::Args)]
pub struct PairClaudeArgs {
    /// Pair Claude's permission timeout in milliseconds (the seed documents 15000; upstream's
    /// code uses 45000).
    #[arg(long, default_value_t = PairClaudeConfig::default().permission_timeout_ms)]
    permission_timeout_ms: i64,
    /// Pair Claude's tool timeout in milliseconds, `PAIR_TOOL_TIMEOUT_MS` (120000): a review
    /// request not reviewed within it is late.
    #[arg(long, default_value_t = PairClaudeConfig::default().tool_timeout_ms)]
    tool_timeout_ms: i64,
    /// Pair Claude's navigator turn limit, `PAIR_NAVIGATOR_MAX_TURNS` (the seed documents 20;
    /// upstream's code defaults to 50).
    #[arg(long, default_value_t = PairClaudeConfig::default().navigator_max_turns)]
    navigator_max_turns: u32,
    /// Pair Claude's driver turn limit, `PAIR_DRIVER_MAX_TURNS` (20).
    #[arg(long, default_value_t = PairClaudeConfig::default().driver_max_turns)]
    driver_max_turns: u32,
}

impl PairClaudeArgs {
    /// The configuration these flags give.
    pub fn config(&self) -> PairClaudeConfig {
        PairClaudeConfig {
            permission_timeout_ms: self.permission_timeout_ms.max(0),
            tool_timeout_ms: self.tool_timeout_ms.max(0),
            navigator_max_turns: self.navigator_max_turns,
            driver_max_turns: self.driver_max_turns,
        }
    }
}
