//! [`MailRow`]: one Agent Mail message as the servers' tools, resources and operator endpoints
//! return it, decoded once by the row decoder ([`super::members`]).

use super::members::RowMembers;
use super::replies::payload::{message_rows, reply_payload, AdapterError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One Agent Mail message, decoded once: the sender under `from`, `sender_name` or `sender`;
/// recipients from `to` (a list or a comma-separated text) or `recipients`, then `cc`;
/// `ack_required` as a boolean or `0`/`1`; acknowledged by an `ack_ts` or `acknowledged:
/// true`; a numeric thread id as text; `created` for `created_ts`, naive timestamps
/// normalized ([`super::normalize_timestamp`]). Texts are trimmed; a member that is absent
/// or holds no text is empty.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MailRow {
    /// Message id.
    pub id: u64,
    /// Thread id (`None` when blank).
    pub thread_id: Option<String>,
    /// Sender name.
    pub from: String,
    /// Recipients (to, then cc).
    pub to: Vec<String>,
    /// Subject.
    pub subject: String,
    /// Creation time, as written (normalized when naive).
    pub created_ts: String,
    /// Importance (`normal`, `high`, `urgent`, `low`).
    pub importance: String,
    /// Whether the sender asked for an acknowledgement.
    pub ack_required: bool,
    /// Whether it was acknowledged.
    pub acknowledged: bool,
    /// When it was acknowledged, if the server said.
    #[serde(default)]
    pub ack_ts: Option<String>,
    /// An outbox row's delivery status, if the server gave one (the pane's default is `sent`).
    #[serde(default)]
    pub delivery_status: Option<String>,
    /// Markdown body (empty when the reply left it out).
    pub body_md: String,
}

impl MailRow {
    /// Decodes one message object.
    ///
    /// # Errors
    /// [`AdapterError::Shape`] for an object without a numeric `id`.
    pub fn from_value(row: &Value) -> Result<MailRow, AdapterError> {
        row.as_object()
            .and_then(|map| MailRow::of(&RowMembers::of(map)))
            .ok_or_else(|| AdapterError::Shape("a message without a numeric id".to_string()))
    }

    /// The row of decoded members, when they have an id.
    pub(crate) fn of(m: &RowMembers<'_>) -> Option<MailRow> {
        Some(MailRow {
            id: m.id()?,
            thread_id: m.thread_id(),
            from: m.sender().unwrap_or_default(),
            to: m.recipients(),
            subject: m.subject().unwrap_or_default(),
            created_ts: m.created_ts().unwrap_or_default(),
            importance: m.importance().unwrap_or_default(),
            ack_required: m.ack_required(),
            acknowledged: m.acknowledged(),
            ack_ts: m.ack_ts(),
            delivery_status: m.delivery_status(),
            body_md: m.body_md().map(|b| b.to_string()).unwrap_or_default(),
        })
    }

    /// The message rows of a reply (any shape [`super::replies::reply_payload`] accepts: tool
    /// results, resources, send replies' deliveries, the unified inbox); rows without an id
    /// are left out.
    ///
    /// # Errors
    /// See [`AdapterError`].
    pub fn rows(reply: &str) -> Result<Vec<MailRow>, AdapterError> {
        let rows = message_rows(reply_payload(reply)?)?;
        Ok(rows
            .iter()
            .filter_map(|row| MailRow::from_value(row).ok())
            .collect())
    }

    /// The ids of `rows` that asked for an acknowledgement and are not `pending` (the ids an
    /// ack-required view lists, [`super::replies::pending_ack_ids`]): the acknowledged ones.
    #[must_use]
    pub fn acknowledged_ids(rows: &[MailRow], pending: &[u64]) -> Vec<u64> {
        let mut ids: Vec<u64> = rows
            .iter()
            .filter(|row| row.ack_required && !pending.contains(&row.id))
            .map(|row| row.id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}
