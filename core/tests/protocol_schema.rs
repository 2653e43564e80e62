//! The exported JSON Schemas agree with our validator on the whole fixture corpus, checked with
//! a real JSON Schema validator (the `jsonschema` crate, draft 2020-12, format assertion on).
//!
//! Excluded, explicitly: lenient-mode verdicts (schemas express strict mode), Agent Mail rows
//! carrying the message as JSON text in `body_md` (JSON Schema cannot parse a string; the carried
//! message itself is checked instead), and raw non-JSON input.

use serde_json::Value;
use std::path::{Path, PathBuf};
use switchboard_core::protocol::{self, export::schema, FamilyId, Options, REGISTRY};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol")
}

fn compile(s: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(s)
        .expect("schema compiles")
}

/// The fixture corpus as (name, message, family hint) — carried messages unwrapped.
fn corpus() -> Vec<(String, Value, Option<FamilyId>)> {
    let read = |rel: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(root().join(rel)).unwrap()).unwrap()
    };
    let mut out = Vec::new();
    for e in read("manifest.json").as_array().unwrap() {
        let file = e["file"].as_str().unwrap();
        let hint = e["family_hint"].as_str().and_then(FamilyId::parse);
        let msg = read(file);
        if msg.get("body_md").is_some() {
            continue; // carried: excluded (see module docs); covered by carried_messages_agree
        }
        out.push((file.to_owned(), msg, hint));
    }
    for c in read("invalid/cases.json").as_array().unwrap() {
        if let Some(m) = c.get("message") {
            let hint = c
                .pointer("/options/family")
                .and_then(Value::as_str)
                .and_then(FamilyId::parse);
            out.push((c["rule"].as_str().unwrap().to_owned(), m.clone(), hint));
        }
    }
    out
}

#[test]
fn every_exported_schema_is_a_valid_2020_12_schema() {
    let all = schema::all();
    let n: usize = REGISTRY.iter().map(|f| f.types.len()).sum();
    assert_eq!(all.as_object().unwrap().len(), n);
    for (k, s) in all.as_object().unwrap() {
        assert!(jsonschema::draft202012::meta::is_valid(s), "{k}");
        assert_eq!(schema::by_key(k).as_ref(), Some(s));
    }
    assert!(jsonschema::draft202012::meta::is_valid(
        &schema::any_message()
    ));
    for f in FamilyId::ALL {
        assert!(jsonschema::draft202012::meta::is_valid(
            &schema::family_message(*f)
        ));
    }
}

/// The verdict a JSON Schema can give: no error but secrets (which no schema expresses; the
/// export documents that `secret_in_message` is the validator's own).
fn schema_verdict(report: &protocol::Report) -> bool {
    report
        .errors()
        .all(|i| i.code == protocol::IssueCode::SecretInMessage)
}

#[test]
fn schemas_agree_with_strict_verdicts_on_the_corpus() {
    let any = compile(&schema::any_message());
    let mut disagreements = Vec::new();
    let mut checked = 0;
    for (name, msg, hint) in corpus() {
        let opts = Options {
            family: hint,
            lenient: false,
        };
        let report = protocol::validate(&msg, &opts);
        // With a detected type, its own schema; otherwise the union schema, which must reject.
        let verdict = match (report.family, report.message_type) {
            (Some(f), Some(t)) => {
                let spec = f.spec().message_type(t).unwrap();
                compile(&schema::message_schema(f, spec)).is_valid(&msg)
            }
            _ => match hint {
                Some(f) => compile(&schema::family_message(f)).is_valid(&msg),
                None => any.is_valid(&msg),
            },
        };
        checked += 1;
        if verdict != schema_verdict(&report) {
            disagreements.push(format!("{name}: ours {} schema {verdict}", report.valid));
        }
        // Every strictly valid message is valid under exactly one type of the union.
        if report.valid && hint.is_none() {
            assert!(
                any.is_valid(&msg),
                "{name}: union schema rejects a valid message"
            );
        }
    }
    assert!(checked > 120, "corpus too small: {checked}");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn carried_messages_agree_after_unwrapping() {
    let dir = root().join("valid/carried");
    for e in std::fs::read_dir(dir).unwrap() {
        let row: Value =
            serde_json::from_str(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap();
        let report = protocol::validate(&row, &Options::default());
        assert!(report.valid);
        let model = protocol::model::Message::parse(&row, &Options::default()).unwrap();
        let carried = model.to_value();
        let spec = model.spec;
        let mut s = schema::message_schema(model.family, spec);
        // A Pair body travels without its `to`, which the transport supplies.
        if model.family == FamilyId::Pair {
            s["required"] = serde_json::json!(["subject", "body"]);
        }
        assert!(compile(&s).is_valid(&carried), "{carried}");
    }
}

#[test]
fn the_dispatching_schema_agrees_except_on_ambiguity() {
    let schema = schema::dispatch_message();
    assert!(jsonschema::draft202012::meta::is_valid(&schema));
    let dispatch = compile(&schema);
    let mut checked = 0;
    for (name, msg, hint) in corpus() {
        let report = protocol::validate(&msg, &Options::default());
        // The first matching discriminator wins: no ambiguity rules, no hint.
        let ambiguous = report.issues.iter().any(|i| {
            matches!(
                i.code.as_str(),
                "ambiguous_family" | "ambiguous_message_type"
            )
        });
        if hint.is_some() || ambiguous {
            continue;
        }
        assert_eq!(dispatch.is_valid(&msg), schema_verdict(&report), "{name}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

mod date_time {
    //! The exported `DATE_TIME` pattern against the core's matcher
    //! ([`formats::is_rfc3339`]), on strings built to sit near the edges of RFC 3339.

    use proptest::prelude::*;
    use serde_json::json;
    use switchboard_core::protocol::{export::schema, registry::formats};

    /// Two digits, mostly in range and often at an edge.
    fn two() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u8..=99).prop_map(|n| format!("{n:02}")),
            prop::sample::select(vec![
                "00", "01", "12", "13", "23", "24", "28", "29", "30", "31", "32", "59", "60"
            ])
            .prop_map(str::to_owned),
        ]
    }

    fn year() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u16..=9999).prop_map(|n| format!("{n:04}")),
            prop::sample::select(vec![
                "0000", "1900", "2000", "2023", "2024", "2100", "2400", "0004"
            ])
            .prop_map(str::to_owned),
        ]
    }

    fn candidate() -> impl Strategy<Value = String> {
        let sep = prop::sample::select(vec!["T", "t", " ", "_"]);
        let frac = prop::sample::select(vec!["", ".5", ".123456", ".", ".x"]);
        let zone = prop_oneof![
            prop::sample::select(vec!["Z", "z", "", "+0530", "Zjunk", "\n"])
                .prop_map(str::to_owned),
            (prop::sample::select(vec!["+", "-"]), two(), two())
                .prop_map(|(s, h, m)| format!("{s}{h}:{m}")),
        ];
        (year(), two(), two(), sep, two(), two(), two(), frac, zone).prop_map(
            |(y, mo, d, sep, h, mi, s, frac, zone)| {
                format!("{y}-{mo}-{d}{sep}{h}:{mi}:{s}{frac}{zone}")
            },
        )
    }

    proptest! {
        #[test]
        fn the_pattern_is_the_matcher(s in candidate()) {
            let validator = jsonschema::draft202012::new(&json!({ "type": "string", "pattern": schema::DATE_TIME }))
                .expect("the pattern compiles");
            prop_assert_eq!(validator.is_valid(&json!(s)), formats::is_rfc3339(&s), "{:?}", s);
        }
    }
}
