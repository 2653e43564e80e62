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

/// A project's traffic after a load.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrafficSummary {
    /// Messages held.
    pub messages: usize,
    /// Pair sessions found.
    pub sessions: usize,
    /// The newest `created_ts` held (to ask only for newer mail next time).
    pub newest: Option<String>,
    /// The open human checkpoints.
    pub open: Vec<OpenCheckpoint>,
}
