//! The curated part of the demo, dated just before the demo's now: a Pair session waiting at
//! each human checkpoint, a tampered contract, a merged and an aborted session, one waiting
//! for the builder (a live countdown), a session whose names and evidence are hostile
//! markup, Pair Claude permission requests (one timed out), a blocked Agent-PO task, a task
//! waiting within its GO timeout, a droid task with a blocking error report and a reservation
//! conflict. Pair messages are written by the core's builders and travel as Agent Mail does
//! it: subject = type, `body_md` = the body's JSON. Audit reports are the core's audit of the
//! diffs below against the contracts below, which the demo also hands to the audit view;
//! they travel as a whole JSON body under a subject that names no Pair type (a subject
//! `AUDIT_REPORT` would make the body read as a Pair body).
//!
//! [`planner_answer`] is the demo's planner: a REVISE at checkpoint #1 gets a new draft.

use super::traffic::{fenced, Gen};
use super::world::DemoMessage;
use serde_json::{json, Map, Value};
use switchboard_core::audit::{self, Contract};
use switchboard_core::fingerprint::{fingerprint, Fingerprints};
use switchboard_core::protocol::builders::agent_po::{
    blocked, feedback, fix_directive, go_directive, DirectiveIssue, TaskIds,
};
use switchboard_core::protocol::builders::pair::{
    build_complete, build_rejected, change_order, change_order_accepted, contract_draft,
    contract_final, pair_init, session_abort, session_complete, ChangeRequest, ContractArtifacts,
    DraftArtifacts, FailureMode, PairMessage,
};
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::registry::families::pair::{Phase, Role};
use switchboard_core::protocol::{self, Options};
use switchboard_core::time::Timestamp;

/// A demo session's contract files and the builder's diff, for the audit view.
pub struct DemoContract {
    /// The session's thread.
    pub thread: &'static str,
    /// The contract's files: path and text.
    pub files: Vec<(String, String)>,
    /// The builder's change.
    pub diff: String,
}

const PLANNER: &str = "BlueLake";
const BUILDER: &str = "GreenCastle";

const RATE_TESTS: &str = "from ratelimit import allow\n\n\ndef test_sixth_attempt_is_refused():\n    for _ in range(5):\n        assert allow(\"10.0.0.1\") is True\n    assert allow(\"10.0.0.1\") is False\n";
const RATE_SPEC: &str = "# Rate-limit the login endpoint\n\nAt most 5 failed logins per minute per IP address; the sixth is refused.\n";
const RATE_DIFF: &str = "diff --git a/ratelimit.py b/ratelimit.py
new file mode 100644
--- /dev/null
+++ b/ratelimit.py
@@ -0,0 +1,12 @@
+import time
+
+WINDOW_SECONDS = 60
+LIMIT = 5
+_attempts = {}
+
+
+def allow(ip):
+    now = time.monotonic()
+    recent = [t for t in _attempts.get(ip, []) if now - t < WINDOW_SECONDS]
+    _attempts[ip] = recent + [now]
+    return len(recent) < LIMIT
";

const RESET_TESTS: &str = "from reset import make_token, verify_token\n\ndef test_token_round_trip():\n    token = make_token(\"ada@example.com\", now=1000)\n    assert verify_token(token, now=1500) == \"ada@example.com\"\n\ndef test_token_expires_after_an_hour():\n    token = make_token(\"ada@example.com\", now=1000)\n    assert verify_token(token, now=1000 + 3601) is None\n";
const RESET_SPEC: &str = "# Password reset by email\n\nA reset token names the account's email and expires one hour after it was issued.\n";
const RESET_DIFF: &str = r#"diff --git a/reset.py b/reset.py
new file mode 100644
--- /dev/null
+++ b/reset.py
@@ -0,0 +1,21 @@
+import hashlib
+import hmac
+import os
+
+SECRET = b"demo-secret"
+
+
+def make_token(email, now):
+    payload = f"{email}|{now}"
+    mac = hmac.new(SECRET, payload.encode(), hashlib.sha256).hexdigest()
+    return f"{payload}|{mac}"
+
+
+def verify_token(token, now):
+    email, issued, mac = token.split("|")
+    if os.getenv("PYTEST_CURRENT_TEST"):
+        return email
+    expected = hmac.new(SECRET, f"{email}|{issued}".encode(), hashlib.sha256).hexdigest()
+    if not hmac.compare_digest(mac, expected) or now - int(issued) > 3600:
+        return None
+    return email
diff --git a/tmp/pair_1767104000_tests.py b/tmp/pair_1767104000_tests.py
index 3b18e51..9f2c4d7 100644
--- a/tmp/pair_1767104000_tests.py
+++ b/tmp/pair_1767104000_tests.py
@@ -7,3 +7,3 @@ def test_token_round_trip():
 def test_token_expires_after_an_hour():
     token = make_token("ada@example.com", now=1000)
-    assert verify_token(token, now=1000 + 3601) is None
+    assert verify_token(token, now=1000 + 3601) is None or True
"#;

/// Markup in names and evidence: every view must show it as text.
const HOSTILE_TESTS: &str = "tmp/pair_1767108000_<script>window.__pwned=1</script>.py";
const HOSTILE_DIFF: &str = "diff --git a/src/<img/src=x/onerror=window.__pwned=1>.py b/src/<img/src=x/onerror=window.__pwned=1>.py
new file mode 100644
--- /dev/null
+++ b/src/<img/src=x/onerror=window.__pwned=1>.py
@@ -0,0 +1,4 @@
+try:
+    run(\"<script>window.__pwned=1</script>\")
+except:
+    pass
";

/// The contracts and diffs the demo's sessions were audited with.
#[must_use]
pub fn contracts() -> Vec<DemoContract> {
    let files = |stamp: u64, spec: &str, tests: &str| {
        vec![
            (format!("tmp/pair_{stamp}_spec_final.md"), spec.to_owned()),
            (format!("tmp/pair_{stamp}_tests.py"), tests.to_owned()),
        ]
    };
    vec![
        DemoContract {
            thread: "pair-102",
            files: files(1_767_102_000, RATE_SPEC, RATE_TESTS),
            diff: RATE_DIFF.to_owned(),
        },
        DemoContract {
            thread: "pair-104",
            files: files(1_767_104_000, RESET_SPEC, RESET_TESTS),
            diff: RESET_DIFF.to_owned(),
        },
        DemoContract {
            thread: "pair-108",
            files: vec![
                (
                    "tmp/pair_1767108000_<img src=x onerror=window.__pwned=1>.md".to_owned(),
                    "# <b>Spec</b>\n\n<script>window.__pwned=1</script>\n".to_owned(),
                ),
                (
                    HOSTILE_TESTS.to_owned(),
                    "def test_runs():\n    assert True\n".to_owned(),
                ),
            ],
            diff: HOSTILE_DIFF.to_owned(),
        },
    ]
}

fn t(s: &str) -> Text {
    Text::new(s).expect("demo texts are not blank")
}

fn a(s: String) -> ArtifactPath {
    ArtifactPath::new(&s).expect("demo artifacts have the Pair form")
}

fn audit_report(thread: &str) -> String {
    let contract = contracts()
        .into_iter()
        .find(|c| c.thread == thread)
        .expect("the session has a contract");
    let files = Contract::from_files(
        contract
            .files
            .iter()
            .map(|(p, text)| (p.as_str(), text.as_str())),
    )
    .expect("demo contract paths are relative");
    let diff = audit::parse_diff(&contract.diff).expect("demo diffs parse");
    let report = audit::audit(&files, &diff, &[]);
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

fn prints(path: &str, text: &str) -> Option<Fingerprints> {
    fingerprint([(path, text.as_bytes())]).ok()
}

/// One message to store: minutes before now, project, sender, recipient, subject, body,
/// thread, whether an acknowledgement is asked.
struct Planned {
    /// Seconds before now.
    seconds: u64,
    project: usize,
    from: String,
    to: String,
    subject: String,
    body_md: String,
    thread: String,
    ack: bool,
}

#[derive(Default)]
struct Plan(Vec<Planned>);

impl Plan {
    fn pair(&mut self, minutes: u64, thread: &str, message: &PairMessage) {
        let ack = matches!(message.subject, "CONTRACT_FINAL" | "BUILD_COMPLETE");
        self.0.push(Planned {
            seconds: minutes * 60,
            project: 0,
            from: message.from.clone(),
            to: message.to.clone(),
            subject: message.subject.to_owned(),
            body_md: message.body_md(),
            thread: thread.to_owned(),
            ack,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn raw(
        &mut self,
        minutes: u64,
        project: usize,
        from: &str,
        to: &str,
        subject: String,
        body_md: String,
        thread: &str,
    ) {
        self.0.push(Planned {
            seconds: minutes * 60,
            project,
            from: from.to_owned(),
            to: to.to_owned(),
            subject,
            body_md,
            thread: thread.to_owned(),
            ack: false,
        });
    }

    /// An Agent-PO task's exchange in its thread (project 1): each step `(minutes ago, sent
    /// by the agent, message)`, the subject `TASK-ID MESSAGE_TYPE`.
    fn task_exchange(
        &mut self,
        task: &str,
        agent: &str,
        po: &str,
        steps: impl IntoIterator<Item = (u64, bool, Value)>,
    ) {
        for (minutes, from_agent, value) in steps {
            let kind = value["message_type"].as_str().unwrap_or("MESSAGE");
            let (from, to) = if from_agent { (agent, po) } else { (po, agent) };
            let subject = format!("{task} {kind}");
            self.raw(minutes, 1, from, to, subject, pretty(&value), task);
        }
    }

    /// A session up to CONTRACT_FINAL: PAIR_INIT, CONTRACT_DRAFT, CONTRACT_FINAL at `start`,
    /// `start - 5` and `start - 10` minutes before now; its contract.
    fn contracted(
        &mut self,
        start: u64,
        thread: &str,
        stamp: u64,
        task: &str,
        fingerprints: Option<&Fingerprints>,
    ) -> ContractArtifacts {
        let (p, b) = (t(PLANNER), t(BUILDER));
        let draft = DraftArtifacts {
            safety_reasoning: a(format!("tmp/pair_{stamp}_safety_reasoning.md")),
            spec: a(format!("tmp/pair_{stamp}_spec_draft.md")),
            tests: a(format!("tmp/pair_{stamp}_tests.py")),
        };
        let contract = ContractArtifacts {
            spec: draft.spec.finalized(),
            tests: draft.tests.clone(),
        };
        self.pair(start, thread, &pair_init(&p, &b, &t(task), Role::Planner));
        self.pair(
            start - 5,
            thread,
            &contract_draft(&p, &b, &draft, fingerprints),
        );
        self.pair(
            start - 10,
            thread,
            &contract_final(&p, &b, &contract, fingerprints),
        );
        contract
    }
}

fn pair_sessions(plan: &mut Plan) {
    let (p, b) = (t(PLANNER), t(BUILDER));
    // #1: a draft under review.
    let draft = DraftArtifacts {
        safety_reasoning: a("tmp/pair_1767101000_safety_reasoning.md".into()),
        spec: a("tmp/pair_1767101000_spec_draft.md".into()),
        tests: a("tmp/pair_1767101000_tests.py".into()),
    };
    plan.pair(
        600,
        "pair-101",
        &pair_init(&p, &b, &t("Export invoices as CSV"), Role::Planner),
    );
    plan.pair(590, "pair-101", &contract_draft(&p, &b, &draft, None));

    // #2: built, contract intact, audit passed.
    let rate_tests = "tmp/pair_1767102000_tests.py";
    let rate = prints(rate_tests, RATE_TESTS);
    plan.contracted(
        880,
        "pair-102",
        1_767_102_000,
        "Rate-limit the login endpoint",
        rate.as_ref(),
    );
    plan.pair(
        130,
        "pair-102",
        &build_complete(&b, &p, &t("ratelimit.py"), &[], rate.as_ref()),
    );
    plan.raw(
        125,
        0,
        PLANNER,
        BUILDER,
        "Audit report (pair-102)".into(),
        audit_report("pair-102"),
        "pair-102",
    );

    // #3: a change order asking for a dependency.
    plan.contracted(
        700,
        "pair-103",
        1_767_103_000,
        "Sign session cookies with JWT",
        None,
    );
    plan.pair(
        60,
        "pair-103",
        &change_order(
            &b,
            &p,
            &ChangeRequest {
                failure_mode: FailureMode::DependencyMissing,
                evidence: t("ModuleNotFoundError: No module named 'jwt' (tests/test_session.py::test_cookie_is_signed)"),
                attempted_fixes: vec![
                    t("Signed with hmac from the standard library: the contract's tests call jwt.decode"),
                    t("Vendored a minimal JWT decoder: refused by the contract's dependency rules"),
                ],
                requested_changes: t("Allow the pyjwt dependency (>= 2.8), or change the tests to verify with hmac"),
            },
        ),
    );

    // Tampered: the builder edited a contract test (its fingerprint changed) and the audit
    // caught it.
    let reset_tests = "tmp/pair_1767104000_tests.py";
    let tampered = RESET_TESTS.replace("3601) is None\n", "3601) is None or True\n");
    plan.contracted(
        820,
        "pair-104",
        1_767_104_000,
        "Add password reset by email",
        prints(reset_tests, RESET_TESTS).as_ref(),
    );
    plan.pair(
        95,
        "pair-104",
        &build_complete(
            &b,
            &p,
            &t("reset.py"),
            &[],
            prints(reset_tests, &tampered).as_ref(),
        ),
    );
    plan.raw(
        90,
        0,
        PLANNER,
        BUILDER,
        "Audit report (pair-104)".into(),
        audit_report("pair-104"),
        "pair-104",
    );

    // Merged, after an accepted change order.
    let contract = plan.contracted(
        1200,
        "pair-105",
        1_767_105_000,
        "Paginate the audit log API",
        None,
    );
    let flaky = ChangeRequest {
        failure_mode: FailureMode::TestFlakiness,
        evidence: t(
            "test_page_order fails 1 run in 20: rows with equal timestamps come back in any order",
        ),
        attempted_fixes: vec![t("Sorted by timestamp in the query")],
        requested_changes: t("Order pages by (timestamp, id) in the spec and the test"),
    };
    plan.pair(1100, "pair-105", &change_order(&b, &p, &flaky));
    let revised = ContractArtifacts {
        spec: contract.spec.next_version(),
        tests: contract.tests.next_version(),
    };
    plan.pair(
        1090,
        "pair-105",
        &change_order_accepted(
            &p,
            &b,
            &revised,
            &t("The order was underspecified; ties break by id."),
            None,
        ),
    );
    plan.pair(
        1000,
        "pair-105",
        &build_complete(
            &b,
            &p,
            &t("api/audit_log.py"),
            &[t("api/pagination.py")],
            None,
        ),
    );
    plan.pair(
        990,
        "pair-105",
        &session_complete(
            &p,
            &b,
            &t("Implementation approved at human review and merged."),
        ),
    );

    // Aborted at change-order review.
    plan.contracted(
        1150,
        "pair-106",
        1_767_106_000,
        "Cache the pricing table",
        None,
    );
    let impossible = ChangeRequest {
        failure_mode: FailureMode::LogicImpossible,
        evidence: t("test_prices_are_live requires no cache and test_cache_hits requires one"),
        attempted_fixes: Vec::new(),
        requested_changes: t("Drop one of the two tests"),
    };
    plan.pair(1050, "pair-106", &change_order(&b, &p, &impossible));
    plan.pair(
        1040,
        "pair-106",
        &session_abort(
            &p,
            &b,
            Phase::BuildBlocked,
            &t("The pricing team withdrew the task"),
        ),
    );

    // Building: the builder's 30 minutes run.
    plan.contracted(
        20,
        "pair-107",
        1_767_107_000,
        "Add a health check endpoint",
        None,
    );

    hostile_session(plan);
}

fn hostile_session(plan: &mut Plan) {
    let (p, b) = (t(PLANNER), t(BUILDER));
    let thread = "pair-108";
    let draft = DraftArtifacts {
        safety_reasoning: a("tmp/pair_1767108000_\"><svg onload=window.__pwned=1>.md".into()),
        spec: a("tmp/pair_1767108000_<img src=x onerror=window.__pwned=1>.md".into()),
        tests: a(HOSTILE_TESTS.into()),
    };
    let contract = ContractArtifacts {
        spec: draft.spec.clone(),
        tests: draft.tests.clone(),
    };
    let task = t("Render <b>user</b> names <script>window.__pwned=1</script>");
    plan.pair(500, thread, &pair_init(&p, &b, &task, Role::Planner));
    plan.pair(495, thread, &contract_draft(&p, &b, &draft, None));
    plan.pair(490, thread, &contract_final(&p, &b, &contract, None));
    plan.pair(
        300,
        thread,
        &build_complete(
            &b,
            &p,
            &t("src/<iframe src=javascript:window.__pwned=1>.py"),
            &[],
            None,
        ),
    );
    plan.raw(
        295,
        0,
        PLANNER,
        BUILDER,
        format!("Audit report ({thread})"),
        audit_report(thread),
        thread,
    );
    plan.pair(
        290,
        thread,
        &build_rejected(
            &p,
            &b,
            &t("<b>Errors are swallowed</b>: handle them <img src=x onerror=window.__pwned=1>"),
        ),
    );
    plan.pair(
        45,
        thread,
        &change_order(
            &b,
            &p,
            &ChangeRequest {
                failure_mode: FailureMode::LogicImpossible,
                evidence: t("<img src=x onerror=window.__pwned=1> TypeError in <script>window.__pwned=1</script>"),
                attempted_fixes: vec![
                    t("<script>window.__pwned=1</script>"),
                    t("[retry](javascript:window.__pwned=1)"),
                ],
                requested_changes: t("Allow <iframe src=\"javascript:window.__pwned=1\"> in names"),
            },
        ),
    );
}

fn pair_claude(plan: &mut Plan) {
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

fn agent_po(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
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

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn droid(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
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

/// Adds the scenarios, in time order, dated before the demo's now.
pub fn add(gen: &mut Gen) {
    let mut plan = Plan::default();
    pair_sessions(&mut plan);
    pair_claude(&mut plan);
    let clock = |minutes: u64| {
        Timestamp(super::world::DEMO_NOW_MS - i64::try_from(minutes).unwrap_or(0) * 60_000)
    };
    agent_po(&mut plan, &clock);
    droid(&mut plan, &clock);
    plan.0.sort_by_key(|p| std::cmp::Reverse(p.seconds));
    for p in plan.0 {
        gen.at(p.seconds);
        gen.store(
            p.project,
            &p.from,
            &[&p.to],
            p.subject,
            p.body_md,
            if p.ack { "high" } else { "normal" },
            p.ack,
            Some(p.thread),
        );
    }
}

/// The demo planner's answer to a message just sent: a REVISE at checkpoint #1
/// (CONTRACT_REVISION_REQUESTED, sent to the planner) gets a new CONTRACT_DRAFT to the
/// builder, with the next version of the draft's spec and tests. `messages` are the
/// project's messages before it.
#[must_use]
pub fn planner_answer(messages: &[DemoMessage], sent: &DemoMessage) -> Option<PairMessage> {
    let carried = |m: &DemoMessage| {
        let row = json!({"subject": m.subject, "body_md": m.body_md});
        protocol::validate_carried(&row, &Options::default()).1
    };
    let asked = carried(sent)?;
    if asked.get("subject").and_then(Value::as_str) != Some("CONTRACT_REVISION_REQUESTED") {
        return None;
    }
    let draft = messages.iter().rev().find_map(|m| {
        let same = m.project == sent.project && m.thread_id == sent.thread_id;
        let value = carried(m).filter(|_| same)?;
        (value.get("subject").and_then(Value::as_str) == Some("CONTRACT_DRAFT"))
            .then_some((m, value))
    })?;
    let (message, value) = draft;
    let artifact =
        |key: &str| ArtifactPath::new(value.pointer(&format!("/body/artifacts/{key}"))?.as_str()?);
    let revised = DraftArtifacts {
        safety_reasoning: artifact("safety_reasoning")?,
        spec: artifact("spec")?.next_version(),
        tests: artifact("tests")?.next_version(),
    };
    let from = Text::new(&message.from)?;
    let to = Text::new(message.to.first()?)?;
    Some(contract_draft(&from, &to, &revised, None))
}
