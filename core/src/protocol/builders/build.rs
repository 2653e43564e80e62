//! The generic builder: any message type of the registry from its own fields, with what the
//! protocol derives filled in, then validated.
//!
//! `build("droid/task_assignment", fields, options)` takes the type's own members (`task_id`,
//! `description`, …) and fills, from the registry and the caller's [`BuildOptions`]:
//! - every constant the registry fixes and the type's discriminator (droid `type`, Agent-PO
//!   `message_type`, a Pair `subject`, `status`, `phase` and `contract_immutable`, a Pair Claude
//!   tool `name`);
//! - droid: `version` (the family's, `1.0.0`), `timestamp` (`now`, UTC), `message_id`
//!   (`msg-<uuid v4>` from the caller's 16 random bytes), `sender_id` (`sender`);
//! - Agent-PO: `timestamp` (`now`), `agent_id`, `task_id` (where given);
//! - Pair: the fields are the `body`; `to` is the recipient, `subject` the type. A type with no
//!   `body` (AUDIT_REPORT, the planner's `audit_report.json`) is built bare from its fields.
//!
//! The core reads no clock and no randomness: `now` and the random bytes come from the caller
//! (the CLI reads them at its edge, the npm package passes `Date.now()` and
//! `crypto.getRandomValues`). A member given both in the fields and by an option is refused
//! ([`BuildError::Conflict`]); the result is validated strictly as the key's type, and a
//! message that fails is refused with the report ([`BuildError::Invalid`]).

use crate::protocol::model::Message;
use crate::protocol::registry::{
    Discriminator, FamilyId, FamilySpec, MessageTypeSpec, ObjectSpec, Presence, Str, Ty, REGISTRY,
};
use crate::protocol::{validate_as, Report};
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// What the caller supplies for the members the protocol derives.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildOptions {
    /// The time now: a droid or Agent-PO `timestamp`, written in UTC.
    #[serde(default)]
    pub now: Option<Timestamp>,
    /// 16 random bytes for a droid `message_id` (`msg-<uuid v4>`; the version and variant bits
    /// are set here).
    #[serde(default)]
    pub random: Option<[u8; 16]>,
    /// The sending agent: a droid `sender_id`.
    #[serde(default)]
    pub sender: Option<String>,
    /// The recipient: a Pair message's `to`.
    #[serde(default)]
    pub to: Option<String>,
    /// The task agent: an Agent-PO `agent_id` (in both directions).
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The task: an Agent-PO `task_id`.
    #[serde(default)]
    pub task_id: Option<String>,
}

/// Which option derives a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// [`BuildOptions::now`].
    Now,
    /// [`BuildOptions::random`].
    Random,
    /// [`BuildOptions::sender`].
    Sender,
    /// [`BuildOptions::to`].
    To,
    /// [`BuildOptions::agent_id`].
    AgentId,
    /// [`BuildOptions::task_id`].
    TaskId,
}

impl Source {
    /// The option's name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Source::Now => "now",
            Source::Random => "random",
            Source::Sender => "sender",
            Source::To => "to",
            Source::AgentId => "agent_id",
            Source::TaskId => "task_id",
        }
    }
}

/// The members each family derives from an option (when the type declares them).
const DERIVED: &[(FamilyId, &str, Source)] = &[
    (FamilyId::Droid, "timestamp", Source::Now),
    (FamilyId::Droid, "message_id", Source::Random),
    (FamilyId::Droid, "sender_id", Source::Sender),
    (FamilyId::AgentPo, "timestamp", Source::Now),
    (FamilyId::AgentPo, "agent_id", Source::AgentId),
    (FamilyId::AgentPo, "task_id", Source::TaskId),
    (FamilyId::Pair, "to", Source::To),
];

/// Why a message could not be built.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum BuildError {
    /// The key names no message type (`family/TYPE`, as `switchboard schema` lists them).
    UnknownKey {
        /// The key given.
        key: String,
        /// Every known key.
        known: Vec<String>,
    },
    /// The fields are not a JSON object.
    NotAnObject {
        /// What they are.
        found: &'static str,
    },
    /// A member is both in the fields and derived from an option.
    Conflict {
        /// The member.
        member: &'static str,
        /// The option that derives it.
        option: Source,
    },
    /// A required member is derived from an option that was not given (and the fields do not
    /// hold it either).
    MissingOption {
        /// The member.
        member: &'static str,
        /// The option to give.
        option: Source,
    },
    /// The message built is not valid: the report, every issue with its path.
    Invalid {
        /// The strict report of the message built.
        report: Box<Report>,
        /// The message built.
        message: Value,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKey { key, .. } => write!(
                f,
                "{key:?} names no message type (a family/TYPE key, e.g. droid/task_assignment; \
                 `switchboard schema` lists them)"
            ),
            Self::NotAnObject { found } => {
                write!(f, "the fields must be a JSON object, found {found}")
            }
            Self::Conflict { member, option } => write!(
                f,
                "`{member}` is derived from the `{}` option; give it one way, not both",
                option.as_str()
            ),
            Self::MissingOption { member, option } => write!(
                f,
                "`{member}` is required: give the `{}` option (or the member in the fields)",
                option.as_str()
            ),
            Self::Invalid { report, .. } => {
                let issues: Vec<String> = report
                    .errors()
                    .map(|i| format!("{}: {}", i.path.to_pointer(), i.message))
                    .collect();
                write!(f, "the message is not valid: {}", issues.join("; "))
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// The registry entry of a `family/TYPE` key.
///
/// # Errors
/// [`BuildError::UnknownKey`], listing the known keys.
pub fn lookup(key: &str) -> Result<(&'static FamilySpec, &'static MessageTypeSpec), BuildError> {
    key.split_once('/')
        .and_then(|(family, name)| {
            let family = FamilyId::parse(family)?.spec();
            Some((family, family.message_type(name)?))
        })
        .ok_or_else(|| BuildError::UnknownKey {
            key: key.to_owned(),
            known: keys(),
        })
}

/// Every `family/TYPE` key, in registry order.
#[must_use]
pub fn keys() -> Vec<String> {
    REGISTRY
        .iter()
        .flat_map(|f| {
            f.types
                .iter()
                .map(|t| format!("{}/{}", f.id.as_str(), t.name))
        })
        .collect()
}

/// A UUID v4 from 16 random bytes (RFC 9562: version 4, variant 10).
#[must_use]
pub fn uuid_v4(random: [u8; 16]) -> String {
    let mut b = random;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The value an option gives a member, if the option was given.
fn derived(source: Source, options: &BuildOptions) -> Option<Value> {
    match source {
        Source::Now => options.now.map(|t| Value::String(t.to_rfc3339())),
        Source::Random => options
            .random
            .map(|r| Value::String(format!("msg-{}", uuid_v4(r)))),
        Source::Sender => options.sender.clone().map(Value::String),
        Source::To => options.to.clone().map(Value::String),
        Source::AgentId => options.agent_id.clone().map(Value::String),
        Source::TaskId => options.task_id.clone().map(Value::String),
    }
}

/// Fills the constants of `spec` the object lacks, into the objects it holds too.
fn fill_constants(object: &mut Map<String, Value>, spec: &ObjectSpec) {
    for field in spec.fields {
        match (&field.ty, object.get_mut(field.name)) {
            (Ty::Str(Str::Const(value)), None) => {
                object.insert(field.name.to_owned(), Value::String((*value).to_owned()));
            }
            (Ty::BoolConst(value), None) => {
                object.insert(field.name.to_owned(), Value::Bool(*value));
            }
            (Ty::Object(inner), Some(Value::Object(held))) => fill_constants(held, inner),
            _ => {}
        }
    }
}

/// Fills the discriminator the type is recognised by, when the message lacks it.
fn fill_discriminator(object: &mut Map<String, Value>, spec: &MessageTypeSpec) {
    let (key, value) = match spec.discriminator {
        Discriminator::Str { key, value, .. } => (key, Value::String(value.to_owned())),
        Discriminator::Bool { key, value } => (key, Value::Bool(value)),
        Discriminator::Tool { tool, .. } => ("name", Value::String(tool.to_owned())),
        Discriminator::OneOf { .. } | Discriminator::Has { .. } => return,
    };
    object.entry(key).or_insert(value);
}

/// The members in the order the registry declares them (as the seeds write them: a droid
/// message's common fields first), undeclared ones after, as given.
fn in_declared_order(mut object: Map<String, Value>, spec: &ObjectSpec) -> Map<String, Value> {
    let mut ordered = Map::with_capacity(object.len());
    for field in spec.fields {
        if let Some(value) = object.remove(field.name) {
            ordered.insert(field.name.to_owned(), value);
        }
    }
    ordered.extend(object);
    ordered
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Builds the message type named `key` (`family/TYPE`) from its own `fields`, with what the
/// protocol derives filled in (see the module docs), validated strictly.
///
/// # Errors
/// [`BuildError`]: an unknown key, fields that are no object, a member given twice or
/// missing its option, or a message that is not valid (with the report).
pub fn build(key: &str, fields: &Value, options: &BuildOptions) -> Result<Message, BuildError> {
    let (family, spec) = lookup(key)?;
    let Value::Object(fields) = fields else {
        return Err(BuildError::NotAnObject {
            found: kind(fields),
        });
    };
    let mut message =
        if family.id == FamilyId::Pair && spec.root.fields.iter().any(|f| f.name == "body") {
            let mut root = Map::new();
            root.insert("body".to_owned(), Value::Object(fields.clone()));
            root
        } else {
            fields.clone()
        };
    for field in spec.root.fields {
        let source = DERIVED
            .iter()
            .find(|(f, member, _)| *f == family.id && *member == field.name)
            .map(|(_, _, source)| *source);
        let Some(source) = source else { continue };
        match (derived(source, options), message.contains_key(field.name)) {
            (Some(_), true) => {
                return Err(BuildError::Conflict {
                    member: field.name,
                    option: source,
                })
            }
            (Some(value), false) => {
                message.insert(field.name.to_owned(), value);
            }
            (None, false) if !matches!(field.presence, Presence::Optional) => {
                return Err(BuildError::MissingOption {
                    member: field.name,
                    option: source,
                })
            }
            (None, _) => {}
        }
    }
    if family.id == FamilyId::Droid {
        message
            .entry("version")
            .or_insert_with(|| Value::String(family.version.to_owned()));
    }
    fill_discriminator(&mut message, spec);
    fill_constants(&mut message, &spec.root);
    let value = Value::Object(in_declared_order(message, &spec.root));
    let report = validate_as(&value, family, spec, false);
    if !report.valid {
        return Err(BuildError::Invalid {
            report: Box::new(report),
            message: value,
        });
    }
    Ok(Message::of(family.id, spec, family.version, &value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn uuids_are_version_4() {
        assert_eq!(uuid_v4([0; 16]), "00000000-0000-4000-8000-000000000000");
        assert_eq!(uuid_v4([0xff; 16]), "ffffffff-ffff-4fff-bfff-ffffffffffff");
    }

    #[test]
    fn a_droid_message_from_its_own_fields() {
        let options = BuildOptions {
            now: Timestamp::parse("2025-12-25T12:00:00Z"),
            random: Some([7; 16]),
            sender: Some("orchestrator".into()),
            ..BuildOptions::default()
        };
        let fields = json!({"task_id": "bd-42", "severity": "blocking",
            "error": {"code": "API_ERROR", "message": "down"}, "reproduction_steps": ["run"],
            "needs_human_intervention": true});
        let m = build("droid/error_report", &fields, &options)
            .unwrap()
            .to_value();
        assert_eq!(m["type"], "error_report");
        assert_eq!(m["version"], "1.0.0");
        assert_eq!(m["timestamp"], "2025-12-25T12:00:00Z");
        assert_eq!(m["message_id"], "msg-07070707-0707-4707-8707-070707070707");
        assert_eq!(m["sender_id"], "orchestrator");
        let missing = build("droid/error_report", &fields, &BuildOptions::default());
        assert!(matches!(
            missing,
            Err(BuildError::MissingOption {
                member: "timestamp",
                option: Source::Now
            })
        ));
    }
}
