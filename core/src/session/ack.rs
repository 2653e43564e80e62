//! Acknowledgement debt: per agent, the `ack_required` messages still waiting for its
//! acknowledgement and how old the oldest is.

use crate::agent_mail::Envelope;
use crate::time::Timestamp;
use serde::Serialize;
use std::collections::BTreeMap;

/// One agent's acknowledgement debt at a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AckDebt {
    /// The agent.
    pub agent: String,
    /// How many messages wait for its acknowledgement.
    pub waiting: usize,
    /// When the oldest of them was sent.
    pub oldest_at: Option<Timestamp>,
    /// How long the oldest has waited at `now`, in milliseconds.
    pub oldest_age_ms: Option<i64>,
    /// Their transport ids (or log positions when there is none), oldest first.
    pub messages: Vec<String>,
}

/// The unacknowledged `ack_required` messages per recipient.
#[derive(Debug, Clone, Default)]
pub struct AckLedger {
    waiting: BTreeMap<String, Vec<(Option<Timestamp>, String)>>,
}

impl AckLedger {
    /// Records an envelope (every family, plain mail included).
    pub fn observe(&mut self, env: &Envelope) {
        if !env.ack_required || env.acknowledged {
            return;
        }
        for agent in &env.to {
            let reference = env
                .id
                .map_or_else(|| format!("entry {}", env.index + 1), |id| id.to_string());
            self.waiting
                .entry(agent.clone())
                .or_default()
                .push((env.at, reference));
        }
    }

    /// Each agent's debt at `now`, the largest debt first (then by name).
    #[must_use]
    pub fn debts(&self, now: Timestamp) -> Vec<AckDebt> {
        let mut out: Vec<AckDebt> = self
            .waiting
            .iter()
            .map(|(agent, msgs)| {
                let mut msgs = msgs.clone();
                msgs.sort();
                let oldest_at = msgs.iter().find_map(|(at, _)| *at);
                AckDebt {
                    agent: agent.clone(),
                    waiting: msgs.len(),
                    oldest_at,
                    oldest_age_ms: oldest_at.map(|at| (now.0 - at.0).max(0)),
                    messages: msgs.into_iter().map(|(_, r)| r).collect(),
                }
            })
            .collect();
        out.sort_by(|a, b| {
            b.waiting
                .cmp(&a.waiting)
                .then_with(|| a.agent.cmp(&b.agent))
        });
        out
    }
}
