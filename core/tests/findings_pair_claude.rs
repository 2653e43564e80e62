//! The Pair Claude flows' findings (seed 003): each rule on a small log that breaks it, and the
//! same log made conforming, which gives none. The seed's permission sequence (the navigator
//! decides, the orchestrator records the decision as PermissionResult and the canUseTool
//! behaviour) conforms; a record that disagrees with the decision is `bad_value`; decisions and
//! reviews after their timeouts are `late` (as the book folds, or at the time the log is judged:
//! `PairClaudeBook::findings_at`); a permission request for a tool that needs no approval is
//! `bad_value`; a driver message while a permission request is pending is `out_of_order`.

mod session_common;

use proptest::prelude::*;
use serde_json::{json, Value};
use session_common::within;
use std::io::Write;
use std::process::{Command, Stdio};
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::{PairClaudeConfig, RequestStatus};
use switchboard_core::session::violation::Violation;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

const NAV: &str = "nav-bot";
const DRIVER: &str = "driver-bot";
const ORCH: &str = "orchestrator";

/// 2026-03-01T10:00:00Z plus `seconds`.
fn at(seconds: i64) -> Timestamp {
    Timestamp::parse("2026-03-01T10:00:00Z")
        .unwrap()
        .plus_millis(seconds * 1_000)
}

/// `message` sent by `from` at `seconds`.
fn sent(seconds: i64, from: &str, message: Value) -> Value {
    let mut m = message;
    m["from"] = json!(from);
    m["created_ts"] = json!(at(seconds).to_rfc3339());
    m
}

fn ask(seconds: i64, id: &str, tool: &str) -> Value {
    sent(
        seconds,
        DRIVER,
        json!({"requestId": id, "driverTranscript": "…", "toolName": tool,
            "input": {"file_path": "src/cart.ts"}}),
    )
}

fn approve(seconds: i64, id: Option<&str>) -> Value {
    let mut args = json!({"comment": "fine"});
    if let Some(id) = id {
        args["requestId"] = json!(id);
    }
    sent(
        seconds,
        NAV,
        json!({"name": "mcp__navigator__navigatorApprove", "arguments": args}),
    )
}

fn deny(seconds: i64) -> Value {
    sent(
        seconds,
        NAV,
        json!({"name": "mcp__navigator__navigatorDeny", "arguments": {"comment": "no"}}),
    )
}

fn result(seconds: i64, allowed: bool) -> Value {
    let m = if allowed {
        json!({"allowed": true, "updatedInput": {}})
    } else {
        json!({"allowed": false, "reason": "Navigator denied permission"})
    };
    sent(seconds, ORCH, m)
}

fn behavior(seconds: i64, allow: bool) -> Value {
    let m = if allow {
        json!({"behavior": "allow", "updatedInput": {}})
    } else {
        json!({"behavior": "deny", "message": "denied"})
    };
    sent(seconds, ORCH, m)
}

fn ask_review(seconds: i64) -> Value {
    sent(
        seconds,
        DRIVER,
        json!({"name": "mcp__driver__driverRequestReview", "arguments": {"context": "cart"}}),
    )
}

fn review(seconds: i64, pass: bool) -> Value {
    sent(
        seconds,
        NAV,
        json!({"name": "mcp__navigator__navigatorCodeReview",
            "arguments": {"comment": "see tests", "pass": pass}}),
    )
}

fn book(log: &[Value]) -> Book {
    let envelopes = read_log(&serde_json::to_vec(log).unwrap(), &Options::default()).unwrap();
    for e in &envelopes {
        assert!(e.message().is_some(), "{:?}", e.carried);
    }
    Book::replay(&envelopes, PairClaudeConfig::default())
}

/// One finding: code, entry, blamed agent.
type Finding = (&'static str, usize, Option<String>);

fn key(v: &Violation) -> Finding {
    (v.code.as_str(), v.entry, v.by.clone())
}

fn all_at(log: &[Value], now: Timestamp) -> Vec<Violation> {
    let b = book(log);
    let mut all = b.pair_claude.violations.clone();
    all.extend(b.agents.violations.iter().cloned());
    all.extend(b.pair_claude.findings_at(now));
    all.sort_by_key(|v| (v.entry, v.code.as_str()));
    all
}

fn findings_at(log: &[Value], now: Timestamp) -> Vec<Finding> {
    all_at(log, now).iter().map(key).collect()
}

fn the_message(log: &[Value], now: Timestamp) -> String {
    let all = all_at(log, now);
    assert_eq!(all.len(), 1, "{all:#?}");
    all[0].message.clone()
}

fn nav() -> Option<String> {
    Some(NAV.to_owned())
}

#[test]
fn the_seeds_permission_sequence_conforms() {
    // navigatorApprove, then the orchestrator's PermissionResult and canUseTool behaviour;
    // then a denial the same way; with and without requestId, and as NavigatorCommand.
    let log = [
        ask(0, "r1", "Write"),
        approve(3, Some("r1")),
        result(4, true),
        behavior(4, true),
        ask(10, "r2", "Edit"),
        deny(12),
        result(13, false),
        behavior(13, false),
        ask(20, "r3", "MultiEdit"),
        sent(
            22,
            NAV,
            json!({"type": "approve", "comment": "ok", "requestId": "r3"}),
        ),
        behavior(23, true),
    ];
    assert_eq!(findings_at(&log, at(600)), []);
    let b = book(&log);
    let statuses: Vec<RequestStatus> = b
        .pair_claude
        .permissions
        .iter()
        .map(|p| b.pair_claude.permission_status(p, at(600)))
        .collect();
    assert_eq!(
        statuses,
        [
            RequestStatus::Approved,
            RequestStatus::Denied,
            RequestStatus::Approved
        ]
    );
}

#[test]
fn the_orchestrators_records_alone_decide() {
    let log = [ask(0, "r1", "Write"), result(2, true), behavior(2, true)];
    assert_eq!(findings_at(&log, at(600)), []);
    let b = book(&log);
    assert_eq!(
        b.pair_claude.permissions[0].decision,
        RequestStatus::Approved
    );
    // A record after the navigator's decision of an earlier request, when a later request is
    // pending, decides the later one.
    let log = [
        ask(0, "r1", "Write"),
        approve(2, None),
        ask(5, "r2", "Edit"),
        result(6, false),
    ];
    assert_eq!(findings_at(&log, at(600)), []);
    let b = book(&log);
    assert_eq!(b.pair_claude.permissions[1].decision, RequestStatus::Denied);
}

#[test]
fn a_record_against_the_navigators_decision_is_bad_value() {
    let log = [ask(0, "r1", "Write"), deny(3), result(4, true)];
    assert_eq!(findings_at(&log, at(600)), [("bad_value", 2, None)]);
    assert_eq!(
        the_message(&log, at(600)),
        "PermissionResult says allowed but the navigator denied permission request \"r1\" (entry 1) (Permission Flow: the orchestrator passes the navigator's decision on)"
    );
    let log = [
        ask(0, "r1", "Write"),
        approve(3, None),
        result(4, true),
        behavior(4, false),
    ];
    assert_eq!(findings_at(&log, at(600)), [("bad_value", 3, None)]);
    // The navigator's denial stands.
    let b = book(&[ask(0, "r1", "Write"), deny(3), result(4, true)]);
    assert_eq!(b.pair_claude.permissions[0].decision, RequestStatus::Denied);
    // Records alone that disagree with each other.
    let log = [ask(0, "r1", "Write"), result(2, true), behavior(2, false)];
    assert_eq!(
        the_message(&log, at(600)),
        "CanUseToolResult says deny but PermissionResult allowed permission request \"r1\" (entry 1) (Permission Flow: the orchestrator passes the navigator's decision on)"
    );
}

#[test]
fn a_decision_after_the_permission_timeout_is_late() {
    let log = [ask(0, "r1", "Write"), approve(20, Some("r1"))];
    assert_eq!(findings_at(&log, at(600)), [("late", 0, nav())]);
    assert_eq!(
        the_message(&log, at(600)),
        "permission request \"r1\" (entry 1) was decided at 2026-03-01T10:00:20Z, past PAIR_PERMISSION_TIMEOUT_MS = 15000 after it was asked (PAIR_PERMISSION_TIMEOUT_MS: 'Permission request timeout')"
    );
    let b = book(&log);
    assert_eq!(
        b.pair_claude
            .permission_status(&b.pair_claude.permissions[0], at(600)),
        RequestStatus::TimedOut
    );
    // The records of the late decision cover it.
    let recorded = [
        ask(0, "r1", "Write"),
        approve(20, None),
        result(21, true),
        behavior(21, true),
    ];
    assert_eq!(findings_at(&recorded, at(600)), [("late", 0, nav())]);
    // Within the timeout: none.
    assert_eq!(
        findings_at(&[ask(0, "r1", "Write"), approve(14, None)], at(600)),
        []
    );
}

#[test]
fn a_permission_request_still_pending_past_its_timeout_is_late() {
    let log = [review(0, false), ask(10, "r1", "Write")];
    // Asked at 10 with 15 s: due at 25. The navigator is the first sender of a navigator's
    // message.
    assert_eq!(findings_at(&log, at(24)), []);
    assert_eq!(findings_at(&log, at(25)), [("late", 1, nav())]);
    assert_eq!(
        the_message(&log, at(25)),
        "permission request \"r1\" (entry 2) is not decided at 2026-03-01T10:00:25Z, 15000 ms after it was asked (PAIR_PERMISSION_TIMEOUT_MS: 'Permission request timeout')"
    );
    // No navigator in the log: blamed on no one.
    assert_eq!(
        findings_at(&[ask(10, "r1", "Write")], at(25)),
        [("late", 0, None)]
    );
}

#[test]
fn a_review_after_the_tool_timeout_is_late() {
    let log = [ask_review(0), review(130, false)];
    assert_eq!(findings_at(&log, at(600)), [("late", 0, nav())]);
    assert_eq!(
        the_message(&log, at(600)),
        "review request (entry 1) was reviewed at 2026-03-01T10:02:10Z, past PAIR_TOOL_TIMEOUT_MS = 120000 after it was asked (PAIR_TOOL_TIMEOUT_MS: 'Tool completion timeout')"
    );
    assert_eq!(findings_at(&[ask_review(0), review(60, true)], at(600)), []);
    // As DriverCommand, still pending: due at 120.
    let pending = [
        review(0, false),
        sent(
            10,
            DRIVER,
            json!({"type": "request_review", "context": "again"}),
        ),
    ];
    assert_eq!(findings_at(&pending, at(129)), []);
    assert_eq!(findings_at(&pending, at(130)), [("late", 1, nav())]);
}

#[test]
fn a_permission_request_for_a_tool_that_needs_no_approval_is_bad_value() {
    let log = [ask(0, "r1", "Bash"), approve(2, None)];
    assert_eq!(findings_at(&log, at(600)), [("bad_value", 0, None)]);
    assert_eq!(
        the_message(&log, at(600)),
        "PermissionRequest for \"Bash\": only Write, Edit and MultiEdit need approval (Permission Flow: 'Needs approval (Write/Edit/MultiEdit)')"
    );
    for tool in ["Write", "Edit", "MultiEdit"] {
        assert_eq!(
            findings_at(&[ask(0, "r1", tool), approve(2, None)], at(600)),
            []
        );
    }
}

#[test]
fn a_driver_message_while_its_permission_request_is_pending_is_out_of_order() {
    let driver_messages = [
        ask_review(5),
        sent(
            5,
            DRIVER,
            json!({"name": "mcp__driver__driverRequestGuidance", "arguments": {"context": "?"}}),
        ),
        sent(
            5,
            DRIVER,
            json!({"type": "request_guidance", "context": "?"}),
        ),
        ask(5, "r2", "Edit"),
    ];
    for m in driver_messages {
        let log = [ask(0, "r1", "Write"), m.clone(), approve(8, Some("r1"))];
        let found: Vec<Finding> = findings_at(&log, at(9));
        assert_eq!(found, [("out_of_order", 1, None)], "{m}");
        // After the decision: in order.
        let log = [ask(0, "r1", "Write"), approve(2, Some("r1")), m.clone()];
        assert_eq!(findings_at(&log, at(9)), [], "{m}");
    }
    // Once the request has timed out the driver goes on: only the request is late.
    let log = [ask(0, "r1", "Write"), ask_review(20)];
    assert_eq!(findings_at(&log, at(30)), [("late", 0, None)]);
    let log = [ask(0, "r1", "Write"), ask_review(5), approve(8, Some("r1"))];
    assert_eq!(
        the_message(&log, at(9)),
        "driverRequestReview while permission request \"r1\" (entry 1) is pending: the driver waits for the navigator's decision (Key Design Principles 4: 'Permission Flow: Sync, security-focused, real-time interception')"
    );
}

#[test]
fn the_cli_takes_the_tool_timeout() {
    let log: String = [ask_review(0), review(60, true)]
        .iter()
        .map(|v| format!("{v}\n"))
        .collect();
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_switchboard"))
            .args(["tasks", "-", "--now", "2026-03-01T11:00:00Z"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(log.as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let boards: Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), boards["pair_claude"].clone())
    };
    let (code, board) = run(&[]);
    assert_eq!(code, Some(0), "{board}");
    assert_eq!(board["config"]["tool_timeout_ms"], 120_000);
    let (code, board) = run(&["--tool-timeout-ms", "30000"]);
    assert_eq!(code, Some(1));
    assert_eq!(board["violations"][0]["code"], "late");
    assert_eq!(board["violations"][0]["by"], NAV);
}

/// A generated Pair Claude log: requests, decisions, records and reviews at random seconds.
fn pair_claude_log() -> impl Strategy<Value = Vec<Value>> {
    let entry = (0u8..8, 0i64..300, 0usize..3, any::<bool>());
    prop::collection::vec(entry, 1..14).prop_map(|entries| {
        entries
            .into_iter()
            .map(|(kind, second, id, yes)| {
                let id = ["r1", "r2", "r3"][id];
                match kind {
                    0 => ask(second, id, if yes { "Write" } else { "Bash" }),
                    1 => approve(second, yes.then_some(id)),
                    2 => deny(second),
                    3 => result(second, yes),
                    4 => behavior(second, yes),
                    5 => ask_review(second),
                    6 => review(second, yes),
                    _ => sent(
                        second,
                        DRIVER,
                        json!({"type": "request_guidance", "context": "?"}),
                    ),
                }
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn an_earlier_now_never_finds_more(log in pair_claude_log(), a in 0i64..600, b in 0i64..600) {
        let (early, late) = (at(a.min(b)), at(a.max(b)));
        let b = book(&log);
        let keys = |now| {
            let mut k: Vec<Finding> = b.pair_claude.findings_at(now).iter().map(key).collect();
            k.sort();
            k
        };
        let (early, late) = (keys(early), keys(late));
        prop_assert!(within(&early, &late), "found at the earlier time only: {early:?} vs {late:?}");
    }
}
