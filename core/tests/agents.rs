//! Senders and registered agents: INVALID_AGENT for names the server does not know (seed 000),
//! the roles message types require of their senders (seed 004 Security 2) in the droid and Pair
//! Claude flows, shown on the sessions and boards and by `--agents`.

use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::Options;
use switchboard_core::session::agents::Registry;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::violation::ViolationCode;
use switchboard_core::session::Book;

fn pattern1() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sessions/pattern1_happy_path.jsonl")
        .to_str()
        .unwrap()
        .to_owned()
}

fn book(log: &[Value], registry: Option<&[&str]>) -> Book {
    let bytes = serde_json::to_vec(log).unwrap();
    let envelopes = read_log(&bytes, &Options::default()).unwrap();
    let book = Book::new(PairClaudeConfig::default());
    let book = match registry {
        Some(names) => book.with_agents(Registry::new(names.iter()).unwrap()),
        None => book,
    };
    book.replayed(&envelopes)
}

fn codes(book: &Book) -> Vec<(usize, ViolationCode, String)> {
    book.agents
        .violations
        .iter()
        .map(|v| (v.entry, v.code, v.message.clone()))
        .collect()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn unregistered_senders_and_recipients_are_invalid_agent_on_the_session() {
    let now = "2026-03-02T12:00:00Z";
    let ok = run(&[
        "session",
        &pattern1(),
        "--now",
        now,
        "--agents",
        "BlueLake,GreenCastle",
    ]);
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    let out = run(&["session", &pattern1(), "--now", now, "--agents", "BlueLake"]);
    assert_eq!(out.status.code(), Some(1));
    let sessions: Value = serde_json::from_slice(&out.stdout).unwrap();
    let violations = sessions[0]["violations"].as_array().unwrap();
    assert_eq!(
        violations.len(),
        6,
        "one per message: every one names GreenCastle"
    );
    assert_eq!(violations[0]["code"], "invalid_agent");
    assert_eq!(
        violations[0]["message"],
        "recipient GreenCastle is not a registered agent (INVALID_AGENT)"
    );
    assert_eq!(
        violations[3]["message"],
        "sender GreenCastle is not a registered agent (INVALID_AGENT)"
    );
    // Without --agents, names are not checked.
    let out = run(&["session", &pattern1(), "--now", now]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn agents_files_and_their_errors() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("agents-files");
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_owned()
    };
    let rows = file(
        "rows.json",
        r#"[{"name": "BlueLake", "program": "claude-code"}, {"name": "GreenCastle"}]"#,
    );
    let out = run(&[
        "tasks",
        &pattern1(),
        "--now",
        "2026-03-02T12:00:00Z",
        "--agents",
        &rows,
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let boards: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        boards["agents"]["registered"],
        json!(["BlueLake", "GreenCastle"])
    );
    for (name, text, reason) in [
        (
            "object.json",
            r#"{"BlueLake": true}"#,
            "not a list of agents",
        ),
        ("numbers.json", "[1, 2]", "agent 0 is a number"),
        ("text.json", "BlueLake\nGreenCastle\n", "not JSON"),
    ] {
        let bad = file(name, text);
        let out = run(&["session", &pattern1(), "--agents", &bad]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{name}: {err}");
        assert_eq!(err.trim().lines().count(), 1);
        assert!(out.stdout.is_empty());
    }
    let out = run(&["session", &pattern1(), "--agents", "BlueLake,,GreenCastle"]);
    assert_eq!(out.status.code(), Some(2));
}

fn droid(n: u64, sender: &str, from: &str, to: &[&str], kind: &str, fields: Value) -> Value {
    let mut m = json!({"version": "1.0.0", "timestamp": format!("2025-12-25T12:{n:02}:00Z"),
        "sender_id": sender, "message_id": format!("msg-123e4567-e89b-12d3-a456-{n:012}"),
        "type": kind, "from": from, "to": to});
    m.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    m
}

#[test]
fn droid_reports_come_from_the_assignees_under_their_own_names() {
    let assign = json!({"task_id": "bd-42", "description": "Do it",
        "specification": {"acceptance_criteria": ["works"]}, "file_patterns": ["src/**"],
        "priority": "high", "priority_value": 1});
    let done = json!({"task_id": "bd-42", "status": "complete", "completion_summary": "done",
        "files_modified": [], "test_results": {}, "errors_encountered": []});
    let log = [
        droid(
            1,
            "orchestrator",
            "orchestrator",
            &["frontend-dev"],
            "task_assignment",
            assign,
        ),
        // The assignee, under its own name: fine.
        droid(
            2,
            "frontend-dev",
            "frontend-dev",
            &["orchestrator"],
            "task_completion",
            done.clone(),
        ),
        // Someone else reports the task done.
        droid(
            3,
            "backend-dev",
            "backend-dev",
            &["orchestrator"],
            "task_completion",
            done.clone(),
        ),
        // The assignee's name in sender_id, sent by another agent.
        droid(
            4,
            "frontend-dev",
            "intruder",
            &["orchestrator"],
            "task_completion",
            done,
        ),
    ];
    let b = book(&log, None);
    assert_eq!(
        codes(&b),
        [
            (
                2,
                ViolationCode::WrongRole,
                "task_completion for bd-42 from backend-dev, who was not assigned it (assignees: frontend-dev)".into()
            ),
            (
                3,
                ViolationCode::WrongRole,
                "task_completion names sender_id frontend-dev but was sent by intruder".into()
            ),
            (
                3,
                ViolationCode::WrongRole,
                "task_completion for bd-42 from intruder, who was not assigned it (assignees: frontend-dev)".into()
            ),
        ]
    );
    let boards = serde_json::to_value(b.boards(switchboard_core::time::Timestamp(0))).unwrap();
    assert_eq!(boards["agents"]["violations"].as_array().unwrap().len(), 3);
    assert_eq!(boards["agents"]["registered"], Value::Null);
}

#[test]
fn an_unauthorized_report_does_not_move_the_board() {
    let assign = json!({"task_id": "bd-7", "description": "Do it",
        "specification": {"acceptance_criteria": ["works"]}, "file_patterns": ["src/**"],
        "priority": "high", "priority_value": 1});
    let done = json!({"task_id": "bd-7", "status": "complete", "completion_summary": "done",
        "files_modified": [], "test_results": {}, "errors_encountered": []});
    let assigned = droid(1, "lead", "lead", &["dev"], "task_assignment", assign);
    // An agent the task was not assigned to reports it done, then the assignee does.
    let early = droid(
        2,
        "other",
        "other",
        &["lead"],
        "task_completion",
        done.clone(),
    );
    let real = droid(3, "dev", "dev", &["lead"], "task_completion", done);
    let only_early = book(&[assigned.clone(), early.clone()], None);
    let task = &only_early.tasks.tasks()[0];
    assert_ne!(task.status.as_str(), "complete", "{task:?}");
    assert_eq!(codes(&only_early).len(), 1);

    let b = book(&[assigned, early, real], None);
    let task = &b.tasks.tasks()[0];
    assert_eq!(task.status.as_str(), "complete");
    assert_eq!(task.summary.as_deref(), Some("done"));
    assert!(task.violations.is_empty(), "{:?}", task.violations);
    assert_eq!(
        codes(&b).iter().map(|c| c.1).collect::<Vec<_>>(),
        [ViolationCode::WrongRole]
    );
}

#[test]
fn a_pair_claude_agent_keeps_its_side() {
    let call = |n: u32, from: &str, name: &str, args: Value| {
        json!({"name": name, "arguments": args, "from": from,
            "created_ts": format!("2026-03-01T10:00:{n:02}Z")})
    };
    let log = [
        call(
            0,
            "driver-bot",
            "mcp__driver__driverRequestReview",
            json!({"context": "auth"}),
        ),
        call(
            1,
            "nav-bot",
            "mcp__navigator__navigatorCodeReview",
            json!({"comment": "no", "pass": false}),
        ),
        call(
            2,
            "driver-bot",
            "mcp__driver__driverRequestReview",
            json!({"context": "again"}),
        ),
        // The driver answers its own review.
        call(
            3,
            "driver-bot",
            "mcp__navigator__navigatorCodeReview",
            json!({"comment": "fine", "pass": true}),
        ),
    ];
    let b = book(&log, Some(&["driver-bot", "nav-bot"]));
    assert_eq!(
        codes(&b),
        [(
            3,
            ViolationCode::WrongRole,
            "navigatorCodeReview is the navigator's, but driver-bot plays the driver".into()
        )]
    );
    // Shown on the Pair Claude board too.
    assert!(b
        .pair_claude
        .violations
        .iter()
        .any(|v| v.code == ViolationCode::WrongRole));
}
