//! Pane data types. Serde field order is the JSON key order of the reference
//! implementation; `None` serializes as `null` (no `skip_serializing_if`).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The pane contract (`AgentMailPaneContract` of the reference).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    /// Must equal [`super::CONTRACT_VERSION`].
    pub contract_version: String,
    /// Command that fetches the inbox stream.
    pub fetch_inbox_command: String,
    /// Command that fetches the outbox stream.
    pub fetch_outbox_command: String,
    /// Command that lists contacts.
    pub list_contacts_command: String,
    /// Command that acknowledges a message.
    pub acknowledge_command: String,
    /// Command that replies in a thread.
    pub reply_command: String,
    /// Required message row fields (lexical, unique).
    pub required_message_fields: Vec<String>,
    /// Required contact row fields (lexical, unique).
    pub required_contact_fields: Vec<String>,
    /// Supported thread filter modes (lexical, unique).
    pub thread_filter_modes: Vec<String>,
    /// Event kinds the pane may emit (lexical, unique).
    pub event_taxonomy: Vec<String>,
}

/// Which stream a message row came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Received by the agent (`fetch_inbox`).
    Inbox,
    /// Sent by the agent (`search_messages from:<agent>`).
    Outbox,
}

impl Direction {
    /// The wire name: `inbox` or `outbox`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Inbox => "inbox",
            Self::Outbox => "outbox",
        }
    }
}

/// One normalized message row (`AgentMailMessageItem`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageItem {
    /// Transport message id.
    pub id: u64,
    /// Subject line (non-blank).
    pub subject: String,
    /// Sender name (non-blank).
    pub from: String,
    /// Creation timestamp, compared as a plain string.
    pub created_ts: String,
    /// Importance (`normal`, `high`, ...; not validated).
    pub importance: String,
    /// Whether the sender asked for an acknowledgement.
    pub ack_required: bool,
    /// Whether the row counts as acknowledged in this snapshot.
    pub acknowledged: bool,
    /// Thread id; blank or missing becomes `None`.
    pub thread_id: Option<String>,
    /// `received` for inbox rows; the row's `delivery_status` (default `sent`) for outbox rows.
    pub delivery_status: String,
    /// Source stream.
    pub direction: Direction,
}

/// One normalized contact row (`AgentMailContactItem`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactItem {
    /// Peer agent name (the payload's `to`).
    pub peer: String,
    /// Contact status (`approved`, `pending`, ...; not validated).
    pub status: String,
    /// Reason given for the contact link.
    pub reason: String,
    /// Last update timestamp.
    pub updated_ts: String,
    /// Expiry timestamp; blank or missing becomes `None`.
    pub expires_ts: Option<String>,
}

/// Kinds of pane events (the contract's event taxonomy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// An acknowledged id matched an `ack_required` inbox row.
    AckTransition,
    /// A stream command was (conceptually) invoked.
    CommandInvoked,
    /// A contact is not `approved`.
    ContactAttentionRequired,
    /// An outbox row has `delivery_status == "failed"`.
    DeliveryFailure,
    /// A stream failed to parse.
    ParseFailure,
    /// The snapshot is complete (always last).
    SnapshotBuilt,
    /// The explicitly selected thread has no visible rows.
    ThreadContinuityGap,
    /// The thread view has rows.
    ThreadViewUpdated,
}

/// Where an event comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventSource {
    /// The inbox stream.
    Inbox,
    /// The outbox stream.
    Outbox,
    /// The contacts stream.
    Contacts,
    /// The thread view.
    Thread,
    /// The snapshot as a whole.
    Snapshot,
}

/// One structured pane event (`AgentMailPaneEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Event kind.
    pub event_kind: EventKind,
    /// Event source.
    pub source: EventSource,
    /// Message id, when the event concerns one message.
    pub message_id: Option<u64>,
    /// Thread id, when the event concerns one thread.
    pub thread_id: Option<String>,
    /// Human-readable text (reference wording).
    pub message: String,
}

/// Thread filter modes applied to inbox and outbox rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FilterMode {
    /// Keep every row.
    All,
    /// Keep `ack_required` rows.
    AckRequired,
    /// Keep `ack_required` rows that are not acknowledged.
    UnackedOnly,
    /// Keep rows of the active thread (requires an explicit active thread).
    ThreadOnly,
}

impl FilterMode {
    /// Every mode, in the contract's lexical order.
    pub const ALL: [Self; 4] = [
        Self::AckRequired,
        Self::All,
        Self::ThreadOnly,
        Self::UnackedOnly,
    ];

    /// The wire name, e.g. `unacked_only`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::AckRequired => "ack_required",
            Self::UnackedOnly => "unacked_only",
            Self::ThreadOnly => "thread_only",
        }
    }
}

impl fmt::Display for FilterMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FilterMode {
    type Err = PaneError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|mode| mode.as_str() == s)
            .ok_or_else(|| PaneError::UnsupportedMode(s.to_string()))
    }
}

/// One pane snapshot (`AgentMailPaneSnapshot`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The contract version.
    pub schema_version: String,
    /// The filter mode used.
    pub thread_filter_mode: FilterMode,
    /// The selected thread: the explicit one, else the lexically smallest visible thread id.
    pub active_thread: Option<String>,
    /// `filter=..;thread=..;inbox=..;outbox=..;contacts=..` (a literal string, no hash).
    pub refresh_fingerprint: String,
    /// Filtered inbox rows, sorted by `(created_ts, id, direction)`.
    pub inbox: Vec<MessageItem>,
    /// Filtered outbox rows, sorted by `(created_ts, id, direction)`.
    pub outbox: Vec<MessageItem>,
    /// Filtered rows of the selected thread, sorted by `(created_ts, id, direction)`.
    pub thread_messages: Vec<MessageItem>,
    /// Contacts sorted by peer (never filtered).
    pub contacts: Vec<ContactItem>,
    /// Unacknowledged `ack_required` inbox rows, counted before filtering.
    pub pending_ack_count: u32,
    /// Commands that replay this view.
    pub replay_commands: Vec<String>,
    /// One text per stream that failed to parse.
    pub parse_errors: Vec<String>,
    /// Events in the reference order.
    pub events: Vec<Event>,
}

/// One step of the smoke workflow (`AgentMailPaneWorkflowStep`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkflowStep {
    /// Step id (`fetch`, `ack`, `reply`).
    pub step_id: String,
    /// What the step does.
    pub action: String,
    /// The snapshot after the step.
    pub snapshot: Snapshot,
}

/// The smoke workflow transcript (`AgentMailPaneWorkflowTranscript`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    /// `doctor-agent-mail-smoke`.
    pub scenario_id: String,
    /// The steps in order.
    pub steps: Vec<WorkflowStep>,
}

/// Hard errors: no snapshot is produced. `Display` gives the reference's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaneError {
    /// The contract failed validation (the text says why).
    Contract(String),
    /// The filter mode is not one of the four modes.
    UnsupportedMode(String),
    /// `thread_only` was asked for without an active thread.
    ThreadOnlyRequiresActiveThread,
    /// More than `u32::MAX` pending acknowledgements.
    PendingAckOverflow,
}

impl fmt::Display for PaneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Contract(text) => f.write_str(text),
            Self::UnsupportedMode(mode) => write!(f, "unsupported thread_filter_mode {mode}"),
            Self::ThreadOnlyRequiresActiveThread => {
                f.write_str("thread_only filter requires active_thread")
            }
            Self::PendingAckOverflow => f.write_str("pending ack count overflow"),
        }
    }
}

impl std::error::Error for PaneError {}
