//! JSON Schema (draft 2020-12) export, generated from the registry.
//!
//! Schemas express strict mode. Not expressible, hence not exported: lenient-mode deviations,
//! the diagnostics of family/type
//! detection (the union schemas [`any_message`] and [`family_message`] reject such messages,
//! including the `ambiguous_family` rule, without saying why), and messages carried as JSON text
//! inside an Agent Mail `body_md` (JSON Schema cannot parse a string). Timestamps are exported
//! as `format: date-time`; validate with format assertion enabled.

use crate::protocol::registry::{
    CrossCheck, Discriminator, FamilyId, FamilySpec, MessageTypeSpec, ObjectSpec, Presence, Str,
    Ty, REGISTRY,
};
use serde_json::{json, Map, Value};

/// The draft 2020-12 meta-schema URI.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

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
    let markers = fam.markers.iter().map(|m| json!({ "required": [m] }));
    let discs = fam
        .types
        .iter()
        .map(|t| discriminator(&t.discriminator, false));
    markers.chain(discs).collect()
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
            let mut s = json!({ "required": [key], "properties": { *key: { "const": value } } });
            if shape && !members.is_empty() {
                let any: Vec<Value> = members.iter().map(|m| json!({ "required": [m] })).collect();
                s["anyOf"] = any.into();
            }
            s
        }
        Discriminator::OneOf { key, values } => {
            json!({ "required": [key], "properties": { *key: { "enum": values } } })
        }
        Discriminator::Bool { key, value } => {
            json!({ "required": [key], "properties": { *key: { "const": value } } })
        }
        Discriminator::Tool { tool, prefixes } => {
            let mut names = vec![(*tool).to_owned()];
            names.extend(prefixes.iter().map(|p| format!("{p}{tool}")));
            json!({ "required": ["name"], "properties": { "name": { "enum": names } } })
        }
        Discriminator::Has { key } => json!({ "required": [key] }),
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
        Str::DateTime { .. } => json!({ "type": "string", "format": "date-time" }),
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
                    "if": { "properties": { *text: { "const": t } }, "required": [text] },
                    "then": { "properties": { *number: { "const": n } } },
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
                        "properties": { *a: { "const": v }, *b: { "const": v } },
                        "required": [a, b],
                    }})
                })
                .collect();
            if object.is_empty() {
                same
            } else {
                vec![json!({ "properties": { *object: { "allOf": same } } })]
            }
        }
    }
}
