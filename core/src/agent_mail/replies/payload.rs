//! The payload of a reply, with every transport layer removed, and the message rows in it.

use serde_json::Value;
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

pub(crate) fn parse_json(text: &str) -> Result<Value, AdapterError> {
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
pub(crate) fn message_rows(payload: Value) -> Result<Vec<Value>, AdapterError> {
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
