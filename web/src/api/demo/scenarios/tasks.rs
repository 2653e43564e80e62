//! The curated traffic of the other families: Pair Claude permission requests (one timed
//! out), a blocked Agent-PO task and one within its GO timeout, a droid task with a blocking
//! error report and two reservations in conflict.

use super::plan::{pretty, t, Plan, Planned};
use crate::api::demo::gen::fenced;
use serde_json::{json, Map, Value};
use switchboard_core::protocol::builders::agent_po::{
    blocked, feedback, fix_directive, go_directive, DirectiveIssue, TaskIds,
};
use switchboard_core::protocol::builders::Text;
use switchboard_core::time::Timestamp;

/// Pair Claude permission requests and decisions, added to `plan`.
pub fn pair_claude(plan: &mut Plan) {
    let (nav, drv) = ("NavyFalcon", "AmberFox");
    let thread = "review-900";
    let request = |id: &str, tool: &str, input: Value| {
        json!({"requestId": id, "driverTranscript": format!("Driver: about to run {tool}"),
               "toolName": tool, "input": input, "toolId": format!("toolu_{id}")})
    };
    // Seconds before now: a decision comes within the 15 s permission timeout, or never.
    let mut put = |seconds: u64, from: &str, to: &str, what: &str, value: Value| {
        plan.0.push(Planned {
            seconds,
            project: 0,
            from: from.to_owned(),
            to: to.to_owned(),
            subject: format!("[{thread}] {what}"),
            body_md: fenced(&format!("Pair Claude `{what}`."), &value),
            thread: thread.to_owned(),
            ack: false,
        });
    };
    put(
        1800,
        drv,
        nav,
        "PermissionRequest",
        request("perm-901", "Bash", json!({"command": "rm -rf build/"})),
    );
    put(
        1500,
        drv,
        nav,
        "PermissionRequest",
        request(
            "perm-902",
            "Edit",
            json!({"file_path": "src/net/client.rs"}),
        ),
    );
    put(
        1494,
        nav,
        drv,
        "navigatorApprove",
        json!({"name": "mcp__navigator__navigatorApprove",
        "arguments": {"requestId": "perm-902", "comment": "Within the plan."}}),
    );
    put(
        1200,
        drv,
        nav,
        "PermissionRequest",
        request(
            "perm-903",
            "Write",
            json!({"file_path": "tests/test_client.rs"}),
        ),
    );
    put(
        1192,
        nav,
        drv,
        "navigatorDeny",
        json!({"name": "mcp__navigator__navigatorDeny",
        "arguments": {"requestId": "perm-903", "comment": "Do not touch the tests."}}),
    );
}

/// Two Agent-PO tasks (one blocked), added to `plan`; `clock` dates minutes before now.
pub fn agent_po(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
    let po = "GoldenOwl";
    let ids = TaskIds::new("agent-copperbay", "TASK-200").expect("demo ids have their form");
    let agent = |kind: &str, minutes: u64, extra: Value| {
        let mut m = Map::new();
        m.insert("message_type".into(), kind.into());
        m.insert("agent_id".into(), ids.agent_id.clone().into());
        m.insert("task_id".into(), ids.task_id.clone().into());
        m.insert("timestamp".into(), clock(minutes).to_rfc3339().into());
        if let Value::Object(extra) = extra {
            m.extend(extra);
        }
        Value::Object(m)
    };
    let plan_msg = agent(
        "PLAN_SUBMISSION",
        600,
        json!({"plan": {"approach": "Add the export button, then the CSV writer",
            "ac_mapping": [{"ac_id": "AC-001", "implementation": "CSV writer", "file": "src/export.ts", "line_estimate": "~60"}],
            "files_to_modify": [{"path": "src/export.ts", "changes": "CSV writer"}]},
            "questions": [], "revision": 1}),
    );
    let report = |minutes: u64, failed: u64| {
        agent(
            "COMPLETION_REPORT",
            minutes,
            json!({"summary": {"started_at": clock(590).to_rfc3339(), "completed_at": clock(minutes).to_rfc3339(), "duration_minutes": 590 - minutes},
                "ac_verification": [{"ac_id": "AC-001", "status": "FAIL", "evidence": "quotes are not escaped"}],
                "test_results": {"passed": 10, "failed": failed, "skipped": 0},
                "files_changed": [{"path": "src/export.ts", "action": "modified", "lines_added": 58, "lines_removed": 2}]}),
        )
    };
    let issue = DirectiveIssue {
        kind: "test_failure",
        message: t("test_csv_quotes: a field with a quote is not escaped"),
        ac_id: Text::new("AC-001"),
        test: Text::new("tests/export.test.ts"),
    };
    let guidance = t("Escape quotes by doubling them (RFC 4180).");
    let fix = |minutes: u64, retry: u32| {
        fix_directive(
            &ids,
            clock(minutes),
            std::slice::from_ref(&issue),
            &guidance,
            retry,
            2,
        )
    };
    let mut history = Map::new();
    history.insert("fix_retries".into(), json!(2));
    history.insert(
        "last_failure".into(),
        json!("test_csv_quotes <script>window.__pwned=1</script>"),
    );
    let steps: Vec<(u64, bool, Value)> = vec![
        (600, true, plan_msg),
        (
            590,
            false,
            go_directive(&ids, clock(590), &["src/export.ts".to_owned()], 30),
        ),
        (560, true, report(560, 2)),
        (555, false, fix(555, 1)),
        (500, true, report(500, 1)),
        (495, false, fix(495, 2)),
        (440, true, report(440, 1)),
        (
            435,
            false,
            blocked(
                &ids,
                clock(435),
                &t("Fix retries exhausted (2 of 2): <b>escaping</b> still fails"),
                history,
            ),
        ),
    ];
    plan.task_exchange("TASK-200", "CopperBay", po, steps);
    // A plan revised once, then GO: implementing within its 30 minutes.
    let ids = TaskIds::new("agent-silverpine", "TASK-201").expect("demo ids have their form");
    let first = json!({"message_type": "PLAN_SUBMISSION", "agent_id": ids.agent_id, "task_id": ids.task_id,
        "timestamp": clock(40).to_rfc3339(), "plan": {"approach": "Edit the page",
        "ac_mapping": [], "files_to_modify": [{"path": "src/pages/Settings.tsx", "changes": "form"}]},
        "questions": [], "revision": 1});
    let issue = DirectiveIssue {
        kind: "missing_coverage",
        message: t("AC-002 (validation) has no implementation step"),
        ac_id: Text::new("AC-002"),
        test: None,
    };
    let mut second = first.clone();
    second["revision"] = json!(2);
    second["timestamp"] = json!(clock(20).to_rfc3339());
    second["plan"]["ac_mapping"] = json!([{"ac_id": "AC-002", "implementation": "validate on submit", "file": "src/pages/Settings.tsx", "line_estimate": "~20"}]);
    let steps = [
        (40, true, first),
        (
            35,
            false,
            feedback(
                &ids,
                clock(35),
                &[issue],
                &t("Map every acceptance criterion."),
                1,
                2,
            ),
        ),
        (20, true, second),
        (
            10,
            false,
            go_directive(&ids, clock(10), &["src/pages/Settings.tsx".to_owned()], 30),
        ),
    ];
    plan.task_exchange("TASK-201", "SilverPine", po, steps);
}

/// A droid task with a blocking error report and two conflicting reservations, added to
/// `plan`; `clock` dates minutes before now.
pub fn droid(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
    let msg = |n: u64, sender: &str, kind: &str, minutes: u64, extra: Value| {
        let mut m = json!({"version": "1.0.0", "timestamp": clock(minutes).to_rfc3339(),
            "sender_id": sender.to_lowercase(), "message_id": format!("123e4567-e89b-42d3-a456-{:012}", 900 + n),
            "type": kind});
        if let (Value::Object(m), Value::Object(extra)) = (&mut m, extra) {
            m.extend(extra);
        }
        m
    };
    let items = [
        (
            400,
            "CrimsonPeak",
            "OliveMarsh",
            msg(
                1,
                "CrimsonPeak",
                "task_assignment",
                400,
                json!({
            "task_id": "bd-90", "description": "Migrate the invoices table to the new schema",
            "specification": {"acceptance_criteria": ["No data loss", "Runs under 5 minutes"]},
            "file_patterns": ["migrations/*.sql"], "priority": "urgent", "priority_value": 0}),
            ),
        ),
        (
            390,
            "OliveMarsh",
            "CrimsonPeak",
            msg(
                2,
                "OliveMarsh",
                "status_update",
                390,
                json!({
            "task_id": "bd-90", "update_type": "progress", "status_summary": "Copied 40% of the rows",
            "progress": {"percentage": 40}, "blockers": []}),
            ),
        ),
        (
            380,
            "OliveMarsh",
            "CrimsonPeak",
            msg(
                3,
                "OliveMarsh",
                "error_report",
                380,
                json!({
            "task_id": "bd-90", "severity": "blocking",
            "error": {"code": "MIGRATION_LOCK_TIMEOUT", "message": "Lock on invoices held for 10 min <script>window.__pwned=1</script>"},
            "attempted_solutions": [{"solution": "Retried", "result": "failed"}],
            "reproduction_steps": ["Run migrations/0042_invoices.sql"],
            "needs_human_intervention": true}),
            ),
        ),
        (
            50,
            "TealHarbor",
            "CrimsonPeak",
            msg(
                4,
                "TealHarbor",
                "file_reservation",
                50,
                json!({
            "task_id": "bd-91", "reservation_request": {"mode": "exclusive",
            "file_patterns": ["src/frontend/auth/**"], "duration_minutes": 120,
            "reason": "Auth UI rework"}}),
            ),
        ),
        (
            45,
            "OliveMarsh",
            "CrimsonPeak",
            msg(
                5,
                "OliveMarsh",
                "file_reservation",
                45,
                json!({
            "task_id": "bd-92", "reservation_request": {"mode": "exclusive",
            "file_patterns": ["src/frontend/auth/session.ts"], "duration_minutes": 120,
            "reason": "Session storage"}}),
            ),
        ),
    ];
    for (minutes, from, to, value) in items {
        let subject = format!(
            "{} {}",
            value["type"].as_str().unwrap_or("message"),
            value["task_id"].as_str().unwrap_or("")
        );
        let thread = value["task_id"].as_str().unwrap_or("droid").to_owned();
        plan.raw(minutes, 2, from, to, subject, pretty(&value), &thread);
    }
}
