//! A project's traffic as the store and the engine name it: which project, and what the
//! engine holds of it after a load.

use super::checkpoints::OpenCheckpoint;
use crate::routes::Source;
use serde::{Deserialize, Serialize};

/// Which project's traffic: `demo` or `live`, and the project slug.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TrafficKey {
    /// The demo or the connected server.
    pub src: Source,
    /// The project slug.
    pub project: String,
}

/// How much of a project's mail the engine holds after a load: pages of a read arrive
/// newest first, so what is held is every message after a time, and some older ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coverage {
    /// All of it (as far as the server returns it), with its acknowledgements: the read is
    /// over.
    Whole,
    /// Still being read: every message sent after this `created_ts` (`None`: every message)
    /// and some older ones; acknowledgements not known yet.
    Reading(Option<String>),
}

/// A project's traffic after a load.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrafficSummary {
    /// Messages held.
    pub messages: usize,
    /// Pair sessions found.
    pub sessions: usize,
    /// The newest `created_ts` held (to ask only for newer mail next time).
    pub newest: Option<String>,
    /// The open human checkpoints (of sessions read in full).
    pub open: Vec<OpenCheckpoint>,
    /// The load was newer mail that does not continue what was held (an id the server gave
    /// before the newest held, or a registered agent gone): the server's mail is another.
    /// Nothing of it was loaded.
    pub mismatch: bool,
}
