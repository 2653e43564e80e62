//! Building message logs for the session tests: Agent Mail rows carrying Pair bodies, at
//! minutes after a fixed start.
#![allow(dead_code)]

use serde_json::{json, Value};
use switchboard_core::agent_mail::{read_log, Envelope};
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

pub const PLANNER: &str = "BlueLake";
pub const BUILDER: &str = "GreenCastle";
pub const THREAD: &str = "pair-T1";

/// 2026-03-02T09:00:00Z plus `minutes` and `seconds`.
pub fn at(minutes: i64, seconds: i64) -> Timestamp {
    Timestamp::parse("2026-03-02T09:00:00Z")
        .unwrap()
        .plus_millis(minutes * 60_000 + seconds * 1_000)
}

/// The seed's example bodies, by type (a few with the extension member `test_fingerprints`).
pub fn body(kind: &str) -> Value {
    let tests = json!({"tmp/pair_1767000000_tests.py": format!("sha256:{}", "3".repeat(64))});
    match kind {
        "PAIR_INIT" => {
            json!({"protocol_version": "3.1", "task": "Add JWT auth", "my_role": "PLANNER", "your_role": "BUILDER", "status": "INITIALIZED"})
        }
        "CLARIFICATION_REQUEST" => {
            json!({"phase": "CLARIFICATION", "questions": [{"id": "q1", "question": "Which algorithm?"}], "status": "AWAITING_USER_INPUT"})
        }
        "CLARIFICATION_RESPONSE" => {
            json!({"phase": "CLARIFICATION_COMPLETE", "answers": [{"question_id": "q1", "answer": "HS256"}], "status": "PROCEED_WITH_IMPLEMENTATION"})
        }
        "CONTRACT_DRAFT" => {
            json!({"phase": "CONTRACT_GENERATION", "artifacts": {"safety_reasoning": "tmp/pair_1767000000_safety_reasoning.md", "spec": "tmp/pair_1767000000_spec_draft.md", "tests": "tmp/pair_1767000000_tests.py"}, "status": "AWAITING_HUMAN_REVIEW", "test_fingerprints": tests})
        }
        "CONTRACT_REVISION_REQUESTED" => {
            json!({"phase": "CONTRACT_GENERATION", "decision": "REVISE", "feedback": "Add expiry tests", "status": "REVISION_REQUESTED"})
        }
        "CONTRACT_FINAL" => {
            json!({"phase": "CONTRACT_FINALIZED", "artifacts": {"spec": "tmp/pair_1767000000_spec_final.md", "tests": "tmp/pair_1767000000_tests.py"}, "contract_immutable": true, "status": "READY_FOR_BUILD", "test_fingerprints": tests})
        }
        "BUILD_COMPLETE" => {
            json!({"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS", "implementation_files": ["auth/jwt.py"], "status": "READY_FOR_REVIEW"})
        }
        "CHANGE_ORDER" => {
            json!({"phase": "BUILD_BLOCKED", "change_order": {"status": "CHANGE_ORDER_REQUIRED", "failure_mode": "dependency_missing", "evidence": "ImportError: jwt", "attempted_fixes": ["hashlib"], "requested_changes": "Allow pyjwt"}, "status": "AWAITING_MEDIATION"})
        }
        "CHANGE_ORDER_ACCEPTED" => {
            json!({"phase": "CONTRACT_REVISED", "decision": "ACCEPTED", "updated_artifacts": {"spec": "tmp/pair_1767000000_spec_final_v2.md", "tests": "tmp/pair_1767000000_tests_v2.py"}, "reasoning": "Standard library", "status": "READY_FOR_BUILD"})
        }
        "CHANGE_ORDER_REJECTED" => {
            json!({"phase": "CHANGE_ORDER_REJECTED", "decision": "REJECTED", "reasoning": "Use jose", "suggested_strategy": "Import jose.jwt", "status": "RETRY_BUILD"})
        }
        "BUILD_REJECTED" => {
            json!({"phase": "BUILD_REJECTED", "decision": "REJECTED", "reason": "Missing error handling", "status": "RETRY_BUILD"})
        }
        "SESSION_COMPLETE" => json!({"phase": "MERGED", "status": "SUCCESS", "message": "Merged."}),
        // The planner's automated audit (Pattern 1, step 9), mailed whole under a subject that
        // names no Pair type.
        "AUDIT_REPORT" => {
            json!({"status": "PASS", "severity": "MINOR", "scheming_detected": false, "issues": []})
        }
        "SESSION_ABORT" => {
            json!({"phase": "CONTRACT_GENERATION", "reason": "User abort", "status": "ABORTED", "cleanup_required": true})
        }
        "TIMEOUT_WARNING" => {
            json!({"phase": "CONTRACT_FINALIZED", "status": "TIMEOUT", "message": "No response", "warnings_sent": 1, "max_warnings": 2})
        }
        other => panic!("no body for {other}"),
    }
}

/// An Agent Mail row carrying `body` with the type in the subject.
pub fn row(id: u64, minute: i64, from: &str, to: &str, kind: &str, body: &Value) -> Value {
    json!({"id": id, "thread_id": THREAD, "from": from, "to": [to], "subject": kind,
        "created_ts": at(minute, 0).to_rfc3339(), "body_md": body.to_string()})
}

/// A row from the sender the type belongs to (planner types from the planner, builder types
/// from the builder), with the seed body.
pub fn msg(id: u64, minute: i64, kind: &str) -> Value {
    let from_builder = matches!(kind, "BUILD_COMPLETE" | "CHANGE_ORDER");
    let (from, to) = if from_builder {
        (BUILDER, PLANNER)
    } else {
        (PLANNER, BUILDER)
    };
    let to = if kind == "CONTRACT_REVISION_REQUESTED" {
        PLANNER
    } else {
        to
    };
    let subject = if kind == "AUDIT_REPORT" {
        "audit"
    } else {
        kind
    };
    row(id, minute, from, to, subject, &body(kind))
}

/// Envelopes of rows.
pub fn envelopes(rows: &[Value]) -> Vec<Envelope> {
    let text = serde_json::to_vec(rows).unwrap();
    read_log(&text, &Options::default()).unwrap()
}

/// The book of rows.
pub fn book(rows: &[Value]) -> Book {
    Book::replay(&envelopes(rows), PairClaudeConfig::default())
}

/// A message id sequence for a list of types at the given minutes.
pub fn log(steps: &[(i64, &str)]) -> Vec<Value> {
    steps
        .iter()
        .enumerate()
        .map(|(i, (minute, kind))| msg(i as u64 + 1, *minute, kind))
        .collect()
}

/// Whether each item of `fewer` is in `more`, as many times (as multisets).
pub fn within<T: PartialEq>(fewer: &[T], more: &[T]) -> bool {
    let mut left: Vec<&T> = more.iter().collect();
    fewer
        .iter()
        .all(|f| match left.iter().position(|g| *g == f) {
            Some(i) => {
                left.swap_remove(i);
                true
            }
            None => false,
        })
}
