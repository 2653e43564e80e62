//! The task boards: droid tasks (status, progress, error reports, dependencies, reservation
//! conflicts), Pair Claude permission and review requests, and acknowledgement debt.

mod session_common;

use serde_json::{json, Value};
use session_common::at;
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::{PairClaudeConfig, RequestStatus};
use switchboard_core::session::tasks::TaskStatus;
use switchboard_core::session::Book;

fn droid(n: u64, minute: i64, sender: &str, kind: &str, fields: Value) -> Value {
    let mut m = json!({"version": "1.0.0", "timestamp": at(minute, 0).to_rfc3339(), "sender_id": sender,
        "message_id": format!("msg-123e4567-e89b-12d3-a456-{:012}", n), "type": kind});
    m.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    m
}

fn assignment(n: u64, minute: i64, task: &str, deps: &[&str], deadline: i64) -> Value {
    droid(
        n,
        minute,
        "orchestrator",
        "task_assignment",
        json!({"task_id": task, "description": "Do it",
        "specification": {"acceptance_criteria": ["works"]}, "file_patterns": ["src/**"], "priority": "high",
        "priority_value": 1, "dependencies": deps, "deadline": at(deadline, 0).to_rfc3339()}),
    )
}

fn error(n: u64, minute: i64, task: &str, severity: &str, human: bool) -> Value {
    droid(
        n,
        minute,
        "dev",
        "error_report",
        json!({"task_id": task, "severity": severity,
        "error": {"code": "API_ERROR", "message": format!("{severity} trouble")},
        "reproduction_steps": ["run"], "needs_human_intervention": human}),
    )
}

fn reservation(
    n: u64,
    minute: i64,
    sender: &str,
    task: &str,
    mode: &str,
    pattern: &str,
    minutes: u64,
) -> Value {
    droid(
        n,
        minute,
        sender,
        "file_reservation",
        json!({"task_id": task,
        "reservation_request": {"mode": mode, "file_patterns": [pattern], "duration_minutes": minutes}}),
    )
}

fn book(messages: &[Value]) -> Book {
    let envelopes = read_log(&serde_json::to_vec(messages).unwrap(), &Options::default()).unwrap();
    for e in &envelopes {
        assert!(e.message().is_some(), "{:?}", e.carried);
    }
    Book::replay(&envelopes, PairClaudeConfig::default())
}

#[test]
fn droid_tasks_by_status_with_progress_errors_and_dependencies() {
    let b = book(&[
        assignment(1, 0, "bd-41", &[], 60),
        assignment(2, 1, "bd-42", &["bd-41", "bd-40"], 30),
        droid(
            3,
            5,
            "dev",
            "status_update",
            json!({"task_id": "bd-41", "update_type": "progress", "status_summary": "70%", "progress": {"percentage": 70}, "blockers": []}),
        ),
        error(4, 6, "bd-42", "medium", false),
        error(5, 7, "bd-42", "blocking", false),
        error(6, 8, "bd-41", "low", true),
        droid(
            7,
            9,
            "dev",
            "task_completion",
            json!({"task_id": "bd-41", "status": "complete", "completion_summary": "done",
            "files_modified": [], "test_results": {}, "errors_encountered": []}),
        ),
    ]);
    let now = at(40, 0);
    let boards = serde_json::to_value(b.boards(now)).unwrap();
    let droid = &boards["droid"];
    assert_eq!(droid["by_status"]["complete"][0]["task_id"], "bd-41");
    assert_eq!(droid["by_status"]["complete"][0]["percentage"], 100.0);
    let pending = &droid["by_status"]["assigned"][0];
    assert_eq!(pending["task_id"], "bd-42");
    assert_eq!(pending["waiting_on"], json!(["bd-40"]));
    assert_eq!(pending["overdue"], true);
    let errors: Vec<(&str, &str)> = droid["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["task_id"].as_str().unwrap(),
                e["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [("bd-41", "low"), ("bd-42", "blocking"), ("bd-42", "medium")]
    );
    assert_eq!(b.tasks.tasks()[0].status, TaskStatus::Complete);
}

#[test]
fn reservation_conflicts_follow_the_mode_matrix_and_expire() {
    let b = book(&[
        reservation(1, 0, "alice", "bd-1", "exclusive", "src/auth/**", 60),
        reservation(2, 1, "bob", "bd-2", "shared_read", "src/auth/login.ts", 60),
        reservation(3, 2, "carol", "bd-3", "shared_write", "docs/**", 60),
        reservation(4, 3, "dave", "bd-4", "shared_write", "docs/a.md", 60),
        reservation(5, 4, "erin", "bd-5", "shared_read", "docs/b.md", 10),
        reservation(6, 5, "alice", "bd-6", "exclusive", "src/auth/login.ts", 60),
    ]);
    let pairs = |now| -> Vec<(String, String)> {
        b.tasks
            .conflicts(now)
            .into_iter()
            .map(|c| c.holders)
            .collect()
    };
    let both = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    // carol's docs/** (shared_write) takes erin's docs/b.md (shared_read); dave's docs/a.md
    // (shared_write) overlaps carol's but the modes agree, and not erin's.
    assert_eq!(
        pairs(at(6, 0)),
        [
            both("alice", "bob"),
            both("bob", "alice"),
            both("carol", "erin")
        ]
    );
    // erin's 10 minutes are over at 14.
    assert_eq!(
        pairs(at(14, 0)),
        [both("alice", "bob"), both("bob", "alice")]
    );
    assert!(pairs(at(70, 0)).is_empty());
}

fn tool(name: &str, args: Value) -> Value {
    json!({"name": name, "arguments": args})
}

fn timed(minute: i64, second: i64, m: Value) -> Value {
    // Bare records with an envelope time beside them.
    let mut m = m;
    m["created_ts"] = json!(at(minute, second).to_rfc3339());
    m
}

#[test]
fn pair_claude_permissions_and_reviews() {
    let b = book(&[
        timed(
            0,
            0,
            json!({"requestId": "r1", "driverTranscript": "…", "toolName": "Write", "input": {}}),
        ),
        timed(
            0,
            1,
            json!({"requestId": "r2", "driverTranscript": "…", "toolName": "Edit", "input": {}}),
        ),
        timed(
            0,
            2,
            json!({"requestId": "r3", "driverTranscript": "…", "toolName": "MultiEdit", "input": {}}),
        ),
        timed(
            0,
            5,
            tool(
                "mcp__navigator__navigatorDeny",
                json!({"requestId": "r2", "comment": "no"}),
            ),
        ),
        timed(
            0,
            6,
            tool(
                "navigatorApprove",
                json!({"requestId": "r1", "comment": "ok"}),
            ),
        ),
        timed(
            1,
            0,
            json!({"type": "request_review", "context": "auth flow"}),
        ),
        timed(
            1,
            30,
            tool(
                "navigatorCodeReview",
                json!({"comment": "missing tests", "pass": false}),
            ),
        ),
        timed(2, 0, tool("driverRequestReview", json!({}))),
        timed(
            2,
            10,
            json!({"type": "code_review", "pass": true, "comment": "good"}),
        ),
        timed(3, 0, tool("navigatorApprove", json!({"comment": "stray"}))),
    ]);
    let boards = b.boards(at(0, 16));
    let statuses: Vec<(Option<&str>, RequestStatus)> = boards
        .pair_claude
        .permissions
        .iter()
        .map(|p| (p.request.request_id.as_deref(), p.status))
        .collect();
    // r3 asked at 0:02 with a 15 s timeout: pending at 0:16, timed out at 0:17.
    assert_eq!(
        statuses,
        [
            (Some("r1"), RequestStatus::Approved),
            (Some("r2"), RequestStatus::Denied),
            (Some("r3"), RequestStatus::Pending)
        ]
    );
    assert_eq!(
        b.pair_claude
            .permission_status(&b.pair_claude.permissions[2], at(0, 17)),
        RequestStatus::TimedOut
    );
    assert_eq!(
        b.pair_claude
            .permission_status(&b.pair_claude.permissions[2], at(0, 16)),
        RequestStatus::Pending
    );
    let reviews: Vec<RequestStatus> = b.pair_claude.reviews.iter().map(|r| r.status).collect();
    assert_eq!(reviews, [RequestStatus::Fail, RequestStatus::Pass]);
    // r2 and r3 were asked while r1 was pending (the permission flow is synchronous); r3 timed
    // out at 0:17, so the approval at 3:00 (no pending review to take it) is r3's late
    // decision, and r3 stays timed out.
    let found: Vec<(usize, &str)> = b
        .pair_claude
        .violations
        .iter()
        .map(|v| (v.entry, v.code.as_str()))
        .collect();
    assert_eq!(
        found,
        [(1, "out_of_order"), (2, "out_of_order"), (2, "late")]
    );
    // With upstream's 45 s the same request is still pending at 0:17.
    let envelopes = read_log(
        &serde_json::to_vec(&[timed(
            0,
            2,
            json!({"requestId": "r3", "driverTranscript": "…", "toolName": "Write", "input": {}}),
        )])
        .unwrap(),
        &Options::default(),
    )
    .unwrap();
    let slow = Book::replay(
        &envelopes,
        PairClaudeConfig {
            permission_timeout_ms: 45_000,
            ..PairClaudeConfig::default()
        },
    );
    assert_eq!(
        slow.pair_claude
            .permission_status(&slow.pair_claude.permissions[0], at(0, 17)),
        RequestStatus::Pending
    );
}

#[test]
fn a_late_decision_is_still_a_timeout() {
    let b = book(&[
        timed(
            0,
            0,
            json!({"requestId": "r1", "driverTranscript": "…", "toolName": "Write", "input": {}}),
        ),
        timed(
            0,
            20,
            json!({"allowed": true, "updatedInput": {}, "requestId": "r1"}),
        ),
    ]);
    assert_eq!(
        b.pair_claude
            .permission_status(&b.pair_claude.permissions[0], at(5, 0)),
        RequestStatus::TimedOut
    );
    // The late answer leaves the request timed out and is the navigator's lateness.
    assert_eq!(b.pair_claude.violations.len(), 1);
    assert_eq!(b.pair_claude.violations[0].code.as_str(), "late");
    assert_eq!(b.pair_claude.violations[0].entry, 0);
}

#[test]
fn acknowledgement_debt_per_agent() {
    let mail = |id: u64, minute: i64, to: &[&str], ack: bool, acked: bool| {
        let mut r = json!({"id": id, "from": "lead", "to": to, "subject": "note", "body_md": "please ack",
            "created_ts": at(minute, 0).to_rfc3339(), "ack_required": ack});
        if acked {
            r["ack_ts"] = json!(at(minute + 1, 0).to_rfc3339());
        }
        r
    };
    let envelopes = read_log(
        &serde_json::to_vec(&[
            mail(1, 0, &["a", "b"], true, false),
            mail(2, 5, &["a"], true, false),
            mail(3, 6, &["b"], true, true),
            mail(4, 7, &["c"], false, false),
        ])
        .unwrap(),
        &Options::default(),
    )
    .unwrap();
    let b = Book::replay(&envelopes, PairClaudeConfig::default());
    let debts = b.boards(at(10, 0)).ack_debt;
    let got: Vec<(&str, usize, Option<i64>)> = debts
        .iter()
        .map(|d| (d.agent.as_str(), d.waiting, d.oldest_age_ms))
        .collect();
    assert_eq!(got, [("a", 2, Some(600_000)), ("b", 1, Some(600_000))]);
    assert_eq!(debts[0].messages, ["1", "2"]);
}
