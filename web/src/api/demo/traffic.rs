//! The demo's everyday traffic: Pair sessions (written through the core's message builders),
//! Pair Claude tool calls, Agent-PO tasks, droid tasks and chatter, from a fixed-seed
//! generator, about one protocol message in ten broken on purpose, and one hostile body.
//! [`super::scenarios`] adds the curated sessions and tasks the protocol views show.

use super::gen::{built, fenced, Gen, Lcg};
use super::world::DemoMessage;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use switchboard_core::protocol::builders::build::BuildOptions;
use switchboard_core::protocol::builders::pair::{
    build_complete, contract_draft, contract_final, pair_init, session_abort, session_complete,
    ContractArtifacts, DraftArtifacts,
};
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::registry::families::pair::{Phase, Role};
use switchboard_core::time::Timestamp;

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

impl Gen {
    /// A session through checkpoint #2's opening (PAIR_INIT … BUILD_COMPLETE), some messages
    /// broken on purpose; whether every message stayed valid.
    fn pair_session(&mut self, project: usize, n: usize, planner: &str, builder: &str) -> bool {
        let tasks = [
            "Add user authentication with JWT tokens",
            "Rate-limit the public search endpoint",
            "Migrate session storage to SQLite",
            "Add CSV export to the reports page",
        ];
        let task = *self.rng.pick(&tasks);
        let thread = format!("pair-{n:03}");
        let stamp = 1_767_000_000 + n * 1000;
        let t = |s: &str| Text::new(s).expect("demo names are not blank");
        let a = |s: String| ArtifactPath::new(&s).expect("demo artifacts have the Pair form");
        let (p, b) = (t(planner), t(builder));
        let draft = DraftArtifacts {
            safety_reasoning: a(format!("tmp/pair_{stamp}_safety_reasoning.md")),
            spec: a(format!("tmp/pair_{stamp}_spec_draft.md")),
            tests: a(format!("tmp/pair_{stamp}_tests.py")),
        };
        let contract = ContractArtifacts {
            spec: draft.spec.finalized(),
            tests: draft.tests.clone(),
        };
        let steps = [
            (pair_init(&p, &b, &t(task), Role::Planner), false),
            (contract_draft(&p, &b, &draft, None), false),
            (contract_final(&p, &b, &contract, None), true),
            (
                build_complete(
                    &b,
                    &p,
                    &t("$PROJECT_ROOT/auth/jwt_handler.py"),
                    &[t("$PROJECT_ROOT/auth/middleware.py")],
                    None,
                ),
                true,
            ),
        ];
        let mut intact = true;
        for (message, ack) in steps {
            let (from, to, kind) = (message.from.clone(), message.to.clone(), message.subject);
            let mut value = message.to_value();
            if self.rng.chance(8) {
                value = corrupt(&mut self.rng, value);
                intact &= switchboard_core::protocol::is_valid(&value);
            }
            let note = format!("Pair session **{thread}** — `{kind}` for: {task}.");
            let importance = if ack { "high" } else { "normal" };
            self.push(
                project,
                &from,
                &[&to],
                format!("[{thread}] {kind}"),
                fenced(&note, &value),
                importance,
                ack,
                Some(thread.clone()),
            );
        }
        intact
    }

    fn pair_claude(&mut self, project: usize, n: usize, navigator: &str, driver: &str) {
        let thread = format!("review-{n:03}");
        let calls = [
            (
                driver,
                navigator,
                ("driver", "driverRequestReview"),
                json!({"context": "Implemented the retry loop in src/net/client.rs"}),
            ),
            (
                navigator,
                driver,
                ("navigator", "navigatorCodeReview"),
                json!({"comment": "Backoff must cap at 30 s; add a test.", "pass": false}),
            ),
            (
                driver,
                navigator,
                ("driver", "driverRequestGuidance"),
                json!({"context": "Should the cap be configurable?"}),
            ),
            (
                navigator,
                driver,
                ("navigator", "navigatorApprove"),
                json!({"requestId": format!("perm-{n}-1"), "comment": "Configurable via env, default 30 s."}),
            ),
        ];
        for (i, (from, to, (server, call), arguments)) in calls.into_iter().enumerate() {
            // The tool call as the orchestrator relays it: `{name, arguments}`, the name with
            // its MCP server's prefix.
            let tool = format!("mcp__{server}__{call}");
            let fields = json!({"name": tool, "arguments": arguments});
            let mut value = built(
                &format!("pair-claude/{call}"),
                fields,
                &BuildOptions::default(),
            );
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
        let options = BuildOptions {
            now: Timestamp::parse(&self.ts()),
            agent_id: Some(format!("agent-{}", agent_name.to_ascii_lowercase())),
            task_id: Some(task.clone()),
            ..BuildOptions::default()
        };
        let ts = self.ts();
        let steps: Vec<(bool, Value, bool)> = vec![
            (
                true,
                built(
                    "agent-po/PLAN_SUBMISSION",
                    json!({"plan": {"approach": "Add the form, then wire the service",
                       "ac_mapping": [{"ac_id": "AC-001", "implementation": "Add login form component",
                                       "file": "src/pages/LoginPage.tsx", "line_estimate": "~50"}],
                       "files_to_modify": [{"path": "src/pages/LoginPage.tsx",
                                            "changes": "Add form, validation, submit handler"}]},
                       "questions": [], "revision": 1}),
                    &options,
                ),
                false,
            ),
            (
                false,
                built(
                    "agent-po/GO_DIRECTIVE",
                    json!({"authorization": {"authorized_files": ["src/pages/LoginPage.tsx"],
                                         "timeout_minutes": 30},
                       "message": "GO. Plan validated. Begin implementation."}),
                    &options,
                ),
                true,
            ),
            (
                true,
                built(
                    "agent-po/PROGRESS_UPDATE",
                    json!({"status": "implementing", "progress_percent": 50,
                       "current_activity": "Writing login form component",
                       "files_modified": ["src/pages/LoginPage.tsx"], "issues": [], "eta_minutes": 15}),
                    &options,
                ),
                false,
            ),
            (
                true,
                built(
                    "agent-po/COMPLETION_REPORT",
                    json!({"summary": {"started_at": ts, "completed_at": ts, "duration_minutes": 42},
                       "ac_verification": [{"ac_id": "AC-001", "status": "PASS", "evidence": "tests pass"}],
                       "test_results": {"passed": 12, "failed": 0, "skipped": 1},
                       "files_changed": [{"path": "src/pages/LoginPage.tsx", "action": "modified",
                                          "lines_added": 48, "lines_removed": 3}]}),
                    &options,
                ),
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
        let now = Timestamp::parse(&self.ts());
        // Each message's id from a seed of its own, so the traffic's random stream (what is
        // broken on purpose) stays as it was.
        let options = |sender: &str, k: u64| BuildOptions {
            now,
            random: Some(Lcg::new(n as u64 * 10 + k).bytes()),
            sender: Some(sender.to_owned()),
            ..BuildOptions::default()
        };
        let steps = [
            (
                orchestrator,
                specialist,
                built(
                    "droid/task_assignment",
                    json!({"task_id": task,
                "description": "Implement user authentication UI with login form",
                "specification": {"acceptance_criteria": ["Login form displays correctly",
                                                          "Password validation (min 8 chars)"],
                                  "technical_requirements": ["Use React Hook Form"]},
                "file_patterns": ["src/frontend/auth/**/*.tsx"], "priority": "high", "priority_value": 1}),
                    &options(orchestrator, 1),
                ),
                true,
            ),
            (
                specialist,
                orchestrator,
                built(
                    "droid/status_update",
                    json!({"task_id": task, "update_type": "progress",
                "status_summary": "Login form done, wiring OAuth next", "progress": {"percentage": 60},
                "blockers": []}),
                    &options(specialist, 2),
                ),
                false,
            ),
            (
                specialist,
                orchestrator,
                built(
                    "droid/task_completion",
                    json!({"task_id": task, "status": "complete",
                "completion_summary": "Implemented authentication UI with all acceptance criteria met",
                "files_modified": ["src/frontend/auth/LoginForm.tsx"], "errors_encountered": [],
                "test_results": {"unit_tests": {"total": 15, "passed": 15, "failed": 0, "coverage": 92},
                                 "integration_tests": {"total": 8, "passed": 8, "failed": 0}},
                "blockers": []}),
                    &options(specialist, 3),
                ),
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

/// The generated traffic: messages and the `(agent, id)` acknowledgements already made.
pub struct Generated {
    /// The messages, ids from 1.
    pub messages: Vec<DemoMessage>,
    /// Acknowledged `(agent, message id)` pairs.
    pub acked: BTreeSet<(String, u64)>,
}

/// The whole demo traffic: the everyday traffic, then the curated scenarios.
#[must_use]
pub fn generate() -> Generated {
    let mut gen = Gen {
        rng: Lcg::new(0x5eed_2026),
        clock: 0,
        messages: Vec::new(),
    };
    let mut intact = Vec::new();
    for n in 0..24 {
        intact.push(gen.pair_session(0, n, "BlueLake", "GreenCastle"));
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
    let mut rng = Lcg::new(7);
    let handled = gen.messages.len() as u64 * 3 / 4;
    for message in &gen.messages {
        // Older acknowledgement requests are mostly handled already.
        if message.ack_required && message.id < handled && rng.chance(60) {
            for to in &message.to {
                acked.insert((to.clone(), message.id));
            }
        }
    }
    gen.close_sessions(&intact);
    super::scenarios::add(&mut gen);
    Generated {
        messages: gen.messages,
        acked,
    }
}

impl Gen {
    /// Ends most everyday sessions that reached implementation review intact: a quarter are
    /// aborted, three stay open, the rest are merged.
    fn close_sessions(&mut self, intact: &[bool]) {
        let t = |s: &str| Text::new(s).expect("demo texts are not blank");
        let (planner, builder) = (t("BlueLake"), t("GreenCastle"));
        for (n, _) in intact.iter().enumerate().filter(|(_, ok)| **ok) {
            if n % 8 == 2 {
                continue;
            }
            let thread = format!("pair-{n:03}");
            let message = if n % 4 == 1 {
                session_abort(
                    &planner,
                    &builder,
                    Phase::BuildComplete,
                    &t("Requirement dropped by the product owner"),
                )
            } else {
                session_complete(
                    &planner,
                    &builder,
                    &t("Implementation approved at human review and merged."),
                )
            };
            let kind = message.subject;
            let note = format!("Pair session **{thread}** — `{kind}`.");
            self.push(
                0,
                "BlueLake",
                &["GreenCastle"],
                format!("[{thread}] {kind}"),
                fenced(&note, &message.to_value()),
                "normal",
                false,
                Some(thread),
            );
        }
    }
}
