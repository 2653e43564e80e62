//! What the checks read of a JSON value, whoever parsed it: a [`serde_json::Value`] (the
//! public API takes one) or the tree the path from bytes reads for a message that is not clean
//! (`fast::tree`, borrowed strings, no hashing). The validator and detection are written once
//! against [`Json`], so both give the same report by construction.

use serde_json::{Map, Value};

/// A JSON number as validation sees it: its value, and whether it was written as an integer
/// (serde_json's `u64`/`i64` numbers; a float such as `5.0` is an integer only by value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Num {
    /// The value as `f64` (what `serde_json::Number::as_f64` gives).
    pub(crate) value: f64,
    /// Parsed as an integer (no fraction, no exponent, in `i64`/`u64` range).
    pub(crate) integer: bool,
}

impl Num {
    /// The integer value of the number (as JSON Schema's `integer`): any integer, or a float
    /// with no fraction.
    pub(crate) fn as_integer(self) -> Option<f64> {
        (self.integer || (self.value.is_finite() && self.value.fract() == 0.0))
            .then_some(self.value)
    }

    pub(crate) fn of(n: &serde_json::Number) -> Num {
        Num {
            // Without serde_json's arbitrary_precision every number has an f64 value.
            value: n.as_f64().unwrap_or(f64::NAN),
            integer: n.is_i64() || n.is_u64(),
        }
    }
}

/// A member value as detection reads it: a string, a boolean, or something else.
pub(crate) trait Probe {
    /// The string, if it is one.
    fn as_str(&self) -> Option<&str>;
    /// The boolean, if it is one.
    fn as_bool(&self) -> Option<bool>;
    /// The JSON kind, for messages.
    fn kind(&self) -> &'static str;
}

impl Probe for Value {
    fn as_str(&self) -> Option<&str> {
        Value::as_str(self)
    }

    fn as_bool(&self) -> Option<bool> {
        Value::as_bool(self)
    }

    fn kind(&self) -> &'static str {
        Json::kind(self)
    }
}

/// One JSON value as a rule sees it.
pub(crate) enum Node<'v, J: Json<'v>> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Num(Num),
    /// A string.
    Str(&'v str),
    /// An array.
    Array(J::Array),
    /// An object.
    Object(J::Object),
}

/// A JSON value, cheap to copy (a reference into a parsed document).
pub(crate) trait Json<'v>: Copy + 'v {
    /// An array's items.
    type Array: ExactSizeIterator<Item = Self>;
    /// An object's members.
    type Object: Object<'v, Value = Self>;

    /// What the value is.
    fn node(self) -> Node<'v, Self>;

    /// The value as detection reads it.
    fn probe(self) -> &'v dyn Probe;

    /// The JSON kind, for messages.
    fn kind(self) -> &'static str {
        match self.node() {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Num(_) => "number",
            Node::Str(_) => "string",
            Node::Array(_) => "array",
            Node::Object(_) => "object",
        }
    }
}

/// An object's members, in the order a parsed `Value` keeps them: a member written twice counts
/// once, with its last value, at the first one's place.
pub(crate) trait Object<'v>: Copy {
    /// A member's value.
    type Value: Json<'v>;
    /// The members, in order.
    type Members: Iterator<Item = (&'v str, Self::Value)>;

    /// The members, in order.
    fn members(self) -> Self::Members;
    /// The member named `key`.
    fn get(self, key: &str) -> Option<Self::Value>;
    /// How many members there are.
    fn len(self) -> usize;
}

impl<'v> Json<'v> for &'v Value {
    type Array = std::slice::Iter<'v, Value>;
    type Object = &'v Map<String, Value>;

    #[inline]
    fn node(self) -> Node<'v, Self> {
        match self {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Num(Num::of(n)),
            Value::String(s) => Node::Str(s),
            Value::Array(items) => Node::Array(items.iter()),
            Value::Object(obj) => Node::Object(obj),
        }
    }

    fn probe(self) -> &'v dyn Probe {
        self
    }
}

/// A member of a `Value` object as the checks read it.
type Member<'v> = (&'v str, &'v Value);

impl<'v> Object<'v> for &'v Map<String, Value> {
    type Value = &'v Value;
    type Members =
        std::iter::Map<serde_json::map::Iter<'v>, fn((&'v String, &'v Value)) -> Member<'v>>;

    #[inline]
    fn members(self) -> Self::Members {
        self.iter().map(|(k, v)| (k.as_str(), v))
    }

    #[inline]
    fn get(self, key: &str) -> Option<&'v Value> {
        Map::get(self, key)
    }

    #[inline]
    fn len(self) -> usize {
        Map::len(self)
    }
}
