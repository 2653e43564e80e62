//! `switchboard conformance`: does each agent of a message log follow the protocol?

use super::output::{self, Style};
use super::session::{check_contract, Log};
use super::tasks::PairClaudeArgs;
use crate::conformance::{self, Baseline, FactoryInput, Options};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check every agent of a message log against the protocols: per agent and family, each check
/// (a stable id, the seed section, pass / fail / warning / not applicable, the messages that
/// decide it) and a level per agent.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The checks are the validator's and the session engine's rules (docs/protocol.md, \
\"Conformance\"). A baseline (--baseline FILE: a JSON array of \"agent:check-id\", agent `*` for \
any) lists expected failures: they keep the exit status 0, and a listed failure that now passes \
is stale and fails the run.\n\
Exit status: 0 the log conforms (every failure listed, nothing stale), 1 it does not, 2 unusable \
input (unreadable or not a log, a bad --agents, --baseline or --contract; reason on stderr)."
)]
pub struct Args {
    #[command(flatten)]
    log: Log,
    /// Expected failures (JSON): a failure it lists does not fail the run; one that passes does.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Check each Pair session's contract against the files under DIR (fingerprints, and
    /// whether its test files parse).
    #[arg(long, value_name = "DIR")]
    contract: Option<PathBuf>,
    #[command(flatten)]
    flows: PairClaudeArgs,
    /// Print a readable table instead of JSON.
    #[arg(long)]
    table: bool,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let fail = |reason: String| output::fail("conformance", 2, reason);
    let input = match args.log.read("conformance") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let baseline = match &args.baseline {
        None => None,
        Some(file) => match std::fs::read(file) {
            Ok(bytes) => match Baseline::from_json(&bytes) {
                Ok(b) => Some(b),
                Err(e) => return fail(format!("{}: {e}", file.display())),
            },
            Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
        },
    };
    let config = args.flows.config();
    let mut book = input.book(config);
    if let Some(dir) = &args.contract {
        if let Err(reason) = check_contract(&mut book, dir, input.now) {
            return fail(reason);
        }
    }
    let options = Options {
        config,
        agents: input.agents.clone(),
        baseline,
        factory: input.factory.as_ref().map(|f| FactoryInput {
            paths: f.paths.clone(),
            problems: f.problems.clone(),
        }),
        // --contract parses the sessions' test files: `pair.contract.tests-parse` applies.
        contract_checked: args.contract.is_some(),
    };
    let report = conformance::check_book(&input.envelopes, &book, &options);
    let code = u8::from(!report.conforms);
    if args.table {
        let text = report.table();
        return match output::stdout("conformance", |out| out.write_all(text.as_bytes())) {
            Ok(()) => ExitCode::from(code),
            Err(code) => code,
        };
    }
    output::print_json(
        "conformance",
        &report,
        Style::compact_if(args.compact),
        code,
    )
}
