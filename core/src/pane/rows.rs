//! The pane fed decoded rows: a live server's replies through [`MailRow::rows`] and
//! [`Contact::rows`] give the rows the reference's text payloads would, with the same stream
//! rules (a row missing a required member fails its stream with a `parse_failure` text).

use super::build::Stream;
use super::model::{ContactItem, Direction, MessageItem};
use super::parse::{contact_order, message_order, At};
use crate::agent_mail::{Contact, MailRow};

/// A required member: its text, or the row's `missing field` failure.
fn required(at: &At<'_>, value: &str, field: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err(at.missing(field));
    }
    Ok(value.to_owned())
}

/// Message rows for one stream, sorted as the pane sorts them.
pub(crate) fn messages(rows: &[MailRow], direction: Direction) -> Stream<MessageItem> {
    let source = direction.as_str();
    let mut items = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let at = At { source, index };
        items.push(MessageItem {
            id: row.id,
            subject: required(&at, &row.subject, "subject")?,
            from: required(&at, &row.from, "from")?,
            created_ts: required(&at, &row.created_ts, "created_ts")?,
            importance: required(&at, &row.importance, "importance")?,
            ack_required: row.ack_required,
            acknowledged: false,
            thread_id: row.thread_id.clone(),
            delivery_status: match direction {
                Direction::Outbox => row.delivery_status.clone().unwrap_or_else(|| "sent".into()),
                Direction::Inbox => "received".to_string(),
            },
            direction,
        });
    }
    items.sort_unstable_by(message_order);
    Ok(items)
}

/// Contact rows, sorted as the pane sorts them.
pub(crate) fn contacts(rows: &[Contact]) -> Stream<ContactItem> {
    let mut items = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let at = At {
            source: "contacts",
            index,
        };
        items.push(ContactItem {
            peer: required(&at, &row.to, "to")?,
            status: required(&at, &row.status, "status")?,
            reason: required(&at, &row.reason, "reason")?,
            updated_ts: required(&at, &row.updated_ts, "updated_ts")?,
            expires_ts: row.expires_ts.clone(),
        });
    }
    items.sort_unstable_by(contact_order);
    Ok(items)
}
