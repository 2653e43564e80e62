//! The review record: one per decision the console sends — who decided, the checkpoint, the
//! decision as typed, whether it overrode what the evidence showed (and why), the time the
//! reviewer saw, the SHA-256 of every artifact shown, and each message sent with the id the
//! server gave it — or a checkpoint that timed out, recorded as such. Records are chained and
//! signed into a project's review trail ([`super::trail`]) and exported as JSON Lines: the
//! audit trail the Pair Protocol's security section asks for ("All MCP mail messages are
//! logged with timestamps for post-session review").

use super::needs::Role;
use super::path::FolderPath;
use crate::fingerprint::Sha256Digest;
use crate::session::pair::checkpoint::Checkpoint;
use serde::{Deserialize, Serialize};

/// A decision sent, with what the reviewer saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewRecord {
    /// Who decided: the name the reviewer gave the console.
    pub reviewer: String,
    /// The Agent Mail project.
    pub project: String,
    /// The session.
    pub session: String,
    /// The checkpoint decided.
    pub checkpoint: Checkpoint,
    /// The decision as the seed writes it (`REVISE: add expiry tests`; empty when it timed out).
    pub decision: String,
    /// A decision as the evidence allowed it, one that overrode it, or none: a timeout.
    pub outcome: Outcome,
    /// When it was sent, in milliseconds since the Unix epoch (the console's clock).
    pub decided_at_ms: i64,
    /// That time as the reviewer saw it.
    pub decided_at: String,
    /// Every artifact shown with the decision form.
    pub artifacts: Vec<Shown>,
    /// The messages sent.
    pub sent: Vec<Sent>,
}

/// What kind of entry a record is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A reviewer's decision the evidence did not object to.
    Decided,
    /// An approval over what the evidence showed, with the reviewer's reason.
    Override {
        /// What the evidence showed.
        concerns: Vec<Concern>,
        /// Why the reviewer approved anyway, as typed.
        reason: String,
    },
    /// Nobody decided: the checkpoint timed out (the builder ended the session).
    TimedOut {
        /// The message that ended it.
        message: Option<u64>,
    },
}

/// Something the evidence showed that an approval overrides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Concern {
    /// Contract test files changed since the contract (the files).
    TamperedContract(Vec<String>),
    /// CRITICAL audit findings (each `file:line code`).
    CriticalFindings(Vec<String>),
    /// The build's tests did not all pass (the build's word for them).
    FailingTests(String),
    /// Evidence the review needs could not be read (what).
    MissingEvidence(String),
}

impl Concern {
    /// The concern in words.
    #[must_use]
    pub fn words(&self) -> String {
        match self {
            Concern::TamperedContract(files) => {
                format!("the contract was tampered with: {}", files.join(", "))
            }
            Concern::CriticalFindings(findings) => {
                format!("CRITICAL audit findings: {}", findings.join(", "))
            }
            Concern::FailingTests(result) => format!("the build's tests did not pass: {result}"),
            Concern::MissingEvidence(what) => format!("evidence is missing: {what}"),
        }
    }
}

impl Outcome {
    /// The outcome of a decision taken with `concerns` shown: only an approval overrides
    /// them, and an override needs a reason (`None`: none was given).
    #[must_use]
    pub fn of(approving: bool, concerns: Vec<Concern>, reason: &str) -> Option<Outcome> {
        if !approving || concerns.is_empty() {
            return Some(Outcome::Decided);
        }
        let reason = reason.trim();
        (!reason.is_empty()).then(|| Outcome::Override {
            concerns,
            reason: reason.to_owned(),
        })
    }
}

/// An artifact as shown when the decision was taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// The file in the linked folder.
    pub path: FolderPath,
    /// What it was to the review.
    pub role: Role,
    /// The SHA-256 of its bytes (absent when it was not read: missing, too large, unreadable).
    pub sha256: Option<Sha256Digest>,
}

/// A message the decision sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    /// The sender (the planner).
    pub from: String,
    /// The recipient.
    pub to: String,
    /// The subject (the message type).
    pub subject: String,
    /// The thread.
    pub thread_id: Option<String>,
    /// The body as sent.
    pub body_md: String,
    /// The id the server gave it.
    pub server_id: Option<u64>,
}

impl ReviewRecord {
    /// The record as one JSON line (no line break inside).
    #[must_use]
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a record back from its JSON line.
    ///
    /// # Errors
    /// The line is not a record.
    pub fn from_json_line(line: &str) -> Result<ReviewRecord, String> {
        serde_json::from_str(line).map_err(|e| e.to_string())
    }
}

/// Records as JSON Lines, in the order given, one per line, each line ended.
#[must_use]
pub fn json_lines<'a>(records: impl IntoIterator<Item = &'a ReviewRecord>) -> String {
    records.into_iter().fold(String::new(), |mut out, r| {
        out.push_str(&r.to_json_line());
        out.push('\n');
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::path::resolve;

    #[test]
    fn round_trips_as_json_lines() {
        let record = ReviewRecord {
            reviewer: "Ada".into(),
            project: "pair-lab".into(),
            session: "pair-101".into(),
            checkpoint: Checkpoint::ContractReview,
            decision: "APPROVED".into(),
            outcome: Outcome::Decided,
            decided_at_ms: 1_767_100_000_000,
            decided_at: "2025-12-30 13:06:40".into(),
            artifacts: vec![Shown {
                path: resolve("tmp/pair_1_tests.py").unwrap(),
                role: Role::Tests,
                sha256: Some(Sha256Digest::of(b"assert True\n")),
            }],
            sent: vec![Sent {
                from: "BlueLake".into(),
                to: "GreenCastle".into(),
                subject: "CONTRACT_FINAL".into(),
                thread_id: Some("pair-101".into()),
                body_md: "{\"phase\":\"CONTRACT_FINALIZED\"}\n".into(),
                server_id: Some(42),
            }],
        };
        let lines = json_lines([&record, &record]);
        assert_eq!(lines.lines().count(), 2);
        let first = lines.lines().next().unwrap();
        assert!(first.contains("\"checkpoint\":\"contract_review\""));
        assert!(first.contains(&Sha256Digest::of(b"assert True\n").to_string()));
        assert_eq!(ReviewRecord::from_json_line(first).unwrap(), record);
    }

    #[test]
    fn an_approval_over_concerns_needs_a_reason() {
        let tampered = || vec![Concern::TamperedContract(vec!["t.py".into()])];
        assert_eq!(Outcome::of(false, tampered(), ""), Some(Outcome::Decided));
        assert_eq!(Outcome::of(true, Vec::new(), ""), Some(Outcome::Decided));
        assert_eq!(Outcome::of(true, tampered(), "  "), None);
        assert_eq!(
            tampered()[0].words(),
            "the contract was tampered with: t.py"
        );
        assert_eq!(
            Outcome::of(true, tampered(), " hotfix, tests rewritten with the PO "),
            Some(Outcome::Override {
                concerns: tampered(),
                reason: "hotfix, tests rewritten with the PO".into()
            })
        );
    }
}
