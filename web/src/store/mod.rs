//! A project's traffic, read once and kept up to date. The project's mail is read through
//! the backend a page at a time, the newest first (every agent's mailbox, with a progress
//! indicator), and each page goes to the engine as it arrives, so the protocol views draw
//! from the first page and refine as the others come (a session whose mail is still
//! arriving says so: the engine knows how much is held, `model::Coverage`). Then only newer
//! mail is asked for (after every action, and every [`POLL_MS`] while a protocol view is
//! open). The views re-ask the engine when the traffic's generation changes.
//!
//! A live server's pages are also kept in this browser ([`kept`]): a later visit hands them
//! to the engine first, then asks the server only for newer mail. Newer mail that does not
//! continue them (the engine's `mismatch`) drops them and reads the project again.
//!
//! When a whole read has arrived the page gets the performance mark [`ARRIVED_MARK`].

pub mod kept;

use crate::api::{
    Backend, BackendError, Coverage, OpenCheckpoint, TrafficPage, TrafficProgress, TrafficSink,
};
use crate::ask::{answer_of, Load, Request};
use crate::link::{request_bytes, EngineLink};
use crate::model::{TrafficKey, TrafficSummary};
use crate::routes::Source;
use leptos::prelude::*;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// How often an open protocol view asks for newer mail, in ms.
pub const POLL_MS: u32 = 10_000;
/// The performance mark set when a project's whole traffic has arrived.
pub const ARRIVED_MARK: &str = "switchboard:traffic-arrived";

/// Where a project's traffic is.
#[derive(Debug, Clone, PartialEq)]
pub enum TrafficState {
    /// Nothing in the engine yet: the first page is being read.
    Loading(TrafficProgress),
    /// In the engine; `generation` counts the loads that changed it.
    Ready {
        /// Bumped by every load.
        generation: u64,
        /// What the engine holds.
        summary: TrafficSummary,
        /// What the server left out, and why a read stopped.
        notes: Vec<String>,
        /// How far the read still arriving got (`None`: the engine holds all of it).
        reading: Option<TrafficProgress>,
        /// Why the last ask for newer mail failed, in words (`None`: it was answered). What
        /// is held is still shown, and said to be what was read before.
        poll_failed: Option<String>,
    },
    /// The first read failed.
    Failed(BackendError),
}

/// What a read asks the server for.
#[derive(Debug, Clone, PartialEq)]
enum Plan {
    /// Everything, into an engine that holds nothing of it (kept pages first, if any).
    First,
    /// Everything, into an engine that holds nothing of it, without the kept pages (the
    /// server's mail did not continue them).
    Fresh,
    /// Everything again, beside what the engine holds (a read that stopped part-way).
    Again,
    /// The mail sent after this `created_ts`.
    Newer(String),
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

    /// The projects whose whole traffic is in the engine (tracked).
    #[must_use]
    pub fn ready_keys(&self) -> Vec<TrafficKey> {
        self.states.with(|states| {
            states
                .iter()
                .filter(|(_, s)| matches!(s, TrafficState::Ready { reading: None, .. }))
                .map(|(k, _)| k.clone())
                .collect()
        })
    }

    /// Forgets the traffic of every live project: not connected (the engine's is replaced
    /// on the next read).
    pub fn forget_live(&self) {
        self.states.update(|s| {
            for (key, state) in s.iter_mut() {
                if key.src == Source::Live {
                    *state = TrafficState::Failed(BackendError::NotConnected);
                }
            }
        });
    }

    /// Reads a project's traffic through `backend` into the engine at `link`, unless it is
    /// loaded; otherwise asks for newer mail.
    pub fn refresh(
        &self,
        backend: Result<Rc<dyn Backend>, BackendError>,
        link: EngineLink,
        key: TrafficKey,
    ) {
        if self.busy.with_value(|b| b.contains(&key)) {
            return;
        }
        let plan = match self.state_untracked(&key) {
            None | Some(TrafficState::Failed(_)) => Plan::First,
            Some(TrafficState::Loading(_)) => return,
            Some(TrafficState::Ready {
                reading: Some(_), ..
            }) => Plan::Again,
            Some(TrafficState::Ready { summary, .. }) => {
                Plan::Newer(summary.newest.unwrap_or_default())
            }
        };
        self.start(backend, link, key, plan);
    }

    /// Reads the mail newer than what the engine holds of `key`'s project and loads it, now
    /// (a decision is about to be sent: what became of its checkpoint is read from there).
    ///
    /// # Errors
    /// The server could not be read, or its mail is no longer the mail held (then it is read
    /// again from the start).
    pub async fn catch_up(
        &self,
        backend: Rc<dyn Backend>,
        link: EngineLink,
        key: &TrafficKey,
    ) -> Result<(), BackendError> {
        let Some(TrafficState::Ready { summary, .. }) = self.state_untracked(key) else {
            return Err(BackendError::Invalid(
                "The project's mail is still being read.".to_owned(),
            ));
        };
        let plan = Plan::Newer(summary.newest.unwrap_or_default());
        if self
            .read(Ok(backend.clone()), link.clone(), key, plan)
            .await?
        {
            self.start(Ok(backend), link, key.clone(), Plan::Fresh);
            return Err(BackendError::Invalid(
                "The server's mail is no longer the mail shown; it is being read again.".to_owned(),
            ));
        }
        Ok(())
    }

    /// Reads a project's traffic as `plan` says.
    fn start(
        &self,
        backend: Result<Rc<dyn Backend>, BackendError>,
        link: EngineLink,
        key: TrafficKey,
        plan: Plan,
    ) {
        self.busy.update_value(|b| {
            b.insert(key.clone());
        });
        let store = *self;
        if matches!(plan, Plan::First | Plan::Fresh) {
            store.set(&key, TrafficState::Loading(TrafficProgress::default()));
        }
        leptos::task::spawn_local(async move {
            let again = (backend.clone(), link.clone());
            let outcome = store.read(backend, link, &key, plan.clone()).await;
            store.busy.update_value(|b| {
                b.remove(&key);
            });
            match (outcome, store.state_untracked(&key)) {
                (Ok(false), _) => store.polled(&key, None),
                // The server's mail is not the mail held: read it all again.
                (Ok(true), _) => store.start(again.0, again.1, key, Plan::Fresh),
                (Err(error), Some(TrafficState::Ready { .. })) => {
                    // A failed poll keeps what was loaded, says so, and the next one tries
                    // again. A read that stopped part-way says so, and the next poll reads again.
                    if matches!(plan, Plan::Newer(_)) {
                        store.polled(&key, Some(poll_failed_words(&error)));
                    } else {
                        store.note(&key, format!("Reading stopped ({error}); trying again."));
                    }
                }
                (Err(error), _) => store.set(&key, TrafficState::Failed(error)),
            }
        });
    }

    fn set(&self, key: &TrafficKey, state: TrafficState) {
        self.states.update(|s| {
            s.insert(key.clone(), state);
        });
    }

    /// What the last ask for newer mail came to (`None`: answered); the views redraw only
    /// when that changes.
    fn polled(&self, key: &TrafficKey, failed: Option<String>) {
        self.states.maybe_update(|s| match s.get_mut(key) {
            Some(TrafficState::Ready { poll_failed, .. }) if *poll_failed != failed => {
                *poll_failed = failed;
                true
            }
            _ => false,
        });
    }

    /// Why the last ask for `key`'s newer mail failed, in words, if it did (tracked).
    pub fn poll_failed(&self, key: &TrafficKey) -> Option<String> {
        self.states.with(|s| match s.get(key) {
            Some(TrafficState::Ready { poll_failed, .. }) => poll_failed.clone(),
            _ => None,
        })
    }

    fn note(&self, key: &TrafficKey, note: String) {
        self.states.update(|s| {
            if let Some(TrafficState::Ready { notes, .. }) = s.get_mut(key) {
                notes.push(note);
            }
        });
    }

    /// How far the read of a project got.
    fn progress(&self, key: &TrafficKey, progress: TrafficProgress) {
        self.states.update(|s| match s.get_mut(key) {
            Some(TrafficState::Loading(p)) => *p = progress,
            Some(TrafficState::Ready {
                reading: Some(p), ..
            }) => *p = progress,
            _ => {}
        });
    }

    /// The engine took a page: what it holds now, and (but for newer mail) the read's notes.
    fn loaded(
        &self,
        key: &TrafficKey,
        summary: TrafficSummary,
        page_notes: Vec<String>,
        coverage: &Coverage,
        newer: bool,
    ) {
        // Newer mail the engine held already (a server may answer "newer than" with the
        // newest held again): nothing to redraw, so the views keep what is typed and read.
        if newer && !summary.changed {
            return;
        }
        let whole = *coverage == Coverage::Whole;
        self.states.update(|s| {
            let (generation, notes, reading) = match s.get(key).cloned() {
                Some(TrafficState::Ready {
                    generation,
                    notes,
                    reading,
                    ..
                }) => (generation + 1, notes, reading),
                Some(TrafficState::Loading(p)) => (1, Vec::new(), Some(p)),
                _ => (1, Vec::new(), Some(TrafficProgress::default())),
            };
            s.insert(
                key.clone(),
                TrafficState::Ready {
                    generation,
                    summary,
                    // A poll's notes (about newer mail) do not replace the read's.
                    notes: if newer { notes } else { page_notes },
                    reading: if whole {
                        None
                    } else {
                        reading.or(Some(TrafficProgress::default()))
                    },
                    // The server answered.
                    poll_failed: None,
                },
            );
        });
        if whole && !newer {
            mark_arrived();
        }
    }

    /// Reads the traffic as `plan` says, page by page into the engine; `true` when the
    /// server's mail turned out not to be the mail held (nothing more was loaded).
    async fn read(
        &self,
        backend: Result<Rc<dyn Backend>, BackendError>,
        link: EngineLink,
        key: &TrafficKey,
        mut plan: Plan,
    ) -> Result<bool, BackendError> {
        let backend = backend?;
        let server = backend.capabilities().endpoint;
        let keeping = (key.src == Source::Live && !server.is_empty() && kept::enabled())
            .then(|| server.clone());
        let store = *self;
        if plan == Plan::First {
            if let Some(server) = &keeping {
                match store.restore(&link, key, server).await? {
                    Restored::Nothing => {}
                    Restored::Whole(newest) => plan = Plan::Newer(newest),
                    Restored::Part => plan = Plan::Again,
                }
            }
        }
        let reset = Rc::new(Cell::new(matches!(plan, Plan::First | Plan::Fresh)));
        let (since, newer) = match &plan {
            Plan::Newer(since) => (Some(since.clone()).filter(|s| !s.is_empty()), true),
            _ => (None, false),
        };
        let mismatch = Rc::new(Cell::new(false));
        let sink = {
            let (key, mismatch, progress_key) = (key.clone(), mismatch.clone(), key.clone());
            let keeping = keeping.clone();
            TrafficSink {
                progress: Rc::new(move |p| store.progress(&progress_key, p)),
                page: Rc::new(move |page: TrafficPage| {
                    let (key, link, mismatch) = (key.clone(), link.clone(), mismatch.clone());
                    let (reset, keeping) = (reset.clone(), keeping.clone());
                    Box::pin(async move {
                        if newer && page.rows.is_empty() {
                            return Ok(());
                        }
                        let load = Load {
                            key: key.clone(),
                            rows: page.rows,
                            reset: reset.replace(false),
                            coverage: page.coverage.clone(),
                            newer,
                            agents: page.agents,
                            pending: page.pending,
                        };
                        // Sent and kept as the same bytes: a later visit sends them as they are.
                        let bytes =
                            request_bytes(&Request::Load(load)).map_err(BackendError::Engine)?;
                        let kept_bytes = keeping.as_ref().map(|_| bytes.clone());
                        let summary = engine_load(&link, bytes).await?;
                        if summary.mismatch {
                            mismatch.set(true);
                            // Stops the read (`mismatch` says why).
                            return Err(BackendError::Invalid(String::new()));
                        }
                        if let (Some(server), Some(bytes)) = (&keeping, kept_bytes) {
                            // A full disk only costs the next visit a read.
                            let _ = kept::keep(server, &key.project, &bytes).await;
                        }
                        store.loaded(&key, summary, page.notes, &page.coverage, newer);
                        Ok(())
                    })
                }),
            }
        };
        let read = backend.traffic(&key.project, since.as_deref(), sink).await;
        if mismatch.get() {
            if let Some(server) = &keeping {
                let _ = kept::forget_project(server, &key.project).await;
            }
            return Ok(true);
        }
        read.map(|()| false)
    }

    /// Hands the engine the pages kept of a project, as they came (the first one resets
    /// what it held).
    async fn restore(
        &self,
        link: &EngineLink,
        key: &TrafficKey,
        server: &str,
    ) -> Result<Restored, BackendError> {
        let pages = kept::pages(server, &key.project).await.unwrap_or_default();
        let mut restored = Restored::Nothing;
        for bytes in pages {
            let Ok(summary) = engine_load(link, bytes).await else {
                // Written by another version of the console: read the project again.
                let _ = kept::forget_project(server, &key.project).await;
                return Ok(Restored::Nothing);
            };
            restored = if summary.whole {
                Restored::Whole(summary.newest.clone().unwrap_or_default())
            } else {
                Restored::Part
            };
            let coverage = if summary.whole {
                Coverage::Whole
            } else {
                Coverage::Reading(Vec::new())
            };
            self.loaded(key, summary, Vec::new(), &coverage, true);
        }
        Ok(restored)
    }
}

/// The engine's answer to a `Load` as [`request_bytes`] wrote it.
async fn engine_load(link: &EngineLink, request: Vec<u8>) -> Result<TrafficSummary, BackendError> {
    let answer = link.answer_bytes(request).await?;
    Ok(answer_of::<TrafficSummary>(answer)?)
}

/// What a later visit found kept.
enum Restored {
    /// Nothing.
    Nothing,
    /// A whole read, up to the mail sent at this `created_ts`.
    Whole(String),
    /// Part of a read.
    Part,
}

fn mark_arrived() {
    #[cfg(target_arch = "wasm32")]
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(ARRIVED_MARK);
    }
}

/// The words for a failed ask for newer mail: what is shown is what was read before.
fn poll_failed_words(error: &BackendError) -> String {
    format!(
        "No new mail could be read: {error} What is shown is the mail read before; trying again every {} s.",
        POLL_MS / 1000
    )
}
