//! `switchboard validate`: validate protocol messages and print JSON reports.

use super::output::{self, Style};
use crate::protocol::{self, FamilyId, IssueCode, Options};
use std::path::{Path, PathBuf};
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
    let options = Options {
        family: args.family,
        lenient: args.lenient,
    };
    if args.jsonl {
        return run_lines(&args.file, &name, options);
    }
    let bytes = match output::read_input(&args.file) {
        Ok(b) => b,
        Err(e) => return output::fail(COMMAND, 2, format_args!("cannot read {name}: {e}")),
    };
    let report = protocol::validate_slice(&bytes, &options);
    // Input that is not JSON (not a carried body that is not): unusable.
    let unusable =
        |i: &protocol::Issue| i.code == IssueCode::NotJson && i.path.segments().is_empty();
    if report.issues.first().is_some_and(unusable) {
        let reason = &report.issues[0].message;
        let reason = reason.strip_prefix("not JSON: ").unwrap_or(reason);
        return output::fail(COMMAND, 2, format_args!("{name} is not JSON: {reason}"));
    }
    output::print_json(COMMAND, &report, Style::Compact, u8::from(!report.valid))
}

/// `--jsonl`: the input streamed one line at a time, one report written per message.
fn run_lines(file: &Path, name: &str, options: Options) -> ExitCode {
    let input = match output::open_input(file) {
        Ok(input) => input,
        Err(e) => return output::fail(COMMAND, 2, format_args!("cannot read {name}: {e}")),
    };
    let (mut reports, mut all_valid, mut read_error) = (0_usize, true, None);
    let written = output::stdout(COMMAND, |out| {
        for line in protocol::validate_reader(input, options) {
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    read_error = Some(e);
                    break;
                }
            };
            reports += 1;
            all_valid &= line.report.valid;
            output::json(out, &line, Style::Compact)?;
        }
        Ok(())
    });
    match (written, read_error) {
        (Err(code), _) => code,
        (Ok(()), Some(e)) => output::fail(COMMAND, 2, format_args!("cannot read {name}: {e}")),
        (Ok(()), None) if reports == 0 => output::fail(
            COMMAND,
            2,
            format_args!("{name} holds no JSON line (--jsonl needs one message per line)"),
        ),
        (Ok(()), None) => ExitCode::from(u8::from(!all_valid)),
    }
}
