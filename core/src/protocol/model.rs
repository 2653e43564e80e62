//! The typed model of a valid message: a tree whose every declared member is typed by its
//! registry rule (text, number, boolean, list, record), undeclared members kept verbatim.
//! Serializing a [`Message`] reproduces the validated message's JSON value.

use super::registry::{FamilyId, MessageTypeSpec, ObjectSpec, Ty};
use super::{report, run, Options, Report};
use serde::{Serialize, Serializer};
use serde_json::{Map, Number, Value};

/// One node of the typed tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A string member (free text, enum value, id, timestamp, version).
    Text(String),
    /// A number member (integer or not), kept exactly.
    Number(Number),
    /// A boolean member.
    Bool(bool),
    /// An array member, items typed by the item rule.
    List(Vec<Node>),
    /// An object with declared members, in input order.
    Record(Vec<Member>),
    /// A value the registry leaves open (free objects, undeclared members).
    Opaque(Value),
}

/// One member of a [`Node::Record`].
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Member name.
    pub name: String,
    /// Whether the registry declares it.
    pub declared: bool,
    /// Its value.
    pub value: Node,
}

impl Node {
    /// A member of a record by name.
    pub fn get(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Record(members) => members.iter().find(|m| m.name == name).map(|m| &m.value),
            _ => None,
        }
    }

    /// The string value of a text node.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Node::Text(s) => Some(s),
            _ => None,
        }
    }

    /// Converts back to JSON.
    pub fn to_value(&self) -> Value {
        match self {
            Node::Text(s) => Value::String(s.clone()),
            Node::Number(n) => Value::Number(n.clone()),
            Node::Bool(b) => Value::Bool(*b),
            Node::List(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Record(members) => Value::Object(
                members
                    .iter()
                    .map(|m| (m.name.clone(), m.value.to_value()))
                    .collect::<Map<String, Value>>(),
            ),
            Node::Opaque(v) => v.clone(),
        }
    }

    fn build(ty: &Ty, v: &Value) -> Node {
        match (ty, v) {
            (Ty::Str(_), Value::String(s)) => Node::Text(s.clone()),
            (Ty::Int { .. } | Ty::Num { .. }, Value::Number(n)) => Node::Number(n.clone()),
            (Ty::Bool | Ty::BoolConst(_), Value::Bool(b)) => Node::Bool(*b),
            (Ty::Array { items, .. }, Value::Array(list)) => {
                Node::List(list.iter().map(|x| Node::build(items, x)).collect())
            }
            (Ty::Object(spec), Value::Object(obj)) => Node::record(spec, obj),
            _ => Node::Opaque(v.clone()),
        }
    }

    fn record(spec: &ObjectSpec, obj: &Map<String, Value>) -> Node {
        Node::Record(
            obj.iter()
                .map(|(k, v)| match spec.fields.iter().find(|f| f.name == k) {
                    Some(f) => Member {
                        name: k.clone(),
                        declared: true,
                        value: Node::build(&f.ty, v),
                    },
                    None => Member {
                        name: k.clone(),
                        declared: false,
                        value: Node::Opaque(v.clone()),
                    },
                })
                .collect(),
        )
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

/// A valid message, typed by its registry entry.
#[derive(Debug, Clone)]
pub struct Message {
    /// Its family.
    pub family: FamilyId,
    /// Its registry type.
    pub spec: &'static MessageTypeSpec,
    /// The declared or modeled version.
    pub version: String,
    /// The typed message (for an Agent Mail row: the carried message).
    pub root: Node,
}

impl Message {
    /// Validates `value` and builds its typed model. An invalid message gives its [`Report`];
    /// so does a seed template in lenient mode, valid but with no type to model (its report
    /// has no `message_type`).
    pub fn parse(value: &Value, options: &Options) -> Result<Message, Box<Report>> {
        let out = run(value, options, true);
        let carried = out.carried.clone();
        let rep = report(out);
        let (Some(family), Some(name), Some(version), true) =
            (rep.family, rep.message_type, rep.version.clone(), rep.valid)
        else {
            return Err(Box::new(rep));
        };
        let Some(spec) = family.spec().message_type(name) else {
            return Err(Box::new(rep));
        };
        let source = carried.as_ref().unwrap_or(value);
        let root = match source.as_object() {
            Some(obj) => Node::record(&spec.root, obj),
            None => return Err(Box::new(rep)),
        };
        Ok(Message {
            family,
            spec,
            version: version.into_owned(),
            root,
        })
    }

    /// The model of a message already validated as `spec` (the builders').
    pub(crate) fn of(
        family: FamilyId,
        spec: &'static MessageTypeSpec,
        version: &str,
        value: &Value,
    ) -> Message {
        let root = match value.as_object() {
            Some(obj) => Node::record(&spec.root, obj),
            None => Node::Opaque(value.clone()),
        };
        Message {
            family,
            spec,
            version: version.to_owned(),
            root,
        }
    }

    /// The message as JSON.
    pub fn to_value(&self) -> Value {
        self.root.to_value()
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.root.serialize(s)
    }
}
