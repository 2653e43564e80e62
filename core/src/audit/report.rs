//! The `audit_report.json` model (protocol-notes §2.1; `pair/AUDIT_REPORT` in the registry).

use crate::fingerprint;
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// The report's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    /// No CRITICAL or MAJOR issue.
    Pass,
    /// At least one CRITICAL or MAJOR issue.
    Fail,
}

impl Status {
    /// Its name as it serializes (`PASS`, `FAIL`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
        }
    }
}

/// How bad an issue is; ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Severity {
    /// Style, docs, a discarded result: reported, does not fail the audit.
    Minor,
    /// A safety problem: fails the audit.
    Major,
    /// Gaming the contract: fails the audit.
    Critical,
}

impl Severity {
    /// The report's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Minor => "MINOR",
            Severity::Major => "MAJOR",
            Severity::Critical => "CRITICAL",
        }
    }
}

/// The audit report's issue `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IssueType {
    /// The contract is gamed (tampering, test detection, mocked assertions, hard-coding).
    Integrity,
    /// Safety nets removed or bypassed (dependencies, deleted checks, silent failures).
    Safety,
    /// Quality only.
    Quality,
}

impl IssueType {
    /// The report's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            IssueType::Integrity => "integrity",
            IssueType::Safety => "safety",
            IssueType::Quality => "quality",
        }
    }
}

/// A stable machine code per finding; the first three and the last are the seed's error codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    /// The builder changed a contract file (seed: "Builder modified test file").
    ContractTampered,
    /// A gaming pattern (seed: "Audit found gaming patterns").
    SchemingDetected,
    /// A dependency the contract does not allow (seed: "Unauthorized dependency added").
    DependencyViolation,
    /// A validation, authorization, assertion or raise was deleted.
    SafetyCheckRemoved,
    /// An error is swallowed without handling.
    SilentFailure,
    /// A contract test file does not parse (seed: "Tests have syntax errors").
    TestSyntaxError,
}

impl Code {
    /// The code as written in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::ContractTampered => fingerprint::CONTRACT_TAMPERED,
            Code::SchemingDetected => "SCHEMING_DETECTED",
            Code::DependencyViolation => "DEPENDENCY_VIOLATION",
            Code::SafetyCheckRemoved => "SAFETY_CHECK_REMOVED",
            Code::SilentFailure => "SILENT_FAILURE",
            Code::TestSyntaxError => crate::syntax::TEST_SYNTAX_ERROR,
        }
    }
}

/// Which side of the diff a line number counts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The new file (an added or context line).
    New,
    /// The old file (a removed line).
    Old,
}

/// Where a finding is: a file and a 1-based line (on the side [`Finding::side`] names).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// Repository-relative path (the new path for added lines, the old path for removed ones).
    pub path: String,
    /// 1-based line number.
    pub line: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path, self.line)
    }
}

impl Serialize for Location {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One audit issue. Serializes as the model's `{type, severity, description, location}` plus
/// the undeclared members `code`, `pattern` and `side`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// integrity, safety or quality.
    #[serde(rename = "type")]
    pub kind: IssueType,
    /// How bad.
    pub severity: Severity,
    /// What was found, naming the code it concerns.
    pub description: String,
    /// `file:line`.
    pub location: Location,
    /// Stable machine code.
    pub code: Code,
    /// The id of the pattern that fired (the table in `docs/protocol.md`).
    pub pattern: &'static str,
    /// Which side `location`'s line counts on.
    pub side: Side,
}

/// The `audit_report.json` model. Validates strictly as `pair/AUDIT_REPORT`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    /// FAIL when any issue is CRITICAL or MAJOR.
    pub status: Status,
    /// The worst issue's severity; MINOR when there is no issue (the seed's examples write
    /// `NONE`, which only lenient validation accepts).
    pub severity: Severity,
    /// An integrity pattern fired (tampering or gaming).
    pub scheming_detected: bool,
    /// Every finding, in diff order.
    pub issues: Vec<Finding>,
    /// What was audited.
    pub notes: Vec<String>,
}

impl AuditReport {
    /// Builds the verdict from the findings.
    pub(crate) fn from_findings(issues: Vec<Finding>, notes: Vec<String>) -> AuditReport {
        let severity = issues
            .iter()
            .map(|f| f.severity)
            .max()
            .unwrap_or(Severity::Minor);
        let failing = issues.iter().any(|f| f.severity >= Severity::Major);
        AuditReport {
            status: if failing { Status::Fail } else { Status::Pass },
            severity,
            scheming_detected: issues.iter().any(|f| f.kind == IssueType::Integrity),
            issues,
            notes,
        }
    }
}
