//! Reading a project's whole traffic: every agent's mailbox with bodies, merged by message id
//! (each message sits in the inbox of every recipient, so the union of the inboxes is the
//! project's mail), with the recipients found and the acknowledgement state from each
//! agent's ack-required view.
//!
//! `fetch_inbox` is fast but returns at most 1,000 messages on the servers we know (0.2.1
//! caps `limit` there); an inbox that fills it is read again through `resource://inbox/…`,
//! whose `limit` has no cap (the servers look up each message's archive commit there, so it
//! is slower). Upstream 0.2.1's resource ignores its query (it returns the newest 20
//! without bodies), so there an inbox holds at most its newest 1,000 messages for the
//! console, and the read says so in a note. Three mailboxes are read at a time.

use super::McpBackend;
use crate::api::{BackendError, MailRow, TrafficProgress, TrafficRead};
use crate::percent::encode;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use switchboard_core::agent_mail::replies;

/// `fetch_inbox`'s largest `limit` (0.2.1 caps larger ones to it).
const TOOL_LIMIT: usize = 1000;
/// The `limit` asked of resources, which take any.
const RESOURCE_LIMIT: usize = 1_000_000;
/// Mailboxes read at the same time.
const PARALLEL: usize = 3;

/// One agent's mailbox as traffic: its inbox rows and the ids still waiting for its
/// acknowledgement.
struct MailboxTraffic {
    rows: Vec<MailRow>,
    pending: BTreeSet<u64>,
    /// The inbox holds more than the server returned.
    truncated: bool,
}

impl McpBackend {
    /// See [`crate::api::Backend::traffic`].
    pub(super) async fn read_traffic(
        &self,
        project: &str,
        since: Option<&str>,
        progress: Rc<dyn Fn(TrafficProgress)>,
    ) -> Result<TrafficRead, BackendError> {
        let agents = self.agent_names(project).await?;
        let mut notes = Vec::new();
        let mut seen = TrafficProgress {
            mailboxes: agents.len(),
            ..TrafficProgress::default()
        };
        progress(seen);
        let mut by_id: BTreeMap<u64, MailRow> = BTreeMap::new();
        let mut pending: BTreeSet<u64> = BTreeSet::new();
        for chunk in agents.chunks(PARALLEL) {
            let reads = chunk
                .iter()
                .map(|agent| self.mailbox_traffic(project, agent, since));
            let results = futures::future::join_all(reads).await;
            for (agent, result) in chunk.iter().zip(results) {
                let mailbox = result?;
                if mailbox.truncated {
                    notes.push(format!(
                        "{agent}'s inbox holds more than the {} newest messages this server returns; older ones are left out.",
                        mailbox.rows.len()
                    ));
                }
                pending.extend(mailbox.pending);
                for row in mailbox.rows {
                    let kept = by_id.entry(row.id).or_insert(row);
                    if !kept.to.contains(agent) {
                        kept.to.push(agent.clone());
                    }
                }
            }
            seen.mailboxes_read += chunk.len();
            seen.messages = by_id.len();
            progress(seen);
        }
        let rows = by_id
            .into_values()
            .map(|mut row| {
                row.acknowledged =
                    row.acknowledged || (row.ack_required && !pending.contains(&row.id));
                row
            })
            .collect();
        Ok(TrafficRead {
            rows,
            agents: Some(agents),
            notes,
        })
    }

    async fn mailbox_traffic(
        &self,
        project: &str,
        agent: &str,
        since: Option<&str>,
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
        let mut extra = serde_json::json!({"include_bodies": true, "limit": TOOL_LIMIT});
        if let Some(since) = since {
            extra["since_ts"] = since.into();
        }
        let reply = self
            .tool("fetch_inbox", self.agent_args(project, agent, extra))
            .await?;
        let mut rows = MailRow::rows(&reply).map_err(super::rpc::adapter_error)?;
        let mut truncated = false;
        if rows.len() >= TOOL_LIMIT {
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
            } else {
                truncated = true;
            }
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
