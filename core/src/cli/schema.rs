//! `switchboard schema`: print the JSON Schemas generated from the protocol registry.

use super::output::{self, Style};
use crate::protocol::export::schema;
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
    /// Print the union as an if/then/else dispatch on each type's discriminator instead.
    #[arg(long, conflicts_with_all = ["key", "any"])]
    pub dispatch: bool,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let value = match (&args.key, args.any) {
        _ if args.dispatch => schema::dispatch_message(),
        (_, true) => schema::any_message(),
        (None, false) => schema::all(),
        (Some(k), false) => match schema::by_key(k) {
            Some(s) => s,
            None => {
                return output::fail(
                    "schema",
                    2,
                    format_args!("unknown message type `{k}` (run without arguments to list all)"),
                )
            }
        },
    };
    match output::stdout("schema", |out| output::json(out, &value, Style::Pretty)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
