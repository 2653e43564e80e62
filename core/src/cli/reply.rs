//! `switchboard error-reply`: the protocol's own answer to an invalid message.

use super::build::{edge_options, read_json, refuse};
use super::edge::{parse_now, parse_random};
use super::output::{self, Style};
use crate::protocol::builders::build::BuildOptions;
use crate::protocol::builders::reply::{error_reply, ReplyOptions};
use crate::protocol::{self, FamilyId, Options};
use crate::time::Timestamp;
use std::path::PathBuf;
use std::process::ExitCode;

/// Validate a message and print the error reply its protocol defines.
///
/// droid: `{"family": "droid", "reject": {"error": "invalid_format" | "version_mismatch",
/// "details", "message_id"}, "error_report": {…}}` (an unknown type gets only the
/// `error_report`); Agent-PO: `{"family": "agent-po", "error": {"message_type": "ERROR", …}}`.
/// Pair and Pair Claude define no error reply.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 a reply was built, 1 none (the message is valid, or its \
protocol defines no reply, or the reply lacks --sender; a structured error on stdout), 2 \
unusable input (unreadable file, not JSON, bad --now, --random or --family; reason on stderr)."
)]
pub struct Args {
    /// The message (or an Agent Mail row carrying one), from a file or `-` for stdin.
    #[arg(default_value = "-")]
    message: PathBuf,
    /// Reply in this protocol (`droid`, `agent-po`) whatever the message looks like.
    #[arg(long, value_parser = parse_family)]
    family: Option<FamilyId>,
    /// The replying agent (the droid `error_report`'s `sender_id`).
    #[arg(long)]
    sender: Option<String>,
    /// The reply's time (RFC 3339); default: the clock.
    #[arg(long, value_parser = parse_now)]
    now: Option<Timestamp>,
    /// The 16 random bytes of the reply's `message_id` (32 hex digits); default: the operating
    /// system's random source.
    #[arg(long, value_parser = parse_random, value_name = "HEX")]
    random: Option<[u8; 16]>,
    /// Validate leniently (the seeds' documented deviations are warnings).
    #[arg(long)]
    lenient: bool,
    /// Print single-line JSON.
    #[arg(long)]
    compact: bool,
}

fn parse_family(name: &str) -> Result<FamilyId, String> {
    FamilyId::parse(name).ok_or_else(|| {
        let names: Vec<&str> = FamilyId::ALL.iter().map(|f| f.as_str()).collect();
        format!("no family {name:?} (one of {})", names.join(", "))
    })
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let style = Style::compact_if(args.compact);
    let value = match read_json("error-reply", &args.message) {
        Ok(value) => value,
        Err(code) => return code,
    };
    let options = Options {
        family: None,
        lenient: args.lenient,
    };
    let (report, carried) = protocol::validate_carried(&value, &options);
    let original = carried.unwrap_or(value);
    // The reply's own members: an empty object holds none of them.
    let (now, random) = match edge_options(&serde_json::json!({}), args.now, args.random) {
        Ok(edge) => edge,
        Err(reason) => return output::fail("error-reply", 2, reason),
    };
    let options = ReplyOptions {
        family: args.family,
        build: BuildOptions {
            now,
            random,
            sender: args.sender,
            ..BuildOptions::default()
        },
    };
    match error_reply(&report, &original, &options) {
        Ok(reply) => output::print_json("error-reply", &reply, style, 0),
        Err(error) => refuse("error-reply", &error, &error, style),
    }
}
