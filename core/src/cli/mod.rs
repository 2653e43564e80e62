//! Command-line front end: one module per subcommand, each with its own `Args` and `run`.
//! Every subcommand writes stdout and stderr through `output`.

mod audit;
mod build;
mod conformance;
mod edge;
mod factory;
mod fingerprint;
mod gate;
mod output;
mod pane;
mod records;
mod reply;
mod schema;
mod session;
mod tasks;
mod tree;
mod validate;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Switchboard: the Agent Mail coordination protocols (Pair, Agent-PO, droid, Pair Claude).
///
/// Validate messages and build them (with the error replies the protocols define); replay
/// message logs into sessions (phases, human checkpoints, change orders, timeouts) and task
/// boards (GO/NEXT gates, droid tasks, Pair Claude requests, acknowledgement debt); fingerprint
/// and audit a contract's files; print the JSON Schemas; build the Agent Mail pane.
#[derive(Debug, Parser)]
#[command(name = "switchboard", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate protocol messages from a file or stdin and print a JSON report.
    Validate(validate::Args),
    /// Build a protocol message of a type from its own fields (the derived members filled in).
    Build(build::Args),
    /// Print the error reply a protocol defines for an invalid message.
    ErrorReply(reply::Args),
    /// Print the JSON Schemas (2020-12) generated from the protocol registry.
    Schema(schema::Args),
    /// Build a doctor-agent-mail-pane-v1 snapshot from inbox, outbox and contacts payloads.
    Pane(pane::Args),
    /// Print the reference smoke workflow transcript (fetch, ack, reply).
    PaneSmoke(pane::SmokeArgs),
    /// Audit a builder's change (unified diff) against the contract; print audit_report.json.
    Audit(audit::Args),
    /// Print SHA-256 fingerprints of the contract's files, or verify them (--verify).
    Fingerprint(fingerprint::Args),
    /// Print the protocol sessions of a message log (phases, checkpoints, timeouts, violations).
    Session(session::Args),
    /// Run an Agent-PO gate (go: a plan, next: a completion report) and print the directive.
    Gate(gate::Args),
    /// Print the task boards of a message log (Agent-PO, droid, Pair Claude, ack debt).
    Tasks(tasks::Args),
    /// Write a message log's Agent-PO messages into the .factory/execution/messages layout.
    Export(factory::ExportArgs),
    /// Check each agent of a message log against the protocols (stable check ids, a baseline).
    Conformance(conformance::Args),
    /// Check a review trail the console kept (chain, signatures, approved fingerprints).
    Records(records::Args),
}

/// Parses the process arguments and runs the chosen subcommand.
pub fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Validate(args) => validate::run(args),
        Command::Build(args) => build::run(args),
        Command::ErrorReply(args) => reply::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Pane(args) => pane::run(args),
        Command::PaneSmoke(args) => pane::run_smoke(args),
        Command::Audit(args) => audit::run(args),
        Command::Fingerprint(args) => fingerprint::run(args),
        Command::Session(args) => session::run(args),
        Command::Gate(args) => gate::run(args),
        Command::Tasks(args) => tasks::run(args),
        Command::Export(args) => factory::run_export(args),
        Command::Conformance(args) => conformance::run(args),
        Command::Records(args) => records::run(args),
    }
}
