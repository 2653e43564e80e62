//! Envelopes: each mail message (id, thread, sender, recipients, time, acknowledgement)
//! joined to the protocol message it carries, decoded and validated once.

use super::mail_row::MailRow;
use super::members::RowMembers;
use super::raw::Row;
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
    /// Whether `from` was inferred from the protocol message's own fields (a log without
    /// envelopes; `session::attribute`), not read from the mail.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sender_inferred: bool,
    /// The recipients' agent names (`to` or `recipients`, then `cc`).
    pub to: Vec<String>,
    /// The mail subject.
    pub subject: Option<String>,
    /// When it was sent, as written (a naive `/mail/api` time normalized to RFC 3339).
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
    Plain {
        /// The secrets its subject, body or other members hold (`secret_in_message` issues,
        /// masked): plain mail is not a protocol message, but no secret belongs in it either.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        secrets: Vec<Issue>,
    },
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
        let empty = Map::new();
        let mut envelope =
            Envelope::of(index, &RowMembers::of(value.as_object().unwrap_or(&empty)));
        let (report, message) = validated(value, options);
        envelope.carried = classify(report, message);
        envelope
    }

    /// An envelope for a decoded Agent Mail row (e.g. from [`MailRow::rows`]): the row's
    /// members as they are, its `body_md` validated once. The same envelope as
    /// [`Envelope::decode`] of the row's JSON.
    #[must_use]
    pub fn from_row(index: usize, row: &MailRow, options: &Options) -> Envelope {
        let blank = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        let subject = blank(&row.subject);
        let (report, carried) =
            protocol::validate_body_md(subject.as_deref(), &row.body_md, options);
        Envelope {
            index,
            line: None,
            id: Some(row.id),
            thread_id: row.thread_id.clone(),
            from: blank(&row.from),
            sender_inferred: false,
            to: row.to.clone(),
            subject,
            at: Timestamp::parse(&row.created_ts),
            created_ts: blank(&row.created_ts),
            importance: blank(&row.importance),
            ack_required: row.ack_required,
            acknowledged: row.acknowledged,
            ack_at: row.ack_ts.as_deref().and_then(Timestamp::parse),
            carried: classify(report, carried),
        }
    }

    /// The transport members (the carried message is filled in by the caller).
    fn of(index: usize, m: &RowMembers<'_>) -> Envelope {
        let created_ts = m.created_ts();
        let ack_ts = m.ack_ts();
        Envelope {
            index,
            line: None,
            id: m.id(),
            thread_id: m.thread_id(),
            from: m.sender(),
            sender_inferred: false,
            to: m.recipients(),
            subject: m.subject(),
            at: created_ts.as_deref().and_then(Timestamp::parse),
            created_ts,
            importance: m.importance(),
            ack_required: m.ack_required(),
            acknowledged: m.acknowledged(),
            ack_at: ack_ts.as_deref().and_then(Timestamp::parse),
            carried: Carried::Plain {
                secrets: Vec::new(),
            },
        }
    }

    /// An envelope for an entry that is not JSON.
    pub(crate) fn not_json(index: usize, message: &str) -> Envelope {
        Envelope {
            carried: Carried::Invalid(Box::new(InvalidMessage {
                report: Report::unparsed(message.to_owned()),
                message: None,
            })),
            ..Envelope::of(index, &RowMembers::default())
        }
    }

    /// Decodes one log entry from its JSON bytes: the same envelope as
    /// [`Envelope::decode`] of the parsed value, or a `not_json` report. An Agent Mail row
    /// is read without building a JSON tree for it (only its `body_md` message is parsed).
    #[must_use]
    pub fn decode_slice(index: usize, bytes: &[u8], options: &Options) -> Envelope {
        Envelope::decode_bytes(index, bytes, options)
            .unwrap_or_else(|e| Envelope::not_json(index, &format!("not JSON: {e}")))
    }

    /// [`Envelope::decode_slice`], with the parse error of bytes that are not JSON.
    pub(crate) fn decode_bytes(
        index: usize,
        bytes: &[u8],
        options: &Options,
    ) -> serde_json::Result<Envelope> {
        // Only a row (a `body_md` member) takes this path: a bare message needs its tree. The
        // row's members are read without a tree (strings borrowed), its UTF-8 checked first as
        // the `Value` path does.
        let maybe_row = memchr::memmem::find(bytes, b"\"body_md\"").is_some();
        let row = maybe_row
            .then(|| std::str::from_utf8(bytes).ok())
            .flatten()
            .and_then(|text| serde_json::from_str::<Row<RowMembers<'_>>>(text).ok());
        if let Some(Row(members)) = row {
            if let Some(body_md) = members.body_md() {
                let mut envelope = Envelope::of(index, &members);
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
            Carried::Plain { .. } => None,
        }
    }

    /// The family of the carried message, valid or not, when it could be told.
    #[must_use]
    pub fn family(&self) -> Option<FamilyId> {
        match &self.carried {
            Carried::Message(m) => Some(m.family),
            Carried::Invalid(r) => r.report.family,
            Carried::Plain { .. } => None,
        }
    }

    /// The registry type of the carried message, valid or not, when it could be told.
    #[must_use]
    pub fn message_type(&self) -> Option<&'static str> {
        match &self.carried {
            Carried::Message(m) => Some(m.message_type),
            Carried::Invalid(r) => r.report.message_type,
            Carried::Plain { .. } => None,
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

impl Carried {
    /// Reads one mail message, an Agent Mail row or a bare protocol message, as
    /// [`Envelope::decode`] does: its whole report (warnings, and for plain mail its secrets,
    /// included) and what it carries. What an agent checks in each message it sends or reads.
    #[must_use]
    pub fn read(value: Value, options: &Options) -> (Report, Carried) {
        let (report, message) = validated(value, options);
        (report.clone(), classify(report, message))
    }
}

/// The report of a log entry and its protocol message: for a row, the message it carries (none
/// when its body does not parse); otherwise the entry itself.
fn validated(value: Value, options: &Options) -> (Report, Option<Value>) {
    let (report, carried) = protocol::validate_carried(&value, options);
    let is_row = value.as_object().is_some_and(|o| o.contains_key("body_md"));
    (report, carried.or((!is_row).then_some(value)))
}

fn classify(report: Report, message: Option<Value>) -> Carried {
    let plain = report
        .issues
        .iter()
        .any(|i| i.code == protocol::IssueCode::NoProtocolMessage);
    if plain {
        let secrets = report
            .issues
            .into_iter()
            .filter(|i| i.code == protocol::IssueCode::SecretInMessage)
            .collect();
        return Carried::Plain { secrets };
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
            Carried::Plain {
                secrets: Vec::new()
            }
        );

        let invalid = json!({"id": 9, "subject": "CHANGE_ORDER", "from": "b", "body_md": "{\"phase\":\"BUILD_BLOCKED\"}"});
        let e = Envelope::decode(3, invalid, &Options::default());
        assert!(matches!(e.carried, Carried::Invalid(_)));
        assert_eq!(e.message_type(), Some("CHANGE_ORDER"));
    }
}
