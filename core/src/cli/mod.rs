//! Command-line front end: one module per subcommand, each with its own `Args` and `run`.
//! Every subcommand writes stdout and stderr through [`output`].

mod output;
mod pane;
mod schema;
mod validate;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Switchboard: validate Agent Mail protocol messages and build agent mail panes.
#[derive(Debug, Parser)]
#[command(name = "switchboard", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate protocol messages from a file or stdin and print a JSON report.
    Validate(validate::Args),
    /// Print the JSON Schemas (2020-12) generated from the protocol registry.
    Schema(schema::Args),
    /// Build a doctor-agent-mail-pane-v1 snapshot from inbox, outbox and contacts payloads.
    Pane(pane::Args),
    /// Print the reference smoke workflow transcript (fetch, ack, reply).
    PaneSmoke(pane::SmokeArgs),
}

/// Parses the process arguments and runs the chosen subcommand.
pub fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Validate(args) => validate::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Pane(args) => pane::run(args),
        Command::PaneSmoke(args) => pane::run_smoke(args),
    }
}
