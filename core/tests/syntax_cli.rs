//! TEST_SYNTAX_ERROR through the CLI: `fingerprint`, `audit`, `session --contract` and
//! `conformance --contract` report a contract test file that does not parse, with file:line.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A scratch directory holding `files`.
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sb-syntax-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let at = dir.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }
    dir
}

const BROKEN_PY: &str = "import pytest\n\n\ndef test_price()\n    assert price(3) == 30\n";

#[test]
fn fingerprint_prints_the_fingerprints_and_names_the_broken_file() {
    let dir = tree(
        "fp",
        &[
            ("spec.md", "# spec (: not code\n"),
            ("tests/test_ok.py", "def test_ok():\n    assert True\n"),
            ("tests/test_price.py", BROKEN_PY),
            (
                "tests/cart.test.ts",
                "it('adds', () => {\n  expect(add(1, 2).toBe(3);\n});\n",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let out = run(&["fingerprint", d]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    // The fingerprints are printed all the same.
    let printed = json(&out);
    assert_eq!(printed.as_object().unwrap().len(), 4);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].starts_with("switchboard fingerprint: TEST_SYNTAX_ERROR tests/cart.test.ts:2:"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("switchboard fingerprint: TEST_SYNTAX_ERROR tests/test_price.py:4:"),
        "{stderr}"
    );
    // --verify: intact, but the output names the broken files and the exit status is 1.
    let saved = dir.join("saved.json");
    std::fs::write(&saved, &out.stdout).unwrap();
    let verified = run(&["fingerprint", d, "--verify", saved.to_str().unwrap()]);
    // saved.json is now under DIR too: an added file.
    let v = json(&verified);
    assert_eq!(verified.status.code(), Some(1));
    assert_eq!(v["syntax_errors"][1]["path"], "tests/test_price.py");
    assert_eq!(v["syntax_errors"][1]["line"], 4);
    assert_eq!(v["syntax_errors"][1]["language"], "python");
    // Fixed: exit 0, no syntax_errors member.
    std::fs::remove_file(&saved).unwrap();
    std::fs::write(
        dir.join("tests/test_price.py"),
        "def test_price():\n    pass\n",
    )
    .unwrap();
    std::fs::write(dir.join("tests/cart.test.ts"), "it('adds', () => {});\n").unwrap();
    let out = run(&["fingerprint", d]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty());
    std::fs::write(&saved, &out.stdout).unwrap();
    let v = run(&["fingerprint", d, "--verify", saved.to_str().unwrap()]);
    assert!(json(&v).get("syntax_errors").is_none());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn audit_reports_the_contract_test_file_that_does_not_parse() {
    let contract = fixtures().join("audit/contracts/python");
    let clean = fixtures().join("audit/cases/py-clean.diff");
    let out = run(&[
        "audit",
        "--contract",
        contract.to_str().unwrap(),
        "--diff",
        clean.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let notes = json(&out)["notes"].to_string();
    assert!(
        notes.contains("syntax: 1 contract test file(s) parsed, 0 with errors"),
        "{notes}"
    );

    let dir = tree("audit", &[]);
    for entry in ["requirements.txt", "spec.md", "tests/test_pricing.py"] {
        let to = dir.join(entry);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(contract.join(entry), to).unwrap();
    }
    let test = dir.join("tests/test_pricing.py");
    let text = std::fs::read_to_string(&test).unwrap();
    let broken = text.replacen("):\n", ")\n", 1);
    let line = 1 + text[..text.find("):\n").unwrap()].matches('\n').count();
    std::fs::write(&test, broken).unwrap();
    let out = run(&[
        "audit",
        "--contract",
        dir.to_str().unwrap(),
        "--diff",
        clean.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let r = json(&out);
    assert_eq!(r["status"], "FAIL");
    assert_eq!(r["severity"], "MAJOR");
    assert_eq!(r["scheming_detected"], false);
    let issue = &r["issues"][0];
    assert_eq!(issue["code"], "TEST_SYNTAX_ERROR");
    assert_eq!(issue["pattern"], "test-syntax-error");
    assert_eq!(issue["type"], "quality");
    assert_eq!(issue["side"], "old");
    assert_eq!(issue["location"], format!("tests/test_pricing.py:{line}"));
    // The report still validates as pair/AUDIT_REPORT.
    let report = dir.join("report.json");
    std::fs::write(&report, &out.stdout).unwrap();
    let validated = run(&["validate", report.to_str().unwrap(), "--family", "pair"]);
    assert_eq!(validated.status.code(), Some(0), "{validated:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn session_and_conformance_put_the_error_on_the_planners_contract() {
    let log = fixtures().join("sessions/pattern1_happy_path.jsonl");
    let log = log.to_str().unwrap();
    let dir = tree("session", &[("tmp/pair_1767000000_tests.py", BROKEN_PY)]);
    let d = dir.to_str().unwrap();
    let now = "2026-03-09T00:00:00Z";
    let out = run(&["session", log, "--now", now, "--contract", d]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let s = &json(&out)[0];
    let v: Vec<&Value> = s["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["code"] == "test_syntax_error")
        .collect();
    assert_eq!(v.len(), 1, "{s}");
    assert_eq!(v[0]["file"], "tmp/pair_1767000000_tests.py");
    assert_eq!(v[0]["message_type"], "CONTRACT_FINAL");
    let message = v[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("TEST_SYNTAX_ERROR tmp/pair_1767000000_tests.py:4:"),
        "{message}"
    );

    let status = |out: &Output, agent: &str| {
        let r = json(out);
        let a = r["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["agent"] == agent)
            .unwrap()
            .clone();
        a["families"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["rules"].as_array().unwrap().clone())
            .find(|c| c["id"] == "000.error.test-syntax-error")
            .unwrap()["status"]
            .clone()
    };
    let broken = run(&["conformance", log, "--now", now, "--contract", d]);
    assert_eq!(broken.status.code(), Some(1));
    assert_eq!(status(&broken, "BlueLake"), "fail");
    // The builder sent no contract: the check does not apply to it.
    assert_eq!(status(&broken, "GreenCastle"), "not_applicable");

    std::fs::write(
        dir.join("tmp/pair_1767000000_tests.py"),
        "def test_price():\n    assert price(3) == 30\n",
    )
    .unwrap();
    let fixed = run(&["conformance", log, "--now", now, "--contract", d]);
    assert_eq!(status(&fixed, "BlueLake"), "pass");
    // Without --contract nothing was parsed: not tested (never a pass).
    let unchecked = run(&["conformance", log, "--now", now]);
    assert_eq!(status(&unchecked, "BlueLake"), "not_tested");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn conformance_on_a_contract_folder_decides_the_immutable_tests() {
    let log = fixtures().join("sessions/pattern1_happy_path.jsonl");
    let log = log.to_str().unwrap();
    let now = "2026-03-09T00:00:00Z";
    let status = |out: &Output| {
        json(out)["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["agent"] == "GreenCastle")
            .unwrap()["families"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["rules"].as_array().unwrap().clone())
            .find(|r| r["id"] == "000.practice.builder-tests")
            .unwrap()["status"]
            .clone()
    };
    // The fixture's tests fingerprint as 3333…: a file of other bytes was changed.
    let dir = tree(
        "tampered",
        &[(
            "tmp/pair_1767000000_tests.py",
            "def test_x():\n    assert True\n",
        )],
    );
    let tampered = run(&[
        "conformance",
        log,
        "--now",
        now,
        "--contract",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(tampered.status.code(), Some(1), "{tampered:?}");
    assert_eq!(status(&tampered), "fail");
    std::fs::remove_dir_all(dir).unwrap();
    // Without the folder, the builder's own fingerprints in BUILD_COMPLETE decide it.
    let from_mail = run(&["conformance", log, "--now", now]);
    assert_eq!(status(&from_mail), "pass");
}
