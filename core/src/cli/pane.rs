//! `switchboard pane` and `switchboard pane-smoke`.

use crate::pane::{self, FilterMode, PaneError};
use serde::Serialize;
use std::path::PathBuf;
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

fn print_json<T: Serialize>(value: &T, compact: bool) -> ExitCode {
    let text = if compact {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    };
    match text {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("switchboard: cannot serialize output: {err}");
            ExitCode::FAILURE
        }
    }
}

fn read(label: &str, path: &PathBuf) -> Result<String, ExitCode> {
    std::fs::read_to_string(path).map_err(|err| {
        eprintln!(
            "switchboard pane: cannot read {label} file {}: {err}",
            path.display()
        );
        ExitCode::from(2)
    })
}

fn contract_error(err: &PaneError) -> ExitCode {
    eprintln!("switchboard pane: {err}");
    ExitCode::FAILURE
}

/// Builds one snapshot from the three files and prints it as JSON.
/// Exit 1 on a contract error, 2 on an unreadable file.
pub fn run(args: Args) -> ExitCode {
    let contract = pane::contract();
    if let Err(err) = pane::validate_contract(&contract) {
        return contract_error(&err);
    }
    let mode = match args.mode.parse::<FilterMode>() {
        Ok(mode) => mode,
        Err(err) => return contract_error(&err),
    };
    if mode == FilterMode::ThreadOnly && args.thread.is_none() {
        return contract_error(&PaneError::ThreadOnlyRequiresActiveThread);
    }
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
        Ok(snapshot) => print_json(&snapshot, args.compact),
        Err(err) => contract_error(&err),
    }
}

/// Prints the reference smoke workflow transcript as JSON.
pub fn run_smoke(args: SmokeArgs) -> ExitCode {
    match pane::run_smoke(&pane::contract()) {
        Ok(transcript) => print_json(&transcript, args.compact),
        Err(err) => contract_error(&err),
    }
}
