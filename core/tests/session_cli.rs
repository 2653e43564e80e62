//! `switchboard session`, `gate` and `tasks`: output, exit codes, unusable input, `--help`.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sessions")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit before reading all of stdin (a bad flag): a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn session_reports_due_actions_at_now_and_exits_1_on_violations() {
    // CONTRACT_FINAL at 09:20: the builder's response is due at 09:50.
    let log = std::fs::read_to_string(fixture("pattern1_happy_path.jsonl")).unwrap();
    let first_three: String = log.lines().take(3).map(|l| format!("{l}\n")).collect();
    let out = run(
        &["session", "-", "--now", "2026-03-02T09:50:01Z", "--compact"],
        &first_three,
    );
    assert_eq!(out.status.code(), Some(0));
    let s = &json(&out)[0];
    assert_eq!(s["phase"], "CONTRACT_FINALIZED");
    assert_eq!(s["due"][0]["action"], "TIMEOUT_WARNING");
    assert_eq!(s["due"][0]["to"], "GreenCastle");
    assert_eq!(s["due"][0]["at"], "2026-03-02T09:50:00Z");
    assert_eq!(s["next_deadline"], "2026-03-02T10:00:00Z");
    // The same log with the builder finalizing: wrong role, exit 1.
    let swapped = first_three.replacen(
        "\"from\": \"BlueLake\", \"to\": [\"GreenCastle\"], \"subject\": \"CONTRACT_FINAL\"",
        "\"from\": \"GreenCastle\", \"to\": [\"BlueLake\"], \"subject\": \"CONTRACT_FINAL\"",
        1,
    );
    assert_ne!(swapped, first_three);
    let out = run(&["session", "-", "--now", "2026-03-02T09:50:01Z"], &swapped);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)[0]["violations"][0]["code"], "wrong_role");
}

#[test]
fn session_verifies_the_contract_against_files() {
    let dir = std::env::temp_dir().join(format!("sb-contract-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    std::fs::write(dir.join("tmp/pair_1767000000_tests.py"), "assert changed\n").unwrap();
    let out = run(
        &[
            "session",
            &fixture("pattern1_happy_path.jsonl"),
            "--now",
            "2026-03-09T00:00:00Z",
            "--contract",
            dir.to_str().unwrap(),
        ],
        "",
    );
    let s = &json(&out)[0];
    assert_eq!(s["integrity"]["status"], "tampered");
    assert_eq!(s["integrity"]["files"][0], "tmp/pair_1767000000_tests.py");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn unusable_input_exits_2_with_a_reason() {
    for (args, stdin, needle) in [
        (vec!["session", "-"], "", "holds no message"),
        (vec!["session", "-"], "[{\"a\": ", "not a JSON array"),
        (
            vec!["session", "-", "--now", "yesterday"],
            "{}",
            "not an RFC 3339 time",
        ),
        (vec!["session", "/nonexistent/log.json"], "", "cannot read"),
        (vec!["tasks", "-"], "  \n", "holds no message"),
        (
            vec!["gate", "go", "--task", "-", "--plan", "-"],
            "{}",
            "task definition",
        ),
    ] {
        let out = run(&args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        // The reason is on the first line (clap adds a hint line after its own errors).
        assert!(
            stderr.lines().next().unwrap_or("").contains(needle),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn gates_exit_0_on_go_and_1_on_fix() {
    let (task, plan, report) = (
        fixture("task_TASK-042.json"),
        fixture("plan_TASK-042.json"),
        fixture("report_TASK-042.json"),
    );
    let out = run(
        &[
            "gate",
            "go",
            "--task",
            &task,
            "--plan",
            &plan,
            "--now",
            "2026-01-15T10:01:00Z",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["directive"]["message_type"], "GO_DIRECTIVE");
    let out = run(
        &[
            "gate",
            "next",
            "--task",
            &task,
            "--report",
            &report,
            "--authorized",
            "src/pages/LoginPage.tsx",
            "--now",
            "2026-01-15T10:41:00Z",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["verdict"], "FIX");
    let kinds: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["unmet_criterion", "test_failure", "scope_violation"]
    );
    // After two fixes, the third failure blocks the task.
    let out = run(
        &[
            "gate",
            "next",
            "--task",
            &task,
            "--report",
            &report,
            "--fixes",
            "2",
            "--now",
            "2026-01-15T10:41:00Z",
        ],
        "",
    );
    assert_eq!(
        json(&out)["directive"]["message_type"],
        "BLOCKED_NOTIFICATION"
    );
    // A plan for another task, or an invalid plan, is unusable.
    let other = std::fs::read_to_string(&plan)
        .unwrap()
        .replace("TASK-042", "TASK-043");
    let out = run(&["gate", "go", "--task", &task, "--plan", "-"], &other);
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &["gate", "go", "--task", &task, "--plan", "-"],
        "{\"message_type\": \"PLAN_SUBMISSION\"}",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a valid message"));
}

#[test]
fn tasks_prints_the_boards() {
    let out = run(
        &[
            "tasks",
            &fixture("pattern1_happy_path.jsonl"),
            "--now",
            "2026-03-09T00:00:00Z",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    for key in ["agent_po", "droid", "pair_claude", "ack_debt"] {
        assert!(v.get(key).is_some(), "{key}");
    }
}

#[test]
fn every_new_command_has_help_with_exit_codes() {
    for cmd in [
        vec!["session", "--help"],
        vec!["tasks", "--help"],
        vec!["gate", "--help"],
        vec!["gate", "go", "--help"],
        vec!["gate", "next", "--help"],
    ] {
        let out = run(&cmd, "");
        assert_eq!(out.status.code(), Some(0), "{cmd:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage"), "{cmd:?}");
        if cmd.len() == 2 && cmd[0] != "gate" || cmd[0] == "gate" && cmd.len() == 2 {
            assert!(text.contains("Exit status"), "{cmd:?}: {text}");
        }
    }
}
