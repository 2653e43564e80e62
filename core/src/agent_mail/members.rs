//! The one decoder of Agent Mail row members: which member names the sender, the recipients,
//! the time, the thread; how `ack_required` reads; what makes a row acknowledged. Rows from
//! bytes ([`super::raw`]) and parsed rows (a `Value` map) fill the same [`RowMembers`], so every
//! reader — [`super::MailRow`], [`super::Envelope`], the pane rows of [`super::replies`] — gets
//! the same answers.

use super::raw::{RawRow, Scalar};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Members that name the sender, in the order they are tried: the tools write `from`, the web
/// API `sender_name` or `sender`, a droid message `sender_id`.
const SENDER: [&str; 4] = ["from", "sender_name", "sender", "sender_id"];

/// Members that hold the creation time: `created_ts` (the tools), `created` (archive copies),
/// `timestamp` (a bare protocol message).
const CREATED: [&str; 3] = ["created_ts", "created", "timestamp"];

/// Members that name the thread: `thread_id`, else a log's `session_id`.
const THREAD: [&str; 2] = ["thread_id", "session_id"];

/// Every member the decoder reads.
const KEYS: [&str; 20] = [
    "id",
    "subject",
    "importance",
    "body_md",
    "delivery_status",
    "to",
    "cc",
    "recipients",
    "ack_required",
    "ack_ts",
    "acknowledged",
    SENDER[0],
    SENDER[1],
    SENDER[2],
    SENDER[3],
    CREATED[0],
    CREATED[1],
    CREATED[2],
    THREAD[0],
    THREAD[1],
];

/// The members of one row the decoder reads (a member absent is `None`; `null` is
/// `Some(Scalar::Null)`).
#[derive(Default)]
pub(crate) struct RowMembers<'a> {
    values: [Option<Scalar<'a>>; KEYS.len()],
}

impl<'de> RawRow<'de> for RowMembers<'de> {
    fn set(&mut self, key: &str, value: Scalar<'de>) {
        if let Some(i) = KEYS.iter().position(|k| *k == key) {
            self.values[i] = Some(value);
        }
    }

    fn wants(key: &str) -> bool {
        KEYS.contains(&key)
    }
}

/// Why an `ack_required` value is no flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlagError {
    /// A number other than 0 and 1.
    NotBinary,
    /// Neither a boolean nor an unsigned integer.
    NotFlag,
}

/// `ack_required` as Agent Mail writes it: a boolean, or `0`/`1` (search replies).
pub(crate) fn ack_flag(value: &Scalar<'_>) -> Result<bool, FlagError> {
    match value {
        Scalar::Bool(flag) => Ok(*flag),
        Scalar::U64(0) => Ok(false),
        Scalar::U64(1) => Ok(true),
        Scalar::U64(_) => Err(FlagError::NotBinary),
        _ => Err(FlagError::NotFlag),
    }
}

/// Trimmed, non-blank text.
fn text<'s>(value: &'s Scalar<'_>) -> Option<&'s str> {
    value.as_str().map(str::trim).filter(|t| !t.is_empty())
}

/// The names in a recipient member: a comma-separated text (Agent Mail's `recipients` column
/// and web API) or a list, trimmed, blanks left out.
fn names(value: Option<&Scalar<'_>>) -> Vec<String> {
    let trimmed = |s: &str| Some(s.trim()).filter(|t| !t.is_empty()).map(str::to_owned);
    match value {
        Some(Scalar::Str(list)) => list.split(',').filter_map(trimmed).collect(),
        Some(Scalar::List(items)) => items.iter().filter_map(|s| trimmed(s)).collect(),
        _ => Vec::new(),
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

impl<'a> RowMembers<'a> {
    /// The members of a parsed row.
    pub(crate) fn of(map: &'a Map<String, Value>) -> RowMembers<'a> {
        let mut members = RowMembers::default();
        for (key, value) in map {
            members.set(key, Scalar::of(value));
        }
        members
    }

    /// Member `key` (one of [`KEYS`]).
    fn get(&self, key: &str) -> Option<&Scalar<'a>> {
        let i = KEYS.iter().position(|k| *k == key)?;
        self.values[i].as_ref()
    }

    /// The first of `keys` holding non-blank text, trimmed.
    fn first_text(&self, keys: &[&str]) -> Option<String> {
        keys.iter()
            .find_map(|k| self.get(k).and_then(text))
            .map(str::to_owned)
    }

    /// The transport id (an unsigned integer).
    pub(crate) fn id(&self) -> Option<u64> {
        match self.get("id")? {
            Scalar::U64(id) => Some(*id),
            _ => None,
        }
    }

    /// The subject.
    pub(crate) fn subject(&self) -> Option<String> {
        self.first_text(&["subject"])
    }

    /// The importance (`normal`, `high`, `urgent`, `low`).
    pub(crate) fn importance(&self) -> Option<String> {
        self.first_text(&["importance"])
    }

    /// The sender's name ([`SENDER`]).
    pub(crate) fn sender(&self) -> Option<String> {
        self.first_text(&SENDER)
    }

    /// The recipients: `to` (or, when absent, `recipients`), then `cc`.
    pub(crate) fn recipients(&self) -> Vec<String> {
        let primary = self.get("to").or_else(|| self.get("recipients"));
        let mut all = names(primary);
        all.extend(names(self.get("cc")));
        all
    }

    /// When it was sent ([`CREATED`]), naive timestamps normalized ([`normalize_timestamp`]).
    pub(crate) fn created_ts(&self) -> Option<String> {
        CREATED
            .iter()
            .find_map(|k| self.get(k).and_then(text))
            .map(normalize_timestamp)
    }

    /// The thread ([`THREAD`]): non-blank text or an unsigned integer.
    pub(crate) fn thread_id(&self) -> Option<String> {
        THREAD.iter().find_map(|k| match self.get(k)? {
            Scalar::U64(n) => Some(n.to_string()),
            other => text(other).map(str::to_owned),
        })
    }

    /// `ack_required` ([`ack_flag`]): `None` when absent or not a flag.
    pub(crate) fn ack_flag(&self) -> Option<Result<bool, FlagError>> {
        self.get("ack_required").map(ack_flag)
    }

    /// Whether the sender asked for an acknowledgement (a value that is no flag is `false`).
    pub(crate) fn ack_required(&self) -> bool {
        matches!(self.ack_flag(), Some(Ok(true)))
    }

    /// When it was acknowledged (`ack_ts`), as written.
    pub(crate) fn ack_ts(&self) -> Option<String> {
        self.first_text(&["ack_ts"])
    }

    /// Whether it was acknowledged: an `ack_ts`, or `acknowledged: true`.
    pub(crate) fn acknowledged(&self) -> bool {
        self.ack_ts().is_some() || matches!(self.get("acknowledged"), Some(Scalar::Bool(true)))
    }

    /// The outbox row's delivery status.
    pub(crate) fn delivery_status(&self) -> Option<String> {
        self.first_text(&["delivery_status"])
    }

    /// The Markdown body, when it is text (as written, not trimmed).
    pub(crate) fn body_md(&self) -> Option<&Cow<'a, str>> {
        match self.get("body_md")? {
            Scalar::Str(body) => Some(body),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn members(value: &Value) -> RowMembers<'_> {
        RowMembers::of(value.as_object().expect("object"))
    }

    #[test]
    fn one_rule_per_member() {
        let row = json!({"from": " ", "sender_name": "A", "to": "b, c,", "cc": ["d", 1, " "],
            "created": "2026-11-21 04:46:40", "thread_id": 12, "ack_required": 1});
        let m = members(&row);
        assert_eq!(m.sender().as_deref(), Some("A"));
        assert_eq!(m.recipients(), ["b", "c", "d"]);
        assert_eq!(m.created_ts().as_deref(), Some("2026-11-21T04:46:40+00:00"));
        assert_eq!(m.thread_id().as_deref(), Some("12"));
        assert!(m.ack_required() && !m.acknowledged());
        let bad = json!({"from": 7, "ack_required": 2, "to": null, "recipients": "x"});
        let m = members(&bad);
        assert_eq!(m.sender(), None);
        assert_eq!(m.ack_flag(), Some(Err(FlagError::NotBinary)));
        assert!(m.recipients().is_empty(), "a present `to` wins, even null");
    }
}
