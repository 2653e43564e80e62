//! The agents' Pair messages (PAIR_INIT, CONTRACT_DRAFT, BUILD_COMPLETE, CHANGE_ORDER) are
//! valid by construction: for arbitrary texts and artifact names, each built message
//! validates strictly, as the `{to, subject, body}` form and as an Agent Mail row (subject =
//! type, `body_md` = the body's JSON), and the session engine reads it back.

use proptest::prelude::*;
use serde_json::json;
use switchboard_core::agent_mail::Envelope;
use switchboard_core::fingerprint::fingerprint;
use switchboard_core::protocol::builders::pair::{
    build_complete, change_order, contract_draft, pair_init, ChangeRequest, DraftArtifacts,
    FailureMode, PairMessage,
};
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::registry::families::pair::Role;
use switchboard_core::protocol::{validate, Options};
use switchboard_core::session::pair::checkpoint::Checkpoint;
use switchboard_core::session::pair::PairBook;

fn text() -> impl Strategy<Value = Text> {
    "[ -~]{0,20}[!-~][ -~\u{e9}\u{1F600}<>&\"']{0,20}"
        .prop_map(|s| Text::new(&s).expect("non-blank"))
}

fn artifact() -> impl Strategy<Value = ArtifactPath> {
    ("[0-9]{1,12}", "[!-~]{1,24}")
        .prop_map(|(n, rest)| ArtifactPath::new(&format!("tmp/pair_{n}_{rest}")).expect("form"))
}

fn mode() -> impl Strategy<Value = FailureMode> {
    prop_oneof![
        Just(FailureMode::LogicImpossible),
        Just(FailureMode::DependencyMissing),
        Just(FailureMode::TestFlakiness)
    ]
}

fn assert_valid(message: &PairMessage) {
    let report = validate(&message.to_value(), &Options::default());
    assert!(report.valid, "{}: {:?}", message.subject, report.issues);
    assert_eq!(report.message_type, Some(message.subject));
    let row = json!({"id": 1, "subject": message.subject, "from": message.from,
        "to": [message.to], "body_md": message.body_md()});
    let carried = validate(&row, &Options::default());
    assert!(
        carried.valid,
        "{} as a row: {:?}",
        message.subject, carried.issues
    );
}

proptest! {
    #[test]
    fn agent_messages_validate_for_any_text(
        a in text(), b in text(), task in text(),
        (safety, spec, tests) in (artifact(), artifact(), artifact()),
        files in prop::collection::vec(text(), 1..4),
        failure_mode in mode(), evidence in text(), fixes in prop::collection::vec(text(), 0..3),
        wanted in text(), planner in any::<bool>(), fingerprinted in any::<bool>(),
    ) {
        let role = if planner { Role::Planner } else { Role::Builder };
        let prints = fingerprint([(tests.as_str(), &b"assert True\n"[..])]).ok();
        let prints = prints.as_ref().filter(|_| fingerprinted);
        assert_valid(&pair_init(&a, &b, &task, role));
        let draft = DraftArtifacts { safety_reasoning: safety, spec, tests };
        assert_valid(&contract_draft(&a, &b, &draft, prints));
        assert_valid(&build_complete(&b, &a, &files[0], &files[1..], prints));
        let request = ChangeRequest {
            failure_mode,
            evidence,
            attempted_fixes: fixes,
            requested_changes: wanted,
        };
        assert_valid(&change_order(&b, &a, &request));
    }
}

#[test]
fn a_session_built_from_them_waits_at_each_checkpoint() {
    let t = |s: &str| Text::new(s).unwrap();
    let p = |s: &str| ArtifactPath::new(s).unwrap();
    let (planner, builder) = (t("BlueLake"), t("GreenCastle"));
    let draft = DraftArtifacts {
        safety_reasoning: p("tmp/pair_1_safety.md"),
        spec: p("tmp/pair_1_spec_draft.md"),
        tests: p("tmp/pair_1_tests.py"),
    };
    let request = ChangeRequest {
        failure_mode: FailureMode::DependencyMissing,
        evidence: t("ImportError: jwt"),
        attempted_fixes: vec![t("stdlib hmac")],
        requested_changes: t("allow pyjwt"),
    };
    let messages = [
        pair_init(&planner, &builder, &t("JWT auth"), Role::Planner),
        contract_draft(&planner, &builder, &draft, None),
    ];
    let mut book = PairBook::new();
    let observe = |book: &mut PairBook, i: usize, m: &PairMessage| {
        let row = json!({"id": i + 1, "thread_id": "T", "subject": m.subject, "from": m.from,
            "to": [m.to], "created_ts": format!("2026-01-01T00:00:{i:02}Z"), "body_md": m.body_md()});
        book.observe(&Envelope::decode(i, row, &Options::default()));
    };
    for (i, m) in messages.iter().enumerate() {
        observe(&mut book, i, m);
    }
    let session = &book.sessions()[0];
    assert_eq!(session.open_checkpoint(), Some(Checkpoint::ContractReview));
    let approved = session.decide_text("APPROVED").unwrap();
    observe(&mut book, 2, &approved[0]);
    observe(&mut book, 3, &change_order(&builder, &planner, &request));
    let session = &book.sessions()[0];
    assert_eq!(
        session.open_checkpoint(),
        Some(Checkpoint::ChangeOrderReview)
    );
    assert_eq!(
        session.change_orders[0].request.evidence,
        "ImportError: jwt"
    );
    let rejected = session.decide_text("REJECT CHANGE: use hmac").unwrap();
    observe(&mut book, 4, &rejected[0]);
    observe(
        &mut book,
        5,
        &build_complete(&builder, &planner, &t("auth.py"), &[], None),
    );
    let session = &book.sessions()[0];
    assert_eq!(
        session.open_checkpoint(),
        Some(Checkpoint::ImplementationReview)
    );
    assert!(session.violations.is_empty(), "{:?}", session.violations);
}
