//! The seed's four communication patterns, replayed end to end from fixture logs
//! (`tests/fixtures/sessions/`: Agent Mail rows as JSON Lines and arrays, and bare messages
//! with envelope members), through the library and the `switchboard session` command.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair::checkpoint::{Checkpoint, DecisionKind};
use switchboard_core::session::pair::{IntegrityStatus, Outcome, PairSession};
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sessions")
        .join(name)
}

fn only_session(name: &str) -> PairSession {
    let bytes = std::fs::read(fixture(name)).unwrap();
    let envelopes = read_log(&bytes, &Options::default()).unwrap();
    let book = Book::replay(&envelopes, PairClaudeConfig::default());
    assert_eq!(book.pair.sessions().len(), 1, "{name}");
    book.pair.sessions()[0].clone()
}

fn decisions(s: &PairSession) -> Vec<(Checkpoint, Option<DecisionKind>)> {
    s.checkpoints
        .iter()
        .map(|c| (c.checkpoint, c.decision))
        .collect()
}

fn phases(s: &PairSession) -> Vec<&'static str> {
    s.timeline
        .iter()
        .map(|t| t.phase.map_or("-", Phase::as_str))
        .collect()
}

#[test]
fn pattern_1_happy_path() {
    let s = only_session("pattern1_happy_path.jsonl");
    assert_eq!(s.id, "pair-auth-jwt");
    assert_eq!(
        (s.planner.as_deref(), s.builder.as_deref()),
        (Some("BlueLake"), Some("GreenCastle"))
    );
    assert_eq!(s.phase, Some(Phase::Merged));
    assert_eq!(
        phases(&s),
        [
            "CONTRACT_GENERATION",
            "CONTRACT_GENERATION",
            "CONTRACT_FINALIZED",
            "BUILD_COMPLETE",
            "BUILD_COMPLETE",
            "MERGED"
        ]
    );
    assert_eq!(
        decisions(&s),
        [
            (Checkpoint::ContractReview, Some(DecisionKind::Approved)),
            (
                Checkpoint::ImplementationReview,
                Some(DecisionKind::MergeApproved)
            ),
        ]
    );
    assert!(s.violations.is_empty(), "{:?}", s.violations);
    assert_eq!(s.integrity.status, IntegrityStatus::Intact);
    assert_eq!(s.open_checkpoint(), None);
    let view = s.view(Timestamp::parse("2026-03-09T00:00:00Z").unwrap());
    assert!(view.due.is_empty() && view.next_deadline.is_none());
}

#[test]
fn pattern_2_change_order_accepted() {
    let s = only_session("pattern2_change_order_accepted.json");
    // The first message had no thread; the replies' thread is named after its id (201).
    assert_eq!(s.thread_id.as_deref(), Some("201"));
    assert_eq!(s.phase, Some(Phase::Merged));
    assert_eq!(
        phases(&s),
        [
            "CONTRACT_GENERATION",
            "CONTRACT_GENERATION",
            "CONTRACT_FINALIZED",
            "BUILD_BLOCKED",
            "CONTRACT_REVISED",
            "BUILD_COMPLETE",
            "BUILD_COMPLETE",
            "MERGED"
        ]
    );
    assert_eq!(
        decisions(&s),
        [
            (Checkpoint::ContractReview, Some(DecisionKind::Approved)),
            (
                Checkpoint::ChangeOrderReview,
                Some(DecisionKind::AcceptChange)
            ),
            (
                Checkpoint::ImplementationReview,
                Some(DecisionKind::MergeApproved)
            ),
        ]
    );
    let order = &s.change_orders[0];
    assert_eq!(order.outcome, Outcome::Accepted);
    assert_eq!(order.request.failure_mode, "dependency_missing");
    assert_eq!(order.contract_revision, Some(2));
    let contract = s.contract.as_ref().unwrap();
    assert_eq!(contract.revision, 2);
    assert_eq!(
        contract.artifacts.as_ref().unwrap().tests.as_str(),
        "tmp/pair_1767000000_tests_v2.py"
    );
    // The acceptance carried no fingerprints: the revised tests are not fingerprinted.
    assert!(contract.fingerprints.is_none());
    assert_eq!(s.integrity.status, IntegrityStatus::Unknown);
    assert!(s.violations.is_empty(), "{:?}", s.violations);
}

#[test]
fn pattern_3_change_order_rejected() {
    let s = only_session("pattern3_change_order_rejected.json");
    assert_eq!(s.id, "pair:BlueLake+GreenCastle#1");
    assert_eq!(s.phase, Some(Phase::Merged));
    assert_eq!(
        phases(&s),
        [
            "CONTRACT_GENERATION",
            "CONTRACT_GENERATION",
            "CONTRACT_FINALIZED",
            "BUILD_BLOCKED",
            "CHANGE_ORDER_REJECTED",
            "BUILD_COMPLETE",
            "BUILD_COMPLETE",
            "MERGED"
        ]
    );
    let order = &s.change_orders[0];
    assert_eq!(order.outcome, Outcome::Rejected);
    assert_eq!(order.suggested_strategy.as_deref(), Some("Import from jose.jwt instead of trying to add pyjwt. Check existing auth code for examples."));
    assert_eq!(s.contract.as_ref().unwrap().revision, 1);
    assert!(s.violations.is_empty(), "{:?}", s.violations);
}

#[test]
fn pattern_4_abort() {
    let s = only_session("pattern4_abort.jsonl");
    assert_eq!(s.phase, Some(Phase::Aborted));
    assert_eq!(
        decisions(&s),
        [(Checkpoint::ContractReview, Some(DecisionKind::Abort))]
    );
    assert_eq!(
        s.checkpoints[0].text.as_deref(),
        Some("User requested abort during contract review")
    );
    assert!(s.violations.is_empty());
    assert!(s.wait.is_none() || s.ended());
}

#[test]
fn the_command_prints_the_same_sessions() {
    for (name, phase, status) in [
        ("pattern1_happy_path.jsonl", "MERGED", "merged"),
        ("pattern2_change_order_accepted.json", "MERGED", "merged"),
        ("pattern3_change_order_rejected.json", "MERGED", "merged"),
        ("pattern4_abort.jsonl", "ABORTED", "aborted"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_switchboard"))
            .args(["session", "--now", "2026-03-09T00:00:00Z", "--compact"])
            .arg(fixture(name))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let sessions: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(sessions.len(), 1);
        let s = &sessions[0];
        assert_eq!(
            (
                s["family"].as_str(),
                s["phase"].as_str(),
                s["status"].as_str()
            ),
            (Some("pair"), Some(phase), Some(status))
        );
        for key in [
            "session_id",
            "roles",
            "open_checkpoint",
            "decisions",
            "change_orders",
            "due",
            "next_deadline",
            "violations",
        ] {
            assert!(s.get(key).is_some(), "{name}: no {key}");
        }
        assert_eq!(s["roles"]["planner"], "BlueLake");
    }
}
