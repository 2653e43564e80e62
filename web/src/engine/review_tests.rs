//! A live project's mail in the engine (rows as a server returns them): what became of a
//! checkpoint being decided (open, sent with its reply lost, decided elsewhere with the
//! trail's reviewer, timed out), the review trail written and read back from the mail, the
//! concerns an approval overrides, and the evidence gaps found with hostile folders (a change
//! order naming `requirements.txt`, a diff that does not parse, an audit report mailed under
//! the subject `AUDIT_REPORT`).

use super::tests::ask;
use super::Engine;
use crate::api::{Draft, MailRow};
use crate::ask;
use crate::model::evidence::{FileRead, Shown};
use crate::model::{Coverage, Fate, TrafficKey};
use crate::routes::Source;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Value};
use switchboard_core::evidence::path::resolve;
use switchboard_core::evidence::record::{Concern, Outcome, ReviewRecord};
use switchboard_core::evidence::trail::{hex, TrailLine};
use switchboard_core::session::pair::checkpoint::Checkpoint;

const P: &str = "BlueLake";
const B: &str = "GreenCastle";

fn key() -> TrafficKey {
    TrafficKey {
        src: Source::Live,
        project: "repo".into(),
    }
}

fn row(id: u64, from: &str, to: &str, subject: &str, body: &Value) -> MailRow {
    MailRow {
        id,
        thread_id: Some("pair-9".into()),
        from: from.into(),
        to: vec![to.into()],
        subject: subject.into(),
        created_ts: format!("2026-01-01T00:{id:02}:00Z"),
        body_md: body.to_string(),
        ..MailRow::default()
    }
}

/// A session at checkpoint #1 (message 2 opened it).
fn at_review() -> Vec<MailRow> {
    vec![
        row(
            1,
            P,
            B,
            "PAIR_INIT",
            &json!({"protocol_version": "3.1", "task": "t", "my_role": "PLANNER", "your_role": "BUILDER", "status": "INITIALIZED"}),
        ),
        row(
            2,
            P,
            B,
            "CONTRACT_DRAFT",
            &json!({"phase": "CONTRACT_GENERATION", "status": "AWAITING_HUMAN_REVIEW",
            "artifacts": {"safety_reasoning": "tmp/pair_1_safety.md", "spec": "tmp/pair_1_spec_draft.md", "tests": "tmp/pair_1_tests.py"}}),
        ),
    ]
}

/// The session with its contract final (message 3), building.
fn contracted() -> Vec<MailRow> {
    let mut rows = at_review();
    rows.push(row(3, P, B, "CONTRACT_FINAL", &json!({"phase": "CONTRACT_FINALIZED", "artifacts": {"spec": "tmp/pair_1_spec_final.md", "tests": "tmp/pair_1_tests.py"}, "contract_immutable": true, "status": "READY_FOR_BUILD"})));
    rows
}

/// The session at checkpoint #2 (message 4 opened it).
fn at_implementation_review() -> Vec<MailRow> {
    let mut rows = contracted();
    rows.push(row(4, B, P, "BUILD_COMPLETE", &json!({"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS", "implementation_files": ["m.py"], "status": "READY_FOR_REVIEW"})));
    rows
}

fn load(engine: &mut Engine, rows: Vec<MailRow>) {
    ask(
        engine,
        ask::Load {
            key: key(),
            rows,
            reset: false,
            coverage: Coverage::Whole,
            newer: false,
            pending: None,
            agents: None,
        },
    )
    .unwrap();
}

fn revise() -> Draft {
    Draft {
        sender: Some(P.into()),
        to: vec![P.into()],
        subject: "CONTRACT_REVISION_REQUESTED".into(),
        body_md: json!({"phase": "CONTRACT_GENERATION", "decision": "REVISE", "feedback": "more", "status": "REVISION_REQUESTED"}).to_string(),
        thread_id: Some("pair-9".into()),
        importance: crate::api::Importance::Normal,
        ack_required: false,
    }
}

fn fate(engine: &mut Engine, sent: Vec<Draft>) -> Fate {
    ask(
        engine,
        ask::CheckpointFate {
            key: key(),
            session: "pair-9".into(),
            opened: Some(2),
            entry: 0,
            sent,
        },
    )
    .unwrap()
}

/// Signs a record as the page does (the engine writes the bytes and the message).
fn signed(engine: &mut Engine, record: ReviewRecord) -> Draft {
    let key_pair = SigningKey::from_bytes(&[5; 32]);
    let line = TrailLine::new(record, None, hex(key_pair.verifying_key().as_bytes()));
    let text = ask(engine, ask::ToSign { key: key(), line }).unwrap();
    let signature = hex(&key_pair.sign(text.as_bytes()).to_bytes());
    ask(engine, ask::Seal(signature)).unwrap()
}

fn record(decision: &str, server_id: u64) -> ReviewRecord {
    ReviewRecord {
        reviewer: "Ada".into(),
        project: "repo".into(),
        session: "pair-9".into(),
        checkpoint: Checkpoint::ContractReview,
        decision: decision.into(),
        outcome: Outcome::Decided,
        decided_at_ms: 0,
        decided_at: "2026-01-01 00:03:00".into(),
        artifacts: Vec::new(),
        sent: vec![switchboard_core::evidence::record::Sent {
            from: P.into(),
            to: P.into(),
            subject: "CONTRACT_REVISION_REQUESTED".into(),
            thread_id: Some("pair-9".into()),
            body_md: revise().body_md,
            server_id: Some(server_id),
        }],
    }
}

/// The session's records as the session view shows them.
fn trail(engine: &mut Engine) -> String {
    let asked = ask::Trail {
        key: key(),
        session: "pair-9".into(),
    };
    ask(engine, asked).unwrap().0
}

fn as_row(id: u64, draft: &Draft) -> MailRow {
    MailRow {
        id,
        thread_id: draft.thread_id.clone(),
        from: draft.sender.clone().unwrap_or_default(),
        to: draft.to.clone(),
        subject: draft.subject.clone(),
        created_ts: format!("2026-01-01T00:{id:02}:00Z"),
        body_md: draft.body_md.clone(),
        ..MailRow::default()
    }
}

#[test]
fn a_checkpoint_is_open_sent_once_or_decided_elsewhere_by_the_trails_reviewer() {
    let mut engine = Engine::new();
    load(&mut engine, at_review());
    assert_eq!(fate(&mut engine, vec![revise()]), Fate::Open);

    // The decision is stored (its reply lost): read back, it is the one being sent.
    load(&mut engine, vec![as_row(3, &revise())]);
    assert_eq!(fate(&mut engine, vec![revise()]), Fate::Sent(3));

    // Another reviewer's: who decided, and when; the trail names the reviewer.
    let trail = signed(&mut engine, record("REVISE: more", 3));
    load(&mut engine, vec![as_row(4, &trail)]);
    let mut other = revise();
    other.body_md = other.body_md.replace("more", "other");
    let Fate::Closed(words) = fate(&mut engine, vec![other]) else {
        panic!("decided elsewhere");
    };
    assert!(
        words.starts_with("Checkpoint #1 of pair-9 was decided elsewhere: REVISE, sent by BlueLake (reviewer Ada) as CONTRACT_REVISION_REQUESTED (message 3) at "),
        "{words}"
    );
    // The trail's messages are no protocol traffic: the session saw three messages.
    let summary = ask(
        &mut engine,
        ask::Load {
            key: key(),
            rows: Vec::new(),
            reset: false,
            coverage: Coverage::Whole,
            newer: false,
            pending: None,
            agents: None,
        },
    )
    .unwrap();
    assert_eq!(summary.messages, 3);
}

#[test]
fn the_trail_is_written_chained_and_read_back_from_the_mail() {
    let mut engine = Engine::new();
    load(&mut engine, at_review());
    load(&mut engine, vec![as_row(3, &revise())]);
    let first = signed(&mut engine, record("REVISE: more", 3));
    assert_eq!(first.sender.as_deref(), Some("QuietLantern"));
    load(&mut engine, vec![as_row(4, &first)]);
    let second = signed(&mut engine, record("ABORT", 5));
    // Written twice (a retry whose reply was lost): read once.
    load(&mut engine, vec![as_row(6, &second), as_row(7, &second)]);
    let html = trail(&mut engine);
    assert!(
        html.contains(
            r#"data-valid="true">2 record(s) in repo's review trail: chain and signatures verified"#
        ),
        "{html}"
    );
    assert_eq!(
        html.matches(r#"<li class="trail-record" data-outcome="decided" data-valid="true">"#)
            .count(),
        2
    );
    assert!(html.contains(r#"<span class="reviewer">Ada</span>"#));
    assert!(
        html.contains("Export the project&#39;s trail as JSON Lines")
            || html.contains("Export the project's trail as JSON Lines")
    );
    let second_line = TrailLine::parse(&second.body_md).unwrap();
    let first_line = TrailLine::parse(&first.body_md).unwrap();
    assert_eq!(second_line.prev, Some(first_line.digest()));
}

#[test]
fn a_checkpoint_the_builder_ended_is_a_timeout_never_a_decision() {
    let mut engine = Engine::new();
    load(&mut engine, at_implementation_review());
    let cards = ask(
        &mut engine,
        ask::Checkpoints {
            key: key(),
            now_ms: 0,
            reveal: false,
        },
    )
    .unwrap();
    assert_eq!(cards[0].concerns, Vec::new());
    load(
        &mut engine,
        vec![row(
            5,
            B,
            P,
            "SESSION_ABORT",
            &json!({"phase": "BUILD_COMPLETE", "reason": "No response", "status": "ABORTED", "cleanup_required": true}),
        )],
    );
    let asked = ask::CheckpointFate {
        key: key(),
        session: "pair-9".into(),
        opened: Some(4),
        entry: 0,
        sent: Vec::new(),
    };
    let Fate::Closed(words) = ask(&mut engine, asked).unwrap() else {
        panic!("closed");
    };
    assert!(
        words.starts_with(
            "Checkpoint #2 of pair-9 timed out: GreenCastle sent SESSION_ABORT (message 5) at "
        ),
        "{words}"
    );
    let html = trail(&mut engine);
    assert!(html.contains(r#"data-outcome="timed_out"><strong>#2 timed out</strong>: GreenCastle sent SESSION_ABORT (message 5)"#), "{html}");
}

/// The evidence of `pair-9` from `files` (no listing: the root is listed as `names`).
fn evidence(
    engine: &mut Engine,
    files: &[(&str, &str)],
    names: &[&str],
) -> crate::model::EvidenceView {
    let asked = ask::Evidence {
        key: key(),
        session: "pair-9".into(),
        files: files
            .iter()
            .map(|(p, t)| (resolve(p).unwrap(), FileRead::Bytes(t.as_bytes().to_vec())))
            .collect(),
        listings: vec![(
            String::new(),
            names.iter().map(|n| (*n).to_owned()).collect(),
        )],
        baselines: Vec::new(),
        reveal: false,
    };
    super::evidence::detail(engine.traffic(&key()).unwrap(), &asked).unwrap()
}

#[test]
fn a_change_order_naming_requirements_txt_is_checked_against_it() {
    let mut engine = Engine::new();
    let mut rows = contracted();
    rows.push(row(
        4,
        B,
        P,
        "CHANGE_ORDER",
        &json!({"phase": "BUILD_BLOCKED", "status": "AWAITING_MEDIATION", "change_order": {
        "status": "CHANGE_ORDER_REQUIRED", "failure_mode": "dependency_missing",
        "evidence": "ModuleNotFoundError: No module named 'jwt'", "attempted_fixes": ["hashlib"],
        "requested_changes": "Add 'pyjwt>=2.8.0' to requirements.txt"}}),
    ));
    load(&mut engine, rows);
    let view = evidence(
        &mut engine,
        &[("requirements.txt", "pyjwt>=2.8.0\n")],
        &["requirements.txt"],
    );
    let order = view.change_order.unwrap();
    assert_eq!(order.manifests, vec![resolve("requirements.txt").unwrap()]);
    assert!(
        order.dependencies.iter().any(|d| !d.declared.is_empty()),
        "{:?}",
        order.dependencies
    );
}

#[test]
fn a_diff_that_does_not_parse_without_a_report_is_said_and_shown() {
    let mut engine = Engine::new();
    load(&mut engine, at_implementation_review());
    let asked = ask::Evidence {
        key: key(),
        session: "pair-9".into(),
        files: vec![(
            resolve("tmp/pair_1_build.diff").unwrap(),
            FileRead::Bytes(b"not a diff at all\n".to_vec()),
        )],
        listings: vec![("tmp".into(), vec!["pair_1_build.diff".into()])],
        baselines: Vec::new(),
        reveal: false,
    };
    let view = super::evidence::detail(engine.traffic(&key()).unwrap(), &asked).unwrap();
    let audit = view
        .audit
        .clone()
        .expect("the audit section says why there is no audit");
    assert!(audit.report.is_none());
    let note = audit.note.unwrap();
    assert!(
        note.contains("tmp/pair_1_build.diff is not a diff"),
        "{note}"
    );
    assert!(note.contains("nothing was audited"), "{note}");
    let diff = view
        .artifacts
        .iter()
        .find(|a| a.written == "tmp/pair_1_build.diff")
        .unwrap();
    assert_eq!(diff.shown, Shown::Code(vec!["not a diff at all".into()]));
    assert!(super::concerns::of_evidence(&view)
        .iter()
        .any(|c| matches!(c, Concern::MissingEvidence(n) if n.contains("not a diff"))));
}

#[test]
fn an_audit_report_mailed_as_audit_report_is_the_sessions_audit() {
    let mut engine = Engine::new();
    let mut rows = at_implementation_review();
    rows.push(row(5, P, B, "AUDIT_REPORT", &json!({"status": "FAIL", "severity": "CRITICAL", "scheming_detected": true,
        "issues": [{"type": "integrity", "severity": "CRITICAL", "description": "hard-coded", "location": "m.py:4"},
            {"type": "quality", "severity": "MAJOR", "description": "does not parse", "location": "tmp/pair_1_tests.py:3", "code": "TEST_SYNTAX_ERROR"}]})));
    load(&mut engine, rows);
    let cards = ask(
        &mut engine,
        ask::Checkpoints {
            key: key(),
            now_ms: 0,
            reveal: false,
        },
    )
    .unwrap();
    assert!(
        cards[0].audits.0.contains("m.py:4"),
        "{}",
        cards[0].audits.0
    );
    assert_eq!(
        cards[0].concerns,
        vec![
            Concern::CriticalFindings(vec!["m.py:4".into()]),
            Concern::FailingTests("test files do not parse (tmp/pair_1_tests.py:3)".into())
        ]
    );
    let audits = ask(
        &mut engine,
        ask::Audits {
            key: key(),
            reveal: false,
        },
    )
    .unwrap();
    assert!(audits.0.contains("m.py:4"));
}
