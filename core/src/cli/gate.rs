//! `switchboard gate go|next`: the Product Owner's gates over one plan or report.

use super::edge::{clock, parse_now};
use super::output::{self, read_input, Style};
use crate::protocol::{self, Options};
use crate::session::agent_po::gate::{go_gate, next_gate, GateOutcome, TaskSpec, Verdict};
use crate::time::Timestamp;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run an Agent-PO gate and print `{verdict, problems, directive}`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The task file: {\"task_id\": \"TASK-042\", \"agent_id\"?: \"agent-7f3a\", \
\"acceptance_criteria\": [\"AC-001\", …], \"file_scope\": [\"src/auth/**\", …], \
\"max_revisions\"?: 2, \"max_retries\"?: 2, \"timeout_minutes\"?: 30}.\n\
Exit status: 0 GO / NEXT, 1 FEEDBACK / FIX / BLOCKED, 2 unusable input (unreadable file, \
invalid message, another task's message; reason on stderr)."
)]
pub struct Args {
    #[command(subcommand)]
    gate: Gate,
}

#[derive(Debug, clap::Subcommand)]
enum Gate {
    /// The GO gate: a PLAN_SUBMISSION against the task → GO_DIRECTIVE, FEEDBACK or BLOCKED.
    Go {
        /// The task definition (JSON).
        #[arg(long)]
        task: PathBuf,
        /// The PLAN_SUBMISSION (a message or an Agent Mail row carrying one; `-` for stdin).
        #[arg(long)]
        plan: PathBuf,
        /// The directive's timestamp (RFC 3339); default: the clock.
        #[arg(long, value_parser = parse_now)]
        now: Option<Timestamp>,
        /// Print single-line JSON.
        #[arg(long)]
        compact: bool,
    },
    /// The NEXT gate: a COMPLETION_REPORT against the task → NEXT_DIRECTIVE, FIX or BLOCKED.
    Next {
        /// The task definition (JSON).
        #[arg(long)]
        task: PathBuf,
        /// The COMPLETION_REPORT (a message or an Agent Mail row carrying one; `-` for stdin).
        #[arg(long)]
        report: PathBuf,
        /// Files GO authorized (repeatable); default: the task's file scope.
        #[arg(long = "authorized", value_name = "PATH")]
        authorized: Vec<String>,
        /// How many FIX_DIRECTIVEs the task has had so far.
        #[arg(long, default_value_t = 0)]
        fixes: u32,
        /// The directive's timestamp (RFC 3339); default: the clock.
        #[arg(long, value_parser = parse_now)]
        now: Option<Timestamp>,
        /// Print single-line JSON.
        #[arg(long)]
        compact: bool,
    },
}

fn unusable(reason: impl std::fmt::Display) -> ExitCode {
    output::fail("gate", 2, reason)
}

fn read_task(path: &Path) -> Result<TaskSpec, String> {
    let bytes = read_input(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    TaskSpec::from_json(&String::from_utf8_lossy(&bytes))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a message file and returns the protocol message when it is valid.
fn read_message(path: &Path) -> Result<serde_json::Value, String> {
    let bytes = read_input(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    protocol::valid_message(value, &Options::default()).map_err(|report| {
        let first = report.errors().next().map_or_else(String::new, |i| {
            format!(": {} {}", i.path.to_pointer(), i.message)
        });
        format!("{} is not a valid message{first}", path.display())
    })
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let (outcome, compact): (Result<GateOutcome, String>, bool) = match args.gate {
        Gate::Go {
            task,
            plan,
            now,
            compact,
        } => (
            read_task(&task).and_then(|task| {
                let plan = read_message(&plan)?;
                go_gate(&task, &plan, now.unwrap_or_else(clock)).map_err(|e| e.to_string())
            }),
            compact,
        ),
        Gate::Next {
            task,
            report,
            authorized,
            fixes,
            now,
            compact,
        } => (
            read_task(&task).and_then(|task| {
                let report = read_message(&report)?;
                let authorized = if authorized.is_empty() {
                    task.file_scope.clone()
                } else {
                    authorized
                };
                next_gate(
                    &task,
                    &authorized,
                    &report,
                    fixes,
                    now.unwrap_or_else(clock),
                )
                .map_err(|e| e.to_string())
            }),
            compact,
        ),
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(reason) => return unusable(reason),
    };
    let passed = matches!(outcome.verdict, Verdict::Go | Verdict::Next);
    output::print_json(
        "gate",
        &outcome,
        Style::compact_if(compact),
        u8::from(!passed),
    )
}
