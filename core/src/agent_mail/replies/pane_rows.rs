//! Canonical row-array text for the pane's text contract ([`crate::pane::build_snapshot`] /
//! [`crate::pane::PaneState`]): message rows from any reply shape, contact rows.

use super::payload::{message_rows, parse_json, reply_payload, AdapterError};
use crate::agent_mail::members::RowMembers;
use serde_json::{Map, Value};

/// One canonical message row: `id, subject, from, created_ts, importance, ack_required,
/// thread_id` (+ `delivery_status` for outbox rows), each the value the row decoder reads
/// ([`RowMembers`]); a member it cannot read is copied unchanged, so the pane reports it in
/// its own `parse_errors`.
fn canonical_message(row: Value, outbox: bool, unified: bool) -> Value {
    let Value::Object(row) = row else {
        return row;
    };
    let m = RowMembers::of(&row);
    let raw = |key: Option<&str>| key.and_then(|k| row.get(k)).cloned();
    let text = |decoded: Option<String>, key: Option<&str>| {
        decoded.map(Value::String).or_else(|| raw(key))
    };
    let ack_required = match m.ack_flag() {
        Some(Ok(flag)) => Some(Value::Bool(flag)),
        Some(Err(_)) => raw(Some("ack_required")),
        // The unified inbox has no ack flag; ack state comes from the views.
        None => unified.then_some(Value::Bool(false)),
    };
    let thread_id = text(m.thread_id(), Some("thread_id")).unwrap_or(Value::Null);
    let delivery_status = outbox.then(|| {
        text(m.delivery_status(), Some("delivery_status"))
            .unwrap_or_else(|| Value::String("sent".to_string()))
    });
    let members = [
        ("id", m.id().map(Value::from).or_else(|| raw(Some("id")))),
        ("subject", text(m.subject(), Some("subject"))),
        ("from", text(m.sender(), m.sender_member())),
        ("created_ts", text(m.created_ts(), m.created_member())),
        ("importance", text(m.importance(), Some("importance"))),
        ("ack_required", ack_required),
        ("thread_id", Some(thread_id)),
        ("delivery_status", delivery_status),
    ];
    let out: Map<String, Value> = members
        .into_iter()
        .filter_map(|(key, value)| Some((key.to_string(), value?)))
        .collect();
    Value::Object(out)
}

fn rows_text(rows: Vec<Value>) -> String {
    Value::Array(rows).to_string()
}

/// Inbox rows from a `fetch_inbox` reply, a `resource://inbox/{agent}` or
/// `resource://views/*` reply: canonical row-array text.
///
/// # Errors
/// See [`AdapterError`].
pub fn inbox_rows(reply: &str) -> Result<String, AdapterError> {
    let rows = message_rows(reply_payload(reply)?)?;
    Ok(rows_text(
        rows.into_iter()
            .map(|row| canonical_message(row, false, false))
            .collect(),
    ))
}

/// Outbox rows from a `search_messages` reply, a `send_message` reply (its delivery
/// payloads) or a `reply_message` reply (the reply itself), with `delivery_status`
/// defaulting to `sent`: canonical row-array text. With `sender`, only rows whose
/// `from` is `sender` are kept: real servers' full-text search does not understand
/// the contract's `from:<agent_name>` query (it returns no rows), so search broadly
/// and filter here.
///
/// # Errors
/// See [`AdapterError`].
pub fn outbox_rows(reply: &str, sender: Option<&str>) -> Result<String, AdapterError> {
    let rows = message_rows(reply_payload(reply)?)?;
    Ok(rows_text(
        rows.into_iter()
            .map(|row| canonical_message(row, true, false))
            .filter(|row| {
                sender.is_none_or(|name| row.get("from").and_then(Value::as_str) == Some(name))
            })
            .collect(),
    ))
}

/// Contact rows from a `list_contacts` reply: `to, status, reason, updated_ts,
/// expires_ts` per row, as row-array text.
///
/// # Errors
/// See [`AdapterError`].
pub fn contact_rows(reply: &str) -> Result<String, AdapterError> {
    let Value::Array(rows) = reply_payload(reply)? else {
        return Err(AdapterError::Shape("contacts: a row array".to_string()));
    };
    let rows = rows
        .into_iter()
        .map(|row| match row {
            Value::Object(mut row) => {
                let mut out = Map::new();
                for key in ["to", "status", "reason", "updated_ts", "expires_ts"] {
                    if let Some(value) = row.remove(key) {
                        out.insert(key.to_string(), value);
                    }
                }
                Value::Object(out)
            }
            other => other,
        })
        .collect();
    Ok(rows_text(rows))
}

/// Inbox rows from a `GET /mail/api/unified-inbox` body, optionally only those whose
/// comma-separated `recipients` include `recipient`. `sender_name`/`sender` becomes
/// `from`, the naive timestamp is normalized ([`crate::agent_mail::normalize_timestamp`]) and the
/// missing `ack_required` is `false` (use [`mark_ack_required`] with a view).
///
/// # Errors
/// See [`AdapterError`].
pub fn unified_inbox_rows(body: &str, recipient: Option<&str>) -> Result<String, AdapterError> {
    let rows = message_rows(reply_payload(body)?)?;
    let rows = rows
        .into_iter()
        .filter(|row| {
            recipient.is_none_or(|name| {
                row.as_object()
                    .is_some_and(|map| RowMembers::of(map).recipients().iter().any(|r| r == name))
            })
        })
        .map(|row| canonical_message(row, false, true))
        .collect();
    Ok(rows_text(rows))
}

/// Sets `ack_required: true` on the rows (canonical row-array text) whose id is
/// in `ids`, e.g. unified-inbox rows listed by an ack-required view.
///
/// # Errors
/// See [`AdapterError`].
pub fn mark_ack_required(rows_json: &str, ids: &[u64]) -> Result<String, AdapterError> {
    let rows = message_rows(parse_json(rows_json)?)?;
    let rows = rows
        .into_iter()
        .map(|mut row| {
            let hit = row
                .as_object()
                .and_then(|map| RowMembers::of(map).id())
                .is_some_and(|id| ids.contains(&id));
            if let (true, Some(map)) = (hit, row.as_object_mut()) {
                map.insert("ack_required".to_string(), Value::Bool(true));
            }
            row
        })
        .collect();
    Ok(rows_text(rows))
}
