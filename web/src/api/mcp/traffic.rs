//! Reading a project's whole traffic: every agent's mailbox with bodies, merged by message id
//! (each message sits in the inbox of every recipient, so the union of the inboxes is the
//! project's mail), with the recipients found and the acknowledgement state from each
//! agent's ack-required view.
//!
//! It is handed over in pages, the newest mail first, so that the protocol views draw the
//! newest sessions while the rest arrives: first a glance (each mailbox's newest
//! [`GLANCE`] messages), which holds every message sent after the oldest of a mailbox it did
//! not see to the end; then each mailbox in full, a page whenever what arrived since the last
//! page at least matches what was handed over before (so the engine, which folds older mail
//! by a replay, folds about twice what it holds at most), and a last page with the
//! acknowledgements ([`Coverage::Whole`]).
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
use std::collections::{BTreeMap, BTreeSet};
use switchboard_core::agent_mail::replies;
use switchboard_core::time::Timestamp;

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
    /// When the oldest row was sent, when the mailbox holds older mail than its rows: the
    /// rows hold every message of the mailbox sent after it.
    fn reach(&self) -> Option<(Timestamp, String)> {
        if !self.truncated {
            return None;
        }
        self.rows
            .iter()
            .map(|r| {
                let at = Timestamp::parse(&r.created_ts).unwrap_or(Timestamp(i64::MAX));
                (at, r.created_ts.clone())
            })
            .min()
    }
}

/// A read in progress: the messages found, which of them the engine has not had yet (new,
/// or found since with another recipient), and how far each mailbox has been read.
struct Reading {
    by_id: BTreeMap<u64, MailRow>,
    fresh: BTreeSet<u64>,
    handed: usize,
    reach: Vec<Option<(Timestamp, String)>>,
    pending: BTreeSet<u64>,
    notes: Vec<String>,
    progress: TrafficProgress,
}

impl Reading {
    /// Takes the rows of `agent`'s inbox.
    fn merge(&mut self, agent: &str, rows: Vec<MailRow>) {
        for row in rows {
            let id = row.id;
            let kept = self.by_id.entry(id).or_insert_with(|| {
                self.fresh.insert(id);
                row
            });
            if !kept.to.iter().any(|t| t == agent) {
                kept.to.push(agent.to_owned());
                self.fresh.insert(id);
            }
        }
        self.progress.messages = self.by_id.len();
    }

    /// What the pages so far hold.
    fn coverage(&self) -> Coverage {
        Coverage::Reading(self.reach.iter().flatten().max().map(|(_, at)| at.clone()))
    }

    /// A page of what the engine has not had, as covering `coverage`.
    fn page(&mut self, agents: &[String], coverage: Coverage) -> TrafficPage {
        let rows: Vec<MailRow> = std::mem::take(&mut self.fresh)
            .into_iter()
            .filter_map(|id| self.by_id.get(&id).cloned())
            .collect();
        self.handed += rows.len();
        TrafficPage {
            rows,
            agents: Some(agents.to_vec()),
            notes: self.notes.clone(),
            coverage,
        }
    }

    /// Sets every message's acknowledgement from the views read (a message is acknowledged
    /// when no recipient still lists it); those it changes go in the next page.
    fn acknowledge(&mut self) {
        for (id, row) in &mut self.by_id {
            let acknowledged = row.acknowledged || (row.ack_required && !self.pending.contains(id));
            if acknowledged != row.acknowledged {
                row.acknowledged = acknowledged;
                self.fresh.insert(*id);
            }
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
        let mut read = Reading {
            by_id: BTreeMap::new(),
            fresh: BTreeSet::new(),
            handed: 0,
            reach: vec![None; agents.len()],
            pending: BTreeSet::new(),
            notes: Vec::new(),
            progress: TrafficProgress {
                mailboxes: agents.len(),
                ..TrafficProgress::default()
            },
        };
        (sink.progress)(read.progress);
        if since.is_none() {
            for (n, chunk) in agents.chunks(GLANCE_PARALLEL).enumerate() {
                let glances = chunk
                    .iter()
                    .map(|agent| self.mailbox_traffic(project, agent, None, Some(GLANCE)));
                let results = futures::future::join_all(glances).await;
                for (i, (agent, result)) in chunk.iter().zip(results).enumerate() {
                    let mailbox = result?;
                    read.reach[n * GLANCE_PARALLEL + i] = mailbox.reach();
                    read.merge(agent, mailbox.rows);
                }
                (sink.progress)(read.progress);
            }
            let coverage = read.coverage();
            (sink.page)(read.page(&agents, coverage)).await?;
        }
        let chunks = agents.chunks(PARALLEL).count();
        for (n, chunk) in agents.chunks(PARALLEL).enumerate() {
            let reads = chunk
                .iter()
                .map(|agent| self.mailbox_traffic(project, agent, since, None));
            let results = futures::future::join_all(reads).await;
            for (i, (agent, result)) in chunk.iter().zip(results).enumerate() {
                let mailbox = result?;
                if mailbox.truncated {
                    read.notes.push(format!(
                        "{agent}'s inbox holds more than the {} newest messages this server returns; older ones are left out.",
                        mailbox.rows.len()
                    ));
                }
                read.reach[n * PARALLEL + i] = None;
                read.pending.extend(mailbox.pending);
                read.merge(agent, mailbox.rows);
            }
            read.progress.mailboxes_read += chunk.len();
            (sink.progress)(read.progress);
            if since.is_none() && n + 1 < chunks && read.fresh.len() >= read.handed.max(1) {
                let coverage = read.coverage();
                (sink.page)(read.page(&agents, coverage)).await?;
            }
        }
        read.acknowledge();
        (sink.page)(read.page(&agents, Coverage::Whole)).await
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
