//! Generators shared by the protocol property tests: arbitrary JSON, valid messages drawn
//! from the registry's own rules, and byte-level edits of serialized messages.
#![allow(dead_code)]

use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use switchboard_core::protocol::{
    registry::{MessageTypeSpec, ObjectSpec, Presence, Str, Ty},
    REGISTRY,
};

pub fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        prop_oneof![
            ".*",
            "ISO8601",
            "2026-01-15T10:00:00Z",
            "PAIR_INIT|PLAN_SUBMISSION|task_assignment|navigatorApprove|code_review|ERROR",
        ]
        .prop_map(Value::String),
    ];
    let keys = prop_oneof![
        "[a-z_]{1,12}",
        Just("message_type".to_owned()),
        Just("type".to_owned()),
        Just("subject".to_owned()),
        Just("body".to_owned()),
        Just("body_md".to_owned()),
        Just("name".to_owned()),
        Just("arguments".to_owned()),
        Just("allowed".to_owned()),
        Just("sender_id".to_owned()),
    ];
    leaf.prop_recursive(6, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A value valid for `ty`, drawn from the registry's own rules.
pub fn arb_for(ty: &'static Ty) -> BoxedStrategy<Value> {
    match ty {
        Ty::Str(s) => arb_str(s),
        Ty::Int { min, max } => {
            let lo = min.unwrap_or(-1_000);
            let hi = max.unwrap_or(lo + 10_000);
            (lo..=hi).prop_map(Value::from).boxed()
        }
        Ty::Num { min, max } => {
            let lo = min.unwrap_or(-1e6);
            let hi = max.unwrap_or(lo + 1e6);
            prop_oneof![
                (lo..=hi).prop_map(Value::from),
                ((lo.ceil() as i64)..=(hi.floor() as i64)).prop_map(Value::from),
            ]
            .boxed()
        }
        Ty::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        Ty::BoolConst(b) => Just(Value::Bool(*b)).boxed(),
        Ty::Array { items, min_items } => {
            prop::collection::vec(arb_for(items), *min_items..*min_items + 3)
                .prop_map(Value::Array)
                .boxed()
        }
        Ty::Object(spec) => arb_object(spec),
        Ty::AnyObject | Ty::Any => prop_oneof![
            Just(serde_json::json!({})),
            Just(serde_json::json!({"note": "free", "n": [1, 2.5, null]})),
        ]
        .boxed(),
    }
}

fn arb_str(s: &'static Str) -> BoxedStrategy<Value> {
    let v = match s {
        Str::Text { non_empty: false } => ".{0,12}".boxed(),
        Str::Text { non_empty: true } => ".{1,12}".boxed(),
        Str::Enum { values, .. } => prop::sample::select(values.to_vec())
            .prop_map(str::to_owned)
            .boxed(),
        Str::Const(c) => Just((*c).to_owned()).boxed(),
        Str::DateTime { .. } => (2000u32..2100, 1u32..=12, 1u32..=28, 0u32..24, 0u32..60)
            .prop_map(|(y, mo, d, h, mi)| format!("{y}-{mo:02}-{d:02}T{h:02}:{mi:02}:00Z"))
            .boxed(),
        Str::Pattern(p) => pattern_strings(p.regex),
        Str::Version { major, parts } => {
            Just(format!("{major}{}", ".7".repeat(parts.saturating_sub(1)))).boxed()
        }
    };
    v.prop_map(Value::String).boxed()
}

/// Strings matching a registry pattern, generated from its regular expression (proptest
/// generates from regexes without anchors; the registry's are anchored at both ends).
fn pattern_strings(regex: &'static str) -> BoxedStrategy<String> {
    let bare = regex.strip_prefix('^').and_then(|r| r.strip_suffix('$'));
    let bare = bare.unwrap_or_else(|| panic!("pattern {regex} is not anchored at both ends"));
    proptest::string::string_regex(bare)
        .unwrap_or_else(|e| panic!("pattern {regex}: {e}"))
        .boxed()
}

pub fn arb_object(spec: &'static ObjectSpec) -> BoxedStrategy<Value> {
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = spec
        .fields
        .iter()
        .map(|f| {
            let name = f.name.to_owned();
            let v = arb_for(&f.ty);
            match f.presence {
                Presence::Optional => prop::option::of(v)
                    .prop_map(move |o| o.map(|x| (name.clone(), x)))
                    .boxed(),
                _ => v.prop_map(move |x| Some((name.clone(), x))).boxed(),
            }
        })
        .collect();
    (fields, prop::option::of(("x_[a-z]{1,6}", ".{0,6}")))
        .prop_map(|(members, extra)| {
            let mut m: Map<String, Value> = members.into_iter().flatten().collect();
            if let Some((k, v)) = extra {
                m.insert(k, Value::String(v));
            }
            Value::Object(m)
        })
        .boxed()
}

/// One byte-level edit of a serialized message.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Overwrite the byte at this fraction of the length.
    Set(f64, u8),
    /// Insert a byte there.
    Insert(f64, u8),
    /// Delete up to this many bytes there.
    Delete(f64, usize),
    /// Keep only the bytes before there.
    Truncate(f64),
}

impl Edit {
    pub fn apply(&self, bytes: &mut Vec<u8>) {
        let at = |f: f64, len: usize| ((f * len as f64) as usize).min(len);
        match *self {
            Edit::Set(f, b) if !bytes.is_empty() => {
                let i = at(f, bytes.len() - 1);
                bytes[i] = b;
            }
            Edit::Set(..) => {}
            Edit::Insert(f, b) => {
                let i = at(f, bytes.len());
                bytes.insert(i, b);
            }
            Edit::Delete(f, n) => {
                let i = at(f, bytes.len());
                let end = (i + n).min(bytes.len());
                bytes.drain(i..end);
            }
            Edit::Truncate(f) => {
                let i = at(f, bytes.len());
                bytes.truncate(i);
            }
        }
    }
}

/// Bytes that matter to JSON, and a few that break UTF-8.
pub const EDIT_BYTES: &[u8] = b"{}[]\",:\\ 0-9.eEtfn\x00\x7f\xc3\xff";

pub fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop::sample::select(EDIT_BYTES);
    prop_oneof![
        (0.0..1.0, byte.clone()).prop_map(|(f, b)| Edit::Set(f, b)),
        (0.0..1.0, byte).prop_map(|(f, b)| Edit::Insert(f, b)),
        (0.0..1.0, 1usize..8).prop_map(|(f, n)| Edit::Delete(f, n)),
        (0.0..1.0).prop_map(Edit::Truncate),
    ]
}

pub fn all_types() -> Vec<&'static MessageTypeSpec> {
    REGISTRY.iter().flat_map(|f| f.types.iter()).collect()
}

pub fn arb_message() -> impl Strategy<Value = (&'static MessageTypeSpec, Value)> {
    prop::sample::select(all_types()).prop_flat_map(|t| (Just(t), arb_object(&t.root)))
}
