//! Expected failures: a baseline keeps CI green for known gaps, and fails when a listed failure
//! now passes (a stale baseline: the gap is fixed, the list must say so), as the MCP
//! conformance suite and the A2A TCK do.

use super::{AgentResult, Status};
use serde::Serialize;
use serde_json::Value;

/// One expected failure: a check of an agent (`*`: of any agent).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Expected {
    /// The agent, or `*`.
    pub agent: String,
    /// The check's id.
    pub check: String,
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
    /// An entry is not `"agent:check"` or `{"agent": …, "check": …}`.
    BadEntry(usize),
    /// An entry names a check that does not exist.
    UnknownCheck(String),
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaselineError::NotJson(e) => write!(f, "not JSON: {e}"),
            BaselineError::NotAList => write!(
                f,
                "not a baseline: a JSON array (or {{\"expected_failures\": [...]}}) of \
                 \"agent:check-id\" strings or {{\"agent\": …, \"check\": …}} objects"
            ),
            BaselineError::BadEntry(i) => write!(
                f,
                "entry {i} is not \"agent:check-id\" or {{\"agent\": …, \"check\": …}}"
            ),
            BaselineError::UnknownCheck(id) => write!(f, "no check has the id {id:?}"),
        }
    }
}

impl Baseline {
    /// Reads a baseline: a JSON array (or `{"expected_failures": [...]}`) of
    /// `"agent:check-id"` strings or `{"agent": …, "check": …}` objects; the agent `*` matches
    /// any agent.
    ///
    /// # Errors
    /// Text that is not JSON or not such a list, or an id no check has.
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
                Value::Object(o) => match (o.get("agent"), o.get("check")) {
                    (Some(Value::String(a)), Some(Value::String(c))) => (a.as_str(), c.as_str()),
                    _ => return Err(BaselineError::BadEntry(i)),
                },
                _ => return Err(BaselineError::BadEntry(i)),
            };
            if !super::CHECKS.iter().any(|c| c.id == check) {
                return Err(BaselineError::UnknownCheck(check.to_owned()));
            }
            entries.push(Expected {
                agent: agent.to_owned(),
                check: check.to_owned(),
            });
        }
        Ok(Baseline { entries })
    }

    /// Compares the report's statuses with the baseline.
    #[must_use]
    pub fn compare(&self, agents: &[AgentResult]) -> BaselineResult {
        let status = |agent: &str, check: &str| -> Option<Status> {
            agents
                .iter()
                .filter(|a| agent == "*" || a.agent == agent)
                .flat_map(|a| a.families.iter().flat_map(|f| &f.checks))
                .filter(|c| c.id == check)
                .map(|c| c.status)
                .max()
        };
        let listed = |agent: &str, check: &str| {
            self.entries
                .iter()
                .any(|e| e.check == check && (e.agent == "*" || e.agent == agent))
        };
        let mut result = BaselineResult::default();
        for a in agents {
            for c in a.families.iter().flat_map(|f| &f.checks) {
                if c.status == Status::Fail {
                    let e = Expected {
                        agent: a.agent.clone(),
                        check: c.id.to_owned(),
                    };
                    if listed(&a.agent, c.id) {
                        result.expected.push(e);
                    } else {
                        result.new_failures.push(e);
                    }
                }
            }
        }
        for e in &self.entries {
            match status(&e.agent, &e.check) {
                Some(Status::Pass | Status::Warning) => result.stale.push(e.clone()),
                Some(Status::Fail) => {}
                Some(Status::NotApplicable) | None => result.unused.push(e.clone()),
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
    /// Listed failures this log does not exercise (no such agent, or the check does not apply
    /// to it): neither kept nor refuted, reported only.
    pub unused: Vec<Expected>,
}
