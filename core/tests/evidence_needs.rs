//! The files a session's review needs at each checkpoint, the violation of a path leaving
//! the folder, the fingerprints of what the reviewer read, and integrity against a folder.

mod session_common;

use serde_json::json;
use session_common::*;
use std::collections::HashMap;
use switchboard_core::agent_mail::Envelope;
use switchboard_core::evidence::content::Content;
use switchboard_core::evidence::integrity::{check, FileState, Verdict};
use switchboard_core::evidence::path::{resolve, FolderPath};
use switchboard_core::evidence::{needs, reviewed_fingerprints, Needs, Role};
use switchboard_core::fingerprint::{fingerprint, Sha256Digest};
use switchboard_core::session::pair::checkpoint::Checkpoint;
use switchboard_core::session::violation::ViolationCode;

fn needs_of(rows: &[serde_json::Value]) -> Needs {
    let envs: Vec<Envelope> = envelopes(rows);
    let book = switchboard_core::session::Book::replay(&envs, Default::default());
    let session = &book.pair.sessions()[0];
    needs(session, |i| envs.get(i))
}

fn roles(n: &Needs) -> Vec<(Role, String)> {
    n.artifacts
        .iter()
        .map(|a| {
            (
                a.role,
                a.path
                    .as_ref()
                    .map_or_else(|e| format!("refused: {e}"), |p| p.to_string()),
            )
        })
        .collect()
}

#[test]
fn checkpoint_1_needs_the_draft() {
    let n = needs_of(&log(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]));
    assert_eq!(n.checkpoint, Some(Checkpoint::ContractReview));
    assert_eq!(
        roles(&n)[..3],
        [
            (
                Role::SafetyReasoning,
                "tmp/pair_1767000000_safety_reasoning.md".into()
            ),
            (Role::Spec, "tmp/pair_1767000000_spec_draft.md".into()),
            (Role::Tests, "tmp/pair_1767000000_tests.py".into()),
        ]
    );
    assert_eq!(n.artifacts[2].message, Some(2));
    assert!(n
        .searches
        .iter()
        .any(|s| s.dir == "tmp" && s.prefix == "pair_1767000000_" && s.suffix == ".diff"));
    assert!(n.violations.is_empty());
}

#[test]
fn checkpoint_2_needs_contract_build_and_audit() {
    let n = needs_of(&log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (20, "BUILD_COMPLETE"),
    ]));
    assert_eq!(n.checkpoint, Some(Checkpoint::ImplementationReview));
    let r = roles(&n);
    assert!(r.contains(&(Role::Spec, "tmp/pair_1767000000_spec_final.md".into())));
    assert!(r.contains(&(Role::Implementation, "auth/jwt.py".into())));
    assert!(r.contains(&(
        Role::AuditReport,
        "tmp/pair_1767000000_audit_report.json".into()
    )));
    assert!(r.contains(&(
        Role::AuditReport,
        "tmp/pair_1767000000_audit/audit_report.json".into()
    )));
    let tests = n.artifacts.iter().find(|a| a.role == Role::Tests).unwrap();
    assert_eq!(tests.baseline.map(|d| d.to_string()), Some("3".repeat(64)));
    assert!(!r.iter().any(|(role, _)| *role == Role::SafetyReasoning));
    let manifests = n
        .searches
        .iter()
        .find(|s| s.role == Role::Manifest)
        .unwrap();
    let found = manifests.select([
        "requirements.txt",
        "README.md",
        "package.json",
        "Cargo.lock",
    ]);
    assert_eq!(
        found.iter().map(|a| a.written.as_str()).collect::<Vec<_>>(),
        ["package.json", "requirements.txt"]
    );
    let diffs = n.searches.iter().find(|s| s.dir == "tmp").unwrap();
    let found = diffs.select([
        "pair_1767000000_build.diff",
        "pair_99_build.diff",
        "pair_1767000000_tests.py",
    ]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].role, Role::AuditDiff);
}

#[test]
fn checkpoint_3_needs_what_the_change_order_names() {
    let mut rows = log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
    ]);
    let order = json!({"phase": "BUILD_BLOCKED", "change_order": {"status": "CHANGE_ORDER_REQUIRED",
        "failure_mode": "dependency_missing",
        "evidence": "ModuleNotFoundError: No module named 'jwt' (tests/test_session.py::test_cookie_is_signed)",
        "attempted_fixes": ["hashlib"], "requested_changes": "Add 'pyjwt>=2.8.0' to requirements.txt"},
        "status": "AWAITING_MEDIATION"});
    rows.push(row(4, 20, BUILDER, PLANNER, "CHANGE_ORDER", &order));
    let n = needs_of(&rows);
    assert_eq!(n.checkpoint, Some(Checkpoint::ChangeOrderReview));
    let r = roles(&n);
    assert!(r.contains(&(Role::NamedByChangeOrder, "tests/test_session.py".into())));
    assert!(r.contains(&(Role::NamedByChangeOrder, "requirements.txt".into())));
    // Named by the change order first, it is still the manifest its dependency is checked in.
    let found = n
        .searches
        .iter()
        .find(|s| s.role == Role::Manifest)
        .unwrap();
    let mut n = n.clone();
    n.found(found.select(["requirements.txt", "README.md"]));
    let manifests: Vec<&str> = n.manifests().map(|p| p.as_str()).collect();
    assert_eq!(manifests, ["requirements.txt"]);
    assert!(r.contains(&(Role::NextVersion, "tmp/pair_1767000000_tests_v2.py".into())));
    assert!(r.contains(&(
        Role::NextVersion,
        "tmp/pair_1767000000_spec_final_v2.md".into()
    )));
    assert!(n
        .artifacts
        .iter()
        .filter(|a| a.role == Role::NextVersion)
        .all(|a| !a.expected));
}

#[test]
fn after_an_accepted_change_order_the_v2_artifacts_are_the_contract() {
    let n = needs_of(&log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (20, "CHANGE_ORDER"),
        (30, "CHANGE_ORDER_ACCEPTED"),
        (40, "BUILD_COMPLETE"),
    ]));
    let r = roles(&n);
    assert!(r.contains(&(Role::Tests, "tmp/pair_1767000000_tests_v2.py".into())));
    assert!(r.contains(&(Role::Spec, "tmp/pair_1767000000_spec_final_v2.md".into())));
    assert!(!r.iter().any(|(_, p)| p == "tmp/pair_1767000000_tests.py"));
}

#[test]
fn a_path_leaving_the_folder_is_refused_and_a_violation() {
    let mut rows = log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
    ]);
    let mut build = body("BUILD_COMPLETE");
    build["implementation_files"] =
        json!(["$PROJECT_ROOT/../../etc/passwd", "/etc/shadow", "ok.py"]);
    rows.push(row(4, 20, BUILDER, PLANNER, "BUILD_COMPLETE", &build));
    let n = needs_of(&rows);
    let codes: Vec<_> = n
        .violations
        .iter()
        .map(|v| (v.code, v.file.clone().unwrap()))
        .collect();
    assert_eq!(
        codes,
        [
            (
                ViolationCode::ArtifactOutsideFolder,
                "$PROJECT_ROOT/../../etc/passwd".to_owned()
            ),
            (
                ViolationCode::ArtifactOutsideFolder,
                "/etc/shadow".to_owned()
            ),
        ]
    );
    assert_eq!(n.violations[0].id, Some(4));
    let refused: Vec<_> = n
        .artifacts
        .iter()
        .filter(|a| a.path.is_err())
        .map(|a| a.written.as_str())
        .collect();
    assert_eq!(refused, ["$PROJECT_ROOT/../../etc/passwd", "/etc/shadow"]);
    assert!(n.paths().all(|p| !p.as_str().contains("..")));
}

fn folder(files: &[(&str, &[u8])]) -> HashMap<FolderPath, Content> {
    files
        .iter()
        .map(|(p, b)| (resolve(p).unwrap(), Content::of(b)))
        .collect()
}

#[test]
fn the_reviewer_read_tests_are_what_is_fingerprinted() {
    let n = needs_of(&log(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]));
    let disk = folder(&[
        ("tmp/pair_1767000000_tests.py", b"assert f(1) == 2\n"),
        ("tmp/pair_1767000000_spec_draft.md", b"# spec\n"),
    ]);
    let prints = reviewed_fingerprints(&n, |p| disk.get(p));
    assert_eq!(prints.len(), 1);
    assert_eq!(
        prints.get("tmp/pair_1767000000_tests.py"),
        Some(Sha256Digest::of(b"assert f(1) == 2\n"))
    );
    assert!(reviewed_fingerprints(&n, |_| None).is_empty());
}

#[test]
fn integrity_names_the_changed_lines_when_the_baseline_text_is_known() {
    let before = "def test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(2) == 3\n";
    let after =
        "def test_a():\n    assert f(1) == 2 or True\n\ndef test_b():\n    assert f(2) == 3\n";
    let baseline = fingerprint([
        ("tmp/pair_1_tests.py", before.as_bytes()),
        ("tmp/pair_1_more.py", &b"x"[..]),
    ])
    .unwrap();
    let disk = folder(&[("tmp/pair_1_tests.py", after.as_bytes())]);
    let texts: HashMap<Sha256Digest, &str> = [(Sha256Digest::of(before.as_bytes()), before)].into();
    let result = check(
        Some(&baseline),
        |p| disk.get(p).or(Some(&Content::Missing)),
        |d| texts.get(d).copied(),
    );
    assert_eq!(result.verdict, Verdict::Tampered);
    let states: Vec<_> = result
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.state))
        .collect();
    assert_eq!(
        states,
        [
            ("tmp/pair_1_more.py", FileState::Missing),
            ("tmp/pair_1_tests.py", FileState::Modified)
        ]
    );
    let changes = result.files[1].changes.as_ref().unwrap();
    let changed: Vec<_> = changes.hunks[0]
        .rows
        .iter()
        .filter(|r| r.kind != switchboard_core::audit::diff::LineKind::Context)
        .map(|r| (r.old, r.new, r.text.as_str()))
        .collect();
    assert_eq!(
        changed,
        [
            (Some(2), None, "    assert f(1) == 2"),
            (None, Some(2), "    assert f(1) == 2 or True")
        ]
    );
    let intact = check(
        Some(&baseline),
        |_| {
            Some(&Content::TooLarge {
                size: 9 << 20,
                limit: 4 << 20,
            })
        },
        |_| None,
    );
    assert_eq!(intact.verdict, Verdict::Incomplete);
    assert_eq!(check(None, |_| None, |_| None).verdict, Verdict::NoBaseline);
}
