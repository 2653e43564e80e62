//! A project's mail delivered in pages, newest first, as a read hands it over: every view
//! the engine answers in between says a session is still being read rather than give it a
//! phase, a checkpoint or a violation, until the mail from before its PAIR_INIT is held; and
//! a later visit's newer mail that does not continue what is held is refused.

use super::tests::ask;
use super::Engine;
use crate::api::MailRow;
use crate::ask;
use crate::model::{Coverage, TrafficKey, TrafficSummary};
use crate::routes::Source;
use switchboard_core::session::pair::checkpoint::Checkpoint;

const INIT: &str = r#"{"protocol_version":"3.1","task":"Bench task","my_role":"PLANNER","your_role":"BUILDER","status":"INITIALIZED"}"#;
const DRAFT: &str = r#"{"phase":"CONTRACT_GENERATION","status":"AWAITING_HUMAN_REVIEW","artifacts":{"safety_reasoning":"tmp/pair_1_safety.md","spec":"tmp/pair_1_spec_draft.md","tests":"tmp/pair_1_tests.py"}}"#;
const FINAL: &str = r#"{"phase":"CONTRACT_FINALIZED","artifacts":{"spec":"tmp/pair_1_spec_final.md","tests":"tmp/pair_1_tests.py"},"contract_immutable":true,"status":"READY_FOR_BUILD"}"#;
const BUILT: &str = r#"{"phase":"BUILD_COMPLETE","test_results":"ALL_PASS","implementation_files":["src/task.py"],"status":"READY_FOR_REVIEW"}"#;

/// Message `id` of thread `thread` at second `second`, from the planner unless `builder`.
fn message(
    id: u64,
    thread: &str,
    second: u32,
    subject: &str,
    body: &str,
    builder: bool,
) -> MailRow {
    let (from, to) = if builder {
        ("GreenCastle", "BlueLake")
    } else {
        ("BlueLake", "GreenCastle")
    };
    MailRow {
        id,
        thread_id: Some(thread.into()),
        from: from.into(),
        to: vec![to.into()],
        subject: subject.into(),
        created_ts: format!("2026-11-12T08:00:{second:02}Z"),
        body_md: body.into(),
        ..MailRow::default()
    }
}

/// A session through its build, waiting at checkpoint #2, from second `start` on.
fn session(first_id: u64, thread: &str, start: u32) -> Vec<MailRow> {
    [
        ("PAIR_INIT", INIT, false),
        ("CONTRACT_DRAFT", DRAFT, false),
        ("CONTRACT_FINAL", FINAL, false),
        ("BUILD_COMPLETE", BUILT, true),
    ]
    .iter()
    .enumerate()
    .map(|(i, (subject, body, builder))| {
        message(
            first_id + i as u64,
            thread,
            start + i as u32,
            subject,
            body,
            *builder,
        )
    })
    .collect()
}

/// Both agents' mailboxes read as far as the mail sent after `at`.
fn after(at: impl Into<String>) -> Coverage {
    let at = Some(at.into());
    Coverage::Reading(vec![
        ("BlueLake".into(), at.clone()),
        ("GreenCastle".into(), at),
    ])
}

fn key() -> TrafficKey {
    TrafficKey {
        src: Source::Live,
        project: "bench".into(),
    }
}

fn load(
    engine: &mut Engine,
    rows: Vec<MailRow>,
    coverage: Coverage,
    newer: bool,
) -> TrafficSummary {
    let load = ask::Load {
        key: key(),
        rows,
        reset: false,
        coverage,
        newer,
        pending: None,
        agents: Some(vec!["BlueLake".into(), "GreenCastle".into()]),
    };
    ask(engine, load).unwrap()
}

/// What every view says of session `id` now: its row, its page, the open checkpoints.
fn views(
    engine: &mut Engine,
    id: &str,
) -> (crate::model::SessionRow, String, usize, TrafficSummary) {
    let now_ms = 1_800_000_000_000;
    let list = ask(
        engine,
        ask::Sessions {
            key: key(),
            now_ms,
            reveal: true,
            all: true,
        },
    )
    .unwrap();
    assert!(list.ids.iter().any(|i| i == id), "{id} is listed");
    let rows = super::sessions::rows(engine.traffic(&key()).unwrap(), now_ms);
    let row = rows.into_iter().find(|r| r.id == id).unwrap();
    let page = ask(
        engine,
        ask::Session {
            key: key(),
            id: id.into(),
            now_ms,
            reveal: true,
        },
    )
    .unwrap()
    .unwrap();
    let cards = ask(
        engine,
        ask::Checkpoints {
            key: key(),
            now_ms,
            reveal: true,
        },
    )
    .unwrap();
    let open = cards.iter().filter(|c| c.at.session == id).count();
    let summary = engine.traffic(&key()).unwrap().summary();
    (row, page.upper.0 + &page.lower.0, open, summary)
}

#[test]
fn a_session_read_in_pages_says_still_reading_until_its_start_is_held() {
    let mut engine = Engine::new();
    let old = session(1, "pair-old", 0);
    // Newest first: its build, then the contract, then PAIR_INIT, then the end of the read.
    let pages = [
        (vec![old[3].clone()], after(old[3].created_ts.clone())),
        (
            vec![old[2].clone(), old[1].clone()],
            after(old[1].created_ts.clone()),
        ),
        (vec![old[0].clone()], after(old[0].created_ts.clone())),
    ];
    for (i, (rows, coverage)) in pages.into_iter().enumerate() {
        load(&mut engine, rows, coverage, false);
        if i == 0 {
            // Folded as it stands, the build alone has a phase and an open checkpoint #2:
            // a verdict on part of the session.
            let traffic = engine.traffic(&key()).unwrap();
            let folded = &traffic.book.pair.sessions()[0];
            assert!(folded.phase.is_some() && folded.open_checkpoint().is_some());
        }
        let (row, page, open, summary) = views(&mut engine, "pair-old");
        assert!(row.reading, "page {i}: {row:?}");
        assert_eq!(
            (row.phase, row.checkpoint, row.violations),
            (None, None, 0),
            "page {i}"
        );
        assert!(
            page.contains("Still reading this session"),
            "page {i}: {page}"
        );
        for verdict in [
            "class=\"phase\"",
            "violation-note",
            "checkpoint-history",
            "BUILD_COMPLETE",
        ] {
            assert!(!page.contains(verdict), "page {i}: {verdict} in {page}");
        }
        assert_eq!(open, 0, "page {i}: no checkpoint to decide while reading");
        assert!(summary.open.is_empty(), "page {i}");
    }
    load(&mut engine, Vec::new(), Coverage::Whole, false);
    let (row, page, open, summary) = views(&mut engine, "pair-old");
    assert!(!row.reading);
    assert_eq!(row.checkpoint, Some(Checkpoint::ImplementationReview));
    assert_eq!(row.violations, 0, "{page}");
    assert!(page.contains("BUILD_COMPLETE") && !page.contains("Still reading"));
    assert_eq!((open, summary.open.len()), (1, 1));
}

#[test]
fn a_session_begun_after_the_read_reached_has_its_verdict_on_the_first_page() {
    let mut engine = Engine::new();
    let new = session(11, "pair-new", 30);
    let old = session(1, "pair-old", 0);
    // The first page holds every message sent after second 2: the new session and the old
    // one's build.
    let mut first = new.clone();
    first.push(old[3].clone());
    load(&mut engine, first, after(old[2].created_ts.clone()), false);
    let (row, _, open, summary) = views(&mut engine, "pair-new");
    assert!(!row.reading);
    assert_eq!(row.checkpoint, Some(Checkpoint::ImplementationReview));
    assert_eq!((open, summary.open.len()), (1, 1));
    let list = ask(
        &mut engine,
        ask::Sessions {
            key: key(),
            now_ms: 0,
            reveal: true,
            all: true,
        },
    )
    .unwrap();
    assert_eq!(
        list.ids,
        ["pair-new", "pair-old"],
        "open checkpoints first, still reading last"
    );
    assert!(list
        .html
        .0
        .contains(r#"<tr class="session-row reading" data-session="pair-old""#));
    load(&mut engine, old[..3].to_vec(), Coverage::Whole, false);
    let (row, _, _, summary) = views(&mut engine, "pair-old");
    assert!(!row.reading);
    assert_eq!(row.checkpoint, Some(Checkpoint::ImplementationReview));
    assert_eq!(summary.open.len(), 2);
}

#[test]
fn a_session_is_still_reading_while_a_mailbox_of_its_agents_is_not_read() {
    let mut engine = Engine::new();
    // The planner's mailbox read in full, the builder's not yet: the builder's inbox holds
    // the contract and the draft.
    let mut rows = session(1, "pair-a", 0);
    rows.retain(|r| r.to == ["BlueLake"]);
    let coverage = Coverage::Reading(vec![("BlueLake".into(), None)]);
    load(&mut engine, rows, coverage, false);
    let (row, _, open, _) = views(&mut engine, "pair-a");
    assert!(row.reading && open == 0, "{row:?}");
    let coverage = Coverage::Reading(vec![
        ("BlueLake".into(), None),
        ("GreenCastle".into(), None),
    ]);
    let mut rows = session(1, "pair-a", 0);
    rows.retain(|r| r.to == ["GreenCastle"]);
    load(&mut engine, rows, coverage, false);
    let (row, _, open, _) = views(&mut engine, "pair-a");
    assert!(!row.reading && open == 1, "{row:?}");
}

#[test]
fn newer_mail_that_does_not_continue_what_is_held_is_refused() {
    let mut engine = Engine::new();
    load(
        &mut engine,
        session(10, "pair-a", 0),
        Coverage::Whole,
        false,
    );
    // Another server's mail at the same address: ids it gave before the newest held.
    let other = session(1, "pair-b", 40);
    let summary = load(&mut engine, other, Coverage::Whole, true);
    assert!(summary.mismatch);
    assert_eq!(summary.messages, 4, "nothing of it was loaded");
    // Mail that follows is taken.
    let summary = load(
        &mut engine,
        session(20, "pair-c", 40),
        Coverage::Whole,
        true,
    );
    assert!(!summary.mismatch);
    assert_eq!(summary.messages, 8);
    // A registered agent no longer listed.
    let gone = ask::Load {
        key: key(),
        rows: Vec::new(),
        reset: false,
        coverage: Coverage::Whole,
        newer: true,
        pending: None,
        agents: Some(vec!["BlueLake".into()]),
    };
    assert!(ask(&mut engine, gone).unwrap().mismatch);
}
