//! JSON Schema (draft 2020-12) export, generated from the registry.
//!
//! Schemas express strict mode, and say exactly what validation says: every pattern matches
//! what the core's matcher accepts (timestamps included: [`DATE_TIME`] is RFC 3339 as the core
//! reads it, with no leap second and the days of each month), and every schema compiles under
//! ajv 2020 with `strict: true` and no format plug-in. What JSON Schema cannot express, hence
//! not exported:
//! - lenient-mode deviations (the schemas are strict);
//! - the diagnostics of family/type detection (the union schemas [`any_message`] and
//!   [`family_message`] reject such messages, including the `ambiguous_family` rule, without
//!   saying why);
//! - messages carried as JSON text inside an Agent Mail `body_md` (JSON Schema cannot parse a
//!   string);
//! - what exists only in the JSON text, before a parser turns it into values: a duplicate member
//!   name (the core reports `duplicate_key`; a parser keeps one of the values), and an integer
//!   written with a fraction or exponent (`1.0`, `1e2`: the core says `wrong_type`, a parsed `1`
//!   is an integer to JSON Schema).

use crate::protocol::registry::{
    CrossCheck, Discriminator, FamilyId, FamilySpec, MessageTypeSpec, ObjectSpec, Presence, Str,
    Ty, REGISTRY,
};
use serde_json::{json, Map, Value};

/// The draft 2020-12 meta-schema URI.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// An RFC 3339 date-time exactly as the core accepts it
/// ([`is_rfc3339`](crate::protocol::registry::formats::is_rfc3339)): a real calendar date
/// (leap years included), `T` or `t`, hours to 23, minutes and seconds to 59 (no leap second),
/// an optional fraction, and `Z`, `z` or a `±HH:MM` offset. Exported as this pattern rather than
/// `format: date-time`, whose implementations differ (ajv-formats accepts a space for `T`, and
/// leap seconds).
pub const DATE_TIME: &str = concat!(
    "^(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])",
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))",
    "|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)",
    "[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?",
    "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$",
);

/// The `family/TYPE` key of a message type.
pub fn key(family: FamilyId, spec: &MessageTypeSpec) -> String {
    format!("{}/{}", family.as_str(), spec.name)
}

/// The standalone schema of one message type.
pub fn message_schema(family: FamilyId, spec: &MessageTypeSpec) -> Value {
    let mut s = body(family, spec);
    if let Value::Object(m) = &mut s {
        m.insert("$schema".into(), DIALECT.into());
    }
    s
}

/// Every message type's standalone schema, keyed by `family/TYPE`, in registry order.
pub fn all() -> Value {
    let mut out = Map::new();
    for fam in REGISTRY {
        for t in fam.types {
            out.insert(key(fam.id, t), message_schema(fam.id, t));
        }
    }
    Value::Object(out)
}

/// The union schema for automatic detection: a message is accepted when it is valid as exactly
/// one registry type and no other family claims it (detection's `ambiguous_family` rule).
pub fn any_message() -> Value {
    union(REGISTRY.iter().map(|f| f.id), true)
}

/// The union schema for an explicit family hint: valid as exactly one type of `family`.
pub fn family_message(family: FamilyId) -> Value {
    union(std::iter::once(family), false)
}

fn union(families: impl Iterator<Item = FamilyId>, exclusive: bool) -> Value {
    let mut defs = Map::new();
    let mut refs = Vec::new();
    for fam in families {
        let others: Vec<Value> = REGISTRY
            .iter()
            .filter(|o| o.id != fam)
            .flat_map(|o| claims(o))
            .collect();
        for t in fam.spec().types {
            let k = key(fam, t);
            let pointer = k.replace('~', "~0").replace('/', "~1");
            refs.push(json!({ "$ref": format!("#/$defs/{pointer}") }));
            let mut b = body(fam, t);
            if exclusive {
                b["not"] = json!({ "anyOf": others });
            }
            defs.insert(k, b);
        }
    }
    json!({
        "$schema": DIALECT,
        "title": "any Switchboard protocol message",
        "oneOf": refs,
        "$defs": defs,
    })
}

/// The union as a dispatch on each type's discriminator: an `if`/`then`/`else` chain that
/// tries the types in registry order (`subject`, `message_type`, `type`, `name`, … with the
/// shape members of multi-shape types) and validates the first whose discriminator matches; no
/// match is invalid. This is how a JSON Schema validator finds the type and then validates it,
/// without `oneOf` validating the message against every type. It does not encode
/// `ambiguous_family` (the first match wins), so it accepts a little more than
/// [`any_message`]; the benchmarks use it as the competitor that, like `validate`, has to find
/// the type.
pub fn dispatch_message() -> Value {
    let mut defs = Map::new();
    let mut chain = json!(false);
    let types: Vec<(FamilyId, &MessageTypeSpec)> = REGISTRY
        .iter()
        .flat_map(|f| f.types.iter().map(|t| (f.id, t)))
        .collect();
    for (fam, t) in types.into_iter().rev() {
        let k = key(fam, t);
        let pointer = k.replace('~', "~0").replace('/', "~1");
        chain = json!({
            "if": discriminator(&t.discriminator, true),
            "then": { "$ref": format!("#/$defs/{pointer}") },
            "else": chain,
        });
        defs.insert(k, body(fam, t));
    }
    let Value::Object(mut root) = chain else {
        unreachable!("the registry has types")
    };
    root.insert("$schema".into(), DIALECT.into());
    root.insert(
        "title".into(),
        "any Switchboard protocol message, dispatched on its type".into(),
    );
    root.insert("$defs".into(), defs.into());
    Value::Object(root)
}

/// Schemas matching the objects a family claims during detection (markers and discriminators).
fn claims(fam: &FamilySpec) -> Vec<Value> {
    let markers = fam.markers.iter().map(|m| has(m));
    let discs = fam
        .types
        .iter()
        .map(|t| discriminator(&t.discriminator, false));
    markers.chain(discs).collect()
}

/// A schema matching the objects that have member `name`.
fn has(name: &str) -> Value {
    json!({ "type": "object", "required": [name], "properties": { name: true } })
}

/// A schema matching the objects a discriminator fits; with `shape`, a type's shape members
/// (one of which must be present) too.
fn discriminator(d: &Discriminator, shape: bool) -> Value {
    match d {
        Discriminator::Str {
            key,
            value,
            shape: members,
        } => {
            let mut s = json!({ "type": "object", "required": [key], "properties": { *key: { "const": value } } });
            if shape && !members.is_empty() {
                let any: Vec<Value> = members.iter().map(|m| has(m)).collect();
                s["anyOf"] = any.into();
            }
            s
        }
        Discriminator::OneOf { key, values } => {
            json!({ "type": "object", "required": [key], "properties": { *key: { "enum": values } } })
        }
        Discriminator::Bool { key, value } => {
            json!({ "type": "object", "required": [key], "properties": { *key: { "const": value } } })
        }
        Discriminator::Tool { tool, prefixes } => {
            let mut names = vec![(*tool).to_owned()];
            names.extend(prefixes.iter().map(|p| format!("{p}{tool}")));
            json!({ "type": "object", "required": ["name"], "properties": { "name": { "enum": names } } })
        }
        Discriminator::Has { key } => has(key),
    }
}

/// Looks up a schema by `family/TYPE`.
pub fn by_key(k: &str) -> Option<Value> {
    let (fam, name) = k.split_once('/')?;
    let fam = FamilyId::parse(fam)?;
    fam.spec()
        .message_type(name)
        .map(|t| message_schema(fam, t))
}

fn body(family: FamilyId, spec: &MessageTypeSpec) -> Value {
    let mut s = object(&spec.root);
    if let Value::Object(m) = &mut s {
        m.insert("title".into(), key(family, spec).into());
        m.insert("description".into(), spec.doc.into());
        let checks: Vec<Value> = spec.checks.iter().flat_map(cross).collect();
        if !checks.is_empty() {
            m.insert("allOf".into(), checks.into());
        }
    }
    s
}

fn object(spec: &ObjectSpec) -> Value {
    let required: Vec<&str> = spec
        .fields
        .iter()
        .filter(|f| !matches!(f.presence, Presence::Optional))
        .map(|f| f.name)
        .collect();
    let props: Map<String, Value> = spec
        .fields
        .iter()
        .map(|f| (f.name.to_owned(), ty(&f.ty)))
        .collect();
    json!({ "type": "object", "required": required, "properties": props })
}

fn ty(t: &Ty) -> Value {
    match t {
        Ty::Str(s) => string(s),
        Ty::Int { min, max } => bounded("integer", min.map(Value::from), max.map(Value::from)),
        Ty::Num { min, max } => bounded("number", min.map(Value::from), max.map(Value::from)),
        Ty::Bool => json!({ "type": "boolean" }),
        Ty::BoolConst(b) => json!({ "const": b }),
        Ty::Array { items, min_items } => {
            let mut s = json!({ "type": "array", "items": ty(items) });
            if *min_items > 0 {
                s["minItems"] = (*min_items).into();
            }
            s
        }
        Ty::Object(spec) => object(spec),
        Ty::AnyObject => json!({ "type": "object" }),
        Ty::Any => json!({}),
    }
}

fn bounded(kind: &str, min: Option<Value>, max: Option<Value>) -> Value {
    let mut s = json!({ "type": kind });
    if let Some(m) = min {
        s["minimum"] = m;
    }
    if let Some(m) = max {
        s["maximum"] = m;
    }
    s
}

fn string(s: &Str) -> Value {
    match s {
        Str::Text { non_empty: false } => json!({ "type": "string" }),
        Str::Text { non_empty: true } => json!({ "type": "string", "minLength": 1 }),
        Str::Enum { values, .. } => json!({ "type": "string", "enum": values }),
        Str::Const(c) => json!({ "const": c }),
        Str::DateTime { .. } => json!({ "type": "string", "pattern": DATE_TIME }),
        Str::Pattern(p) => json!({ "type": "string", "pattern": p.regex }),
        Str::Version { major, parts } => json!({
            "type": "string",
            "pattern": format!("^{major}(\\.[0-9]+){{{}}}$", parts.saturating_sub(1)),
        }),
    }
}

fn cross(c: &CrossCheck) -> Vec<Value> {
    match c {
        CrossCheck::Pairs {
            text,
            number,
            pairs,
        } => pairs
            .iter()
            .map(|(t, n)| {
                json!({
                    "if": { "type": "object", "properties": { *text: { "const": t } }, "required": [text] },
                    "then": { "type": "object", "properties": { *number: { "const": n } } },
                })
            })
            .collect(),
        CrossCheck::Differ {
            object,
            a,
            b,
            values,
        } => {
            let same: Vec<Value> = values
                .iter()
                .map(|v| {
                    json!({ "not": {
                        "type": "object",
                        "properties": { *a: { "const": v }, *b: { "const": v } },
                        "required": [a, b],
                    }})
                })
                .collect();
            if object.is_empty() {
                same
            } else {
                vec![json!({ "type": "object", "properties": { *object: { "allOf": same } } })]
            }
        }
    }
}
