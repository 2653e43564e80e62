//! [`Contact`]: one row of a `list_contacts` reply, decoded once.

use super::replies::payload::{reply_payload, AdapterError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One contact link of an agent: the peer, the link's status and why, when it changed and
/// when it expires. Texts are trimmed; a member that is absent or holds no text is empty.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Contact {
    /// The peer agent.
    pub to: String,
    /// `approved`, `pending`, `blocked`, …
    pub status: String,
    /// Why the link exists.
    pub reason: String,
    /// When it last changed.
    pub updated_ts: String,
    /// When it expires, if it does.
    pub expires_ts: Option<String>,
}

impl Contact {
    /// The contact rows of a `list_contacts` reply (any shape [`reply_payload`] accepts).
    ///
    /// # Errors
    /// See [`AdapterError`]; [`AdapterError::Shape`] when the payload is not a row array.
    pub fn rows(reply: &str) -> Result<Vec<Contact>, AdapterError> {
        let Value::Array(rows) = reply_payload(reply)? else {
            return Err(AdapterError::Shape("contacts: a row array".to_string()));
        };
        Ok(rows.iter().map(Contact::from_value).collect())
    }

    /// Decodes one contact object (anything else is an empty contact).
    #[must_use]
    pub fn from_value(row: &Value) -> Contact {
        let text = |key: &str| {
            row.get(key)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
        };
        Contact {
            to: text("to").unwrap_or_default(),
            status: text("status").unwrap_or_default(),
            reason: text("reason").unwrap_or_default(),
            updated_ts: text("updated_ts").unwrap_or_default(),
            expires_ts: text("expires_ts"),
        }
    }
}
