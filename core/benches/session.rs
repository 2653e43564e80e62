//! Session replay benchmark (prints a table; not a timed test).
//!
//! A generated log in two forms, JSON Lines of Agent Mail rows carrying their protocol
//! message in `body_md`, and JSON Lines of the bare messages: Pair sessions of seven messages (pattern 2, with a change order) interleaved
//! with Agent-PO progress updates and droid status updates, every message valid. For each
//! size it times, in the same run and over the same bytes:
//! - the parse floor: every line parsed into `serde_json::Value`;
//! - the content floor: every line and its `body_md` parsed into `Value` (for bare messages,
//!   the same as the parse floor);
//! - replay: every line decoded into an `Envelope` (parse, detect, validate) and folded into
//!   a `session::Book` (streaming: each envelope is dropped once folded);
//! - and, apart, printing every session and board at `now` as JSON (what `switchboard
//!   session` and `tasks` add on top).
//!
//! Run: `cargo bench -p switchboard-core --bench session` (sizes: `-- 100000 1000000`).

use serde_json::{json, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};
use switchboard_core::agent_mail::Envelope;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

const PAIR: [(&str, bool); 7] = [
    ("PAIR_INIT", false),
    ("CONTRACT_DRAFT", false),
    ("CONTRACT_FINAL", false),
    ("CHANGE_ORDER", true),
    ("CHANGE_ORDER_ACCEPTED", false),
    ("BUILD_COMPLETE", true),
    ("SESSION_COMPLETE", false),
];

fn pair_body(kind: &str, n: usize) -> Value {
    let stamp = 1_767_000_000 + n;
    let fp = json!({format!("tmp/pair_{stamp}_tests.py"): format!("sha256:{}", "3".repeat(64))});
    match kind {
        "PAIR_INIT" => {
            json!({"protocol_version": "3.1", "task": format!("Task {n}: add JWT auth"), "my_role": "PLANNER", "your_role": "BUILDER", "status": "INITIALIZED"})
        }
        "CONTRACT_DRAFT" => {
            json!({"phase": "CONTRACT_GENERATION", "artifacts": {"safety_reasoning": format!("tmp/pair_{stamp}_safety_reasoning.md"), "spec": format!("tmp/pair_{stamp}_spec_draft.md"), "tests": format!("tmp/pair_{stamp}_tests.py")}, "status": "AWAITING_HUMAN_REVIEW", "test_fingerprints": fp})
        }
        "CONTRACT_FINAL" => {
            json!({"phase": "CONTRACT_FINALIZED", "artifacts": {"spec": format!("tmp/pair_{stamp}_spec_final.md"), "tests": format!("tmp/pair_{stamp}_tests.py")}, "contract_immutable": true, "status": "READY_FOR_BUILD", "test_fingerprints": fp})
        }
        "CHANGE_ORDER" => {
            json!({"phase": "BUILD_BLOCKED", "change_order": {"status": "CHANGE_ORDER_REQUIRED", "failure_mode": "dependency_missing", "evidence": "AssertionError: Expected JWT library 'pyjwt' but not found in dependencies", "attempted_fixes": ["Tried using built-in hashlib for token generation", "Attempted manual JWT implementation"], "requested_changes": "Add 'pyjwt>=2.8.0' to requirements.txt"}, "status": "AWAITING_MEDIATION"})
        }
        "CHANGE_ORDER_ACCEPTED" => {
            json!({"phase": "CONTRACT_REVISED", "decision": "ACCEPTED", "updated_artifacts": {"spec": format!("tmp/pair_{stamp}_spec_final_v2.md"), "tests": format!("tmp/pair_{stamp}_tests_v2.py")}, "reasoning": "PyJWT is a standard library for JWT handling.", "status": "READY_FOR_BUILD"})
        }
        "BUILD_COMPLETE" => {
            json!({"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS", "implementation_files": ["$PROJECT_ROOT/auth/jwt_handler.py", "$PROJECT_ROOT/auth/middleware.py"], "status": "READY_FOR_REVIEW"})
        }
        _ => {
            json!({"phase": "MERGED", "status": "SUCCESS", "message": "Pair session completed successfully. All tests passing. Implementation merged."})
        }
    }
}

/// How the messages travel in the log.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// Agent Mail rows, the message as JSON text in `body_md`.
    Rows,
    /// Bare messages (a Pair message as `{to, subject, body}`), with the envelope members
    /// `id`, `thread_id`, `from`, `created_ts` beside them.
    Bare,
}

/// `n` rows: sessions of seven Pair messages, every fifth row an Agent-PO or droid update.
fn log(n: usize, start: Timestamp, form: Form) -> Vec<u8> {
    let mut out = Vec::with_capacity(n * 700);
    let (mut pair_step, mut session) = (0, 0);
    for i in 0..n {
        let at = start.plus_millis(i as i64 * 1_000).to_rfc3339();
        let row = if i % 5 == 4 {
            let body = if i % 10 == 4 {
                json!({"message_type": "PROGRESS_UPDATE", "agent_id": format!("agent-{}", i % 97), "task_id": format!("TASK-{}", i % 89), "timestamp": at, "status": "implementing", "progress_percent": 50, "current_activity": "Writing login form component", "files_modified": ["src/pages/LoginPage.tsx"], "issues": [], "eta_minutes": 15})
            } else {
                json!({"version": "1.0.0", "timestamp": at, "sender_id": "database-engineer", "message_id": format!("msg-423e4567-e89b-12d3-a456-{:012}", i), "type": "status_update", "task_id": format!("bd-{}", i % 83), "update_type": "progress", "status_summary": "Migration in progress", "progress": {"percentage": 70, "current_step": "Running migration in staging"}, "blockers": []})
            };
            match form {
                Form::Rows => {
                    json!({"id": i + 1, "project": "bench", "from": "worker", "to": ["lead"], "subject": "", "created_ts": at, "importance": "normal", "ack_required": false, "body_md": body.to_string()})
                }
                Form::Bare => {
                    let mut m = body;
                    m["id"] = json!(i + 1);
                    m["from"] = json!("worker");
                    m["created_ts"] = json!(at);
                    m
                }
            }
        } else {
            let (kind, from_builder) = PAIR[pair_step];
            let (planner, builder) = (
                format!("Planner{}", session % 50),
                format!("Builder{}", session % 50),
            );
            let (from, to) = if from_builder {
                (builder, planner)
            } else {
                (planner, builder)
            };
            let r = match form {
                Form::Rows => {
                    json!({"id": i + 1, "project": "bench", "thread_id": format!("pair-{session}"), "from": from, "to": [to], "subject": kind, "created_ts": at, "importance": "normal", "ack_required": kind == "PAIR_INIT", "body_md": pair_body(kind, session).to_string()})
                }
                Form::Bare => {
                    json!({"id": i + 1, "thread_id": format!("pair-{session}"), "from": from, "to": to, "subject": kind, "created_ts": at, "body": pair_body(kind, session)})
                }
            };
            pair_step += 1;
            if pair_step == PAIR.len() {
                pair_step = 0;
                session += 1;
            }
            r
        };
        serde_json::to_writer(&mut out, &row).unwrap();
        out.push(b'\n');
    }
    out
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty())
}

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        black_box(f());
        best = best.min(start.elapsed());
    }
    best
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100_000, 1_000_000]
    } else {
        sizes
    };
    let start = Timestamp::parse("2026-03-02T09:00:00Z").unwrap();
    println!(
        "session replay benchmark: generated Agent Mail rows (JSON Lines), best of 3 runs per job"
    );
    println!();
    println!("| log | messages | MiB | parse floor ms | content floor ms | replay ms | replay msg/s | replay / parse floor | replay / content floor | replay ns/msg | print sessions+boards ms | sessions | violations |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (n, form) in sizes
        .iter()
        .flat_map(|&n| [(n, Form::Rows), (n, Form::Bare)])
    {
        let bytes = log(n, start, form);
        // SESSION_BENCH_DUMP=DIR writes each log there (`rows-N.jsonl`, `bare-N.jsonl`).
        if let Ok(dir) = std::env::var("SESSION_BENCH_DUMP") {
            let name = if form == Form::Rows { "rows" } else { "bare" };
            std::fs::write(format!("{dir}/{name}-{n}.jsonl"), &bytes).unwrap();
        }
        let runs = if n >= 1_000_000 { 3 } else { 5 };
        let floor = best(runs, || {
            lines(&bytes).fold(0, |n, l| {
                black_box(serde_json::from_slice::<Value>(l).unwrap());
                n + 1
            })
        });
        let content = best(runs, || {
            lines(&bytes)
                .map(|l| {
                    let row: Value = serde_json::from_slice(l).unwrap();
                    let body = row
                        .get("body_md")
                        .and_then(Value::as_str)
                        .map(|b| serde_json::from_str::<Value>(b).unwrap());
                    (row, body)
                })
                .count()
        });
        let options = Options::default();
        let now = start.plus_millis(n as i64 * 1_000);
        let fold = || {
            let mut book = Book::new(PairClaudeConfig::default());
            for (i, l) in lines(&bytes).enumerate() {
                book.observe(&Envelope::decode_slice(i, l, &options));
            }
            book
        };
        let replay = best(runs, fold);
        let book = fold();
        let print = best(runs, || {
            serde_json::to_vec(&book.sessions(now)).unwrap().len()
                + serde_json::to_vec(&book.boards(now)).unwrap().len()
        });
        let sessions = book.pair.sessions().len() + book.agent_po.tasks().len();
        let violations: usize = book
            .pair
            .sessions()
            .iter()
            .map(|s| s.violations.len())
            .sum();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "| {} | {n} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} | {:.0} | {:.0} | {sessions} | {violations} |",
            if form == Form::Rows { "rows (body_md)" } else { "bare messages" },
            bytes.len() as f64 / 1_048_576.0,
            ms(floor),
            ms(content),
            ms(replay),
            n as f64 / replay.as_secs_f64(),
            replay.as_secs_f64() / floor.as_secs_f64(),
            replay.as_secs_f64() / content.as_secs_f64(),
            replay.as_nanos() as f64 / n as f64,
            ms(print),
        );
    }
    println!();
    println!(
        "goal: replay at most 2x the parse floor, linear in the number of messages (ns/msg flat)"
    );
}
