//! Expected failures: a baseline keeps CI green for known gaps, and fails when a listed failure
//! now passes (a stale baseline: the gap is fixed, the list must say so), as the MCP
//! conformance suite and the A2A TCK do. An entry names a rule of the matrix, or a check (which
//! then stands for every rule it breaks).

use super::{AgentResult, RuleResult, Status};
use serde::Serialize;
use serde_json::Value;

/// One expected failure: a rule (or a check) of an agent (`*`: of any agent).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Expected {
    /// The agent, or `*`.
    pub agent: String,
    /// The rule's id, or a check's.
    pub id: String,
}

/// The expected failures.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    entries: Vec<Expected>,
}

/// Why a baseline file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineError {
    /// Not JSON.
    NotJson(String),
    /// Not a list of expected failures.
    NotAList,
    /// An entry is not `"agent:id"` or `{"agent": …, "rule" | "check": …}`.
    BadEntry(usize),
    /// An entry names no rule and no check.
    UnknownId(String),
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaselineError::NotJson(e) => write!(f, "not JSON: {e}"),
            BaselineError::NotAList => write!(
                f,
                "not a baseline: a JSON array (or {{\"expected_failures\": [...]}}) of \
                 \"agent:rule-id\" strings or {{\"agent\": …, \"rule\": …}} objects (a check id \
                 in place of a rule stands for the rules it breaks)"
            ),
            BaselineError::BadEntry(i) => write!(
                f,
                "entry {i} is not \"agent:rule-id\" or {{\"agent\": …, \"rule\": …}}"
            ),
            BaselineError::UnknownId(id) => write!(f, "no rule or check has the id {id:?}"),
        }
    }
}

impl Baseline {
    /// Reads a baseline: a JSON array (or `{"expected_failures": [...]}`) of `"agent:id"`
    /// strings or `{"agent": …, "rule": …}` objects (`"check"` also read), the id a rule's or a
    /// check's; the agent `*` matches any agent.
    ///
    /// # Errors
    /// Text that is not JSON or not such a list, or an id no rule and no check has.
    pub fn from_json(bytes: &[u8]) -> Result<Baseline, BaselineError> {
        let v: Value =
            serde_json::from_slice(bytes).map_err(|e| BaselineError::NotJson(e.to_string()))?;
        let list = match &v {
            Value::Array(items) => items,
            Value::Object(o) => match o.get("expected_failures") {
                Some(Value::Array(items)) => items,
                _ => return Err(BaselineError::NotAList),
            },
            _ => return Err(BaselineError::NotAList),
        };
        let mut entries = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            let (agent, check) = match item {
                Value::String(s) => s.rsplit_once(':').ok_or(BaselineError::BadEntry(i))?,
                Value::Object(o) => {
                    match (o.get("agent"), o.get("rule").or_else(|| o.get("check"))) {
                        (Some(Value::String(a)), Some(Value::String(c))) => {
                            (a.as_str(), c.as_str())
                        }
                        _ => return Err(BaselineError::BadEntry(i)),
                    }
                }
                _ => return Err(BaselineError::BadEntry(i)),
            };
            if super::rules::by_id(check).is_none() && super::checks::by_id(check).is_none() {
                return Err(BaselineError::UnknownId(check.to_owned()));
            }
            entries.push(Expected {
                agent: agent.to_owned(),
                id: check.to_owned(),
            });
        }
        Ok(Baseline { entries })
    }

    /// Compares the report's statuses with the baseline.
    #[must_use]
    pub fn compare(&self, agents: &[AgentResult]) -> BaselineResult {
        let names = |id: &str, r: &RuleResult| r.id == id || r.broken_by.contains(&id);
        let status = |agent: &str, id: &str| -> Option<Status> {
            agents
                .iter()
                .filter(|a| agent == "*" || a.agent == agent)
                .flat_map(|a| a.families.iter().flat_map(|f| &f.rules))
                .filter(|r| r.id == id || r.checks.contains(&id))
                .map(|r| {
                    if r.status == Status::Fail && !names(id, r) {
                        Status::Pass
                    } else {
                        r.status
                    }
                })
                .max()
        };
        let listed = |agent: &str, r: &RuleResult| {
            self.entries
                .iter()
                .any(|e| names(&e.id, r) && (e.agent == "*" || e.agent == agent))
        };
        let mut result = BaselineResult::default();
        for a in agents {
            for r in a.families.iter().flat_map(|f| &f.rules) {
                if r.status == Status::Fail {
                    let e = Expected {
                        agent: a.agent.clone(),
                        id: r.id.to_owned(),
                    };
                    if listed(&a.agent, r) {
                        result.expected.push(e);
                    } else {
                        result.new_failures.push(e);
                    }
                }
            }
        }
        for e in &self.entries {
            match status(&e.agent, &e.id) {
                Some(Status::Pass | Status::Warning) => result.stale.push(e.clone()),
                Some(Status::Fail) => {}
                Some(Status::NotApplicable | Status::NotTested) | None => {
                    result.unused.push(e.clone())
                }
            }
        }
        result
    }
}

/// A report against a baseline.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BaselineResult {
    /// Failures the baseline lists.
    pub expected: Vec<Expected>,
    /// Failures it does not list: the log does not conform.
    pub new_failures: Vec<Expected>,
    /// Listed failures that now pass (or only warn): the baseline is stale.
    pub stale: Vec<Expected>,
    /// Listed failures this log does not exercise (no such agent, or the rule does not apply to
    /// it or could not be tested): neither kept nor refuted, reported only.
    pub unused: Vec<Expected>,
}
