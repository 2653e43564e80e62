//! What the engine answers the views: view models of the project's traffic, computed by the
//! core in the engine and rendered by the views. Both modules compile these types; they cross
//! the worker boundary as the answers of [`crate::ask`].
//!
//! Times are milliseconds since the Unix epoch (UTC). Texts that come from mail are data:
//! the views render them as text, never as markup (the rendered Markdown in
//! [`Inspection::html`] is the only HTML, produced by [`crate::markdown::render`]).
//!
//! - [`traffic`]: which project, and what the engine holds of it.
//! - [`sessions`]: Pair sessions; [`checkpoints`]: the checkpoint queue.
//! - [`evidence`]: files read from the project's folder for a checkpoint's review.
//! - [`message`]: one message inspected; [`audits`]: audit reports; [`boards`]: task boards.
//! - [`conformance`]: each agent's conformance to the protocols.

pub mod audits;
pub mod boards;
pub mod checkpoints;
pub mod conformance;
pub mod evidence;
pub mod message;
pub mod sessions;
pub mod traffic;

pub use audits::{AuditCard, AuditIssueView, AuditRun};
pub use boards::{
    AckDebtView, Boards, ConflictView, DroidColumn, DroidTaskView, ErrorView, GateView, PoTaskView,
    RequestView,
};
pub use checkpoints::{CheckpointCard, Fate, OpenCheckpoint, Queued};
pub use conformance::{AgentConformance, RuleRow};
pub use evidence::{EvidencePage, EvidenceView, FileRead, ReadPlan};
pub use message::{Belongs, Field, FieldValue, InspectedMessage, Inspection, IssueView, Verdict};
pub use sessions::{
    ChangeOrderView, CheckpointHistory, ContractView, IntegrityView, SessionDetail, SessionList,
    SessionPage, SessionRow, Step, TimelineItem, ViolationView, WaitingView,
};
pub use traffic::{Coverage, TrafficKey, TrafficSummary};

use serde::{Deserialize, Serialize};

/// A read-only panel as the engine wrote it (`engine::html`): every text from the mail or the
/// folder escaped, Markdown only as the engine's renderer wrote it, so the page inserts it as
/// it is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Html(pub String);
