//! What the long fuzz run feeds: one function per target, and the table that names them.
//!
//! To add a target (e.g. the Pair session engine or the audit's diff parser): write one
//! `fn name(input: &[u8])` that runs the code under test on one input (panicking on a
//! broken invariant is fine: it is counted like any panic) and add a [`Target`] line to
//! [`TARGETS`] with the fixture folders its seeds come from.

use crate::mutate::{self, Rng};
use serde_json::Value;
use switchboard_core::agent_mail::replies as adapters;
use switchboard_core::pane::{self, FilterMode, PaneState};
use switchboard_core::protocol::builders::build::BuildOptions;
use switchboard_core::protocol::{
    self, builders::reply, model::Message, FamilyId, Options, MAX_ISSUES,
};
use switchboard_core::time::Timestamp;

/// One fuzz target.
pub struct Target {
    /// Name in the report (and on the command line: `--target NAME`).
    pub name: &'static str,
    /// Folders under `core/` whose files (recursively) are the seeds mutations start from.
    pub seed_dirs: &'static [&'static str],
    /// Extra seeds made on the fly, if any (e.g. valid messages generated from the registry).
    pub generate: Option<fn(&mut Rng) -> Vec<u8>>,
    /// Runs the code under test on one input.
    pub run: fn(&[u8]),
}

const PROTOCOL: &[&str] = &["tests/fixtures/protocol"];
const PANE: &[&str] = &["tests/fixtures/pane-smoke", "src/pane/smoke"];
const REPLIES: &[&str] = &["tests/fixtures/agent-mail-replies"];
const SESSIONS: &[&str] = &["tests/fixtures/sessions"];
const DIFFS: &[&str] = &["tests/fixtures/audit/cases"];

/// Every target, in report order.
pub const TARGETS: &[Target] = &[
    Target {
        name: "protocol bytes",
        seed_dirs: PROTOCOL,
        generate: Some(mutate::message_bytes),
        run: protocol_bytes,
    },
    Target {
        name: "protocol objects",
        seed_dirs: PROTOCOL,
        generate: Some(mutate::message_bytes),
        run: protocol_objects,
    },
    Target {
        name: "protocol text/JSONL",
        seed_dirs: PROTOCOL,
        generate: Some(mutate::message_lines),
        run: protocol_text,
    },
    Target {
        name: "carried rows",
        seed_dirs: PROTOCOL,
        generate: Some(mutate::message_bytes),
        run: carried_rows,
    },
    Target {
        name: "pane build/state",
        seed_dirs: PANE,
        generate: None,
        run: pane_build,
    },
    Target {
        name: "pane adapters",
        seed_dirs: REPLIES,
        generate: None,
        run: pane_adapters,
    },
    Target {
        name: "session engine",
        seed_dirs: SESSIONS,
        generate: None,
        run: session_engine,
    },
    Target {
        name: "audit diff parser",
        seed_dirs: DIFFS,
        generate: None,
        run: audit_diff,
    },
    Target {
        name: "audit of added code",
        seed_dirs: DIFFS,
        generate: None,
        run: audit_added,
    },
];

/// The invariants every report keeps.
fn check(report: &protocol::Report) {
    assert_eq!(report.valid, report.errors().next().is_none(), "valid");
    assert!(report.issues.len() <= MAX_ISSUES + 1, "issue cap");
}

fn options(input: &[u8]) -> Options {
    let lenient = input.len() % 2 == 1;
    Options {
        family: None,
        lenient,
    }
}

/// Raw bytes through `validate_slice`, which agrees with the path through a parsed `Value`.
fn protocol_bytes(input: &[u8]) {
    let report = protocol::validate_slice(input, &options(input));
    check(&report);
    assert_eq!(
        report,
        protocol::validate_slice_via_value(input, &options(input)),
        "the path from bytes gives the reference path's report"
    );
    let _ = serde_json::to_string(&report).expect("a report serializes");
}

/// Parsed values through every entry point, the typed model and the error replies (input
/// that is not JSON is taken as one JSON string, so every input does the same work).
fn protocol_objects(input: &[u8]) {
    let value = serde_json::from_slice::<Value>(input)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(input).into_owned()));
    let opts = options(input);
    let report = protocol::validate(&value, &opts);
    check(&report);
    assert_eq!(report.valid, opts.is_valid(&value), "is_valid agrees");
    assert_eq!(
        protocol::iter_errors(&value, &opts).count(),
        report.errors().count()
    );
    match Message::parse(&value, &opts) {
        Ok(_) => assert!(report.valid, "a typed model only for a valid message"),
        // A seed template (lenient) is valid but names no type, so it has no typed model.
        Err(failed) => assert!(
            !failed.valid || failed.message_type.is_none(),
            "no typed model for a valid message of a known type"
        ),
    }
    if !report.valid {
        let options = |family| reply::ReplyOptions {
            family: Some(family),
            build: BuildOptions {
                now: Timestamp::parse("2026-01-06T09:00:00Z"),
                random: Some([0x5a; 16]),
                sender: Some("switchboard".into()),
                ..BuildOptions::default()
            },
        };
        for family in [FamilyId::AgentPo, FamilyId::Droid] {
            let built = reply::error_reply(&report, &value, &options(family));
            let reply = match built {
                Ok(reply::ErrorReply::AgentPo { error }) => error.to_value(),
                Ok(reply::ErrorReply::Droid { error_report, .. }) => error_report.to_value(),
                Err(e) => panic!("no {} error reply: {e}", family.as_str()),
            };
            assert!(protocol::is_valid(&reply), "the error reply is valid");
        }
    }
}

/// Text as one message and as JSON Lines.
fn protocol_text(input: &[u8]) {
    let opts = options(input);
    let text = String::from_utf8_lossy(input);
    check(&protocol::validate_str(&text, &opts));
    let lines = input.split(|&b| b == b'\n').count();
    for line in protocol::validate_lines(input, &opts) {
        assert!(line.line >= 1 && line.line <= lines, "line numbers");
        check(&line.report);
    }
}

/// The input carried in an Agent Mail row's `body_md`, raw or in a fenced block.
fn carried_rows(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    let body = if input.len().is_multiple_of(3) {
        format!("Please review.\n```json\n{text}\n```\n")
    } else {
        text.into_owned()
    };
    let subject = ["Stand-up notes", "PAIR_INIT", "CHANGE_ORDER"][input.len() % 3];
    let row = serde_json::json!({"subject": subject, "from": "BlueLake", "body_md": body});
    let report = protocol::validate(&row, &options(input));
    check(&report);
    let bytes = serde_json::to_vec(&row).expect("a row serializes");
    assert_eq!(
        protocol::validate_slice(&bytes, &options(input)),
        report,
        "the path from bytes follows the row into body_md as the parsed path does"
    );
}

/// The input as inbox, outbox and contacts payloads: one build, the same through
/// `PaneState`, and the input again as a batch.
fn pane_build(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    let contract = pane::contract();
    let mode = FilterMode::ALL[input.len() % 4];
    let thread = match input.len() % 5 {
        0 => None,
        1 => Some(""),
        _ => text.get(..input.len().min(12)),
    };
    let acked: Vec<u64> = input.iter().take(8).map(|&b| u64::from(b) * 97).collect();
    let built = pane::build_snapshot(&contract, &text, &text, &text, thread, mode, &acked);
    let state = PaneState::new(contract, &text, &text, &text, thread, mode, &acked);
    match (built, state) {
        (Ok(snapshot), Ok(mut state)) => {
            let _ = snapshot.refresh_identity();
            assert_eq!(state.snapshot().as_ref(), Ok(&snapshot), "state = build");
            let _ = state.add_inbox(&text);
            let _ = state.add_outbox(&text);
            let _ = state.add_contacts(&text);
            let _ = state.snapshot_if_changed().expect("snapshot");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "same hard error"),
        _ => panic!("build_snapshot and PaneState::new disagree"),
    }
}

/// Every reply decoder on the input as a server reply, the typed rows into the pane.
fn pane_adapters(input: &[u8]) {
    use switchboard_core::agent_mail::{Contact, MailRow};
    let text = String::from_utf8_lossy(input);
    let _ = adapters::reply_payload(&text);
    let pending = adapters::pending_ack_ids(&text).unwrap_or_default();
    let _ = adapters::acknowledged_message_id(&text);
    let _ = switchboard_core::agent_mail::normalize_timestamp(&text);
    let rows = MailRow::rows(&text).unwrap_or_default();
    let contacts = Contact::rows(&text).unwrap_or_default();
    // The rows as an inbox and, those one agent sent, an outbox; shown for their first thread.
    let (sent, _): (Vec<MailRow>, Vec<MailRow>) =
        rows.iter().cloned().partition(|m| m.from == "BlueLake");
    let thread = rows.iter().find_map(|m| m.thread_id.as_deref());
    let mode = if thread.is_some() {
        FilterMode::ThreadOnly
    } else {
        FilterMode::All
    };
    let acked = MailRow::acknowledged_ids(&rows, &pending);
    let built = pane::build_snapshot_from_rows(
        &pane::contract(),
        &rows,
        &sent,
        &contacts,
        thread,
        mode,
        &acked,
    );
    assert!(
        built.is_ok(),
        "a thread filter with a thread is no hard error"
    );
}

/// A message log through the whole session engine: every session and board printed, every
/// decision the open checkpoints allow built, and each built message valid.
fn session_engine(input: &[u8]) {
    use switchboard_core::agent_mail::read_log;
    use switchboard_core::session::{pair_claude::PairClaudeConfig, Book};
    use switchboard_core::time::Timestamp;
    let Ok(envelopes) = read_log(input, &Options::default()) else {
        return;
    };
    let book = Book::replay(&envelopes, PairClaudeConfig::default());
    let now = Timestamp::parse("2026-03-09T00:00:00Z").unwrap_or(Timestamp(0));
    assert!(serde_json::to_vec(&book.sessions(now)).is_ok());
    assert!(serde_json::to_vec(&book.boards(now)).is_ok());
    for session in book.pair.sessions() {
        let Some(checkpoint) = session.open_checkpoint() else {
            continue;
        };
        for kind in checkpoint.decisions() {
            let text = if kind.requires().is_some() {
                "because"
            } else {
                ""
            };
            let Ok(decision) =
                switchboard_core::session::pair::checkpoint::Decision::new(*kind, text)
            else {
                continue;
            };
            for m in session.decide(&decision).unwrap_or_default() {
                assert!(protocol::validate(&m.to_value(), &Options::strict()).valid);
            }
        }
    }
}

/// Any text through the diff parser.
fn audit_diff(input: &[u8]) {
    let _ = switchboard_core::audit::parse_diff(&String::from_utf8_lossy(input));
}

/// Any text as the added lines of one file of a diff (so every input reaches the audit's
/// patterns), audited against a contract with a test file; the report is valid.
fn audit_added(input: &[u8]) {
    use switchboard_core::audit::{self, Contract};
    let text = String::from_utf8_lossy(input);
    let lines: Vec<&str> = text.lines().collect();
    let mut diff = format!(
        "diff --git a/app/x.py b/app/x.py\n--- a/app/x.py\n+++ b/app/x.py\n@@ -0,0 +1,{} @@\n",
        lines.len().max(1)
    );
    for line in &lines {
        diff.push('+');
        diff.push_str(line);
        diff.push('\n');
    }
    if lines.is_empty() {
        diff.push_str("+\n");
    }
    let contract =
        Contract::from_files([("tests/test_x.py", "assert f(2) == 4\n")]).expect("a contract");
    let parsed = audit::parse_diff(&diff).expect("a diff of added lines parses");
    let report = audit::audit(&contract, &parsed, &[]);
    let value = serde_json::to_value(&report).expect("a report serializes");
    assert!(
        protocol::validate(&value, &Options::strict()).valid,
        "{value}"
    );
}
