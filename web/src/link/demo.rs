//! The demo as the UI sees it: a [`Backend`] whose server runs in the engine worker
//! ([`crate::api::demo`]), reached through the engine link with one typed call per method.
//! The main module holds only this proxy, so what the demo alone needs (its world, its
//! generator, the core's builders and audit that write its traffic) is not in it.

use super::EngineLink;
use crate::api::demo::call::{self, DemoAsk};
use crate::api::demo::dates::DEMO_NOW_MS;
use crate::api::demo::scale;
use crate::api::{
    Agent, Backend, BackendError, BackendFuture, Capabilities, Contact, Coverage, Decided, Draft,
    MailRow, Project, Reservation, SearchHit, TrafficPage, TrafficProgress, TrafficSink,
    UnifiedRow, Variant,
};
use crate::ask::{answer_of, Request};
use crate::model::evidence::FileRead;
use futures::FutureExt;
use std::cell::RefCell;
use std::collections::BTreeSet;
use switchboard_core::evidence::path::FolderPath;

/// The demo, except the `scale` project's synthetic inboxes, which are written here, where
/// the pane reads them (the 100k inbox would otherwise wait for the worker and cross to the
/// page as 19 MB of text; its first rows are a benchmark goal).
pub struct DemoBackend {
    link: EngineLink,
    opened_ms: f64,
    /// Acknowledged `(agent, id)` of the scale inboxes.
    scale_acked: RefCell<BTreeSet<(String, u64)>>,
}

impl DemoBackend {
    /// The demo, reached through `link`; its clock starts at [`DEMO_NOW_MS`] now.
    #[must_use]
    pub fn new(link: EngineLink) -> Self {
        Self {
            link,
            opened_ms: crate::clock::now_ms(),
            scale_acked: RefCell::new(BTreeSet::new()),
        }
    }

    /// A scale agent's inbox size, or why there is none.
    fn scale_agent(agent: &str) -> Result<u64, BackendError> {
        scale::scale_size(agent).ok_or_else(|| BackendError::NotFound(format!("agent {agent}")))
    }

    /// Synthetic message `id` of a scale agent's inbox.
    fn scale_message(agent: Option<&str>, id: u64) -> Result<MailRow, BackendError> {
        agent
            .and_then(|a| scale::scale_size(a).map(|n| (a, n)))
            .filter(|(_, n)| id >= scale::SCALE_BASE && id - scale::SCALE_BASE < *n)
            .map(|(a, _)| scale::scale_message(a, id - scale::SCALE_BASE))
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
    }

    /// Asks the demo server.
    fn ask<Q: DemoAsk>(&self, call: Q) -> BackendFuture<'_, Q::Answer> {
        ask(&self.link, call)
    }
}

/// Asks the demo server through `link`: its answer, its error, or the engine's failure.
fn ask<Q: DemoAsk>(link: &EngineLink, call: Q) -> BackendFuture<'static, Q::Answer> {
    let reply = link.answer(Request::Demo(call.call()));
    Box::pin(reply.map(|answer| {
        answer
            .and_then(answer_of::<Q::Answer>)
            .map_err(BackendError::from)
    }))
}

/// The contract files and diff a demo session was audited with, if it has them.
///
/// # Errors
/// The engine failed.
pub async fn contract(
    link: &EngineLink,
    thread: &str,
) -> Result<Option<(Vec<(String, String)>, String)>, BackendError> {
    let call = call::Contract {
        thread: thread.into(),
    };
    ask(link, call).await
}

/// A file of the demo's virtual project folder, as a linked folder reads it.
pub async fn read_file(link: &EngineLink, project: &str, path: &FolderPath) -> FileRead {
    let call = call::ReadFile {
        project: project.into(),
        path: path.clone(),
    };
    ask(link, call)
        .await
        .unwrap_or_else(|e| FileRead::Unreadable {
            reason: e.to_string(),
        })
}

/// The names in a directory of the demo's virtual project folder.
///
/// # Errors
/// No such directory, or the engine failed.
pub async fn list_dir(link: &EngineLink, project: &str, dir: &str) -> Result<Vec<String>, String> {
    let call = call::ListDir {
        project: project.into(),
        dir: dir.into(),
    };
    ask(link, call).await.map_err(|e| e.to_string())?
}

impl Backend for DemoBackend {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            variant: Variant::Demo,
            endpoint: String::new(),
            tool_count: 0,
            resource_templates: 0,
            agent_tokens: false,
            operator: true,
            overseer_send: true,
        }
    }

    fn now_ms(&self) -> i64 {
        DEMO_NOW_MS + (crate::clock::now_ms() - self.opened_ms) as i64
    }

    fn projects(&self) -> BackendFuture<'_, Vec<Project>> {
        self.ask(call::Projects {})
    }

    fn agents(&self, project: &str) -> BackendFuture<'_, Vec<Agent>> {
        self.ask(call::Agents {
            project: project.into(),
        })
    }

    fn inbox(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<MailRow>> {
        if project == scale::SCALE_PROJECT {
            let rows = Self::scale_agent(agent).map(|n| scale::scale_rows(agent, n));
            return Box::pin(std::future::ready(rows));
        }
        self.ask(call::Inbox {
            project: project.into(),
            agent: agent.into(),
        })
    }

    fn outbox(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<MailRow>> {
        if project == scale::SCALE_PROJECT {
            let rows = Self::scale_agent(agent).map(|_| Vec::new());
            return Box::pin(std::future::ready(rows));
        }
        self.ask(call::Outbox {
            project: project.into(),
            agent: agent.into(),
        })
    }

    fn contacts(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<Contact>> {
        if project == scale::SCALE_PROJECT {
            let rows = Self::scale_agent(agent).map(|_| Vec::new());
            return Box::pin(std::future::ready(rows));
        }
        self.ask(call::Contacts {
            project: project.into(),
            agent: agent.into(),
        })
    }

    fn acked(&self, project: &str, agent: &str, _inbox: &[MailRow]) -> BackendFuture<'_, Vec<u64>> {
        if project == scale::SCALE_PROJECT {
            let ids = self
                .scale_acked
                .borrow()
                .iter()
                .filter(|(who, _)| who == agent)
                .map(|(_, id)| *id)
                .collect();
            return Box::pin(std::future::ready(Ok(ids)));
        }
        self.ask(call::Acked {
            project: project.into(),
            agent: agent.into(),
        })
    }

    fn message(&self, project: &str, agent: Option<&str>, id: u64) -> BackendFuture<'_, MailRow> {
        if project == scale::SCALE_PROJECT {
            return Box::pin(std::future::ready(Self::scale_message(agent, id)));
        }
        self.ask(call::Message {
            project: project.into(),
            agent: agent.map(Into::into),
            id,
        })
    }

    fn acknowledge(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        if project == scale::SCALE_PROJECT {
            let done = Self::scale_message(Some(agent), id).map(|_| {
                self.scale_acked
                    .borrow_mut()
                    .insert((agent.to_string(), id));
            });
            return Box::pin(std::future::ready(done));
        }
        self.ask(call::Acknowledge {
            project: project.into(),
            agent: agent.into(),
            id,
        })
    }

    fn mark_read(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        self.ask(call::MarkRead {
            project: project.into(),
            agent: agent.into(),
            id,
        })
    }

    fn reply(&self, project: &str, agent: &str, id: u64, body_md: &str) -> BackendFuture<'_, u64> {
        self.ask(call::Reply {
            project: project.into(),
            agent: agent.into(),
            id,
            body_md: body_md.into(),
            now_ms: self.now_ms(),
        })
    }

    fn send(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        self.ask(call::Send {
            project: project.into(),
            draft,
            now_ms: self.now_ms(),
        })
    }

    fn send_decision(&self, project: &str, decided: Decided) -> BackendFuture<'_, Vec<u64>> {
        // One call: the engine drafts the decision's messages where the demo's traffic is,
        // and its server stores them.
        self.ask(call::Decide {
            project: project.into(),
            decision: decided.decision,
            now_ms: self.now_ms(),
        })
    }

    fn keep_record(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        self.send(project, draft)
    }

    fn search(&self, project: &str, query: &str) -> BackendFuture<'_, Vec<SearchHit>> {
        self.ask(call::Search {
            project: project.into(),
            query: query.into(),
        })
    }

    fn reservations(&self, project: &str) -> BackendFuture<'_, Vec<Reservation>> {
        self.ask(call::Reservations {
            project: project.into(),
        })
    }

    fn release_reservation(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        self.ask(call::Release {
            project: project.into(),
            agent: agent.into(),
            id,
        })
    }

    fn unified_inbox(&self) -> BackendFuture<'_, Vec<UnifiedRow>> {
        self.ask(call::Unified {})
    }

    fn traffic(
        &self,
        project: &str,
        since: Option<&str>,
        sink: TrafficSink,
    ) -> BackendFuture<'_, ()> {
        let read = self.ask(call::Traffic {
            project: project.into(),
            since: since.map(Into::into),
        });
        let agents = self.agents(project);
        Box::pin(async move {
            let rows = read.await?;
            let agents = agents.await?;
            (sink.progress)(TrafficProgress {
                mailboxes_read: 1,
                mailboxes: 1,
                messages: rows.len(),
            });
            // The demo's server is in the engine: its whole traffic is one page.
            (sink.page)(TrafficPage {
                rows,
                agents: Some(agents.into_iter().map(|a| a.name).collect()),
                notes: Vec::new(),
                coverage: Coverage::Whole,
                pending: None,
            })
            .await
        })
    }
}
