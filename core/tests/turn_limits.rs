//! Pair Claude turn limits (seed 003: `PAIR_NAVIGATOR_MAX_TURNS`, `PAIR_DRIVER_MAX_TURNS`,
//! default 20): each agent's tool calls and commands are its turns; the orchestrator's own
//! records are no one's; the turn past the limit is `limit_exceeded`; the limits are
//! configurable like the timeouts (`switchboard tasks --navigator-max-turns N`).

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::{Agent, PairClaudeConfig};
use switchboard_core::session::violation::ViolationCode;
use switchboard_core::session::Book;

fn at(second: u32) -> String {
    format!("2026-03-01T10:{:02}:{:02}Z", second / 60, second % 60)
}

/// A review loop, `rounds` times: the driver asks for review (a driver turn), the navigator
/// fails it (a navigator turn), the driver tries an edit (a permission request: a driver turn)
/// and the orchestrator records the decision (PermissionResult: no one's turn).
fn review_loop(rounds: u32) -> Vec<Value> {
    let mut log = Vec::new();
    for r in 0..rounds {
        let t = r * 4;
        log.push(json!({"name": "mcp__driver__driverRequestReview",
            "arguments": {"context": format!("round {r}")}, "created_ts": at(t)}));
        log.push(json!({"name": "mcp__navigator__navigatorCodeReview",
            "arguments": {"comment": "not yet", "pass": false}, "created_ts": at(t + 1)}));
        log.push(
            json!({"requestId": format!("p{r}"), "driverTranscript": "…", "toolName": "Edit",
            "input": {"file_path": "src/a.ts"}, "created_ts": at(t + 2)}),
        );
        log.push(
            json!({"allowed": true, "updatedInput": {}, "requestId": format!("p{r}"),
            "created_ts": at(t + 3)}),
        );
    }
    log
}

fn book(log: &[Value], config: PairClaudeConfig) -> Book {
    let bytes = serde_json::to_vec(log).unwrap();
    Book::replay(&read_log(&bytes, &Options::default()).unwrap(), config)
}

fn limits(book: &Book) -> Vec<String> {
    book.pair_claude
        .violations
        .iter()
        .filter(|v| v.code == ViolationCode::LimitExceeded)
        .map(|v| format!("{} {}", v.entry, v.message))
        .collect()
}

#[test]
fn turns_are_counted_per_agent_and_orchestrator_records_are_not_turns() {
    let b = book(&review_loop(5), PairClaudeConfig::default());
    assert_eq!(b.pair_claude.turns(Agent::Driver).used, 10);
    assert_eq!(b.pair_claude.turns(Agent::Navigator).used, 5);
    assert_eq!(b.pair_claude.turns(Agent::Navigator).max, 20);
    assert!(!b.has_violations(), "{:#?}", b.pair_claude.violations);
}

#[test]
fn the_turn_past_the_seed_default_of_20_is_limit_exceeded_once() {
    // 21 rounds: the driver's turn 21 is round 10's first message (entry 40), the
    // navigator's is round 20's review (entry 81); later turns are not reported again.
    let b = book(&review_loop(21), PairClaudeConfig::default());
    assert_eq!(
        limits(&b),
        [
            "40 driver turn 21 is past PAIR_DRIVER_MAX_TURNS = 20: the driver had no turns left",
            "81 navigator turn 21 is past PAIR_NAVIGATOR_MAX_TURNS = 20: the navigator had no turns left",
        ]
    );
    assert!(b.has_violations());
}

#[test]
fn limits_are_configurable_like_the_timeouts() {
    // Upstream's code: navigator 50, driver 20.
    let upstream = PairClaudeConfig {
        navigator_max_turns: 50,
        ..PairClaudeConfig::default()
    };
    let b = book(&review_loop(21), upstream);
    assert_eq!(limits(&b).len(), 1);
    assert!(limits(&b)[0].contains("driver turn 21"));
    let tight = PairClaudeConfig {
        navigator_max_turns: 1,
        driver_max_turns: 3,
        ..PairClaudeConfig::default()
    };
    let b = book(&review_loop(2), tight);
    assert_eq!(
        limits(&b),
        [
            "5 navigator turn 2 is past PAIR_NAVIGATOR_MAX_TURNS = 1: the navigator had no turns left",
            "6 driver turn 4 is past PAIR_DRIVER_MAX_TURNS = 3: the driver had no turns left",
        ]
    );
}

#[test]
fn the_cli_takes_the_limits_and_prints_the_turns() {
    let log: String = review_loop(21).iter().map(|v| format!("{v}\n")).collect();
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_switchboard"))
            .args(["tasks", "-", "--now", "2026-03-01T11:00:00Z"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(log.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    let boards: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        boards["pair_claude"]["turns"],
        json!({"navigator": {"used": 21, "max": 20}, "driver": {"used": 42, "max": 20}})
    );
    let out = run(&["--navigator-max-turns", "50", "--driver-max-turns", "50"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let boards: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(boards["pair_claude"]["config"]["navigator_max_turns"], 50);
}
