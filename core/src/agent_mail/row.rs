//! The fast path for Agent Mail rows: the row's members read straight from the bytes into a
//! borrowed struct (no `serde_json::Value` map for the row), its `body_md` validated as text.
//! Any shape this path does not read exactly as [`Envelope::decode`] would (a member of an
//! unexpected type, a duplicate member, no `body_md`) makes it decline, and the caller takes
//! the `Value` path; a property test holds the two paths equal.

use super::Envelope;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

/// The members of an Agent Mail row that an envelope reads.
#[derive(Deserialize)]
pub(super) struct Row<'a> {
    #[serde(default)]
    id: MailId,
    #[serde(borrow, default)]
    thread_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    session_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    from: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    sender_name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    sender: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    sender_id: Option<Cow<'a, str>>,
    #[serde(default)]
    to: Recipients,
    #[serde(default)]
    recipients: Recipients,
    #[serde(borrow, default)]
    subject: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    created_ts: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    created: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    ack_ts: Option<Cow<'a, str>>,
    #[serde(default)]
    acknowledged: Flag,
    #[serde(default)]
    ack_required: AckFlag,
    #[serde(borrow, default)]
    importance: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    body_md: Option<Cow<'a, str>>,
}

/// Trimmed, non-blank text (as the `Value` path reads strings).
fn text(s: &Option<Cow<'_, str>>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

impl Row<'_> {
    /// The row's `body_md`, when it has one (else the row is not for this path).
    pub(super) fn body_md(&self) -> Option<&str> {
        self.body_md.as_deref()
    }

    /// The envelope's members (the carried message is filled in by the caller).
    pub(super) fn envelope(&self, index: usize) -> Envelope {
        let created_ts = text(&self.created_ts)
            .or_else(|| text(&self.created))
            .or_else(|| text(&self.timestamp));
        let ack_ts = text(&self.ack_ts);
        let to = if self.to.present {
            &self.to.names
        } else {
            &self.recipients.names
        };
        Envelope {
            index,
            line: None,
            id: self.id.0,
            thread_id: text(&self.thread_id).or_else(|| text(&self.session_id)),
            from: text(&self.from)
                .or_else(|| text(&self.sender_name))
                .or_else(|| text(&self.sender))
                .or_else(|| text(&self.sender_id)),
            to: to.clone(),
            subject: text(&self.subject),
            at: created_ts
                .as_deref()
                .and_then(crate::time::Timestamp::parse),
            created_ts,
            importance: text(&self.importance),
            ack_required: self.ack_required.0,
            acknowledged: ack_ts.is_some() || self.acknowledged.0,
            ack_at: ack_ts.as_deref().and_then(crate::time::Timestamp::parse),
            carried: super::Carried::Plain,
        }
    }
}

/// Drains any JSON value.
fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Implements a visitor that accepts any JSON value, mapping the interesting kinds and
/// giving `$default` for the rest.
macro_rules! any_value_visitor {
    ($name:ident, $out:ty, $default:expr, { $($method:item)* }) => {
        struct $name;
        impl<'de> Visitor<'de> for $name {
            type Value = $out;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            $($method)*
            fn visit_unit<E: de::Error>(self) -> Result<$out, E> {
                Ok($default)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$out, A::Error> {
                skip_map(map).map(|()| $default)
            }
        }
    };
}

/// The transport id: an unsigned integer, anything else none.
#[derive(Default)]
struct MailId(Option<u64>);

any_value_visitor!(MailIdVisitor, MailId, MailId(None), {
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<MailId, E> {
        Ok(MailId(Some(v)))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<MailId, E> {
        Ok(MailId(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<MailId, E> {
        Ok(MailId(None))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<MailId, E> {
        Ok(MailId(None))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<MailId, E> {
        Ok(MailId(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<MailId, A::Error> {
        skip_seq(seq).map(|()| MailId(None))
    }
});

impl<'de> Deserialize<'de> for MailId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MailId, D::Error> {
        d.deserialize_any(MailIdVisitor)
    }
}

/// `true` only for JSON `true`.
#[derive(Default)]
struct Flag(bool);

any_value_visitor!(FlagVisitor, Flag, Flag(false), {
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Flag, E> {
        Ok(Flag(v))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Flag, E> {
        Ok(Flag(false))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Flag, E> {
        Ok(Flag(false))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Flag, E> {
        Ok(Flag(false))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Flag, E> {
        Ok(Flag(false))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Flag, A::Error> {
        skip_seq(seq).map(|()| Flag(false))
    }
});

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Flag, D::Error> {
        d.deserialize_any(FlagVisitor)
    }
}

/// `ack_required`: a boolean, or the unsigned integer 1 (Agent Mail's search replies).
#[derive(Default)]
struct AckFlag(bool);

any_value_visitor!(AckFlagVisitor, AckFlag, AckFlag(false), {
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<AckFlag, E> {
        Ok(AckFlag(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<AckFlag, E> {
        Ok(AckFlag(v == 1))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<AckFlag, E> {
        Ok(AckFlag(false))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<AckFlag, E> {
        Ok(AckFlag(false))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<AckFlag, E> {
        Ok(AckFlag(false))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<AckFlag, A::Error> {
        skip_seq(seq).map(|()| AckFlag(false))
    }
});

impl<'de> Deserialize<'de> for AckFlag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AckFlag, D::Error> {
        d.deserialize_any(AckFlagVisitor)
    }
}

/// `to` / `recipients`: a name, or a list whose non-blank strings are names. `present` tells
/// a member that is there (even `null`) from one that is absent.
#[derive(Default)]
struct Recipients {
    present: bool,
    names: Vec<String>,
}

/// One list item: a name, or nothing.
struct Name(Option<String>);

fn name(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

any_value_visitor!(NameVisitor, Name, Name(None), {
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
        Ok(Name(name(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Name, E> {
        Ok(Name(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Name, E> {
        Ok(Name(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Name, E> {
        Ok(Name(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Name, E> {
        Ok(Name(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Name, A::Error> {
        skip_seq(seq).map(|()| Name(None))
    }
});

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        d.deserialize_any(NameVisitor)
    }
}

const NOBODY: Recipients = Recipients {
    present: true,
    names: Vec::new(),
};

any_value_visitor!(RecipientsVisitor, Recipients, NOBODY, {
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Recipients, E> {
        Ok(Recipients {
            present: true,
            names: super::recipient_names(v),
        })
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Recipients, E> {
        Ok(NOBODY)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Recipients, E> {
        Ok(NOBODY)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Recipients, E> {
        Ok(NOBODY)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Recipients, E> {
        Ok(NOBODY)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Recipients, A::Error> {
        let mut names = Vec::new();
        while let Some(Name(n)) = seq.next_element::<Name>()? {
            names.extend(n);
        }
        Ok(Recipients {
            present: true,
            names,
        })
    }
});

impl<'de> Deserialize<'de> for Recipients {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Recipients, D::Error> {
        d.deserialize_any(RecipientsVisitor)
    }
}
