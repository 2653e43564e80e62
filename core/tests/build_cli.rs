//! The `build` and `error-reply` commands: output, the edge's clock and random source, and
//! exit codes.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Output, Stdio};
use switchboard_core::protocol::{validate, Options};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

const STATUS: &str =
    r#"{"task_id":"bd-47","update_type":"progress","status_summary":"70%","blockers":[]}"#;

#[test]
fn build_fills_the_derived_members_reproducibly() {
    let args = [
        "build",
        "droid/status_update",
        "--sender",
        "database-engineer",
        "--now",
        "2025-12-25T16:00:00Z",
        "--random",
        "423e4567-e89b-12d3-a456-426614174003",
    ];
    let out = run(&args, STATUS);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let m = json(&out);
    assert_eq!(
        m,
        json!({"version": "1.0.0", "timestamp": "2025-12-25T16:00:00Z",
            "sender_id": "database-engineer",
            "message_id": "msg-423e4567-e89b-42d3-a456-426614174003", "type": "status_update",
            "task_id": "bd-47", "update_type": "progress", "status_summary": "70%", "blockers": []})
    );
    // The common fields come first, as the seed writes them.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.find("\"version\"") < text.find("\"task_id\""));
    assert_eq!(run(&args, STATUS).stdout, out.stdout, "reproducible");
}

#[test]
fn build_reads_the_clock_and_the_random_source_at_the_edge() {
    let a = json(&run(
        &["build", "droid/status_update", "--sender", "db"],
        STATUS,
    ));
    let b = json(&run(
        &["build", "droid/status_update", "--sender", "db"],
        STATUS,
    ));
    assert!(validate(&a, &Options::default()).valid);
    assert_ne!(
        a["message_id"], b["message_id"],
        "fresh randomness each run"
    );
    assert!(a["timestamp"].as_str().unwrap().starts_with("20"));
    // A member the fields hold is not derived again.
    let mut fields: Value = serde_json::from_str(STATUS).unwrap();
    fields["timestamp"] = json!("2025-12-25T16:00:00Z");
    let c = json(&run(
        &["build", "droid/status_update", "--sender", "db"],
        &fields.to_string(),
    ));
    assert_eq!(c["timestamp"], "2025-12-25T16:00:00Z");
}

#[test]
fn build_refuses_with_a_structured_error() {
    let out = run(
        &[
            "build",
            "agent-po/PROGRESS_UPDATE",
            "--agent-id",
            "Bob",
            "--task-id",
            "TASK-1",
        ],
        r#"{"status":"implementing","progress_percent":5,"current_activity":"x"}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let e = json(&out);
    assert_eq!(e["error"], "invalid");
    assert_eq!(e["report"]["issues"][0]["path"], "/agent_id");
    assert!(String::from_utf8_lossy(&out.stderr).contains("agent_id"));
    let out = run(&["build", "droid/nope"], "{}");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["error"], "unknown_key");
    let out = run(
        &["build", "droid/status_update", "--now", "yesterday"],
        STATUS,
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["build", "droid/status_update", "--random", "xyz"], STATUS);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["build", "droid/status_update"], "{ not json");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["build", "--list"], "");
    assert!(String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|k| k == "pair/CONTRACT_FINAL"));
}

#[test]
fn error_reply_answers_in_the_messages_protocol() {
    let bad = json!({"version": "2.0.0", "timestamp": "2025-12-25T12:00:00Z", "sender_id": "o",
        "message_id": "msg-123e4567-e89b-12d3-a456-426614174000", "type": "task_assignment",
        "task_id": "bd-42", "description": "d", "specification": {"acceptance_criteria": ["a"]},
        "file_patterns": ["x"], "priority": "high", "priority_value": 1});
    let args = [
        "error-reply",
        "--sender",
        "worker",
        "--now",
        "2025-12-25T12:01:00Z",
        "--random",
        "00000000000000000000000000000000",
    ];
    let out = run(&args, &bad.to_string());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let r = json(&out);
    assert_eq!(r["family"], "droid");
    assert_eq!(r["reject"]["error"], "version_mismatch");
    assert_eq!(r["reject"]["message_id"], bad["message_id"]);
    assert_eq!(r["error_report"]["error"]["code"], "VERSION_MISMATCH");
    assert!(validate(&r["error_report"], &Options::default()).valid);
    // Without a sender the droid reply cannot be addressed.
    let out = run(&["error-reply"], &bad.to_string());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["error"], "build");
    // Agent-PO, carried in an Agent Mail row.
    let report = json!({"message_type": "COMPLETION_REPORT", "agent_id": "agent-1",
        "task_id": "TASK-1", "timestamp": "2026-01-01T00:00:00Z"});
    let row = json!({"id": 1, "subject": "report", "body_md": report.to_string()});
    let out = run(&["error-reply", "--compact"], &row.to_string());
    let r = json(&out);
    assert_eq!(r["family"], "agent-po");
    assert_eq!(
        r["error"]["error"]["original_message_type"],
        "COMPLETION_REPORT"
    );
    // A valid message has nothing to answer; Pair defines no reply.
    let valid: Value = json!({"to": "bob", "subject": "PAIR_INIT", "body": {"protocol_version": "3.1",
        "task": "t", "my_role": "PLANNER", "your_role": "BUILDER", "status": "INITIALIZED"}});
    let out = run(&["error-reply"], &valid.to_string());
    assert_eq!(
        (out.status.code(), json(&out)["error"].clone()),
        (Some(1), json!("valid"))
    );
    let mut pair = valid.clone();
    pair["body"]["status"] = json!("NOPE");
    let out = run(&["error-reply"], &pair.to_string());
    assert_eq!(json(&out)["error"], "no_error_reply");
    let out = run(&["error-reply", "--family", "klingon"], "{}");
    assert_eq!(out.status.code(), Some(2));
}
