//! A project's traffic: its messages as the core's envelopes (decoded and validated once)
//! folded into the core's session book. New mail that is not older than what was folded is
//! folded incrementally; older mail makes the book replay the whole log in time order. Given
//! the agents registered on the server, the book checks every sender and recipient against
//! them (`INVALID_AGENT`); a changed list replays the log.

use crate::api::{MailRow, OpenCheckpoint};
use crate::model::TrafficSummary;
use std::collections::{BTreeMap, HashMap};
use switchboard_core::agent_mail::Envelope;
use switchboard_core::evidence::trail::is_trail_message;
use switchboard_core::protocol::Options;
use switchboard_core::session::agents::Registry;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::{in_time_order, Book};
use switchboard_core::time::Timestamp;

/// A project's envelopes and their book.
#[derive(Default)]
pub struct Traffic {
    envelopes: Vec<Envelope>,
    by_id: HashMap<u64, usize>,
    /// Every session and board.
    pub book: Book,
    latest: Option<Timestamp>,
    newest: Option<(Timestamp, String)>,
    registry: Option<Registry>,
    /// The review trail's messages (`engine::trail`), by id: kept out of the protocol log.
    trail: BTreeMap<u64, String>,
}

impl Traffic {
    /// Adds messages not loaded yet; `agents`, when known, are the registered agents.
    pub fn load(&mut self, rows: Vec<MailRow>, agents: Option<Vec<String>>) {
        // Names the server lists are never blank; one that is cannot be checked against.
        let registry = agents.and_then(|names| Registry::new(names).ok());
        let replay = registry.is_some() && registry != self.registry;
        if replay {
            self.registry = registry;
        }
        let start = self.envelopes.len();
        for row in rows {
            if self.by_id.contains_key(&row.id) || self.trail.contains_key(&row.id) {
                continue;
            }
            let index = self.envelopes.len();
            let env = Envelope::from_row(index, &row, &Options::default());
            if let Some(at) = env.at {
                if self.newest.as_ref().is_none_or(|(t, _)| at > *t) {
                    self.newest = Some((at, row.created_ts.clone()));
                }
            }
            if is_trail_message(&row.from, &row.subject) {
                self.trail.insert(row.id, row.body_md);
                continue;
            }
            self.by_id.insert(row.id, index);
            self.envelopes.push(env);
        }
        let fresh = &self.envelopes[start..];
        let in_order = fresh
            .iter()
            .all(|e| e.at.is_none_or(|at| self.latest.is_none_or(|l| at >= l)));
        if in_order && !replay {
            for env in in_time_order(fresh) {
                self.book.observe(env);
            }
        } else {
            let book = Book::new(PairClaudeConfig::default());
            let book = match &self.registry {
                Some(registry) => book.with_agents(registry.clone()),
                None => book,
            };
            self.book = book.replayed(&self.envelopes);
        }
        self.latest = self.latest.max(fresh.iter().filter_map(|e| e.at).max());
    }

    /// The envelope at a log position.
    #[must_use]
    pub fn envelope(&self, entry: usize) -> Option<&Envelope> {
        self.envelopes.get(entry)
    }

    /// The registered agents, when known.
    #[must_use]
    pub fn registry(&self) -> Option<&Registry> {
        self.registry.as_ref()
    }

    /// The log position of a transport id.
    #[must_use]
    pub fn entry_of(&self, id: u64) -> Option<usize> {
        self.by_id.get(&id).copied()
    }

    /// The review trail's lines as the mail holds them, in message id order.
    pub fn trail(&self) -> impl Iterator<Item = &str> {
        self.trail.values().map(String::as_str)
    }

    /// Every envelope, in load order.
    #[must_use]
    pub fn envelopes(&self) -> &[Envelope] {
        &self.envelopes
    }

    /// What the UI keeps of a load.
    #[must_use]
    pub fn summary(&self) -> TrafficSummary {
        let sessions = self.book.pair.sessions();
        TrafficSummary {
            messages: self.envelopes.len(),
            sessions: sessions.len(),
            newest: self.newest.as_ref().map(|(_, text)| text.clone()),
            open: sessions
                .iter()
                .filter_map(|s| {
                    let record = s.checkpoints.last()?;
                    s.open_checkpoint().map(|c| OpenCheckpoint {
                        session: s.id.clone(),
                        checkpoint: c,
                        entry: record.opened_entry,
                    })
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u64, ts: &str, subject: &str, body: &str) -> MailRow {
        MailRow {
            id,
            thread_id: Some("T".into()),
            from: if id % 2 == 1 { "P" } else { "B" }.into(),
            to: vec![if id % 2 == 1 { "B" } else { "P" }.into()],
            subject: subject.into(),
            created_ts: ts.into(),
            body_md: body.into(),
            ..MailRow::default()
        }
    }

    const INIT: &str = r#"{"protocol_version":"3.1","task":"t","my_role":"PLANNER","your_role":"BUILDER","status":"INITIALIZED"}"#;
    const DRAFT: &str = r#"{"phase":"CONTRACT_GENERATION","artifacts":{"safety_reasoning":"tmp/pair_1_s.md","spec":"tmp/pair_1_spec_draft.md","tests":"tmp/pair_1_tests.py"},"status":"AWAITING_HUMAN_REVIEW"}"#;

    #[test]
    fn late_mail_replays_and_ids_load_once() {
        let mut t = Traffic::default();
        t.load(
            vec![row(3, "2026-01-01T00:00:03Z", "CONTRACT_DRAFT", DRAFT)],
            None,
        );
        t.load(
            vec![
                row(1, "2026-01-01T00:00:01Z", "PAIR_INIT", INIT),
                row(3, "2026-01-01T00:00:03Z", "CONTRACT_DRAFT", DRAFT),
            ],
            None,
        );
        assert_eq!(t.envelopes().len(), 2);
        let summary = t.summary();
        assert_eq!(summary.sessions, 1);
        assert_eq!(
            summary.open.len(),
            1,
            "the draft, replayed after PAIR_INIT, is under review"
        );
        assert_eq!(summary.newest.as_deref(), Some("2026-01-01T00:00:03Z"));
        let session = &t.book.pair.sessions()[0];
        assert_eq!(session.planner.as_deref(), Some("P"));
        assert!(session.violations.is_empty(), "{:?}", session.violations);
        assert_eq!(t.entry_of(1), Some(1));
    }
}
