//! Agent-PO message persistence (seed 002, "Message Persistence"): the
//! `.factory/execution/messages/` layout, read as a log and written from one.
//!
//! ```text
//! .factory/execution/messages/
//! ├── agent-xxx/
//! │   ├── PLAN_SUBMISSION_001.json      what the agent sent
//! │   ├── PROGRESS_UPDATE_001.json
//! │   └── received/
//! │       └── GO_DIRECTIVE_001.json     the agent's copies of what the PO sent it
//! ```
//!
//! - [`read`]: the files under the messages directory (paths relative to it, bytes or the
//!   reason they could not be read: the file system stays at the edge) → envelopes in time
//!   order, and every [`Problem`] with its path: unreadable or non-JSON files, names out of the
//!   layout, a message on the wrong side or under another agent, gaps and repeats in `NNN`.
//! - [`layout`]: a log's Agent-PO messages → the files of the layout.
//! - [`past_retention`]: the files of completed tasks older than [`RETENTION_DAYS`] at `now`.

use crate::agent_mail::Envelope;
use crate::protocol::{FamilyId, Options};
use crate::session::agent_po::Status;
use crate::session::Book;
use crate::time::Timestamp;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// How long a completed task's messages are kept ("Completed task messages: Keep for 7 days").
pub const RETENTION_DAYS: i64 = 7;

/// The messages directory under a project root.
pub const MESSAGES_DIR: &str = ".factory/execution/messages";

/// The directory of an agent's incoming copies.
pub const RECEIVED: &str = "received";

/// One file under the messages directory, as the edge read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactoryFile {
    /// Its path relative to the messages directory, `/`-separated.
    pub path: String,
    /// Its bytes, or why they could not be read.
    pub bytes: Result<Vec<u8>, String>,
}

/// Which side of the conversation a file is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// `<agent>/`: sent by the agent.
    Sent,
    /// `<agent>/received/`: sent to the agent by the PO.
    Received,
}

/// What is wrong with a file or the directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The file could not be read.
    Unreadable,
    /// The file is not JSON.
    NotJson,
    /// The path is not `<agent>/TYPE_NNN.json` or `<agent>/received/TYPE_NNN.json`.
    UnexpectedName,
    /// The name's type is not the message's `message_type`.
    TypeMismatch,
    /// The message's `agent_id` is not its directory's agent.
    AgentMismatch,
    /// A message the agent sends is under `received/`, or one it receives is not.
    WrongSide,
    /// A number is missing in a type's `NNN` sequence.
    Gap,
    /// Two files carry the same number (`_001` and `_0001`).
    Duplicate,
}

/// One problem, with the path it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// What.
    pub kind: ProblemKind,
    /// The file (or, for a gap, the missing file's name).
    pub path: String,
    /// In words.
    pub message: String,
}

/// The messages directory read as a log.
#[derive(Debug, Clone, PartialEq)]
pub struct FactoryLog {
    /// The messages in time order (ties by path); `index` is the position here.
    pub envelopes: Vec<Envelope>,
    /// The file of each envelope, by index.
    pub paths: Vec<String>,
    /// Everything out of place.
    pub problems: Vec<Problem>,
}

/// A file name in the layout: the message type's wire name and the number.
fn parse_name(name: &str) -> Option<(&str, u32, usize)> {
    let stem = name.strip_suffix(".json")?;
    let (kind, digits) = stem.rsplit_once('_')?;
    let typed = !kind.is_empty()
        && kind.bytes().all(|c| c.is_ascii_uppercase() || c == b'_')
        && kind.as_bytes()[0].is_ascii_uppercase();
    let numbered = digits.len() >= 3 && digits.bytes().all(|c| c.is_ascii_digit());
    if !(typed && numbered) {
        return None;
    }
    Some((kind, digits.parse().ok()?, digits.len()))
}

/// Where a path sits in the layout: agent, side, file name.
fn place(path: &str) -> Option<(&str, Side, &str)> {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        [agent, file] => Some((agent, Side::Sent, file)),
        [agent, dir, file] if *dir == RECEIVED => Some((agent, Side::Received, file)),
        _ => None,
    }
}

/// The side a message type is written on: what the task agent sends, or what it receives.
#[must_use]
pub fn side_of(message_type: &str) -> Side {
    if crate::session::agent_po::from_agent(message_type) {
        Side::Sent
    } else {
        Side::Received
    }
}

/// The numbers seen per agent, side and type, with their files.
type Numbers = BTreeMap<(String, Side, String), Vec<(u32, String)>>;

struct Entry {
    path: String,
    agent: String,
    side: Side,
    value: Value,
    at: Option<Timestamp>,
}

/// Reads the messages directory's files as a log (see the module documentation).
#[must_use]
pub fn read(files: Vec<FactoryFile>, options: &Options) -> FactoryLog {
    let mut problems = Vec::new();
    let problem = |kind, path: &str, message: String| Problem {
        kind,
        path: path.to_owned(),
        message,
    };
    let mut numbers = Numbers::new();
    let mut entries = Vec::new();
    for file in files {
        let bytes = match file.bytes {
            Ok(bytes) => bytes,
            Err(reason) => {
                problems.push(problem(
                    ProblemKind::Unreadable,
                    &file.path,
                    format!("cannot read: {reason}"),
                ));
                continue;
            }
        };
        let value: Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => {
                problems.push(problem(
                    ProblemKind::NotJson,
                    &file.path,
                    format!("not JSON: {e}"),
                ));
                continue;
            }
        };
        let Some((agent, side, name)) = place(&file.path) else {
            problems.push(problem(
                ProblemKind::UnexpectedName,
                &file.path,
                "not <agent>/TYPE_NNN.json or <agent>/received/TYPE_NNN.json; read anyway".into(),
            ));
            entries.push(Entry {
                at: time_of(&value),
                path: file.path,
                agent: String::new(),
                side: Side::Sent,
                value,
            });
            continue;
        };
        let (agent, name) = (agent.to_owned(), name.to_owned());
        check_file(
            &file.path,
            &agent,
            side,
            &name,
            &value,
            &mut problems,
            &mut numbers,
        );
        entries.push(Entry {
            at: time_of(&value),
            path: file.path,
            agent,
            side,
            value,
        });
    }
    for ((agent, side, kind), mut seen) in numbers {
        seen.sort();
        let dir = match side {
            Side::Sent => agent.clone(),
            Side::Received => format!("{agent}/{RECEIVED}"),
        };
        let mut expected = 1;
        for window in seen.windows(2) {
            if window[0].0 == window[1].0 {
                problems.push(problem(
                    ProblemKind::Duplicate,
                    &window[1].1,
                    format!(
                        "{} repeats number {:03} of {}",
                        window[1].1, window[0].0, window[0].1
                    ),
                ));
            }
        }
        for (n, _) in &seen {
            while expected < *n {
                let missing = format!("{dir}/{kind}_{expected:03}.json");
                problems.push(problem(
                    ProblemKind::Gap,
                    &missing,
                    format!("{missing} is missing: {kind} numbers skip {expected:03}"),
                ));
                expected += 1;
            }
            expected = expected.max(n + 1);
        }
    }
    entries.sort_by(|a, b| {
        (a.at.unwrap_or(Timestamp(i64::MAX)), &a.path)
            .cmp(&(b.at.unwrap_or(Timestamp(i64::MAX)), &b.path))
    });
    let mut envelopes = Vec::with_capacity(entries.len());
    let mut paths = Vec::with_capacity(entries.len());
    for (index, e) in entries.into_iter().enumerate() {
        let mut env = Envelope::decode(index, e.value, options);
        if !e.agent.is_empty() {
            match e.side {
                Side::Sent => env.from = Some(e.agent),
                Side::Received => env.to = vec![e.agent],
            }
        }
        envelopes.push(env);
        paths.push(e.path);
    }
    FactoryLog {
        envelopes,
        paths,
        problems,
    }
}

/// The message's own time (`timestamp`, else the older `submitted_at`).
fn time_of(v: &Value) -> Option<Timestamp> {
    ["timestamp", "submitted_at"]
        .iter()
        .find_map(|k| v.get(k).and_then(Value::as_str))
        .and_then(Timestamp::parse)
}

/// Checks one file's name and place against its message, noting its number.
fn check_file(
    path: &str,
    agent: &str,
    side: Side,
    name: &str,
    value: &Value,
    problems: &mut Vec<Problem>,
    numbers: &mut Numbers,
) {
    let mut push = |kind, message: String| {
        problems.push(Problem {
            kind,
            path: path.to_owned(),
            message,
        });
    };
    let Some((kind, n, _)) = parse_name(name) else {
        push(
            ProblemKind::UnexpectedName,
            format!("{name} is not TYPE_NNN.json; read anyway"),
        );
        return;
    };
    numbers
        .entry((agent.to_owned(), side, kind.to_owned()))
        .or_default()
        .push((n, path.to_owned()));
    let declared = value.get("message_type").and_then(Value::as_str);
    if let Some(t) = declared.filter(|t| *t != kind) {
        push(
            ProblemKind::TypeMismatch,
            format!("the file is named {kind} but holds a {t}"),
        );
    }
    if let Some(a) = value
        .get("agent_id")
        .and_then(Value::as_str)
        .filter(|a| *a != agent)
    {
        push(
            ProblemKind::AgentMismatch,
            format!("under {agent}/ but its agent_id is {a}"),
        );
    }
    let wire = declared.unwrap_or(kind);
    // BLOCKED_NOTIFICATION goes both ways; its shape says which (the registry's two types).
    let expected = match wire {
        "BLOCKED_NOTIFICATION" => None,
        t => Some(side_of(t)),
    };
    if expected.is_some_and(|e| e != side) {
        let (is, should) = match side {
            Side::Sent => ("the agent's own messages", "received/"),
            Side::Received => ("received/", "the agent's own directory"),
        };
        push(
            ProblemKind::WrongSide,
            format!("a {wire} is among {is}; it belongs in {should}"),
        );
    }
}

/// The files a log's Agent-PO messages make in the layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// `(path, bytes)`, paths relative to the messages directory, in log time order.
    pub files: Vec<(String, Vec<u8>)>,
    /// The log entries not written, with why.
    pub skipped: Vec<Skipped>,
}

/// A log entry left out of the layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Its position in the log.
    pub entry: usize,
    /// Why.
    pub reason: String,
}

/// Lays a log's valid Agent-PO messages out as files: what the agent sent under
/// `<agent_id>/`, what it received under `<agent_id>/received/`, `TYPE_NNN.json` numbered from
/// 001 per agent, side and type in time order; each file the message as pretty JSON.
#[must_use]
pub fn layout(envelopes: &[Envelope]) -> Layout {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut counters: BTreeMap<(String, Side, &str), u32> = BTreeMap::new();
    for env in crate::session::in_time_order(envelopes) {
        let skip = |reason: &str| Skipped {
            entry: env.index,
            reason: reason.to_owned(),
        };
        let Some(m) = env.message() else {
            skipped.push(skip("not a valid protocol message"));
            continue;
        };
        if m.family != FamilyId::AgentPo {
            skipped.push(skip("not an Agent-PO message"));
            continue;
        }
        let Some(agent) = m.value.get("agent_id").and_then(Value::as_str) else {
            skipped.push(skip(
                "no agent_id (an ERROR reply): no agent directory to keep it in",
            ));
            continue;
        };
        let wire = m.message_type.split('@').next().unwrap_or(m.message_type);
        let side = side_of(m.message_type);
        let n = counters.entry((agent.to_owned(), side, wire)).or_insert(0);
        *n += 1;
        let path = match side {
            Side::Sent => format!("{agent}/{wire}_{n:03}.json"),
            Side::Received => format!("{agent}/{RECEIVED}/{wire}_{n:03}.json"),
        };
        let mut bytes = serde_json::to_vec_pretty(&m.value).unwrap_or_default();
        bytes.push(b'\n');
        files.push((path, bytes));
    }
    Layout { files, skipped }
}

/// A completed task whose messages are past retention at `now`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expired {
    /// The agent.
    pub agent_id: String,
    /// The task.
    pub task_id: String,
    /// When the NEXT_DIRECTIVE completed it.
    pub completed_at: Timestamp,
    /// Since when its messages may go: [`RETENTION_DAYS`] later.
    pub expired_at: Timestamp,
    /// The task's files.
    pub files: Vec<String>,
}

/// The files of tasks completed (NEXT_DIRECTIVE) more than [`RETENTION_DAYS`] before `now`.
/// Active tasks are kept until complete; blocked and terminated tasks are not completed, and
/// the seed sets them no retention, so they are kept.
#[must_use]
pub fn past_retention(log: &FactoryLog, book: &Book, now: Timestamp) -> Vec<Expired> {
    let mut out = Vec::new();
    for task in book.agent_po.tasks() {
        if task.status != Status::Completed {
            continue;
        }
        let completed_at = task
            .entries
            .iter()
            .filter_map(|&i| log.envelopes.get(i))
            .filter(|e| e.message_type() == Some("NEXT_DIRECTIVE"))
            .find_map(|e| e.at);
        let Some(completed_at) = completed_at else {
            continue;
        };
        let expired_at = completed_at.plus_minutes(RETENTION_DAYS * 24 * 60);
        if now < expired_at {
            continue;
        }
        let files = task
            .entries
            .iter()
            .filter_map(|&i| log.paths.get(i).cloned())
            .collect();
        out.push(Expired {
            agent_id: task.agent_id.clone(),
            task_id: task.task_id.clone(),
            completed_at,
            expired_at,
            files,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_the_layout() {
        assert_eq!(
            parse_name("GO_DIRECTIVE_001.json"),
            Some(("GO_DIRECTIVE", 1, 3))
        );
        assert_eq!(
            parse_name("PROGRESS_UPDATE_1234.json"),
            Some(("PROGRESS_UPDATE", 1234, 4))
        );
        for bad in [
            "GO_DIRECTIVE_01.json",
            "go_directive_001.json",
            "GO_DIRECTIVE_001.txt",
            "_001.json",
            "README.md",
        ] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
        assert_eq!(
            place("agent-7/received/GO_DIRECTIVE_001.json"),
            Some(("agent-7", Side::Received, "GO_DIRECTIVE_001.json"))
        );
        assert_eq!(place("agent-7/x/GO_DIRECTIVE_001.json"), None);
    }
}
