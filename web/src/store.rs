//! A project's traffic, read once and kept up to date: the whole project's mail is read
//! through the backend (every agent's mailbox, with a progress indicator), handed to the
//! engine, and then only newer mail is asked for (after every action, and every
//! [`POLL_MS`] while a protocol view is open). The protocol views render from the engine
//! and re-ask it when the traffic's generation changes.
//!
//! When a full read has arrived (before the engine folds it) the page gets the performance
//! mark [`ARRIVED_MARK`]: the console benchmark times the sessions view from there.

use crate::api::{Backend, BackendError, OpenCheckpoint, TrafficProgress};
use crate::ask::Load;
use crate::link::EngineLink;
use crate::model::{TrafficKey, TrafficSummary};
use leptos::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// How often an open protocol view asks for newer mail, in ms.
pub const POLL_MS: u32 = 10_000;
/// The performance mark set when a project's whole traffic has arrived.
pub const ARRIVED_MARK: &str = "switchboard:traffic-arrived";

/// Where a project's traffic is.
#[derive(Debug, Clone, PartialEq)]
pub enum TrafficState {
    /// Being read for the first time.
    Loading(TrafficProgress),
    /// In the engine; `generation` counts the loads that changed it.
    Ready {
        /// Bumped by every load.
        generation: u64,
        /// What the engine holds.
        summary: TrafficSummary,
        /// What the server left out.
        notes: Vec<String>,
    },
    /// The first read failed.
    Failed(BackendError),
}

/// Every project's traffic state.
#[derive(Clone, Copy)]
pub struct TrafficStore {
    states: RwSignal<BTreeMap<TrafficKey, TrafficState>>,
    busy: StoredValue<BTreeSet<TrafficKey>, LocalStorage>,
}

impl Default for TrafficStore {
    fn default() -> Self {
        Self::new()
    }
}

impl TrafficStore {
    /// Nothing loaded.
    #[must_use]
    pub fn new() -> Self {
        Self {
            states: RwSignal::new(BTreeMap::new()),
            busy: StoredValue::new_local(BTreeSet::new()),
        }
    }

    /// A project's state (tracked).
    #[must_use]
    pub fn state(&self, key: &TrafficKey) -> Option<TrafficState> {
        self.states.with(|s| s.get(key).cloned())
    }

    /// A project's state, untracked.
    #[must_use]
    pub fn state_untracked(&self, key: &TrafficKey) -> Option<TrafficState> {
        self.states.with_untracked(|s| s.get(key).cloned())
    }

    /// The open checkpoints of every loaded project, each once (tracked).
    #[must_use]
    pub fn open_checkpoints(&self) -> Vec<(TrafficKey, OpenCheckpoint)> {
        self.states.with(|states| {
            states
                .iter()
                .filter_map(|(key, state)| match state {
                    TrafficState::Ready { summary, .. } => Some((key, summary)),
                    _ => None,
                })
                .flat_map(|(key, summary)| summary.open.iter().map(|o| (key.clone(), o.clone())))
                .collect()
        })
    }

    /// The projects whose traffic is in the engine (tracked).
    #[must_use]
    pub fn ready_keys(&self) -> Vec<TrafficKey> {
        self.states.with(|states| {
            states
                .iter()
                .filter(|(_, s)| matches!(s, TrafficState::Ready { .. }))
                .map(|(k, _)| k.clone())
                .collect()
        })
    }

    /// Reads a project's traffic through `backend` into the engine at `link`, unless it is
    /// loaded; otherwise asks for newer mail.
    pub fn refresh(
        &self,
        backend: Result<Rc<dyn Backend>, BackendError>,
        link: EngineLink,
        key: TrafficKey,
    ) {
        let since = match self.states.with_untracked(|s| s.get(&key).cloned()) {
            None | Some(TrafficState::Failed(_)) => None,
            Some(TrafficState::Loading(_)) => return,
            Some(TrafficState::Ready { summary, .. }) => Some(summary.newest.unwrap_or_default()),
        };
        if self.busy.with_value(|b| b.contains(&key)) {
            return;
        }
        self.busy.update_value(|b| {
            b.insert(key.clone());
        });
        let store = *self;
        leptos::task::spawn_local(async move {
            // A failed read keeps what was loaded (a first read says why); the next one
            // tries again.
            let _ = store.update(backend, link, &key, since).await;
            store.busy.update_value(|b| {
                b.remove(&key);
            });
        });
    }

    /// Reads the mail newer than what the engine holds of `key`'s project and loads it, now
    /// (a decision is about to be sent: what became of its checkpoint is read from there).
    ///
    /// # Errors
    /// The server could not be read.
    pub async fn catch_up(
        &self,
        backend: Rc<dyn Backend>,
        link: EngineLink,
        key: &TrafficKey,
    ) -> Result<(), BackendError> {
        let since = match self.state_untracked(key) {
            Some(TrafficState::Ready { summary, .. }) => Some(summary.newest.unwrap_or_default()),
            _ => None,
        };
        self.update(Ok(backend), link, key, since).await
    }

    /// Reads the traffic (all of it without `since`) into the engine and the new state.
    async fn update(
        &self,
        backend: Result<Rc<dyn Backend>, BackendError>,
        link: EngineLink,
        key: &TrafficKey,
        since: Option<String>,
    ) -> Result<(), BackendError> {
        let store = *self;
        let first = since.is_none();
        if first {
            store.set(key, TrafficState::Loading(TrafficProgress::default()));
        }
        match store.read(backend, link, key, since).await {
            Ok(Some((summary, mut notes))) => {
                // A poll's notes (about newer mail) do not replace the first read's.
                let (generation, before) = store.states.with_untracked(|s| match s.get(key) {
                    Some(TrafficState::Ready {
                        generation, notes, ..
                    }) => (generation + 1, notes.clone()),
                    _ => (1, Vec::new()),
                });
                if !first {
                    notes = before;
                }
                store.set(
                    key,
                    TrafficState::Ready {
                        generation,
                        summary,
                        notes,
                    },
                );
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(error) => {
                if first {
                    store.set(key, TrafficState::Failed(error.clone()));
                }
                Err(error)
            }
        }
    }

    fn set(&self, key: &TrafficKey, state: TrafficState) {
        self.states.update(|s| {
            s.insert(key.clone(), state);
        });
    }

    /// Reads the traffic (all of it, or what is newer than `since`) and loads it into the
    /// engine; `None` when a poll found nothing new.
    async fn read(
        &self,
        backend: Result<Rc<dyn Backend>, BackendError>,
        link: EngineLink,
        key: &TrafficKey,
        since: Option<String>,
    ) -> Result<Option<(TrafficSummary, Vec<String>)>, BackendError> {
        let backend = backend?;
        let first = since.is_none();
        let store = *self;
        let progress_key = key.clone();
        let progress: Rc<dyn Fn(TrafficProgress)> = Rc::new(move |p| {
            if first {
                store.set(&progress_key, TrafficState::Loading(p));
            }
        });
        let since = since.filter(|s| !s.is_empty());
        let read = backend
            .traffic(&key.project, since.as_deref(), progress)
            .await?;
        if first {
            mark_arrived();
        } else if read.rows.is_empty() {
            return Ok(None);
        }
        let load = Load {
            key: key.clone(),
            rows: read.rows,
            reset: first,
            agents: read.agents,
        };
        let summary = link.ask(load).await.map_err(BackendError::Engine)?;
        Ok(Some((summary, read.notes)))
    }
}

fn mark_arrived() {
    #[cfg(target_arch = "wasm32")]
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(ARRIVED_MARK);
    }
}
