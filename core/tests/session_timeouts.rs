//! The Pair timeout table at its edges: one second before and after every deadline, the
//! warnings' spacing, the abort after the second warning, and what ends a wait.

mod session_common;

use serde_json::json;
use session_common::*;
use switchboard_core::protocol::{self, Options};
use switchboard_core::session::pair::timeout::{Due, TIMEOUTS};
use switchboard_core::session::pair::PairSession;
use switchboard_core::time::Timestamp;

fn session(steps: &[(i64, &str)]) -> PairSession {
    book(&log(steps)).pair.sessions()[0].clone()
}

fn due_at(s: &PairSession, now: Timestamp) -> (Vec<Due>, Option<Due>) {
    let v = s.view(now);
    (v.due, v.next_action)
}

/// A due step as (action, warning number, from, to).
type Step<'a> = (&'static str, Option<u32>, Option<&'a str>, Option<&'a str>);

/// A wait: the log, the minute its last message was sent, who is awaited, who waits, and
/// the minutes allowed.
type WaitCase = (
    Vec<(i64, &'static str)>,
    i64,
    &'static str,
    &'static str,
    i64,
);

fn summary(d: &[Due]) -> Vec<Step<'_>> {
    d.iter()
        .map(|d| (d.action, d.warning, d.from.as_deref(), d.to.as_deref()))
        .collect()
}

/// Logs ending with the message that starts each wait, the minute it was sent, and who is
/// awaited (then who waits).
fn waits() -> Vec<WaitCase> {
    vec![
        (vec![(0, "PAIR_INIT")], 0, BUILDER, PLANNER, 5),
        (
            vec![
                (0, "PAIR_INIT"),
                (2, "CONTRACT_DRAFT"),
                (10, "CONTRACT_FINAL"),
            ],
            10,
            BUILDER,
            PLANNER,
            30,
        ),
        (
            vec![
                (0, "PAIR_INIT"),
                (2, "CONTRACT_DRAFT"),
                (10, "CONTRACT_FINAL"),
                (20, "BUILD_COMPLETE"),
            ],
            20,
            PLANNER,
            BUILDER,
            60,
        ),
        (
            vec![
                (0, "PAIR_INIT"),
                (2, "CONTRACT_DRAFT"),
                (10, "CONTRACT_FINAL"),
                (20, "CHANGE_ORDER"),
            ],
            20,
            PLANNER,
            BUILDER,
            30,
        ),
        (
            vec![
                (0, "PAIR_INIT"),
                (2, "CONTRACT_DRAFT"),
                (10, "CONTRACT_FINAL"),
                (20, "CHANGE_ORDER"),
                (25, "CHANGE_ORDER_ACCEPTED"),
            ],
            25,
            BUILDER,
            PLANNER,
            30,
        ),
        (
            vec![
                (0, "PAIR_INIT"),
                (2, "CONTRACT_DRAFT"),
                (10, "CONTRACT_FINAL"),
                (20, "CHANGE_ORDER"),
                (25, "CHANGE_ORDER_REJECTED"),
            ],
            25,
            BUILDER,
            PLANNER,
            30,
        ),
        (
            vec![
                (0, "PAIR_INIT"),
                (2, "CONTRACT_DRAFT"),
                (10, "CONTRACT_FINAL"),
                (20, "BUILD_COMPLETE"),
                (40, "BUILD_REJECTED"),
            ],
            40,
            BUILDER,
            PLANNER,
            30,
        ),
    ]
}

#[test]
fn every_table_row_is_exercised() {
    let covered: Vec<&str> = waits()
        .iter()
        .map(|(steps, ..)| steps.last().unwrap().1)
        .collect();
    for rule in TIMEOUTS {
        assert!(covered.contains(&rule.after), "{}", rule.after);
    }
}

#[test]
fn one_second_before_and_after_each_deadline() {
    for (steps, since, awaited, waiting, minutes) in waits() {
        let s = session(&steps);
        let last = steps.last().unwrap().1;
        let deadline = at(since + minutes, 0);
        // One second before: nothing due; the next deadline is the first warning's.
        let (due, next) = due_at(&s, deadline.plus_millis(-1_000));
        assert!(due.is_empty(), "{last}: {due:?}");
        let next = next.unwrap();
        assert_eq!(
            (next.action, next.at, next.to.as_deref()),
            ("TIMEOUT_WARNING", deadline, Some(awaited)),
            "{last}"
        );
        assert_eq!(
            s.view(deadline.plus_millis(-1_000)).next_deadline,
            Some(deadline)
        );
        // At and one second after: warning #1 is due, from the waiting agent to the silent one.
        for now in [deadline, deadline.plus_millis(1_000)] {
            let (due, next) = due_at(&s, now);
            assert_eq!(
                summary(&due),
                [("TIMEOUT_WARNING", Some(1), Some(waiting), Some(awaited))],
                "{last}"
            );
            assert_eq!(next.unwrap().at, deadline.plus_minutes(10), "{last}");
        }
        // Warning #2 ten minutes later, the abort ten minutes after that.
        let w2 = deadline.plus_minutes(10);
        assert_eq!(due_at(&s, w2.plus_millis(-1_000)).0.len(), 1, "{last}");
        assert_eq!(
            summary(&due_at(&s, w2.plus_millis(1_000)).0)[1],
            ("TIMEOUT_WARNING", Some(2), Some(waiting), Some(awaited))
        );
        let abort = w2.plus_minutes(10);
        assert_eq!(due_at(&s, abort.plus_millis(-1_000)).0.len(), 2, "{last}");
        let (due, next) = due_at(&s, abort.plus_millis(1_000));
        assert_eq!(
            summary(&due)[2],
            ("SESSION_ABORT", None, Some(waiting), Some(awaited)),
            "{last}"
        );
        assert!(next.is_none());
        // Every due message the core built is valid, in strict mode.
        for d in &due {
            let m = d.message.as_ref().expect("roles known");
            assert!(protocol::validate(m, &Options::strict()).valid, "{m}");
            assert_eq!(m["to"], awaited);
        }
    }
}

#[test]
fn warnings_sent_move_the_later_steps() {
    // CONTRACT_FINAL at 10: deadline 40. The planner warns late, at 45; #2 is due at 55.
    let mut rows = log(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
    ]);
    let mut w = body("TIMEOUT_WARNING");
    rows.push(row(4, 45, PLANNER, BUILDER, "TIMEOUT_WARNING", &w));
    let s = book(&rows).pair.sessions()[0].clone();
    assert!(s.violations.is_empty(), "{:?}", s.violations);
    let (due, next) = due_at(&s, at(54, 59));
    assert!(due.is_empty(), "{due:?}");
    assert_eq!(
        (next.as_ref().unwrap().warning, next.unwrap().at),
        (Some(2), at(55, 0))
    );
    // After the second warning at 56, the abort falls at 66.
    w["warnings_sent"] = json!(2);
    rows.push(row(5, 56, PLANNER, BUILDER, "TIMEOUT_WARNING", &w));
    let s = book(&rows).pair.sessions()[0].clone();
    assert_eq!(s.view(at(60, 0)).next_deadline, Some(at(66, 0)));
    assert_eq!(
        summary(&due_at(&s, at(66, 1)).0),
        [("SESSION_ABORT", None, Some(PLANNER), Some(BUILDER))]
    );
    // A third warning instead of the abort breaks the limit.
    rows.push(row(6, 67, PLANNER, BUILDER, "TIMEOUT_WARNING", &w));
    let s = book(&rows).pair.sessions()[0].clone();
    assert_eq!(s.violations.len(), 1);
    assert_eq!(s.violations[0].code.as_str(), "limit_exceeded");
}

#[test]
fn the_response_ends_the_wait() {
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (35, "BUILD_COMPLETE"),
    ]);
    // Waiting for the planner now (60 minutes from 35), not for the builder any more.
    let (due, next) = due_at(&s, at(94, 59));
    assert!(due.is_empty());
    assert_eq!(next.unwrap().to.as_deref(), Some(PLANNER));
    // The contract review has no timeout: after the draft nothing is awaited.
    let s = session(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]);
    assert_eq!(due_at(&s, at(500, 0)), (Vec::new(), None));
    // A merged session has nothing due.
    let s = session(&[
        (0, "PAIR_INIT"),
        (2, "CONTRACT_DRAFT"),
        (10, "CONTRACT_FINAL"),
        (35, "BUILD_COMPLETE"),
        (40, "SESSION_COMPLETE"),
    ]);
    assert_eq!(due_at(&s, at(5000, 0)), (Vec::new(), None));
}

#[test]
fn an_acknowledged_pair_init_is_answered() {
    let mut r = msg(1, 0, "PAIR_INIT");
    r["ack_required"] = json!(true);
    r["ack_ts"] = json!(at(1, 0).to_rfc3339());
    let s = book(&[r]).pair.sessions()[0].clone();
    assert_eq!(due_at(&s, at(60, 0)), (Vec::new(), None));
}

#[test]
fn a_warning_with_nothing_awaited_is_out_of_order() {
    let mut rows = log(&[(0, "PAIR_INIT"), (2, "CONTRACT_DRAFT")]);
    rows.push(row(
        3,
        5,
        PLANNER,
        BUILDER,
        "TIMEOUT_WARNING",
        &body("TIMEOUT_WARNING"),
    ));
    let s = book(&rows).pair.sessions()[0].clone();
    assert_eq!(s.violations[0].code.as_str(), "out_of_order");
}
