//! `switchboard fingerprint`: fingerprint the contract's files, or verify them.

use super::output::{self, read_input, Style};
use super::tree::read_tree;
use crate::fingerprint::{fingerprint, verify, Fingerprints, Verification};
use crate::syntax::{self, SyntaxError, TEST_SYNTAX_ERROR};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

/// Print the SHA-256 fingerprints of every file under DIR as {"path": "sha256:<hex>"}, or with
/// --verify check DIR against saved fingerprints and print {intact, tampered: [...]}.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Paths are relative to DIR, `/`-separated, in byte order.\n\
The test files under DIR (.py, .js/.ts and their kin, .rs) are parsed too: each that does not \
parse is a line `TEST_SYNTAX_ERROR path:line:column: message` on stderr (with --verify, also the \
output's syntax_errors), and the exit status is 1; the fingerprints are printed all the same.\n\
Exit status: 0 printed (with --verify: intact), 1 a test file does not parse, or with --verify: \
tampered (each modified, missing or added file named with code CONTRACT_TAMPERED), 2 unusable \
input (unreadable DIR or FILE, bad fingerprint file; reason on stderr)."
)]
pub struct Args {
    /// The contract directory.
    dir: PathBuf,
    /// Saved fingerprints to check DIR against (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    verify: Option<PathBuf>,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

fn unusable(reason: impl std::fmt::Display) -> ExitCode {
    output::fail("fingerprint", 2, reason)
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let style = Style::compact_if(args.compact);
    let files = match read_tree(&args.dir) {
        Ok(files) => files,
        Err(reason) => return unusable(reason),
    };
    let current = match fingerprint(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))) {
        Ok(current) => current,
        Err(e) => return unusable(format!("{}: {e}", args.dir.display())),
    };
    let syntax_errors = syntax::check_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
    for e in &syntax_errors {
        eprintln!("switchboard fingerprint: {TEST_SYNTAX_ERROR} {e}");
    }
    let broken = !syntax_errors.is_empty();
    let Some(saved) = args.verify else {
        return output::print_json("fingerprint", &current, style, u8::from(broken));
    };
    let text = match read_input(&saved) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => return unusable(format!("cannot read {}: {e}", saved.display())),
    };
    let baseline = match Fingerprints::from_json(&text) {
        Ok(baseline) => baseline,
        Err(e) => return unusable(format!("{}: {e}", saved.display())),
    };
    let verification = verify(&baseline, &current);
    let failed = broken || !verification.is_intact();
    let out = Verified {
        verification,
        syntax_errors,
    };
    output::print_json("fingerprint", &out, style, u8::from(failed))
}

/// `--verify`'s output: `{intact, tampered}` and the test files that do not parse.
#[derive(Serialize)]
struct Verified {
    #[serde(flatten)]
    verification: Verification,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    syntax_errors: Vec<SyntaxError>,
}
