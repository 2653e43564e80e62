//! The checkpoint queue: each open human checkpoint with what the reviewer needs to decide.
//! The decisions it allows are the core's (`Checkpoint::decisions`).

use super::sessions::SessionRow;
use super::traffic::TrafficKey;
use super::Html;
use serde::{Deserialize, Serialize};
use switchboard_core::evidence::record::Concern;
use switchboard_core::session::pair::checkpoint::Checkpoint;

/// An open checkpoint in the queue, with what the reviewer needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointCard {
    /// Which checkpoint of which session, opened by which message of the log.
    pub at: OpenCheckpoint,
    /// The session.
    pub session: SessionRow,
    /// When it opened.
    pub opened_at_ms: Option<i64>,
    /// The message that opened it.
    pub opened_by: Option<u64>,
    /// That message's content as labelled values (artifacts, build result, evidence), as the
    /// engine wrote them.
    pub fields: Html,
    /// The change order under review (#3), as the engine wrote it.
    pub change_order: Option<Html>,
    /// The session's audit reports, as the engine wrote them.
    pub audits: Html,
    /// What the mail shows that an approval would override (a tampered contract, CRITICAL
    /// audit findings, failing tests); the folder's evidence may add more.
    pub concerns: Vec<Concern>,
}

/// What became of a checkpoint a reviewer is deciding, read back from the mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    /// Still open as shown: the decision may be sent.
    Open,
    /// Closed by exactly the decision being sent (its message id): a send whose reply was lost.
    Sent(u64),
    /// Decided elsewhere (another tab or reviewer), or timed out, in words: who, what, when.
    Closed(String),
}

/// A human checkpoint open in a Pair session: which, and the log entry of the message that
/// opened it (tells a checkpoint opened again apart).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCheckpoint {
    /// The session.
    pub session: String,
    /// Which checkpoint.
    pub checkpoint: Checkpoint,
    /// The log position of the message that opened it.
    pub entry: usize,
}

/// An open checkpoint in the server's queue: its project, its session's row (the checkpoint,
/// the task, the next timeout step) and when the message that opened it was sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Queued {
    /// The project.
    pub key: TrafficKey,
    /// The session.
    pub session: SessionRow,
    /// When the checkpoint opened.
    pub opened_at_ms: Option<i64>,
}
