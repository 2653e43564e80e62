//! `switchboard validate`: validate protocol messages and print JSON reports.

use super::output::{self, Style};
use crate::protocol::{self, FamilyId, Options};
use std::path::PathBuf;
use std::process::ExitCode;

/// Validate a protocol message (or Agent Mail row carrying one) from a file or stdin.
///
/// Prints the report `{valid, family, message_type, version, issues}` as one JSON object on
/// stdout. Exit status: 0 valid, 1 invalid, 2 unusable input (unreadable file, not JSON
/// without --jsonl, or a --jsonl input without a JSON line; reason on stderr), 74 output
/// not written (reason on stderr), 141 stdout closed by its reader. With --jsonl each
/// non-blank line is one message and gets one report line `{"line": N, ...report}`
/// (N the 1-based input line); a line that is not JSON gets a report with a `not_json`
/// issue (exit 1).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 valid, 1 invalid (with --jsonl: any line invalid), \
2 unusable input (unreadable file, not JSON without --jsonl, or no JSON line with --jsonl; \
reason on stderr), 74 output not written (reason on stderr), 141 stdout closed.\n\
With --jsonl each report starts with its input line, {\"line\": N, ...}, blank lines \
count, and a line that is not JSON gets a report with a `not_json` issue."
)]
pub struct Args {
    /// Message file, or `-` for stdin.
    pub file: PathBuf,
    /// Validate one message per line and print one report per line.
    #[arg(long)]
    pub jsonl: bool,
    /// Accept the seeds' documented deviations, reporting them as warnings.
    #[arg(long)]
    pub lenient: bool,
    /// Skip family detection: pair, agent-po, droid or pair-claude.
    #[arg(long, value_parser = parse_family)]
    pub family: Option<FamilyId>,
}

const COMMAND: &str = "validate";

fn parse_family(s: &str) -> Result<FamilyId, String> {
    FamilyId::parse(s).ok_or_else(|| {
        let names: Vec<&str> = FamilyId::ALL.iter().map(|f| f.as_str()).collect();
        format!(
            "unknown family `{s}` (expected one of: {})",
            names.join(", ")
        )
    })
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let name = if output::is_stdin(&args.file) {
        "stdin".into()
    } else {
        args.file.display().to_string()
    };
    let bytes = match output::read_input(&args.file) {
        Ok(b) => b,
        Err(e) => return output::fail(COMMAND, 2, format_args!("cannot read {name}: {e}")),
    };
    let options = Options {
        family: args.family,
        lenient: args.lenient,
    };
    if args.jsonl {
        let (mut reports, mut all_valid) = (0_usize, true);
        let written = output::stdout(COMMAND, |out| {
            for report in protocol::validate_lines(&bytes, &options) {
                reports += 1;
                all_valid &= report.report.valid;
                output::json(out, &report, Style::Compact)?;
            }
            Ok(())
        });
        return match written {
            Err(code) => code,
            Ok(()) if reports == 0 => output::fail(
                COMMAND,
                2,
                format_args!("{name} holds no JSON line (--jsonl needs one message per line)"),
            ),
            Ok(()) => ExitCode::from(u8::from(!all_valid)),
        };
    }
    let value: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => return output::fail(COMMAND, 2, format_args!("{name} is not JSON: {e}")),
    };
    let report = protocol::validate(&value, &options);
    output::print_json(COMMAND, &report, Style::Compact, u8::from(!report.valid))
}
