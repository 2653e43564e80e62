//! The curated traffic of the other families: Pair Claude permission requests (one timed
//! out), a blocked Agent-PO task and one within its GO timeout, a droid task with a blocking
//! error report and a report from an agent it was not assigned to, and two reservations in
//! conflict.

use super::plan::{pretty, t, Plan, Planned};
use crate::api::demo::gen::{built, fenced, Lcg};
use serde_json::{json, Map, Value};
use switchboard_core::protocol::builders::agent_po::{
    blocked, feedback, fix_directive, go_directive, DirectiveIssue, TaskIds,
};
use switchboard_core::protocol::builders::build::BuildOptions;
use switchboard_core::protocol::builders::Text;
use switchboard_core::time::Timestamp;

/// Pair Claude permission requests and decisions, added to `plan`.
pub fn pair_claude(plan: &mut Plan) {
    let (nav, drv) = ("NavyFalcon", "AmberFox");
    let thread = "review-900";
    let none = BuildOptions::default();
    let request = |id: &str, tool: &str, input: Value| {
        let fields = json!({"requestId": id, "driverTranscript": format!("Driver: about to run {tool}"),
               "toolName": tool, "input": input, "toolId": format!("toolu_{id}")});
        built("pair-claude/PermissionRequest", fields, &none)
    };
    let answer = |call: &str, request: &str, comment: &str| {
        let fields = json!({"name": format!("mcp__navigator__{call}"),
            "arguments": {"requestId": request, "comment": comment}});
        built(&format!("pair-claude/{call}"), fields, &none)
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
        answer("navigatorApprove", "perm-902", "Within the plan."),
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
        answer("navigatorDeny", "perm-903", "Do not touch the tests."),
    );
}

/// Two Agent-PO tasks (one blocked), added to `plan`; `clock` dates minutes before now.
pub fn agent_po(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
    let po = "GoldenOwl";
    let ids = TaskIds::new("agent-copperbay", "TASK-200").expect("demo ids have their form");
    let agent = |kind: &str, minutes: u64, fields: Value| {
        built(
            &format!("agent-po/{kind}"),
            fields,
            &task_options(&ids, clock(minutes)),
        )
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
    let plan_at = |minutes: u64, revision: u32, ac_mapping: Value| {
        let fields = json!({"plan": {"approach": "Edit the page", "ac_mapping": ac_mapping,
            "files_to_modify": [{"path": "src/pages/Settings.tsx", "changes": "form"}]},
            "questions": [], "revision": revision});
        built(
            "agent-po/PLAN_SUBMISSION",
            fields,
            &task_options(&ids, clock(minutes)),
        )
    };
    let first = plan_at(40, 1, json!([]));
    let issue = DirectiveIssue {
        kind: "missing_coverage",
        message: t("AC-002 (validation) has no implementation step"),
        ac_id: Text::new("AC-002"),
        test: None,
    };
    let second = plan_at(
        20,
        2,
        json!([{"ac_id": "AC-002", "implementation": "validate on submit", "file": "src/pages/Settings.tsx", "line_estimate": "~20"}]),
    );
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

/// How an Agent-PO message of the task `ids` is built at `now`.
fn task_options(ids: &TaskIds, now: Timestamp) -> BuildOptions {
    BuildOptions {
        now: Some(now),
        agent_id: Some(ids.agent_id.clone()),
        task_id: Some(ids.task_id.clone()),
        ..BuildOptions::default()
    }
}

/// A droid task with a blocking error report and a report from an agent it was not assigned
/// to, and two conflicting reservations, added to `plan`; `clock` dates minutes before now.
pub fn droid(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
    let msg = |n: u64, sender: &str, kind: &str, minutes: u64, fields: Value| {
        let options = BuildOptions {
            now: Some(clock(minutes)),
            random: Some(Lcg::new(900 + n).bytes()),
            sender: Some(sender.to_owned()),
            ..BuildOptions::default()
        };
        built(&format!("droid/{kind}"), fields, &options)
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
        // TealHarbor reports on a task assigned to OliveMarsh: the board applies it and says
        // the sender lacks the role (seed 004, Security 2).
        (
            385,
            "TealHarbor",
            "CrimsonPeak",
            msg(
                6,
                "TealHarbor",
                "status_update",
                385,
                json!({
            "task_id": "bd-90", "update_type": "progress",
            "status_summary": "Picked up the invoices migration while OliveMarsh is busy",
            "progress": {"percentage": 45}, "blockers": []}),
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
