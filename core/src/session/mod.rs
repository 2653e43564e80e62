//! Sessions: the rules over time that the protocols describe, as pure folds over
//! [`Envelope`]s. Time is an argument (`now`), never read from a
//! clock.
//!
//! - [`pair`]: Pair Protocol sessions: phases, human checkpoints, change orders, timeouts.
//! - [`agent_po`]: Agent-PO tasks: the agent lifecycle, GO / NEXT gates, revision and retry limits.
//! - [`tasks`]: the droid task board: status, error reports, dependencies, reservation conflicts.
//! - [`pair_claude`]: Pair Claude permission and review requests.
//! - [`ack`]: acknowledgement debt per agent.
//! - [`Book`]: all of them over one log, printed as sessions and boards.

pub mod ack;
pub mod agent_po;
pub mod agents;
pub mod attribution;
mod book;
mod fields;
pub mod pair;
pub mod pair_claude;
pub mod tasks;
pub mod violation;

pub use attribution::attribute;
pub use book::{AgentPoView, Boards, Book, SessionView};

/// The result of folding one message: the next state and the violation, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Step<S> {
    /// The state after the message.
    pub state: S,
    /// The rule the message broke, if it broke one.
    pub violation: Option<violation::Violation>,
}

use crate::agent_mail::Envelope;
use crate::time::Timestamp;

/// The envelopes in time order: by time, a message without one taking the time of the message
/// before it in the log, ties in log order.
#[must_use]
pub fn in_time_order(envelopes: &[Envelope]) -> Vec<&Envelope> {
    let mut last = Timestamp(i64::MIN);
    let mut keyed: Vec<(Timestamp, &Envelope)> = envelopes
        .iter()
        .map(|e| {
            last = e.at.unwrap_or(last);
            (last, e)
        })
        .collect();
    keyed.sort_by_key(|(at, e)| (*at, e.index));
    keyed.into_iter().map(|(_, e)| e).collect()
}
