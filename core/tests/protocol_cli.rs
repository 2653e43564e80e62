//! The `validate` and `schema` commands: output shape and exit codes.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn fixture(rel: &str) -> String {
    format!(
        "{}/tests/fixtures/protocol/{rel}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.unwrap_or("").to_owned();
    // Written from another thread: `--jsonl` streams, writing reports while it reads, so a
    // large input would fill both pipes. The command may also exit before reading stdin (bad
    // arguments, unreadable file).
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

fn jsonl_reports(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn validate_exit_codes_and_report() {
    let ok = run(
        &["validate", &fixture("valid/pair/01_PAIR_INIT.json")],
        None,
    );
    assert_eq!(ok.status.code(), Some(0));
    let r = json(&ok);
    assert_eq!(r["valid"], true);
    assert_eq!(r["family"], "pair");
    assert_eq!(r["message_type"], "PAIR_INIT");
    assert_eq!(r["version"], "3.1");
    assert_eq!(String::from_utf8_lossy(&ok.stdout).lines().count(), 1);

    let lenient_only = fixture("lenient/agent-po/01_PROGRESS_UPDATE.json");
    let bad = run(&["validate", &lenient_only], None);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(json(&bad)["issues"][0]["path"], "/timestamp");
    let len = run(&["validate", "--lenient", &lenient_only], None);
    assert_eq!(len.status.code(), Some(0));
    assert_eq!(json(&len)["issues"][0]["severity"], "warning");

    let stdin = run(&["validate", "-"], Some(r#"{"hello": "world"}"#));
    assert_eq!(stdin.status.code(), Some(1));
    assert_eq!(json(&stdin)["issues"][0]["code"], "unknown_family");

    let hinted = run(
        &["validate", "--family", "pair-claude", "-"],
        Some(r#"{"type":"task_assignment","name":"navigatorApprove","arguments":{"comment":"x"}}"#),
    );
    assert_eq!(hinted.status.code(), Some(0));
}

#[test]
fn unusable_input_exits_2_with_one_line_reason() {
    let not_json = run(&["validate", "-"], Some("{nope"));
    assert_eq!(not_json.status.code(), Some(2));
    assert!(not_json.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&not_json.stderr)
            .trim()
            .lines()
            .count(),
        1
    );

    let missing = run(&["validate", "/nonexistent/message.json"], None);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr)
            .trim()
            .lines()
            .count(),
        1
    );

    let family = run(&["validate", "--family", "smtp", "-"], Some("{}"));
    assert_eq!(family.status.code(), Some(2));
}

#[test]
fn jsonl_reports_one_line_per_message() {
    let input = concat!(
        r#"{"type":"request_review"}"#,
        "\n\n",
        "not json\n",
        r#"{"allowed": false, "reason": "no"}"#,
        "\n"
    );
    let out = run(&["validate", "--jsonl", "-"], Some(input));
    assert_eq!(out.status.code(), Some(1));
    let lines = jsonl_reports(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["issues"][0]["code"], "not_json");
    assert_eq!(lines[2]["message_type"], "PermissionResult@denied");

    let all_ok = run(
        &["validate", "--jsonl", "-"],
        Some("{\"type\":\"request_review\"}\n"),
    );
    assert_eq!(all_ok.status.code(), Some(0));
}

#[test]
fn schema_prints_all_or_one() {
    let all = run(&["schema"], None);
    assert_eq!(all.status.code(), Some(0));
    let v = json(&all);
    assert!(v["agent-po/PROGRESS_UPDATE"]["properties"]["progress_percent"]["maximum"] == 100);
    assert!(v
        .as_object()
        .unwrap()
        .contains_key("pair-claude/navigatorApprove"));
    let one = run(&["schema", "droid/task_assignment"], None);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(json(&one)["title"], "droid/task_assignment");
    let any = run(&["schema", "--any"], None);
    assert!(json(&any)["oneOf"].is_array());
    assert_eq!(run(&["schema", "droid/nope"], None).status.code(), Some(2));
}

#[test]
fn help_on_every_protocol_command() {
    for cmd in [["validate", "--help"], ["schema", "--help"]] {
        let out = run(&cmd, None);
        assert_eq!(out.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

#[test]
fn jsonl_reports_carry_their_input_line() {
    // Line 1 valid, 2 blank, 3 not JSON, 4 whitespace only, 5 a message, 6 broken JSON.
    let input = concat!(
        r#"{"type":"request_review"}"#,
        "\n\n",
        "not json\n",
        "  \t \n",
        r#"{"allowed": false, "reason": "no"}"#,
        "\r\n",
        r#"{"allowed": tru}"#,
        "\n"
    );
    let out = run(&["validate", "--jsonl", "-"], Some(input));
    assert_eq!(out.status.code(), Some(1));
    let reports = jsonl_reports(&out);
    let lines: Vec<&Value> = reports.iter().map(|r| &r["line"]).collect();
    assert_eq!(lines, [1, 3, 5, 6]);
    // The member comes first, then the usual report.
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(first.starts_with(r#"{"line":1,"valid":true,"#), "{first}");
    assert_eq!(reports[2]["message_type"], "PermissionResult@denied");
    // Parse errors name the real input line, not the line within the one-line slice.
    let not_json = reports[1]["issues"][0]["message"].as_str().unwrap();
    assert!(not_json.contains("at line 3 column"), "{not_json}");
    let broken = reports[3]["issues"][0]["message"].as_str().unwrap();
    assert_eq!(reports[3]["issues"][0]["code"], "not_json");
    assert!(broken.contains("at line 6 column"), "{broken}");
}

#[test]
fn an_empty_jsonl_input_is_unusable() {
    for input in ["", "\n", "  \n\t\n\r\n"] {
        let out = run(&["validate", "--jsonl", "-"], Some(input));
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("no JSON line"), "{stderr}");
    }
}

#[test]
fn input_that_is_not_json_is_unusable_but_a_carried_body_that_is_not_is_invalid() {
    let broken = run(&["validate", "-"], Some("{\"type\": \"request_review\""));
    assert_eq!(broken.status.code(), Some(2));
    let err = String::from_utf8_lossy(&broken.stderr);
    assert!(
        err.starts_with(
            "switchboard validate: stdin is not JSON: EOF while parsing an object at line 1"
        ),
        "{err}"
    );
    assert!(broken.stdout.is_empty());
    let row = r#"{"subject": "x", "body_md": "{\"type\": "}"#;
    let carried = run(&["validate", "-"], Some(row));
    assert_eq!(carried.status.code(), Some(1));
    let r = json(&carried);
    assert_eq!(r["issues"][0]["code"], "not_json");
    assert_eq!(r["issues"][0]["path"], "/body_md");
}

#[test]
fn jsonl_streams_long_inputs_line_by_line() {
    // More lines than any buffer holds, a long line, CRLF endings and blank lines.
    let msg = r#"{"type": "request_review", "context": "PR 12"}"#;
    let long = format!(
        r#"{{"type": "request_review", "context": "{}"}}"#,
        "x".repeat(200_000)
    );
    let mut input = String::new();
    for i in 0..5_000 {
        input.push_str(if i == 2_500 { &long } else { msg });
        input.push_str(if i % 7 == 0 { "\r\n\n" } else { "\n" });
    }
    let out = run(&["validate", "--jsonl", "-"], Some(&input));
    assert_eq!(out.status.code(), Some(0));
    let reports = jsonl_reports(&out);
    assert_eq!(reports.len(), 5_000);
    let expected: Vec<usize> = protocol_lines(&input);
    let got: Vec<usize> = reports
        .iter()
        .map(|r| r["line"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(got, expected);
    assert!(reports.iter().all(|r| r["valid"] == true));
}

/// The 1-based numbers of the non-blank lines of `text`.
fn protocol_lines(text: &str) -> Vec<usize> {
    text.split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i + 1)
        .collect()
}
