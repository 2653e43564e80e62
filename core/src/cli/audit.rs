//! `switchboard audit`: audit a builder's change against the contract.

use super::output::{self, read_input, Style};
use super::tree::read_tree;
use crate::audit::{self, Contract, Status};
use crate::syntax;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Audit a builder's change (a unified diff, `git diff` output) against the Pair contract and
/// print the audit_report.json.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "DIR holds the contract's files at their paths relative to the repository \
root: the spec, the test files, and the dependency baseline (requirements*.txt, pyproject.toml, \
package.json, Cargo.toml). Its test files (.py, .js/.ts and their kin, .rs) are parsed first: one \
that does not is a test-syntax-error finding (TEST_SYNTAX_ERROR) at its file:line.\n\
With --out DIR it also writes DIR/audit_report.json (the report, pretty) and DIR/audit.diff (the \
diff bytes as read), side by side, for the review console.\n\
Exit status: 0 PASS, 1 FAIL (a CRITICAL or MAJOR issue), 2 unusable input (unreadable contract \
or diff, or not a diff; reason on stderr), 74 when --out DIR cannot be written."
)]
pub struct Args {
    /// The contract directory.
    #[arg(long, value_name = "DIR")]
    contract: PathBuf,
    /// The unified diff, or `-` for stdin.
    #[arg(long, value_name = "FILE")]
    diff: PathBuf,
    /// A dependency an accepted change order approves (repeatable).
    #[arg(long = "allow-dependency", value_name = "NAME")]
    allow_dependency: Vec<String>,
    /// Also write the report and the diff it read to DIR (`audit_report.json`, `audit.diff`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

fn unusable(reason: impl std::fmt::Display) -> ExitCode {
    output::fail("audit", 2, reason)
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let files = match read_tree(&args.contract) {
        Ok(files) => files,
        Err(reason) => return unusable(reason),
    };
    let mut contract = Contract::default();
    for (path, bytes) in &files {
        if let Err(e) = contract.insert(path, &String::from_utf8_lossy(bytes)) {
            return unusable(format!("contract {}: {e}", args.contract.display()));
        }
    }
    let bytes = match read_input(&args.diff) {
        Ok(bytes) => bytes,
        Err(e) => return unusable(format!("cannot read {}: {e}", args.diff.display())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let diff = match audit::parse_diff(&text) {
        Ok(diff) => diff,
        Err(e) => return unusable(format!("{}: {e}", args.diff.display())),
    };
    let approved: Vec<&str> = args.allow_dependency.iter().map(String::as_str).collect();
    let syntax_errors = syntax::check_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
    let report = audit::audit_with_syntax(&contract, &diff, &approved, &syntax_errors);
    if let Some(dir) = &args.out {
        if let Err(e) = write_out(dir, &report, &bytes) {
            return output::fail("audit", 74, format!("cannot write {}: {e}", dir.display()));
        }
    }
    let code = u8::from(report.status == Status::Fail);
    output::print_json("audit", &report, Style::compact_if(args.compact), code)
}

/// Writes `audit_report.json` and `audit.diff` (the diff as read) into `dir`, creating it.
fn write_out(dir: &Path, report: &audit::AuditReport, diff: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut json = Vec::new();
    output::json(&mut json, report, Style::Pretty)?;
    std::fs::write(dir.join("audit_report.json"), json)?;
    std::fs::write(dir.join("audit.diff"), diff)
}
