//! Small logs written from the seeds' sentences, one rule each: the rule fails (or warns) for
//! the agent that broke it, and the same log kept to the rule does not. Each was a confident
//! pass before the rule matrix (issue 30's examples).

use serde_json::{json, Value};
use switchboard_core::agent_mail::read_log;
use switchboard_core::conformance::{self, ConformanceReport, Options, Status};
use switchboard_core::protocol;
use switchboard_core::time::Timestamp;

/// The report of a log read as the CLI reads it for `conformance` (leniently).
fn report_at(log: &[Value], now: Option<&str>) -> ConformanceReport {
    let text: String = log.iter().map(|v| format!("{v}\n")).collect();
    let lenient = protocol::Options {
        lenient: true,
        ..protocol::Options::default()
    };
    let envelopes = read_log(text.as_bytes(), &lenient).unwrap();
    conformance::check(
        &envelopes,
        &Options {
            now: now.map(|n| Timestamp::parse(n).unwrap()),
            ..Options::default()
        },
    )
}

fn report(log: &[Value]) -> ConformanceReport {
    report_at(log, None)
}

/// The status of `rule` for `agent` (not applicable when the agent or the rule is absent).
fn status(r: &ConformanceReport, agent: &str, rule: &str) -> Status {
    r.agents
        .iter()
        .filter(|a| a.agent == agent)
        .flat_map(|a| a.families.iter().flat_map(|f| &f.rules))
        .find(|x| x.id == rule)
        .map_or(Status::NotApplicable, |x| x.status)
}

fn explain(r: &ConformanceReport) -> String {
    r.table()
}

/// An Agent Mail row carrying a Pair message.
fn pair(id: u64, from: &str, to: &str, at: &str, subject: &str, body: Value) -> Value {
    json!({"id": id, "from": from, "to": [to], "subject": subject, "thread_id": "pair-1",
           "created_ts": at, "body_md": body.to_string()})
}

const FP: &str = "sha256:3333333333333333333333333333333333333333333333333333333333333333";

fn init(at: &str) -> Value {
    pair(
        1,
        "alice",
        "bob",
        at,
        "PAIR_INIT",
        json!({"protocol_version": "3.1", "task": "JWT auth",
        "my_role": "PLANNER", "your_role": "BUILDER", "status": "INITIALIZED"}),
    )
}
fn draft(at: &str) -> Value {
    pair(
        2,
        "alice",
        "bob",
        at,
        "CONTRACT_DRAFT",
        json!({"phase": "CONTRACT_GENERATION",
        "artifacts": {"safety_reasoning": "tmp/pair_1_safety_reasoning.md", "spec": "tmp/pair_1_spec_draft.md",
                      "tests": "tmp/pair_1_tests.py"},
        "status": "AWAITING_HUMAN_REVIEW", "test_fingerprints": {"tmp/pair_1_tests.py": FP}}),
    )
}
fn final_to(to: &str, at: &str, fingerprints: bool) -> Value {
    let mut body = json!({"phase": "CONTRACT_FINALIZED",
        "artifacts": {"spec": "tmp/pair_1_spec_final.md", "tests": "tmp/pair_1_tests.py"},
        "contract_immutable": true, "status": "READY_FOR_BUILD"});
    if fingerprints {
        body["test_fingerprints"] = json!({"tmp/pair_1_tests.py": FP});
    }
    pair(3, "alice", to, at, "CONTRACT_FINAL", body)
}
fn build(at: &str) -> Value {
    pair(
        4,
        "bob",
        "alice",
        at,
        "BUILD_COMPLETE",
        json!({"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS",
        "implementation_files": ["$PROJECT_ROOT/auth/jwt.py"], "status": "READY_FOR_REVIEW",
        "test_fingerprints": {"tmp/pair_1_tests.py": FP}}),
    )
}
fn audit(at: &str, status: &str, scheming: bool) -> Value {
    let body = json!({"status": status, "severity": if status == "PASS" { "MINOR" } else { "CRITICAL" },
        "scheming_detected": scheming,
        "issues": if scheming { json!([{"type": "integrity", "severity": "CRITICAL",
            "description": "env var gaming: if os.getenv('TESTING')", "location": "auth/jwt.py:12"}]) } else { json!([]) }});
    json!({"id": 5, "from": "alice", "to": ["alice"], "subject": "audit report", "thread_id": "pair-1",
           "created_ts": at, "body_md": body.to_string()})
}
fn complete(at: &str) -> Value {
    pair(
        6,
        "alice",
        "bob",
        at,
        "SESSION_COMPLETE",
        json!({"phase": "MERGED", "status": "SUCCESS",
        "commit_sha": "a1b2c3d4e5f6", "branch": "claude/pair-auth", "message": "merged"}),
    )
}
fn warning(id: u64, from: &str, to: &str, at: &str, n: u64) -> Value {
    pair(
        id,
        from,
        to,
        at,
        "TIMEOUT_WARNING",
        json!({"phase": "CONTRACT_FINALIZED", "status": "TIMEOUT",
        "message": "No response received within 30 minute timeout period.", "warnings_sent": n, "max_warnings": 2}),
    )
}

#[test]
fn a_merge_needs_the_automated_audit() {
    let without = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        build("2026-03-02T09:30:00Z"),
        complete("2026-03-02T09:40:00Z"),
    ]);
    assert_eq!(
        status(&without, "alice", "000.pattern-1.audit"),
        Status::Fail,
        "{}",
        explain(&without)
    );
    assert!(!without.conforms);
    let with = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        build("2026-03-02T09:30:00Z"),
        audit("2026-03-02T09:35:00Z", "PASS", false),
        complete("2026-03-02T09:40:00Z"),
    ]);
    assert_eq!(
        status(&with, "alice", "000.pattern-1.audit"),
        Status::Pass,
        "{}",
        explain(&with)
    );
    assert!(with.conforms, "{}", explain(&with));
}

#[test]
fn no_merge_after_a_failed_audit_with_scheming() {
    let r = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        build("2026-03-02T09:30:00Z"),
        audit("2026-03-02T09:35:00Z", "FAIL", true),
        complete("2026-03-02T09:40:00Z"),
    ]);
    assert_eq!(
        status(&r, "alice", "000.error.scheming-detected"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    assert_eq!(status(&r, "alice", "000.checkpoint-2.merge"), Status::Fail);
    // The build the audit failed is the builder's.
    assert_eq!(
        status(&r, "bob", "000.practice.builder-no-shortcuts"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn immutable_tests_are_not_tested_without_fingerprints() {
    let mut d = draft("2026-03-02T09:02:00Z");
    let mut body: Value = serde_json::from_str(d["body_md"].as_str().unwrap()).unwrap();
    body.as_object_mut().unwrap().remove("test_fingerprints");
    d["body_md"] = json!(body.to_string());
    let mut b = build("2026-03-02T09:30:00Z");
    let mut body: Value = serde_json::from_str(b["body_md"].as_str().unwrap()).unwrap();
    body.as_object_mut().unwrap().remove("test_fingerprints");
    b["body_md"] = json!(body.to_string());
    let r = report(&[
        init("2026-03-02T09:00:00Z"),
        d,
        final_to("bob", "2026-03-02T09:10:00Z", false),
        b,
    ]);
    assert_eq!(
        status(&r, "bob", "000.practice.builder-tests"),
        Status::NotTested,
        "{}",
        explain(&r)
    );
    assert_eq!(
        status(&r, "alice", "000.security.fingerprints-in-mail"),
        Status::Warning,
        "{}",
        explain(&r)
    );
    // With fingerprints the same rule is decided.
    let r = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        build("2026-03-02T09:30:00Z"),
    ]);
    assert_eq!(
        status(&r, "bob", "000.practice.builder-tests"),
        Status::Pass,
        "{}",
        explain(&r)
    );
}

#[test]
fn contract_final_goes_to_the_builder() {
    let r = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("carol", "2026-03-02T09:10:00Z", true),
    ]);
    assert_eq!(
        status(&r, "alice", "000.contract-final.recipient"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    assert!(!r.conforms);
    let r = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
    ]);
    assert_eq!(
        status(&r, "alice", "000.contract-final.recipient"),
        Status::Pass,
        "{}",
        explain(&r)
    );
}

#[test]
fn a_timeout_warning_comes_after_the_timeout() {
    let early = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        warning(7, "alice", "bob", "2026-03-02T09:11:00Z", 1),
    ]);
    assert_eq!(
        status(&early, "alice", "000.timeout-warning.purpose"),
        Status::Fail,
        "{}",
        explain(&early)
    );
    let on_time = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        warning(7, "alice", "bob", "2026-03-02T09:41:00Z", 1),
    ]);
    assert_eq!(
        status(&on_time, "alice", "000.timeout-warning.purpose"),
        Status::Pass,
        "{}",
        explain(&on_time)
    );
    // The builder is the late one.
    assert_eq!(
        status(&on_time, "bob", "000.error.message-timeout"),
        Status::Fail,
        "{}",
        explain(&on_time)
    );
}

#[test]
fn a_session_aborts_ten_minutes_after_the_second_warning() {
    let log = [
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        warning(7, "alice", "bob", "2026-03-02T09:40:00Z", 1),
        warning(8, "alice", "bob", "2026-03-02T09:50:00Z", 2),
    ];
    let left = report_at(&log, Some("2026-03-02T10:30:00Z"));
    assert_eq!(
        status(&left, "alice", "000.timeout.second-warning"),
        Status::Fail,
        "{}",
        explain(&left)
    );
    // Judged when the log ends, the abort is not due yet.
    let at_end = report(&log);
    assert_eq!(
        status(&at_end, "alice", "000.timeout.second-warning"),
        Status::Pass,
        "{}",
        explain(&at_end)
    );
    let mut aborted = log.to_vec();
    aborted.push(pair(
        9,
        "alice",
        "bob",
        "2026-03-02T10:00:00Z",
        "SESSION_ABORT",
        json!({"phase": "CONTRACT_FINALIZED",
        "reason": "No response after two warnings", "status": "ABORTED", "cleanup_required": true}),
    ));
    let r = report_at(&aborted, Some("2026-03-02T10:30:00Z"));
    assert_eq!(
        status(&r, "alice", "000.timeout.second-warning"),
        Status::Pass,
        "{}",
        explain(&r)
    );
}

/// A bare Agent-PO message (no envelope), as agents write them to disk.
fn po(kind: &str, at: &str, extra: Value) -> Value {
    let mut m =
        json!({"message_type": kind, "agent_id": "agent-7", "task_id": "TASK-42", "timestamp": at});
    for (k, v) in extra.as_object().unwrap() {
        m[k] = v.clone();
    }
    m
}
fn plan(at: &str, revision: u64) -> Value {
    po(
        "PLAN_SUBMISSION",
        at,
        json!({"plan": {"approach": "form", "ac_mapping": [{"ac_id": "AC-001", "implementation": "form"}],
        "files_to_modify": [{"path": "src/Login.tsx", "changes": "form"}],
        "test_approach": {"unit_tests": ["validation"], "integration_tests": []}}, "questions": [], "revision": revision}),
    )
}
fn go(at: &str, validated: bool) -> Value {
    po(
        "GO_DIRECTIVE",
        at,
        json!({"status": "GO", "validation": {"plan_validated": validated, "ac_coverage": "complete",
        "file_scope": "verified", "test_delta": "addressed"},
        "authorization": {"authorized_files": ["src/Login.tsx"], "timeout_minutes": 30}, "message": "GO."}),
    )
}
fn progress(at: &str) -> Value {
    po(
        "PROGRESS_UPDATE",
        at,
        json!({"status": "implementing", "progress_percent": 50,
        "current_activity": "form", "files_modified": ["src/Login.tsx"], "issues": [], "eta_minutes": 5}),
    )
}
fn completion(at: &str, failed: u64, file: &str) -> Value {
    po(
        "COMPLETION_REPORT",
        at,
        json!({"summary": {"started_at": "2026-03-02T09:05:00Z", "completed_at": at, "duration_minutes": 9},
        "ac_verification": [{"ac_id": "AC-001", "status": "PASS", "evidence": "Login.tsx:10", "tested": true}],
        "test_results": {"passed": 3, "failed": failed, "skipped": 0},
        "files_changed": [{"path": file, "action": "modified", "lines_added": 5, "lines_removed": 0}],
        "issues": [], "recommendations": []}),
    )
}
fn next(at: &str) -> Value {
    po(
        "NEXT_DIRECTIVE",
        at,
        json!({"status": "NEXT", "validation": {"report_validated": true, "ac_verified": "complete",
        "tests_passed": true, "scope_verified": true}, "summary": {"criteria_met": 1, "tests_passed": 3, "files_changed": 1},
        "message": "NEXT.", "cleanup": {"worktree": "ready_for_merge", "branch": "agent/agent-7/TASK-42"}}),
    )
}
fn feedback(at: &str, revision: u64) -> Value {
    po(
        "FEEDBACK",
        at,
        json!({"status": "NEEDS_REVISION", "validation": {"issues": [{"type": "missing_coverage",
        "ac_id": "AC-001", "message": "no error handling"}]}, "guidance": "add it", "revision_required": true,
        "max_revisions": 2, "current_revision": revision}),
    )
}

fn clean_task() -> Vec<Value> {
    vec![
        plan("2026-03-02T09:00:00Z", 1),
        go("2026-03-02T09:01:00Z", true),
        progress("2026-03-02T09:05:00Z"),
        completion("2026-03-02T09:09:00Z", 0, "src/Login.tsx"),
        next("2026-03-02T09:10:00Z"),
    ]
}

#[test]
fn a_bare_agent_po_log_is_attributed_and_judged() {
    let r = report(&clean_task());
    let names: Vec<&str> = r.agents.iter().map(|a| a.agent.as_str()).collect();
    assert_eq!(names, ["PO", "agent-7"], "{}", explain(&r));
    assert!(r
        .agents
        .iter()
        .all(|a| a.attribution == conformance::Attribution::Inferred));
    assert_eq!(
        status(&r, "PO", "002.go.validated"),
        Status::Pass,
        "{}",
        explain(&r)
    );
    assert!(r.conforms, "{}", explain(&r));
    // Recipients are never inferred: rules about them are not tested, not passed.
    assert_eq!(
        status(&r, "agent-7", "002.agent.sides"),
        Status::NotTested,
        "{}",
        explain(&r)
    );
    assert_eq!(
        status(&r, "PO", "002.po.sides"),
        Status::NotTested,
        "{}",
        explain(&r)
    );
}

#[test]
fn go_only_on_a_validated_plan() {
    let mut log = clean_task();
    log[1] = go("2026-03-02T09:01:00Z", false);
    let r = report(&log);
    assert_eq!(
        status(&r, "PO", "002.go.validated"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    assert_eq!(
        status(&report(&clean_task()), "PO", "002.go.validated"),
        Status::Pass
    );
}

#[test]
fn next_only_on_passing_tests() {
    let mut log = clean_task();
    log[3] = completion("2026-03-02T09:09:00Z", 2, "src/Login.tsx");
    let r = report(&log);
    assert_eq!(
        status(&r, "PO", "002.next.tests-passed"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn a_report_stays_within_the_authorized_files() {
    let mut log = clean_task();
    log[3] = completion("2026-03-02T09:09:00Z", 0, "src/Admin.tsx");
    let r = report(&log);
    assert_eq!(
        status(&r, "agent-7", "002.report.files"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    assert_eq!(
        status(&r, "PO", "002.go.authorized-files"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn no_go_past_the_revision_limit() {
    let log = vec![
        plan("2026-03-02T09:00:00Z", 1),
        feedback("2026-03-02T09:01:00Z", 1),
        plan("2026-03-02T09:02:00Z", 2),
        feedback("2026-03-02T09:03:00Z", 2),
        plan("2026-03-02T09:04:00Z", 3),
        go("2026-03-02T09:05:00Z", true),
    ];
    let r = report(&log);
    assert_eq!(
        status(&r, "PO", "002.po.sides"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn progress_every_five_minutes_while_working() {
    let log = vec![
        plan("2026-03-02T09:00:00Z", 1),
        go("2026-03-02T09:01:00Z", true),
        completion("2026-03-02T09:25:00Z", 0, "src/Login.tsx"),
        next("2026-03-02T09:26:00Z"),
    ];
    let r = report(&log);
    assert_eq!(
        status(&r, "agent-7", "002.agent.progress-every-5-min"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    assert_eq!(
        status(
            &report(&clean_task()),
            "agent-7",
            "002.agent.progress-every-5-min"
        ),
        Status::Pass
    );
}

/// A bare Pair log as the seed writes its messages: `{to, subject, body}`, no sender.
#[test]
fn a_bare_pair_log_learns_the_roles() {
    let bare =
        |to: &str, subject: &str, body: Value| json!({"to": to, "subject": subject, "body": body});
    let log = [
        bare(
            "bob",
            "PAIR_INIT",
            json!({"protocol_version": "3.1", "task": "t", "my_role": "PLANNER",
            "your_role": "BUILDER", "status": "INITIALIZED"}),
        ),
        bare(
            "alice",
            "BUILD_COMPLETE",
            json!({"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS",
            "implementation_files": ["a.py"], "status": "READY_FOR_REVIEW"}),
        ),
    ];
    let r = report(&log);
    let names: Vec<&str> = r.agents.iter().map(|a| a.agent.as_str()).collect();
    assert_eq!(names, ["alice", "bob"], "{}", explain(&r));
    // BUILD_COMPLETE with no CONTRACT_FINAL before it: out of order, and it is bob's.
    assert_eq!(
        status(&r, "bob", "000.pattern-1.build"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn an_unknown_sender_passes_nothing_that_needs_one() {
    // A droid message without its sender_id: no envelope, no name to infer it from.
    let log = [
        json!({"version": "1.0.0", "timestamp": "2025-12-25T16:00:00Z",
        "message_id": "msg-423e4567-e89b-42d3-a456-426614174003", "type": "status_update",
        "task_id": "bd-47", "update_type": "progress", "status_summary": "70%", "blockers": []}),
    ];
    let r = report(&log);
    assert_eq!(
        r.agents[0].agent,
        conformance::UNKNOWN_SENDER,
        "{}",
        explain(&r)
    );
    assert_eq!(r.agents[0].attribution, conformance::Attribution::Unknown);
    // Read leniently, the missing base field is the seed's own short form: a warning.
    assert_eq!(
        status(&r, conformance::UNKNOWN_SENDER, "004.common.sender-id"),
        Status::Warning,
        "{}",
        explain(&r)
    );
    for a in &r.agents {
        for rule in a.families.iter().flat_map(|f| &f.rules) {
            if rule
                .checks
                .iter()
                .any(|c| c.contains(".role.") || c.contains("recipient"))
            {
                assert_ne!(
                    rule.status,
                    Status::Pass,
                    "{}: {} passed for {}",
                    rule.id,
                    rule.status.as_str(),
                    a.agent
                );
            }
        }
    }
}

/// A droid message in an Agent Mail row.
fn droid(id: u64, from: &str, to: &str, body: Value) -> Value {
    json!({"id": id, "from": from, "to": [to], "subject": "", "created_ts": body["timestamp"],
           "body_md": body.to_string()})
}

#[test]
fn droid_timestamps_are_utc() {
    let m = |ts: &str| {
        droid(
            1,
            "orchestrator",
            "frontend",
            json!({"version": "1.0.0", "timestamp": ts,
        "sender_id": "orchestrator", "message_id": "msg-123e4567-e89b-42d3-a456-426614174000",
        "type": "task_assignment", "task_id": "bd-42", "description": "login form",
        "specification": {"acceptance_criteria": ["form"]}, "file_patterns": ["src/**"],
        "priority": "high", "priority_value": 1}),
        )
    };
    let r = report(&[m("2025-12-25T14:00:00+02:00")]);
    assert_eq!(
        status(&r, "orchestrator", "004.common.timestamp"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    let r = report(&[m("2025-12-25T12:00:00Z")]);
    assert_eq!(
        status(&r, "orchestrator", "004.common.timestamp"),
        Status::Pass,
        "{}",
        explain(&r)
    );
}

#[test]
fn navigator_and_driver_never_mail_each_other() {
    let call = |from: &str, name: &str, at: &str, args: Value| {
        json!({"id": 1, "from": from, "to": ["orchestrator"],
        "subject": "", "created_ts": at, "body_md": json!({"name": name, "arguments": args}).to_string()})
    };
    let mut log = vec![
        call(
            "drv",
            "mcp__driver__driverRequestReview",
            "2026-03-02T09:00:00Z",
            json!({"context": "auth"}),
        ),
        call(
            "nav",
            "mcp__navigator__navigatorCodeReview",
            "2026-03-02T09:01:00Z",
            json!({"comment": "ok", "pass": true}),
        ),
    ];
    let r = report(&log);
    assert_eq!(
        status(&r, "nav", "003.isolation.no-direct"),
        Status::Pass,
        "{}",
        explain(&r)
    );
    log.push(json!({"id": 3, "from": "nav", "to": ["drv"], "subject": "psst", "created_ts": "2026-03-02T09:02:00Z",
        "body_md": "use the other library"}));
    let r = report(&log);
    assert_eq!(
        status(&r, "nav", "003.isolation.no-direct"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn reports_are_json_junit_and_markdown() {
    let r = report(&[
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("carol", "2026-03-02T09:10:00Z", true),
    ]);
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["totals"]["must"]["tested"].as_u64().unwrap() > 0);
    let recipient = json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "000.contract-final.recipient")
        .unwrap();
    assert_eq!(
        (recipient["fail"].as_u64(), recipient["level"].as_str()),
        (Some(1), Some("MUST"))
    );
    // The wrong recipient breaks two MUST rules: the structure's `to` and CONTRACT_FINAL's.
    assert_eq!(
        json["agents"][0]["must"]["fail"].as_u64(),
        Some(2),
        "{json:#}"
    );
    let junit = r.junit();
    let parsed = junit_parser::from_reader(std::io::Cursor::new(junit.as_bytes())).unwrap();
    let suite = parsed.suites.iter().find(|s| s.name == "alice").unwrap();
    let failed: Vec<&str> = suite
        .cases
        .iter()
        .filter(|c| c.status.is_failure())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        failed,
        [
            "alice.pair::[MUST] 000.structure.recipient (000 Message Structure)",
            "alice.pair::[MUST] 000.contract-final.recipient (000 3. CONTRACT_FINAL)"
        ],
        "{junit}"
    );
    assert!(r
        .markdown()
        .contains("| fail | MUST | `000.contract-final.recipient`"));
}

/// The seed's own example messages, as a bare log (`{to, subject, body}`, no thread, no time).
fn seed_pair(to: &str, subject: &str, body: Value) -> Value {
    json!({"to": to, "subject": subject, "body": body})
}

#[test]
fn a_bare_contract_final_to_a_third_agent_is_judged_in_its_session() {
    let log = [
        seed_pair(
            "bob",
            "PAIR_INIT",
            json!({"protocol_version": "3.1", "task": "JWT", "my_role": "PLANNER",
            "your_role": "BUILDER", "status": "INITIALIZED"}),
        ),
        seed_pair(
            "bob",
            "CONTRACT_DRAFT",
            json!({"phase": "CONTRACT_GENERATION", "artifacts": {
            "safety_reasoning": "tmp/pair_1234567890_safety_reasoning.md", "spec": "tmp/pair_1234567890_spec_draft.md",
            "tests": "tmp/pair_1234567890_tests.py"}, "status": "AWAITING_HUMAN_REVIEW"}),
        ),
        seed_pair(
            "carol",
            "CONTRACT_FINAL",
            json!({"phase": "CONTRACT_FINALIZED", "artifacts": {
            "spec": "tmp/pair_1234567890_spec_final.md", "tests": "tmp/pair_1234567890_tests.py"},
            "contract_immutable": true, "status": "READY_FOR_BUILD"}),
        ),
    ];
    let r = report(&log);
    // The planner's name never appears: it is its role's.
    assert_eq!(
        status(&r, "planner", "000.contract-final.recipient"),
        Status::Fail,
        "{}",
        explain(&r)
    );
    // Not a second session that skipped its contract review.
    assert_eq!(
        status(&r, "planner", "000.pattern-1.contract-review"),
        Status::Pass,
        "{}",
        explain(&r)
    );
}

#[test]
fn the_seeds_own_deviations_warn_unless_strict() {
    // SESSION_COMPLETE's example commit_sha "a1b2c3d4e5f6g7h8i9j0" is not hex (protocol-notes §5.1).
    let mut log = vec![
        init("2026-03-02T09:00:00Z"),
        draft("2026-03-02T09:02:00Z"),
        final_to("bob", "2026-03-02T09:10:00Z", true),
        build("2026-03-02T09:30:00Z"),
        audit("2026-03-02T09:35:00Z", "PASS", false),
    ];
    log.push(pair(6, "alice", "bob", "2026-03-02T09:40:00Z", "SESSION_COMPLETE", json!({"phase": "MERGED",
        "status": "SUCCESS", "commit_sha": "a1b2c3d4e5f6g7h8i9j0", "branch": "claude/pair-auth-feature",
        "message": "Pair session completed successfully. All tests passing. Implementation merged."})));
    let r = report(&log);
    assert_eq!(
        status(&r, "alice", "000.session-complete.members"),
        Status::Warning,
        "{}",
        explain(&r)
    );
    assert!(r.conforms, "{}", explain(&r));
    let text: String = log.iter().map(|v| format!("{v}\n")).collect();
    let strict = read_log(text.as_bytes(), &protocol::Options::default()).unwrap();
    let r = conformance::check(&strict, &Options::default());
    assert_eq!(
        status(&r, "alice", "000.session-complete.members"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

/// A Pair Claude call or record, sent by `from` at `second` past 10:00.
fn claude(second: u32, from: &str, body: Value) -> Value {
    let mut m = body;
    m["from"] = json!(from);
    m["created_ts"] = json!(format!(
        "2026-03-01T10:{:02}:{:02}Z",
        second / 60,
        second % 60
    ));
    m
}

fn permission_request(second: u32) -> Value {
    claude(
        second,
        "drv",
        json!({"requestId": "r1", "driverTranscript": "…", "toolName": "Edit",
        "input": {"file_path": "src/cart.ts"}}),
    )
}

#[test]
fn the_seeds_permission_sequence_conforms_and_an_unanswered_request_does_not() {
    // The navigator approves, then the orchestrator's PermissionResult and behaviour.
    let log = [
        permission_request(0),
        claude(
            5,
            "nav",
            json!({"name": "mcp__navigator__navigatorApprove", "arguments": {"requestId": "r1", "comment": "fine"}}),
        ),
        claude(
            6,
            "orchestrator",
            json!({"allowed": true, "updatedInput": {}}),
        ),
        claude(
            6,
            "orchestrator",
            json!({"behavior": "allow", "updatedInput": {}}),
        ),
    ];
    let r = report(&log);
    assert_eq!(
        status(&r, "nav", "003.permission.decision"),
        Status::Pass,
        "{}",
        explain(&r)
    );
    assert_eq!(
        status(&r, "orchestrator", "003.permission.result"),
        Status::Pass,
        "{}",
        explain(&r)
    );
    assert!(r.conforms, "{}", explain(&r));
    // Nobody answers within PAIR_PERMISSION_TIMEOUT_MS (15 s): the navigator's lapse.
    let r = report_at(
        &[
            permission_request(0),
            claude(
                1,
                "nav",
                json!({"name": "mcp__navigator__navigatorCodeReview",
        "arguments": {"comment": "warm-up", "pass": true}}),
            ),
        ],
        Some("2026-03-01T10:01:00Z"),
    );
    assert_eq!(
        status(&r, "nav", "003.env.permission-timeout"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn a_review_is_due_within_the_tool_timeout() {
    let ask = claude(
        0,
        "drv",
        json!({"name": "mcp__driver__driverRequestReview", "arguments": {"context": "cart"}}),
    );
    let review = |second| {
        claude(
            second,
            "nav",
            json!({"name": "mcp__navigator__navigatorCodeReview",
        "arguments": {"comment": "ok", "pass": true}}),
        )
    };
    let r = report(&[ask.clone(), review(60)]);
    assert_eq!(
        status(&r, "nav", "003.env.tool-timeout"),
        Status::Pass,
        "{}",
        explain(&r)
    );
    // PAIR_TOOL_TIMEOUT_MS is 2 minutes: a review after 3 is late.
    let r = report(&[ask, review(180)]);
    assert_eq!(
        status(&r, "nav", "003.env.tool-timeout"),
        Status::Fail,
        "{}",
        explain(&r)
    );
}

#[test]
fn a_blocked_completion_comes_with_an_error_report() {
    let base = |id: u64, from: &str, to: &str, ts: &str, extra: Value| {
        let mut m = json!({"version": "1.0.0", "timestamp": ts, "sender_id": from,
            "message_id": format!("msg-123e4567-e89b-42d3-a456-42661417400{id}")});
        for (k, v) in extra.as_object().unwrap() {
            m[k] = v.clone();
        }
        droid(id, from, to, m)
    };
    let assignment = base(
        1,
        "orchestrator",
        "frontend",
        "2026-03-01T09:00:00Z",
        json!({"type": "task_assignment",
        "task_id": "bd-42", "description": "login form", "specification": {"acceptance_criteria": ["form"]},
        "file_patterns": ["src/**"], "priority": "high", "priority_value": 1}),
    );
    let blocked = base(
        2,
        "frontend",
        "orchestrator",
        "2026-03-01T10:00:00Z",
        json!({"type": "task_completion",
        "task_id": "bd-42", "status": "blocked", "completion_summary": "API down", "files_modified": [],
        "test_results": {}, "errors_encountered": ["payment API 403"]}),
    );
    let r = report(&[assignment.clone(), blocked.clone()]);
    assert_eq!(
        status(&r, "frontend", "004.completion.blocked"),
        Status::Warning,
        "{}",
        explain(&r)
    );
    let error = base(
        3,
        "frontend",
        "orchestrator",
        "2026-03-01T10:01:00Z",
        json!({"type": "error_report",
        "task_id": "bd-42", "severity": "blocking", "error": {"code": "API_CONNECTION_ERROR", "message": "403"},
        "reproduction_steps": ["pay"], "needs_human_intervention": true}),
    );
    let r = report(&[assignment, blocked, error]);
    assert_eq!(
        status(&r, "frontend", "004.completion.blocked"),
        Status::Pass,
        "{}",
        explain(&r)
    );
}
