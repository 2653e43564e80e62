//! Checkpoint decisions, typed end to end: over every checkpoint and every decision, with any
//! agents, artifacts, thread, texts and reviewer fingerprints, `PairSession::drafts` either
//! refuses with the error the decision deserves, or gives drafts that
//! - validate strictly under the core's own validator as the Agent Mail rows they are sent
//!   as (subject = type, `body_md` = the body's JSON), with no issue at all;
//! - go to the agent the decision concerns (REVISE: the planner; otherwise the builder), in
//!   the session's thread, with the importance and acknowledgement the session asks;
//! - mean what was decided: folded into the session, they close the checkpoint with that
//!   decision and its text, and APPROVED carries the reviewer's fingerprints when given.

use proptest::prelude::*;
use serde_json::{json, Value};
use switchboard_core::agent_mail::{Draft, Envelope, Importance};
use switchboard_core::fingerprint::{fingerprint, Fingerprints};
use switchboard_core::protocol::builders::pair::{
    build_complete, change_order, contract_draft, pair_init, ChangeRequest, DraftArtifacts,
    FailureMode, PairMessage,
};
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::registry::families::pair::Role;
use switchboard_core::protocol::{validate, Options};
use switchboard_core::session::pair::checkpoint::{Checkpoint, DecisionError, DecisionKind};
use switchboard_core::session::pair::decide::Decide;
use switchboard_core::session::pair::{PairBook, PairSession};

fn name() -> impl Strategy<Value = Text> {
    "[A-Z][a-z]{2,8}[A-Z][a-z]{2,8}".prop_map(|s| Text::new(&s).expect("non-blank"))
}

fn text() -> impl Strategy<Value = Text> {
    "[ -~]{0,12}[!-~][ -~\u{e9}<>&\"'\n]{0,20}".prop_map(|s| Text::new(&s).expect("non-blank"))
}

fn files() -> impl Strategy<Value = Fingerprints> {
    prop::collection::vec(("tests/[a-z]{1,8}\\.py", "[ -~]{0,16}"), 1..3).prop_map(|files| {
        let mut seen = std::collections::BTreeSet::new();
        let unique: Vec<(String, String)> = files
            .into_iter()
            .filter(|(p, _)| seen.insert(p.clone()))
            .collect();
        fingerprint(unique.iter().map(|(p, b)| (p.as_str(), b.as_bytes()))).expect("paths")
    })
}

/// The log that opens `checkpoint`: Agent Mail rows from the agents' own builders.
#[allow(clippy::too_many_arguments)]
fn opening(
    checkpoint: Checkpoint,
    planner: &Text,
    builder: &Text,
    stamp: u64,
    baseline: Option<&Fingerprints>,
    accepted_before: bool,
) -> Vec<PairMessage> {
    let art = |name: &str| ArtifactPath::new(&format!("tmp/pair_{stamp}_{name}")).expect("form");
    let task = Text::new("Add JWT auth").expect("text");
    let draft = DraftArtifacts {
        safety_reasoning: art("safety_reasoning.md"),
        spec: art("spec_draft.md"),
        tests: art("tests.py"),
    };
    let mut log = vec![
        pair_init(planner, builder, &task, Role::Planner),
        contract_draft(planner, builder, &draft, baseline),
    ];
    if checkpoint == Checkpoint::ContractReview {
        return log;
    }
    let final_artifacts = switchboard_core::protocol::builders::pair::ContractArtifacts {
        spec: draft.spec.finalized(),
        tests: draft.tests.clone(),
    };
    log.push(switchboard_core::protocol::builders::pair::contract_final(
        planner,
        builder,
        &final_artifacts,
        baseline,
    ));
    let request = ChangeRequest {
        failure_mode: FailureMode::DependencyMissing,
        evidence: Text::new("ImportError: jwt").expect("text"),
        attempted_fixes: Vec::new(),
        requested_changes: Text::new("Allow pyjwt").expect("text"),
    };
    if accepted_before {
        log.push(change_order(builder, planner, &request));
        log.push(
            switchboard_core::protocol::builders::pair::change_order_accepted(
                planner,
                builder,
                &switchboard_core::protocol::builders::pair::ContractArtifacts {
                    spec: final_artifacts.spec.next_version(),
                    tests: final_artifacts.tests.next_version(),
                },
                &Text::new("fine").expect("text"),
                None,
            ),
        );
    }
    match checkpoint {
        Checkpoint::ImplementationReview => {
            let file = Text::new("auth/jwt.py").expect("text");
            log.push(build_complete(builder, planner, &file, &[], None));
        }
        _ => log.push(change_order(builder, planner, &request)),
    }
    log
}

/// A message, or a draft, as the Agent Mail row the server stores.
fn as_row(id: usize, draft: &Draft) -> Value {
    json!({"id": id, "thread_id": draft.thread_id, "from": draft.sender, "to": draft.to,
        "subject": draft.subject, "created_ts": format!("2026-03-02T09:{:02}:00Z", id.min(59)),
        "importance": draft.importance.as_str(), "ack_required": draft.ack_required,
        "body_md": draft.body_md})
}

fn replay(rows: &[Value]) -> PairSession {
    let mut book = PairBook::default();
    for (i, row) in rows.iter().enumerate() {
        book.observe(&Envelope::decode(i, row.clone(), &Options::default()));
    }
    book.sessions()[0].clone()
}

/// What a decision at `checkpoint` with `text` must be refused with, if anything.
fn refusal(
    checkpoint: Checkpoint,
    kind: DecisionKind,
    text: Option<&Text>,
) -> Option<&'static str> {
    if !checkpoint.decisions().contains(&kind) {
        return Some("not_allowed");
    }
    match (kind.requires(), text) {
        (Some(_), None) => Some("missing_text"),
        (None, Some(_)) if kind != DecisionKind::Abort => Some("unexpected_text"),
        _ => None,
    }
}

fn code(error: &DecisionError) -> &'static str {
    match error {
        DecisionError::NotAllowed { .. } => "not_allowed",
        DecisionError::MissingText { .. } => "missing_text",
        DecisionError::UnexpectedText { .. } => "unexpected_text",
        DecisionError::NotOpen { .. } => "not_open",
        DecisionError::NoOpenCheckpoint => "no_open_checkpoint",
        DecisionError::UnknownAgent { .. } => "unknown_agent",
        DecisionError::Unknown { .. } => "unknown",
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_decision_at_every_checkpoint_drafts_valid_messages(
        open in prop::sample::select(Checkpoint::ALL.to_vec()),
        decided in prop::sample::select(Checkpoint::ALL.to_vec()),
        kind in prop::sample::select(DecisionKind::ALL.to_vec()),
        text in prop::option::of(text()),
        (planner, builder) in (name(), name()).prop_filter("two agents", |(a, b)| a != b),
        stamp in 1u64..10_000_000_000,
        baseline in prop::option::of(files()),
        reviewed in prop::option::of(files()),
        accepted_before in any::<bool>(),
        threaded in any::<bool>(),
    ) {
        let thread = threaded.then(|| format!("pair-{stamp}"));
        let mut rows: Vec<Value> = opening(open, &planner, &builder, stamp, baseline.as_ref(), accepted_before)
            .iter()
            .map(|m| switchboard_core::session::pair::decide::draft(m, thread.as_deref()))
            .enumerate()
            .map(|(i, d)| as_row(i + 1, &d))
            .collect();
        if open == Checkpoint::ImplementationReview {
            // The automated audit the merge needs (Pattern 1, step 9).
            let id = rows.len() + 1;
            rows.push(json!({"id": id, "thread_id": thread, "from": planner.as_str(), "to": [builder.as_str()],
                "subject": "audit", "created_ts": format!("2026-03-02T09:{:02}:00Z", id.min(59)),
                "body_md": r#"{"status": "PASS", "severity": "MINOR", "scheming_detected": false, "issues": []}"#}));
        }
        let session = replay(&rows);
        prop_assert_eq!(session.open_checkpoint(), Some(open));
        let decide = Decide { checkpoint: decided, kind, text: text.clone(), reviewed: reviewed.clone() };
        // The request crosses the worker boundary as JSON and back unchanged.
        let wire: Decide = serde_json::from_str(&serde_json::to_string(&decide).unwrap()).unwrap();
        prop_assert_eq!(&wire, &decide);
        let result = session.drafts(&decide);
        let expected = if decided != open { Some("not_open") } else { refusal(open, kind, text.as_ref()) };
        let drafts = match (expected, result) {
            (Some(want), Err(e)) => {
                prop_assert_eq!(code(&e), want, "{}", e);
                return Ok(());
            }
            (Some(want), Ok(d)) => return Err(TestCaseError::fail(format!("expected {want}, got {d:?}"))),
            (None, Err(e)) => return Err(TestCaseError::fail(format!("refused: {e}"))),
            (None, Ok(d)) => d,
        };
        prop_assert_eq!(drafts.len(), 1);
        let d = &drafts[0];
        let report = validate(&as_row(99, d), &Options::default());
        prop_assert!(report.valid && report.issues.is_empty(), "{}: {:?}", d.subject, report.issues);
        let to = if kind == DecisionKind::Revise { &planner } else { &builder };
        prop_assert_eq!(&d.to, &vec![to.as_str().to_owned()]);
        prop_assert_eq!(d.sender.as_deref(), Some(planner.as_str()));
        prop_assert_eq!(&d.thread_id, &thread);
        let urgent = kind == DecisionKind::Abort;
        prop_assert_eq!(d.importance, if urgent { Importance::High } else { Importance::Normal });
        let awaited = matches!(kind, DecisionKind::Approved | DecisionKind::Reject
            | DecisionKind::AcceptChange | DecisionKind::RejectChange);
        prop_assert_eq!(d.ack_required, urgent || awaited);
        if kind == DecisionKind::Approved {
            let body: Value = serde_json::from_str(&d.body_md).unwrap();
            let sent = body.get("test_fingerprints").map(|f| Fingerprints::from_value(f).unwrap());
            prop_assert_eq!(sent, reviewed.clone().or(baseline.clone()));
        }
        // Folded into the session, the draft closes the checkpoint with the decision.
        rows.push(as_row(rows.len() + 1, d));
        let after = replay(&rows);
        let record = after.checkpoints.iter().rev().find(|c| c.checkpoint == open).unwrap();
        prop_assert_eq!(record.decision, Some(kind));
        let carried = match kind {
            DecisionKind::Approved | DecisionKind::MergeApproved => None,
            _ => text.as_ref().map(|t| t.as_str().to_owned()),
        };
        if kind != DecisionKind::Abort || text.is_some() {
            prop_assert_eq!(&record.text, &carried);
        }
        prop_assert!(after.violations.len() == session.violations.len(), "{:?}", after.violations);
    }
}
