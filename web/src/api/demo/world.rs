//! The demo's world: its projects and agents, their contacts and file reservations, and the
//! shape of its messages (dated by [`super::dates`]).

use super::scale::{SCALE_AGENTS, SCALE_PROJECT};
use crate::api::{Agent, MailRow, Project, Reservation};

/// A stored demo message.
#[derive(Debug, Clone)]
pub struct DemoMessage {
    /// Message id (unique across projects).
    pub id: u64,
    /// Project index.
    pub project: usize,
    /// Sender.
    pub from: String,
    /// Recipients.
    pub to: Vec<String>,
    /// Subject.
    pub subject: String,
    /// Markdown body.
    pub body_md: String,
    /// Creation time ([`timestamp`]).
    pub created_ts: String,
    /// Importance.
    pub importance: String,
    /// Whether an acknowledgement is asked for.
    pub ack_required: bool,
    /// Thread.
    pub thread_id: Option<String>,
}

impl DemoMessage {
    /// The message as a server's row (`acknowledged`: by every recipient).
    #[must_use]
    pub fn mail_row(&self, acknowledged: bool) -> MailRow {
        MailRow {
            id: self.id,
            thread_id: self.thread_id.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            subject: self.subject.clone(),
            created_ts: self.created_ts.clone(),
            importance: self.importance.clone(),
            ack_required: self.ack_required,
            acknowledged,
            body_md: self.body_md.clone(),
            ..MailRow::default()
        }
    }
}

/// A contact between two agents of a project.
pub struct DemoContact {
    /// Project index.
    pub project: usize,
    /// Whose contact list.
    pub owner: String,
    /// The other agent.
    pub peer: String,
    /// `approved`, `pending`, `blocked` or `expired`.
    pub status: &'static str,
    /// Why.
    pub reason: String,
}

/// A project and its agents.
pub struct DemoProject {
    /// The project.
    pub project: Project,
    /// Its agents.
    pub agents: Vec<Agent>,
}

/// An agent.
#[must_use]
pub fn agent(name: &str, program: &str, model: &str, task: &str) -> Agent {
    Agent {
        name: name.to_string(),
        program: program.to_string(),
        model: model.to_string(),
        task: task.to_string(),
        unread: None,
    }
}

/// The demo's projects and their agents.
#[must_use]
pub fn projects() -> Vec<DemoProject> {
    vec![
        DemoProject {
            project: Project {
                slug: "pair-lab".into(),
                human_key: "/srv/work/pair-lab".into(),
            },
            agents: vec![
                agent("BlueLake", "claude-code", "opus", "planner (Pair Protocol)"),
                agent(
                    "GreenCastle",
                    "codex-cli",
                    "gpt-5",
                    "builder (Pair Protocol)",
                ),
                agent(
                    "NavyFalcon",
                    "pair",
                    "claude-opus-4-1",
                    "navigator (Pair Claude)",
                ),
                agent(
                    "AmberFox",
                    "pair",
                    "claude-sonnet-4",
                    "driver (Pair Claude)",
                ),
            ],
        },
        DemoProject {
            project: Project {
                slug: "po-factory".into(),
                human_key: "/srv/work/po-factory".into(),
            },
            agents: vec![
                agent(
                    "GoldenOwl",
                    "claude-code",
                    "opus",
                    "product owner (Agent-PO)",
                ),
                agent("SilverPine", "claude-code", "sonnet", "task agent"),
                agent("CopperBay", "codex-cli", "gpt-5", "task agent"),
            ],
        },
        DemoProject {
            project: Project {
                slug: "droid-fleet".into(),
                human_key: "/srv/work/droid-fleet".into(),
            },
            agents: vec![
                agent("CrimsonPeak", "opencode", "droid", "orchestrator"),
                agent("TealHarbor", "opencode", "droid", "frontend specialist"),
                agent("OliveMarsh", "opencode", "droid", "database specialist"),
            ],
        },
        DemoProject {
            project: Project {
                slug: SCALE_PROJECT.into(),
                human_key: "/srv/work/scale".into(),
            },
            agents: SCALE_AGENTS
                .iter()
                .map(|(name, n)| agent(name, "synthetic", "-", &format!("inbox of {n} messages")))
                .collect(),
        },
    ]
}

/// Contacts: `(project, owner, peer, status, reason)`.
#[must_use]
pub fn contacts() -> Vec<DemoContact> {
    vec![
        contact(0, "BlueLake", "GreenCastle", "approved", "pair sessions"),
        contact(0, "BlueLake", "NavyFalcon", "approved", "reviews"),
        contact(0, "BlueLake", "AmberFox", "pending", "tool output relay"),
        contact(0, "GreenCastle", "BlueLake", "approved", "pair sessions"),
        contact(0, "NavyFalcon", "AmberFox", "approved", "pairing"),
        contact(0, "AmberFox", "NavyFalcon", "approved", "pairing"),
        contact(0, "AmberFox", "BlueLake", "blocked", "spam reports"),
        contact(1, "GoldenOwl", "SilverPine", "approved", "task assignment"),
        contact(1, "GoldenOwl", "CopperBay", "pending", "task assignment"),
        contact(
            1,
            "SilverPine",
            "GoldenOwl",
            "approved",
            "plans and reports",
        ),
        contact(1, "CopperBay", "GoldenOwl", "approved", "plans and reports"),
        contact(2, "CrimsonPeak", "TealHarbor", "approved", "delegation"),
        contact(2, "CrimsonPeak", "OliveMarsh", "expired", "delegation"),
        contact(2, "TealHarbor", "CrimsonPeak", "approved", "reports"),
        contact(2, "OliveMarsh", "CrimsonPeak", "approved", "reports"),
    ]
}

/// File reservations by project index.
#[must_use]
pub fn reservations() -> Vec<(usize, Reservation)> {
    vec![
        (
            0,
            reservation(1, "GreenCastle", "auth/*.py", true, "pair-003 build", false),
        ),
        (
            0,
            reservation(
                2,
                "AmberFox",
                "auth/jwt_handler.py",
                true,
                "review-004 fix",
                false,
            ),
        ),
        (
            0,
            reservation(3, "BlueLake", "docs/**", false, "contract drafts", false),
        ),
        (
            0,
            reservation(4, "NavyFalcon", "src/net/client.rs", true, "review", true),
        ),
        (
            1,
            reservation(
                5,
                "SilverPine",
                "src/pages/LoginPage.tsx",
                true,
                "TASK-100",
                false,
            ),
        ),
        (
            1,
            reservation(6, "CopperBay", "src/pages/*.tsx", true, "TASK-101", false),
        ),
        (
            1,
            reservation(7, "GoldenOwl", ".factory/**", false, "gate records", false),
        ),
        (
            2,
            reservation(
                8,
                "TealHarbor",
                "src/frontend/auth/**",
                true,
                "bd-42",
                false,
            ),
        ),
        (
            2,
            reservation(9, "OliveMarsh", "migrations/*.sql", true, "bd-47", false),
        ),
    ]
}

/// A contact.
#[must_use]
pub fn contact(
    project: usize,
    owner: &str,
    peer: &str,
    status: &'static str,
    reason: &str,
) -> DemoContact {
    DemoContact {
        project,
        owner: owner.into(),
        peer: peer.into(),
        status,
        reason: reason.into(),
    }
}

/// A reservation, expiring at the end of the month.
#[must_use]
pub fn reservation(
    id: u64,
    agent: &str,
    path: &str,
    exclusive: bool,
    reason: &str,
    released: bool,
) -> Reservation {
    Reservation {
        id,
        agent: agent.into(),
        path_pattern: path.into(),
        exclusive,
        reason: reason.into(),
        expires_ts: "2026-11-30T12:00:00+00:00".into(),
        released,
    }
}
