//! Agent Mail traffic as typed envelopes: each mail message (id, thread, sender, recipients,
//! time, acknowledgement) joined to the protocol message it carries, decoded and validated
//! once. Sessions, task boards and checkpoints are folds over [`Envelope`]s.
//!
//! - [`Envelope::decode`]: one Agent Mail row (`{id, subject, from, to, created_ts,
//!   thread_id, body_md, …}`) or one bare protocol message.
//! - [`read_log`]: a whole log, as a JSON array or JSON Lines.
//! - [`replies`]: real servers' replies (JSON-RPC envelopes, tool results, resources) decoded
//!   into payloads and canonical rows.

mod log;
pub mod replies;
mod row;

pub use log::{read_log, LogError};

use crate::protocol::{self, FamilyId, Issue, Options, Report};
use crate::time::Timestamp;
use serde::Serialize;
use serde_json::{Map, Value};

/// One mail message and the protocol message it carries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Envelope {
    /// Position in the log (0-based): the identity when the transport gave no id.
    pub index: usize,
    /// The 1-based line of the log it came from (JSON Lines), if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The transport's message id (Agent Mail ids are integers).
    pub id: Option<u64>,
    /// The Agent Mail thread (blank is none).
    pub thread_id: Option<String>,
    /// The sender's agent name.
    pub from: Option<String>,
    /// The recipients' agent names.
    pub to: Vec<String>,
    /// The mail subject.
    pub subject: Option<String>,
    /// When it was sent, as written.
    pub created_ts: Option<String>,
    /// When it was sent, parsed.
    pub at: Option<Timestamp>,
    /// Importance (`normal`, `high`, `urgent`, `low`).
    pub importance: Option<String>,
    /// Whether the sender asked for an acknowledgement.
    pub ack_required: bool,
    /// Whether it was acknowledged (an `ack_ts`, or `acknowledged: true`).
    pub acknowledged: bool,
    /// When it was acknowledged, if known.
    pub ack_at: Option<Timestamp>,
    /// The protocol message it carries.
    pub carried: Carried,
}

/// What a mail message carries.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Carried {
    /// A valid protocol message.
    Message(ProtocolMessage),
    /// A protocol message (or something meant as one) that failed validation.
    Invalid(Box<InvalidMessage>),
    /// Plain mail: no JSON in the body.
    Plain,
}

/// The members of a log entry an envelope reads, found in one pass over the object.
#[derive(Default)]
struct EnvelopeMembers<'v> {
    id: Option<&'v Value>,
    thread_id: Option<&'v Value>,
    session_id: Option<&'v Value>,
    from: Option<&'v Value>,
    sender_name: Option<&'v Value>,
    sender: Option<&'v Value>,
    sender_id: Option<&'v Value>,
    to: Option<&'v Value>,
    recipients: Option<&'v Value>,
    subject: Option<&'v Value>,
    created_ts: Option<&'v Value>,
    created: Option<&'v Value>,
    timestamp: Option<&'v Value>,
    ack_ts: Option<&'v Value>,
    acknowledged: Option<&'v Value>,
    ack_required: Option<&'v Value>,
    importance: Option<&'v Value>,
    body_md: Option<&'v Value>,
}

impl<'v> EnvelopeMembers<'v> {
    fn gather(obj: &'v Map<String, Value>) -> Self {
        let mut m = EnvelopeMembers::default();
        for (k, v) in obj {
            let slot = match k.as_str() {
                "id" => &mut m.id,
                "thread_id" => &mut m.thread_id,
                "session_id" => &mut m.session_id,
                "from" => &mut m.from,
                "sender_name" => &mut m.sender_name,
                "sender" => &mut m.sender,
                "sender_id" => &mut m.sender_id,
                "to" => &mut m.to,
                "recipients" => &mut m.recipients,
                "subject" => &mut m.subject,
                "created_ts" => &mut m.created_ts,
                "created" => &mut m.created,
                "timestamp" => &mut m.timestamp,
                "ack_ts" => &mut m.ack_ts,
                "acknowledged" => &mut m.acknowledged,
                "ack_required" => &mut m.ack_required,
                "importance" => &mut m.importance,
                "body_md" => &mut m.body_md,
                _ => continue,
            };
            *slot = Some(v);
        }
        m
    }
}

/// A message that failed validation: the report, and the message when it was JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InvalidMessage {
    /// Why it is invalid.
    pub report: Report,
    /// The message (for a row, the carried message), when it parsed.
    pub message: Option<Value>,
}

/// A valid protocol message: its family, registry type and JSON (a Pair message as
/// `{subject, body}`, others as sent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProtocolMessage {
    /// Its family.
    pub family: FamilyId,
    /// Its registry type name.
    pub message_type: &'static str,
    /// The message.
    pub value: Value,
    /// Lenient-mode warnings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Issue>,
}

impl Envelope {
    /// Decodes one log entry. An object with `body_md` is an Agent Mail row; any other object
    /// is a bare protocol message, whose envelope members come from optional members beside
    /// it (`from`, `to`, `thread_id` or `session_id`, `created_ts` or `timestamp`, `id`) or from
    /// the message itself (droid `sender_id`).
    #[must_use]
    pub fn decode(index: usize, value: Value, options: &Options) -> Envelope {
        let (report, carried) = protocol::validate_carried(&value, options);
        let empty = Map::new();
        let obj = value.as_object().unwrap_or(&empty);
        let m = EnvelopeMembers::gather(obj);
        let text = |v: Option<&Value>| -> Option<String> {
            v.and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let from = text(m.from)
            .or_else(|| text(m.sender_name))
            .or_else(|| text(m.sender))
            .or_else(|| text(m.sender_id));
        let to = match m.to.or(m.recipients) {
            Some(Value::String(s)) => recipient_names(s),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let created_ts = text(m.created_ts)
            .or_else(|| text(m.created))
            .or_else(|| text(m.timestamp));
        let ack_ts = text(m.ack_ts);
        let ack_at = ack_ts.as_deref().and_then(Timestamp::parse);
        let acknowledged =
            ack_ts.is_some() || m.acknowledged.and_then(Value::as_bool) == Some(true);
        let ack_required = match m.ack_required {
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_u64() == Some(1),
            _ => false,
        };
        let mut envelope = Envelope {
            index,
            line: None,
            id: m.id.and_then(Value::as_u64),
            thread_id: text(m.thread_id).or_else(|| text(m.session_id)),
            from,
            to,
            subject: text(m.subject),
            at: created_ts.as_deref().and_then(Timestamp::parse),
            created_ts,
            importance: text(m.importance),
            ack_required,
            acknowledged,
            ack_at,
            carried: Carried::Plain,
        };
        // A row's message is the one it carries; a row whose body does not parse has none.
        let is_row = m.body_md.is_some();
        let message = carried.or((!is_row).then_some(value));
        envelope.carried = classify(report, message);
        envelope
    }

    /// Decodes one log entry from its JSON bytes: the same envelope as
    /// [`Envelope::decode`] of the parsed value, or a `not_json` report. An Agent Mail row
    /// is read without building a JSON tree for it (only its `body_md` message is parsed).
    #[must_use]
    pub fn decode_slice(index: usize, bytes: &[u8], options: &Options) -> Envelope {
        Envelope::decode_bytes(index, bytes, options)
            .unwrap_or_else(|e| log::not_json(index, &format!("not JSON: {e}")))
    }

    /// [`Envelope::decode_slice`], with the parse error of bytes that are not JSON.
    pub(crate) fn decode_bytes(
        index: usize,
        bytes: &[u8],
        options: &Options,
    ) -> serde_json::Result<Envelope> {
        // serde_json skips ignored members without checking their UTF-8: check it first, as
        // the `Value` path does.
        // Only a row (a `body_md` member) takes this path: a bare message needs its tree.
        let maybe_row = memchr::memmem::find(bytes, b"\"body_md\"").is_some();
        let row = maybe_row
            .then(|| std::str::from_utf8(bytes).ok())
            .flatten()
            .and_then(|text| serde_json::from_str::<row::Row<'_>>(text).ok());
        if let Some(row) = row {
            if let Some(body_md) = row.body_md() {
                let mut envelope = row.envelope(index);
                let subject = envelope.subject.as_deref();
                let (report, carried) = protocol::validate_body_md(subject, body_md, options);
                envelope.carried = classify(report, carried);
                return Ok(envelope);
            }
        }
        let value = serde_json::from_slice::<Value>(bytes)?;
        Ok(Envelope::decode(index, value, options))
    }

    /// The valid protocol message, if it carries one.
    #[must_use]
    pub fn message(&self) -> Option<&ProtocolMessage> {
        match &self.carried {
            Carried::Message(m) => Some(m),
            _ => None,
        }
    }

    /// The carried message's JSON, valid or not.
    #[must_use]
    pub fn value(&self) -> Option<&Value> {
        match &self.carried {
            Carried::Message(m) => Some(&m.value),
            Carried::Invalid(r) => r.message.as_ref(),
            Carried::Plain => None,
        }
    }

    /// The family of the carried message, valid or not, when it could be told.
    #[must_use]
    pub fn family(&self) -> Option<FamilyId> {
        match &self.carried {
            Carried::Message(m) => Some(m.family),
            Carried::Invalid(r) => r.report.family,
            Carried::Plain => None,
        }
    }

    /// The registry type of the carried message, valid or not, when it could be told.
    #[must_use]
    pub fn message_type(&self) -> Option<&'static str> {
        match &self.carried {
            Carried::Message(m) => Some(m.message_type),
            Carried::Invalid(r) => r.report.message_type,
            Carried::Plain => None,
        }
    }

    /// A short reference for messages: `message 12` (transport id) or `entry 3` (log position).
    #[must_use]
    pub fn reference(&self) -> String {
        match self.id {
            Some(id) => format!("message {id}"),
            None => format!("entry {}", self.index + 1),
        }
    }
}

/// The names in a recipient text: one name, or a comma-separated list (as Agent Mail's
/// `recipients` column and web API write it), trimmed, blanks left out.
pub(crate) fn recipient_names(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

fn classify(report: Report, message: Option<Value>) -> Carried {
    let plain = report
        .issues
        .iter()
        .any(|i| i.code == protocol::IssueCode::NoProtocolMessage);
    if plain {
        return Carried::Plain;
    }
    match (report.valid, report.family, report.message_type, message) {
        (true, Some(family), Some(message_type), Some(value)) => {
            Carried::Message(ProtocolMessage {
                family,
                message_type,
                value,
                warnings: report.issues,
            })
        }
        (_, _, _, message) => Carried::Invalid(Box::new(InvalidMessage { report, message })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_and_bare_messages_share_one_envelope() {
        let row = json!({"id": 7, "thread_id": "T-1", "from": "alice", "to": ["bob"],
            "subject": "SESSION_ABORT", "created_ts": "2026-01-15T10:00:00Z", "ack_required": 1,
            "body_md": "{\"phase\":\"CONTRACT_GENERATION\",\"reason\":\"r\",\"status\":\"ABORTED\",\"cleanup_required\":true}"});
        let e = Envelope::decode(0, row, &Options::default());
        assert_eq!(
            (e.id, e.from.as_deref(), e.to.clone()),
            (Some(7), Some("alice"), vec!["bob".to_owned()])
        );
        assert!(e.ack_required && !e.acknowledged);
        assert_eq!(e.at, Timestamp::parse("2026-01-15T10:00:00Z"));
        let m = e.message().expect("valid");
        assert_eq!(
            (m.family, m.message_type),
            (FamilyId::Pair, "SESSION_ABORT")
        );
        assert_eq!(m.value["body"]["reason"], "r");

        let bare = json!({"to": "bob", "subject": "SESSION_ABORT", "from": "alice",
            "body": {"phase": "MERGED", "reason": "r", "status": "ABORTED", "cleanup_required": false}});
        let e = Envelope::decode(1, bare, &Options::default());
        assert_eq!(e.message_type(), Some("SESSION_ABORT"));
        assert_eq!(e.to, vec!["bob".to_owned()]);

        // A recipient text is a comma-separated list, on the tree path and the byte path.
        let listed = json!({"id": 10, "subject": "hi", "from": "a", "recipients": "bob, carol,",
            "body_md": "just text"});
        let names = vec!["bob".to_owned(), "carol".to_owned()];
        assert_eq!(
            Envelope::decode(4, listed.clone(), &Options::default()).to,
            names
        );
        let bytes = serde_json::to_vec(&listed).unwrap();
        assert_eq!(
            Envelope::decode_slice(4, &bytes, &Options::default()).to,
            names
        );

        let plain = json!({"id": 8, "subject": "hi", "from": "a", "body_md": "just text"});
        assert_eq!(
            Envelope::decode(2, plain, &Options::default()).carried,
            Carried::Plain
        );

        let invalid = json!({"id": 9, "subject": "CHANGE_ORDER", "from": "b", "body_md": "{\"phase\":\"BUILD_BLOCKED\"}"});
        let e = Envelope::decode(3, invalid, &Options::default());
        assert!(matches!(e.carried, Carried::Invalid(_)));
        assert_eq!(e.message_type(), Some("CHANGE_ORDER"));
    }
}
