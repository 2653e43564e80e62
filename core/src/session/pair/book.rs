//! Finding Pair sessions in Agent Mail traffic, the way the reference does: by thread id, and
//! by the partner pair when a message has no thread (a note an agent sends itself, by the
//! agent).

use super::PairSession;
use crate::agent_mail::Envelope;
use crate::protocol::FamilyId;
use std::collections::HashMap;

/// Every Pair session in a stream of envelopes, fed in time order.
#[derive(Debug, Clone, Default)]
pub struct PairBook {
    sessions: Vec<PairSession>,
    by_thread: HashMap<String, usize>,
    by_pair: HashMap<String, usize>,
    per_pair: HashMap<String, usize>,
    last_threadless: Option<usize>,
}

impl PairBook {
    /// What every session shows late or missing by `now` ([`PairSession::findings_at`]).
    #[must_use]
    pub fn findings_at(
        &self,
        now: crate::time::Timestamp,
    ) -> Vec<crate::session::violation::Violation> {
        self.sessions
            .iter()
            .flat_map(|s| s.findings_at(now))
            .collect()
    }

    /// An empty book.
    #[must_use]
    pub fn new() -> PairBook {
        PairBook::default()
    }

    /// The sessions found, in order of their first message.
    #[must_use]
    pub fn sessions(&self) -> &[PairSession] {
        &self.sessions
    }

    /// Mutable access (e.g. to verify a contract against files).
    pub fn sessions_mut(&mut self) -> &mut [PairSession] {
        &mut self.sessions
    }

    /// The session with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&PairSession> {
        self.sessions.iter().find(|s| s.id == id)
    }

    /// Folds one envelope into its session; envelopes of other families are ignored.
    pub fn observe(&mut self, env: &Envelope) {
        if env.family() != Some(FamilyId::Pair) {
            return;
        }
        let i = self.route(env);
        let _ = self.sessions[i].fold(env);
    }

    /// Which session an envelope belongs to (created when needed).
    fn route(&mut self, env: &Envelope) -> usize {
        let is_init = env.message_type() == Some("PAIR_INIT");
        if let Some(thread) = &env.thread_id {
            if let Some(&i) = self.by_thread.get(thread) {
                return i;
            }
            // Agent Mail names a reply thread after the first message's id.
            let root = thread.parse::<u64>().ok().and_then(|id| {
                self.sessions
                    .iter()
                    .position(|s| s.message_ids.contains(&id))
            });
            let i = root.unwrap_or_else(|| self.create(thread.clone(), Some(thread.clone())));
            self.by_thread.insert(thread.clone(), i);
            self.sessions[i]
                .thread_id
                .get_or_insert_with(|| thread.clone());
            return i;
        }
        if let (Some(a), Some(b)) = (&env.from, env.to.first()) {
            // A note to self (the planner's CONTRACT_REVISION_REQUESTED): the latest threadless
            // session the agent takes part in.
            let own = (a == b)
                .then(|| {
                    self.sessions
                        .iter()
                        .rposition(|s| s.thread_id.is_none() && s.participants.contains(a))
                })
                .flatten();
            if let Some(i) = own {
                self.last_threadless = Some(i);
                return i;
            }
        }
        let key = match (&env.from, env.to.first()) {
            (Some(a), Some(b)) => {
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                Some(format!("{a}+{b}"))
            }
            _ => None,
        };
        let latest = match &key {
            Some(k) => self.by_pair.get(k).copied().or_else(|| {
                // A pair never seen, on a message that starts no session: its sender's open
                // session (a message sent to the wrong agent still belongs to it, and is judged
                // there).
                let from = env.from.as_ref()?;
                (!is_init)
                    .then(|| {
                        self.sessions.iter().rposition(|s| {
                            s.thread_id.is_none() && !s.ended() && s.participants.contains(from)
                        })
                    })
                    .flatten()
            }),
            None => self.last_threadless,
        };
        let restart = |s: &PairSession| {
            is_init && (s.ended() || s.phase.is_some() && !s.checkpoints.is_empty())
        };
        let i = match latest {
            Some(i) if !restart(&self.sessions[i]) => i,
            _ => {
                let name = key.clone().unwrap_or_else(|| {
                    env.to
                        .first()
                        .cloned()
                        .unwrap_or_else(|| "unknown".to_owned())
                });
                let n = self.per_pair.entry(name.clone()).or_insert(0);
                *n += 1;
                let id = format!("pair:{name}#{n}");
                self.create(id, None)
            }
        };
        if let Some(k) = key {
            self.by_pair.insert(k, i);
        }
        self.last_threadless = Some(i);
        i
    }

    fn create(&mut self, id: String, thread: Option<String>) -> usize {
        self.sessions.push(PairSession::new(id, thread));
        self.sessions.len() - 1
    }
}
