//! The droid flow's findings (seed 004): each rule on a small log that breaks it, and the same
//! log made conforming, which gives none. Findings come from the agents book (time zone,
//! message ids, recipients), the task board as it folds (deadline, scope, partial completions,
//! reservations) and the task board at the time the log is judged
//! (`TaskBoard::findings_at`: deadlines, blocked tasks, invalid messages left unanswered).

mod session_common;

use proptest::prelude::*;
use serde_json::{json, Value};
use session_common::{at, within};
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::tasks::{
    INVALID_FORMAT_REPLY, UNKNOWN_TYPE_REPLY, VERSION_MISMATCH_REPLY,
};
use switchboard_core::session::violation::Violation;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

const BOSS: &str = "orchestrator";
const DEV: &str = "frontend-dev";

/// A droid message from `sender` at `minute`, its id numbered `n`.
fn droid(n: u64, minute: i64, sender: &str, kind: &str, fields: Value) -> Value {
    let mut m = json!({"version": "1.0.0", "timestamp": at(minute, 0).to_rfc3339(),
        "sender_id": sender, "message_id": format!("msg-123e4567-e89b-12d3-a456-{n:012}"), "type": kind});
    m.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    m
}

/// An Agent Mail row (transport id `id`) carrying `message`, from its `sender_id` to `to`.
fn row(id: u64, to: &[&str], message: &Value) -> Value {
    let from = message["sender_id"].as_str().unwrap_or("someone");
    let ts = message["timestamp"]
        .as_str()
        .unwrap_or("2026-03-02T09:00:00Z");
    json!({"id": id, "from": from, "to": to, "subject": "", "created_ts": ts,
        "body_md": message.to_string()})
}

fn assignment(n: u64, minute: i64, deadline: i64) -> Value {
    droid(
        n,
        minute,
        BOSS,
        "task_assignment",
        json!({"task_id": "bd-42", "description": "Login form",
            "specification": {"acceptance_criteria": ["works"]},
            "file_patterns": ["src/frontend/auth/**", "src/frontend/services/auth.ts"],
            "priority": "high", "priority_value": 1, "deadline": at(deadline, 0).to_rfc3339()}),
    )
}

fn completion(n: u64, minute: i64, status: &str, files: &[&str], extra: Value) -> Value {
    let mut m = droid(
        n,
        minute,
        DEV,
        "task_completion",
        json!({"task_id": "bd-42", "status": status, "completion_summary": "done",
            "files_modified": files, "test_results": {}, "errors_encountered": []}),
    );
    m.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    m
}

fn error_report(n: u64, minute: i64, sender: &str, context: Value) -> Value {
    droid(
        n,
        minute,
        sender,
        "error_report",
        json!({"task_id": "bd-42", "severity": "blocking",
            "error": {"code": "API_ERROR", "message": "cannot go on", "context": context},
            "reproduction_steps": ["run it"], "needs_human_intervention": false}),
    )
}

fn reservation(n: u64, minute: i64, sender: &str, mode: &str, pattern: &str) -> Value {
    droid(
        n,
        minute,
        sender,
        "file_reservation",
        json!({"task_id": "bd-42", "reservation_request": {"mode": mode,
            "file_patterns": [pattern], "duration_minutes": 60}}),
    )
}

fn book(rows: &[Value]) -> Book {
    let envelopes = read_log(&serde_json::to_vec(rows).unwrap(), &Options::default()).unwrap();
    Book::replay(&envelopes, PairClaudeConfig::default())
}

/// One finding: code, entry, blamed agent, step due.
type Finding = (&'static str, usize, Option<String>, Option<&'static str>);

fn key(v: &Violation) -> Finding {
    (v.code.as_str(), v.entry, v.by.clone(), v.expected)
}

/// Every droid finding of `rows` judged at `now`, in a stable order.
fn findings_at(rows: &[Value], now: Timestamp) -> Vec<Finding> {
    all_at(rows, now).iter().map(key).collect()
}

fn all_at(rows: &[Value], now: Timestamp) -> Vec<Violation> {
    let b = book(rows);
    let mut all: Vec<Violation> = b.agents.violations.clone();
    all.extend(b.tasks.tasks().iter().flat_map(|t| t.violations.clone()));
    all.extend(b.tasks.findings_at(now));
    all.sort_by_key(|v| (v.entry, v.code.as_str()));
    all
}

fn the_message(rows: &[Value], now: Timestamp) -> String {
    let all = all_at(rows, now);
    assert_eq!(all.len(), 1, "{all:#?}");
    all[0].message.clone()
}

fn by(agent: &str) -> Option<String> {
    Some(agent.to_owned())
}

/// The conforming base: assigned at 0 with a deadline at 60, progress, complete at 30 in scope.
fn on_time() -> Vec<Value> {
    vec![
        row(1, &[DEV], &assignment(1, 0, 60)),
        row(
            2,
            &[BOSS],
            &droid(
                2,
                10,
                DEV,
                "status_update",
                json!({"task_id": "bd-42", "update_type": "progress",
                    "status_summary": "half", "blockers": []}),
            ),
        ),
        row(
            3,
            &[BOSS],
            &completion(
                3,
                30,
                "complete",
                &[
                    "src/frontend/auth/LoginForm.tsx",
                    "./src/frontend/services/auth.ts",
                ],
                json!({}),
            ),
        ),
    ]
}

#[test]
fn the_conforming_log_has_no_findings() {
    assert_eq!(findings_at(&on_time(), at(500, 0)), []);
}

#[test]
fn a_timestamp_not_in_utc_is_bad_value() {
    let mut m = assignment(1, 0, 60);
    m["timestamp"] = json!("2026-03-02T11:00:00+02:00");
    let log = [row(1, &[DEV], &m)];
    assert_eq!(
        the_message(&log, at(0, 0)),
        "timestamp 2026-03-02T11:00:00+02:00 is not in UTC (Common Fields: 'When message was created (UTC)')"
    );
    assert_eq!(findings_at(&log, at(0, 0)), [("bad_value", 0, None, None)]);
    for utc in [
        "2026-03-02T09:00:00Z",
        "2026-03-02T09:00:00z",
        "2026-03-02T09:00:00+00:00",
        "2026-03-02T09:00:00.123-00:00",
    ] {
        m["timestamp"] = json!(utc);
        assert_eq!(findings_at(&[row(1, &[DEV], &m)], at(0, 0)), [], "{utc}");
    }
}

#[test]
fn a_message_id_used_twice_is_duplicate_id() {
    let mut log = on_time();
    let mut second = droid(
        2,
        10,
        DEV,
        "status_update",
        json!({"task_id": "bd-42", "update_type": "progress", "status_summary": "half", "blockers": []}),
    );
    second["message_id"] = assignment(1, 0, 60)["message_id"].clone();
    log[1] = row(2, &[BOSS], &second);
    assert_eq!(
        the_message(&log, at(500, 0)),
        "message_id msg-123e4567-e89b-12d3-a456-000000000001 was already used by message 1 (Common Fields: 'Unique identifier')"
    );
    assert_eq!(
        findings_at(&log, at(500, 0)),
        [("duplicate_id", 1, None, None)]
    );
    // The same transport message read twice (an inbox and an outbox) is one message.
    let mut twice = on_time();
    twice.push(on_time()[0].clone());
    assert_eq!(findings_at(&twice, at(500, 0)), []);
}

#[test]
fn an_assignment_only_to_its_sender_is_wrong_recipient() {
    let log = [row(1, &[BOSS], &assignment(1, 0, 60))];
    assert_eq!(
        the_message(&log, at(0, 0)),
        "task_assignment for bd-42 goes only to its sender orchestrator (Task Assignment: 'Delegate a task from one agent to another')"
    );
    assert_eq!(
        findings_at(&log, at(0, 0)),
        [("wrong_recipient", 0, None, None)]
    );
    // To its sender and another agent: delegated. With no recipients: not judged here.
    assert_eq!(
        findings_at(&[row(1, &[BOSS, DEV], &assignment(1, 0, 60))], at(0, 0)),
        []
    );
    assert_eq!(
        findings_at(&[row(1, &[], &assignment(1, 0, 60))], at(0, 0)),
        []
    );
}

#[test]
fn a_task_completed_after_its_deadline_is_late() {
    let mut log = on_time();
    log[2] = row(
        3,
        &[BOSS],
        &completion(3, 90, "complete", &["src/frontend/auth/a.ts"], json!({})),
    );
    assert_eq!(
        the_message(&log, at(500, 0)),
        "task bd-42 was completed at 2026-03-02T10:30:00Z, after its deadline 2026-03-02T10:00:00Z (Task Assignment: 'When task must be completed')"
    );
    // On the assignment, blamed on the agent that completed it.
    assert_eq!(findings_at(&log, at(500, 0)), [("late", 0, by(DEV), None)]);
}

#[test]
fn a_task_not_complete_past_its_deadline_is_late_at_the_time_the_log_is_judged() {
    let log = &on_time()[..2];
    assert_eq!(findings_at(log, at(60, 0)), [], "not past the deadline yet");
    assert_eq!(findings_at(log, at(61, 0)), [("late", 0, by(DEV), None)]);
    assert_eq!(
        the_message(log, at(61, 0)),
        "frontend-dev's task bd-42 is not complete at 2026-03-02T10:01:00Z, past its deadline 2026-03-02T10:00:00Z (Task Assignment: 'When task must be completed')"
    );
    // Once per assignee; blamed on no one when the assignment named none.
    let two = [row(1, &[DEV, "backend-dev"], &assignment(1, 0, 60))];
    assert_eq!(
        findings_at(&two, at(61, 0)),
        [
            ("late", 0, by(DEV), None),
            ("late", 0, by("backend-dev"), None)
        ]
    );
    let none = [row(1, &[], &assignment(1, 0, 60))];
    assert_eq!(findings_at(&none, at(61, 0)), [("late", 0, None, None)]);
    // A partial or blocked task is not complete either.
    let mut partial = on_time();
    partial[2] = row(
        3,
        &[BOSS],
        &completion(3, 30, "partial", &[], json!({"warnings": ["no tests"]})),
    );
    assert_eq!(
        findings_at(&partial, at(61, 0)),
        [("late", 0, by(DEV), None)]
    );
}

#[test]
fn files_outside_the_assignments_patterns_are_out_of_scope() {
    let mut log = on_time();
    log[2] = row(
        3,
        &[BOSS],
        &completion(
            3,
            30,
            "complete",
            &[
                "src/frontend/auth/LoginForm.tsx",
                "src/frontend/hooks/useAuth.ts",
            ],
            json!({}),
        ),
    );
    assert_eq!(
        the_message(&log, at(500, 0)),
        "task_completion for bd-42 lists files outside the assignment's file_patterns (src/frontend/auth/**, src/frontend/services/auth.ts): src/frontend/hooks/useAuth.ts"
    );
    assert_eq!(
        findings_at(&log, at(500, 0)),
        [("out_of_scope", 2, None, None)]
    );
}

#[test]
fn a_blocked_completion_without_an_error_report_is_missing_one() {
    let mut log = on_time();
    log[2] = row(3, &[BOSS], &completion(3, 30, "blocked", &[], json!({})));
    // Judged before the deadline, so only the missing report.
    assert_eq!(
        findings_at(&log, at(40, 0)),
        [("missing", 2, None, Some("error_report"))]
    );
    assert_eq!(
        the_message(&log, at(40, 0)),
        "task_completion for bd-42 is blocked and frontend-dev sent no error_report for it (Best Practices 5: 'Always provide `error_report` for failures')"
    );
    assert_eq!(findings_at(&log, at(29, 0)), [], "not sent yet at 29");
    // An error report from the same agent for the task, before or after: none.
    for minute in [20, 35] {
        let mut answered = log.clone();
        answered.push(row(4, &[BOSS], &error_report(4, minute, DEV, json!({}))));
        assert_eq!(findings_at(&answered, at(40, 0)), [], "report at {minute}");
    }
    // One from another agent does not count.
    let mut other = log.clone();
    other.push(row(4, &[DEV], &error_report(4, 35, BOSS, json!({}))));
    assert_eq!(
        findings_at(&other, at(40, 0)),
        [("missing", 2, None, Some("error_report"))]
    );
}

#[test]
fn a_partial_completion_that_documents_nothing_is_missing() {
    let mut log = on_time();
    log[2] = row(
        3,
        &[BOSS],
        &completion(
            3,
            30,
            "partial",
            &[],
            json!({"warnings": [], "next_tasks": []}),
        ),
    );
    assert_eq!(findings_at(&log, at(40, 0)), [("missing", 2, None, None)]);
    assert_eq!(
        the_message(&log, at(40, 0)),
        "task_completion for bd-42 is partial but lists no warnings, errors_encountered or next_tasks (Task Completion: 'Partially completed (document what's missing)')"
    );
    for documented in [
        json!({"warnings": ["login only"]}),
        json!({"errors_encountered": ["OAuth down"]}),
        json!({"next_tasks": [{"task_id": "bd-43", "relationship": "follows", "reason": "OAuth"}]}),
    ] {
        let mut ok = log.clone();
        ok[2] = row(3, &[BOSS], &completion(3, 30, "partial", &[], documented));
        assert_eq!(findings_at(&ok, at(40, 0)), []);
    }
}

/// An invalid message from the developer to the orchestrator, in each way the seed names.
fn invalid_messages() -> Vec<(&'static str, Value)> {
    let mut missing = completion(3, 30, "complete", &[], json!({}));
    missing.as_object_mut().unwrap().remove("test_results");
    let unknown = droid(3, 30, DEV, "prd_completion", json!({"task_id": "bd-42"}));
    let mut major = completion(3, 30, "complete", &[], json!({}));
    major["version"] = json!("2.0.0");
    vec![
        (
            "Invalid Message Format: 'Notify sender via `error_report` message'",
            missing,
        ),
        (
            "Unknown Message Type: 'Respond with `error_report` indicating unknown type'",
            unknown,
        ),
        (
            "Versioning: 'If incompatible, receiver responds with version mismatch error'",
            major,
        ),
    ]
}

#[test]
fn an_invalid_message_its_recipient_never_answers_is_unanswered() {
    for (rule, bad) in invalid_messages() {
        let log = vec![row(1, &[DEV], &assignment(1, 0, 60)), row(3, &[BOSS], &bad)];
        let found: Vec<Violation> = all_at(&log, at(40, 0))
            .into_iter()
            .filter(|v| v.code.as_str() == "unanswered")
            .collect();
        let due = if rule.starts_with("Unknown") {
            UNKNOWN_TYPE_REPLY
        } else if rule.starts_with("Versioning") {
            VERSION_MISMATCH_REPLY
        } else {
            INVALID_FORMAT_REPLY
        };
        assert_eq!(
            found.iter().map(key).collect::<Vec<_>>(),
            [("unanswered", 1, by(BOSS), Some(due))],
            "{rule}"
        );
        assert_eq!(
            found[0].message,
            format!("message 3 ({}) is invalid and orchestrator sent frontend-dev no error_report naming msg-123e4567-e89b-12d3-a456-000000000003 ({rule})",
                found[0].message_type.unwrap_or("message"))
        );
        assert!(
            findings_at(&log, at(29, 0))
                .iter()
                .all(|f| f.0 != "unanswered"),
            "not sent yet"
        );
        // The orchestrator's error report naming the message's id answers it (and the
        // assigner may send one about its task).
        let answer = |n, context: Value| row(n, &[DEV], &error_report(n, 31, BOSS, context));
        let mut answered = log.clone();
        answered.push(answer(
            4,
            json!({"original_message_id": "msg-123e4567-e89b-12d3-a456-000000000003"}),
        ));
        let codes: Vec<&str> = findings_at(&answered, at(40, 0))
            .iter()
            .map(|f| f.0)
            .collect();
        assert!(
            !codes.contains(&"unanswered") && !codes.contains(&"wrong_role"),
            "{codes:?}"
        );
        // A report naming another message, or sent to someone else, does not.
        let mut elsewhere = log.clone();
        elsewhere.push(answer(4, json!({"original_message_id": "msg-other"})));
        elsewhere.push(row(
            5,
            &["backend-dev"],
            &error_report(
                5,
                32,
                BOSS,
                json!({"original_message_id": "msg-123e4567-e89b-12d3-a456-000000000003"}),
            ),
        ));
        assert!(findings_at(&elsewhere, at(40, 0))
            .iter()
            .any(|f| f.0 == "unanswered"));
    }
}

#[test]
fn the_exact_findings_of_an_unanswered_invalid_completion() {
    let mut bad = completion(3, 30, "complete", &[], json!({}));
    bad.as_object_mut().unwrap().remove("test_results");
    let log = [row(1, &[DEV], &assignment(1, 0, 60)), row(3, &[BOSS], &bad)];
    // The completion's own invalid_message, its unanswered, and the task, which it did not
    // complete, late at 61.
    assert_eq!(
        findings_at(&log, at(61, 0)),
        [
            ("late", 0, by(DEV), None),
            ("invalid_message", 1, None, None),
            ("unanswered", 1, by(BOSS), Some(INVALID_FORMAT_REPLY))
        ]
    );
}

#[test]
fn an_invalid_message_without_an_id_is_answered_by_any_later_report() {
    let mut bad = droid(3, 30, DEV, "status_update", json!({"task_id": "bd-42"}));
    bad.as_object_mut().unwrap().remove("message_id");
    let log = vec![row(1, &[DEV], &assignment(1, 0, 60)), row(3, &[BOSS], &bad)];
    let unanswered = |log: &[Value]| {
        findings_at(log, at(40, 0))
            .into_iter()
            .filter(|f| f.0 == "unanswered")
            .collect::<Vec<_>>()
    };
    assert_eq!(
        unanswered(&log),
        [("unanswered", 1, by(BOSS), Some(INVALID_FORMAT_REPLY))]
    );
    let mut before = log.clone();
    before.insert(1, row(2, &[DEV], &error_report(2, 20, BOSS, json!({}))));
    assert_eq!(
        unanswered(&before).len(),
        1,
        "a report before it is no answer"
    );
    let mut after = log.clone();
    after.push(row(4, &[DEV], &error_report(4, 31, BOSS, json!({}))));
    assert_eq!(unanswered(&after), []);
    // With no recipients nobody owes an answer.
    assert_eq!(
        unanswered(&[row(1, &[DEV], &assignment(1, 0, 60)), row(3, &[], &bad)]),
        []
    );
}

#[test]
fn a_reservation_against_another_agents_active_one_is_a_conflict() {
    let log = [
        row(
            1,
            &[BOSS],
            &reservation(1, 0, "alice", "exclusive", "src/auth/**"),
        ),
        row(
            2,
            &[BOSS],
            &reservation(2, 10, "bob", "shared_read", "src/auth/login.ts"),
        ),
    ];
    assert_eq!(
        findings_at(&log, at(20, 0)),
        [("reservation_conflict", 1, None, None)]
    );
    assert_eq!(
        the_message(&log, at(20, 0)),
        "bob reserves src/auth/login.ts (shared_read) while alice's exclusive reservation of src/auth/** (message 1) is active (File Reservation Request: 'Request file reservations for conflict prevention')"
    );
    // After alice's hour, with compatible modes, or by the same agent: no conflict.
    for (minute, sender, first, second) in [
        (60, "bob", "exclusive", "shared_read"),
        (10, "bob", "shared_write", "shared_write"),
        (10, "alice", "exclusive", "exclusive"),
    ] {
        let ok = [
            row(
                1,
                &[BOSS],
                &reservation(1, 0, "alice", first, "src/auth/**"),
            ),
            row(
                2,
                &[BOSS],
                &reservation(2, minute, sender, second, "src/auth/login.ts"),
            ),
        ];
        assert_eq!(
            findings_at(&ok, at(90, 0)),
            [],
            "{minute} {sender} {second}"
        );
    }
}

/// A generated droid log: assignments with deadlines, completions of each status, error
/// reports and invalid messages, between two agents, at random minutes.
fn droid_log() -> impl Strategy<Value = Vec<Value>> {
    let entry = (0u8..6, 0i64..120, 0i64..120, any::<bool>(), 0usize..3);
    prop::collection::vec(entry, 1..12).prop_map(|entries| {
        entries
            .into_iter()
            .enumerate()
            .map(|(i, (kind, minute, deadline, flip, task))| {
                let n = i as u64 + 1;
                let (from, to) = if flip { (DEV, BOSS) } else { (BOSS, DEV) };
                let mut m = match kind {
                    0 => assignment(n, minute, deadline),
                    1 => completion(n, minute, "complete", &["src/x.ts"], json!({})),
                    2 => completion(n, minute, "blocked", &[], json!({})),
                    3 => completion(n, minute, "partial", &[], json!({})),
                    4 => error_report(
                        n,
                        minute,
                        from,
                        json!({"original_message_id":
                        format!("msg-123e4567-e89b-12d3-a456-{:012}", n.saturating_sub(1))}),
                    ),
                    _ => droid(n, minute, from, "prd_completion", json!({})),
                };
                m["task_id"] = json!(["bd-1", "bd-2", "bd-3"][task]);
                if kind != 0 {
                    m["sender_id"] = json!(from);
                }
                row(n, &[to], &m)
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn an_earlier_now_never_finds_more(log in droid_log(), a in 0i64..200, b in 0i64..200) {
        let (early, late) = (at(a.min(b), 0), at(a.max(b), 0));
        let b = book(&log);
        let keys = |now| {
            let mut k: Vec<Finding> = b.tasks.findings_at(now).iter().map(key).collect();
            k.sort();
            k
        };
        let (early, late) = (keys(early), keys(late));
        prop_assert!(within(&early, &late), "found at the earlier time only: {early:?} vs {late:?}");
    }
}
