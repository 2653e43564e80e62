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

/// How much of a project's mail the engine holds after a load. A read takes the mailboxes
/// one after the other, each newest first, so what is held of a mailbox is every message
/// sent to it after a time (and some older ones).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coverage {
    /// All of it (as far as the server returns it), with its acknowledgements: the read is
    /// over.
    Whole,
    /// Still being read; acknowledgements not known yet. Per mailbox read so far (an agent's
    /// inbox): the `created_ts` after which every message sent to it is held, or `None` when
    /// all of it is. A mailbox not named is not read yet.
    Reading(Vec<(String, Option<String>)>),
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
    /// Whether it holds the whole of a read (none is still arriving).
    pub whole: bool,
    /// The load was newer mail that does not continue what was held (an id the server gave
    /// before the newest held, or a registered agent gone): the server's mail is another.
    /// Nothing of it was loaded.
    pub mismatch: bool,
    /// The load changed what is held (false: every message of the page was held already, as
    /// it is; the views have nothing to redraw).
    pub changed: bool,
}
