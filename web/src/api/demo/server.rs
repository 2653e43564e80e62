//! The demo server: the demo's world and traffic in memory, answering the demo's calls
//! ([`super::call`]) the way an Agent Mail server answers tool calls. It runs inside the engine worker; actions change
//! the in-memory state only (a reload starts over). Its planner answers a REVISE at
//! checkpoint #1 with a new draft ([`super::planner::planner_answer`]).

use super::dates::{timestamp_ms, DEMO_NOW_MS};
use super::world::{self, DemoContact, DemoMessage, DemoProject};
use crate::api::{
    Agent, BackendError, Contact, Draft, Importance, MailRow, Project, Reservation, SearchHit,
    UnifiedRow,
};
use std::collections::BTreeSet;
use switchboard_core::session::pair::decide;
use switchboard_core::time::Timestamp;

/// The sender of the human overseer's messages.
const OVERSEER: &str = "HumanOverseer";

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
            .unwrap_or(DEMO_NOW_MS);
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

    /// The projects.
    #[must_use]
    pub fn projects(&self) -> Vec<Project> {
        self.projects.iter().map(|p| p.project.clone()).collect()
    }

    /// The ids `agent` acknowledged.
    #[must_use]
    pub fn acked(&self, agent: &str) -> Vec<u64> {
        self.acked
            .iter()
            .filter(|(who, _)| who == agent)
            .map(|(_, id)| *id)
            .collect()
    }

    /// Marks a message read for an agent.
    ///
    /// # Errors
    /// An unknown project.
    pub fn mark_read(&mut self, project: &str, agent: &str, id: u64) -> Result<(), BackendError> {
        self.project_index(project)?;
        self.read.insert((agent.to_owned(), id));
        Ok(())
    }

    /// A project's file reservations.
    ///
    /// # Errors
    /// An unknown project.
    pub fn reservations(&self, project: &str) -> Result<Vec<Reservation>, BackendError> {
        let index = self.project_index(project)?;
        Ok(self
            .reservations
            .iter()
            .filter(|(p, _)| *p == index)
            .map(|(_, r)| r.clone())
            .collect())
    }

    /// The contract files and diff a session (by thread) was audited with, if any.
    #[must_use]
    pub fn contract(&self, thread: &str) -> Option<(Vec<(String, String)>, String)> {
        super::scenarios::fixtures::contracts()
            .into_iter()
            .find(|c| c.thread == thread)
            .map(|c| (c.files, c.diff))
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

    /// A project's agents with their unread counts.
    ///
    /// # Errors
    /// An unknown project.
    pub fn agents(&self, project: &str) -> Result<Vec<Agent>, BackendError> {
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

    /// An agent's inbox (or outbox) rows, as a mailbox lists them (without bodies).
    ///
    /// # Errors
    /// An unknown project or agent.
    pub fn rows(
        &self,
        slug: &str,
        agent: &str,
        outbox: bool,
    ) -> Result<Vec<MailRow>, BackendError> {
        let project = self.project_index(slug)?;
        self.check_agent(project, agent)?;
        Ok(self
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
            .map(|m| MailRow {
                body_md: String::new(),
                delivery_status: outbox.then(|| "sent".to_owned()),
                ..m.mail_row(false)
            })
            .collect())
    }

    /// An agent's contacts.
    ///
    /// # Errors
    /// An unknown project.
    pub fn contacts(&self, project: &str, agent: &str) -> Result<Vec<Contact>, BackendError> {
        let index = self.project_index(project)?;
        Ok(self
            .contacts
            .iter()
            .filter(|c| c.project == index && c.owner == agent)
            .map(|c| Contact {
                to: c.peer.clone(),
                status: c.status.to_owned(),
                reason: c.reason.clone(),
                updated_ts: "2026-11-10T09:00:00.000000+00:00".to_owned(),
                expires_ts: Some("2026-12-10T09:00:00.000000+00:00".to_owned()),
            })
            .collect())
    }

    /// One message with its body.
    ///
    /// # Errors
    /// An unknown project or message.
    pub fn message(&self, project: &str, id: u64) -> Result<MailRow, BackendError> {
        let index = self.project_index(project)?;
        self.messages
            .iter()
            .find(|m| m.id == id && m.project == index)
            .map(|m| m.mail_row(self.acknowledged(m)))
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
    }

    /// Acknowledged by every recipient.
    fn acknowledged(&self, m: &DemoMessage) -> bool {
        m.ack_required
            && m.to
                .iter()
                .all(|to| self.acked.contains(&(to.clone(), m.id)))
    }

    /// Acknowledges (and reads) a message for an agent.
    ///
    /// # Errors
    /// A message not in the agent's inbox.
    pub fn acknowledge(&mut self, project: &str, agent: &str, id: u64) -> Result<(), BackendError> {
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

    /// Replies in a message's thread at `now_ms`; the new message's id.
    ///
    /// # Errors
    /// An empty reply, an unknown project or message.
    pub fn reply(
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
            importance: Importance::parse(&m.importance).unwrap_or_default(),
        };
        Ok(self.add(index, draft, now_ms))
    }

    /// Sends a message at `now_ms`; its id. The demo's planner answers a REVISE with a new
    /// draft a second later.
    ///
    /// # Errors
    /// No recipient or subject, an unknown project.
    pub fn send(&mut self, project: &str, draft: Draft, now_ms: i64) -> Result<u64, BackendError> {
        let index = self.project_index(project)?;
        if draft.to.is_empty() || draft.subject.trim().is_empty() {
            return Err(BackendError::Invalid(
                "A message needs at least one recipient and a subject.".into(),
            ));
        }
        let id = self.add(index, draft, now_ms);
        // The demo's planner answers a REVISE with a new draft, a second later.
        let sent = &self.messages[self.messages.len() - 1];
        let before = &self.messages[..self.messages.len() - 1];
        if let Some(answer) = super::planner::planner_answer(before, sent) {
            let draft = decide::draft(&answer, sent.thread_id.as_deref());
            self.add(index, draft, now_ms + 1_000);
        }
        Ok(id)
    }

    /// Stores a message at `now_ms` (never before the newest one). One without a sender is
    /// the human overseer's, who is then one of the project's agents, as Agent Mail's
    /// overseer endpoint registers it (`HumanOverseer`, program `WebUI`, model `Human`).
    fn add(&mut self, project: usize, draft: Draft, now_ms: i64) -> u64 {
        self.clock_ms = now_ms.max(self.clock_ms + 1_000);
        let id = self.messages.len() as u64 + 1;
        let from = draft.sender.unwrap_or_else(|| {
            let agents = &mut self.projects[project].agents;
            if !agents.iter().any(|a| a.name == OVERSEER) {
                agents.push(world::agent(
                    OVERSEER,
                    "WebUI",
                    "Human",
                    "Human operator providing guidance and oversight to agents",
                ));
            }
            OVERSEER.to_owned()
        });
        self.messages.push(DemoMessage {
            id,
            project,
            from,
            to: draft.to,
            subject: draft.subject,
            body_md: draft.body_md,
            created_ts: timestamp_ms(self.clock_ms),
            importance: draft.importance.as_str().to_owned(),
            ack_required: draft.ack_required,
            thread_id: draft.thread_id,
        });
        id
    }

    /// Messages whose subject or body holds `query`, ASCII letters in any case (newest first,
    /// at most 100).
    ///
    /// # Errors
    /// An unknown project.
    pub fn search(&self, project: &str, query: &str) -> Result<Vec<SearchHit>, BackendError> {
        let index = self.project_index(project)?;
        let needle = query.trim().to_ascii_lowercase();
        if needle.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .messages
            .iter()
            .rev()
            .filter(|m| m.project == index)
            .filter(|m| {
                m.subject.to_ascii_lowercase().contains(&needle)
                    || m.body_md.to_ascii_lowercase().contains(&needle)
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

    /// Releases an active reservation as its holder.
    ///
    /// # Errors
    /// No such active reservation of `agent`.
    pub fn release(&mut self, project: &str, agent: &str, id: u64) -> Result<(), BackendError> {
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

    /// The newest 500 messages of every project.
    #[must_use]
    pub fn unified(&self) -> Vec<UnifiedRow> {
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

    /// A project's messages, newer than `since` when given.
    ///
    /// # Errors
    /// An unknown project.
    pub fn traffic(
        &self,
        project: &str,
        since: Option<&str>,
    ) -> Result<Vec<MailRow>, BackendError> {
        let index = self.project_index(project)?;
        Ok(self
            .messages
            .iter()
            .filter(|m| m.project == index)
            .filter(|m| since.is_none_or(|s| m.created_ts.as_str() > s))
            .map(|m| m.mail_row(self.acknowledged(m)))
            .collect())
    }
}
