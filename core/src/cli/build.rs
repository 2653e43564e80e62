//! `switchboard build KEY`: a protocol message from its own fields, what the protocol derives
//! filled in (the time and the random source read here, at the edge).

use super::edge::{clock, parse_now, parse_random, random};
use super::output::{self, read_input, Style};
use crate::protocol::builders::build::{build, keys, BuildOptions};
use crate::time::Timestamp;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Build a protocol message of type KEY from its own fields (JSON) and print it.
///
/// The builder fills what the protocol derives: the type's discriminator and constants; droid
/// `version`, `timestamp` (--now), `message_id` (`msg-<uuid v4>`, --random) and `sender_id`
/// (--sender); Agent-PO `timestamp`, `agent_id`, `task_id`; a Pair message's `to` and
/// `subject` (its fields are the body; AUDIT_REPORT is bare). The message is validated
/// strictly before it is printed.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  echo '{\"task_id\":\"bd-42\",\"update_type\":\"progress\",\
\"status_summary\":\"70%\",\"blockers\":[]}' | switchboard build droid/status_update --sender db\n  \
switchboard build pair/CONTRACT_FINAL fields.json --to bob\n\
Keys: `switchboard build --list` (as `switchboard schema` names them).\n\
Exit status: 0 built, 1 refused (a structured error on stdout: unknown key, a member given \
twice or missing its option, an invalid message with every issue), 2 unusable input \
(unreadable file, not JSON, bad --now or --random; reason on stderr)."
)]
pub struct Args {
    /// The message type, `family/TYPE` (e.g. `droid/task_assignment`).
    #[arg(required_unless_present = "list")]
    key: Option<String>,
    /// The fields (a JSON object), from a file or `-` for stdin.
    #[arg(default_value = "-")]
    fields: PathBuf,
    /// The time to write (RFC 3339); default: the clock.
    #[arg(long, value_parser = parse_now)]
    now: Option<Timestamp>,
    /// The 16 random bytes of a droid `message_id` (32 hex digits, for reproducible output);
    /// default: the operating system's random source.
    #[arg(long, value_parser = parse_random, value_name = "HEX")]
    random: Option<[u8; 16]>,
    /// The sending agent (droid `sender_id`).
    #[arg(long)]
    sender: Option<String>,
    /// The recipient (Pair `to`).
    #[arg(long)]
    to: Option<String>,
    /// The task agent (Agent-PO `agent_id`).
    #[arg(long)]
    agent_id: Option<String>,
    /// The task (Agent-PO `task_id`).
    #[arg(long)]
    task_id: Option<String>,
    /// Print the known keys, one a line, and exit.
    #[arg(long)]
    list: bool,
    /// Print single-line JSON.
    #[arg(long)]
    compact: bool,
}

/// Reads a JSON document from a file or stdin, or says why not (exit 2).
pub fn read_json(command: &str, path: &Path) -> Result<Value, ExitCode> {
    let bytes = read_input(path)
        .map_err(|e| output::fail(command, 2, format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| output::fail(command, 2, format!("{} is not JSON: {e}", path.display())))
}

/// The clock and the random source where the fields leave them to the builder: a member the
/// fields hold is not derived again.
pub fn edge_options(
    fields: &Value,
    now: Option<Timestamp>,
    random_bytes: Option<[u8; 16]>,
) -> Result<(Option<Timestamp>, Option<[u8; 16]>), String> {
    let holds = |member: &str| fields.get(member).is_some();
    let now = now.or_else(|| (!holds("timestamp")).then(clock));
    let random_bytes = match random_bytes {
        Some(bytes) => Some(bytes),
        None if !holds("message_id") => Some(random()?),
        None => None,
    };
    Ok((now, random_bytes))
}

/// Prints a refusal: the structured error on stdout, one line on stderr, exit 1.
pub fn refuse(
    command: &str,
    error: &impl serde::Serialize,
    line: impl std::fmt::Display,
    style: Style,
) -> ExitCode {
    output::error(command, line);
    output::print_json(command, error, style, 1)
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let style = Style::compact_if(args.compact);
    if args.list {
        let list = keys().join("\n");
        return match output::stdout("build", |out| writeln!(out, "{list}")) {
            Ok(()) => ExitCode::SUCCESS,
            Err(status) => status,
        };
    }
    let key = args.key.unwrap_or_default();
    let fields = match read_json("build", &args.fields) {
        Ok(fields) => fields,
        Err(code) => return code,
    };
    let (now, random) = match edge_options(&fields, args.now, args.random) {
        Ok(edge) => edge,
        Err(reason) => return output::fail("build", 2, reason),
    };
    let options = BuildOptions {
        now,
        random,
        sender: args.sender,
        to: args.to,
        agent_id: args.agent_id,
        task_id: args.task_id,
    };
    match build(&key, &fields, &options) {
        Ok(message) => output::print_json("build", &message, style, 0),
        Err(error) => refuse("build", &error, &error, style),
    }
}
