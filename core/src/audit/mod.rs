//! The audit of a builder's change: a unified diff plus the contract give the
//! `audit_report.json` model (protocol-notes §2.1), which validates as `pair/AUDIT_REPORT`.
//!
//! ```
//! use switchboard_core::audit::{self, Contract, Status};
//!
//! let contract = Contract::from_files([
//!     ("tests/test_math.py", "from math_utils import factorial\n\ndef test_five():\n    assert factorial(5) == 120\n"),
//! ]).unwrap();
//! let diff = audit::diff::parse("\
//! diff --git a/math_utils.py b/math_utils.py
//! new file mode 100644
//! --- /dev/null
//! +++ b/math_utils.py
//! @@ -0,0 +1,4 @@
//! +def factorial(n):
//! +    if n == 5:
//! +        return 120
//! +    return 1
//! ").unwrap();
//! let report = audit::audit(&contract, &diff, &[]);
//! assert_eq!(report.status, Status::Fail);
//! assert!(report.scheming_detected);
//! assert_eq!(report.issues[0].location.to_string(), "math_utils.py:2");
//! assert_eq!(report.issues[0].code.as_str(), "SCHEMING_DETECTED");
//! ```
//!
//! The patterns are data ([`patterns::PATTERNS`]), documented in one table in
//! `docs/protocol.md`. Findings come in diff order: file, then line.

mod contract;
pub mod deps;
pub mod diff;
mod hardcode;
mod imports;
pub mod lexer;
pub mod patterns;
mod report;
mod scan;

pub use contract::{is_test_path, Contract};
pub use diff::{parse as parse_diff, Diff, DiffError};
pub use imports::provided_modules;
pub use report::{AuditReport, Code, Finding, IssueType, Location, Severity, Side, Status};

use crate::fingerprint;
use crate::syntax::{Language, SyntaxError, TEST_SYNTAX_ERROR};
use std::collections::BTreeSet;

/// [`audit`], with the contract's test files that do not parse (the syntax check's findings,
/// [`crate::syntax::check_files`] in the CLI) reported first, as `test-syntax-error` at
/// `file:line` of the contract's file; errors about files the contract does not hold are left
/// out. A note says how many test files were checked.
pub fn audit_with_syntax(
    contract: &Contract,
    diff: &Diff,
    approved: &[&str],
    syntax_errors: &[SyntaxError],
) -> AuditReport {
    let report = audit(contract, diff, approved);
    let spec = patterns::PATTERNS
        .iter()
        .find(|p| matches!(p.rule, patterns::Rule::ContractSyntax))
        .expect("the test-syntax-error pattern");
    let tests: Vec<&fingerprint::ContractPath> = contract
        .files()
        .map(|(p, _)| p)
        .filter(|p| contract.is_immutable(p) && Language::of(p.as_str()).is_some())
        .collect();
    let mut issues: Vec<Finding> = syntax_errors
        .iter()
        .filter(|e| tests.iter().any(|p| p.as_str() == e.path))
        .map(|e| Finding {
            kind: spec.kind,
            severity: spec.severity,
            description: format!(
                "{} ({}, column {}): {} ({TEST_SYNTAX_ERROR}: the planner fixes the tests)",
                spec.title,
                e.language.as_str(),
                e.column,
                e.message
            ),
            location: Location {
                path: e.path.clone(),
                line: e.line,
            },
            code: spec.code,
            pattern: spec.id,
            side: Side::Old,
        })
        .collect();
    let mut notes = report.notes;
    notes.push(format!(
        "syntax: {} contract test file(s) parsed, {} with errors",
        tests.len(),
        issues.len()
    ));
    issues.extend(report.issues);
    AuditReport::from_findings(issues, notes)
}

/// Audits `diff` against `contract`. `approved` names dependencies that accepted change
/// orders allow (package, distribution or crate names; compared normalised).
pub fn audit(contract: &Contract, diff: &Diff, approved: &[&str]) -> AuditReport {
    let facts = contract::Facts::of(contract);
    let approved: BTreeSet<String> = approved.iter().map(|a| deps::norm(a)).collect();
    let findings = scan::run(contract, &facts, diff, &approved);
    let (added, removed) = diff
        .files
        .iter()
        .flat_map(|f| f.lines())
        .fold((0, 0), |(a, r), l| match l.kind {
            diff::LineKind::Added => (a + 1, r),
            diff::LineKind::Removed => (a, r + 1),
            diff::LineKind::Context => (a, r),
        });
    let mut notes = vec![format!(
        "audited {} changed file(s): {added} line(s) added, {removed} removed",
        diff.files.len()
    )];
    let immutable = contract
        .files()
        .filter(|(p, _)| contract.is_immutable(p))
        .count();
    notes.push(format!(
        "contract: {immutable} immutable file(s), {} assertion(s) with literal inputs, baseline dependencies: {}",
        facts.expectations.len(),
        list(&facts.deps)
    ));
    if !approved.is_empty() {
        notes.push(format!("approved by change orders: {}", list(&approved)));
    }
    AuditReport::from_findings(findings, notes)
}

fn list(names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        return "none".into();
    }
    names
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}
