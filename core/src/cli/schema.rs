//! `switchboard schema`: print the JSON Schemas generated from the protocol registry.

use crate::protocol::schema;
use std::process::ExitCode;

/// Print JSON Schemas (draft 2020-12) for the protocol message types.
///
/// Without an argument prints every schema as one JSON object keyed by `family/TYPE`; with
/// `FAMILY/TYPE` (e.g. `agent-po/PROGRESS_UPDATE`) prints that one schema.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A `family/TYPE` key, e.g. `droid/task_assignment`.
    pub key: Option<String>,
    /// Print the union schema accepting any valid message instead.
    #[arg(long, conflicts_with = "key")]
    pub any: bool,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let value = match (&args.key, args.any) {
        (_, true) => schema::any_message(),
        (None, false) => schema::all(),
        (Some(k), false) => match schema::by_key(k) {
            Some(s) => s,
            None => {
                eprintln!(
                    "switchboard schema: unknown message type `{k}` (run without arguments to list all)"
                );
                return ExitCode::from(2);
            }
        },
    };
    match serde_json::to_string_pretty(&value) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("switchboard schema: {e}");
            ExitCode::from(2)
        }
    }
}
