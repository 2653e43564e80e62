//! The engine: what the console computes from mail text, run in a Web Worker
//! (`src/bin/engine.rs`) so the main module stays small and the page stays responsive. It
//! holds each loaded project's traffic as the core's envelopes and session book, and maps
//! the core's views to the [`crate::model`] the UI renders; it renders Markdown and hosts the
//! demo server. No domain rule lives here: sessions, checkpoints, decisions, boards,
//! validation and audits are the core's (`switchboard_core`).
//!
//! - [`traffic`]: a project's envelopes and book, loaded and extended.
//! - [`sessions`]: sessions, checkpoints and decisions.
//! - [`boards`]: the task boards.
//! - [`audits`]: audit reports in mail, and audits run from a diff.
//! - [`conformance`]: each agent's conformance report.
//! - [`fields`]: a message's values, labelled, with its issues beside them.
//! - [`secrets`]: secrets masked in what the views show, unless revealed.
//! - [`demo`]: the demo server's calls answered.
//! - [`evidence`]: a checkpoint's evidence, from the files read of the project's folder;
//!   [`concerns`] what an approval over it overrides.
//! - [`trail`]: the review trail kept in the project's mail, and a checkpoint's fate.

mod audits;
mod boards;
mod concerns;
mod conformance;
mod demo;
mod evidence;
mod fields;
mod html;
mod secrets;
mod sessions;
pub mod traffic;
pub mod trail;

pub use fields::inspect;
pub use html::message::inspected;
pub use traffic::{Loaded, Traffic};

use crate::api::demo::server::DemoServer;
use crate::ask::{encode, Ask, Request};
use crate::model::sessions::FIRST_ROWS;
use crate::model::{InspectedMessage, SessionList, TrafficKey, TrafficSummary};
use secrets::shown;
use std::collections::HashMap;
use switchboard_core::evidence::trail::TrailLine;
use switchboard_core::protocol::FamilyId;

/// The engine's state: loaded traffic and the demo server.
#[derive(Default)]
pub struct Engine {
    traffic: HashMap<TrafficKey, Traffic>,
    demo: Option<DemoServer>,
    /// The review record being signed (`ask::ToSign`, then `ask::Seal`).
    signing: Option<TrailLine>,
}

/// An answer to question `Q` as it crosses.
fn reply<Q: Ask>(answer: Result<Q::Answer, String>) -> Vec<u8> {
    encode::<Q>(answer)
}

impl Engine {
    /// An engine with nothing loaded.
    #[must_use]
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Answers one request: the answer's bytes, as the question's own answer type.
    pub fn handle(&mut self, request: Request) -> Vec<u8> {
        use crate::ask as q;
        match request {
            Request::Redact(q::Redact(texts)) => reply::<q::Redact>(Ok(secrets::masked(&texts))),
            Request::Inspect(q::Inspect {
                key,
                message,
                reveal,
                full,
            }) => {
                let inspection = fields::inspect(&message, self.traffic.get(&key), reveal);
                reply::<q::Inspect>(Ok(InspectedMessage {
                    html: html::message::inspected(&inspection, &key, full),
                    wants_traffic: inspection.family == Some(FamilyId::Pair)
                        && inspection.belongs.is_none(),
                }))
            }
            Request::Load(q::Load {
                key,
                rows,
                reset,
                coverage,
                newer,
                agents,
                pending,
            }) => {
                let traffic = self.traffic.entry(key).or_default();
                if reset {
                    *traffic = Traffic::default();
                }
                let loaded = traffic.load(rows, agents, &coverage, newer, pending.as_deref());
                reply::<q::Load>(Ok(TrafficSummary {
                    mismatch: loaded == Loaded::Mismatch,
                    changed: loaded == Loaded::Changed,
                    ..traffic.summary()
                }))
            }
            Request::Sessions(q::Sessions {
                key,
                now_ms,
                reveal,
                all,
            }) => reply::<q::Sessions>(self.traffic(&key).map(|t| {
                let rows = shown(sessions::rows(t, now_ms), reveal);
                let drawn = if all { rows.len() } else { FIRST_ROWS };
                SessionList {
                    html: html::sessions::list(&rows, drawn, &key, now_ms),
                    ids: rows.iter().take(drawn).map(|r| r.id.clone()).collect(),
                    total: rows.len(),
                }
            })),
            Request::Session(q::Session {
                key,
                id,
                now_ms,
                reveal,
            }) => reply::<q::Session>(self.traffic(&key).map(|t| {
                shown(sessions::detail(t, &id, now_ms), reveal)
                    .map(|detail| html::session::page(&detail, &key, now_ms))
            })),
            Request::Checkpoints(q::Checkpoints {
                key,
                now_ms,
                reveal,
            }) => reply::<q::Checkpoints>(
                self.traffic(&key)
                    .map(|t| sessions::checkpoints(t, &key, now_ms, reveal)),
            ),
            Request::Queue(q::Queue {
                keys,
                now_ms,
                reveal,
            }) => {
                let held = keys
                    .iter()
                    .filter_map(|key| Some((key, self.traffic.get(key)?)));
                let queue = shown(sessions::queue(held, now_ms), reveal);
                reply::<q::Queue>(Ok(html::queue::list(&queue, now_ms)))
            }
            Request::Drafts(q::Drafts { key, decision }) => reply::<q::Drafts>(
                self.traffic(&key)
                    .and_then(|t| sessions::drafts(t, &decision)),
            ),
            Request::Audits(q::Audits { key, reveal }) => reply::<q::Audits>(
                self.traffic(&key)
                    .map(|t| html::audit::in_mail(&shown(audits::in_mail(t), reveal), &key)),
            ),
            Request::RunAudit(q::RunAudit { key, run, reveal }) => reply::<q::RunAudit>(
                audits::run(&run).map(|card| html::audit::result(&shown(card, reveal), &key)),
            ),
            Request::TaskBoards(q::TaskBoards {
                key,
                now_ms,
                reveal,
            }) => reply::<q::TaskBoards>(self.traffic(&key).map(|t| {
                html::boards::boards(&shown(boards::boards(t, now_ms), reveal), &key, now_ms)
            })),
            // A report over part of the mail would fail checks that its rest passes: none
            // until the whole has arrived (the page says the mail is still being read).
            Request::Conformance(q::Conformance { key, reveal }) => {
                reply::<q::Conformance>(self.traffic(&key).map(|t| {
                    let reading = t.reading();
                    let agents = if reading {
                        Vec::new()
                    } else {
                        shown(conformance::report(t), reveal)
                    };
                    html::conformance::report(&agents, &key, reading)
                }))
            }
            Request::EvidenceNeeds(q::EvidenceNeeds {
                key,
                session,
                listings,
            }) => reply::<q::EvidenceNeeds>(
                self.traffic(&key)
                    .and_then(|t| evidence::plan(t, &session, &listings)),
            ),
            Request::Evidence(asked) => reply::<q::Evidence>(
                self.traffic(&asked.key)
                    .and_then(|t| evidence::page(t, &asked)),
            ),
            Request::CheckpointFate(q) => reply::<q::CheckpointFate>(
                self.traffic(&q.key)
                    .and_then(|t| trail::fate(t, &q.session, q.opened, q.entry, &q.sent)),
            ),
            Request::ToSign(q::ToSign { key, line }) => {
                let chained = self.traffic(&key).map(|t| trail::chained(t, line));
                let text = chained
                    .as_ref()
                    .map(TrailLine::signed_text)
                    .map_err(Clone::clone);
                self.signing = chained.ok();
                reply::<q::ToSign>(text)
            }
            Request::Seal(q::Seal(signature)) => reply::<q::Seal>(
                self.signing
                    .take()
                    .map(|mut line| {
                        line.signature = signature;
                        line.draft()
                    })
                    .ok_or_else(|| "No record is being signed.".to_owned()),
            ),
            Request::KeptDrafts(q::KeptDrafts { key, drafts }) => {
                reply::<q::KeptDrafts>(self.traffic(&key).map(|t| trail::kept(t, &drafts)))
            }
            Request::Trail(q::Trail { key, session }) => reply::<q::Trail>(
                self.traffic(&key)
                    .map(|t| trail::page(t, &key.project, &session)),
            ),
            Request::Demo(call) => {
                let server = self.demo.get_or_insert_with(DemoServer::new);
                demo::answer(server, &self.traffic, call)
            }
        }
    }

    /// A project's loaded traffic, or why there is none.
    fn traffic(&self, key: &TrafficKey) -> Result<&Traffic, String> {
        self.traffic
            .get(key)
            .ok_or_else(|| format!("The traffic of project {} is not loaded.", key.project))
    }
}

#[cfg(test)]
mod evidence_tests;
#[cfg(test)]
mod reading_tests;
#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod tests;
