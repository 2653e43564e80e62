//! The demo server's calls ([`crate::api::demo::call`]) answered, each as its own answer
//! type. A decision is drafted here, from the demo project's loaded traffic, and sent by the
//! server in the same call.

use super::sessions;
use super::traffic::Traffic;
use crate::api::demo::call::{self, DemoAsk, DemoCall, DemoResult};
use crate::api::demo::folder;
use crate::api::demo::server::DemoServer;
use crate::api::BackendError;
use crate::ask::encode_demo;
use crate::model::TrafficKey;
use crate::routes::Source;
use std::collections::HashMap;

/// The answer to call `Q` as it crosses.
fn reply<Q: DemoAsk>(answer: DemoResult<Q>) -> Vec<u8> {
    encode_demo::<Q>(answer)
}

/// Answers one call to the demo server.
pub fn answer(
    server: &mut DemoServer,
    traffic: &HashMap<TrafficKey, Traffic>,
    call: DemoCall,
) -> Vec<u8> {
    match call {
        DemoCall::Projects(_) => reply::<call::Projects>(Ok(server.projects())),
        DemoCall::Agents(c) => reply::<call::Agents>(server.agents(&c.project)),
        DemoCall::Inbox(c) => reply::<call::Inbox>(server.rows(&c.project, &c.agent, false)),
        DemoCall::Outbox(c) => reply::<call::Outbox>(server.rows(&c.project, &c.agent, true)),
        DemoCall::Contacts(c) => reply::<call::Contacts>(server.contacts(&c.project, &c.agent)),
        DemoCall::Acked(c) => reply::<call::Acked>(Ok(server.acked(&c.agent))),
        DemoCall::Message(c) => reply::<call::Message>(server.message(&c.project, c.id)),
        DemoCall::Acknowledge(c) => {
            reply::<call::Acknowledge>(server.acknowledge(&c.project, &c.agent, c.id))
        }
        DemoCall::MarkRead(c) => {
            reply::<call::MarkRead>(server.mark_read(&c.project, &c.agent, c.id))
        }
        DemoCall::Reply(c) => {
            reply::<call::Reply>(server.reply(&c.project, &c.agent, c.id, &c.body_md, c.now_ms))
        }
        DemoCall::Send(c) => reply::<call::Send>(server.send(&c.project, c.draft, c.now_ms)),
        DemoCall::Decide(c) => reply::<call::Decide>(decide(server, traffic, c)),
        DemoCall::Search(c) => reply::<call::Search>(server.search(&c.project, &c.query)),
        DemoCall::Reservations(c) => reply::<call::Reservations>(server.reservations(&c.project)),
        DemoCall::Release(c) => reply::<call::Release>(server.release(&c.project, &c.agent, c.id)),
        DemoCall::Unified(_) => reply::<call::Unified>(Ok(server.unified())),
        DemoCall::Traffic(c) => {
            reply::<call::Traffic>(server.traffic(&c.project, c.since.as_deref()))
        }
        DemoCall::Contract(c) => reply::<call::Contract>(Ok(server.contract(&c.thread))),
        DemoCall::ReadFile(c) => reply::<call::ReadFile>(Ok(folder::read(&c.project, &c.path))),
        DemoCall::ListDir(c) => reply::<call::ListDir>(Ok(folder::list(&c.project, &c.dir))),
    }
}

/// Drafts a decision from the demo project's traffic and sends its messages.
fn decide(
    server: &mut DemoServer,
    traffic: &HashMap<TrafficKey, Traffic>,
    c: call::Decide,
) -> DemoResult<call::Decide> {
    let key = TrafficKey {
        src: Source::Demo,
        project: c.project.clone(),
    };
    let loaded = traffic.get(&key).ok_or_else(|| {
        BackendError::Engine(format!(
            "The traffic of project {} is not loaded.",
            c.project
        ))
    })?;
    let drafts = sessions::drafts(loaded, &c.decision).map_err(BackendError::Invalid)?;
    drafts
        .into_iter()
        .map(|draft| server.send(&c.project, draft, c.now_ms))
        .collect()
}
