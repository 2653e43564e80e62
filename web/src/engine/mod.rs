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
//! - [`fields`]: a message's values, labelled, with its issues beside them.

mod audits;
mod boards;
mod fields;

pub use fields::inspect;
mod sessions;
pub mod traffic;

use crate::api::demo::server::DemoServer;
use crate::model::{Request, Response, TrafficKey};
use std::collections::HashMap;
pub use traffic::Traffic;

/// The engine's state: loaded traffic and the demo server.
#[derive(Default)]
pub struct Engine {
    traffic: HashMap<TrafficKey, Traffic>,
    demo: Option<DemoServer>,
}

impl Engine {
    /// An engine with nothing loaded.
    #[must_use]
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Answers one request.
    pub fn handle(&mut self, request: Request) -> Response {
        match request {
            Request::Render(markdown) => Response::Html(crate::markdown::render(&markdown)),
            Request::Inspect { key, message } => {
                Response::Inspection(Box::new(fields::inspect(&message, self.traffic.get(&key))))
            }
            Request::Load { key, rows, reset } => {
                let traffic = self.traffic.entry(key).or_default();
                if reset {
                    *traffic = Traffic::default();
                }
                traffic.load(rows);
                Response::Loaded(traffic.summary())
            }
            Request::Sessions { key, now_ms } => {
                self.with(&key, |t| Response::Sessions(sessions::rows(t, now_ms)))
            }
            Request::Session { key, id, now_ms } => self.with(&key, |t| {
                Response::Session(sessions::detail(t, &id, now_ms).map(Box::new))
            }),
            Request::Checkpoints { key, now_ms } => self.with(&key, |t| {
                Response::Checkpoints(sessions::checkpoints(t, now_ms))
            }),
            Request::Decide { key, session, text } => self.with(&key, |t| {
                Response::Decision(sessions::decide(t, &session, &text))
            }),
            Request::Audits(key) => self.with(&key, |t| Response::Audits(audits::in_mail(t))),
            Request::RunAudit(run) => Response::Audit(audits::run(&run)),
            Request::Boards { key, now_ms } => self.with(&key, |t| {
                Response::Boards(Box::new(boards::boards(t, now_ms)))
            }),
            Request::Demo(call) => {
                let demo = self.demo.get_or_insert_with(DemoServer::new);
                Response::Demo(demo.handle(call))
            }
        }
    }

    fn with(&self, key: &TrafficKey, f: impl FnOnce(&Traffic) -> Response) -> Response {
        match self.traffic.get(key) {
            Some(traffic) => f(traffic),
            None => Response::Failed(format!(
                "The traffic of project {} is not loaded.",
                key.project
            )),
        }
    }
}
