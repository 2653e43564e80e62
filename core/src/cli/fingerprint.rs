//! `switchboard fingerprint`: fingerprint the contract's files, or verify them.

use super::output::{self, read_input, Style};
use super::tree::read_tree;
use crate::fingerprint::{fingerprint, verify, Fingerprints};
use std::path::PathBuf;
use std::process::ExitCode;

/// Print the SHA-256 fingerprints of every file under DIR as {"path": "sha256:<hex>"}, or with
/// --verify check DIR against saved fingerprints and print {intact, tampered: [...]}.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Paths are relative to DIR, `/`-separated, in byte order.\n\
Exit status: 0 printed (with --verify: intact), 1 with --verify: tampered (each modified, missing \
or added file named with code CONTRACT_TAMPERED), 2 unusable input (unreadable DIR or FILE, bad \
fingerprint file; reason on stderr)."
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
    let Some(saved) = args.verify else {
        return output::print_json("fingerprint", &current, style, 0);
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
    output::print_json(
        "fingerprint",
        &verification,
        style,
        u8::from(!verification.is_intact()),
    )
}
