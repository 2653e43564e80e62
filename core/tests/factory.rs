//! Agent-PO message persistence (seed 002): the `.factory/execution/messages` layout read as
//! a log (time order, `received/` as the agent's copies, every problem with its path), written
//! from a log (round trip, property-tested), retention, and the CLI.

use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use switchboard_core::agent_mail::read_log;
use switchboard_core::factory::{self, FactoryFile, ProblemKind, Side};
use switchboard_core::protocol::Options;
use switchboard_core::session::agent_po::Status;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/factory")
        .join(rel)
}

/// Every file under `root` as the CLI's edge reads it.
fn files(root: &Path) -> Vec<FactoryFile> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<FactoryFile>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(FactoryFile {
                    path: path
                        .strip_prefix(root)
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .to_owned(),
                    bytes: std::fs::read(&path).map_err(|e| e.to_string()),
                });
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn at(text: &str) -> Timestamp {
    Timestamp::parse(text).unwrap()
}

#[test]
fn a_project_tree_reads_in_time_order_with_received_copies() {
    let root = fixture("project/.factory/execution/messages");
    let log = factory::read(files(&root), &Options::default());
    assert!(log.problems.is_empty(), "{:#?}", log.problems);
    let order: Vec<&str> = log.paths.iter().map(String::as_str).collect();
    assert_eq!(
        order,
        [
            "agent-7f3a/PLAN_SUBMISSION_001.json",
            "agent-7f3a/received/GO_DIRECTIVE_001.json",
            "agent-7f3a/PROGRESS_UPDATE_001.json",
            "agent-7f3a/PROGRESS_UPDATE_002.json",
            "agent-7f3a/COMPLETION_REPORT_001.json",
            "agent-7f3a/received/NEXT_DIRECTIVE_001.json",
            "agent-9c1d/PLAN_SUBMISSION_001.json",
            "agent-9c1d/received/GO_DIRECTIVE_001.json",
        ]
    );
    // Sent files come from their agent, received copies go to it.
    assert_eq!(log.envelopes[0].from.as_deref(), Some("agent-7f3a"));
    assert_eq!(log.envelopes[1].to, ["agent-7f3a"]);
    let book = Book::replay(&log.envelopes, PairClaudeConfig::default());
    assert!(!book.has_violations());
    let status: Vec<(String, Status)> = book
        .agent_po
        .tasks()
        .iter()
        .map(|t| (t.agent_id.clone(), t.status))
        .collect();
    assert_eq!(
        status,
        [
            ("agent-7f3a".to_owned(), Status::Completed),
            ("agent-9c1d".to_owned(), Status::Implementing)
        ]
    );
    // Retention: 7 days after the NEXT_DIRECTIVE (2026-01-15T10:45Z), and only for the
    // completed task.
    assert!(factory::past_retention(&log, &book, at("2026-01-22T10:44:59Z")).is_empty());
    let expired = factory::past_retention(&log, &book, at("2026-01-22T10:45:00Z"));
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].task_id, "TASK-042");
    assert_eq!(expired[0].files.len(), 6);
    assert_eq!(expired[0].expired_at, at("2026-01-22T10:45:00Z"));
    assert_eq!(
        factory::past_retention(&log, &book, at("2027-01-01T00:00:00Z")).len(),
        1
    );
}

/// The broken tree, copied, with a file that cannot be read (a dangling link).
fn broken_copy(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let src = fixture("broken");
    for f in files(&src) {
        let to = dir.join(&f.path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, f.bytes.unwrap()).unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        dir.join("nowhere.json"),
        dir.join("agent-5e2b/PROGRESS_UPDATE_004.json"),
    )
    .unwrap();
    dir
}

#[test]
fn every_problem_is_reported_with_its_path_and_the_rest_is_read() {
    let dir = broken_copy("factory-broken");
    let edge: Vec<FactoryFile> = walk_edge(&dir);
    let log = factory::read(edge, &Options::default());
    let mut got: Vec<(ProblemKind, &str)> = log
        .problems
        .iter()
        .map(|p| (p.kind, p.path.as_str()))
        .collect();
    got.sort_by_key(|(_, p)| *p);
    let mut want = vec![
        (ProblemKind::UnexpectedName, "README.json"),
        (ProblemKind::WrongSide, "agent-5e2b/FIX_DIRECTIVE_001.json"),
        (ProblemKind::Gap, "agent-5e2b/GO_DIRECTIVE_001.json"),
        (
            ProblemKind::TypeMismatch,
            "agent-5e2b/GO_DIRECTIVE_002.json",
        ),
        (ProblemKind::NotJson, "agent-5e2b/PLAN_SUBMISSION_002.json"),
        (
            ProblemKind::Duplicate,
            "agent-5e2b/PROGRESS_UPDATE_003.json",
        ),
        (ProblemKind::Gap, "agent-5e2b/PROGRESS_UPDATE_002.json"),
        (ProblemKind::NotJson, "agent-5e2b/notes.md"),
        (
            ProblemKind::WrongSide,
            "agent-5e2b/received/COMPLETION_REPORT_001.json",
        ),
        (
            ProblemKind::AgentMismatch,
            "agent-zzzz/PLAN_SUBMISSION_001.json",
        ),
    ];
    if cfg!(unix) {
        want.push((
            ProblemKind::Unreadable,
            "agent-5e2b/PROGRESS_UPDATE_004.json",
        ));
    }
    want.sort_by_key(|(_, p)| *p);
    assert_eq!(got, want, "{:#?}", log.problems);
    // The readable JSON files are all read: 13 files, 2 not JSON, 1 unreadable.
    assert_eq!(log.envelopes.len(), 10);
}

/// The files under `dir` as `switchboard`'s edge reads them (unreadable ones kept).
fn walk_edge(dir: &Path) -> Vec<FactoryFile> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().to_str().unwrap().to_owned();
            match std::fs::metadata(&path) {
                Ok(m) if m.is_dir() => pending.push(path),
                Ok(_) => out.push(FactoryFile {
                    path: rel,
                    bytes: std::fs::read(&path).map_err(|e| e.to_string()),
                }),
                Err(e) => out.push(FactoryFile {
                    path: rel,
                    bytes: Err(e.to_string()),
                }),
            }
        }
    }
    out
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn session_and_tasks_take_a_messages_directory() {
    let project = fixture("project");
    let out = run(&[
        "session",
        project.to_str().unwrap(),
        "--now",
        "2026-02-01T00:00:00Z",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(v["factory"]["problems"], json!([]));
    assert_eq!(v["factory"]["past_retention"][0]["task_id"], "TASK-042");
    let broken = broken_copy("factory-broken-cli");
    let out = run(&[
        "tasks",
        broken.to_str().unwrap(),
        "--now",
        "2026-02-02T00:00:00Z",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["agent_po"].is_array());
    assert!(v["factory"]["problems"].as_array().unwrap().len() >= 10);
}

#[test]
fn export_writes_the_layout_and_overwrites_nothing() {
    let project = fixture("project/.factory/execution/messages");
    let log = factory::read(files(&project), &Options::default());
    let rows: Vec<Value> = log
        .envelopes
        .iter()
        .map(|e| e.message().unwrap().value.clone())
        .chain([json!({"subject": "hi", "from": "x", "body_md": "plain mail"})])
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("factory-export");
    let _ = std::fs::remove_dir_all(&dir);
    let log_file = dir.with_extension("jsonl");
    std::fs::write(
        &log_file,
        rows.iter().map(|r| format!("{r}\n")).collect::<String>(),
    )
    .unwrap();
    let args = [
        "export",
        "--factory",
        dir.to_str().unwrap(),
        log_file.to_str().unwrap(),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["written"].as_array().unwrap().len(), 8);
    assert_eq!(v["skipped"][0]["entry"], 8);
    // The same names as the tree it came from, the same messages.
    let mut written: Vec<String> = files(&dir).into_iter().map(|f| f.path).collect();
    let mut original: Vec<String> = files(&project).into_iter().map(|f| f.path).collect();
    written.sort();
    original.sort();
    assert_eq!(written, original);
    // Again into the same directory: refused, nothing written.
    let again = run(&args);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists"));
}

fn po_message() -> impl Strategy<Value = (usize, usize, usize, u32)> {
    (0usize..3, 0usize..2, 0usize..6, 0u32..5000)
}

const TYPES: [(&str, &str); 6] = [
    (
        "PLAN_SUBMISSION",
        "c00_PLAN_SUBMISSION_real_timestamps.json",
    ),
    (
        "PROGRESS_UPDATE",
        "c01_PROGRESS_UPDATE_real_timestamps.json",
    ),
    (
        "COMPLETION_REPORT",
        "c02_COMPLETION_REPORT_real_timestamps.json",
    ),
    ("GO_DIRECTIVE", "c04_GO_DIRECTIVE_real_timestamps.json"),
    ("NEXT_DIRECTIVE", "c06_NEXT_DIRECTIVE_real_timestamps.json"),
    ("FIX_DIRECTIVE", "c07_FIX_DIRECTIVE_real_timestamps.json"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Any log of Agent-PO messages laid out and read back: no problem, the same messages in
    /// the same time order, each type numbered 001… per agent and side.
    #[test]
    fn layout_then_read_is_the_log(msgs in proptest::collection::vec(po_message(), 1..25)) {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol/valid/agent-po");
        let mut values = Vec::new();
        for (i, (agent, task, kind, second)) in msgs.iter().enumerate() {
            let mut v: Value = serde_json::from_slice(&std::fs::read(base.join(TYPES[*kind].1)).unwrap()).unwrap();
            v["agent_id"] = json!(format!("agent-{agent}a"));
            v["task_id"] = json!(format!("TASK-{task}"));
            // Distinct times: the log's order is the time order.
            let ms = 1_767_225_600_000 + i64::from(*second) * 1000 + i as i64;
            v["timestamp"] = json!(Timestamp(ms).to_rfc3339());
            values.push((ms, v));
        }
        let bytes = serde_json::to_vec(&values.iter().map(|(_, v)| v).collect::<Vec<_>>()).unwrap();
        let envelopes = read_log(&bytes, &Options::default()).unwrap();
        let layout = factory::layout(&envelopes);
        prop_assert!(layout.skipped.is_empty());
        let read = factory::read(
            layout.files.iter().map(|(p, b)| FactoryFile { path: p.clone(), bytes: Ok(b.clone()) }).collect(),
            &Options::default(),
        );
        prop_assert!(read.problems.is_empty(), "{:?}", read.problems);
        // By time, not by the timestamps' text: `…:54.001Z` sorts before `…:54Z` as text.
        let mut expected: Vec<&(i64, Value)> = values.iter().collect();
        expected.sort_by_key(|(ms, _)| *ms);
        let expected: Vec<&Value> = expected.into_iter().map(|(_, v)| v).collect();
        let got: Vec<&Value> = read.envelopes.iter().map(|e| &e.message().unwrap().value).collect();
        prop_assert_eq!(got, expected);
        for (path, _) in &layout.files {
            let kind = path.rsplit('/').next().unwrap();
            let side = if path.contains("/received/") { Side::Received } else { Side::Sent };
            let t = kind.rsplit_once('_').unwrap().0;
            prop_assert_eq!(factory::side_of(t), side);
        }
    }
}
