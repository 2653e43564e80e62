//! Property tests: validation never panics on arbitrary JSON values or bytes, and for valid
//! messages generated from the registry, the typed model reproduces the input exactly.

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
        Str::Pattern(p) => Just(p.example.to_owned()).boxed(),
        Str::Version { major, parts } => {
            Just(format!("{major}{}", ".7".repeat(parts.saturating_sub(1)))).boxed()
        }
    };
    v.prop_map(Value::String).boxed()
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
    fn never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let report = protocol::validate_slice(&bytes, &Options::default());
        prop_assert!(report.valid || !report.issues.is_empty());
    }

    #[test]
    fn never_panics_on_carried_text(body in ".{0,64}", fenced in any::<bool>()) {
        let body_md = if fenced { format!("hi\n```json\n{body}\n```\n") } else { body };
        let row = serde_json::json!({"subject": "PAIR_INIT", "body_md": body_md});
        let _ = protocol::validate(&row, &Options::lenient());
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
