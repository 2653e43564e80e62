//! Reading a project's whole traffic: every agent's mailbox with bodies (each message sits in
//! the inbox of every recipient, so the union of the inboxes is the project's mail; the
//! engine merges them by message id, with the recipients found), and which messages still
//! wait for an acknowledgement, from each agent's ack-required view.
//!
//! It is handed over in pages so that the protocol views draw sessions while the rest
//! arrives: first a glance at each mailbox (its newest [`GLANCE`] messages, which hold every
//! message sent to it after the oldest of them), then each mailbox in full, and a last page
//! with the acknowledgements ([`Coverage::Whole`]). Every page says how far each mailbox
//! has been read, so the engine knows which sessions it holds in full. A page goes to the
//! engine after the first two mailboxes (the first agent's, then its main correspondent's),
//! and then whenever what arrived since the last
//! page at least matches what was handed over before: the engine folds older mail by a
//! replay, so it folds about twice what it holds at most.
//!
//! `fetch_inbox` is fast but returns at most 1,000 messages on the servers we know (0.2.1
//! caps `limit` there); an inbox that fills it is read again through `resource://inbox/…`,
//! whose `limit` has no cap (the servers look up each message's archive commit there, so it
//! is slower). Upstream 0.2.1's resource ignores its query (it returns the newest 20
//! without bodies), so there an inbox holds at most its newest 1,000 messages for the
//! console, and the read says so in a note. Three mailboxes are read at a time (six for the
//! glance: its replies are small).

use super::McpBackend;
use crate::api::{BackendError, Coverage, MailRow, TrafficPage, TrafficProgress, TrafficSink};
use crate::percent::encode;
use std::collections::BTreeSet;
use switchboard_core::agent_mail::replies;

/// `fetch_inbox`'s largest `limit` (0.2.1 caps larger ones to it).
const TOOL_LIMIT: usize = 1000;
/// The `limit` asked of resources, which take any.
const RESOURCE_LIMIT: usize = 1_000_000;
/// Mailboxes read at the same time.
const PARALLEL: usize = 3;
/// The newest messages of each mailbox read first.
pub const GLANCE: usize = 50;
/// Mailboxes glanced at at the same time (a browser's connections to one host).
const GLANCE_PARALLEL: usize = 6;

/// One agent's mailbox as traffic: its inbox rows and the ids still waiting for its
/// acknowledgement.
struct MailboxTraffic {
    rows: Vec<MailRow>,
    pending: BTreeSet<u64>,
    /// The inbox holds more than the server returned (the rows are its newest).
    truncated: bool,
}

impl MailboxTraffic {
    /// When the oldest row was sent (as the server writes times, which compare as text),
    /// when the mailbox holds older mail than its rows: the rows hold every message of the
    /// mailbox sent after it.
    fn reach(&self) -> Option<String> {
        self.truncated
            .then(|| self.rows.iter().map(|r| r.created_ts.as_str()).min())
            .flatten()
            .map(str::to_owned)
    }
}

/// A read in progress: the rows read since the last page (each with the agent whose inbox
/// held it among its recipients; the engine merges a message found in several inboxes), how
/// far each mailbox has been read, and the messages still waiting for an acknowledgement.
struct Reading {
    agents: Vec<String>,
    rows: Vec<MailRow>,
    handed: usize,
    /// Per agent: not read yet (`None`), or the time after which its mail is held
    /// (`Some(None)`: all of it).
    reach: Vec<Option<Option<String>>>,
    pending: Vec<u64>,
    notes: Vec<String>,
    progress: TrafficProgress,
}

impl Reading {
    /// Takes the rows of mailbox `i`, read as far as `reach`.
    fn merge(&mut self, i: usize, rows: Vec<MailRow>, reach: Option<String>) {
        let agent = &self.agents[i];
        self.progress.messages += rows.len();
        for mut row in rows {
            if !row.to.iter().any(|t| t == agent) {
                row.to.push(agent.clone());
            }
            self.rows.push(row);
        }
        self.reach[i] = Some(reach);
    }

    /// The agent who sent the newest of the rows read since the last page (the mailbox read
    /// first, newest first: its latest correspondent).
    fn partner(&self) -> Option<usize> {
        let from = &self.rows.first()?.from;
        self.agents.iter().position(|a| a == from)
    }

    /// What the pages so far hold.
    fn coverage(&self) -> Coverage {
        Coverage::Reading(
            self.agents
                .iter()
                .zip(&self.reach)
                .filter_map(|(agent, reach)| Some((agent.clone(), reach.clone()?)))
                .collect(),
        )
    }

    /// Whether a page is due: the first, and then one at least as large as what was handed.
    fn page_due(&self) -> bool {
        !self.rows.is_empty() && self.rows.len() >= self.handed
    }

    /// A page of the rows read since the last one, as covering `coverage`.
    fn page(&mut self, coverage: Coverage, pending: Option<Vec<u64>>) -> TrafficPage {
        let rows = std::mem::take(&mut self.rows);
        self.handed += rows.len();
        TrafficPage {
            rows,
            agents: Some(self.agents.clone()),
            notes: self.notes.clone(),
            coverage,
            pending,
        }
    }
}

impl McpBackend {
    /// See [`crate::api::Backend::traffic`].
    pub(super) async fn read_traffic(
        &self,
        project: &str,
        since: Option<&str>,
        sink: TrafficSink,
    ) -> Result<(), BackendError> {
        let agents = self.agent_names(project).await?;
        let count = agents.len();
        let mut read = Reading {
            agents,
            rows: Vec::new(),
            handed: 0,
            reach: vec![None; count],
            pending: Vec::new(),
            notes: Vec::new(),
            progress: TrafficProgress {
                mailboxes: count,
                ..TrafficProgress::default()
            },
        };
        (sink.progress)(read.progress);
        let indices: Vec<usize> = (0..count).collect();
        if since.is_none() {
            // First the mailbox of the agent the server lists first (0.2.1: the most recently
            // active), then that of whom it heard from last (its partner in a Pair session):
            // a server answers one call after the other, and their sessions are whole on the
            // first page.
            let mut order = indices.clone();
            let mut at = 0;
            while at < count {
                let end = (at + if at < 2 { 1 } else { GLANCE_PARALLEL }).min(count);
                self.glance(project, &mut read, &order[at..end]).await?;
                if at == 0 {
                    let partner = read.partner();
                    if let Some(p) = order[1..].iter().position(|&i| Some(i) == partner) {
                        order.swap(1, 1 + p);
                    }
                }
                at = end;
                (sink.progress)(read.progress);
                if at >= count.min(2) && read.page_due() {
                    let coverage = read.coverage();
                    (sink.page)(read.page(coverage, None)).await?;
                }
            }
        }
        for chunk in indices.chunks(PARALLEL) {
            let results = self.round(project, &read.agents, chunk, since, false).await;
            for (&i, result) in chunk.iter().zip(results) {
                let mailbox = result?;
                if mailbox.truncated {
                    read.notes.push(format!(
                        "{}'s inbox holds more than the {} newest messages this server returns; older ones are left out.",
                        read.agents[i],
                        mailbox.rows.len()
                    ));
                }
                read.pending.extend(mailbox.pending);
                // As far as the server returns it.
                read.merge(i, mailbox.rows, None);
            }
            read.progress.mailboxes_read += chunk.len();
            (sink.progress)(read.progress);
            let last = chunk.last() == indices.last();
            if since.is_none() && !last && read.page_due() {
                let coverage = read.coverage();
                (sink.page)(read.page(coverage, None)).await?;
            }
        }
        let pending = std::mem::take(&mut read.pending);
        (sink.page)(read.page(Coverage::Whole, Some(pending))).await
    }

    /// A glance at the mailboxes of `read.agents[chunk]`, taken into `read`.
    async fn glance(
        &self,
        project: &str,
        read: &mut Reading,
        chunk: &[usize],
    ) -> Result<(), BackendError> {
        let results = self.round(project, &read.agents, chunk, None, true).await;
        for (&i, result) in chunk.iter().zip(results) {
            let mailbox = result?;
            let reach = mailbox.reach();
            read.merge(i, mailbox.rows, reach);
        }
        Ok(())
    }

    /// The mailboxes of `agents[chunk]` read together: in full, or a glance.
    async fn round(
        &self,
        project: &str,
        agents: &[String],
        chunk: &[usize],
        since: Option<&str>,
        glance: bool,
    ) -> Vec<Result<MailboxTraffic, BackendError>> {
        let limit = glance.then_some(GLANCE);
        let reads = chunk
            .iter()
            .map(|&i| self.mailbox_traffic(project, &agents[i], since, limit));
        futures::future::join_all(reads).await
    }

    /// An agent's mailbox: all of it (newer than `since`), or its newest `glance` messages
    /// without their acknowledgements.
    async fn mailbox_traffic(
        &self,
        project: &str,
        agent: &str,
        since: Option<&str>,
        glance: Option<usize>,
    ) -> Result<MailboxTraffic, BackendError> {
        if self.capabilities.agent_tokens
            && self.token(agent).is_none()
            && self.capabilities.operator
        {
            // No token for this agent: its mail as the operator endpoint shows it.
            let body = self.unified_body().await?;
            let rows = super::operator::unified_mail(&body, project)?
                .into_iter()
                .filter(|r| r.to.iter().any(|t| t == agent))
                .filter(|r| since.is_none_or(|s| r.created_ts.as_str() > s))
                .collect();
            return Ok(MailboxTraffic {
                rows,
                pending: BTreeSet::new(),
                truncated: false,
            });
        }
        let limit = glance.unwrap_or(TOOL_LIMIT);
        let mut extra = serde_json::json!({"include_bodies": true, "limit": limit});
        if let Some(since) = since {
            extra["since_ts"] = since.into();
        }
        let reply = self
            .tool("fetch_inbox", self.agent_args(project, agent, extra))
            .await?;
        let mut rows = MailRow::rows(&reply).map_err(super::rpc::adapter_error)?;
        let mut truncated = rows.len() >= limit;
        if truncated && glance.is_none() {
            let mut uri = format!(
                "resource://inbox/{}?{}&limit={RESOURCE_LIMIT}&include_bodies=true",
                encode(agent),
                self.agent_query(project, agent)
            );
            if let Some(since) = since {
                uri.push_str(&format!("&since_ts={}", encode(since)));
            }
            // Used only when it gave more (and, with bodies, all of them): 0.2.1 ignores the
            // query and returns the newest 20 without bodies.
            let whole = match self.agent_resource(&uri, agent).await {
                Ok(reply) => MailRow::rows(&reply).unwrap_or_default(),
                Err(_) => Vec::new(),
            };
            if whole.len() > rows.len() {
                rows = whole;
                truncated = false;
            }
        }
        if glance.is_some() {
            return Ok(MailboxTraffic {
                rows,
                pending: BTreeSet::new(),
                truncated,
            });
        }
        let view = format!(
            "resource://views/ack-required/{}?{}&limit={RESOURCE_LIMIT}",
            encode(agent),
            self.agent_query(project, agent)
        );
        // A server without the view: nothing is known to be acknowledged.
        let pending = match self.agent_resource(&view, agent).await {
            Ok(reply) => replies::pending_ack_ids(&reply)
                .map(|ids| ids.into_iter().collect())
                .unwrap_or_else(|_| rows.iter().map(|r| r.id).collect()),
            Err(_) => rows.iter().map(|r| r.id).collect(),
        };
        Ok(MailboxTraffic {
            rows,
            pending,
            truncated,
        })
    }
}
