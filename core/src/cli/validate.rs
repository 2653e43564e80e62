//! `switchboard validate`: validate protocol messages and print JSON reports.

use crate::protocol::{self, FamilyId, Options};
use std::io::{Read, Write};
use std::process::ExitCode;

/// Validate a protocol message (or Agent Mail row carrying one) from a file or stdin.
///
/// Prints the report `{valid, family, message_type, version, issues}` as one JSON object on
/// stdout. Exit status: 0 valid, 1 invalid, 2 unusable input (unreadable file, or not JSON
/// without --jsonl; reason on stderr). With --jsonl each non-blank line is one message and gets
/// one report line; a line that is not JSON gets a report with a `not_json` issue (exit 1).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 valid, 1 invalid (with --jsonl: any line invalid), \
2 unusable input (unreadable file, or not JSON without --jsonl; reason on stderr).\n\
With --jsonl a line that is not JSON gets a report with a `not_json` issue."
)]
pub struct Args {
    /// Message file, or `-` for stdin.
    pub file: String,
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

fn parse_family(s: &str) -> Result<FamilyId, String> {
    FamilyId::parse(s).ok_or_else(|| {
        let names: Vec<&str> = FamilyId::ALL.iter().map(|f| f.as_str()).collect();
        format!(
            "unknown family `{s}` (expected one of: {})",
            names.join(", ")
        )
    })
}

fn read_input(file: &str) -> std::io::Result<Vec<u8>> {
    if file == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file)
    }
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let bytes = match read_input(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("switchboard validate: cannot read {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let options = Options {
        family: args.family,
        lenient: args.lenient,
    };
    let mut out = std::io::stdout().lock();
    if args.jsonl {
        let mut all_valid = true;
        for report in protocol::validate_jsonl(&bytes, options) {
            all_valid &= report.valid;
            if print(&mut out, &report).is_err() {
                return ExitCode::from(2);
            }
        }
        return ExitCode::from(u8::from(!all_valid));
    }
    let value: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("switchboard validate: {} is not JSON: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let report = protocol::validate(&value, &options);
    if print(&mut out, &report).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::from(u8::from(!report.valid))
}

fn print(out: &mut impl Write, report: &protocol::Report) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    out.write_all(b"\n")
}
