//! `switchboard pane` and `switchboard pane-smoke`.

use super::output::{self, Style};
use crate::pane::{self, FilterMode, PaneError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `switchboard pane`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Inbox payload file (row array or {"result": [...]}).
    #[arg(long, value_name = "FILE")]
    inbox: PathBuf,
    /// Outbox payload file.
    #[arg(long, value_name = "FILE")]
    outbox: PathBuf,
    /// Contacts payload file.
    #[arg(long, value_name = "FILE")]
    contacts: PathBuf,
    /// Explicit active thread id.
    #[arg(long, value_name = "ID")]
    thread: Option<String>,
    /// Filter mode: all, ack_required, unacked_only or thread_only.
    #[arg(long, default_value = "all")]
    mode: String,
    /// Acknowledged message ids, comma-separated (e.g. 1,2,3).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    acked: Vec<u64>,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

/// Arguments of `switchboard pane-smoke`.
#[derive(Debug, clap::Args)]
pub struct SmokeArgs {
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

fn read(label: &str, path: &Path) -> Result<String, ExitCode> {
    std::fs::read_to_string(path).map_err(|err| {
        output::fail(
            "pane",
            2,
            format_args!("cannot read {label} file {}: {err}", path.display()),
        )
    })
}

fn contract_error(command: &str, err: &PaneError) -> ExitCode {
    output::fail(command, 1, err)
}

/// Builds one snapshot from the three files and prints it as JSON.
/// Exit 1 on a contract error, 2 on an unreadable file (74 and 141: see [`output`]).
pub fn run(args: Args) -> ExitCode {
    let contract = pane::contract();
    if let Err(err) = pane::validate_contract(&contract) {
        return contract_error("pane", &err);
    }
    let mode = match args.mode.parse::<FilterMode>() {
        Ok(mode) => mode,
        Err(err) => return contract_error("pane", &err),
    };
    let payloads = read("inbox", &args.inbox).and_then(|inbox| {
        let outbox = read("outbox", &args.outbox)?;
        let contacts = read("contacts", &args.contacts)?;
        Ok((inbox, outbox, contacts))
    });
    let (inbox, outbox, contacts) = match payloads {
        Ok(payloads) => payloads,
        Err(code) => return code,
    };
    match pane::build_snapshot(
        &contract,
        &inbox,
        &outbox,
        &contacts,
        args.thread.as_deref(),
        mode,
        &args.acked,
    ) {
        Ok(snapshot) => output::print_json("pane", &snapshot, Style::compact_if(args.compact), 0),
        Err(err) => contract_error("pane", &err),
    }
}

/// Prints the reference smoke workflow transcript as JSON.
pub fn run_smoke(args: SmokeArgs) -> ExitCode {
    match pane::run_smoke(&pane::contract()) {
        Ok(transcript) => output::print_json(
            "pane-smoke",
            &transcript,
            Style::compact_if(args.compact),
            0,
        ),
        Err(err) => contract_error("pane-smoke", &err),
    }
}
