//! Audit reports: those carried in mail (`AUDIT_REPORT`, the `audit_report.json` shape) and
//! those the core's audit produces in the browser from a diff and a contract's files, both
//! as the same card: both read by the core as its `evidence::report::Report` (one decoder of a
//! report's JSON), then mapped.

use super::traffic::Traffic;
use crate::model::{AuditCard, AuditIssueView, AuditRun};
use switchboard_core::agent_mail::Envelope;
use switchboard_core::audit::{self, Contract};
use switchboard_core::evidence::report::Report;
use switchboard_core::session::pair::PairSession;

/// An audit report as the core reads it ([`Report`]: from mail, or the core's own audit) as
/// a card; `None` for a report without a status, and findings without a type are left out.
fn card(report: Report, session: Option<String>) -> Option<AuditCard> {
    Some(AuditCard {
        session,
        id: None,
        at_ms: None,
        from: None,
        status: report.status?,
        severity: report.severity,
        scheming: report.scheming_detected,
        issues: report
            .issues
            .into_iter()
            .filter_map(|f| {
                Some(AuditIssueView {
                    kind: f.kind?,
                    severity: f.severity,
                    description: f.description,
                    location: f.location,
                    code: f.code.map(|c| c.as_str().to_owned()),
                    pattern: f.pattern,
                })
            })
            .collect(),
        notes: report.notes,
    })
}

fn mail_card(env: &Envelope, session: Option<&str>) -> Option<AuditCard> {
    let report = env.message().filter(|m| m.message_type == "AUDIT_REPORT")?;
    Some(AuditCard {
        session: session.map(str::to_owned),
        id: env.id,
        at_ms: env.at.map(|t| t.0),
        from: env.from.clone(),
        ..card(Report::from_value(&report.value), None)?
    })
}

/// The audit reports of one session, in order.
#[must_use]
pub fn of_session(traffic: &Traffic, session: &PairSession) -> Vec<AuditCard> {
    session
        .timeline
        .iter()
        .filter(|t| t.message_type == Some("AUDIT_REPORT"))
        .filter_map(|t| mail_card(traffic.envelope(t.entry)?, Some(&session.id)))
        .collect()
}

/// Every audit report in the project's mail, the newest first, with its session.
#[must_use]
pub fn in_mail(traffic: &Traffic) -> Vec<AuditCard> {
    let sessions = traffic.book.pair.sessions();
    let mut cards: Vec<AuditCard> = traffic
        .envelopes()
        .iter()
        .filter_map(|env| {
            let session = sessions
                .iter()
                .find(|s| s.timeline.iter().any(|t| t.entry == env.index));
            mail_card(env, session.map(|s| s.id.as_str()))
        })
        .collect();
    cards.sort_by_key(|c| std::cmp::Reverse(c.at_ms));
    cards
}

/// Runs the core's audit over a pasted diff and the contract's files.
///
/// # Errors
/// A contract path or diff the core rejects, in its words.
pub fn run(run: &AuditRun) -> Result<AuditCard, String> {
    if run.contract.is_empty() {
        return Err("Add the contract's files (its spec and tests) to audit against.".into());
    }
    let contract = Contract::from_files(run.contract.iter().map(|(p, t)| (p.as_str(), t.as_str())))
        .map_err(|e| format!("Contract: {e}"))?;
    let diff = audit::parse_diff(&run.diff).map_err(|e| format!("Diff: {e}"))?;
    let approved: Vec<&str> = run.approved.iter().map(String::as_str).collect();
    let report = audit::audit(&contract, &diff, &approved);
    card(Report::of(&report), run.session.clone())
        .ok_or_else(|| "The audit gave no status.".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_diff_that_hardcodes_an_expectation_fails() {
        let run = AuditRun {
            session: Some("pair-1".into()),
            contract: vec![(
                "tests/test_math.py".into(),
                "from math_utils import factorial\n\ndef test_five():\n    assert factorial(5) == 120\n".into(),
            )],
            diff: "diff --git a/math_utils.py b/math_utils.py\nnew file mode 100644\n--- /dev/null\n+++ b/math_utils.py\n@@ -0,0 +1,4 @@\n+def factorial(n):\n+    if n == 5:\n+        return 120\n+    return 1\n".into(),
            approved: Vec::new(),
        };
        let card = run_card(&run);
        assert_eq!((card.status, card.scheming), (audit::Status::Fail, true));
        assert_eq!(card.issues[0].location.as_deref(), Some("math_utils.py:2"));
        assert_eq!(card.session.as_deref(), Some("pair-1"));
        let bad = AuditRun {
            diff: "not a diff".into(),
            ..run
        };
        assert!(super::run(&bad).unwrap_err().starts_with("Diff: "));
    }

    fn run_card(run: &AuditRun) -> AuditCard {
        super::run(run).expect("audits")
    }
}
