//! The `audit` and `fingerprint` commands: output shape, exit codes, stdin, closed stdout.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixture(rel: &str) -> String {
    format!("{}/tests/fixtures/audit/{rel}", env!("CARGO_MANIFEST_DIR"))
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
    // The command may exit before reading stdin.
    let _ = pipe.write_all(stdin.unwrap_or("").as_bytes());
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

fn one_line_reason(out: &Output) {
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim().lines().count(),
        1,
        "{out:?}"
    );
}

/// A scratch directory under the target dir, removed first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn audit_exit_codes_and_report() {
    let python = fixture("contracts/python");
    let clean = run(
        &[
            "audit",
            "--contract",
            &python,
            "--diff",
            &fixture("cases/py-clean.diff"),
        ],
        None,
    );
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");
    let r = json(&clean);
    assert_eq!(r["status"], "PASS");
    assert_eq!(r["severity"], "MINOR");
    assert_eq!(r["issues"], Value::Array(vec![]));

    let hard = run(
        &[
            "audit",
            "--contract",
            &python,
            "--diff",
            &fixture("cases/py-hardcoded.diff"),
            "--compact",
        ],
        None,
    );
    assert_eq!(hard.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&hard.stdout).lines().count(), 1);
    let r = json(&hard);
    assert_eq!(r["status"], "FAIL");
    assert_eq!(r["scheming_detected"], true);
    assert_eq!(r["issues"][0]["location"], "app/pricing.py:7");
    assert_eq!(r["issues"][0]["code"], "SCHEMING_DETECTED");

    let diff = std::fs::read_to_string(fixture("cases/py-dependency.diff")).unwrap();
    let stdin = run(
        &["audit", "--contract", &python, "--diff", "-"],
        Some(&diff),
    );
    assert_eq!(stdin.status.code(), Some(1));
    assert_eq!(json(&stdin)["issues"][0]["code"], "DEPENDENCY_VIOLATION");
    let approved = run(
        &[
            "audit",
            "--contract",
            &python,
            "--diff",
            "-",
            "--allow-dependency",
            "pyjwt",
            "--allow-dependency",
            "httpx",
        ],
        Some(&diff),
    );
    assert_eq!(approved.status.code(), Some(0));
}

#[test]
fn audit_unusable_input_exits_2() {
    let python = fixture("contracts/python");
    one_line_reason(&run(
        &["audit", "--contract", &python, "--diff", "-"],
        Some("this is not a diff\n"),
    ));
    one_line_reason(&run(
        &[
            "audit",
            "--contract",
            &python,
            "--diff",
            "/nonexistent.diff",
        ],
        None,
    ));
    one_line_reason(&run(
        &[
            "audit",
            "--contract",
            "/nonexistent-contract",
            "--diff",
            "-",
        ],
        Some(""),
    ));
    let bad = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n";
    one_line_reason(&run(
        &["audit", "--contract", &python, "--diff", "-"],
        Some(bad),
    ));
    assert_eq!(
        run(&["audit", "--diff", "-"], Some("")).status.code(),
        Some(2)
    );
}

#[test]
fn fingerprint_prints_and_verifies() {
    let dir = scratch("fingerprint-cli");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(dir.join("tests/test_a.py"), "assert a() == 1\n").unwrap();
    std::fs::write(dir.join("spec.md"), "# spec\n").unwrap();
    let dir_s = dir.to_str().unwrap();
    let printed = run(&["fingerprint", dir_s], None);
    assert_eq!(printed.status.code(), Some(0));
    let fp = json(&printed);
    let keys: Vec<&String> = fp.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["spec.md", "tests/test_a.py"]);
    assert!(fp["spec.md"].as_str().unwrap().starts_with("sha256:"));

    let saved = scratch("fingerprint-cli-saved").join("contract.sha256.json");
    std::fs::write(&saved, &printed.stdout).unwrap();
    let saved_s = saved.to_str().unwrap();
    let intact = run(&["fingerprint", dir_s, "--verify", saved_s], None);
    assert_eq!(intact.status.code(), Some(0));
    assert_eq!(json(&intact)["intact"], true);

    std::fs::write(dir.join("tests/test_a.py"), "assert True\n").unwrap();
    std::fs::write(dir.join("tests/conftest.py"), "import pytest\n").unwrap();
    let tampered = run(
        &["fingerprint", dir_s, "--verify", "-", "--compact"],
        Some(&String::from_utf8_lossy(&printed.stdout)),
    );
    assert_eq!(tampered.status.code(), Some(1));
    let v = json(&tampered);
    assert_eq!(v["intact"], false);
    let named: Vec<(&str, &str)> = v["tampered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["path"].as_str().unwrap(), t["change"].as_str().unwrap()))
        .collect();
    assert_eq!(
        named,
        [
            ("tests/conftest.py", "added"),
            ("tests/test_a.py", "modified")
        ]
    );
    assert!(v["tampered"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["code"] == "CONTRACT_TAMPERED"));
}

#[test]
fn fingerprint_unusable_input_exits_2() {
    let dir = fixture("contracts/rust");
    one_line_reason(&run(&["fingerprint", "/nonexistent-contract"], None));
    one_line_reason(&run(
        &["fingerprint", &dir, "--verify", "-"],
        Some("{not json"),
    ));
    one_line_reason(&run(
        &["fingerprint", &dir, "--verify", "-"],
        Some(r#"{"a": "md5:00"}"#),
    ));
    one_line_reason(&run(
        &["fingerprint", &dir, "--verify", "/nonexistent.json"],
        None,
    ));
}

#[test]
fn help_on_both_commands() {
    for cmd in ["audit", "fingerprint"] {
        let out = run(&[cmd, "--help"], None);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("Usage") && text.contains("Exit status"),
            "{text}"
        );
    }
}

#[test]
fn audit_out_writes_the_report_and_the_diff_side_by_side() {
    let out_dir = scratch("audit-out").join("tmp/pair_1234567890_audit");
    let diff = fixture("cases/py-skipped-test.diff");
    let out = run(
        &[
            "audit",
            "--contract",
            &fixture("contracts/python"),
            "--diff",
            &diff,
            "--out",
            out_dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let printed = json(&out);
    let written: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("audit_report.json")).unwrap()).unwrap();
    assert_eq!(printed, written);
    assert_eq!(
        std::fs::read(out_dir.join("audit.diff")).unwrap(),
        std::fs::read(&diff).unwrap()
    );
    // An --out path that cannot be a directory: exit 74 with one line on stderr.
    let file = scratch("audit-out-file").join("plain");
    std::fs::write(&file, "x").unwrap();
    let out = run(
        &[
            "audit",
            "--contract",
            &fixture("contracts/python"),
            "--diff",
            &diff,
            "--out",
            file.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(74), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim().lines().count(),
        1
    );
}
