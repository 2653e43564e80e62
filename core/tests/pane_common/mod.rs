//! Test-only model of the reference parser, written over `serde_json::Value` the way
//! the reference does it, to check the fast path against it (differential tests).
#![allow(dead_code)]

use serde_json::Value;
use switchboard_core::pane::{ContactItem, Direction, MessageItem};

fn required_str(entry: &Value, field: &str, source: &str, index: usize) -> Result<String, String> {
    let value = entry
        .get(field)
        .ok_or_else(|| format!("parse_failure: {source}[{index}] missing field {field}"))?;
    let text = value.as_str().ok_or_else(|| {
        format!("parse_failure: {source}[{index}] field {field} must be a string")
    })?;
    if text.trim().is_empty() {
        return Err(format!(
            "parse_failure: {source}[{index}] field {field} must be non-empty"
        ));
    }
    Ok(text.to_string())
}

fn optional_str(
    entry: &Value,
    field: &str,
    source: &str,
    index: usize,
) -> Result<Option<String>, String> {
    let Some(value) = entry.get(field) else {
        return Ok(None);
    };
    if value.is_null() {
        return Ok(None);
    }
    let text = value.as_str().ok_or_else(|| {
        format!("parse_failure: {source}[{index}] field {field} must be a string")
    })?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    Ok(Some(text.to_string()))
}

fn required_u64(entry: &Value, field: &str, source: &str, index: usize) -> Result<u64, String> {
    let value = entry
        .get(field)
        .ok_or_else(|| format!("parse_failure: {source}[{index}] missing field {field}"))?;
    value.as_u64().ok_or_else(|| {
        format!("parse_failure: {source}[{index}] field {field} must be an unsigned integer")
    })
}

fn bool_or_binary(entry: &Value, field: &str, source: &str, index: usize) -> Result<bool, String> {
    let value = entry
        .get(field)
        .ok_or_else(|| format!("parse_failure: {source}[{index}] missing field {field}"))?;
    if let Some(flag) = value.as_bool() {
        return Ok(flag);
    }
    if let Some(raw) = value.as_u64() {
        return match raw {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(format!(
                "parse_failure: {source}[{index}] field {field} must be 0 or 1 when numeric"
            )),
        };
    }
    Err(format!(
        "parse_failure: {source}[{index}] field {field} must be a bool or unsigned integer"
    ))
}

fn result_array(payload: &Value, source: &str) -> Result<Vec<Value>, String> {
    if let Some(entries) = payload.as_array() {
        return Ok(entries.clone());
    }
    if let Some(entries) = payload.get("result").and_then(Value::as_array) {
        return Ok(entries.clone());
    }
    Err(format!(
        "parse_failure: {source} JSON must be an array or object containing result array"
    ))
}

/// Total order used by the crate (reference key, then the other fields).
pub fn message_key(m: &MessageItem) -> impl Ord + '_ {
    (
        (&m.created_ts, m.id, m.direction),
        (
            &m.subject,
            &m.from,
            &m.importance,
            m.ack_required,
            &m.thread_id,
            &m.delivery_status,
        ),
    )
}

/// Reference `parse_agent_mail_messages`, rows re-sorted with the crate's total order.
pub fn ref_messages(
    raw: &str,
    source: &str,
    direction: Direction,
) -> Result<Vec<MessageItem>, String> {
    let payload: Value =
        serde_json::from_str(raw).map_err(|err| format!("parse_failure: {source} JSON: {err}"))?;
    let entries = result_array(&payload, source)?;
    let mut rows = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let id = required_u64(entry, "id", source, index)?;
        let subject = required_str(entry, "subject", source, index)?;
        let from = required_str(entry, "from", source, index)?;
        let created_ts = required_str(entry, "created_ts", source, index)?;
        let importance = required_str(entry, "importance", source, index)?;
        let ack_required = bool_or_binary(entry, "ack_required", source, index)?;
        let thread_id = optional_str(entry, "thread_id", source, index)?;
        let delivery_status = if direction == Direction::Outbox {
            optional_str(entry, "delivery_status", source, index)?.unwrap_or_else(|| "sent".into())
        } else {
            "received".to_string()
        };
        rows.push(MessageItem {
            id,
            subject,
            from,
            created_ts,
            importance,
            ack_required,
            acknowledged: false,
            thread_id,
            delivery_status,
            direction,
        });
    }
    rows.sort_by(|a, b| message_key(a).cmp(&message_key(b)));
    Ok(rows)
}

/// Reference `parse_agent_mail_contacts`, rows re-sorted with the crate's total order.
pub fn ref_contacts(raw: &str) -> Result<Vec<ContactItem>, String> {
    let payload: Value =
        serde_json::from_str(raw).map_err(|err| format!("parse_failure: contacts JSON: {err}"))?;
    let entries = result_array(&payload, "contacts")?;
    let mut rows = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        rows.push(ContactItem {
            peer: required_str(entry, "to", "contacts", index)?,
            status: required_str(entry, "status", "contacts", index)?,
            reason: required_str(entry, "reason", "contacts", index)?,
            updated_ts: required_str(entry, "updated_ts", "contacts", index)?,
            expires_ts: optional_str(entry, "expires_ts", "contacts", index)?,
        });
    }
    rows.sort_by(|a, b| {
        (&a.peer, &a.status, &a.reason, &a.updated_ts, &a.expires_ts).cmp(&(
            &b.peer,
            &b.status,
            &b.reason,
            &b.updated_ts,
            &b.expires_ts,
        ))
    });
    Ok(rows)
}
