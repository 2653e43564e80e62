//! Each Pair session rule: violations, session discovery, the checkpoint decisions and the
//! messages they imply.

mod session_common;

use serde_json::json;
use session_common::*;
use switchboard_core::protocol::registry::families::pair::{Phase, Role};
use switchboard_core::protocol::{self, Options};
use switchboard_core::session::pair::checkpoint::{
    Checkpoint, Decision, DecisionError, DecisionKind,
};
use switchboard_core::session::pair::{IntegrityStatus, PairSession};
use switchboard_core::session::violation::ViolationCode;

fn session(steps: &[(i64, &str)]) -> PairSession {
    let b = book(&log(steps));
    assert_eq!(b.pair.sessions().len(), 1);
    b.pair.sessions()[0].clone()
}

fn first(rows: &[serde_json::Value]) -> PairSession {
    book(rows).pair.sessions()[0].clone()
}

fn codes(s: &PairSession) -> Vec<ViolationCode> {
    s.violations.iter().map(|v| v.code).collect()
}

const TO_FINAL: [(i64, &str); 3] = [
    (0, "PAIR_INIT"),
    (2, "CONTRACT_DRAFT"),
    (10, "CONTRACT_FINAL"),
];

#[test]
fn a_message_out_of_order_does_not_move_the_session() {
    let s = session(&[(0, "PAIR_INIT"), (1, "BUILD_COMPLETE")]);
    assert_eq!(codes(&s), [ViolationCode::OutOfOrder]);
    assert_eq!(s.phase, Some(Phase::ContractGeneration));
    assert_eq!(s.violations[0].entry, 1);
    assert_eq!(s.violations[0].message_type, Some("BUILD_COMPLETE"));
    let s = session(&[
        (0, "PAIR_INIT"),
        (1, "CONTRACT_DRAFT"),
        (2, "SESSION_COMPLETE"),
    ]);
    assert_eq!(codes(&s), [ViolationCode::OutOfOrder]);
    assert_eq!(s.open_checkpoint(), Some(Checkpoint::ContractReview));
}

#[test]
fn a_message_from_the_wrong_role_does_not_move_the_session() {
    let mut rows = log(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]);
    rows.push(row(
        3,
        5,
        BUILDER,
        PLANNER,
        "CONTRACT_FINAL",
        &body("CONTRACT_FINAL"),
    ));
    let b = book(&rows);
    let s = &b.pair.sessions()[0];
    assert_eq!(codes(s), [ViolationCode::WrongRole]);
    assert!(
        s.violations[0].message.contains("planner (BlueLake)"),
        "{}",
        s.violations[0].message
    );
    assert_eq!(s.phase, Some(Phase::ContractGeneration));
    // The builder cannot decide a change order either.
    let mut rows = log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (20, "CHANGE_ORDER"),
    ]);
    rows.push(row(
        5,
        25,
        BUILDER,
        PLANNER,
        "CHANGE_ORDER_ACCEPTED",
        &body("CHANGE_ORDER_ACCEPTED"),
    ));
    assert_eq!(codes(&first(&rows)), [ViolationCode::WrongRole]);
}

#[test]
fn messages_after_the_end_are_violations() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (1, "SESSION_ABORT"),
        (2, "CONTRACT_DRAFT"),
    ]);
    assert_eq!(s.phase, Some(Phase::Aborted));
    assert_eq!(codes(&s), [ViolationCode::AfterEnd]);
}

#[test]
fn an_invalid_message_is_a_violation_with_its_issues() {
    let mut rows = log(&TO_FINAL);
    let mut bad = body("CHANGE_ORDER");
    bad["change_order"]
        .as_object_mut()
        .unwrap()
        .remove("evidence");
    rows.push(row(4, 20, BUILDER, PLANNER, "CHANGE_ORDER", &bad));
    let s = &first(&rows);
    assert_eq!(codes(s), [ViolationCode::InvalidMessage]);
    assert_eq!(
        s.violations[0].issues[0].path.to_pointer(),
        "/body/change_order/evidence"
    );
    assert_eq!(s.phase, Some(Phase::ContractFinalized));
    assert!(s.change_orders.is_empty());
}

#[test]
fn finalizing_without_a_draft_skips_checkpoint_1_but_moves_on() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (5, "CONTRACT_FINAL"),
        (30, "BUILD_COMPLETE"),
    ]);
    assert_eq!(codes(&s), [ViolationCode::CheckpointSkipped]);
    assert_eq!(s.phase, Some(Phase::BuildComplete));
}

#[test]
fn test_fingerprints_that_change_are_contract_tampering() {
    let mut rows = log(&TO_FINAL);
    let mut done = body("BUILD_COMPLETE");
    done["test_fingerprints"] =
        json!({"tmp/pair_1767000000_tests.py": format!("sha256:{}", "4".repeat(64))});
    rows.push(row(4, 30, BUILDER, PLANNER, "BUILD_COMPLETE", &done));
    let s = &first(&rows);
    assert_eq!(codes(s), [ViolationCode::ContractTampered]);
    assert_eq!(
        s.violations[0].file.as_deref(),
        Some("tmp/pair_1767000000_tests.py")
    );
    assert_eq!(s.integrity.status, IntegrityStatus::Tampered);
    assert_eq!(s.integrity.files, ["tmp/pair_1767000000_tests.py"]);
    // The session still moves: the implementation review decides (REJECT).
    assert_eq!(s.phase, Some(Phase::BuildComplete));
}

#[test]
fn an_accepted_change_order_re_baselines_the_fingerprints() {
    let new_tests =
        json!({"tmp/pair_1767000000_tests_v2.py": format!("sha256:{}", "5".repeat(64))});
    let mut rows = log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (20, "CHANGE_ORDER"),
    ]);
    let mut accepted = body("CHANGE_ORDER_ACCEPTED");
    accepted["test_fingerprints"] = new_tests.clone();
    rows.push(row(
        5,
        25,
        PLANNER,
        BUILDER,
        "CHANGE_ORDER_ACCEPTED",
        &accepted,
    ));
    let mut done = body("BUILD_COMPLETE");
    done["test_fingerprints"] = new_tests;
    rows.push(row(6, 40, BUILDER, PLANNER, "BUILD_COMPLETE", &done));
    let s = &first(&rows);
    assert!(s.violations.is_empty(), "{:?}", s.violations);
    assert_eq!(s.integrity.status, IntegrityStatus::Intact);
    assert_eq!(s.contract.as_ref().unwrap().revision, 2);
}

#[test]
fn an_audit_report_naming_tampering_marks_the_contract() {
    let mut rows = log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (30, "BUILD_COMPLETE"),
    ]);
    let report = json!({"status": "FAIL", "severity": "CRITICAL", "scheming_detected": true,
        "issues": [{"type": "integrity", "severity": "CRITICAL", "description": "test file edited",
            "location": "tests/test_auth.py:12", "code": "CONTRACT_TAMPERED"}]});
    rows.push(
        json!({"id": 9, "thread_id": THREAD, "from": PLANNER, "to": [BUILDER], "subject": "audit",
        "created_ts": at(35, 0).to_rfc3339(), "body_md": format!("```json\n{report}\n```")}),
    );
    let s = &first(&rows);
    // The tampering is the builder's, and so is the build the audit failed.
    assert_eq!(
        codes(s),
        [ViolationCode::AuditFailed, ViolationCode::ContractTampered]
    );
    assert!(s
        .violations
        .iter()
        .all(|v| v.by.as_deref() == Some(BUILDER)));
    assert_eq!(s.integrity.files, ["tests/test_auth.py"]);
    assert_eq!(s.audits[0].status, "FAIL");

    // Mailed under the subject AUDIT_REPORT, `body_md` is the report itself (not a Pair
    // body): it is the session's audit all the same.
    let last = rows.len() - 1;
    rows[last]["subject"] = json!("AUDIT_REPORT");
    rows[last]["body_md"] = json!(report.to_string());
    let s = &first(&rows);
    assert_eq!(
        codes(s),
        [ViolationCode::AuditFailed, ViolationCode::ContractTampered]
    );
    assert_eq!(s.audits.len(), 1);
    let checked = protocol::validate_body_md(
        Some("AUDIT_REPORT"),
        &report.to_string(),
        &Options::default(),
    )
    .0;
    assert!(checked.valid, "{checked:?}");
    assert_eq!(checked.message_type, Some("AUDIT_REPORT"));
    // The whole row, as `switchboard validate` reads it (the fast path first).
    let row = rows[last].to_string();
    let whole = protocol::validate_slice(row.as_bytes(), &Options::default());
    assert!(whole.valid, "{whole:?}");
    assert_eq!(whole.message_type, Some("AUDIT_REPORT"));
}

#[test]
fn malformed_fingerprints_are_reported() {
    let mut rows = log(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]);
    let mut fin = body("CONTRACT_FINAL");
    fin["test_fingerprints"] = json!({"tests.py": "md5:abc"});
    rows.push(row(3, 10, PLANNER, BUILDER, "CONTRACT_FINAL", &fin));
    let s = &first(&rows);
    assert_eq!(codes(s), [ViolationCode::BadFingerprints]);
    assert_eq!(s.phase, Some(Phase::ContractFinalized));
}

#[test]
fn verifying_files_against_the_contract() {
    let mut s = session(&TO_FINAL);
    let same = switchboard_core::fingerprint::Fingerprints::from_json(
        &json!({"tmp/pair_1767000000_tests.py": format!("sha256:{}", "3".repeat(64))}).to_string(),
    )
    .unwrap();
    assert_eq!(
        s.verify_contract(&same, None),
        Some(IntegrityStatus::Intact)
    );
    let other =
        switchboard_core::fingerprint::fingerprint([("tmp/pair_1767000000_tests.py", &b"x"[..])])
            .unwrap();
    assert_eq!(
        s.verify_contract(&other, None),
        Some(IntegrityStatus::Tampered)
    );
}

#[test]
fn two_pair_inits_that_agree_are_one_session_and_disagreeing_ones_conflict() {
    let mut rows = log(&[(0, "PAIR_INIT")]);
    let mut reply = body("PAIR_INIT");
    reply["my_role"] = json!("BUILDER");
    reply["your_role"] = json!("PLANNER");
    rows.push(row(2, 1, BUILDER, PLANNER, "PAIR_INIT", &reply));
    let b = book(&rows);
    assert_eq!(b.pair.sessions().len(), 1);
    assert!(b.pair.sessions()[0].violations.is_empty());
    let mut rows = log(&[(0, "PAIR_INIT")]);
    rows.push(row(2, 1, BUILDER, PLANNER, "PAIR_INIT", &body("PAIR_INIT")));
    assert_eq!(codes(&first(&rows)), [ViolationCode::RoleConflict]);
}

#[test]
fn roles_are_inferred_when_the_log_starts_mid_session() {
    let s = session(&[
        (30, "BUILD_COMPLETE"),
        (35, "AUDIT_REPORT"),
        (40, "SESSION_COMPLETE"),
    ]);
    assert_eq!(
        (s.planner.as_deref(), s.builder.as_deref()),
        (Some(PLANNER), Some(BUILDER))
    );
    assert_eq!(s.phase, Some(Phase::Merged));
    assert!(s.violations.is_empty());
}

#[test]
fn sessions_are_found_by_thread_then_by_partner_pair() {
    let mut rows = Vec::new();
    for (i, thread) in ["A", "B"].iter().enumerate() {
        let mut r = msg(i as u64 + 1, i as i64, "PAIR_INIT");
        r["thread_id"] = json!(thread);
        rows.push(r);
    }
    // Threadless mail between another pair, twice (a second session after the first ends).
    for (id, minute, kind) in [
        (10, 3, "PAIR_INIT"),
        (11, 4, "SESSION_ABORT"),
        (12, 5, "PAIR_INIT"),
    ] {
        let mut r = row(id, minute, "RedStone", "BlueLake", kind, &body(kind));
        r.as_object_mut().unwrap().remove("thread_id");
        rows.push(r);
    }
    let b = book(&rows);
    let ids: Vec<&str> = b.pair.sessions().iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "A",
            "B",
            "pair:BlueLake+RedStone#1",
            "pair:BlueLake+RedStone#2"
        ]
    );
    assert_eq!(b.pair.sessions()[2].phase, Some(Phase::Aborted));
    assert_eq!(
        b.pair
            .get("pair:BlueLake+RedStone#2")
            .unwrap()
            .planner
            .as_deref(),
        Some("RedStone")
    );
}

#[test]
fn other_families_and_plain_mail_are_not_sessions() {
    let rows = vec![
        json!({"id": 1, "from": "a", "to": ["b"], "subject": "hello", "body_md": "just words", "created_ts": at(0, 0).to_rfc3339()}),
        json!({"id": 2, "from": "a", "to": ["b"], "subject": "", "created_ts": at(1, 0).to_rfc3339(),
            "body_md": json!({"message_type": "PROGRESS_UPDATE", "agent_id": "agent-1", "task_id": "TASK-1",
                "timestamp": at(1, 0).to_rfc3339(), "status": "planning", "progress_percent": 5, "current_activity": "reading"}).to_string()}),
    ];
    let b = book(&rows);
    assert!(b.pair.sessions().is_empty());
    assert_eq!(b.agent_po.tasks().len(), 1);
}

fn decide(s: &PairSession, text: &str) -> Vec<serde_json::Value> {
    let msgs = s
        .decide_text(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    msgs.iter()
        .map(|m| {
            let v = m.to_value();
            let report = protocol::validate(&v, &Options::strict());
            assert!(report.valid, "{text}: {v} {report:?}");
            // Sent over Agent Mail: subject + body_md carry the same message.
            let row = json!({"id": 1, "subject": m.subject, "body_md": m.body_md(), "from": m.from, "to": [m.to]});
            assert!(protocol::validate(&row, &Options::strict()).valid);
            v
        })
        .collect()
}

#[test]
fn checkpoint_1_decisions_and_their_messages() {
    let s = session(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]);
    let names: Vec<&str> = Checkpoint::ContractReview
        .decisions()
        .iter()
        .map(|d| d.keyword())
        .collect();
    assert_eq!(names, ["APPROVED", "REVISE", "ABORT"]);
    let m = decide(&s, "APPROVED");
    assert_eq!(
        (m[0]["subject"].as_str(), m[0]["to"].as_str()),
        (Some("CONTRACT_FINAL"), Some(BUILDER))
    );
    assert_eq!(
        m[0]["body"]["artifacts"]["spec"],
        "tmp/pair_1767000000_spec_final.md"
    );
    assert_eq!(
        m[0]["body"]["test_fingerprints"],
        body("CONTRACT_DRAFT")["test_fingerprints"]
    );
    let m = decide(&s, "REVISE: cover token expiry");
    assert_eq!(
        (m[0]["subject"].as_str(), m[0]["to"].as_str()),
        (Some("CONTRACT_REVISION_REQUESTED"), Some(PLANNER))
    );
    assert_eq!(m[0]["body"]["feedback"], "cover token expiry");
    let m = decide(&s, "ABORT");
    assert_eq!(m[0]["subject"], "SESSION_ABORT");
    assert_eq!(m[0]["body"]["phase"], "CONTRACT_GENERATION");
    assert_eq!(
        m[0]["body"]["reason"],
        "User requested abort during contract review"
    );
    assert!(matches!(
        s.decide_text("REVISE"),
        Err(DecisionError::MissingText {
            what: "feedback",
            ..
        })
    ));
    assert!(matches!(
        s.decide_text("MERGE APPROVED"),
        Err(DecisionError::NotAllowed { .. })
    ));
}

#[test]
fn checkpoint_2_decisions_and_their_messages() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (30, "BUILD_COMPLETE"),
    ]);
    assert_eq!(s.open_checkpoint(), Some(Checkpoint::ImplementationReview));
    let m = decide(&s, "MERGE APPROVED");
    assert_eq!(
        (m[0]["subject"].as_str(), m[0]["body"]["phase"].as_str()),
        (Some("SESSION_COMPLETE"), Some("MERGED"))
    );
    let m = decide(&s, "REJECT: error paths untested");
    assert_eq!(m[0]["subject"], "BUILD_REJECTED");
    assert_eq!(m[0]["body"]["reason"], "error paths untested");
    assert_eq!(
        decide(&s, "abort: wrong task")[0]["body"]["reason"],
        "wrong task"
    );
}

#[test]
fn checkpoint_3_decisions_and_their_messages() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (20, "CHANGE_ORDER"),
    ]);
    assert_eq!(s.open_checkpoint(), Some(Checkpoint::ChangeOrderReview));
    let m = decide(&s, "ACCEPT CHANGE: pyjwt is standard");
    assert_eq!(m[0]["subject"], "CHANGE_ORDER_ACCEPTED");
    assert_eq!(
        m[0]["body"]["updated_artifacts"]["spec"],
        "tmp/pair_1767000000_spec_final_v2.md"
    );
    assert_eq!(
        m[0]["body"]["updated_artifacts"]["tests"],
        "tmp/pair_1767000000_tests_v2.py"
    );
    assert_eq!(m[0]["body"]["reasoning"], "pyjwt is standard");
    let m = decide(&s, "REJECT CHANGE: use python-jose");
    assert_eq!(m[0]["subject"], "CHANGE_ORDER_REJECTED");
    assert_eq!(m[0]["body"]["suggested_strategy"], "use python-jose");
    assert_eq!(m[0]["body"]["phase"], "CHANGE_ORDER_REJECTED");
}

#[test]
fn decisions_need_an_open_checkpoint_and_known_roles() {
    let s = session(&TO_FINAL);
    assert!(matches!(
        s.decide_text("APPROVED"),
        Err(DecisionError::NoOpenCheckpoint)
    ));
    // A draft seen without its sender or PAIR_INIT: the builder is unknown.
    let mut r = msg(1, 0, "CONTRACT_DRAFT");
    r["to"] = json!([]);
    let b = book(&[r]);
    let s = &b.pair.sessions()[0];
    assert_eq!(s.open_checkpoint(), Some(Checkpoint::ContractReview));
    assert!(matches!(
        s.decide(&Decision::new(DecisionKind::Approved, "").unwrap()),
        Err(DecisionError::UnknownAgent {
            role: Role::Builder,
            pair_init_seen: false
        })
    ));
}

#[test]
fn bare_messages_name_the_agent_that_is_missing() {
    // Bare messages carry no `from`: PAIR_INIT names the builder (its recipient) but not the
    // planner who sent it.
    let init = json!({"to": "bob", "subject": "PAIR_INIT", "body": {"protocol_version": "3.1",
        "task": "t", "my_role": "PLANNER", "your_role": "BUILDER", "status": "INITIALIZED"}});
    let draft = json!({"to": "bob", "subject": "CONTRACT_DRAFT", "body": {"phase": "CONTRACT_GENERATION",
        "artifacts": {"safety_reasoning": "tmp/pair_1_safety_reasoning.md",
            "spec": "tmp/pair_1_spec_draft.md", "tests": "tmp/pair_1_tests.py"},
        "status": "AWAITING_HUMAN_REVIEW"}});
    let b = book(&[init, draft]);
    let s = &b.pair.sessions()[0];
    assert_eq!(s.open_checkpoint(), Some(Checkpoint::ContractReview));
    let err = s.decide_text("APPROVED").unwrap_err();
    assert_eq!(
        err,
        DecisionError::UnknownAgent {
            role: Role::Planner,
            pair_init_seen: true
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("planner") && text.contains("`from`") && !text.contains("no PAIR_INIT"),
        "{text}"
    );
}

#[test]
fn decisions_taken_in_mail_close_the_checkpoint_with_their_text() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (3, "CONTRACT_REVISION_REQUESTED"),
        (6, "CONTRACT_DRAFT"),
        (8, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
    ]);
    let recorded: Vec<(Option<DecisionKind>, Option<&str>)> = s
        .checkpoints
        .iter()
        .map(|c| (c.decision, c.text.as_deref()))
        .collect();
    assert_eq!(
        recorded,
        [
            (Some(DecisionKind::Revise), Some("Add expiry tests")),
            (Some(DecisionKind::Revise), None),
            (Some(DecisionKind::Approved), None),
        ]
    );
    assert!(s.violations.is_empty());
    let s = session(&[(0, "PAIR_INIT"), (1, "CONTRACT_REVISION_REQUESTED")]);
    assert_eq!(codes(&s), [ViolationCode::OutOfOrder]);
}

#[test]
fn clarifications_come_before_the_contract() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (1, "CLARIFICATION_REQUEST"),
        (2, "CLARIFICATION_RESPONSE"),
        (3, "CONTRACT_DRAFT"),
        (5, "CONTRACT_FINAL"),
    ]);
    assert!(s.violations.is_empty(), "{:?}", s.violations);
    assert_eq!(s.phase, Some(Phase::ContractFinalized));
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (11, "CLARIFICATION_REQUEST"),
    ]);
    assert_eq!(codes(&s), [ViolationCode::OutOfOrder]);
}

#[test]
fn a_rejected_build_goes_back_to_building() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (30, "BUILD_COMPLETE"),
        (40, "BUILD_REJECTED"),
        (60, "BUILD_COMPLETE"),
        (65, "AUDIT_REPORT"),
        (70, "SESSION_COMPLETE"),
    ]);
    assert!(s.violations.is_empty(), "{:?}", s.violations);
    assert_eq!(s.checkpoints[1].decision, Some(DecisionKind::Reject));
    assert_eq!(
        s.checkpoints[1].text.as_deref(),
        Some("Missing error handling")
    );
    assert_eq!(s.phase, Some(Phase::Merged));
}
