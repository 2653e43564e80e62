//! The review record: one per decision the console sends — the checkpoint, the decision as
//! typed, the time the reviewer saw, the SHA-256 of every artifact shown, and each message
//! sent with the id the server gave it. Kept per session and exported as JSON Lines: the
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
    /// The Agent Mail project.
    pub project: String,
    /// The session.
    pub session: String,
    /// The checkpoint decided.
    pub checkpoint: Checkpoint,
    /// The decision as the seed writes it (`REVISE: add expiry tests`).
    pub decision: String,
    /// When it was sent, in milliseconds since the Unix epoch (the console's clock).
    pub decided_at_ms: i64,
    /// That time as the reviewer saw it.
    pub decided_at: String,
    /// Every artifact shown with the decision form.
    pub artifacts: Vec<Shown>,
    /// The messages sent.
    pub sent: Vec<Sent>,
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
            project: "pair-lab".into(),
            session: "pair-101".into(),
            checkpoint: Checkpoint::ContractReview,
            decision: "APPROVED".into(),
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
}
