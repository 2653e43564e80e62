//! `switchboard records verify`: a trail signed as the console signs it verifies; edited,
//! removed, reordered or cut-off records are rejected with their line; and no edit of a line
//! verifies (property).

use ed25519_dalek::{Signer, SigningKey};
use proptest::prelude::*;
use std::io::Write;
use std::process::{Command, Stdio};
use switchboard_core::evidence::path::resolve;
use switchboard_core::evidence::record::{Outcome, ReviewRecord, Sent, Shown};
use switchboard_core::evidence::trail::{hex, verify, TrailLine};
use switchboard_core::evidence::Role;
use switchboard_core::fingerprint::Sha256Digest;
use switchboard_core::session::pair::checkpoint::Checkpoint;

fn record(session: &str, decision: &str) -> ReviewRecord {
    let tests = Sha256Digest::of(b"def test_five(): assert f(5) == 120\n");
    ReviewRecord {
        reviewer: "Ada Lovelace".into(),
        project: "repo".into(),
        session: session.into(),
        checkpoint: Checkpoint::ContractReview,
        decision: decision.into(),
        outcome: Outcome::Decided,
        decided_at_ms: 1_767_200_000_000,
        decided_at: "2026-01-01 00:00:00".into(),
        artifacts: vec![Shown {
            path: resolve("tmp/pair_1_tests.py").unwrap(),
            role: Role::Tests,
            sha256: Some(tests),
        }],
        sent: vec![Sent {
            from: "BlueLake".into(),
            to: "GreenCastle".into(),
            subject: "CONTRACT_FINAL".into(),
            thread_id: Some(session.into()),
            body_md: format!(
                r#"{{"test_fingerprints":{{"tmp/pair_1_tests.py":"sha256:{tests}"}}}}"#
            ),
            server_id: Some(7),
        }],
    }
}

fn trail(n: usize) -> Vec<String> {
    let key = SigningKey::from_bytes(&[3; 32]);
    let public = hex(key.verifying_key().as_bytes());
    let mut prev = None;
    (0..n)
        .map(|i| {
            let mut line = TrailLine::new(
                record(&format!("pair-{i}"), "APPROVED"),
                prev,
                public.clone(),
            );
            line.signature = hex(&key.sign(&line.signed_bytes()).to_bytes());
            prev = Some(line.digest());
            line.line()
        })
        .collect()
}

/// Runs `switchboard records verify - [extra]` on `input`; (exit code, stdout JSON).
fn run(input: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(["records", "verify", "-", "--compact"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    // A refused argument is answered before the input is read: the child may have closed its
    // end by the time it is written (a race CI lost once).
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap(), json)
}

fn problem_lines(json: &serde_json::Value) -> Vec<(u64, String)> {
    json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["line"].as_u64().unwrap(),
                p["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_cli_accepts_a_trail_and_rejects_it_edited_removed_reordered_or_cut() {
    let lines = trail(3);
    let (code, json) = run(&(lines.join("\n") + "\n"), &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["valid"], true);
    assert_eq!(json["records"], 3);
    let head = json["head"].as_str().unwrap().to_owned();

    let edited = lines.join("\n").replacen("Ada Lovelace", "Eve", 1);
    let (code, json) = run(&edited, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        problem_lines(&json),
        vec![(1, "bad_signature".into()), (2, "chain_broken".into())]
    );

    let removed = [lines[0].as_str(), lines[2].as_str()].join("\n");
    assert_eq!(
        problem_lines(&run(&removed, &[]).1),
        vec![(2, "chain_broken".into())]
    );

    let reordered = [lines[0].as_str(), lines[2].as_str(), lines[1].as_str()].join("\n");
    let (code, json) = run(&reordered, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        problem_lines(&json),
        vec![(2, "chain_broken".into()), (3, "chain_broken".into())]
    );

    let cut = lines[..2].join("\n");
    assert_eq!(
        run(&cut, &[]).0,
        0,
        "a chain alone cannot tell its tail was cut"
    );
    let (code, json) = run(&cut, &["--head", &head]);
    assert_eq!(code, 1);
    assert_eq!(problem_lines(&json), vec![(0, "head_mismatch".into())]);
    assert_eq!(run(&cut, &["--head", "nope"]).0, 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any change to one byte of a line (that still leaves text) is reported, never a panic.
    #[test]
    fn no_edit_of_a_line_verifies(at in 0usize..4000, byte in 0x20u8..0x7f) {
        let lines = trail(2);
        let mut bytes = lines[0].clone().into_bytes();
        let at = at % bytes.len();
        prop_assume!(bytes[at] != byte);
        bytes[at] = byte;
        let edited = String::from_utf8(bytes).unwrap();
        let text = [edited.as_str(), lines[1].as_str()].join("\n");
        let checked = verify(&text, None);
        // A change that parses to the same record (e.g. whitespace between tokens) is no edit.
        let same = TrailLine::parse(&edited).ok() == TrailLine::parse(&lines[0]).ok();
        prop_assert!(same || !checked.valid, "{edited}");
    }
}
