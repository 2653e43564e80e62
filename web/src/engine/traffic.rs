//! A project's traffic: its messages as the core's envelopes (decoded and validated once)
//! folded into the core's session book. New mail that is not older than what was folded is
//! folded incrementally; older mail (a read's later pages, which arrive newest first), or a
//! message seen again with more recipients or its acknowledgement, makes the book replay the
//! whole log in time order. Given the agents registered on the server, the book checks every
//! sender and recipient against them (`INVALID_AGENT`); a changed list replays the log.
//!
//! While a read is still arriving ([`Coverage::Reading`]) only what is held in full has a
//! verdict: a Pair session whose PAIR_INIT was sent after the time from which every message
//! to each of its agents is held ([`Traffic::whole`]; a message sits in the inbox of each
//! recipient). Others are still being read.

use crate::api::{MailRow, OpenCheckpoint};
use crate::model::{Coverage, TrafficSummary};
use std::collections::{BTreeMap, HashMap};
use switchboard_core::agent_mail::Envelope;
use switchboard_core::evidence::trail::is_trail_message;
use switchboard_core::protocol::Options;
use switchboard_core::session::agents::Registry;
use switchboard_core::session::pair::PairSession;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::{in_time_order, Book};
use switchboard_core::time::Timestamp;

/// How much of the project's mail is held.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Held {
    /// All of it.
    #[default]
    Whole,
    /// Per mailbox read: every message to it after the time (`None`: every message).
    Mailboxes(HashMap<String, Option<Timestamp>>),
}

/// What a page did to the traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loaded {
    /// Newer mail that does not continue what is held: nothing of it was loaded.
    Mismatch,
    /// Nothing new: every message was held already, as it is (a server that answers
    /// "newer than" with the newest held again).
    Unchanged,
    /// Messages, recipients, acknowledgements, the agents or the coverage changed.
    Changed,
}

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
    held: Held,
    highest_id: u64,
    /// The review trail's messages (`engine::trail`), by id: kept out of the protocol log.
    trail: BTreeMap<u64, String>,
}

impl Traffic {
    /// Adds a page of messages; a message held already gains the page's recipients and its
    /// acknowledgement. Given `pending`, the messages still waiting for an acknowledgement,
    /// every other message that asks for one is acknowledged. `agents`, when known, are the registered agents; `coverage` is how
    /// much of the mail is held with this page. A page of `newer` mail that does not
    /// continue what is held (an id below the highest held that is not held, or a
    /// registered agent no longer listed) is not loaded.
    pub fn load(
        &mut self,
        rows: Vec<MailRow>,
        agents: Option<Vec<String>>,
        coverage: &Coverage,
        newer: bool,
        pending: Option<&[u64]>,
    ) -> Loaded {
        // Names the server lists are never blank; one that is cannot be checked against.
        let registry = agents.and_then(|names| Registry::new(names).ok());
        if newer && !self.continued_by(&rows, registry.as_ref()) {
            return Loaded::Mismatch;
        }
        let (held_before, trail_before) = (self.held.clone(), self.trail.len());
        self.held = match coverage {
            Coverage::Whole => Held::Whole,
            Coverage::Reading(mailboxes) => Held::Mailboxes(
                mailboxes
                    .iter()
                    .map(|(agent, after)| {
                        // A time that cannot be read covers nothing.
                        let after = after
                            .as_deref()
                            .map(|text| Timestamp::parse(text).unwrap_or(Timestamp(i64::MAX)));
                        (agent.clone(), after)
                    })
                    .collect(),
            ),
        };
        let mut replay = registry.is_some() && registry != self.registry;
        if replay {
            self.registry = registry;
        }
        let start = self.envelopes.len();
        for row in rows {
            if self.trail.contains_key(&row.id) {
                continue;
            }
            if let Some(&index) = self.by_id.get(&row.id) {
                // One not folded yet needs no replay.
                replay |= Self::update(&mut self.envelopes[index], &row) && index < start;
                continue;
            }
            let index = self.envelopes.len();
            self.highest_id = self.highest_id.max(row.id);
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
        if let Some(pending) = pending {
            let pending: std::collections::HashSet<u64> = pending.iter().copied().collect();
            for env in &mut self.envelopes {
                if env.ack_required
                    && !env.acknowledged
                    && env.id.is_some_and(|id| !pending.contains(&id))
                {
                    env.acknowledged = true;
                    replay |= env.index < start;
                }
            }
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
        let changed = replay
            || !fresh.is_empty()
            || self.trail.len() != trail_before
            || self.held != held_before;
        if changed {
            Loaded::Changed
        } else {
            Loaded::Unchanged
        }
    }

    /// Whether `rows`, mail sent after the newest held, continue what is held: every id not
    /// held is above the highest held (a server numbers its messages in the order they
    /// arrive), and every registered agent held is still listed.
    fn continued_by(&self, rows: &[MailRow], registry: Option<&Registry>) -> bool {
        let ids_follow = rows
            .iter()
            .all(|r| self.holds(r.id) || r.id > self.highest_id);
        let agents_kept = match (&self.registry, registry) {
            (Some(held), Some(listed)) => held.names().all(|name| listed.contains(name)),
            _ => true,
        };
        ids_follow && agents_kept
    }

    /// Whether message `id` is held (in the protocol log or the review trail).
    fn holds(&self, id: u64) -> bool {
        self.by_id.contains_key(&id) || self.trail.contains_key(&id)
    }

    /// Gives a held envelope the recipients of `row` it lacks and `row`'s acknowledgement;
    /// whether that changed it.
    fn update(env: &mut Envelope, row: &MailRow) -> bool {
        let mut changed = false;
        for agent in &row.to {
            if !env.to.contains(agent) {
                env.to.push(agent.clone());
                changed = true;
            }
        }
        if row.acknowledged && !env.acknowledged {
            env.acknowledged = true;
            env.ack_at = row.ack_ts.as_deref().and_then(Timestamp::parse);
            changed = true;
        }
        changed
    }

    /// Whether the whole of the mail is held (no read is still arriving).
    #[must_use]
    pub fn reading(&self) -> bool {
        self.held != Held::Whole
    }

    /// Whether session `s` is held in full: all the mail is, or its PAIR_INIT was sent after
    /// the time from which every message to each agent of the session is held (so every
    /// later message of it is held).
    #[must_use]
    pub fn whole(&self, s: &PairSession) -> bool {
        let Held::Mailboxes(mailboxes) = &self.held else {
            return true;
        };
        let Some(first) = s.timeline.first() else {
            return false;
        };
        let Some(start) = first.at.filter(|_| first.message_type == Some("PAIR_INIT")) else {
            return false;
        };
        s.participants.iter().all(|agent| {
            mailboxes
                .get(agent)
                .is_some_and(|after| after.is_none_or(|after| start > after))
        })
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
                .filter(|s| self.whole(s))
                .filter_map(|s| {
                    let record = s.checkpoints.last()?;
                    s.open_checkpoint().map(|c| OpenCheckpoint {
                        session: s.id.clone(),
                        checkpoint: c,
                        entry: record.opened_entry,
                    })
                })
                .collect(),
            whole: !self.reading(),
            mismatch: false,
            changed: true,
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
            &Coverage::Whole,
            false,
            None,
        );
        t.load(
            vec![
                row(1, "2026-01-01T00:00:01Z", "PAIR_INIT", INIT),
                row(3, "2026-01-01T00:00:03Z", "CONTRACT_DRAFT", DRAFT),
            ],
            None,
            &Coverage::Whole,
            false,
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
        // The newest message again, as a server answering "newer than" inclusively gives it.
        let again = t.load(
            vec![row(3, "2026-01-01T00:00:03Z", "CONTRACT_DRAFT", DRAFT)],
            None,
            &Coverage::Whole,
            true,
            None,
        );
        assert_eq!(again, Loaded::Unchanged);
    }
}
