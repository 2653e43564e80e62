//! Deterministic family and message-type detection, and Agent Mail carrier unwrapping.
//!
//! A family claims an object when one of its types' discriminators matches or one of its marker
//! members is present. Exactly one claiming family is required: none is `unknown_family`, several
//! is `ambiguous_family` naming the candidates. An explicit family hint skips the claim step.

use super::issue::{IssueCode, LazyPath};
use super::registry::{Discriminator, FamilyId, FamilySpec, MessageTypeSpec, REGISTRY};
use super::validator::Ctx;
use serde_json::{Map, Value};

/// How a discriminator relates to an object.
#[derive(PartialEq, Eq)]
enum Fit {
    /// It matches.
    Yes,
    /// The discriminator value matches but no shape member is present.
    ValueOnly,
    /// It does not match.
    No,
}

/// Every member name detection looks at (discriminators, shapes, markers, type keys); a unit
/// test checks the registry uses no other.
const DETECTION_KEYS: &[&str] = &[
    "subject",
    "body",
    "scheming_detected",
    "message_type",
    "details",
    "suggested_action",
    "history",
    "next_steps",
    "type",
    "sender_id",
    "message_id",
    "name",
    "arguments",
    "allowed",
    "behavior",
    "driverTranscript",
];

/// The object's detection-relevant members, gathered in one pass without hashing.
struct Members<'v> {
    obj: &'v Map<String, Value>,
    found: [(&'v str, &'v Value); 16],
    n: usize,
}

impl<'v> Members<'v> {
    fn new(obj: &'v Map<String, Value>) -> Self {
        let mut m = Members {
            obj,
            found: [("", &Value::Null); 16],
            n: 0,
        };
        for (k, v) in obj {
            if m.n < m.found.len() && DETECTION_KEYS.contains(&k.as_str()) {
                m.found[m.n] = (k, v);
                m.n += 1;
            }
        }
        m
    }

    fn get(&mut self, key: &'static str) -> Option<&'v Value> {
        if !DETECTION_KEYS.contains(&key) {
            return self.obj.get(key);
        }
        self.found[..self.n]
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    fn has(&mut self, key: &'static str) -> bool {
        self.get(key).is_some()
    }
}

fn fit(d: &Discriminator, obj: &mut Members<'_>) -> Fit {
    let yes = |b: bool| if b { Fit::Yes } else { Fit::No };
    match d {
        Discriminator::Str { key, value, shape } => {
            if obj.get(key).and_then(Value::as_str) != Some(*value) {
                Fit::No
            } else if shape.is_empty() || shape.iter().any(|k| obj.has(k)) {
                Fit::Yes
            } else {
                Fit::ValueOnly
            }
        }
        Discriminator::OneOf { key, values } => yes(obj
            .get(key)
            .and_then(Value::as_str)
            .is_some_and(|s| values.contains(&s))),
        Discriminator::Bool { key, value } => {
            yes(obj.get(key).and_then(Value::as_bool) == Some(*value))
        }
        Discriminator::Tool { tool, prefixes } => {
            yes(obj.get("name").and_then(Value::as_str).is_some_and(|n| {
                n == *tool || prefixes.iter().any(|p| n.strip_prefix(p) == Some(*tool))
            }))
        }
        Discriminator::Has { key } => yes(obj.has(key)),
    }
}

fn claims(fam: &FamilySpec, obj: &mut Members<'_>) -> bool {
    fam.markers.iter().any(|m| obj.has(m))
        || fam
            .types
            .iter()
            .any(|t| fit(&t.discriminator, obj) != Fit::No)
}

/// Picks the family (honouring `hint`) and message type of `obj`, recording why when it cannot.
pub(crate) fn detect(
    ctx: &mut Ctx,
    obj: &Map<String, Value>,
    hint: Option<FamilyId>,
) -> (
    Option<&'static FamilySpec>,
    Option<&'static MessageTypeSpec>,
) {
    let members = &mut Members::new(obj);
    let fam = match hint {
        Some(id) => id.spec(),
        None => {
            let mut found: [Option<&'static FamilySpec>; 4] = [None; 4];
            let mut n = 0;
            for fam in REGISTRY {
                if claims(fam, members) {
                    found[n] = Some(fam);
                    n += 1;
                }
            }
            match (n, found[0]) {
                (1, Some(fam)) => fam,
                (0, _) => {
                    ctx.error(LazyPath::Root, IssueCode::UnknownFamily, || {
                        "no known protocol family recognises this message (looked for Pair \
                         `subject`+`body`, Agent-PO `message_type`, droid `type`/`sender_id`/\
                         `message_id`, Pair Claude `name`+`arguments`/`type`/`allowed`)"
                            .into()
                    });
                    return (None, None);
                }
                _ => {
                    ctx.error(LazyPath::Root, IssueCode::AmbiguousFamily, || {
                        let names: Vec<&str> =
                            found.iter().flatten().map(|f| f.id.as_str()).collect();
                        format!(
                            "the message could belong to {}; pass an explicit family",
                            names.join(" or ")
                        )
                    });
                    return (None, None);
                }
            }
        }
    };
    (Some(fam), detect_type(ctx, fam, members))
}

fn detect_type(
    ctx: &mut Ctx,
    fam: &'static FamilySpec,
    obj: &mut Members<'_>,
) -> Option<&'static MessageTypeSpec> {
    let mut hit = None;
    let mut hits = 0;
    let mut value_only = 0;
    for t in fam.types {
        match fit(&t.discriminator, obj) {
            Fit::Yes => {
                hit = Some(t);
                hits += 1;
            }
            Fit::ValueOnly => value_only += 1,
            Fit::No => {}
        }
    }
    if hits == 1 {
        return hit;
    }
    if hits > 1 || value_only > 0 {
        ctx.error(LazyPath::Root, IssueCode::AmbiguousMessageType, || {
            let names: Vec<&str> = fam
                .types
                .iter()
                .filter(|t| fit(&t.discriminator, obj) != Fit::No)
                .map(|t| t.name)
                .collect();
            format!(
                "the message fits {} message types ({}); their shape members tell them apart",
                if hits > 1 { "several" } else { "none of the" },
                names.join(", ")
            )
        });
        return None;
    }
    match fam.type_keys.iter().find(|k| obj.has(k)) {
        Some(key) => ctx.error(
            LazyPath::Root.key(key),
            IssueCode::UnknownMessageType,
            || {
                // Strings are quoted (cut at 80 chars); other values are named by kind only,
                // so an arbitrarily deep value is never serialized here.
                let shown = match obj.get(key) {
                    Some(Value::String(v)) => {
                        format!("{:?}", v.chars().take(80).collect::<String>())
                    }
                    Some(v) => format!("a {}", super::validator::kind(v)),
                    None => String::new(),
                };
                format!("{key} {shown} names no {} message type", fam.id.as_str())
            },
        ),
        None => {
            let key = fam.type_keys.first().copied().unwrap_or("type");
            ctx.error(LazyPath::Root.key(key), IssueCode::MissingField, || {
                format!("missing required field `{key}` naming the message type")
            });
        }
    }
    None
}

/// The JSON text inside an Agent Mail `body_md`: the whole body when it is a JSON object or
/// array, else the first ```json fenced block.
pub(crate) fn extract_json(body: &str) -> Option<&str> {
    let t = body.trim();
    if t.starts_with('{') || t.starts_with('[') {
        return Some(t);
    }
    let start = body.find("```json")?;
    let rest = &body[start + "```json".len()..];
    let nl = rest.find('\n')?;
    if !rest[..nl].trim().is_empty() {
        return None;
    }
    let content = &rest[nl + 1..];
    let end = content.find("```")?;
    Some(content[..end].trim())
}

#[cfg(test)]
mod tests {
    use super::DETECTION_KEYS;
    use crate::protocol::registry::REGISTRY;

    #[test]
    fn detection_keys_cover_the_registry() {
        for fam in REGISTRY {
            let mut keys: Vec<&str> = fam.markers.to_vec();
            keys.extend(fam.type_keys);
            for t in fam.types {
                keys.push(t.discriminator.key());
                if let crate::protocol::registry::Discriminator::Str { shape, .. } = t.discriminator
                {
                    keys.extend(shape);
                }
            }
            for k in keys {
                assert!(
                    DETECTION_KEYS.contains(&k),
                    "{k} missing from DETECTION_KEYS"
                );
            }
        }
    }
}
