//! `switchboard records verify`: check a review trail (the console's JSON Lines export).

use super::output::{self, read_input, Style};
use crate::evidence::trail::verify;
use crate::fingerprint::Sha256Digest;
use std::path::PathBuf;
use std::process::ExitCode;

/// What to do with review records.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Check a project's review trail: the hash chain, each record's Ed25519 signature, and
    /// that each APPROVED record's fingerprints are those of the CONTRACT_FINAL it sent.
    Verify(VerifyArgs),
}

/// Print {valid, records, head, problems: [{line, code, message}]} for a trail.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The trail is JSON Lines in chain order, as the console exports it \
(\"Export the project's trail as JSON Lines\"). Problem codes: not_a_record, chain_broken (a \
record before it was edited, removed or reordered), bad_signature (edited after signing), \
fingerprints_differ, other_project, head_mismatch (with --head: records cut off or added).\n\
Exit status: 0 valid, 1 a problem found, 2 unusable input (unreadable FILE, bad --head)."
)]
pub struct VerifyArgs {
    /// The trail (`-` for stdin).
    file: PathBuf,
    /// The SHA-256 the trail must end at (the console shows the trail's head): without it, a
    /// trail whose last records were cut off still verifies.
    #[arg(long, value_name = "SHA256")]
    head: Option<String>,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let Command::Verify(args) = args.command;
    let head = match args.head.as_deref().map(|h| {
        Sha256Digest::from_hex(h.strip_prefix("sha256:").unwrap_or(h))
            .ok_or_else(|| format!("--head {h}: expected 64 hex digits"))
    }) {
        None => None,
        Some(Ok(head)) => Some(head),
        Some(Err(why)) => return output::fail("records", 2, why),
    };
    let text = match read_input(&args.file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            return output::fail(
                "records",
                2,
                format!("cannot read {}: {e}", args.file.display()),
            )
        }
    };
    let checked = verify(&text, head);
    let code = u8::from(!checked.valid);
    output::print_json("records", &checked, Style::compact_if(args.compact), code)
}
