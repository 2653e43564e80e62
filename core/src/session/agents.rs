//! Senders and registered agents, over the whole log.
//!
//! - **Registered agents** (seed 000's error code INVALID_AGENT, "agent not registered in MCP
//!   mail"): given the agents registered on the server ([`Registry`]), a message from or to any
//!   other name is `invalid_agent`.
//! - **Authorized senders** (seed 004, Security 2: "agents should only accept messages from
//!   authorized senders"): the roles a message type requires of its sender, as data
//!   ([`SENDER_RULES`]). Pair and Agent-PO sessions check their own (the Pair transition table's
//!   `Sender`, Agent-PO's directive side) as they fold; the rules here cover the droid and Pair
//!   Claude flows, which have no session of their own to hold a role.
//! - **Droid messages' identity and addressing** (seed 004, Common Fields and Task Assignment):
//!   the `timestamp` is in UTC, no two messages share a `message_id`, and a `task_assignment`
//!   goes to another agent than its sender.

use crate::agent_mail::Envelope;
use crate::protocol::FamilyId;
use crate::session::violation::{Mark, Violation, ViolationCode};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The agents registered on the Agent Mail server (names compare exactly: the seed's
/// troubleshooting says agent ids are case-sensitive).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Registry {
    names: BTreeSet<String>,
}

/// Why an agents list could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentsError {
    /// The text is not JSON.
    NotJson(String),
    /// The JSON is not a list of agents (names, or objects with a `name`).
    NotAList(&'static str),
    /// An entry is neither a name nor an object with a string `name`.
    BadEntry {
        /// Its position.
        index: usize,
        /// What it is.
        found: &'static str,
    },
    /// A name is empty.
    EmptyName,
}

impl std::fmt::Display for AgentsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AgentsError::NotJson(e) => write!(f, "not JSON: {e}"),
            AgentsError::NotAList(found) => write!(
                f,
                "not a list of agents (a JSON array of names or of {{\"name\": …}} objects, or \
                 {{\"agents\": [...]}}): found {found}"
            ),
            AgentsError::BadEntry { index, found } => write!(
                f,
                "agent {index} is {found}, not a name or an object with a string \"name\""
            ),
            AgentsError::EmptyName => write!(f, "an agent name is empty"),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Registry {
    /// The registry of these names.
    ///
    /// # Errors
    /// [`AgentsError::EmptyName`] for an empty (or blank) name.
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Result<Registry, AgentsError> {
        let mut set = BTreeSet::new();
        for n in names {
            let n = n.as_ref().trim();
            if n.is_empty() {
                return Err(AgentsError::EmptyName);
            }
            set.insert(n.to_owned());
        }
        Ok(Registry { names: set })
    }

    /// A comma-separated list (`--agents alice,bob`).
    ///
    /// # Errors
    /// An empty name (`alice,,bob`).
    pub fn parse_list(text: &str) -> Result<Registry, AgentsError> {
        Registry::new(text.split(','))
    }

    /// An agents file: a JSON array of names, of objects with a `name` (Agent Mail's agent
    /// rows, `register_agent` results), or either under `agents` / `result`.
    ///
    /// # Errors
    /// Text that is not JSON, JSON that is not such a list, an entry without a name.
    pub fn from_json(bytes: &[u8]) -> Result<Registry, AgentsError> {
        let v: Value =
            serde_json::from_slice(bytes).map_err(|e| AgentsError::NotJson(e.to_string()))?;
        let list = match &v {
            Value::Array(items) => items,
            Value::Object(o) => match o.get("agents").or_else(|| o.get("result")) {
                Some(Value::Array(items)) => items,
                _ => return Err(AgentsError::NotAList("an object without an agents array")),
            },
            other => return Err(AgentsError::NotAList(kind(other))),
        };
        let mut names = Vec::with_capacity(list.len());
        for (index, item) in list.iter().enumerate() {
            let name = match item {
                Value::String(s) => s.as_str(),
                Value::Object(o) => match o.get("name") {
                    Some(Value::String(s)) => s.as_str(),
                    _ => {
                        return Err(AgentsError::BadEntry {
                            index,
                            found: "an object without a string \"name\"",
                        })
                    }
                },
                other => {
                    return Err(AgentsError::BadEntry {
                        index,
                        found: kind(other),
                    })
                }
            };
            names.push(name);
        }
        Registry::new(names)
    }

    /// Whether `name` is registered.
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The registered names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }
}

/// A role a message type requires of its sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SenderRole {
    /// An agent the droid task was assigned to (a recipient of its `task_assignment`), when
    /// the assignment named any.
    Assignee,
    /// An assignee, or the agent that assigned the task: an error report may also answer an
    /// invalid message (seed 004, Error Handling: receivers notify the sender via
    /// `error_report`), and the assigner receives the assignees' reports.
    TaskParty,
    /// The sender its own message names (droid `sender_id`).
    SelfNamed,
    /// The agent that plays the navigator in the Pair Claude flow (the first to send a
    /// navigator's message).
    Navigator,
    /// The agent that plays the driver.
    Driver,
}

/// One sender rule: a family's message types and the role their sender must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SenderRule {
    /// The family.
    pub family: FamilyId,
    /// Registry type names (`*`: every type of the family).
    pub types: &'static [&'static str],
    /// The role.
    pub role: SenderRole,
    /// Where the seeds say so.
    pub seed: &'static str,
}

/// The sender rules the session engine applies beside the Pair and Agent-PO folds.
pub static SENDER_RULES: &[SenderRule] = &[
    SenderRule {
        family: FamilyId::Droid,
        types: &["*"],
        role: SenderRole::SelfNamed,
        seed: "004 Common Fields (sender_id: name of the sending agent); Security 1-2",
    },
    SenderRule {
        family: FamilyId::Droid,
        types: &["task_completion", "status_update"],
        role: SenderRole::Assignee,
        seed: "004 Task Assignment (delegate a task from one agent to another); Security 2",
    },
    SenderRule {
        family: FamilyId::Droid,
        types: &["error_report"],
        role: SenderRole::TaskParty,
        seed: "004 Task Assignment; Error Handling (notify sender via error_report); Security 2",
    },
    SenderRule {
        family: FamilyId::PairClaude,
        types: &[
            "navigatorApprove",
            "navigatorDeny",
            "navigatorCodeReview",
            "NavigatorCommand",
        ],
        role: SenderRole::Navigator,
        seed: "003 Navigator tools (navigatorApprove, navigatorDeny, navigatorCodeReview)",
    },
    SenderRule {
        family: FamilyId::PairClaude,
        types: &[
            "driverRequestReview",
            "driverRequestGuidance",
            "DriverCommand",
            "PermissionRequest",
        ],
        role: SenderRole::Driver,
        seed: "003 Driver tools (driverRequestReview, driverRequestGuidance); Permission Flow",
    },
];

/// Whether `rule` covers a message of `family` and registry type `kind`.
fn covers(rule: &SenderRule, family: FamilyId, kind: &str) -> bool {
    let wire = kind.split('@').next().unwrap_or(kind);
    rule.family == family && rule.types.iter().any(|t| *t == "*" || *t == wire)
}

/// The senders' and recipients' checks over a log (fed in time order).
#[derive(Debug, Clone, Default)]
pub struct AgentBook {
    /// The registered agents, when known.
    pub registry: Option<Registry>,
    /// Every violation found, in log order.
    pub violations: Vec<Violation>,
    /// Droid tasks' assigner and assignees, by task id.
    assignees: BTreeMap<String, (Option<String>, Vec<String>)>,
    /// Who plays each Pair Claude role.
    pair_claude: BTreeMap<&'static str, String>,
    /// Each droid `message_id` seen, with the message that used it first.
    message_ids: HashMap<String, Mark>,
}

impl AgentBook {
    /// A book checking senders and recipients against `registry` (none: names are not checked).
    #[must_use]
    pub fn new(registry: Option<Registry>) -> AgentBook {
        AgentBook {
            registry,
            ..AgentBook::default()
        }
    }

    /// Folds one envelope; returns the violations it caused.
    pub fn observe(&mut self, env: &Envelope) -> Vec<Violation> {
        let mut found = Vec::new();
        if let Some(registry) = &self.registry {
            let mut unknown = Vec::new();
            if let Some(f) = env.from.as_deref().filter(|f| !registry.contains(f)) {
                unknown.push(format!("sender {f}"));
            }
            for t in env.to.iter().filter(|t| !registry.contains(t)) {
                unknown.push(format!("recipient {t}"));
            }
            if !unknown.is_empty() {
                found.push(Violation::at(
                    ViolationCode::InvalidAgent,
                    env,
                    format!(
                        "{} is not a registered agent (INVALID_AGENT)",
                        unknown.join(", ")
                    ),
                ));
            }
        }
        if let Some(m) = env.message() {
            found.extend(self.sender_rules(env, m.family, m.message_type, &m.value));
        }
        if env.family() == Some(FamilyId::Droid) {
            found.extend(self.droid_identity(env));
        }
        self.violations.extend(found.iter().cloned());
        found
    }

    /// A droid message's time zone, message id and recipients (seed 004): a valid message's
    /// `timestamp` in another offset than UTC is `bad_value`; a `message_id` an earlier message
    /// used (valid or not; the same transport message seen twice is not a second use) is
    /// `duplicate_id`; a `task_assignment` whose recipients are only its sender is
    /// `wrong_recipient` (one with no recipients is not judged).
    fn droid_identity(&mut self, env: &Envelope) -> Vec<Violation> {
        let mut out = Vec::new();
        if let Some(m) = env.message() {
            let stamp = m.value.get("timestamp").and_then(Value::as_str);
            if let Some(stamp) = stamp.filter(|t| !is_utc(t)) {
                out.push(Violation::at(
                    ViolationCode::BadValue,
                    env,
                    format!(
                        "timestamp {stamp} is not in UTC (Common Fields: 'When message was created (UTC)')"
                    ),
                ));
            }
            if m.message_type == "coordination_request" {
                out.extend(coordination(env, &m.value));
            }
            if m.message_type == "task_assignment" {
                let from = env.from.as_deref();
                if !env.to.is_empty() && env.to.iter().all(|t| Some(t.as_str()) == from) {
                    out.push(Violation::at(
                        ViolationCode::WrongRecipient,
                        env,
                        format!(
                            "task_assignment for {} goes only to its sender {} (Task Assignment: 'Delegate a task from one agent to another')",
                            m.value.get("task_id").and_then(Value::as_str).unwrap_or("?"),
                            from.unwrap_or_default()
                        ),
                    ));
                }
            }
        }
        let id = env
            .value()
            .and_then(|v| v.get("message_id"))
            .and_then(Value::as_str);
        if let Some(id) = id {
            match self.message_ids.get(id) {
                Some(first) if env.id.is_none() || first.id() != env.id => {
                    out.push(Violation::at(
                        ViolationCode::DuplicateId,
                        env,
                        format!(
                            "message_id {id} was already used by {} (Common Fields: 'Unique identifier')",
                            first.reference()
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    self.message_ids.insert(id.to_owned(), Mark::of(env));
                }
            }
        }
        out
    }

    fn sender_rules(
        &mut self,
        env: &Envelope,
        family: FamilyId,
        kind: &str,
        v: &Value,
    ) -> Vec<Violation> {
        let mut out = Vec::new();
        if family == FamilyId::Droid && kind == "task_assignment" {
            if let Some(task) = v.get("task_id").and_then(Value::as_str) {
                self.assignees
                    .insert(task.to_owned(), (env.from.clone(), env.to.clone()));
            }
        }
        let Some(from) = env.from.as_deref() else {
            return out;
        };
        for rule in SENDER_RULES.iter().filter(|r| covers(r, family, kind)) {
            let wrong = match rule.role {
                SenderRole::SelfNamed => v
                    .get("sender_id")
                    .and_then(Value::as_str)
                    .filter(|named| *named != from)
                    .map(|named| format!("{kind} names sender_id {named} but was sent by {from}")),
                SenderRole::Assignee | SenderRole::TaskParty => {
                    let task = v.get("task_id").and_then(Value::as_str);
                    let assigner = rule.role == SenderRole::TaskParty;
                    task.and_then(|t| self.assignees.get(t).map(|a| (t, a)))
                        .filter(|(_, (by, _))| !(assigner && by.as_deref() == Some(from)))
                        .map(|(t, (_, a))| (t, a))
                        .filter(|(_, a)| !a.is_empty() && !a.iter().any(|x| x == from))
                        .map(|(t, a)| {
                            format!(
                                "{kind} for {t} from {from}, who was not assigned it (assignees: {})",
                                a.join(", ")
                            )
                        })
                }
                SenderRole::Navigator | SenderRole::Driver => {
                    let (mine, theirs) = match rule.role {
                        SenderRole::Navigator => ("navigator", "driver"),
                        _ => ("driver", "navigator"),
                    };
                    if self.pair_claude.get(theirs).map(String::as_str) == Some(from) {
                        Some(format!(
                            "{kind} is the {mine}'s, but {from} plays the {theirs}"
                        ))
                    } else {
                        self.pair_claude
                            .entry(mine)
                            .or_insert_with(|| from.to_owned());
                        None
                    }
                }
            };
            if let Some(message) = wrong {
                out.push(Violation::at(ViolationCode::WrongRole, env, message));
            }
        }
        out
    }
}

/// Whether an RFC 3339 time is written in UTC: `Z`, `z`, `+00:00` or `-00:00`.
/// A coordination request is "between multiple agents": it names at least two participants,
/// and (when the mail shows its recipients) goes to each participant but its sender.
fn coordination(env: &Envelope, v: &Value) -> Vec<Violation> {
    let participants: Vec<&str> = v
        .get("participants")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    if participants.len() < 2 {
        out.push(Violation::at(
            ViolationCode::Missing,
            env,
            format!(
                "coordination_request names {} participant(s) (Coordination Request: 'Request coordination between multiple agents')",
                participants.len()
            ),
        ));
    }
    let from = env.from.as_deref();
    let unreached: Vec<&str> = participants
        .iter()
        .copied()
        .filter(|p| Some(*p) != from && !env.to.iter().any(|t| t == p))
        .collect();
    if !env.to.is_empty() && !unreached.is_empty() {
        out.push(Violation::at(
            ViolationCode::WrongRecipient,
            env,
            format!(
                "coordination_request does not go to its participants {}",
                unreached.join(", ")
            ),
        ));
    }
    out
}

fn is_utc(time: &str) -> bool {
    time.ends_with(['Z', 'z']) || time.ends_with("+00:00") || time.ends_with("-00:00")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_files() {
        for ok in [
            &br#"["alice", "bob"]"#[..],
            br#"[{"name": "alice", "program": "claude-code"}, {"name": "bob"}]"#,
            br#"{"agents": ["alice", "bob"]}"#,
            br#"{"result": [{"name": "alice"}, "bob"]}"#,
        ] {
            let r = Registry::from_json(ok).unwrap();
            assert_eq!(r.names().collect::<Vec<_>>(), ["alice", "bob"]);
        }
        for (bad, why) in [
            (&b"alice,bob"[..], "not JSON"),
            (b"{\"alice\": 1}", "not a list"),
            (b"\"alice\"", "not a list"),
            (b"[\"alice\", 7]", "agent 1 is a number"),
            (b"[{\"id\": 1}]", "agent 0 is an object without"),
            (b"[\"\"]", "empty"),
        ] {
            let e = Registry::from_json(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        }
        assert!(Registry::parse_list("alice,,bob").is_err());
        assert!(Registry::parse_list("alice, bob").unwrap().contains("bob"));
    }
}
