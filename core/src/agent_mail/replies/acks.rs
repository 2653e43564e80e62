//! Acknowledgement state: the ids an ack-required view still lists (the acknowledged ones are
//! [`crate::agent_mail::MailRow::acknowledged_ids`] of the typed rows) and the id an
//! `acknowledge_message` reply confirms.

use super::payload::{message_rows, reply_payload, AdapterError};
use crate::agent_mail::members::RowMembers;
use serde_json::Value;

/// Ids still waiting for an acknowledgement according to a
/// `resource://views/ack-required/{agent}` reply, ascending.
///
/// # Errors
/// See [`AdapterError`].
pub fn pending_ack_ids(view_reply: &str) -> Result<Vec<u64>, AdapterError> {
    let rows = message_rows(reply_payload(view_reply)?)?;
    let mut ids: Vec<u64> = rows
        .iter()
        .filter_map(Value::as_object)
        .filter_map(|row| RowMembers::of(row).id())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// The message id confirmed by an `acknowledge_message` reply (direct, or through
/// the fork's `call_extended_tool`), when it says `acknowledged: true`.
///
/// # Errors
/// See [`AdapterError`]; [`AdapterError::Shape`] when the reply is not a confirmation.
pub fn acknowledged_message_id(reply: &str) -> Result<u64, AdapterError> {
    let payload = reply_payload(reply)?;
    match (
        payload.get("message_id").and_then(Value::as_u64),
        payload.get("acknowledged").and_then(Value::as_bool),
    ) {
        (Some(id), Some(true)) => Ok(id),
        _ => Err(AdapterError::Shape(
            "acknowledge: {message_id, acknowledged: true}".to_string(),
        )),
    }
}
