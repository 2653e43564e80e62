//! The real backend: a stateless JSON-RPC-over-HTTP client for any MCP Agent Mail server
//! (Python upstream ≤ 0.2 and ≥ 0.3, the Rust port, the `mcp-mail` fork), one file per job:
//!
//! - [`config`]: what the reviewer typed; [`probe`]: finding the endpoint and the variant;
//! - [`rpc`]: JSON-RPC calls, agent tokens, error mapping; [`http`]: `fetch`;
//! - [`operator`]: the unified inbox; [`traffic`]: a project's whole traffic;
//! - this file: the [`Backend`] implementation over them.
//!
//! Replies are decoded by the core (`switchboard_core::agent_mail::replies`:
//! `structuredContent`, `content[0].text`, the fork's extra `{"result": …}`; `isError`
//! becomes a tool error). Every request carries an `AbortSignal` whose controller is aborted
//! when the reactive owner that started it is cleaned up (navigating away cancels in-flight
//! fetches). Tokens live only in this struct (and in sessionStorage when the user asks):
//! never in URLs or logs.

mod config;
mod http;
mod operator;
mod probe;
mod rpc;
pub(super) mod traffic;

pub use config::ConnectConfig;
pub use operator::{unified_mail, unified_rows};
pub use probe::detect_variant;
pub use rpc::adapter_error;

use super::{
    Agent, Backend, BackendError, BackendFuture, Capabilities, Contact, Decided, Draft, MailRow,
    Project, Reservation, SearchHit, TrafficSink, UnifiedRow, Variant,
};
use crate::percent::encode;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use switchboard_core::agent_mail::replies;
use switchboard_core::evidence::trail::{TRAIL_AGENT, TRAIL_PROGRAM};

fn str_field(value: &Value, key: &str) -> String {
    match value.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn flag(value: &Value, key: &str) -> bool {
    match value.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_u64() == Some(1),
        _ => false,
    }
}

/// The real backend (see the module docs).
pub struct McpBackend {
    config: ConnectConfig,
    root: String,
    endpoint: String,
    tools: BTreeSet<String>,
    capabilities: Capabilities,
    next_id: Cell<u64>,
    /// Acknowledgements made in this session (for servers without ack views).
    local_acks: RefCell<BTreeSet<(String, String, u64)>>,
}

impl McpBackend {
    /// The connection settings (for "remember me").
    #[must_use]
    pub fn config(&self) -> &ConnectConfig {
        &self.config
    }
    /// The message `id` from `agent`'s inbox (`fetch_inbox` with bodies).
    async fn inbox_message(
        &self,
        project: &str,
        agent: &str,
        id: u64,
    ) -> Result<MailRow, BackendError> {
        let reply = self.fetch_inbox(project, agent, true).await?;
        let payload = replies::reply_payload(&reply).map_err(adapter_error)?;
        payload
            .as_array()
            .and_then(|rows| {
                rows.iter()
                    .find(|row| row.get("id").and_then(Value::as_u64) == Some(id))
            })
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
            .and_then(|row| MailRow::from_value(row).map_err(adapter_error))
    }

    async fn agent_names(&self, project: &str) -> Result<Vec<String>, BackendError> {
        Ok(self
            .agents_list(project)
            .await?
            .into_iter()
            .map(|a| a.name)
            .collect())
    }

    async fn agents_list(&self, project: &str) -> Result<Vec<Agent>, BackendError> {
        let reply = self
            .resource(&format!("resource://agents/{}", encode(project)))
            .await?;
        let payload = replies::reply_payload(&reply).map_err(adapter_error)?;
        let rows = payload
            .get("agents")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Ok(rows
            .iter()
            .map(|row| Agent {
                name: str_field(row, "name"),
                program: str_field(row, "program"),
                model: str_field(row, "model"),
                task: str_field(row, "task_description"),
                unread: row.get("unread_count").and_then(Value::as_u64),
            })
            .filter(|a| !a.name.is_empty())
            .collect())
    }

    /// The body of `GET /mail/api/unified-inbox` (operator mode).
    async fn unified_body(&self) -> Result<String, BackendError> {
        if !self.capabilities.operator {
            return Err(BackendError::Unsupported(
                "operator mode (GET /mail/api/unified-inbox)".into(),
            ));
        }
        let url = format!("{}/mail/api/unified-inbox?limit=1000", self.root);
        http::get(&url, self.config.bearer.as_deref())
            .await
            .map_err(|_| BackendError::Server(format!("{url} did not answer")))
    }

    async fn fetch_inbox(
        &self,
        project: &str,
        agent: &str,
        bodies: bool,
    ) -> Result<String, BackendError> {
        self.tool(
            "fetch_inbox",
            self.agent_args(
                project,
                agent,
                json!({"include_bodies": bodies, "limit": 1000}),
            ),
        )
        .await
    }
}

impl Backend for McpBackend {
    fn capabilities(&self) -> Capabilities {
        self.capabilities.clone()
    }

    fn now_ms(&self) -> i64 {
        crate::clock::now_ms() as i64
    }

    fn projects(&self) -> BackendFuture<'_, Vec<Project>> {
        Box::pin(async move {
            let reply = self.resource("resource://projects").await;
            let rows = match reply.map(|r| replies::reply_payload(&r).map_err(adapter_error)) {
                Ok(Ok(Value::Array(rows))) => rows,
                Ok(Ok(_)) => return Err(BackendError::BadReply("projects: not a list".into())),
                Ok(Err(err)) | Err(err) => match &self.config.project {
                    Some(project) => vec![json!({"slug": project, "human_key": project})],
                    None => return Err(err),
                },
            };
            Ok(rows
                .iter()
                .map(|row| Project {
                    slug: str_field(row, "slug"),
                    human_key: str_field(row, "human_key"),
                })
                .filter(|p| !p.slug.is_empty())
                .collect())
        })
    }

    fn agents(&self, project: &str) -> BackendFuture<'_, Vec<Agent>> {
        let project = project.to_string();
        Box::pin(async move { self.agents_list(&project).await })
    }

    fn inbox(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<MailRow>> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            // Operator mode: without this agent's token, read its mail from the unified
            // inbox (server-wide, no agent token needed).
            if self.capabilities.agent_tokens
                && self.token(&agent).is_none()
                && self.capabilities.operator
            {
                let body = self.unified_body().await?;
                let mut rows = unified_mail(&body, &project)?;
                rows.retain(|row| row.to.contains(&agent));
                return Ok(rows);
            }
            let reply = self.fetch_inbox(&project, &agent, false).await?;
            MailRow::rows(&reply).map_err(adapter_error)
        })
    }

    fn outbox(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<MailRow>> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let uri = format!(
                "resource://outbox/{}?{}",
                encode(&agent),
                self.agent_query(&project, &agent)
            );
            if let Ok(rows) = self
                .agent_resource(&uri, &agent)
                .await
                .and_then(|reply| MailRow::rows(&reply).map_err(adapter_error))
            {
                return Ok(rows);
            }
            // Servers whose outbox resource fails (0.2.x): collect the agent's messages from
            // the other agents' inboxes.
            let mut seen = BTreeSet::new();
            let mut rows = Vec::new();
            for other in self.agent_names(&project).await? {
                if other == agent {
                    continue;
                }
                let Ok(reply) = self.fetch_inbox(&project, &other, false).await else {
                    continue;
                };
                let Ok(batch) = MailRow::rows(&reply) else {
                    continue;
                };
                rows.extend(
                    batch
                        .into_iter()
                        .filter(|row| row.from == agent && seen.insert(row.id)),
                );
            }
            Ok(rows)
        })
    }

    fn contacts(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<Contact>> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            if !self.tools.contains("list_contacts") && self.capabilities.variant == Variant::Fork {
                return Err(BackendError::Unsupported(
                    "contacts (the fork has none)".into(),
                ));
            }
            let reply = self
                .tool(
                    "list_contacts",
                    self.agent_args(&project, &agent, json!({})),
                )
                .await?;
            Contact::rows(&reply).map_err(adapter_error)
        })
    }

    fn acked(&self, project: &str, agent: &str, inbox: &[MailRow]) -> BackendFuture<'_, Vec<u64>> {
        let (project, agent) = (project.to_string(), agent.to_string());
        let ack_required: Vec<MailRow> = inbox.iter().filter(|r| r.ack_required).cloned().collect();
        Box::pin(async move {
            let local: Vec<u64> = self
                .local_acks
                .borrow()
                .iter()
                .filter(|(p, a, _)| *p == project && *a == agent)
                .map(|(_, _, id)| *id)
                .collect();
            let uri = format!(
                "resource://views/ack-required/{}?{}",
                encode(&agent),
                self.agent_query(&project, &agent)
            );
            let reply = self.agent_resource(&uri, &agent).await?;
            let pending = replies::pending_ack_ids(&reply).map_err(adapter_error)?;
            let mut ids = MailRow::acknowledged_ids(&ack_required, &pending);
            ids.extend(local);
            ids.sort_unstable();
            ids.dedup();
            Ok(ids)
        })
    }

    fn message(&self, project: &str, agent: Option<&str>, id: u64) -> BackendFuture<'_, MailRow> {
        let (project, agent) = (project.to_string(), agent.map(str::to_string));
        Box::pin(async move {
            // With an agent token, the inbox first: fetch_inbox takes it as an argument.
            let tokened = agent.as_deref().filter(|a| self.agent_token(a).is_some());
            if let Some(agent) = tokened {
                if let Ok(message) = self.inbox_message(&project, agent, id).await {
                    return Ok(message);
                }
            }
            let resource = match &agent {
                Some(agent) => {
                    let query = self.agent_query(&project, agent);
                    self.agent_resource(&format!("resource://message/{id}?{query}"), agent)
                        .await
                }
                None => {
                    let query = format!("project={}", encode(&project));
                    self.resource(&format!("resource://message/{id}?{query}"))
                        .await
                }
            }
            .and_then(|reply| replies::reply_payload(&reply).map_err(adapter_error));
            match (resource, &agent) {
                (Ok(value), _) => MailRow::from_value(&value).map_err(adapter_error),
                (Err(err), Some(_)) if tokened.is_some() => Err(err),
                (Err(_), Some(agent)) => self.inbox_message(&project, agent, id).await,
                (Err(err), None) => Err(err),
            }
        })
    }

    fn acknowledge(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let args = self.agent_args(&project, &agent, json!({ "message_id": id }));
            let value = self.tool_value("acknowledge_message", args).await?;
            if value.get("acknowledged").and_then(Value::as_bool) == Some(false) {
                return Err(BackendError::Server(format!(
                    "message {id} was not acknowledged"
                )));
            }
            self.local_acks.borrow_mut().insert((project, agent, id));
            Ok(())
        })
    }

    fn mark_read(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let args = self.agent_args(&project, &agent, json!({ "message_id": id }));
            self.tool_value("mark_message_read", args).await.map(|_| ())
        })
    }

    fn reply(&self, project: &str, agent: &str, id: u64, body_md: &str) -> BackendFuture<'_, u64> {
        let (project, agent, body) = (project.to_string(), agent.to_string(), body_md.to_string());
        Box::pin(async move {
            if body.trim().is_empty() {
                return Err(BackendError::Invalid("The reply is empty.".into()));
            }
            let mut args = json!({"project_key": project, "message_id": id,
                                  "sender_name": agent, "body_md": body});
            if self.capabilities.agent_tokens {
                if let Some(token) = self.token(&agent) {
                    args["sender_token"] = json!(token);
                }
            }
            let value = self.tool_value("reply_message", args).await?;
            value
                .get("id")
                .and_then(Value::as_u64)
                .ok_or_else(|| BackendError::BadReply("reply without an id".into()))
        })
    }

    fn send(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        let project = project.to_string();
        Box::pin(async move {
            if draft.to.is_empty() || draft.subject.trim().is_empty() {
                return Err(BackendError::Invalid(
                    "A message needs at least one recipient and a subject.".into(),
                ));
            }
            let Some(sender) = draft.sender.clone() else {
                if !self.capabilities.overseer_send {
                    return Err(BackendError::Unsupported(
                        "sending as the human overseer".into(),
                    ));
                }
                let body = json!({"recipients": draft.to, "subject": draft.subject,
                                  "body_md": draft.body_md, "thread_id": draft.thread_id});
                let url = format!("{}/mail/{}/overseer/send", self.root, encode(&project));
                let text = http::post(&url, self.config.bearer.as_deref(), &body.to_string())
                    .await
                    .map_err(|_| BackendError::Server("the overseer send was refused".into()))?;
                let value: Value = serde_json::from_str(&text)
                    .map_err(|err| BackendError::BadReply(err.to_string()))?;
                return value
                    .get("message_id")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| BackendError::BadReply("overseer send without an id".into()));
            };
            let mut args = json!({"project_key": project, "sender_name": sender,
                                  "to": draft.to, "subject": draft.subject,
                                  "body_md": draft.body_md, "importance": draft.importance,
                                  "ack_required": draft.ack_required});
            if let Some(thread) = &draft.thread_id {
                args["thread_id"] = json!(thread);
            }
            if self.capabilities.agent_tokens {
                if let Some(token) = self.token(&sender) {
                    args["sender_token"] = json!(token);
                }
            }
            let reply = self.tool("send_message", args).await?;
            let sent = MailRow::rows(&reply).map_err(adapter_error)?;
            sent.first()
                .map(|row| row.id)
                .ok_or_else(|| BackendError::BadReply("send without an id".into()))
        })
    }

    fn send_decision(&self, project: &str, decided: Decided) -> BackendFuture<'_, Vec<u64>> {
        let project = project.to_string();
        Box::pin(async move {
            let mut ids = Vec::new();
            for draft in decided.drafts {
                ids.push(self.send(&project, draft).await?);
            }
            Ok(ids)
        })
    }

    fn keep_record(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        let project = project.to_string();
        Box::pin(async move {
            let agents = self.agents_list(&project).await?;
            match agents.iter().find(|a| a.name == TRAIL_AGENT) {
                Some(a) if a.program == TRAIL_PROGRAM => {}
                Some(a) => {
                    return Err(BackendError::Invalid(format!(
                        "The review trail's agent name {TRAIL_AGENT} belongs to another agent of \
                         this project (program {}): the record was not written.",
                        a.program
                    )))
                }
                None => {
                    let args = json!({"project_key": project, "program": TRAIL_PROGRAM,
                                      "model": "review-trail", "name": TRAIL_AGENT,
                                      "task_description": "Keeps the reviewers' signed review trail"});
                    self.tool_value("register_agent", args).await?;
                }
            }
            self.send(&project, draft).await
        })
    }

    fn search(&self, project: &str, query: &str) -> BackendFuture<'_, Vec<SearchHit>> {
        let (project, query) = (project.to_string(), query.to_string());
        Box::pin(async move {
            let tool = if self.tools.contains("search_mailbox") {
                "search_mailbox"
            } else {
                "search_messages"
            };
            let value = self
                .tool_value(
                    tool,
                    json!({"project_key": project, "query": query, "limit": 50}),
                )
                .await?;
            let rows = match value {
                Value::Array(rows) => rows,
                Value::Object(mut map) => {
                    match map.remove("messages").or_else(|| map.remove("results")) {
                        Some(Value::Array(rows)) => rows,
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            };
            Ok(rows
                .iter()
                .filter_map(|row| MailRow::from_value(row).ok())
                .map(|m| SearchHit {
                    id: m.id,
                    subject: m.subject,
                    from: m.from,
                    created_ts: m.created_ts,
                    thread_id: m.thread_id,
                })
                .collect())
        })
    }

    fn unified_inbox(&self) -> BackendFuture<'_, Vec<UnifiedRow>> {
        Box::pin(async move { unified_rows(&self.unified_body().await?) })
    }

    fn traffic(
        &self,
        project: &str,
        since: Option<&str>,
        sink: TrafficSink,
    ) -> BackendFuture<'_, ()> {
        let (project, since) = (project.to_string(), since.map(str::to_string));
        Box::pin(async move { self.read_traffic(&project, since.as_deref(), sink).await })
    }

    fn reservations(&self, project: &str) -> BackendFuture<'_, Vec<Reservation>> {
        let project = project.to_string();
        Box::pin(async move {
            let uri = format!(
                "resource://file_reservations/{}?active_only=false",
                encode(&project)
            );
            let reply = self.resource(&uri).await?;
            let payload = replies::reply_payload(&reply).map_err(adapter_error)?;
            let rows = payload.as_array().cloned().unwrap_or_default();
            Ok(rows
                .iter()
                .filter_map(|row| {
                    Some(Reservation {
                        id: row.get("id")?.as_u64()?,
                        agent: str_field(row, "agent"),
                        path_pattern: str_field(row, "path_pattern"),
                        exclusive: flag(row, "exclusive"),
                        reason: str_field(row, "reason"),
                        expires_ts: str_field(row, "expires_ts"),
                        released: !matches!(row.get("released_ts"), None | Some(Value::Null)),
                    })
                })
                .collect())
        })
    }

    fn release_reservation(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let args = self.agent_args(&project, &agent, json!({ "file_reservation_ids": [id] }));
            let value = self.tool_value("release_file_reservations", args).await?;
            // `{released: <count>, released_at}`: zero means it was not active, or not agent's.
            match value.get("released").and_then(Value::as_u64) {
                Some(0) => Err(BackendError::Server(format!(
                    "reservation {id} is not an active reservation of {agent}"
                ))),
                Some(_) => Ok(()),
                None => Err(BackendError::BadReply(
                    "release_file_reservations did not say how many it released".into(),
                )),
            }
        })
    }
}

#[cfg(test)]
mod tests;
