//! The built-in demo backend: several projects and agents with hundreds of messages in
//! every protocol family (Pair Protocol 3.1, Agent-PO 20.0, droid message formats 1.0.0,
//! Pair Claude tool calls), carried in Agent Mail `body_md` like real traffic — some
//! deliberately invalid. Generated deterministically in code (a fixed-seed LCG), kept in
//! memory; actions change the in-memory state only.

use super::{
    Agent, Backend, BackendError, BackendFuture, Capabilities, Draft, Message, Project,
    Reservation, SearchHit, UnifiedRow, Variant,
};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// A fixed-seed linear congruential generator: the same data on every load.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap_or(0)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

#[derive(Clone)]
struct DemoMessage {
    id: u64,
    project: usize,
    from: String,
    to: Vec<String>,
    subject: String,
    body_md: String,
    created_ts: String,
    importance: &'static str,
    ack_required: bool,
    thread_id: Option<String>,
}

struct DemoContact {
    project: usize,
    owner: String,
    peer: String,
    status: &'static str,
    reason: String,
}

struct DemoProject {
    project: Project,
    agents: Vec<Agent>,
}

struct State {
    projects: Vec<DemoProject>,
    messages: Vec<DemoMessage>,
    acked: BTreeSet<(String, u64)>,
    read: BTreeSet<(String, u64)>,
    contacts: Vec<DemoContact>,
    reservations: Vec<(usize, Reservation)>,
    clock: u64,
}

/// The demo backend (see the module docs).
pub struct DemoBackend {
    state: RefCell<State>,
}

impl Default for DemoBackend {
    fn default() -> Self {
        Self::new()
    }
}

/// `2026-11-20T08:00:00.000000+00:00` plus `seconds`.
fn timestamp(seconds: u64) -> String {
    let day = 10 + seconds / 86_400;
    let rest = seconds % 86_400;
    format!(
        "2026-11-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        (seconds * 7919) % 1_000_000
    )
}

fn agent(name: &str, program: &str, model: &str, task: &str) -> Agent {
    Agent {
        name: name.to_string(),
        program: program.to_string(),
        model: model.to_string(),
        task: task.to_string(),
        unread: None,
    }
}

/// A protocol message as Agent Mail carries it: a short note and a fenced JSON block, or
/// (droid formats) the raw JSON as the whole body.
fn fenced(note: &str, value: &Value) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    format!("{note}\n\n```json\n{pretty}\n```\n")
}

/// Breaks a valid message on purpose, in one of several realistic ways.
fn corrupt(rng: &mut Lcg, mut value: Value) -> Value {
    let Some(map) = value.as_object_mut() else {
        return value;
    };
    match rng.below(4) {
        0 => {
            let key = map.keys().nth(1).cloned();
            if let Some(key) = key {
                map.remove(&key);
            }
        }
        1 => {
            map.insert("timestamp".to_string(), json!("yesterday at noon"));
        }
        2 => {
            if let Some(body) = map.get_mut("body").and_then(Value::as_object_mut) {
                body.insert("status".to_string(), json!(42));
            } else {
                map.insert("progress_percent".to_string(), json!(140));
            }
        }
        _ => {
            map.insert("version".to_string(), json!("9.0.0"));
        }
    }
    value
}

struct Gen {
    rng: Lcg,
    clock: u64,
    messages: Vec<DemoMessage>,
}

impl Gen {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        project: usize,
        from: &str,
        to: &[&str],
        subject: String,
        body_md: String,
        importance: &'static str,
        ack_required: bool,
        thread_id: Option<String>,
    ) -> u64 {
        self.clock += 37 + self.rng.next() % 400;
        let id = self.messages.len() as u64 + 1;
        self.messages.push(DemoMessage {
            id,
            project,
            from: from.to_string(),
            to: to.iter().map(|s| (*s).to_string()).collect(),
            subject,
            body_md,
            created_ts: timestamp(self.clock),
            importance,
            ack_required,
            thread_id,
        });
        id
    }

    fn ts(&self) -> String {
        format!("{}Z", &timestamp(self.clock)[..19])
    }

    fn pair_session(&mut self, project: usize, n: usize, planner: &str, builder: &str) {
        let tasks = [
            "Add user authentication with JWT tokens",
            "Rate-limit the public search endpoint",
            "Migrate session storage to SQLite",
            "Add CSV export to the reports page",
        ];
        let task = *self.rng.pick(&tasks);
        let thread = format!("pair-{n:03}");
        let stamp = 1_767_000_000 + n * 1000;
        let steps: Vec<(&str, &str, &str, Value, bool)> = vec![
            (
                planner,
                builder,
                "PAIR_INIT",
                json!({"protocol_version": "3.1", "task": task, "my_role": "PLANNER",
                       "your_role": "BUILDER", "status": "INITIALIZED"}),
                false,
            ),
            (
                planner,
                builder,
                "CONTRACT_DRAFT",
                json!({"phase": "CONTRACT_GENERATION", "artifacts": {
                    "safety_reasoning": format!("tmp/pair_{stamp}_safety_reasoning.md"),
                    "spec": format!("tmp/pair_{stamp}_spec_draft.md"),
                    "tests": format!("tmp/pair_{stamp}_tests.py")},
                    "status": "AWAITING_HUMAN_REVIEW"}),
                false,
            ),
            (
                planner,
                builder,
                "CONTRACT_FINAL",
                json!({"phase": "CONTRACT_FINALIZED", "artifacts": {
                    "spec": format!("tmp/pair_{stamp}_spec_final.md"),
                    "tests": format!("tmp/pair_{stamp}_tests.py")},
                    "contract_immutable": true, "status": "READY_FOR_BUILD"}),
                true,
            ),
            (
                builder,
                planner,
                "BUILD_COMPLETE",
                json!({"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS",
                       "implementation_files": ["$PROJECT_ROOT/auth/jwt_handler.py",
                                                "$PROJECT_ROOT/auth/middleware.py"],
                       "status": "READY_FOR_REVIEW"}),
                true,
            ),
        ];
        for (from, to, kind, body, ack) in steps {
            let mut value = json!({"to": to, "subject": kind, "body": body});
            if self.rng.chance(8) {
                value = corrupt(&mut self.rng, value);
            }
            let note = format!("Pair session **{thread}** — `{kind}` for: {task}.");
            let importance = if ack { "high" } else { "normal" };
            self.push(
                project,
                from,
                &[to],
                format!("[{thread}] {kind}"),
                fenced(&note, &value),
                importance,
                ack,
                Some(thread.clone()),
            );
        }
    }

    fn pair_claude(&mut self, project: usize, n: usize, navigator: &str, driver: &str) {
        let thread = format!("review-{n:03}");
        let calls = [
            (
                driver,
                navigator,
                "mcp__driver__driverRequestReview",
                json!({"context": "Implemented the retry loop in src/net/client.rs"}),
            ),
            (
                navigator,
                driver,
                "mcp__navigator__navigatorCodeReview",
                json!({"comment": "Backoff must cap at 30 s; add a test.", "pass": false}),
            ),
            (
                driver,
                navigator,
                "mcp__driver__driverRequestGuidance",
                json!({"context": "Should the cap be configurable?"}),
            ),
            (
                navigator,
                driver,
                "mcp__navigator__navigatorApprove",
                json!({"requestId": format!("perm-{n}-1"), "comment": "Configurable via env, default 30 s."}),
            ),
        ];
        for (i, (from, to, tool, arguments)) in calls.into_iter().enumerate() {
            // The tool call as the orchestrator relays it: `{name, arguments}`.
            let mut value = json!({"name": tool, "arguments": arguments});
            if self.rng.chance(8) {
                if let Some(call) = value.as_object_mut() {
                    call.remove("arguments");
                }
            }
            let note = format!("Tool call relayed from the pair session ({tool}).");
            self.push(
                project,
                from,
                &[to],
                format!("[{thread}] {tool}"),
                fenced(&note, &value),
                "normal",
                i == 1,
                Some(thread.clone()),
            );
        }
    }

    fn agent_po_task(&mut self, project: usize, n: usize, po: &str, agent_name: &str) {
        let task = format!("TASK-{:03}", 100 + n);
        let agent_id = format!("agent-{}", agent_name.to_lowercase());
        let ts = self.ts();
        let steps: Vec<(bool, Value, bool)> = vec![
            (
                true,
                json!({"message_type": "PLAN_SUBMISSION", "agent_id": agent_id, "task_id": task,
                       "timestamp": ts, "plan": {"approach": "Add the form, then wire the service",
                       "ac_mapping": [{"ac_id": "AC-001", "implementation": "Add login form component",
                                       "file": "src/pages/LoginPage.tsx", "line_estimate": "~50"}],
                       "files_to_modify": [{"path": "src/pages/LoginPage.tsx",
                                            "changes": "Add form, validation, submit handler"}]},
                       "questions": [], "revision": 1}),
                false,
            ),
            (
                false,
                json!({"message_type": "GO_DIRECTIVE", "task_id": task, "agent_id": agent_id,
                       "timestamp": ts, "status": "GO",
                       "authorization": {"authorized_files": ["src/pages/LoginPage.tsx"],
                                         "timeout_minutes": 30},
                       "message": "GO. Plan validated. Begin implementation."}),
                true,
            ),
            (
                true,
                json!({"message_type": "PROGRESS_UPDATE", "agent_id": agent_id, "task_id": task,
                       "timestamp": ts, "status": "implementing", "progress_percent": 50,
                       "current_activity": "Writing login form component",
                       "files_modified": ["src/pages/LoginPage.tsx"], "issues": [], "eta_minutes": 15}),
                false,
            ),
            (
                true,
                json!({"message_type": "COMPLETION_REPORT", "agent_id": agent_id, "task_id": task,
                       "timestamp": ts,
                       "summary": {"started_at": ts, "completed_at": ts, "duration_minutes": 42},
                       "ac_verification": [{"ac_id": "AC-001", "status": "PASS", "evidence": "tests pass"}],
                       "test_results": {"passed": 12, "failed": 0, "skipped": 1},
                       "files_changed": [{"path": "src/pages/LoginPage.tsx", "action": "modified",
                                          "lines_added": 48, "lines_removed": 3}]}),
                true,
            ),
        ];
        for (from_agent, mut value, ack) in steps {
            if self.rng.chance(10) {
                value = corrupt(&mut self.rng, value);
            }
            let kind = value
                .get("message_type")
                .and_then(Value::as_str)
                .unwrap_or("MESSAGE")
                .to_string();
            let (from, to) = if from_agent {
                (agent_name, po)
            } else {
                (po, agent_name)
            };
            let note = format!("Agent-PO `{kind}` for **{task}**.");
            self.push(
                project,
                from,
                &[to],
                format!("{task} {kind}"),
                fenced(&note, &value),
                if ack { "high" } else { "normal" },
                ack,
                Some(task.clone()),
            );
        }
    }

    fn droid_task(&mut self, project: usize, n: usize, orchestrator: &str, specialist: &str) {
        let task = format!("bd-{}", 40 + n);
        let ts = self.ts();
        let uuid = |k: usize| format!("123e4567-e89b-42d3-a456-{:012}", n * 10 + k);
        let steps = [
            (
                orchestrator,
                specialist,
                json!({"version": "1.0.0", "timestamp": ts,
                "sender_id": orchestrator.to_lowercase(), "message_id": uuid(1), "type": "task_assignment",
                "task_id": task, "description": "Implement user authentication UI with login form",
                "specification": {"acceptance_criteria": ["Login form displays correctly",
                                                          "Password validation (min 8 chars)"],
                                  "technical_requirements": ["Use React Hook Form"]},
                "file_patterns": ["src/frontend/auth/**/*.tsx"], "priority": "high", "priority_value": 1}),
                true,
            ),
            (
                specialist,
                orchestrator,
                json!({"version": "1.0.0", "timestamp": ts,
                "sender_id": specialist.to_lowercase(), "message_id": uuid(2), "type": "status_update",
                "task_id": task, "update_type": "progress",
                "status_summary": "Login form done, wiring OAuth next", "progress": {"percentage": 60},
                "blockers": []}),
                false,
            ),
            (
                specialist,
                orchestrator,
                json!({"version": "1.0.0", "timestamp": ts,
                "sender_id": specialist.to_lowercase(), "message_id": uuid(3), "type": "task_completion",
                "task_id": task, "status": "complete",
                "completion_summary": "Implemented authentication UI with all acceptance criteria met",
                "files_modified": ["src/frontend/auth/LoginForm.tsx"], "errors_encountered": [],
                "test_results": {"unit_tests": {"total": 15, "passed": 15, "failed": 0, "coverage": 92},
                                 "integration_tests": {"total": 8, "passed": 8, "failed": 0}},
                "blockers": []}),
                true,
            ),
        ];
        for (from, to, mut value, ack) in steps {
            if self.rng.chance(10) {
                value = corrupt(&mut self.rng, value);
            }
            let kind = value
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("message")
                .to_string();
            // Droid messages travel as raw JSON in body_md (the droid client's mapping).
            let body = if self.rng.chance(5) {
                let text = value.to_string();
                text.chars().take(text.chars().count() / 2).collect()
            } else {
                serde_json::to_string_pretty(&value).unwrap_or_default()
            };
            self.push(
                project,
                from,
                &[to],
                format!("{kind} {task}"),
                body,
                if ack { "high" } else { "normal" },
                ack,
                Some(task.clone()),
            );
        }
    }

    fn chatter(&mut self, project: usize, names: &[&str], count: usize) {
        let notes = [
            "Heads-up: CI is **red** on `main` since the last merge; looking into it.",
            "Pushed the fix. See [the build log](https://ci.example.com/builds/1234) and\n\n- retry count\n- timeout\n",
            "Can someone review `src/net/client.rs`? Nothing urgent.",
            "Reminder: stand-up notes go in `docs/standup.md`.\n\n> Please keep them short.",
        ];
        for i in 0..count {
            let from = *self.rng.pick(names);
            let mut to = *self.rng.pick(names);
            if to == from {
                to = names[(names.iter().position(|n| *n == from).unwrap_or(0) + 1) % names.len()];
            }
            let note = *self.rng.pick(&notes);
            let ack = self.rng.chance(20);
            let thread = self.rng.chance(50).then(|| format!("chat-{}", i % 7));
            self.push(
                project,
                from,
                &[to],
                format!("Note {}: {}", i + 1, note.split('.').next().unwrap_or(note)),
                note.to_string(),
                if ack { "high" } else { "normal" },
                ack,
                thread,
            );
        }
    }
}

/// Message bodies that try to run script; shown to prove the renderer is safe.
const HOSTILE_BODY: &str = "Please review this output:\n\n<script>window.__pwned = 1</script>\n\n\
<img src=x onerror=\"window.__pwned = 1\">\n\n[click me](javascript:window.__pwned=1)\n\n\
<a href=\"javascript:window.__pwned=1\">raw link</a>";

/// The project whose agents have synthetic inboxes of 1k, 10k and 100k messages (rows are
/// generated when an inbox is opened, not stored).
pub const SCALE_PROJECT: &str = "scale";
/// The scale agents and their inbox sizes.
pub const SCALE_AGENTS: [(&str, u64); 3] = [
    ("Load1k", 1_000),
    ("Load10k", 10_000),
    ("Load100k", 100_000),
];
/// Ids of synthetic messages start here.
const SCALE_BASE: u64 = 1_000_000;

fn scale_size(agent: &str) -> Option<u64> {
    SCALE_AGENTS
        .iter()
        .find(|(name, _)| *name == agent)
        .map(|(_, n)| *n)
}

/// Synthetic message `i` of a scale inbox.
fn scale_message(agent: &str, i: u64) -> DemoMessage {
    DemoMessage {
        id: SCALE_BASE + i,
        project: usize::MAX,
        from: format!("Sender{}", i % 17),
        to: vec![agent.to_string()],
        subject: format!("Load message {i}"),
        body_md: format!("Synthetic message **{i}** of {agent}'s inbox."),
        created_ts: timestamp(i * 3),
        importance: if i.is_multiple_of(25) {
            "high"
        } else {
            "normal"
        },
        ack_required: i.is_multiple_of(10),
        thread_id: Some(format!("load-{}", i / 50)),
    }
}

/// The rows of a scale inbox, written straight into a string (no JSON tree).
fn scale_rows(agent: &str, n: u64) -> String {
    let mut out = String::with_capacity(n as usize * 190 + 16);
    out.push_str("{\"result\":[");
    for i in 0..n {
        let m = scale_message(agent, i);
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "{{\"id\":{},\"subject\":\"{}\",\"from\":\"{}\",\"created_ts\":\"{}\",\"importance\":\"{}\",\"ack_required\":{},\"thread_id\":\"{}\"}}",
            m.id,
            m.subject,
            m.from,
            m.created_ts,
            m.importance,
            m.ack_required,
            m.thread_id.unwrap_or_default()
        ));
    }
    out.push_str("]}");
    out
}

fn build_state() -> State {
    let projects = vec![
        DemoProject {
            project: Project {
                slug: "pair-lab".into(),
                human_key: "/srv/work/pair-lab".into(),
            },
            agents: vec![
                agent("BlueLake", "claude-code", "opus", "planner (Pair Protocol)"),
                agent(
                    "GreenCastle",
                    "codex-cli",
                    "gpt-5",
                    "builder (Pair Protocol)",
                ),
                agent(
                    "NavyFalcon",
                    "pair",
                    "claude-opus-4-1",
                    "navigator (Pair Claude)",
                ),
                agent(
                    "AmberFox",
                    "pair",
                    "claude-sonnet-4",
                    "driver (Pair Claude)",
                ),
            ],
        },
        DemoProject {
            project: Project {
                slug: "po-factory".into(),
                human_key: "/srv/work/po-factory".into(),
            },
            agents: vec![
                agent(
                    "GoldenOwl",
                    "claude-code",
                    "opus",
                    "product owner (Agent-PO)",
                ),
                agent("SilverPine", "claude-code", "sonnet", "task agent"),
                agent("CopperBay", "codex-cli", "gpt-5", "task agent"),
            ],
        },
        DemoProject {
            project: Project {
                slug: "droid-fleet".into(),
                human_key: "/srv/work/droid-fleet".into(),
            },
            agents: vec![
                agent("CrimsonPeak", "opencode", "droid", "orchestrator"),
                agent("TealHarbor", "opencode", "droid", "frontend specialist"),
                agent("OliveMarsh", "opencode", "droid", "database specialist"),
            ],
        },
        DemoProject {
            project: Project {
                slug: SCALE_PROJECT.into(),
                human_key: "/srv/work/scale".into(),
            },
            agents: SCALE_AGENTS
                .iter()
                .map(|(name, n)| agent(name, "synthetic", "-", &format!("inbox of {n} messages")))
                .collect(),
        },
    ];
    let mut gen = Gen {
        rng: Lcg(0x5eed_2026),
        clock: 0,
        messages: Vec::new(),
    };
    for n in 0..24 {
        gen.pair_session(0, n, "BlueLake", "GreenCastle");
        gen.pair_claude(0, n, "NavyFalcon", "AmberFox");
        gen.agent_po_task(
            1,
            n,
            "GoldenOwl",
            if n % 2 == 0 {
                "SilverPine"
            } else {
                "CopperBay"
            },
        );
        gen.droid_task(
            2,
            n,
            "CrimsonPeak",
            if n % 2 == 0 {
                "TealHarbor"
            } else {
                "OliveMarsh"
            },
        );
    }
    gen.chatter(
        0,
        &["BlueLake", "GreenCastle", "NavyFalcon", "AmberFox"],
        40,
    );
    gen.chatter(1, &["GoldenOwl", "SilverPine", "CopperBay"], 30);
    gen.chatter(2, &["CrimsonPeak", "TealHarbor", "OliveMarsh"], 30);
    gen.push(
        0,
        "AmberFox",
        &["BlueLake"],
        "Suspicious tool output".into(),
        HOSTILE_BODY.into(),
        "urgent",
        true,
        Some("security-1".into()),
    );
    let mut acked = BTreeSet::new();
    let mut rng = Lcg(7);
    let handled = gen.messages.len() as u64 * 3 / 4;
    for message in &gen.messages {
        // Older acknowledgement requests are mostly handled already.
        if message.ack_required && message.id < handled && rng.chance(60) {
            for to in &message.to {
                acked.insert((to.clone(), message.id));
            }
        }
    }
    let contacts = vec![
        contact(0, "BlueLake", "GreenCastle", "approved", "pair sessions"),
        contact(0, "BlueLake", "NavyFalcon", "approved", "reviews"),
        contact(0, "BlueLake", "AmberFox", "pending", "tool output relay"),
        contact(0, "GreenCastle", "BlueLake", "approved", "pair sessions"),
        contact(0, "NavyFalcon", "AmberFox", "approved", "pairing"),
        contact(0, "AmberFox", "NavyFalcon", "approved", "pairing"),
        contact(0, "AmberFox", "BlueLake", "blocked", "spam reports"),
        contact(1, "GoldenOwl", "SilverPine", "approved", "task assignment"),
        contact(1, "GoldenOwl", "CopperBay", "pending", "task assignment"),
        contact(
            1,
            "SilverPine",
            "GoldenOwl",
            "approved",
            "plans and reports",
        ),
        contact(1, "CopperBay", "GoldenOwl", "approved", "plans and reports"),
        contact(2, "CrimsonPeak", "TealHarbor", "approved", "delegation"),
        contact(2, "CrimsonPeak", "OliveMarsh", "expired", "delegation"),
        contact(2, "TealHarbor", "CrimsonPeak", "approved", "reports"),
        contact(2, "OliveMarsh", "CrimsonPeak", "approved", "reports"),
    ];
    let reservations = vec![
        (
            0,
            reservation(1, "GreenCastle", "auth/*.py", true, "pair-003 build", false),
        ),
        (
            0,
            reservation(
                2,
                "AmberFox",
                "auth/jwt_handler.py",
                true,
                "review-004 fix",
                false,
            ),
        ),
        (
            0,
            reservation(3, "BlueLake", "docs/**", false, "contract drafts", false),
        ),
        (
            0,
            reservation(4, "NavyFalcon", "src/net/client.rs", true, "review", true),
        ),
        (
            1,
            reservation(
                5,
                "SilverPine",
                "src/pages/LoginPage.tsx",
                true,
                "TASK-100",
                false,
            ),
        ),
        (
            1,
            reservation(6, "CopperBay", "src/pages/*.tsx", true, "TASK-101", false),
        ),
        (
            1,
            reservation(7, "GoldenOwl", ".factory/**", false, "gate records", false),
        ),
        (
            2,
            reservation(
                8,
                "TealHarbor",
                "src/frontend/auth/**",
                true,
                "bd-42",
                false,
            ),
        ),
        (
            2,
            reservation(9, "OliveMarsh", "migrations/*.sql", true, "bd-47", false),
        ),
    ];
    State {
        projects,
        clock: gen.clock,
        messages: gen.messages,
        acked,
        read: BTreeSet::new(),
        contacts,
        reservations,
    }
}

fn contact(
    project: usize,
    owner: &str,
    peer: &str,
    status: &'static str,
    reason: &str,
) -> DemoContact {
    DemoContact {
        project,
        owner: owner.into(),
        peer: peer.into(),
        status,
        reason: reason.into(),
    }
}

fn reservation(
    id: u64,
    agent: &str,
    path: &str,
    exclusive: bool,
    reason: &str,
    released: bool,
) -> Reservation {
    Reservation {
        id,
        agent: agent.into(),
        path_pattern: path.into(),
        exclusive,
        reason: reason.into(),
        expires_ts: "2026-11-30T12:00:00+00:00".into(),
        released,
    }
}

fn row(message: &DemoMessage, outbox: bool) -> Value {
    let mut value = json!({
        "id": message.id,
        "subject": message.subject,
        "from": message.from,
        "created_ts": message.created_ts,
        "importance": message.importance,
        "ack_required": message.ack_required,
        "thread_id": message.thread_id,
    });
    if outbox {
        value["delivery_status"] = json!("sent");
    }
    value
}

fn ready<'a, T: 'a>(value: Result<T, BackendError>) -> BackendFuture<'a, T> {
    Box::pin(std::future::ready(value))
}

impl DemoBackend {
    /// Generates the demo data (deterministic).
    #[must_use]
    pub fn new() -> Self {
        Self {
            state: RefCell::new(build_state()),
        }
    }

    fn project_index(state: &State, slug: &str) -> Result<usize, BackendError> {
        state
            .projects
            .iter()
            .position(|p| p.project.slug == slug)
            .ok_or_else(|| BackendError::NotFound(format!("project {slug}")))
    }

    fn check_agent(state: &State, project: usize, agent: &str) -> Result<(), BackendError> {
        if state.projects[project]
            .agents
            .iter()
            .any(|a| a.name == agent)
        {
            Ok(())
        } else {
            Err(BackendError::NotFound(format!("agent {agent}")))
        }
    }

    fn rows(&self, slug: &str, agent: &str, outbox: bool) -> Result<String, BackendError> {
        let state = self.state.borrow();
        let project = Self::project_index(&state, slug)?;
        Self::check_agent(&state, project, agent)?;
        if slug == SCALE_PROJECT {
            return Ok(match scale_size(agent) {
                Some(n) if !outbox => scale_rows(agent, n),
                _ => "[]".to_string(),
            });
        }
        let rows: Vec<Value> = state
            .messages
            .iter()
            .filter(|m| m.project == project)
            .filter(|m| {
                if outbox {
                    m.from == agent
                } else {
                    m.to.iter().any(|to| to == agent)
                }
            })
            .map(|m| row(m, outbox))
            .collect();
        Ok(json!({ "result": rows }).to_string())
    }

    fn add_message(&self, project: usize, draft: Draft) -> u64 {
        let mut state = self.state.borrow_mut();
        state.clock += 60;
        let id = state.messages.len() as u64 + 1;
        let created_ts = timestamp(state.clock);
        state.messages.push(DemoMessage {
            id,
            project,
            from: draft.sender.unwrap_or_else(|| "HumanOverseer".to_string()),
            to: draft.to,
            subject: draft.subject,
            body_md: draft.body_md,
            created_ts,
            importance: match draft.importance.as_str() {
                "high" => "high",
                "urgent" => "urgent",
                "low" => "low",
                _ => "normal",
            },
            ack_required: draft.ack_required,
            thread_id: draft.thread_id,
        });
        id
    }
}

impl Backend for DemoBackend {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            variant: Variant::Demo,
            endpoint: String::new(),
            tool_count: 0,
            resource_templates: 0,
            agent_tokens: false,
            operator: true,
            overseer_send: true,
        }
    }

    fn projects(&self) -> BackendFuture<'_, Vec<Project>> {
        let state = self.state.borrow();
        ready(Ok(state
            .projects
            .iter()
            .map(|p| p.project.clone())
            .collect()))
    }

    fn agents(&self, project: &str) -> BackendFuture<'_, Vec<Agent>> {
        let state = self.state.borrow();
        ready(Self::project_index(&state, project).map(|index| {
            state.projects[index]
                .agents
                .iter()
                .map(|a| {
                    let unread = state
                        .messages
                        .iter()
                        .filter(|m| m.project == index && m.to.contains(&a.name))
                        .filter(|m| {
                            let key = (a.name.clone(), m.id);
                            !state.read.contains(&key) && !state.acked.contains(&key)
                        })
                        .count() as u64;
                    Agent {
                        unread: Some(unread),
                        ..a.clone()
                    }
                })
                .collect()
        }))
    }

    fn inbox(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        ready(self.rows(project, agent, false))
    }

    fn outbox(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        ready(self.rows(project, agent, true))
    }

    fn contacts(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        let state = self.state.borrow();
        ready(Self::project_index(&state, project).map(|index| {
            let rows: Vec<Value> = state
                .contacts
                .iter()
                .filter(|c| c.project == index && c.owner == agent)
                .map(|c| {
                    json!({"to": c.peer, "status": c.status, "reason": c.reason,
                           "updated_ts": "2026-11-10T09:00:00.000000+00:00",
                           "expires_ts": "2026-12-10T09:00:00.000000+00:00"})
                })
                .collect();
            json!({ "result": rows }).to_string()
        }))
    }

    fn acked(&self, _project: &str, agent: &str, _inbox: &str) -> BackendFuture<'_, Vec<u64>> {
        let state = self.state.borrow();
        ready(Ok(state
            .acked
            .iter()
            .filter(|(who, _)| who == agent)
            .map(|(_, id)| *id)
            .collect()))
    }

    fn message(&self, project: &str, agent: Option<&str>, id: u64) -> BackendFuture<'_, Message> {
        let state = self.state.borrow();
        let scale = (project == SCALE_PROJECT && id >= SCALE_BASE)
            .then(|| agent.and_then(|a| scale_size(a).map(|n| (a, n))))
            .flatten()
            .filter(|(_, n)| id - SCALE_BASE < *n)
            .map(|(a, _)| scale_message(a, id - SCALE_BASE));
        let result = Self::project_index(&state, project).and_then(|index| {
            state
                .messages
                .iter()
                .find(|m| m.id == id && m.project == index)
                .or(scale.as_ref())
                .map(|m| Message {
                    id: m.id,
                    subject: m.subject.clone(),
                    from: m.from.clone(),
                    to: m.to.clone(),
                    created_ts: m.created_ts.clone(),
                    importance: m.importance.to_string(),
                    ack_required: m.ack_required,
                    thread_id: m.thread_id.clone(),
                    body_md: m.body_md.clone(),
                })
                .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
        });
        ready(result)
    }

    fn acknowledge(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let mut state = self.state.borrow_mut();
        let result = Self::project_index(&state, project).and_then(|index| {
            let synthetic = project == SCALE_PROJECT
                && scale_size(agent).is_some_and(|n| id >= SCALE_BASE && id - SCALE_BASE < n);
            let known = synthetic
                || state
                    .messages
                    .iter()
                    .any(|m| m.id == id && m.project == index && m.to.iter().any(|t| t == agent));
            if known {
                state.acked.insert((agent.to_string(), id));
                state.read.insert((agent.to_string(), id));
                Ok(())
            } else {
                Err(BackendError::NotFound(format!(
                    "message {id} in {agent}'s inbox"
                )))
            }
        });
        ready(result)
    }

    fn mark_read(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let mut state = self.state.borrow_mut();
        let result = Self::project_index(&state, project).map(|_| {
            state.read.insert((agent.to_string(), id));
        });
        ready(result)
    }

    fn reply(&self, project: &str, agent: &str, id: u64, body_md: &str) -> BackendFuture<'_, u64> {
        if body_md.trim().is_empty() {
            return ready(Err(BackendError::Invalid("The reply is empty.".into())));
        }
        let original = {
            let state = self.state.borrow();
            Self::project_index(&state, project).and_then(|index| {
                state
                    .messages
                    .iter()
                    .find(|m| m.id == id && m.project == index)
                    .cloned()
                    .map(|m| (index, m))
                    .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
            })
        };
        ready(original.map(|(index, m)| {
            let subject = if m.subject.starts_with("Re:") {
                m.subject.clone()
            } else {
                format!("Re: {}", m.subject)
            };
            self.add_message(
                index,
                Draft {
                    sender: Some(agent.to_string()),
                    to: vec![m.from.clone()],
                    subject,
                    body_md: body_md.to_string(),
                    thread_id: Some(m.thread_id.clone().unwrap_or_else(|| m.id.to_string())),
                    ack_required: m.ack_required,
                    importance: m.importance.to_string(),
                },
            )
        }))
    }

    fn send(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        let index = {
            let state = self.state.borrow();
            Self::project_index(&state, project)
        };
        let result = index.and_then(|index| {
            if draft.to.is_empty() || draft.subject.trim().is_empty() {
                Err(BackendError::Invalid(
                    "A message needs at least one recipient and a subject.".into(),
                ))
            } else {
                Ok(self.add_message(index, draft))
            }
        });
        ready(result)
    }

    fn search(&self, project: &str, query: &str) -> BackendFuture<'_, Vec<SearchHit>> {
        let state = self.state.borrow();
        let needle = query.trim().to_lowercase();
        let result = Self::project_index(&state, project).map(|index| {
            if needle.is_empty() {
                return Vec::new();
            }
            state
                .messages
                .iter()
                .rev()
                .filter(|m| m.project == index)
                .filter(|m| {
                    m.subject.to_lowercase().contains(&needle)
                        || m.body_md.to_lowercase().contains(&needle)
                })
                .take(100)
                .map(|m| SearchHit {
                    id: m.id,
                    subject: m.subject.clone(),
                    from: m.from.clone(),
                    created_ts: m.created_ts.clone(),
                    thread_id: m.thread_id.clone(),
                })
                .collect()
        });
        ready(result)
    }

    fn reservations(&self, project: &str) -> BackendFuture<'_, Vec<Reservation>> {
        let state = self.state.borrow();
        ready(Self::project_index(&state, project).map(|index| {
            state
                .reservations
                .iter()
                .filter(|(p, _)| *p == index)
                .map(|(_, r)| r.clone())
                .collect()
        }))
    }

    fn release_reservation(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let mut state = self.state.borrow_mut();
        let result = Self::project_index(&state, project).and_then(|index| {
            state
                .reservations
                .iter_mut()
                .find(|(p, r)| *p == index && r.id == id && r.agent == agent && !r.released)
                .map(|(_, r)| r.released = true)
                .ok_or_else(|| {
                    BackendError::Server(format!(
                        "reservation {id} is not an active reservation of {agent}"
                    ))
                })
        });
        ready(result)
    }

    fn unified_inbox(&self) -> BackendFuture<'_, Vec<UnifiedRow>> {
        let state = self.state.borrow();
        ready(Ok(state
            .messages
            .iter()
            .rev()
            .take(500)
            .map(|m| UnifiedRow {
                id: m.id,
                project: state.projects[m.project].project.slug.clone(),
                subject: m.subject.clone(),
                from: m.from.clone(),
                recipients: m.to.clone(),
                created_ts: m.created_ts.clone(),
                importance: m.importance.to_string(),
            })
            .collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<T>(future: BackendFuture<'_, T>) -> Result<T, BackendError> {
        // Demo futures are always ready: poll once with a no-op waker.
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut future = future;
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("demo futures are ready"),
        }
    }

    #[test]
    fn the_demo_is_deterministic_and_large() {
        let a = DemoBackend::new();
        let b = DemoBackend::new();
        let inbox_a = block(a.inbox("pair-lab", "BlueLake")).unwrap();
        assert_eq!(inbox_a, block(b.inbox("pair-lab", "BlueLake")).unwrap());
        assert!(a.state.borrow().messages.len() >= 400);
        assert_eq!(a.state.borrow().projects.len(), 4);
    }

    #[test]
    fn acknowledging_changes_the_acked_set() {
        let demo = DemoBackend::new();
        let id = demo.state.borrow().messages.last().unwrap().id;
        assert!(!block(demo.acked("pair-lab", "BlueLake", ""))
            .unwrap()
            .contains(&id));
        block(demo.acknowledge("pair-lab", "BlueLake", id)).unwrap();
        assert!(block(demo.acked("pair-lab", "BlueLake", ""))
            .unwrap()
            .contains(&id));
        let err = block(demo.acknowledge("pair-lab", "GreenCastle", id)).unwrap_err();
        assert!(matches!(err, BackendError::NotFound(_)));
    }

    #[test]
    fn releasing_ends_a_reservation_once_and_only_for_its_holder() {
        let demo = DemoBackend::new();
        let active = |demo: &DemoBackend| {
            block(demo.reservations("pair-lab"))
                .unwrap()
                .iter()
                .filter(|r| !r.released)
                .count()
        };
        let before = active(&demo);
        assert!(block(demo.release_reservation("pair-lab", "BlueLake", 2)).is_err());
        assert!(block(demo.release_reservation("pair-lab", "AmberFox", 2)).is_ok());
        assert!(block(demo.release_reservation("pair-lab", "AmberFox", 2)).is_err());
        assert_eq!(active(&demo), before - 1);
    }

    #[test]
    fn replies_stay_in_the_thread() {
        let demo = DemoBackend::new();
        let new_id = block(demo.reply("pair-lab", "GreenCastle", 1, "Looks good")).unwrap();
        let reply = block(demo.message("pair-lab", None, new_id)).unwrap();
        assert_eq!(reply.thread_id.as_deref(), Some("pair-000"));
        assert_eq!(reply.to, vec!["BlueLake".to_string()]);
        assert!(reply.subject.starts_with("Re: "));
        assert!(block(demo.reply("pair-lab", "GreenCastle", 1, "  ")).is_err());
    }

    #[test]
    fn each_project_carries_its_family() {
        let demo = DemoBackend::new();
        let droid = block(demo.message("droid-fleet", None, 13)).unwrap();
        assert!(
            droid.body_md.contains("\"version\": \"1.0.0\""),
            "{}",
            droid.body_md
        );
        let po = block(demo.message("po-factory", None, 9)).unwrap();
        assert!(po.body_md.contains("PLAN_SUBMISSION"));
        assert!(block(demo.message(SCALE_PROJECT, None, 13)).is_err());
    }

    #[test]
    fn every_family_has_valid_and_broken_messages() {
        use std::collections::BTreeMap;
        use switchboard_core::protocol::{validate, Options};
        let demo = DemoBackend::new();
        let mut tally: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
        for m in &demo.state.borrow().messages {
            let row = json!({"subject": m.subject, "body_md": m.body_md});
            let report = validate(&row, &Options::default());
            let family = report.family_name().unwrap_or(if m.body_md.contains('{') {
                "unrecognized"
            } else {
                "plain"
            });
            let entry = tally.entry(family).or_default();
            if report.valid {
                entry.0 += 1;
            } else {
                entry.1 += 1;
            }
        }
        for family in ["pair", "agent-po", "droid", "pair-claude"] {
            let (valid, invalid) = tally.get(family).copied().unwrap_or_default();
            assert!(valid > 0 && invalid > 0, "{family}: {tally:?}");
        }
    }

    #[test]
    fn scale_inboxes_are_synthesized_on_demand() {
        let demo = DemoBackend::new();
        let rows = block(demo.inbox(SCALE_PROJECT, "Load10k")).unwrap();
        let snap = switchboard_core::pane::build_snapshot(
            &switchboard_core::pane::contract(),
            &rows,
            "[]",
            "[]",
            None,
            switchboard_core::pane::FilterMode::All,
            &[],
        )
        .unwrap();
        assert!(snap.parse_errors.is_empty(), "{:?}", snap.parse_errors);
        assert_eq!(snap.inbox.len(), 10_000);
        assert_eq!(snap.pending_ack_count, 1_000);
        let m = block(demo.message(SCALE_PROJECT, Some("Load10k"), SCALE_BASE + 42)).unwrap();
        assert_eq!(m.subject, "Load message 42");
        block(demo.acknowledge(SCALE_PROJECT, "Load10k", SCALE_BASE + 40)).unwrap();
        assert!(block(demo.message(SCALE_PROJECT, Some("Load1k"), SCALE_BASE + 5_000)).is_err());
    }

    #[test]
    fn timestamps_sort_lexically_in_time_order() {
        assert!(timestamp(59) < timestamp(60));
        assert!(timestamp(86_399) < timestamp(86_400));
        assert_eq!(&timestamp(0)[..19], "2026-11-10T00:00:00");
    }
}
