//! Row parsing straight from bytes, with the reference's rules and error texts.
//!
//! The payload is deserialized through the Agent Mail row reader's visitors, which borrow
//! strings from the input and keep only the fields the pane needs, so no
//! `serde_json::Value` tree is built. The visitors accept every JSON document that
//! `serde_json::from_str::<Value>` accepts (numbers are parsed in full, nesting is
//! counted the same way, duplicate keys keep the last value like the `Value` map),
//! so a fast-path error is a syntax error; only then is the text reproduced by
//! parsing into `Value`, giving the reference's exact `serde_json` message.

use super::model::{ContactItem, Direction, MessageItem};
use crate::agent_mail::{ack_flag, FlagError, Key, RawRow, Row, Scalar, Skip, SkipVisitor};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cmp::Ordering;
use std::fmt;

/// The `result` member of an object payload: rows when it is an array.
struct ResultSlot<R>(Option<Vec<R>>);

struct ResultSlotVisitor<R>(std::marker::PhantomData<R>);

impl<'de, R: RawRow<'de>> Visitor<'de> for ResultSlotVisitor<R> {
    type Value = ResultSlot<R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(ResultSlot(None))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        collect_rows(seq).map(|rows| ResultSlot(Some(rows)))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        SkipVisitor.visit_map(map).map(|_| ResultSlot(None))
    }
}

impl<'de, R: RawRow<'de>> Deserialize<'de> for ResultSlot<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ResultSlotVisitor(std::marker::PhantomData))
    }
}

fn collect_rows<'de, R: RawRow<'de>, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<R>, A::Error> {
    let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(0));
    while let Some(Row(row)) = seq.next_element::<Row<R>>()? {
        rows.push(row);
    }
    Ok(rows)
}

/// A whole payload: rows from a top-level array or from `{"result": [...]}`;
/// `None` for any other shape.
struct Payload<R>(Option<Vec<R>>);

impl<'de, R: RawRow<'de>> Deserialize<'de> for Payload<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PayloadVisitor<R>(std::marker::PhantomData<R>);
        impl<'de, R: RawRow<'de>> Visitor<'de> for PayloadVisitor<R> {
            type Value = Payload<R>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Payload(None))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_any(self)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                collect_rows(seq).map(|rows| Payload(Some(rows)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                // Later duplicate `result` keys replace earlier ones, as in a `Value` map.
                let mut result = None;
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    if key == "result" {
                        result = Some(map.next_value::<ResultSlot<R>>()?.0);
                    } else {
                        map.next_value::<Skip>()?;
                    }
                }
                Ok(Payload(result.flatten()))
            }
        }
        d.deserialize_any(PayloadVisitor(std::marker::PhantomData))
    }
}

/// Message row fields kept by the parser.
#[derive(Default)]
struct RawMessage<'a> {
    id: Option<Scalar<'a>>,
    subject: Option<Scalar<'a>>,
    from: Option<Scalar<'a>>,
    created_ts: Option<Scalar<'a>>,
    importance: Option<Scalar<'a>>,
    ack_required: Option<Scalar<'a>>,
    thread_id: Option<Scalar<'a>>,
    delivery_status: Option<Scalar<'a>>,
}

impl<'de> RawRow<'de> for RawMessage<'de> {
    fn set(&mut self, key: &str, value: Scalar<'de>) {
        let slot = match key {
            "id" => &mut self.id,
            "subject" => &mut self.subject,
            "from" => &mut self.from,
            "created_ts" => &mut self.created_ts,
            "importance" => &mut self.importance,
            "ack_required" => &mut self.ack_required,
            "thread_id" => &mut self.thread_id,
            "delivery_status" => &mut self.delivery_status,
            _ => return,
        };
        *slot = Some(value);
    }
    fn wants(key: &str) -> bool {
        matches!(
            key,
            "id" | "subject"
                | "from"
                | "created_ts"
                | "importance"
                | "ack_required"
                | "thread_id"
                | "delivery_status"
        )
    }
}

/// Contact row fields kept by the parser.
#[derive(Default)]
struct RawContact<'a> {
    to: Option<Scalar<'a>>,
    status: Option<Scalar<'a>>,
    reason: Option<Scalar<'a>>,
    updated_ts: Option<Scalar<'a>>,
    expires_ts: Option<Scalar<'a>>,
}

impl<'de> RawRow<'de> for RawContact<'de> {
    fn set(&mut self, key: &str, value: Scalar<'de>) {
        let slot = match key {
            "to" => &mut self.to,
            "status" => &mut self.status,
            "reason" => &mut self.reason,
            "updated_ts" => &mut self.updated_ts,
            "expires_ts" => &mut self.expires_ts,
            _ => return,
        };
        *slot = Some(value);
    }
    fn wants(key: &str) -> bool {
        matches!(
            key,
            "to" | "status" | "reason" | "updated_ts" | "expires_ts"
        )
    }
}

/// Error-text context for one row.
pub(super) struct At<'s> {
    pub(super) source: &'s str,
    pub(super) index: usize,
}

impl At<'_> {
    pub(super) fn missing(&self, field: &str) -> String {
        format!(
            "parse_failure: {}[{}] missing field {field}",
            self.source, self.index
        )
    }
    fn field(&self, field: &str, what: &str) -> String {
        format!(
            "parse_failure: {}[{}] field {field} {what}",
            self.source, self.index
        )
    }

    fn required_str(&self, value: Option<Scalar<'_>>, field: &str) -> Result<String, String> {
        match value {
            None => Err(self.missing(field)),
            Some(Scalar::Str(text)) if text.trim().is_empty() => {
                Err(self.field(field, "must be non-empty"))
            }
            Some(Scalar::Str(text)) => Ok(text.into_owned()),
            Some(_) => Err(self.field(field, "must be a string")),
        }
    }

    fn optional_str(
        &self,
        value: Option<Scalar<'_>>,
        field: &str,
    ) -> Result<Option<String>, String> {
        match value {
            None | Some(Scalar::Null) => Ok(None),
            Some(Scalar::Str(text)) if text.trim().is_empty() => Ok(None),
            Some(Scalar::Str(text)) => Ok(Some(text.into_owned())),
            Some(_) => Err(self.field(field, "must be a string")),
        }
    }

    fn required_u64(&self, value: Option<Scalar<'_>>, field: &str) -> Result<u64, String> {
        match value {
            None => Err(self.missing(field)),
            Some(Scalar::U64(number)) => Ok(number),
            Some(_) => Err(self.field(field, "must be an unsigned integer")),
        }
    }

    fn bool_or_binary(&self, value: Option<Scalar<'_>>, field: &str) -> Result<bool, String> {
        match value.as_ref().map(ack_flag) {
            None => Err(self.missing(field)),
            Some(Ok(flag)) => Ok(flag),
            Some(Err(FlagError::NotBinary)) => {
                Err(self.field(field, "must be 0 or 1 when numeric"))
            }
            Some(Err(FlagError::NotFlag)) => {
                Err(self.field(field, "must be a bool or unsigned integer"))
            }
        }
    }
}

/// Deserializes a payload into raw rows, reproducing the reference's
/// payload-level error texts.
fn payload_rows<'de, R: RawRow<'de>>(raw: &'de str, source: &str) -> Result<Vec<R>, String> {
    let shape = |payload: Payload<R>| {
        payload.0.ok_or_else(|| {
            format!(
                "parse_failure: {source} JSON must be an array or object containing result array"
            )
        })
    };
    match serde_json::from_str::<Payload<R>>(raw) {
        Ok(payload) => shape(payload),
        Err(fast_err) => match serde_json::from_str::<serde_json::Value>(raw) {
            Err(err) => Err(format!("parse_failure: {source} JSON: {err}")),
            // Not expected (the visitors accept every JSON value); keep the fast
            // path's text rather than guess.
            Ok(_) => Err(format!("parse_failure: {source} JSON: {fast_err}")),
        },
    }
}

fn message_from_raw(
    raw: RawMessage<'_>,
    at: &At<'_>,
    direction: Direction,
) -> Result<MessageItem, String> {
    let id = at.required_u64(raw.id, "id")?;
    let subject = at.required_str(raw.subject, "subject")?;
    let from = at.required_str(raw.from, "from")?;
    let created_ts = at.required_str(raw.created_ts, "created_ts")?;
    let importance = at.required_str(raw.importance, "importance")?;
    let ack_required = at.bool_or_binary(raw.ack_required, "ack_required")?;
    let thread_id = at.optional_str(raw.thread_id, "thread_id")?;
    let delivery_status = match direction {
        Direction::Outbox => at
            .optional_str(raw.delivery_status, "delivery_status")?
            .unwrap_or_else(|| "sent".to_string()),
        Direction::Inbox => "received".to_string(),
    };
    Ok(MessageItem {
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
    })
}

/// The message order: `(created_ts, id, direction)` as in the reference, then the
/// remaining fields so that the order is total and independent of input order.
pub(crate) fn message_order(a: &MessageItem, b: &MessageItem) -> Ordering {
    a.created_ts
        .cmp(&b.created_ts)
        .then(a.id.cmp(&b.id))
        .then(a.direction.cmp(&b.direction))
        .then_with(|| a.subject.cmp(&b.subject))
        .then_with(|| a.from.cmp(&b.from))
        .then_with(|| a.importance.cmp(&b.importance))
        .then_with(|| a.ack_required.cmp(&b.ack_required))
        .then_with(|| a.thread_id.cmp(&b.thread_id))
        .then_with(|| a.delivery_status.cmp(&b.delivery_status))
        .then_with(|| a.acknowledged.cmp(&b.acknowledged))
}

/// The contact order: by peer as in the reference, then the remaining fields.
pub(crate) fn contact_order(a: &ContactItem, b: &ContactItem) -> Ordering {
    a.peer
        .cmp(&b.peer)
        .then_with(|| a.status.cmp(&b.status))
        .then_with(|| a.reason.cmp(&b.reason))
        .then_with(|| a.updated_ts.cmp(&b.updated_ts))
        .then_with(|| a.expires_ts.cmp(&b.expires_ts))
}

/// Parses one message stream (`source` names it in error texts) into rows sorted by
/// `message_order`. The first failing row fails the whole stream.
///
/// # Errors
/// The reference's `parse_failure: ...` text.
pub fn parse_messages(
    raw_json: &str,
    source: &str,
    direction: Direction,
) -> Result<Vec<MessageItem>, String> {
    let raw_rows = payload_rows::<RawMessage<'_>>(raw_json, source)?;
    let mut rows = Vec::with_capacity(raw_rows.len());
    for (index, raw) in raw_rows.into_iter().enumerate() {
        rows.push(message_from_raw(raw, &At { source, index }, direction)?);
    }
    rows.sort_unstable_by(message_order);
    Ok(rows)
}

/// Parses a contacts payload into rows sorted by `contact_order` (source `contacts`).
///
/// # Errors
/// The reference's `parse_failure: contacts...` text.
pub fn parse_contacts(raw_json: &str) -> Result<Vec<ContactItem>, String> {
    let source = "contacts";
    let raw_rows = payload_rows::<RawContact<'_>>(raw_json, source)?;
    let mut rows = Vec::with_capacity(raw_rows.len());
    for (index, raw) in raw_rows.into_iter().enumerate() {
        let at = At { source, index };
        rows.push(ContactItem {
            peer: at.required_str(raw.to, "to")?,
            status: at.required_str(raw.status, "status")?,
            reason: at.required_str(raw.reason, "reason")?,
            updated_ts: at.required_str(raw.updated_ts, "updated_ts")?,
            expires_ts: at.optional_str(raw.expires_ts, "expires_ts")?,
        });
    }
    rows.sort_unstable_by(contact_order);
    Ok(rows)
}
