//! Property tests: validation agrees with itself on arbitrary JSON values, on mutated bytes
//! (the byte path reports what the parsed value reports, or exactly one `not_json`) and on
//! messages carried in Agent Mail rows (they validate as the message itself); valid messages
//! generated from the registry (pattern fields from their regular expressions) validate,
//! and the typed model reproduces them exactly.

use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use switchboard_core::protocol::{
    self,
    model::Message,
    registry::{MessageTypeSpec, ObjectSpec, Presence, Str, Ty},
    Options, REGISTRY,
};

fn arb_json() -> impl Strategy<Value = Value> {
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
fn arb_for(ty: &'static Ty) -> BoxedStrategy<Value> {
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

fn arb_object(spec: &'static ObjectSpec) -> BoxedStrategy<Value> {
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
enum Edit {
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
    fn apply(&self, bytes: &mut Vec<u8>) {
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
const EDIT_BYTES: &[u8] = b"{}[]\",:\\ 0-9.eEtfn\x00\x7f\xc3\xff";

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop::sample::select(EDIT_BYTES);
    prop_oneof![
        (0.0..1.0, byte.clone()).prop_map(|(f, b)| Edit::Set(f, b)),
        (0.0..1.0, byte).prop_map(|(f, b)| Edit::Insert(f, b)),
        (0.0..1.0, 1usize..8).prop_map(|(f, n)| Edit::Delete(f, n)),
        (0.0..1.0).prop_map(Edit::Truncate),
    ]
}

fn all_types() -> Vec<&'static MessageTypeSpec> {
    REGISTRY.iter().flat_map(|f| f.types.iter()).collect()
}

fn arb_message() -> impl Strategy<Value = (&'static MessageTypeSpec, Value)> {
    prop::sample::select(all_types()).prop_flat_map(|t| (Just(t), arb_object(&t.root)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn never_panics_on_arbitrary_json(v in arb_json(), lenient in any::<bool>()) {
        let opts = Options { family: None, lenient };
        let report = protocol::validate(&v, &opts);
        prop_assert_eq!(report.valid, opts.is_valid(&v));
        let _ = serde_json::to_string(&report).unwrap();
        let _ = Message::parse(&v, &opts);
    }

    #[test]
    fn mutated_messages_report_as_their_parse(
        (_, msg) in arb_message(),
        edits in prop::collection::vec(edit(), 1..4),
        lenient in any::<bool>(),
    ) {
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        for e in &edits {
            e.apply(&mut bytes);
        }
        let opts = Options { family: None, lenient };
        let report = protocol::validate_slice(&bytes, &opts);
        match serde_json::from_slice::<Value>(&bytes) {
            // Still JSON: the byte path reports exactly what the parsed value reports.
            Ok(v) => prop_assert_eq!(&report, &protocol::validate(&v, &opts)),
            // Not JSON: one root `not_json` error, nothing else.
            Err(_) => {
                prop_assert!(!report.valid);
                prop_assert_eq!(report.family, None);
                prop_assert_eq!(report.issues.len(), 1);
                let issue = &report.issues[0];
                prop_assert_eq!((issue.path.to_pointer(), issue.code.as_str()), (String::new(), "not_json"));
                prop_assert!(issue.message.starts_with("not JSON: "), "{}", issue.message);
            }
        }
        prop_assert_eq!(report.valid, report.errors().next().is_none());
    }

    #[test]
    fn carried_messages_validate_as_the_message_itself(
        inner in prop_oneof![arb_message().prop_map(|(_, m)| m), arb_json()],
        fenced in any::<bool>(),
        subject in prop::sample::select(&["Stand-up notes", "PAIR_INIT", "CHANGE_ORDER"][..]),
        lenient in any::<bool>(),
    ) {
        let text = inner.to_string();
        // A fence ends at the first ``` (a string holding one cannot be carried fenced).
        prop_assume!(!(fenced && text.contains("```")));
        let body_md = if fenced { format!("Please review.\n```json\n{text}\n```\n") } else { text.clone() };
        let row = serde_json::json!({"subject": subject, "from": "BlueLake", "body_md": body_md});
        let opts = Options { family: None, lenient };
        let got = protocol::validate(&row, &opts);
        let only = |code: &str, pointer: &str| {
            let issue = got.issues.first();
            got.issues.len() == 1
                && !got.valid
                && issue.is_some_and(|i| i.code.as_str() == code && i.path.to_pointer() == pointer)
        };
        match &inner {
            // Plain text that does not start a JSON document carries no message.
            Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null if !fenced => {
                prop_assert!(only("no_protocol_message", "/body_md"), "{:?}", got);
            }
            Value::Object(obj) => {
                // A Pair body whose type is in the row's subject: validated as the Pair
                // message {to, subject, body} (`to` comes from the transport).
                let pair_subject = subject != "Stand-up notes"
                    && !obj.contains_key("subject")
                    && !obj.contains_key("body");
                if pair_subject {
                    let direct = serde_json::json!({"to": "GreenCastle", "subject": subject, "body": inner});
                    prop_assert_eq!(&got, &protocol::validate(&direct, &opts));
                } else if obj.contains_key("body_md") {
                    // A row inside a row is no protocol message.
                    prop_assert!(only("unknown_family", ""), "{:?}", got);
                } else {
                    prop_assert_eq!(&got, &protocol::validate(&inner, &opts));
                }
            }
            _ => prop_assert!(only("wrong_type", "/body_md"), "{:?}", got),
        }
    }

    #[test]
    fn generated_valid_messages_validate_and_round_trip((t, msg) in arb_message()) {
        let report = protocol::validate(&msg, &Options::default());
        // Priority tables constrain two members jointly; skip draws that break them.
        prop_assume!(!report.issues.iter().any(|i| i.code.as_str() == "inconsistent_fields"));
        prop_assert!(report.valid, "{} {:?} {}", t.name, report.issues, msg);
        prop_assert_eq!(report.message_type, Some(t.name));
        let model = Message::parse(&msg, &Options::default()).unwrap();
        prop_assert_eq!(model.to_value(), msg.clone());
        prop_assert_eq!(serde_json::to_value(&model).unwrap(), msg);
    }
}
