//! Property tests of the session engine and its parsers: no log crashes it, its invariants
//! hold on any log, the Pair phases follow a model of the transition table, the timestamp
//! parser agrees with chrono, decisions round-trip, and the builders' messages are valid.

mod session_common;

use proptest::prelude::*;
use serde_json::{json, Value};
use session_common::{at, body, BUILDER, PLANNER};
use switchboard_core::agent_mail::{read_log, Envelope};
use switchboard_core::protocol::builders::pair as build;
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::protocol::{self, Options};
use switchboard_core::session::pair::checkpoint::{Checkpoint, Decision, DecisionKind};
use switchboard_core::session::pair::Outcome;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

const KINDS: &[&str] = &[
    "PAIR_INIT",
    "CLARIFICATION_REQUEST",
    "CLARIFICATION_RESPONSE",
    "CONTRACT_DRAFT",
    "CONTRACT_REVISION_REQUESTED",
    "CONTRACT_FINAL",
    "BUILD_COMPLETE",
    "CHANGE_ORDER",
    "CHANGE_ORDER_ACCEPTED",
    "CHANGE_ORDER_REJECTED",
    "BUILD_REJECTED",
    "SESSION_COMPLETE",
    "SESSION_ABORT",
    "TIMEOUT_WARNING",
];

/// One generated log entry: a Pair row (maybe mangled), another family's row, or junk.
fn entry() -> impl Strategy<Value = Value> {
    let agents = prop::sample::select(vec![PLANNER, BUILDER, "RedStone", ""]);
    let threads = prop::option::of(prop::sample::select(vec!["T1", "T2", "1", "2"]));
    let pair = (
        prop::sample::select(KINDS),
        agents.clone(),
        agents,
        threads,
        0i64..200,
        any::<bool>(),
        0u8..10,
    );
    let pair = pair.prop_map(|(kind, from, to, thread, minute, timed, mangle)| {
        let mut body = body(kind);
        match mangle {
            0 => body = json!({"phase": 5}),
            1 => body["test_fingerprints"] = json!({"x": "sha256:zz"}),
            2 => body = json!("not an object"),
            _ => {}
        }
        let mut r = json!({"id": minute as u64 + 1, "from": from, "to": [to], "subject": kind, "body_md": body.to_string()});
        if let Some(t) = thread {
            r["thread_id"] = json!(t);
        }
        if timed {
            r["created_ts"] = json!(at(minute, 0).to_rfc3339());
        }
        if mangle == 3 {
            r["body_md"] = json!("{ broken");
        }
        r
    });
    let other = prop_oneof![
        Just(
            json!({"id": 1, "subject": "hi", "from": "a", "to": ["b"], "body_md": "plain", "ack_required": true})
        ),
        Just(
            json!({"message_type": "PROGRESS_UPDATE", "agent_id": "agent-1", "task_id": "TASK-1", "timestamp": "2026-01-01T00:00:00Z", "status": "implementing", "progress_percent": 10, "current_activity": "x"})
        ),
        Just(json!({"type": "request_review"})),
        Just(json!({"allowed": false, "reason": "no"})),
        Just(json!([1, 2])),
        Just(json!(null)),
    ];
    prop_oneof![8 => pair, 1 => other]
}

fn replay(rows: &[Value]) -> (Vec<Envelope>, Book) {
    let envelopes = read_log(&serde_json::to_vec(rows).unwrap(), &Options::default()).unwrap();
    let book = Book::replay(&envelopes, PairClaudeConfig::default());
    (envelopes, book)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// No log crashes the engine, and on any log: every Pair message lands on exactly one
    /// timeline, a violation is about a message on its session's timeline, an ended session has no open
    /// checkpoint and nothing due, a pending change order means BUILD_BLOCKED, and what is
    /// due is never in the future.
    #[test]
    fn any_log_keeps_the_invariants(rows in prop::collection::vec(entry(), 1..40), now in 0i64..400) {
        let (envelopes, book) = replay(&rows);
        let now = at(now, 0);
        let pair = envelopes.iter().filter(|e| e.family() == Some(protocol::FamilyId::Pair)).count();
        let on_timelines: usize = book.pair.sessions().iter().map(|s| s.timeline.len()).sum();
        prop_assert_eq!(pair, on_timelines);
        for s in book.pair.sessions() {
            // Every violation is about a message of the session, and every message the
            // timeline flags has its violation listed (messages may also break rules they are
            // still applied despite: a wrong recipient, a missing audit).
            for v in &s.violations {
                prop_assert!(s.timeline.iter().any(|t| t.entry == v.entry), "{:?}", v);
            }
            for t in s.timeline.iter().filter(|t| t.violation.is_some()) {
                prop_assert!(s.violations.iter().any(|v| v.entry == t.entry && Some(v.code) == t.violation));
            }
            let view = s.view(now);
            if s.ended() {
                prop_assert!(s.open_checkpoint().is_none());
                prop_assert!(view.due.is_empty() && view.next_deadline.is_none());
            }
            match s.open_checkpoint() {
                Some(Checkpoint::ContractReview) => prop_assert_eq!(s.phase, Some(Phase::ContractGeneration)),
                Some(Checkpoint::ImplementationReview) => prop_assert_eq!(s.phase, Some(Phase::BuildComplete)),
                Some(Checkpoint::ChangeOrderReview) => prop_assert_eq!(s.phase, Some(Phase::BuildBlocked)),
                None => {}
            }
            let pending = s.change_orders.iter().filter(|c| c.outcome == Outcome::Pending).count();
            prop_assert!(pending <= 1);
            if pending == 1 {
                prop_assert_eq!(s.phase, Some(Phase::BuildBlocked));
            }
            prop_assert!(view.due.iter().all(|d| d.at <= now));
            prop_assert!(view.next_action.iter().all(|d| d.at > now));
            for d in &view.due {
                if let Some(m) = &d.message {
                    prop_assert!(protocol::validate(m, &Options::strict()).valid, "{}", m);
                }
            }
            // Any decision the open checkpoint allows is valid by construction.
            if let Some(c) = s.open_checkpoint() {
                for kind in c.decisions() {
                    let d = Decision::new(*kind, if kind.requires().is_some() { "because" } else { "" }).unwrap();
                    if let Ok(msgs) = s.decide(&d) {
                        for m in msgs {
                            prop_assert!(protocol::validate(&m.to_value(), &Options::strict()).valid, "{}", m.to_value());
                        }
                    }
                }
            }
        }
        prop_assert!(serde_json::to_string(&book.sessions(now)).is_ok());
        prop_assert!(serde_json::to_string(&book.boards(now)).is_ok());
    }

    /// For one session of valid messages between the two partners, the phase is what the
    /// seed's flow gives: a model written from the communication patterns, independent of
    /// the transition table.
    #[test]
    fn pair_phases_follow_the_model(kinds in prop::collection::vec(prop::sample::select(KINDS), 1..25)) {
        let rows: Vec<Value> = kinds.iter().enumerate().map(|(i, kind)| {
            let from_builder = matches!(*kind, "BUILD_COMPLETE" | "CHANGE_ORDER");
            let (from, to) = if from_builder { (BUILDER, PLANNER) } else { (PLANNER, BUILDER) };
            json!({"id": i + 1, "thread_id": "T", "from": from, "to": [to], "subject": kind,
                "created_ts": at(i as i64, 0).to_rfc3339(), "body_md": body(kind).to_string()})
        }).collect();
        let (_, book) = replay(&rows);
        let s = &book.pair.sessions()[0];
        prop_assert_eq!(s.phase.map(Phase::as_str), model_phase(&kinds), "{:?}", kinds);
    }

    /// The timestamp parser agrees with chrono on every RFC 3339 time it generates.
    #[test]
    fn timestamps_agree_with_chrono(
        y in 1i32..9999, mo in 1u32..13, d in 1u32..29, h in 0u32..24, mi in 0u32..60, s in 0u32..60,
        frac in prop::option::of("[0-9]{1,9}"), offset in prop::option::of((any::<bool>(), 0u32..24, 0u32..60)),
    ) {
        let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
        let zone = offset.map_or_else(|| "Z".to_owned(), |(plus, oh, om)| format!("{}{oh:02}:{om:02}", if plus { '+' } else { '-' }));
        let text = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{frac}{zone}");
        let ours = Timestamp::parse(&text).expect("parses");
        let theirs = chrono::DateTime::parse_from_rfc3339(&text).unwrap().timestamp_millis();
        prop_assert_eq!(ours.0, theirs, "{}", text);
        prop_assert_eq!(Timestamp::parse(&ours.to_rfc3339()), Some(ours));
    }

    /// Arbitrary text never panics the timestamp parser and only dates chrono accepts parse
    /// (with the naive and space forms Agent Mail writes read as UTC).
    #[test]
    fn the_timestamp_parser_accepts_only_times(text in "[0-9TZ:+. -]{0,32}") {
        if let Some(t) = Timestamp::parse(&text) {
            let t2 = text.trim().replacen(' ', "T", 1);
            let zoned = if t2.len() <= 19 || !(t2.ends_with('Z') || t2[19..].contains(['+', '-'])) { format!("{t2}Z") } else { t2 };
            let c = chrono::DateTime::parse_from_rfc3339(&zoned);
            prop_assert!(c.is_ok(), "{} parsed as {:?}", text, t);
            prop_assert_eq!(c.unwrap().timestamp_millis(), t.0);
        }
    }

    /// What a reviewer types round-trips through the decision's literal.
    #[test]
    fn decisions_round_trip(which in 0usize..7, text in "[^:\\n]{0,6}[a-z][ -~]{0,30}") {
        let kinds = [
            (Checkpoint::ContractReview, DecisionKind::Approved), (Checkpoint::ContractReview, DecisionKind::Revise),
            (Checkpoint::ContractReview, DecisionKind::Abort), (Checkpoint::ImplementationReview, DecisionKind::MergeApproved),
            (Checkpoint::ImplementationReview, DecisionKind::Reject), (Checkpoint::ChangeOrderReview, DecisionKind::AcceptChange),
            (Checkpoint::ChangeOrderReview, DecisionKind::RejectChange),
        ];
        let (checkpoint, kind) = kinds[which];
        let decision = Decision::new(kind, if kind.requires().is_some() { &text } else { "" }).unwrap();
        // The keyword in any case, the text as typed.
        let typed = match &decision.text {
            Some(t) => format!("{}: {t}", kind.keyword().to_lowercase()),
            None => kind.keyword().to_lowercase(),
        };
        prop_assert_eq!(Decision::parse(checkpoint, &decision.literal()).unwrap(), decision.clone());
        let parsed = Decision::parse(checkpoint, &typed).unwrap();
        prop_assert_eq!(parsed, decision);
    }

    /// The Pair builders' messages are valid for any text and artifact path.
    #[test]
    fn pair_builders_are_valid_by_construction(
        text in "\\PC*[^\\s]\\PC*", name in "[a-z_.]{1,12}", digits in "[0-9]{1,10}", n in 1u32..5,
    ) {
        let t = Text::new(&text).unwrap();
        let (p, b) = (Text::new(PLANNER).unwrap(), Text::new(BUILDER).unwrap());
        let art = |s: &str| ArtifactPath::new(&format!("tmp/pair_{digits}_{s}{name}")).unwrap();
        let artifacts = build::ContractArtifacts { spec: art("spec"), tests: art("tests") };
        let next = build::ContractArtifacts { spec: artifacts.spec.next_version(), tests: artifacts.tests.next_version() };
        let msgs = [
            build::contract_final(&p, &b, &artifacts, None),
            build::contract_revision_requested(&p, &p, &t),
            build::session_complete(&p, &b, &t),
            build::build_rejected(&p, &b, &t),
            build::change_order_accepted(&p, &b, &next, &t, None),
            build::change_order_rejected(&p, &b, &t, &t),
            build::session_abort(&p, &b, Phase::ALL[n as usize % Phase::ALL.len()], &t),
            build::timeout_warning(&p, &b, Phase::BuildComplete, 60, 10, n, 2),
        ];
        for m in msgs {
            let r = protocol::validate(&m.to_value(), &Options::strict());
            prop_assert!(r.valid, "{} {:?}", m.to_value(), r);
        }
    }
}

/// The seed's flow, written out by hand: for each phase, the messages that move it and where.
fn model_phase(kinds: &[&str]) -> Option<&'static str> {
    const BEFORE: [Option<&str>; 4] = [
        None,
        Some("CONTRACT_GENERATION"),
        Some("CLARIFICATION"),
        Some("CLARIFICATION_COMPLETE"),
    ];
    const BUILDING: [Option<&str>; 5] = [
        None,
        Some("CONTRACT_FINALIZED"),
        Some("CONTRACT_REVISED"),
        Some("CHANGE_ORDER_REJECTED"),
        Some("BUILD_REJECTED"),
    ];
    let mut phase: Option<&'static str> = None;
    let mut draft_open = false;
    for kind in kinds {
        let before = BEFORE.contains(&phase);
        let building = BUILDING.contains(&phase);
        let next = match *kind {
            _ if matches!(phase, Some("MERGED" | "ABORTED")) => None,
            "PAIR_INIT" if phase.is_none() => Some("CONTRACT_GENERATION"),
            "TIMEOUT_WARNING" if phase.is_none() => Some("CONTRACT_FINALIZED"), // the warning's own phase
            "SESSION_ABORT" => Some("ABORTED"),
            "CLARIFICATION_REQUEST" if before && !draft_open => Some("CLARIFICATION"),
            "CLARIFICATION_RESPONSE" if [None, Some("CLARIFICATION")].contains(&phase) => {
                Some("CLARIFICATION_COMPLETE")
            }
            "CONTRACT_DRAFT" if before => Some("CONTRACT_GENERATION"),
            "CONTRACT_REVISION_REQUESTED" if draft_open => Some("CONTRACT_GENERATION"),
            "CONTRACT_FINAL" if before => Some("CONTRACT_FINALIZED"),
            "BUILD_COMPLETE" if building => Some("BUILD_COMPLETE"),
            "CHANGE_ORDER" if building => Some("BUILD_BLOCKED"),
            "CHANGE_ORDER_ACCEPTED" if [None, Some("BUILD_BLOCKED")].contains(&phase) => {
                Some("CONTRACT_REVISED")
            }
            "CHANGE_ORDER_REJECTED" if [None, Some("BUILD_BLOCKED")].contains(&phase) => {
                Some("CHANGE_ORDER_REJECTED")
            }
            "BUILD_REJECTED" if [None, Some("BUILD_COMPLETE")].contains(&phase) => {
                Some("BUILD_REJECTED")
            }
            "SESSION_COMPLETE" if [None, Some("BUILD_COMPLETE")].contains(&phase) => Some("MERGED"),
            _ => None,
        };
        if let Some(n) = next {
            // A draft opens the contract review; anything else that moves the phase closes it.
            draft_open = *kind == "CONTRACT_DRAFT";
            phase = Some(n);
        }
    }
    phase
}
