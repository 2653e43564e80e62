//! Reading a message log: a JSON array of rows or messages, a server reply payload
//! (`{"messages": [...]}` or `{"result": [...]}`), one message, or JSON Lines.

use super::envelope::Envelope;
use crate::protocol::Options;
use serde_json::Value;
use std::fmt;

/// Why a log could not be read at all. Single bad JSON Lines entries are not errors: they
/// become envelopes whose report says `not_json`, so nothing else in the log is lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogError {
    /// The input starts as a JSON array but is not valid JSON.
    NotJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The input holds no entry at all.
    Empty,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotJson {
                line,
                column,
                message,
            } => write!(
                f,
                "not a JSON array (line {line}, column {column}): {message}"
            ),
            Self::Empty => f.write_str("the log holds no message"),
        }
    }
}

impl std::error::Error for LogError {}

/// Reads a log into envelopes, in log order.
///
/// # Errors
/// [`LogError::NotJson`] when the input starts with `[` but does not parse;
/// [`LogError::Empty`] when there is no entry.
pub fn read_log(bytes: &[u8], options: &Options) -> Result<Vec<Envelope>, LogError> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return Err(LogError::Empty);
    };
    let whole = serde_json::from_slice::<Value>(text);
    let envelopes = match whole {
        Ok(value) => entries(value)
            .into_iter()
            .enumerate()
            .map(|(i, v)| Envelope::decode(i, v, options))
            .collect(),
        Err(e) if text[start] == b'[' => {
            return Err(LogError::NotJson {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            })
        }
        Err(_) => json_lines(text, options),
    };
    if envelopes.is_empty() {
        return Err(LogError::Empty);
    }
    Ok(envelopes)
}

/// The entries of a log that parsed as one JSON value.
fn entries(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items,
        Value::Object(mut map) if map.len() == 1 => {
            match map.remove("messages").or_else(|| map.remove("result")) {
                Some(Value::Array(items)) => items,
                Some(other) => vec![other],
                None => vec![Value::Object(map)],
            }
        }
        other => vec![other],
    }
}

/// JSON Lines: one entry per non-blank line; a line that is not JSON becomes an envelope
/// whose report says so, naming the line.
fn json_lines(text: &[u8], options: &Options) -> Vec<Envelope> {
    let mut out = Vec::new();
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let index = out.len();
        let mut envelope = Envelope::decode_bytes(index, line, options).unwrap_or_else(|e| {
            Envelope::not_json(index, &format!("line {}: not JSON: {e}", n + 1))
        });
        envelope.line = Some(n + 1);
        out.push(envelope);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent_mail::envelope::Carried;

    #[test]
    fn arrays_payloads_and_json_lines() {
        let opts = Options::default();
        let row = r#"{"id":1,"subject":"x","from":"a","body_md":"hi"}"#;
        assert_eq!(
            read_log(format!("[{row},{row}]").as_bytes(), &opts)
                .unwrap()
                .len(),
            2
        );
        assert_eq!(
            read_log(format!("{{\"result\":[{row}]}}").as_bytes(), &opts)
                .unwrap()
                .len(),
            1
        );
        let lines = read_log(format!("{row}\n\n{{oops\n{row}\n").as_bytes(), &opts).unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines.iter().map(|e| e.line).collect::<Vec<_>>(),
            [Some(1), Some(3), Some(4)]
        );
        assert!(
            matches!(&lines[1].carried, Carried::Invalid(r) if r.report.issues[0].message.starts_with("line 3"))
        );
        assert_eq!(read_log(b"  \n", &opts), Err(LogError::Empty));
        assert_eq!(read_log(b"[]", &opts), Err(LogError::Empty));
        assert!(matches!(
            read_log(b"[{\"a\":1},", &opts),
            Err(LogError::NotJson { line: 1, .. })
        ));
    }
}
