//! What an approval would override: the concerns the evidence shows — a tampered contract,
//! CRITICAL audit findings, failing tests, missing evidence — from the mail (the checkpoint
//! queue's card) and from the files read of the project's folder (the evidence panel). An
//! approval over any of them asks for a reason and is recorded as an override (the core's
//! `evidence::record::Outcome::of`).

use crate::model::evidence::{EvidenceView, Shown};
use crate::model::AuditCard;
use switchboard_core::agent_mail::Envelope;
use switchboard_core::audit::{Code, Severity};
use switchboard_core::evidence::integrity::Verdict;
use switchboard_core::evidence::record::Concern;
use switchboard_core::evidence::Role;
use switchboard_core::session::pair::checkpoint::Checkpoint;
use switchboard_core::session::pair::{IntegrityStatus, PairSession};

/// The CRITICAL findings of audit reports, each `file:line code` (or its description).
fn critical(cards: &[AuditCard]) -> Option<Concern> {
    let findings: Vec<String> = cards
        .iter()
        .flat_map(|c| &c.issues)
        .filter(|i| i.severity == Some(Severity::Critical))
        .map(|i| match (&i.location, &i.code) {
            (Some(at), Some(code)) => format!("{at} {code}"),
            (Some(at), None) => at.clone(),
            _ => i.description.clone(),
        })
        .collect();
    (!findings.is_empty()).then_some(Concern::CriticalFindings(findings))
}

/// Contract test files the audit found not parsing: they cannot pass.
fn unparsed_tests(locations: impl Iterator<Item = Option<String>>) -> Option<Concern> {
    let files: Vec<String> = locations.map(Option::unwrap_or_default).collect();
    (!files.is_empty())
        .then(|| Concern::FailingTests(format!("test files do not parse ({})", files.join(", "))))
}

/// What the mail shows: the session's integrity as its audit reports found it, CRITICAL
/// findings of those reports and test files they found not parsing, and a build (the message
/// that opened checkpoint #2) that does not say its tests all pass.
#[must_use]
pub fn of_mail(
    session: &PairSession,
    audits: &[AuditCard],
    opening: Option<&Envelope>,
) -> Vec<Concern> {
    let mut out = Vec::new();
    if session.integrity.status == IntegrityStatus::Tampered {
        out.push(Concern::TamperedContract(session.integrity.files.clone()));
    }
    out.extend(critical(audits));
    out.extend(unparsed_tests(
        audits
            .iter()
            .flat_map(|c| &c.issues)
            .filter(|i| i.code.as_deref() == Some(Code::TestSyntaxError.as_str()))
            .map(|i| i.location.clone()),
    ));
    let results = opening.and_then(Envelope::value).and_then(|v| {
        v.get("body")?
            .get("test_results")?
            .as_str()
            .map(str::to_owned)
    });
    if let Some(results) = results.filter(|r| r != "ALL_PASS") {
        out.push(Concern::FailingTests(results));
    }
    out
}

/// What the folder's files show: the contract's integrity computed from them, the audit's
/// CRITICAL findings and test files it found not parsing (or no audit at implementation
/// review), and the artifacts the review needs that could not be read.
#[must_use]
pub fn of_evidence(view: &EvidenceView) -> Vec<Concern> {
    let mut out = Vec::new();
    if let Some(integrity) = view.integrity.as_ref() {
        if integrity.verdict == Verdict::Tampered {
            let files = integrity.tampered().map(|f| f.path.to_string()).collect();
            out.push(Concern::TamperedContract(files));
        }
    }
    let report = view.audit.as_ref().and_then(|a| a.report.as_ref());
    if let Some(report) = report {
        let findings: Vec<String> = report
            .issues
            .iter()
            .filter(|i| i.severity == Some(Severity::Critical))
            .map(|i| i.location.clone().unwrap_or_else(|| i.description.clone()))
            .collect();
        if !findings.is_empty() {
            out.push(Concern::CriticalFindings(findings));
        }
        out.extend(unparsed_tests(
            report
                .issues
                .iter()
                .filter(|i| i.code == Some(Code::TestSyntaxError))
                .map(|i| i.location.clone()),
        ));
    } else if view.checkpoint == Some(Checkpoint::ImplementationReview) {
        let note = view.audit.as_ref().and_then(|a| a.note.clone());
        out.push(Concern::MissingEvidence(
            note.unwrap_or_else(|| "no audit of the build".to_owned()),
        ));
    }
    let needed = |role: Role| {
        matches!(
            role,
            Role::Spec | Role::Tests | Role::SafetyReasoning | Role::Implementation
        )
    };
    for a in &view.artifacts {
        if needed(a.role) && a.shown == Shown::Nothing {
            out.push(Concern::MissingEvidence(
                a.note.clone().unwrap_or_else(|| a.written.clone()),
            ));
        }
    }
    out
}
