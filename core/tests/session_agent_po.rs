//! Agent-PO: the GO and NEXT gates (each problem, the limits, the directive valid by
//! construction) and the task agent's lifecycle from its messages and the directives.

mod session_common;

use proptest::prelude::*;
use serde_json::{json, Value};
use session_common::at;
use switchboard_core::agent_mail::{read_log, Envelope};
use switchboard_core::protocol::{self, Options};
use switchboard_core::session::agent_po::gate::{go_gate, next_gate, TaskSpec, Verdict};
use switchboard_core::session::agent_po::Status;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;

fn task() -> TaskSpec {
    TaskSpec::from_json(
        r#"{"task_id": "TASK-042", "agent_id": "agent-7f3a",
            "acceptance_criteria": ["AC-001", {"id": "AC-002", "text": "errors shown"}],
            "file_scope": ["src/pages/**", "tests/*.test.tsx"]}"#,
    )
    .unwrap()
}

fn plan(acs: &[&str], files: &[&str], revision: u64) -> Value {
    json!({"message_type": "PLAN_SUBMISSION", "agent_id": "agent-7f3a", "task_id": "TASK-042",
        "timestamp": "2026-01-15T10:00:00Z",
        "plan": {"approach": "Form + validation",
            "ac_mapping": acs.iter().map(|a| json!({"ac_id": a, "implementation": "x", "file": files[0]})).collect::<Vec<_>>(),
            "files_to_modify": files.iter().map(|f| json!({"path": f, "changes": "edit"})).collect::<Vec<_>>(),
            "test_approach": {"unit_tests": ["form validation"]}},
        "questions": [], "revision": revision})
}

fn report(statuses: &[(&str, &str, &str)], failed: u64, files: &[&str]) -> Value {
    json!({"message_type": "COMPLETION_REPORT", "agent_id": "agent-7f3a", "task_id": "TASK-042",
        "timestamp": "2026-01-15T11:00:00Z",
        "summary": {"started_at": "2026-01-15T10:05:00Z", "completed_at": "2026-01-15T11:00:00Z"},
        "ac_verification": statuses.iter().map(|(id, st, ev)| json!({"ac_id": id, "status": st, "evidence": ev, "tested": true})).collect::<Vec<_>>(),
        "test_results": {"passed": 12, "failed": failed, "details": [{"file": "LoginPage.test.tsx", "passed": 12, "failed": failed}]},
        "files_changed": files.iter().map(|f| json!({"path": f, "action": "modified"})).collect::<Vec<_>>()})
}

fn valid(directive: &Value) {
    let r = protocol::validate(directive, &Options::strict());
    assert!(r.valid, "{directive}: {r:?}");
}

fn kinds(problems: &[switchboard_core::protocol::builders::agent_po::DirectiveIssue]) -> Vec<&str> {
    problems.iter().map(|p| p.kind).collect()
}

#[test]
fn a_plan_that_covers_everything_in_scope_gets_go() {
    let out = go_gate(
        &task(),
        &plan(
            &["AC-001", "AC-002"],
            &["src/pages/Login.tsx", "tests/Login.test.tsx"],
            1,
        ),
        at(0, 0),
    )
    .unwrap();
    assert_eq!(out.verdict, Verdict::Go);
    assert!(out.problems.is_empty());
    valid(&out.directive);
    assert_eq!(out.directive["message_type"], "GO_DIRECTIVE");
    assert_eq!(
        out.directive["authorization"]["authorized_files"],
        json!(["src/pages/Login.tsx", "tests/Login.test.tsx"])
    );
    assert_eq!(out.directive["authorization"]["timeout_minutes"], 30);
}

#[test]
fn every_go_problem_is_listed() {
    let mut p = plan(
        &["AC-001", "AC-009"],
        &["src/pages/Login.tsx", "src/server/db.ts"],
        1,
    );
    p["plan"].as_object_mut().unwrap().remove("test_approach");
    p["questions"] = json!(["Which auth provider?"]);
    let out = go_gate(&task(), &p, at(0, 0)).unwrap();
    assert_eq!(out.verdict, Verdict::Feedback);
    assert_eq!(
        kinds(&out.problems),
        [
            "missing_coverage",
            "spec_conflict",
            "scope_violation",
            "missing_test",
            "open_questions"
        ]
    );
    valid(&out.directive);
    assert_eq!(out.directive["current_revision"], 1);
    assert_eq!(out.directive["max_revisions"], 2);
    assert_eq!(out.directive["validation"]["issues"][0]["ac_id"], "AC-002");
}

#[test]
fn past_the_revisions_the_task_is_blocked() {
    let bad = |rev| plan(&["AC-001"], &["src/pages/Login.tsx"], rev);
    assert_eq!(
        go_gate(&task(), &bad(2), at(0, 0)).unwrap().verdict,
        Verdict::Feedback
    );
    let out = go_gate(&task(), &bad(3), at(0, 0)).unwrap();
    assert_eq!(out.verdict, Verdict::Blocked);
    valid(&out.directive);
    assert_eq!(out.directive["message_type"], "BLOCKED_NOTIFICATION");
    assert!(out.directive["history"].is_object());
}

#[test]
fn a_complete_report_gets_next() {
    let r = report(
        &[
            ("AC-001", "PASS", "Login.tsx:50"),
            ("AC-002", "PASS", "Login.tsx:80"),
        ],
        0,
        &["src/pages/Login.tsx"],
    );
    let out = next_gate(&task(), &["src/pages/Login.tsx".into()], &r, 0, at(0, 0)).unwrap();
    assert_eq!(out.verdict, Verdict::Next);
    valid(&out.directive);
    assert_eq!(
        out.directive["summary"],
        json!({"criteria_met": 2, "tests_passed": 12, "files_changed": 1})
    );
    assert_eq!(
        out.directive["cleanup"]["branch"],
        "agent/agent-7f3a/TASK-042"
    );
}

#[test]
fn every_next_problem_is_listed_with_the_retry_count_then_blocked() {
    let r = report(
        &[("AC-001", "PASS", ""), ("AC-002", "FAIL", "no")],
        2,
        &["src/pages/Login.tsx", "src/other.ts"],
    );
    let authorized = vec!["src/pages/Login.tsx".to_owned()];
    let out = next_gate(&task(), &authorized, &r, 0, at(0, 0)).unwrap();
    assert_eq!(out.verdict, Verdict::Fix);
    assert_eq!(
        kinds(&out.problems),
        [
            "missing_evidence",
            "unmet_criterion",
            "test_failure",
            "scope_violation"
        ]
    );
    assert_eq!(
        out.directive["retry"],
        json!({"count": 1, "max": 2, "allowed": true})
    );
    assert_eq!(
        out.directive["validation"]["issues"][2]["test"],
        "LoginPage.test.tsx"
    );
    valid(&out.directive);
    assert_eq!(
        next_gate(&task(), &authorized, &r, 1, at(0, 0))
            .unwrap()
            .directive["retry"]["count"],
        2
    );
    let out = next_gate(&task(), &authorized, &r, 2, at(0, 0)).unwrap();
    assert_eq!(out.verdict, Verdict::Blocked);
    valid(&out.directive);
}

#[test]
fn gates_refuse_other_tasks_and_other_messages() {
    let mut p = plan(&["AC-001", "AC-002"], &["src/pages/Login.tsx"], 1);
    p["task_id"] = json!("TASK-043");
    assert!(go_gate(&task(), &p, at(0, 0)).is_err());
    assert!(go_gate(&task(), &report(&[], 0, &[]), at(0, 0)).is_err());
    assert!(TaskSpec::from_json(
        r#"{"task_id": "bd-1", "acceptance_criteria": [], "file_scope": []}"#
    )
    .is_err());
    assert!(TaskSpec::from_json("[]").is_err());
}

proptest! {
    /// Whatever the plan and report say, the directive the gate emits is valid.
    #[test]
    fn every_directive_the_gates_emit_is_valid(
        acs in prop::collection::vec("AC-00[0-9]", 0..5),
        files in prop::collection::vec("(src/pages|src/x|tests)/[a-z]{1,6}\\.(tsx|ts|py)", 1..4),
        revision in 1u64..6,
        statuses in prop::collection::vec(("AC-00[0-9]", prop::sample::select(vec!["PASS", "FAIL", "PARTIAL"]), "[ a-z:0-9]{0,8}"), 0..4),
        failed in 0u64..3,
        fixes in 0u32..4,
        questions in 0usize..2,
    ) {
        let acs: Vec<&str> = acs.iter().map(String::as_str).collect();
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let mut p = plan(&acs, &files, revision);
        p["questions"] = json!(vec!["q?"; questions]);
        let go = go_gate(&task(), &p, at(0, 0)).unwrap();
        prop_assert!(protocol::validate(&go.directive, &Options::strict()).valid, "{}", go.directive);
        prop_assert_eq!(go.problems.is_empty(), go.verdict == Verdict::Go);
        let st: Vec<(&str, &str, &str)> = statuses.iter().map(|(a, s, e)| (a.as_str(), *s, e.as_str())).collect();
        let r = report(&st, failed, &files);
        let next = next_gate(&task(), &["src/pages/**".into()], &r, fixes, at(0, 0)).unwrap();
        prop_assert!(protocol::validate(&next.directive, &Options::strict()).valid, "{}", next.directive);
        prop_assert_eq!(next.problems.is_empty(), next.verdict == Verdict::Next);
    }
}

fn po_row(id: u64, minute: i64, from: &str, msg: &Value) -> Value {
    let mut m = msg.clone();
    m["timestamp"] = json!(at(minute, 0).to_rfc3339());
    json!({"id": id, "from": from, "to": [if from == "Agent" {"PO"} else {"Agent"}], "subject": m["message_type"],
        "created_ts": at(minute, 0).to_rfc3339(), "body_md": m.to_string()})
}

fn lifecycle(rows: &[Value]) -> Book {
    let envelopes: Vec<Envelope> =
        read_log(&serde_json::to_vec(rows).unwrap(), &Options::default()).unwrap();
    Book::replay(&envelopes, PairClaudeConfig::default())
}

fn progress(status: &str) -> Value {
    json!({"message_type": "PROGRESS_UPDATE", "agent_id": "agent-7f3a", "task_id": "TASK-042",
        "timestamp": "2026-01-15T10:00:00Z", "status": status, "progress_percent": 40, "current_activity": "work"})
}

#[test]
fn a_task_through_feedback_go_fix_and_next() {
    let t = task();
    let p1 = plan(&["AC-001"], &["src/pages/Login.tsx"], 1);
    let fb = go_gate(&t, &p1, at(1, 0)).unwrap().directive;
    let p2 = plan(&["AC-001", "AC-002"], &["src/pages/Login.tsx"], 2);
    let go = go_gate(&t, &p2, at(3, 0)).unwrap().directive;
    let bad = report(
        &[("AC-001", "PASS", "ok"), ("AC-002", "FAIL", "no")],
        1,
        &["src/pages/Login.tsx"],
    );
    let fix = next_gate(&t, &["src/pages/Login.tsx".into()], &bad, 0, at(20, 0))
        .unwrap()
        .directive;
    let good = report(
        &[("AC-001", "PASS", "ok"), ("AC-002", "PASS", "ok")],
        0,
        &["src/pages/Login.tsx"],
    );
    let next = next_gate(&t, &["src/pages/Login.tsx".into()], &good, 1, at(30, 0))
        .unwrap()
        .directive;
    let rows = vec![
        po_row(1, 0, "Agent", &p1),
        po_row(2, 1, "PO", &fb),
        po_row(3, 2, "Agent", &p2),
        po_row(4, 3, "PO", &go),
        po_row(5, 10, "Agent", &progress("implementing")),
        po_row(6, 19, "Agent", &bad),
        po_row(7, 20, "PO", &fix),
        po_row(8, 25, "Agent", &progress("fixing")),
        po_row(9, 29, "Agent", &good),
        po_row(10, 30, "PO", &next),
    ];
    let b = lifecycle(&rows);
    let task = &b.agent_po.tasks()[0];
    assert!(task.violations.is_empty(), "{:?}", task.violations);
    assert_eq!(task.status, Status::Completed);
    assert_eq!(
        (task.plan_revisions.current, task.plan_revisions.max),
        (2, 2)
    );
    assert_eq!((task.fix_retries.current, task.fix_retries.max), (1, 2));
    let directives: Vec<&str> = task.gates.iter().map(|g| g.directive).collect();
    assert_eq!(
        directives,
        [
            "FEEDBACK",
            "GO_DIRECTIVE",
            "FIX_DIRECTIVE",
            "NEXT_DIRECTIVE"
        ]
    );
    assert_eq!(task.gates[0].problems[0].0, "missing_coverage");
    assert_eq!(
        (task.agent_name.as_deref(), task.po_name.as_deref()),
        (Some("Agent"), Some("PO"))
    );
    let sessions = serde_json::to_value(b.sessions(at(40, 0))).unwrap();
    assert_eq!(sessions[0]["family"], "agent-po");
    assert_eq!(sessions[0]["session_id"], "agent-7f3a/TASK-042");
    assert_eq!(sessions[0]["phase"], "completed");
}

#[test]
fn lifecycle_violations_and_the_go_timeout() {
    let t = task();
    let p = plan(&["AC-001", "AC-002"], &["src/pages/Login.tsx"], 1);
    let go = go_gate(&t, &p, at(1, 0)).unwrap().directive;
    // Implementing before GO is out of order; GO from the agent's own mail name is the wrong role.
    let rows = vec![
        po_row(1, 0, "Agent", &p),
        po_row(2, 0, "Agent", &progress("implementing")),
        po_row(3, 1, "Agent", &go),
    ];
    let b = lifecycle(&rows);
    let codes: Vec<&str> = b.agent_po.tasks()[0]
        .violations
        .iter()
        .map(|v| v.code.as_str())
        .collect();
    assert_eq!(codes, ["out_of_order", "wrong_role"]);
    // After GO at minute 1 with 30 minutes: the completion report is due at 31.
    let rows = vec![po_row(1, 0, "Agent", &p), po_row(2, 1, "PO", &go)];
    let b = lifecycle(&rows);
    let task = &b.agent_po.tasks()[0];
    assert_eq!(task.status, Status::Implementing);
    let (due, next) = task.due(at(30, 59));
    assert!(due.is_empty());
    assert_eq!(next.unwrap().at, at(31, 0));
    let (due, _) = task.due(at(31, 1));
    assert_eq!(
        (due[0].action, due[0].to.as_deref()),
        ("BLOCKED_NOTIFICATION", Some("Agent"))
    );
}

#[test]
fn feedback_past_the_limit_is_reported() {
    let t = TaskSpec {
        max_revisions: 9,
        ..task()
    };
    let p = plan(&["AC-001"], &["src/pages/Login.tsx"], 3);
    let fb = go_gate(&t, &p, at(1, 0)).unwrap().directive;
    assert_eq!(fb["message_type"], "FEEDBACK");
    let mut fb2 = fb.clone();
    fb2["max_revisions"] = json!(2);
    let b = lifecycle(&[po_row(1, 0, "Agent", &p), po_row(2, 1, "PO", &fb2)]);
    let codes: Vec<&str> = b.agent_po.tasks()[0]
        .violations
        .iter()
        .map(|v| v.code.as_str())
        .collect();
    assert_eq!(codes, ["limit_exceeded"]);
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[A-Z0-9a-z_ -]{0,8}".prop_map(Value::String),
        Just(json!("TASK-042")),
        Just(json!("agent-7f3a")),
        Just(json!("PLAN_SUBMISSION")),
        Just(json!("COMPLETION_REPORT")),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "message_type",
                    "agent_id",
                    "task_id",
                    "plan",
                    "ac_mapping",
                    "ac_id",
                    "files_to_modify",
                    "path",
                    "file",
                    "test_approach",
                    "unit_tests",
                    "questions",
                    "revision",
                    "ac_verification",
                    "status",
                    "evidence",
                    "test_results",
                    "failed",
                    "passed",
                    "details",
                    "files_changed"
                ]),
                inner,
                0..6,
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    /// No plan or report, however malformed, crashes a gate; whatever it emits is valid.
    #[test]
    fn no_plan_or_report_crashes_the_gates(mut v in any_json(), kind in prop::sample::select(vec!["PLAN_SUBMISSION", "COMPLETION_REPORT"])) {
        if let Value::Object(m) = &mut v {
            m.insert("message_type".into(), json!(kind));
            m.insert("agent_id".into(), json!("agent-7f3a"));
            m.insert("task_id".into(), json!("TASK-042"));
        }
        for out in [go_gate(&task(), &v, at(0, 0)), next_gate(&task(), &[], &v, 1, at(0, 0))].into_iter().flatten() {
            prop_assert!(protocol::validate(&out.directive, &Options::strict()).valid, "{}", out.directive);
        }
    }
}
