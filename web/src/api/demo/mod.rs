//! The built-in demo: several projects and agents with hundreds of messages in every
//! protocol family, carried in Agent Mail `body_md` like real traffic — some deliberately
//! invalid — and curated sessions and tasks for the protocol views. Generated
//! deterministically, kept in memory by the demo server, which runs in the engine worker:
//! the main module holds only [`DemoBackend`], which asks it through the engine link. So
//! what the demo alone needs (its world, its generator, the core's builders and audit that
//! write its traffic) is not in the main module.
//!
//! - [`world`]: projects, agents, contacts, reservations, dates.
//! - [`traffic`]: the everyday traffic; [`scenarios`]: the curated part; [`scale`]: the
//!   synthetic 1k/10k/100k inboxes.
//! - [`server`]: the in-memory server answering [`DemoCall`]s.

pub mod scale;
pub mod scenarios;
pub mod server;
pub mod traffic;
pub mod world;

use super::{
    Agent, Backend, BackendError, BackendFuture, Capabilities, Draft, MailRow, Project,
    Reservation, SearchHit, TrafficProgress, TrafficRead, UnifiedRow, Variant,
};
use crate::link::EngineLink;
use crate::model::{DemoCall, DemoReply, Request, Response};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The demo as the UI sees it: a [`Backend`] whose server runs in the engine, except the
/// `scale` project's synthetic inboxes, which are written here, where the pane reads them
/// (the 100k inbox would otherwise wait for the worker and cross to the page as 19 MB of
/// text; its first rows are a benchmark goal).
pub struct DemoBackend {
    link: EngineLink,
    opened_ms: f64,
    /// Acknowledged `(agent, id)` of the scale inboxes.
    scale_acked: RefCell<BTreeSet<(String, u64)>>,
}

impl DemoBackend {
    /// The demo, reached through `link`; its clock starts at [`world::DEMO_NOW_MS`] now.
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
        let m = agent
            .and_then(|a| scale::scale_size(a).map(|n| (a, n)))
            .filter(|(_, n)| id >= scale::SCALE_BASE && id - scale::SCALE_BASE < *n)
            .map(|(a, _)| scale::scale_message(a, id - scale::SCALE_BASE))
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))?;
        Ok(MailRow {
            id: m.id,
            thread_id: m.thread_id,
            from: m.from,
            to: m.to,
            subject: m.subject,
            created_ts: m.created_ts,
            importance: m.importance,
            ack_required: m.ack_required,
            acknowledged: false,
            body_md: m.body_md,
            ..MailRow::default()
        })
    }

    async fn call(&self, call: DemoCall) -> Result<DemoReply, BackendError> {
        match self.link.call(Request::Demo(call)).await {
            Ok(Response::Demo(reply)) => reply,
            Ok(_) => Err(BackendError::BadReply(
                "the engine answered off topic".into(),
            )),
            Err(text) => Err(BackendError::Server(text)),
        }
    }
}

/// The contract files and diff a demo session was audited with, if it has them.
///
/// # Errors
/// The engine failed.
pub async fn contract(
    link: &EngineLink,
    thread: &str,
) -> Result<Option<(Vec<(String, String)>, String)>, String> {
    let call = DemoCall::Contract {
        thread: thread.into(),
    };
    match link.call(Request::Demo(call)).await? {
        Response::Demo(Ok(DemoReply::Contract(contract))) => Ok(contract),
        Response::Demo(Err(e)) => Err(e.to_string()),
        _ => Err("The engine answered off topic.".into()),
    }
}

fn off_topic() -> BackendError {
    BackendError::BadReply("the demo answered off topic".into())
}

/// A [`Backend`] method over one [`DemoCall`]: the call, then the reply variant it expects.
macro_rules! demo_call {
    ($self:ident, $call:expr, $reply:pat => $value:expr) => {{
        let call = $call;
        Box::pin(async move {
            match $self.call(call).await? {
                $reply => Ok($value),
                _ => Err(off_topic()),
            }
        })
    }};
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
        world::DEMO_NOW_MS + (crate::clock::now_ms() - self.opened_ms) as i64
    }

    fn projects(&self) -> BackendFuture<'_, Vec<Project>> {
        demo_call!(self, DemoCall::Projects, DemoReply::Projects(v) => v)
    }

    fn agents(&self, project: &str) -> BackendFuture<'_, Vec<Agent>> {
        demo_call!(self, DemoCall::Agents { project: project.into() }, DemoReply::Agents(v) => v)
    }

    fn inbox(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        if project == scale::SCALE_PROJECT {
            let rows = Self::scale_agent(agent).map(|n| scale::scale_rows(agent, n));
            return Box::pin(std::future::ready(rows));
        }
        let call = DemoCall::Inbox {
            project: project.into(),
            agent: agent.into(),
        };
        demo_call!(self, call, DemoReply::Text(v) => v)
    }

    fn outbox(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        if project == scale::SCALE_PROJECT {
            let rows = Self::scale_agent(agent).map(|_| "[]".to_string());
            return Box::pin(std::future::ready(rows));
        }
        let call = DemoCall::Outbox {
            project: project.into(),
            agent: agent.into(),
        };
        demo_call!(self, call, DemoReply::Text(v) => v)
    }

    fn contacts(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        if project == scale::SCALE_PROJECT {
            let rows = Self::scale_agent(agent).map(|_| "[]".to_string());
            return Box::pin(std::future::ready(rows));
        }
        let call = DemoCall::Contacts {
            project: project.into(),
            agent: agent.into(),
        };
        demo_call!(self, call, DemoReply::Text(v) => v)
    }

    fn acked(&self, project: &str, agent: &str, _inbox: &str) -> BackendFuture<'_, Vec<u64>> {
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
        let call = DemoCall::Acked {
            project: project.into(),
            agent: agent.into(),
        };
        demo_call!(self, call, DemoReply::Ids(v) => v)
    }

    fn message(&self, project: &str, agent: Option<&str>, id: u64) -> BackendFuture<'_, MailRow> {
        if project == scale::SCALE_PROJECT {
            return Box::pin(std::future::ready(Self::scale_message(agent, id)));
        }
        let call = DemoCall::Message {
            project: project.into(),
            agent: agent.map(Into::into),
            id,
        };
        demo_call!(self, call, DemoReply::Message(v) => v)
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
        let call = DemoCall::Acknowledge {
            project: project.into(),
            agent: agent.into(),
            id,
        };
        demo_call!(self, call, DemoReply::Done => ())
    }

    fn mark_read(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let call = DemoCall::MarkRead {
            project: project.into(),
            agent: agent.into(),
            id,
        };
        demo_call!(self, call, DemoReply::Done => ())
    }

    fn reply(&self, project: &str, agent: &str, id: u64, body_md: &str) -> BackendFuture<'_, u64> {
        let call = DemoCall::Reply {
            project: project.into(),
            agent: agent.into(),
            id,
            body_md: body_md.into(),
            now_ms: self.now_ms(),
        };
        demo_call!(self, call, DemoReply::Id(v) => v)
    }

    fn send(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        let call = DemoCall::Send {
            project: project.into(),
            draft,
            now_ms: self.now_ms(),
        };
        demo_call!(self, call, DemoReply::Id(v) => v)
    }

    fn search(&self, project: &str, query: &str) -> BackendFuture<'_, Vec<SearchHit>> {
        let call = DemoCall::Search {
            project: project.into(),
            query: query.into(),
        };
        demo_call!(self, call, DemoReply::Hits(v) => v)
    }

    fn reservations(&self, project: &str) -> BackendFuture<'_, Vec<Reservation>> {
        let call = DemoCall::Reservations {
            project: project.into(),
        };
        demo_call!(self, call, DemoReply::Reservations(v) => v)
    }

    fn release_reservation(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let call = DemoCall::Release {
            project: project.into(),
            agent: agent.into(),
            id,
        };
        demo_call!(self, call, DemoReply::Done => ())
    }

    fn unified_inbox(&self) -> BackendFuture<'_, Vec<UnifiedRow>> {
        demo_call!(self, DemoCall::Unified, DemoReply::Unified(v) => v)
    }

    fn traffic(
        &self,
        project: &str,
        since: Option<&str>,
        progress: Rc<dyn Fn(TrafficProgress)>,
    ) -> BackendFuture<'_, TrafficRead> {
        let call = DemoCall::Traffic {
            project: project.into(),
            since: since.map(Into::into),
        };
        Box::pin(async move {
            match self.call(call).await? {
                DemoReply::Rows(rows) => {
                    progress(TrafficProgress {
                        mailboxes_read: 1,
                        mailboxes: 1,
                        messages: rows.len(),
                    });
                    Ok(TrafficRead {
                        rows,
                        notes: Vec::new(),
                    })
                }
                _ => Err(off_topic()),
            }
        })
    }
}

#[cfg(test)]
mod tests;
