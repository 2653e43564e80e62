//! The registry's vocabulary: the types every family's data is written in (families, message
//! types, members, value rules, patterns, deviations). The data itself is in [`super::families`]
//! and [`super::formats`]; both use only this module, so the arrows run one way.

use crate::protocol::issue::IssueCode;
use std::borrow::Cow;

/// The known protocol families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FamilyId {
    /// Pair Protocol 3.1 (`{to, subject, body}` over MCP mail).
    Pair,
    /// Agent-PO Message Protocol 20.0 (flat, `message_type`).
    AgentPo,
    /// MCP Agent Mail droid message formats 1.0.0 (flat, `type`, semver `version`).
    Droid,
    /// Pair Claude MCP tool calls and orchestrator records.
    PairClaude,
}

impl FamilyId {
    /// Every family, in registry order.
    pub const ALL: &'static [FamilyId] = &[
        FamilyId::Pair,
        FamilyId::AgentPo,
        FamilyId::Droid,
        FamilyId::PairClaude,
    ];

    /// The stable family name used in reports and schema keys.
    pub const fn as_str(self) -> &'static str {
        match self {
            FamilyId::Pair => "pair",
            FamilyId::AgentPo => "agent-po",
            FamilyId::Droid => "droid",
            FamilyId::PairClaude => "pair-claude",
        }
    }

    /// Parses a family name (as printed by [`FamilyId::as_str`]).
    pub fn parse(name: &str) -> Option<FamilyId> {
        FamilyId::ALL.iter().copied().find(|f| f.as_str() == name)
    }
}

/// One protocol family.
#[derive(Debug)]
pub struct FamilySpec {
    /// Which family.
    pub id: FamilyId,
    /// Human title.
    pub title: &'static str,
    /// The protocol version this registry models.
    pub version: &'static str,
    /// Member names that claim a message for this family even when no type matches.
    pub markers: &'static [&'static str],
    /// Member whose value names the message type (reported on `unknown_message_type`).
    pub type_keys: &'static [&'static str],
    /// Every member name the family's detection reads (markers, discriminators, shapes); a
    /// message with none of them is not claimed, without trying each type.
    pub detection_keys: &'static [&'static str],
    /// The message types.
    pub types: &'static [MessageTypeSpec],
    /// The family's own error-code table (documentation and schema export).
    pub error_codes: &'static [ErrorCodeSpec],
}

impl FamilySpec {
    /// The version a report names for a message of this family that declares `declared`:
    /// the declared one, else the one modeled.
    pub fn version_of(&self, declared: Option<Cow<'static, str>>) -> Cow<'static, str> {
        declared.unwrap_or(Cow::Borrowed(self.version))
    }

    /// Looks a message type up by its registry name.
    pub fn message_type(&self, name: &str) -> Option<&'static MessageTypeSpec> {
        self.types.iter().find(|t| t.name == name)
    }
}

/// One entry of a family's error-code table.
#[derive(Debug)]
pub struct ErrorCodeSpec {
    /// The code.
    pub code: &'static str,
    /// What it means.
    pub description: &'static str,
    /// What to do.
    pub recovery: &'static str,
}

/// One message type (or one shape of a wire type, named `WIRE@shape`).
#[derive(Debug)]
pub struct MessageTypeSpec {
    /// Registry name, unique within the family.
    pub name: &'static str,
    /// One-line description.
    pub doc: &'static str,
    /// How the type is recognised.
    pub discriminator: Discriminator,
    /// The message's top-level object.
    pub root: ObjectSpec,
    /// Cross-field rules.
    pub checks: &'static [CrossCheck],
}

impl MessageTypeSpec {
    /// Whether an Agent Mail subject names this type, its body in `body_md` (the Pair types,
    /// whose message is `{subject, body}`); a type recognised by its members is not
    /// (AUDIT_REPORT: mailed under that subject, `body_md` is the report itself).
    #[must_use]
    pub fn named_by_subject(&self) -> bool {
        matches!(
            self.discriminator,
            Discriminator::Str { key: "subject", .. }
        )
    }
}

/// How a message type is recognised in a JSON object.
#[derive(Debug)]
pub enum Discriminator {
    /// Member `key` holds the string `value`; when `shape` is non-empty the message must also
    /// have one of those members (for wire types with several shapes).
    Str {
        /// Member name.
        key: &'static str,
        /// Expected value.
        value: &'static str,
        /// Shape members, one of which must be present.
        shape: &'static [&'static str],
    },
    /// Member `key` holds one of the strings `values`.
    OneOf {
        /// Member name.
        key: &'static str,
        /// Accepted values.
        values: &'static [&'static str],
    },
    /// Member `key` holds the boolean `value`.
    Bool {
        /// Member name.
        key: &'static str,
        /// Expected value.
        value: bool,
    },
    /// Member `name` is the tool name, optionally behind one of `prefixes`; `arguments` present.
    Tool {
        /// The bare tool name.
        tool: &'static str,
        /// Accepted server prefixes.
        prefixes: &'static [&'static str],
    },
    /// Member `key` is present.
    Has {
        /// Member name.
        key: &'static str,
    },
}

impl Discriminator {
    /// The member that carries the discriminator.
    pub const fn key(&self) -> &'static str {
        match self {
            Discriminator::Str { key, .. }
            | Discriminator::OneOf { key, .. }
            | Discriminator::Bool { key, .. }
            | Discriminator::Has { key } => key,
            Discriminator::Tool { .. } => "name",
        }
    }
}

/// An object: its declared members. Undeclared members are allowed (forward compatibility).
#[derive(Debug)]
pub struct ObjectSpec {
    /// Declared members.
    pub fields: &'static [FieldSpec],
    /// Bit `i`: field `i` is not optional (fields past the 64th, `u64::BITS`, are not
    /// counted).
    required: u64,
}

impl ObjectSpec {
    /// An object with these declared members.
    #[must_use]
    pub const fn new(fields: &'static [FieldSpec]) -> ObjectSpec {
        let mut required = 0;
        let mut i = 0;
        while i < fields.len() && i < u64::BITS as usize {
            if !matches!(fields[i].presence, Presence::Optional) {
                required |= 1 << i;
            }
            i += 1;
        }
        ObjectSpec { fields, required }
    }

    /// The fields that are not optional, as bits by position (the first 64 fields).
    #[must_use]
    pub const fn required(&self) -> u64 {
        self.required
    }
}

/// One declared member.
#[derive(Debug)]
pub struct FieldSpec {
    /// Member name.
    pub name: &'static str,
    /// Required or not.
    pub presence: Presence,
    /// Value rule.
    pub ty: Ty,
}

/// Whether a member must be present.
#[derive(Debug)]
pub enum Presence {
    /// Always required.
    Required,
    /// May be absent.
    Optional,
    /// Required in strict mode; lenient mode reports its absence as a warning.
    RequiredStrict(&'static Deviation),
}

/// A value rule.
#[derive(Debug)]
pub enum Ty {
    /// A string with a rule.
    Str(Str),
    /// An integer (JSON number with no fraction) within an optional range.
    Int {
        /// Inclusive minimum.
        min: Option<i64>,
        /// Inclusive maximum.
        max: Option<i64>,
    },
    /// Any number within an optional range.
    Num {
        /// Inclusive minimum.
        min: Option<f64>,
        /// Inclusive maximum.
        max: Option<f64>,
    },
    /// A boolean.
    Bool,
    /// A boolean that must have this value.
    BoolConst(bool),
    /// An array whose items all follow `items`.
    Array {
        /// Item rule.
        items: &'static Ty,
        /// Minimum number of items.
        min_items: usize,
    },
    /// An object with declared members.
    Object(ObjectSpec),
    /// Any object.
    AnyObject,
    /// Any JSON value.
    Any,
}

/// A string rule.
#[derive(Debug)]
pub enum Str {
    /// Free text; `non_empty` forbids `""`.
    Text {
        /// Whether `""` is rejected.
        non_empty: bool,
    },
    /// One of `values`; `lenient` lists extra values lenient mode accepts.
    Enum {
        /// Allowed values.
        values: &'static [&'static str],
        /// Extra values accepted with a warning in lenient mode.
        lenient: &'static [(&'static str, &'static Deviation)],
    },
    /// Exactly this value.
    Const(&'static str),
    /// An RFC 3339 date-time; `lenient` also accepts a documented placeholder.
    DateTime {
        /// Deviation accepted in lenient mode (the literal `"ISO8601"` placeholder).
        lenient: Option<&'static Deviation>,
    },
    /// A documented pattern.
    Pattern(&'static Pattern),
    /// A version string whose major part must equal `major`.
    Version {
        /// Required major version.
        major: &'static str,
        /// `MAJOR.MINOR` (2 parts) or `MAJOR.MINOR.PATCH` (3 parts).
        parts: usize,
    },
}

/// A string pattern: its regular expression (for JSON Schema) and the equivalent matcher.
#[derive(Debug)]
pub struct Pattern {
    /// Short name.
    pub name: &'static str,
    /// ECMA-262 regular expression (exported to JSON Schema).
    pub regex: &'static str,
    /// Issue code on mismatch (`bad_id` or `bad_pattern`).
    pub code: IssueCode,
    /// The matcher, equivalent to `regex`.
    pub check: fn(&str) -> bool,
    /// A matching example.
    pub example: &'static str,
    /// A wider form lenient mode accepts with a warning.
    pub lenient: Option<LenientForm>,
}

/// A deviation and the matcher of the wider form it allows.
pub type LenientForm = (&'static Deviation, fn(&str) -> bool);

/// A documented deviation of the seeds' own examples, accepted by lenient mode as a warning.
#[derive(Debug)]
pub struct Deviation {
    /// Stable id.
    pub id: &'static str,
    /// What the seed does.
    pub description: &'static str,
}

/// A rule across two top-level members.
#[derive(Debug)]
pub enum CrossCheck {
    /// When both are present, string member `text` and integer member `number` must form one of `pairs`.
    Pairs {
        /// String member.
        text: &'static str,
        /// Integer member.
        number: &'static str,
        /// Allowed combinations.
        pairs: &'static [(&'static str, i64)],
    },
    /// Two enum members (at `object` — top-level member or root when empty) must differ.
    Differ {
        /// Containing top-level object member ("" for the root).
        object: &'static str,
        /// First member.
        a: &'static str,
        /// Second member.
        b: &'static str,
        /// The shared enum values.
        values: &'static [&'static str],
    },
}
