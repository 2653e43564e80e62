//! Replies of real Agent Mail servers, decoded in one place: the payload of any reply, and
//! the canonical rows the pane and the console read.
//!
//! Real replies are not the reference's tidy payloads:
//! - tool results arrive as a JSON-RPC reply whose `result` holds
//!   `structuredContent` and/or `content[0].text` (the same JSON as a string);
//!   tool errors are `isError: true` with a text, resource errors are JSON-RPC `error`s;
//! - list tools wrap rows as `{"result": [...]}`, and the mcp-mail fork's
//!   `call_extended_tool` adds one more `{"result": ...}` layer;
//! - resources (`resources/read`) return `contents[0].text` holding JSON such as
//!   `{project, agent, count, messages: [...]}`;
//! - `search_messages` gives `ack_required` as `0`/`1` (the pane accepts that as is);
//! - send replies put rows under `deliveries[].payload`, archive copies use `created`
//!   instead of `created_ts`;
//! - `GET /mail/api/unified-inbox` returns `{messages: [...]}` with `sender`/`sender_name`,
//!   no `ack_required`, and naive `YYYY-MM-DD HH:MM:SS.ffffff` UTC timestamps;
//! - read/ack state is only visible through `resource://views/ack-required/{agent}`.
//!
//! Every adapter returns canonical row-array text for [`crate::pane::build_snapshot`] /
//! [`crate::pane::PaneState`], or ids. Field values are copied unchanged (only renamed or
//! moved), so malformed values still produce the pane's own `parse_errors`.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::fmt;

/// Why a reply could not be adapted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdapterError {
    /// The reply is not JSON (the `serde_json` text).
    NotJson(String),
    /// A JSON-RPC `error` object (resource errors, protocol errors).
    Rpc {
        /// JSON-RPC error code.
        code: i64,
        /// JSON-RPC error message.
        message: String,
    },
    /// A tool result with `isError: true` (its text).
    Tool(String),
    /// The reply has none of the known shapes (what was expected).
    Shape(String),
}

impl fmt::Display for AdapterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotJson(text) => write!(f, "reply is not JSON: {text}"),
            Self::Rpc { code, message } => write!(f, "JSON-RPC error {code}: {message}"),
            Self::Tool(text) => write!(f, "tool error: {text}"),
            Self::Shape(text) => write!(f, "unexpected reply shape: {text}"),
        }
    }
}

impl std::error::Error for AdapterError {}

fn parse_json(text: &str) -> Result<Value, AdapterError> {
    serde_json::from_str(text).map_err(|err| AdapterError::NotJson(err.to_string()))
}

fn first_text(items: Option<&Value>) -> Option<&str> {
    items?.as_array()?.first()?.get("text")?.as_str()
}

/// Unwraps `{"result": X}` layers (an object whose only key is `result`).
fn unwrap_result(mut value: Value) -> Value {
    loop {
        match value {
            Value::Object(mut map) if map.len() == 1 && map.contains_key("result") => {
                value = map.remove("result").unwrap_or(Value::Null);
            }
            other => return other,
        }
    }
}

/// The JSON payload of a reply, with every transport layer removed.
///
/// Accepts a JSON-RPC reply, a bare tool result (`{content, structuredContent,
/// isError}`), a bare resource result (`{contents: [...]}`), or a payload itself.
/// Prefers `structuredContent`; falls back to parsing `content[0].text` /
/// `contents[0].text`; then removes `{"result": ...}` wrappers.
///
/// # Errors
/// [`AdapterError`] for non-JSON replies, JSON-RPC errors and tool errors.
pub fn reply_payload(reply: &str) -> Result<Value, AdapterError> {
    let mut value = parse_json(reply)?;
    if value.get("jsonrpc").is_some() {
        if let Some(error) = value.get("error") {
            return Err(AdapterError::Rpc {
                code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            });
        }
        value = value
            .get_mut("result")
            .map(Value::take)
            .ok_or_else(|| AdapterError::Shape("JSON-RPC reply without result".to_string()))?;
    }
    if value.get("isError").and_then(Value::as_bool) == Some(true) {
        let text = first_text(value.get("content")).unwrap_or_default();
        return Err(AdapterError::Tool(text.to_string()));
    }
    if let Some(structured) = value.get_mut("structuredContent") {
        if !structured.is_null() {
            return Ok(unwrap_result(structured.take()));
        }
    }
    let text = first_text(value.get("content")).or_else(|| first_text(value.get("contents")));
    if let Some(text) = text {
        return parse_json(text).map(unwrap_result);
    }
    Ok(unwrap_result(value))
}

/// Message rows in a payload: a row array, `{messages: [...]}` (resources and the
/// unified inbox), `{deliveries: [{payload}]}` (send replies; one row per id), or
/// one message object (`reply_message`).
fn message_rows(payload: Value) -> Result<Vec<Value>, AdapterError> {
    match payload {
        Value::Array(rows) => Ok(rows),
        Value::Object(mut map) => {
            if let Some(Value::Array(rows)) = map.remove("messages") {
                return Ok(rows);
            }
            if map.contains_key("id") && map.contains_key("subject") {
                return Ok(vec![Value::Object(map)]);
            }
            if let Some(Value::Array(deliveries)) = map.remove("deliveries") {
                let mut seen = BTreeSet::new();
                let mut rows = Vec::new();
                for mut delivery in deliveries {
                    let payload = delivery.get_mut("payload").map(Value::take);
                    if let Some(row) = payload {
                        let key = row.get("id").map(Value::to_string).unwrap_or_default();
                        if seen.insert(key) {
                            rows.push(row);
                        }
                    }
                }
                return Ok(rows);
            }
            Err(AdapterError::Shape(
                "message rows: an array, {messages}, {deliveries} or one message".to_string(),
            ))
        }
        _ => Err(AdapterError::Shape(
            "message rows: an array or an object".to_string(),
        )),
    }
}

/// `2026-11-21 04:46:40.193112` (naive UTC, as `/mail/api` prints it) becomes
/// `2026-11-21T04:46:40.193112+00:00` (the tools' format), so both sort together.
/// Other texts are returned unchanged.
#[must_use]
pub fn normalize_timestamp(text: &str) -> String {
    let bytes = text.as_bytes();
    let naive = bytes.len() >= 19
        && bytes.get(10) == Some(&b' ')
        && bytes.get(4) == Some(&b'-')
        && bytes.get(13) == Some(&b':')
        && !text
            .get(19..)
            .is_some_and(|rest| rest.contains(['+', 'Z', '-']));
    if naive {
        format!("{}T{}+00:00", &text[..10], &text[11..])
    } else {
        text.to_string()
    }
}

fn take_first(row: &mut Map<String, Value>, keys: &[&str]) -> Option<Value> {
    keys.iter().find_map(|key| row.remove(*key))
}

/// One canonical message row: `id, subject, from, created_ts, importance,
/// ack_required, thread_id` (+ `delivery_status` for outbox rows).
fn canonical_message(row: Value, outbox: bool, unified: bool) -> Value {
    let Value::Object(mut row) = row else {
        return row;
    };
    let mut out = Map::new();
    for key in ["id", "subject"] {
        if let Some(value) = row.remove(key) {
            out.insert(key.to_string(), value);
        }
    }
    if let Some(from) = take_first(&mut row, &["from", "sender_name", "sender"]) {
        out.insert("from".to_string(), from);
    }
    if let Some(created) = take_first(&mut row, &["created_ts", "created"]) {
        let created = match created {
            Value::String(text) if unified => Value::String(normalize_timestamp(&text)),
            other => other,
        };
        out.insert("created_ts".to_string(), created);
    }
    if let Some(importance) = row.remove("importance") {
        out.insert("importance".to_string(), importance);
    }
    match row.remove("ack_required") {
        Some(value) => {
            out.insert("ack_required".to_string(), value);
        }
        // The unified inbox has no ack flag; ack state comes from the views.
        None if unified => {
            out.insert("ack_required".to_string(), Value::Bool(false));
        }
        None => {}
    }
    out.insert(
        "thread_id".to_string(),
        row.remove("thread_id").unwrap_or(Value::Null),
    );
    if outbox {
        out.insert(
            "delivery_status".to_string(),
            row.remove("delivery_status")
                .unwrap_or_else(|| Value::String("sent".to_string())),
        );
    }
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
/// `from`, the naive timestamp is normalized ([`normalize_timestamp`]) and the
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
                row.get("recipients")
                    .and_then(Value::as_str)
                    .is_some_and(|list| list.split(',').any(|entry| entry.trim() == name))
            })
        })
        .map(|row| canonical_message(row, false, true))
        .collect();
    Ok(rows_text(rows))
}

fn ids_of(rows: &[Value], keep: impl Fn(&Value) -> bool) -> BTreeSet<u64> {
    rows.iter()
        .filter(|row| keep(row))
        .filter_map(|row| row.get("id").and_then(Value::as_u64))
        .collect()
}

fn ack_flag(row: &Value) -> bool {
    matches!(row.get("ack_required"), Some(Value::Bool(true)))
        || row.get("ack_required").and_then(Value::as_u64) == Some(1)
}

/// Ids still waiting for an acknowledgement according to a
/// `resource://views/ack-required/{agent}` reply.
///
/// # Errors
/// See [`AdapterError`].
pub fn pending_ack_ids(view_reply: &str) -> Result<Vec<u64>, AdapterError> {
    let rows = message_rows(reply_payload(view_reply)?)?;
    Ok(ids_of(&rows, |_| true).into_iter().collect())
}

/// The acknowledged ids: inbox rows (canonical row-array text, e.g. from
/// [`inbox_rows`]) that are `ack_required` but absent from the ack-required view.
///
/// # Errors
/// See [`AdapterError`].
pub fn acknowledged_ids(inbox_rows_text: &str, view_reply: &str) -> Result<Vec<u64>, AdapterError> {
    let pending: BTreeSet<u64> = pending_ack_ids(view_reply)?.into_iter().collect();
    let rows = message_rows(parse_json(inbox_rows_text)?)?;
    Ok(ids_of(&rows, ack_flag)
        .difference(&pending)
        .copied()
        .collect())
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
                .get("id")
                .and_then(Value::as_u64)
                .is_some_and(|id| ids.contains(&id));
            if let (true, Some(map)) = (hit, row.as_object_mut()) {
                map.insert("ack_required".to_string(), Value::Bool(true));
            }
            row
        })
        .collect();
    Ok(rows_text(rows))
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

/// One Agent Mail message as the servers' tools, resources and operator endpoints return it,
/// decoded once: the sender under `from`, `sender_name` or `sender`; recipients from `to` and
/// `cc` (lists) or `recipients` (a comma-separated text); `ack_required` as a boolean or
/// `0`/`1`; acknowledged by an `ack_ts` or `acknowledged: true`; a numeric thread id as text;
/// `created` for `created_ts`, naive timestamps normalized ([`normalize_timestamp`]).
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
    /// Markdown body (empty when the reply left it out).
    pub body_md: String,
}

fn text_of(row: &Value, keys: &[&str]) -> String {
    keys.iter()
        .find_map(|key| match row.get(*key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

impl MailRow {
    /// Decodes one message object.
    ///
    /// # Errors
    /// [`AdapterError::Shape`] for an object without a numeric `id`.
    pub fn from_value(row: &Value) -> Result<MailRow, AdapterError> {
        let id = row
            .get("id")
            .and_then(Value::as_u64)
            .ok_or_else(|| AdapterError::Shape("a message without a numeric id".to_string()))?;
        let mut to: Vec<String> = Vec::new();
        for key in ["to", "cc"] {
            if let Some(Value::Array(names)) = row.get(key) {
                to.extend(names.iter().filter_map(Value::as_str).map(str::to_string));
            }
        }
        if to.is_empty() {
            if let Some(Value::String(list)) = row.get("recipients") {
                to = super::recipient_names(list);
            }
        }
        let thread = text_of(row, &["thread_id"]);
        Ok(MailRow {
            id,
            thread_id: (!thread.is_empty()).then_some(thread),
            from: text_of(row, &["from", "sender_name", "sender"]),
            to,
            subject: text_of(row, &["subject"]),
            created_ts: normalize_timestamp(&text_of(row, &["created_ts", "created"])),
            importance: text_of(row, &["importance"]),
            ack_required: ack_flag(row),
            acknowledged: row.get("ack_ts").is_some_and(|ts| !ts.is_null())
                || row.get("acknowledged").and_then(Value::as_bool) == Some(true),
            body_md: text_of(row, &["body_md"]),
        })
    }

    /// The message rows of a reply (any shape [`reply_payload`] accepts; rows without an id are
    /// left out).
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

    /// The row in the shape [`crate::agent_mail::Envelope::decode`] reads.
    #[must_use]
    pub fn to_value(&self) -> Value {
        json!({
            "id": self.id,
            "thread_id": self.thread_id,
            "from": self.from,
            "to": self.to,
            "subject": self.subject,
            "created_ts": self.created_ts,
            "importance": self.importance,
            "ack_required": self.ack_required,
            "acknowledged": self.acknowledged,
            "body_md": self.body_md,
        })
    }
}
