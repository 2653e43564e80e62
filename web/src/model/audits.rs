//! Audit reports, carried in mail or run in the browser, and an audit to run.

use serde::{Deserialize, Serialize};
use switchboard_core::audit::{IssueType, Severity, Status};

/// One finding of an audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditIssueView {
    /// Integrity, safety or quality.
    pub kind: IssueType,
    /// How bad (`None`: the lenient `NONE`).
    pub severity: Option<Severity>,
    /// What was found.
    pub description: String,
    /// `file:line`.
    pub location: Option<String>,
    /// The error code (`CONTRACT_TAMPERED`, …).
    pub code: Option<String>,
    /// The pattern that matched.
    pub pattern: Option<String>,
}

/// An audit report, carried in mail or run in the browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditCard {
    /// The session it belongs to.
    pub session: Option<String>,
    /// The message that carried it.
    pub id: Option<u64>,
    /// When it was sent.
    pub at_ms: Option<i64>,
    /// Who sent it.
    pub from: Option<String>,
    /// Pass or fail.
    pub status: Status,
    /// The worst severity (`None`: the lenient `NONE` of a report without findings).
    pub severity: Option<Severity>,
    /// Whether gaming patterns were found.
    pub scheming: bool,
    /// Each finding.
    pub issues: Vec<AuditIssueView>,
    /// The report's notes.
    pub notes: Vec<String>,
}

/// An audit to run in the browser: a diff against a contract's files.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AuditRun {
    /// The session whose contract it is (shown on the report).
    pub session: Option<String>,
    /// The contract's files: repository-relative path and text.
    pub contract: Vec<(String, String)>,
    /// The builder's change: `git diff` output or a unified diff.
    pub diff: String,
    /// Dependencies accepted change orders allow.
    pub approved: Vec<String>,
}
