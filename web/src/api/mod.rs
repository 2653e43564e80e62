//! The `Backend` trait: everything the console reads from or does to a mail server, with
//! two implementations — [`mcp::McpBackend`] (any MCP Agent Mail server, over stateless
//! JSON-RPC) and [`demo::DemoBackend`] (the built-in demo, an in-memory server that runs in
//! the engine worker).
//!
//! Messages cross as typed rows ([`MailRow`], [`Contact`]), decoded once by the core's
//! `agent_mail` from what a server sent; the core's pane normalizer
//! (`switchboard_core::pane`) reads those rows.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use switchboard_core::fingerprint::Fingerprints;
use switchboard_core::glob::patterns_overlap;

pub mod demo;
pub mod mcp;

pub use crate::model::{Coverage, OpenCheckpoint};
pub use switchboard_core::agent_mail::{Contact, Draft, Importance, MailRow};
use switchboard_core::session::pair::checkpoint::Decision;
use switchboard_core::session::pair::decide::Decide;

/// A boxed, non-`Send` future (browser futures live on the one UI thread).
pub type BackendFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, BackendError>> + 'a>>;

/// Why a backend call failed, in terms a reviewer can act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BackendError {
    /// A live page opened before connecting to a server.
    NotConnected,
    /// Nothing answered at the address (server down, wrong host or port).
    Unreachable {
        /// The address tried.
        url: String,
    },
    /// The server answered but its CORS settings do not allow this console's origin.
    Cors {
        /// The server's base URL.
        url: String,
        /// This console's origin, to add to the server's allowed origins.
        origin: String,
    },
    /// HTTP 401/403: the server wants a (different) bearer token.
    Unauthorized {
        /// Whether a token was sent.
        token_sent: bool,
    },
    /// No MCP endpoint under the paths tried.
    WrongPath {
        /// The URLs tried.
        tried: Vec<String>,
    },
    /// The server needs this agent's registration token.
    TokenRequired {
        /// The agent.
        agent: String,
    },
    /// The server does not offer what was asked (e.g. no search tool).
    Unsupported(String),
    /// The tool or resource reported an error (its text).
    Server(String),
    /// The reply had an unexpected shape (what was expected).
    BadReply(String),
    /// The thing asked for does not exist.
    NotFound(String),
    /// The request was rejected by the console before sending (what is wrong).
    Invalid(String),
    /// The console's engine could not answer (why).
    Engine(String),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotConnected => {
                f.write_str("Not connected to a server: open the connect screen and connect first.")
            }
            Self::Unreachable { url } => write!(
                f,
                "Nothing answers at {url}. Check the address and that the server is running."
            ),
            Self::Cors { url, origin } => write!(
                f,
                "The server at {url} answered, but does not allow this console's origin \
                 ({origin}). Restart it with HTTP_CORS_ENABLED=true HTTP_CORS_ORIGINS={origin} \
                 (or add {origin} to its HTTP_CORS_ORIGINS list)."
            ),
            Self::Unauthorized { token_sent: false } => f.write_str(
                "The server refused the request (401): it requires a bearer token. \
                 Enter the server's HTTP_BEARER_TOKEN in \"Bearer token\".",
            ),
            Self::Unauthorized { token_sent: true } => f.write_str(
                "The server refused the bearer token (401). Check it against the server's \
                 HTTP_BEARER_TOKEN.",
            ),
            Self::WrongPath { tried } => write!(
                f,
                "No MCP endpoint found (tried {}). Check the server URL: give the server's \
                 root, e.g. http://127.0.0.1:8765.",
                tried.join(", ")
            ),
            Self::TokenRequired { agent } => write!(
                f,
                "The server requires agent {agent}'s registration token. Add a line \
                 \"{agent}=<token>\" under \"Agent tokens\" on the connect screen."
            ),
            Self::Unsupported(what) => write!(f, "This server does not offer {what}."),
            Self::Server(text) => write!(f, "The server reported an error: {text}"),
            Self::BadReply(text) => write!(f, "The server's reply was not understood: {text}"),
            Self::NotFound(what) => write!(f, "Not found: {what}."),
            Self::Invalid(text) | Self::Engine(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for BackendError {}

/// Which kind of server the capability probe recognized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// The built-in demo.
    Demo,
    /// Python upstream ≤ 0.2: no per-agent tokens.
    UpstreamLegacy,
    /// Python upstream ≥ 0.3: per-agent tokens, contact enforcement.
    UpstreamTokens,
    /// The Rust port (`am`): per-agent tokens, contact enforcement.
    RustPort,
    /// The `mcp-mail` fork: extended tools behind `call_extended_tool`.
    Fork,
}

impl Variant {
    /// A short human name.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Demo => "built-in demo",
            Self::UpstreamLegacy => "MCP Agent Mail ≤ 0.2 (no agent tokens)",
            Self::UpstreamTokens => "MCP Agent Mail ≥ 0.3 (agent tokens, contact enforcement)",
            Self::RustPort => "MCP Agent Mail Rust port (agent tokens, contact enforcement)",
            Self::Fork => "mcp-mail fork (extended tools)",
        }
    }
}

/// What the connected server offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// The recognized variant.
    pub variant: Variant,
    /// Where JSON-RPC goes (e.g. `http://127.0.0.1:8765/mcp/`); empty for the demo.
    pub endpoint: String,
    /// Number of tools listed by the server.
    pub tool_count: usize,
    /// Number of resource templates listed (`resources/templates/list`, where offered).
    pub resource_templates: usize,
    /// Whether tools take per-agent tokens.
    pub agent_tokens: bool,
    /// Whether operator mode (`/mail/api/unified-inbox` + overseer send) is available.
    pub operator: bool,
    /// Whether the server can send a new message as the human overseer.
    pub overseer_send: bool,
}

/// A project (Agent Mail's unit of agents and mail).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Project {
    /// URL-safe slug, used as `project_key`.
    pub slug: String,
    /// The human key (usually an absolute path).
    pub human_key: String,
}

/// An agent registered in a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    /// Agent name (e.g. `BlueLake`).
    pub name: String,
    /// Program (e.g. `claude-code`).
    pub program: String,
    /// Model (e.g. `opus`).
    pub model: String,
    /// Task description.
    pub task: String,
    /// Unread count, where the server tells.
    pub unread: Option<u64>,
}

/// A mailbox stream besides the inbox, which may fail on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stream {
    /// The agent's sent messages.
    Outbox,
    /// The agent's contacts.
    Contacts,
    /// Which inbox messages the agent acknowledged.
    Acknowledgements,
}

impl Stream {
    /// Its name for people.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Stream::Outbox => "Outbox",
            Stream::Contacts => "Contacts",
            Stream::Acknowledgements => "Acknowledgement state",
        }
    }
}

/// A stream that could not be loaded: shown, not fatal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamNote {
    /// Which stream.
    pub stream: Stream,
    /// Why.
    pub error: BackendError,
}

impl fmt::Display for StreamNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.stream.label(), self.error)
    }
}

/// One agent's mailbox streams, ready for the pane normalizer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mailbox {
    /// Inbox rows.
    pub inbox: Vec<MailRow>,
    /// Outbox rows.
    pub outbox: Vec<MailRow>,
    /// Contact rows.
    pub contacts: Vec<Contact>,
    /// Acknowledged message ids.
    pub acked: Vec<u64>,
    /// The streams that could not be loaded (shown, not fatal).
    pub notes: Vec<StreamNote>,
}

/// A file reservation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reservation {
    /// Reservation id.
    pub id: u64,
    /// Holder.
    pub agent: String,
    /// Reserved path or glob.
    pub path_pattern: String,
    /// Exclusive or shared.
    pub exclusive: bool,
    /// Why.
    pub reason: String,
    /// Expiry.
    pub expires_ts: String,
    /// Whether released.
    pub released: bool,
}

/// A search hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchHit {
    /// Message id.
    pub id: u64,
    /// Subject.
    pub subject: String,
    /// Sender.
    pub from: String,
    /// Creation timestamp.
    pub created_ts: String,
    /// Thread id.
    pub thread_id: Option<String>,
}

/// A row of the operator's unified inbox (every project and agent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnifiedRow {
    /// Message id.
    pub id: u64,
    /// Project slug.
    pub project: String,
    /// Subject.
    pub subject: String,
    /// Sender.
    pub from: String,
    /// Recipients.
    pub recipients: Vec<String>,
    /// Creation timestamp.
    pub created_ts: String,
    /// Importance.
    pub importance: String,
}

/// A reviewer's decision at a session's open checkpoint, as the view typed it: the core's
/// [`Decide`] (checkpoint, kind, text), the session, and the message that opened the
/// checkpoint (a checkpoint opened again by a newer message is another decision).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointDecision {
    /// The session.
    pub session: String,
    /// The log position of the message that opened the checkpoint.
    pub opened: usize,
    /// The decision.
    pub decide: Decide,
}

impl CheckpointDecision {
    /// A reviewer's `decision` at the open checkpoint `at`.
    #[must_use]
    pub fn at(at: &OpenCheckpoint, decision: &Decision) -> CheckpointDecision {
        CheckpointDecision {
            session: at.session.clone(),
            opened: at.entry,
            decide: Decide {
                checkpoint: at.checkpoint,
                kind: decision.kind,
                text: decision.text.clone(),
                reviewed: None,
            },
        }
    }

    /// The decision with the fingerprints of the test files the reviewer was shown: APPROVED
    /// (and ACCEPT CHANGE) send them as the contract's `test_fingerprints`. None, or none
    /// read, leaves the draft's.
    #[must_use]
    pub fn with_reviewed(mut self, reviewed: Option<Fingerprints>) -> CheckpointDecision {
        self.decide.reviewed = reviewed.filter(|f| !f.is_empty());
        self
    }
}

/// A checkpoint decision with the messages it sends (built by the core, valid by
/// construction).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decided {
    /// The decision.
    pub decision: CheckpointDecision,
    /// The messages it sends, ready to send.
    pub drafts: Vec<Draft>,
}

/// Everything the console needs from a mail server.
pub trait Backend {
    /// What the server offers (found by the capability probe).
    fn capabilities(&self) -> Capabilities;
    /// The source's clock, in ms since the epoch: the real clock for a server; for the demo,
    /// its own time (its data are dated), running from when it was opened.
    fn now_ms(&self) -> i64;
    /// All projects.
    fn projects(&self) -> BackendFuture<'_, Vec<Project>>;
    /// The agents of a project.
    fn agents(&self, project: &str) -> BackendFuture<'_, Vec<Agent>>;
    /// An agent's inbox rows (without bodies).
    fn inbox(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<MailRow>>;
    /// An agent's outbox rows (without bodies).
    fn outbox(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<MailRow>>;
    /// An agent's contacts.
    fn contacts(&self, project: &str, agent: &str) -> BackendFuture<'_, Vec<Contact>>;
    /// Ids of the agent's acknowledged messages among its `inbox` rows.
    fn acked(&self, project: &str, agent: &str, inbox: &[MailRow]) -> BackendFuture<'_, Vec<u64>>;
    /// One message with its body; `agent` is whose view it is, if any.
    fn message(&self, project: &str, agent: Option<&str>, id: u64) -> BackendFuture<'_, MailRow>;
    /// Acknowledges a message for an agent.
    fn acknowledge(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()>;
    /// Marks a message read for an agent.
    fn mark_read(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()>;
    /// Replies in the message's thread as `agent`; returns the new message id.
    fn reply(&self, project: &str, agent: &str, id: u64, body_md: &str) -> BackendFuture<'_, u64>;
    /// Sends a new message; returns its id.
    fn send(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64>;
    /// Sends what a checkpoint decision implies; returns the new messages' ids. A server is
    /// sent the decision's drafts; the demo decides and sends in one call to its server,
    /// where its traffic is.
    fn send_decision(&self, project: &str, decided: Decided) -> BackendFuture<'_, Vec<u64>>;
    /// Keeps a review record in the project's mail: `draft` is the trail agent's message to
    /// itself (the core's `TrailLine::draft`); a server first registers that agent.
    fn keep_record(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64>;
    /// Full-text search in a project.
    fn search(&self, project: &str, query: &str) -> BackendFuture<'_, Vec<SearchHit>>;
    /// File reservations of a project (active and released).
    fn reservations(&self, project: &str) -> BackendFuture<'_, Vec<Reservation>>;
    /// Releases reservation `id`, as its holder `agent`.
    fn release_reservation(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()>;
    /// Operator mode: recent mail of every project and agent, newest first (no agent tokens).
    fn unified_inbox(&self) -> BackendFuture<'_, Vec<UnifiedRow>>;
    /// A project's whole traffic, read a page at a time (the newest mail first): every
    /// message with its body, recipients and acknowledgement; with `since` (a `created_ts`),
    /// only the messages sent after it, in one page. `sink` hears how far the reading got and
    /// takes each page; the read waits for it, and stops when it refuses one.
    fn traffic(
        &self,
        project: &str,
        since: Option<&str>,
        sink: TrafficSink,
    ) -> BackendFuture<'_, ()>;
}

/// A page of a project's traffic, as a read hands it over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrafficPage {
    /// Messages read since the last page, each with the recipients found so far (a message
    /// in several inboxes comes once per inbox).
    pub rows: Vec<MailRow>,
    /// The agents registered in the project, as the server lists them (`None`: not listed).
    pub agents: Option<Vec<String>>,
    /// What the server left out (e.g. an inbox beyond what it returns), in words.
    pub notes: Vec<String>,
    /// How much of the project's mail the pages so far hold.
    pub coverage: Coverage,
    /// Once every acknowledgement view was read (the last page): the messages still waiting
    /// for a recipient's acknowledgement; every other message that asks for one is
    /// acknowledged.
    pub pending: Option<Vec<u64>>,
}

/// Where a traffic read goes: how far it got, and each page (the read waits for the page to
/// be taken; an error stops it).
#[derive(Clone)]
pub struct TrafficSink {
    /// Hears the progress.
    pub progress: Rc<dyn Fn(TrafficProgress)>,
    /// Takes a page.
    pub page: Rc<dyn Fn(TrafficPage) -> BackendFuture<'static, ()>>,
}

/// How far reading a project's traffic got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TrafficProgress {
    /// Mailboxes read.
    pub mailboxes_read: usize,
    /// Mailboxes to read.
    pub mailboxes: usize,
    /// Distinct messages found so far.
    pub messages: usize,
}

/// Loads an agent's whole mailbox: the three streams (requested together) and then the ack
/// state. A stream that fails becomes a note and an empty stream, so one failing tool does
/// not hide the rest.
///
/// # Errors
/// The inbox error, when the inbox itself cannot be loaded.
pub async fn load_mailbox(
    backend: &dyn Backend,
    project: &str,
    agent: &str,
) -> Result<Mailbox, BackendError> {
    let (inbox, outbox, contacts) = futures::future::join3(
        backend.inbox(project, agent),
        backend.outbox(project, agent),
        backend.contacts(project, agent),
    )
    .await;
    let inbox = inbox?;
    let mut notes = Vec::new();
    let outbox = outbox.unwrap_or_else(|error| {
        notes.push(StreamNote {
            stream: Stream::Outbox,
            error,
        });
        Vec::new()
    });
    let contacts = contacts.unwrap_or_else(|error| {
        notes.push(StreamNote {
            stream: Stream::Contacts,
            error,
        });
        Vec::new()
    });
    let acked = match backend.acked(project, agent, &inbox).await {
        Ok(ids) => ids,
        Err(error) => {
            notes.push(StreamNote {
                stream: Stream::Acknowledgements,
                error,
            });
            Vec::new()
        }
    };
    Ok(Mailbox {
        inbox,
        outbox,
        contacts,
        acked,
        notes,
    })
}

/// Ids of reservations in conflict: active, held by different agents, overlapping, and at
/// least one exclusive. Returns `(id, other_id)` pairs with `id < other_id`.
#[must_use]
pub fn reservation_conflicts(rows: &[Reservation]) -> Vec<(u64, u64)> {
    let active: Vec<&Reservation> = rows.iter().filter(|r| !r.released).collect();
    let mut out = Vec::new();
    for (i, a) in active.iter().enumerate() {
        for b in &active[i + 1..] {
            if a.agent != b.agent
                && (a.exclusive || b.exclusive)
                && patterns_overlap(&a.path_pattern, &b.path_pattern)
            {
                out.push((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(id: u64, agent: &str, path: &str, exclusive: bool, released: bool) -> Reservation {
        Reservation {
            id,
            agent: agent.into(),
            path_pattern: path.into(),
            exclusive,
            reason: String::new(),
            expires_ts: String::new(),
            released,
        }
    }

    #[test]
    fn conflicts_need_two_agents_an_overlap_and_exclusivity() {
        let rows = [
            res(1, "BlueLake", "src/api/*.py", true, false),
            res(2, "GreenCastle", "src/api/users.py", true, false),
            res(3, "BlueLake", "src/api/users.py", true, false),
            res(4, "RedStone", "docs/**", false, false),
            res(5, "GreenCastle", "docs/a.md", false, false),
            res(6, "RedStone", "src/api/users.py", true, true),
        ];
        assert_eq!(reservation_conflicts(&rows), vec![(1, 2), (2, 3)]);
    }

    #[test]
    fn errors_say_what_to_do() {
        let cors = BackendError::Cors {
            url: "http://127.0.0.1:8765".into(),
            origin: "http://127.0.0.1:8080".into(),
        };
        assert!(cors
            .to_string()
            .contains("HTTP_CORS_ENABLED=true HTTP_CORS_ORIGINS=http://127.0.0.1:8080"));
        let token = BackendError::TokenRequired {
            agent: "BlueLake".into(),
        };
        assert!(token.to_string().contains("BlueLake=<token>"));
    }
}
