//! `switchboard conformance`: does each agent of a message log follow the protocol?

use super::output::{self, Style};
use super::session::{check_contract, Log};
use super::tasks::PairClaudeArgs;
use crate::conformance::{self, Baseline, FactoryInput, Options};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check every agent of a message log against the rules of the seeds: per agent and family,
/// each rule (a stable id, the seed's section and words, MUST or SHOULD, pass / fail / warning /
/// not tested / not applicable, the messages that decide it), and how many of each agent's MUST
/// rules were actually tested.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The rules are the seeds' normative statements (docs/conformance.md lists every \
one, the checks that decide it or why it is exempt). What is late or missing is judged at --now, \
else at the log's last message. Senders a log without envelopes lacks are inferred from the \
messages (Agent-PO agent_id and direction, Pair roles, Pair Claude tools) and marked so. A rule \
that could not be decided (no sender, recipients or times; no --agents, --contract or messages \
directory) is `not tested`, never a pass. A baseline (--baseline FILE: a JSON array of \
\"agent:rule-id\", agent `*` for any; a check id stands for the rules it breaks) lists expected \
failures: they keep the exit status 0, and a listed failure that now passes is stale and fails \
the run. The log is read leniently: a deviation the seeds themselves make is a warning (--strict: \
a failure).\n\
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
    /// The report's form: json (with per-rule and per-level counts), table, junit (JUnit XML:
    /// a test case per agent and rule, for a CI system's test report) or markdown.
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
    /// Same as --format table.
    #[arg(long, conflicts_with = "format")]
    table: bool,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
    /// Read the log strictly: the seeds' own documented deviations (a commit_sha that is not
    /// hex, the literal "ISO8601", …) fail their rules instead of warning.
    #[arg(long)]
    strict: bool,
}

/// What `--format` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Json,
    Table,
    Junit,
    Markdown,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let fail = |reason: String| output::fail("conformance", 2, reason);
    let mut input = match args.log.read_with("conformance", !args.strict) {
        Ok(read) => read,
        Err(code) => return code,
    };
    crate::session::attribute(&mut input.envelopes);
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
        // --contract parses the sessions' test files: whether they parse can be decided.
        contract_checked: args.contract.is_some(),
        now: args.log.now_given(),
    };
    let report = conformance::check_book(&input.envelopes, &book, &options);
    let code = u8::from(!report.conforms);
    let format = if args.table {
        Format::Table
    } else {
        args.format
    };
    let text = match format {
        Format::Json => None,
        Format::Table => Some(report.table()),
        Format::Junit => Some(report.junit()),
        Format::Markdown => Some(report.markdown()),
    };
    if let Some(text) = text {
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
