//! `switchboard pane` / `switchboard pane-smoke`: output, exit codes, stderr lines.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const GOLDEN: &str = include_str!("fixtures/pane-smoke/transcript.json");

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pane-smoke")
        .join(name)
}

fn switchboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn pane(extra: &[&str]) -> Output {
    let inbox = fixture("inbox.json");
    let outbox = fixture("outbox_after_reply.json");
    let contacts = fixture("contacts.json");
    let mut args = vec![
        "pane",
        "--inbox",
        inbox.to_str().expect("utf8"),
        "--outbox",
        outbox.to_str().expect("utf8"),
        "--contacts",
        contacts.to_str().expect("utf8"),
    ];
    args.extend_from_slice(extra);
    switchboard(&args)
}

fn one_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "stderr: {text}");
    text
}

#[test]
fn pane_smoke_prints_the_golden_transcript() {
    let out = switchboard(&["pane-smoke"]);
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        printed,
        serde_json::from_str::<Value>(GOLDEN).expect("JSON")
    );
}

#[test]
fn pane_prints_the_reply_step_snapshot() {
    let out = pane(&[
        "--thread",
        "coord-2026-02-27-blackelk",
        "--mode",
        "thread_only",
        "--acked",
        "2449",
    ]);
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let golden: Value = serde_json::from_str(GOLDEN).expect("JSON");
    assert_eq!(printed, golden["steps"][2]["snapshot"]);
}

#[test]
fn thread_only_without_thread_exits_1() {
    let out = pane(&["--mode", "thread_only"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(one_line(&out.stderr).contains("thread_only filter requires active_thread"));
    assert!(out.stdout.is_empty());
}

#[test]
fn thread_only_with_a_blank_thread_exits_1() {
    for blank in ["", "  "] {
        let out = pane(&["--mode", "thread_only", "--thread", blank]);
        assert_eq!(out.status.code(), Some(1), "{blank:?}");
        assert!(one_line(&out.stderr).contains("thread_only filter requires active_thread"));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn unknown_mode_exits_1() {
    let out = pane(&["--mode", "sideways"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(one_line(&out.stderr).contains("unsupported thread_filter_mode sideways"));
}

#[test]
fn unreadable_file_exits_2() {
    let out = switchboard(&[
        "pane",
        "--inbox",
        "/nonexistent/inbox.json",
        "--outbox",
        "x",
        "--contacts",
        "y",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line(&out.stderr).contains("/nonexistent/inbox.json"));
}

#[test]
fn unparsable_stream_is_not_an_error() {
    let dir = std::env::temp_dir().join(format!("switchboard-pane-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("contacts.json");
    std::fs::write(&bad, "{not-json}").expect("write");
    let inbox = fixture("inbox.json");
    let outbox = fixture("outbox_before_reply.json");
    let out = switchboard(&[
        "pane",
        "--inbox",
        inbox.to_str().expect("utf8"),
        "--outbox",
        outbox.to_str().expect("utf8"),
        "--contacts",
        bad.to_str().expect("utf8"),
        "--compact",
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        printed["parse_errors"],
        serde_json::json!([
            "parse_failure: contacts JSON: key must be a string at line 1 column 2"
        ])
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}
