//! The demo server: the demo's world and traffic in memory, answering [`DemoCall`]s the way
//! an Agent Mail server answers tool calls. It runs inside the engine worker; actions change
//! the in-memory state only (a reload starts over). Its planner answers a REVISE at
//! checkpoint #1 with a new draft ([`super::scenarios::planner_answer`]).

use super::world::{self, timestamp_ms, DemoContact, DemoMessage, DemoProject};
use crate::api::{Agent, BackendError, Draft, MailRow, Reservation, SearchHit, UnifiedRow};
use crate::model::{DemoCall, DemoReply};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use switchboard_core::time::Timestamp;

/// The demo server's state.
pub struct DemoServer {
    projects: Vec<DemoProject>,
    messages: Vec<DemoMessage>,
    acked: BTreeSet<(String, u64)>,
    read: BTreeSet<(String, u64)>,
    contacts: Vec<DemoContact>,
    reservations: Vec<(usize, Reservation)>,
    /// The time of the newest message, in ms.
    clock_ms: i64,
}

impl Default for DemoServer {
    fn default() -> Self {
        Self::new()
    }
}

fn row(message: &DemoMessage, outbox: bool) -> Value {
    let mut value = json!({
        "id": message.id,
        "subject": message.subject,
        "from": message.from,
        "created_ts": message.created_ts,
        "importance": message.importance,
        "ack_required": message.ack_required,
        "thread_id": message.thread_id,
    });
    if outbox {
        value["delivery_status"] = json!("sent");
    }
    value
}

fn mail_row(m: &DemoMessage, acknowledged: bool) -> MailRow {
    MailRow {
        id: m.id,
        thread_id: m.thread_id.clone(),
        from: m.from.clone(),
        to: m.to.clone(),
        subject: m.subject.clone(),
        created_ts: m.created_ts.clone(),
        importance: m.importance.clone(),
        ack_required: m.ack_required,
        acknowledged,
        body_md: m.body_md.clone(),
        ..MailRow::default()
    }
}

impl DemoServer {
    /// Generates the demo (deterministic).
    #[must_use]
    pub fn new() -> Self {
        let generated = super::traffic::generate();
        let clock_ms = generated
            .messages
            .iter()
            .filter_map(|m| Timestamp::parse(&m.created_ts))
            .map(|t| t.0)
            .max()
            .unwrap_or(world::DEMO_NOW_MS);
        Self {
            projects: world::projects(),
            messages: generated.messages,
            acked: generated.acked,
            read: BTreeSet::new(),
            contacts: world::contacts(),
            reservations: world::reservations(),
            clock_ms,
        }
    }

    /// Answers one call.
    ///
    /// # Errors
    /// What a server would answer: an unknown project, agent or message, an empty reply.
    pub fn handle(&mut self, call: DemoCall) -> Result<DemoReply, BackendError> {
        Ok(match call {
            DemoCall::Projects => {
                DemoReply::Projects(self.projects.iter().map(|p| p.project.clone()).collect())
            }
            DemoCall::Agents { project } => DemoReply::Agents(self.agents(&project)?),
            DemoCall::Inbox { project, agent } => {
                DemoReply::Text(self.rows(&project, &agent, false)?)
            }
            DemoCall::Outbox { project, agent } => {
                DemoReply::Text(self.rows(&project, &agent, true)?)
            }
            DemoCall::Contacts { project, agent } => {
                DemoReply::Text(self.contact_rows(&project, &agent)?)
            }
            DemoCall::Acked { agent, .. } => DemoReply::Ids(
                self.acked
                    .iter()
                    .filter(|(who, _)| *who == agent)
                    .map(|(_, id)| *id)
                    .collect(),
            ),
            DemoCall::Message { project, id, .. } => {
                DemoReply::Message(self.message(&project, id)?)
            }
            DemoCall::Acknowledge { project, agent, id } => {
                self.acknowledge(&project, &agent, id)?;
                DemoReply::Done
            }
            DemoCall::MarkRead { project, agent, id } => {
                self.project_index(&project)?;
                self.read.insert((agent, id));
                DemoReply::Done
            }
            DemoCall::Reply {
                project,
                agent,
                id,
                body_md,
                now_ms,
            } => DemoReply::Id(self.reply(&project, &agent, id, &body_md, now_ms)?),
            DemoCall::Send {
                project,
                draft,
                now_ms,
            } => DemoReply::Id(self.send(&project, draft, now_ms)?),
            DemoCall::Search { project, query } => DemoReply::Hits(self.search(&project, &query)?),
            DemoCall::Reservations { project } => {
                let index = self.project_index(&project)?;
                DemoReply::Reservations(
                    self.reservations
                        .iter()
                        .filter(|(p, _)| *p == index)
                        .map(|(_, r)| r.clone())
                        .collect(),
                )
            }
            DemoCall::Release { project, agent, id } => {
                self.release(&project, &agent, id)?;
                DemoReply::Done
            }
            DemoCall::Unified => DemoReply::Unified(self.unified()),
            DemoCall::Traffic { project, since } => {
                DemoReply::Rows(self.traffic(&project, since.as_deref())?)
            }
            DemoCall::Contract { thread } => DemoReply::Contract(
                super::scenarios::contracts()
                    .into_iter()
                    .find(|c| c.thread == thread)
                    .map(|c| (c.files, c.diff)),
            ),
        })
    }

    fn project_index(&self, slug: &str) -> Result<usize, BackendError> {
        self.projects
            .iter()
            .position(|p| p.project.slug == slug)
            .ok_or_else(|| BackendError::NotFound(format!("project {slug}")))
    }

    fn check_agent(&self, project: usize, agent: &str) -> Result<(), BackendError> {
        if self.projects[project]
            .agents
            .iter()
            .any(|a| a.name == agent)
        {
            Ok(())
        } else {
            Err(BackendError::NotFound(format!("agent {agent}")))
        }
    }

    fn agents(&self, project: &str) -> Result<Vec<Agent>, BackendError> {
        let index = self.project_index(project)?;
        Ok(self.projects[index]
            .agents
            .iter()
            .map(|a| {
                let unread = self
                    .messages
                    .iter()
                    .filter(|m| m.project == index && m.to.contains(&a.name))
                    .filter(|m| {
                        let key = (a.name.clone(), m.id);
                        !self.read.contains(&key) && !self.acked.contains(&key)
                    })
                    .count() as u64;
                Agent {
                    unread: Some(unread),
                    ..a.clone()
                }
            })
            .collect())
    }

    fn rows(&self, slug: &str, agent: &str, outbox: bool) -> Result<String, BackendError> {
        let project = self.project_index(slug)?;
        self.check_agent(project, agent)?;
        let rows: Vec<Value> = self
            .messages
            .iter()
            .filter(|m| m.project == project)
            .filter(|m| {
                if outbox {
                    m.from == agent
                } else {
                    m.to.iter().any(|to| to == agent)
                }
            })
            .map(|m| row(m, outbox))
            .collect();
        Ok(json!({ "result": rows }).to_string())
    }

    fn contact_rows(&self, project: &str, agent: &str) -> Result<String, BackendError> {
        let index = self.project_index(project)?;
        let rows: Vec<Value> = self
            .contacts
            .iter()
            .filter(|c| c.project == index && c.owner == agent)
            .map(|c| {
                json!({"to": c.peer, "status": c.status, "reason": c.reason,
                       "updated_ts": "2026-11-10T09:00:00.000000+00:00",
                       "expires_ts": "2026-12-10T09:00:00.000000+00:00"})
            })
            .collect();
        Ok(json!({ "result": rows }).to_string())
    }

    fn message(&self, project: &str, id: u64) -> Result<MailRow, BackendError> {
        let index = self.project_index(project)?;
        self.messages
            .iter()
            .find(|m| m.id == id && m.project == index)
            .map(|m| mail_row(m, self.acknowledged(m)))
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
    }

    /// Acknowledged by every recipient.
    fn acknowledged(&self, m: &DemoMessage) -> bool {
        m.ack_required
            && m.to
                .iter()
                .all(|to| self.acked.contains(&(to.clone(), m.id)))
    }

    fn acknowledge(&mut self, project: &str, agent: &str, id: u64) -> Result<(), BackendError> {
        let index = self.project_index(project)?;
        let known = self
            .messages
            .iter()
            .any(|m| m.id == id && m.project == index && m.to.iter().any(|t| t == agent));
        if !known {
            return Err(BackendError::NotFound(format!(
                "message {id} in {agent}'s inbox"
            )));
        }
        self.acked.insert((agent.to_string(), id));
        self.read.insert((agent.to_string(), id));
        Ok(())
    }

    fn reply(
        &mut self,
        project: &str,
        agent: &str,
        id: u64,
        body_md: &str,
        now_ms: i64,
    ) -> Result<u64, BackendError> {
        if body_md.trim().is_empty() {
            return Err(BackendError::Invalid("The reply is empty.".into()));
        }
        let index = self.project_index(project)?;
        let m = self
            .messages
            .iter()
            .find(|m| m.id == id && m.project == index)
            .cloned()
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))?;
        let subject = if m.subject.starts_with("Re:") {
            m.subject.clone()
        } else {
            format!("Re: {}", m.subject)
        };
        let draft = Draft {
            sender: Some(agent.to_string()),
            to: vec![m.from.clone()],
            subject,
            body_md: body_md.to_string(),
            thread_id: Some(m.thread_id.clone().unwrap_or_else(|| m.id.to_string())),
            ack_required: m.ack_required,
            importance: m.importance.clone(),
        };
        Ok(self.add(index, draft, now_ms))
    }

    fn send(&mut self, project: &str, draft: Draft, now_ms: i64) -> Result<u64, BackendError> {
        let index = self.project_index(project)?;
        if draft.to.is_empty() || draft.subject.trim().is_empty() {
            return Err(BackendError::Invalid(
                "A message needs at least one recipient and a subject.".into(),
            ));
        }
        let id = self.add(index, draft, now_ms);
        // The demo's planner answers a REVISE with a new draft, a second later.
        let sent = self.messages.last().cloned();
        if let Some(answer) = sent.and_then(|sent| {
            let before = &self.messages[..self.messages.len() - 1];
            super::scenarios::planner_answer(before, &sent).map(|a| (a, sent.thread_id))
        }) {
            let (message, thread_id) = answer;
            let draft = Draft {
                sender: Some(message.from.clone()),
                to: vec![message.to.clone()],
                subject: message.subject.to_owned(),
                body_md: message.body_md(),
                thread_id,
                ack_required: false,
                importance: "normal".into(),
            };
            self.add(index, draft, now_ms + 1_000);
        }
        Ok(id)
    }

    /// Stores a message at `now_ms` (never before the newest one).
    fn add(&mut self, project: usize, draft: Draft, now_ms: i64) -> u64 {
        self.clock_ms = now_ms.max(self.clock_ms + 1_000);
        let id = self.messages.len() as u64 + 1;
        self.messages.push(DemoMessage {
            id,
            project,
            from: draft.sender.unwrap_or_else(|| "HumanOverseer".to_string()),
            to: draft.to,
            subject: draft.subject,
            body_md: draft.body_md,
            created_ts: timestamp_ms(self.clock_ms),
            importance: match draft.importance.as_str() {
                "high" | "urgent" | "low" => draft.importance,
                _ => "normal".into(),
            },
            ack_required: draft.ack_required,
            thread_id: draft.thread_id,
        });
        id
    }

    fn search(&self, project: &str, query: &str) -> Result<Vec<SearchHit>, BackendError> {
        let index = self.project_index(project)?;
        let needle = query.trim().to_lowercase();
        if needle.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .messages
            .iter()
            .rev()
            .filter(|m| m.project == index)
            .filter(|m| {
                m.subject.to_lowercase().contains(&needle)
                    || m.body_md.to_lowercase().contains(&needle)
            })
            .take(100)
            .map(|m| SearchHit {
                id: m.id,
                subject: m.subject.clone(),
                from: m.from.clone(),
                created_ts: m.created_ts.clone(),
                thread_id: m.thread_id.clone(),
            })
            .collect())
    }

    fn release(&mut self, project: &str, agent: &str, id: u64) -> Result<(), BackendError> {
        let index = self.project_index(project)?;
        self.reservations
            .iter_mut()
            .find(|(p, r)| *p == index && r.id == id && r.agent == agent && !r.released)
            .map(|(_, r)| r.released = true)
            .ok_or_else(|| {
                BackendError::Server(format!(
                    "reservation {id} is not an active reservation of {agent}"
                ))
            })
    }

    fn unified(&self) -> Vec<UnifiedRow> {
        self.messages
            .iter()
            .rev()
            .take(500)
            .map(|m| UnifiedRow {
                id: m.id,
                project: self.projects[m.project].project.slug.clone(),
                subject: m.subject.clone(),
                from: m.from.clone(),
                recipients: m.to.clone(),
                created_ts: m.created_ts.clone(),
                importance: m.importance.clone(),
            })
            .collect()
    }

    fn traffic(&self, project: &str, since: Option<&str>) -> Result<Vec<MailRow>, BackendError> {
        let index = self.project_index(project)?;
        Ok(self
            .messages
            .iter()
            .filter(|m| m.project == index)
            .filter(|m| since.is_none_or(|s| m.created_ts.as_str() > s))
            .map(|m| mail_row(m, self.acknowledged(m)))
            .collect())
    }
}
