//! Rows read straight from bytes: each member the decoder keeps reduced to a [`Scalar`]
//! (strings borrowed from the input), every other member skipped, no `serde_json::Value`
//! built. The visitors accept every document `serde_json::from_str::<Value>` accepts (numbers
//! parsed in full, nesting counted alike) and a member written twice keeps its last value, as
//! in a `Value` map. The pane's reference parser and the Agent Mail row decoder both read
//! rows through here.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// A member's value, reduced to what the decoding rules tell apart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar<'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An unsigned integer.
    U64(u64),
    /// A string.
    Str(Cow<'a, str>),
    /// An array: its string items (the others left out). Boxed, so the enum stays the size of
    /// a string: a pane row keeps eight of these, and arrays are rare.
    List(Box<[Cow<'a, str>]>),
    /// Any other number, or an object.
    Other,
}

impl<'a> Scalar<'a> {
    /// The value of a parsed member.
    pub(crate) fn of(value: &'a Value) -> Scalar<'a> {
        match value {
            Value::Null => Scalar::Null,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => n.as_u64().map_or(Scalar::Other, Scalar::U64),
            Value::String(s) => Scalar::Str(Cow::Borrowed(s)),
            Value::Array(items) => Scalar::List(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(Cow::Borrowed)
                    .collect(),
            ),
            Value::Object(_) => Scalar::Other,
        }
    }

    /// The text, when the value is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Consumes any JSON value (arrays and objects element by element).
pub(crate) struct Skip;

pub(crate) struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_none<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Skip, D::Error> {
        Skip::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SkipVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar<'de>, E> {
        // `serde_json::Number::from(i64)` stores non-negative values as unsigned.
        Ok(u64::try_from(v).map_or(Scalar::Other, Scalar::U64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::U64(v))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Other)
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Str(Cow::Owned(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Str(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar<'de>, D::Error> {
        Scalar::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Scalar<'de>>()? {
            if let Scalar::Str(text) = item {
                items.push(text);
            }
        }
        Ok(Scalar::List(items.into_boxed_slice()))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scalar<'de>, A::Error> {
        SkipVisitor.visit_map(map).map(|_| Scalar::Other)
    }
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

/// An object key (escapes decoded, so `"\u0069d"` is `id` as in a `Value` map).
pub(crate) struct Key<'a>(pub(crate) Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Scalar::deserialize(d)? {
            Scalar::Str(text) => Ok(Key(text)),
            _ => Ok(Key(Cow::Borrowed(""))),
        }
    }
}

/// A raw row: named fields of an object; a non-object row has none.
pub(crate) trait RawRow<'de>: Default {
    /// Stores `value` under `key` if the row keeps that field (later keys win).
    fn set(&mut self, key: &str, value: Scalar<'de>);
    /// Whether the row keeps field `key`.
    fn wants(key: &str) -> bool;
}

struct RowVisitor<R>(std::marker::PhantomData<R>);

impl<'de, R: RawRow<'de>> Visitor<'de> for RowVisitor<R> {
    type Value = R;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_unit<E>(self) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_none<E>(self) -> Result<R, E> {
        Ok(R::default())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<R, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<R, A::Error> {
        SkipVisitor.visit_seq(seq).map(|_| R::default())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<R, A::Error> {
        let mut row = R::default();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if R::wants(&key) {
                let value = map.next_value::<Scalar<'de>>()?;
                row.set(&key, value);
            } else {
                map.next_value::<Skip>()?;
            }
        }
        Ok(row)
    }
}

/// Wrapper that deserializes one row through [`RowVisitor`].
pub(crate) struct Row<R>(pub(crate) R);

impl<'de, R: RawRow<'de>> Deserialize<'de> for Row<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RowVisitor(std::marker::PhantomData))
            .map(Row)
    }
}
