//! Property tests: validation agrees with itself on arbitrary JSON values, on mutated bytes
//! (the byte path reports what the parsed value reports, or exactly one `not_json`) and on
//! messages carried in Agent Mail rows (they validate as the message itself); valid messages
//! generated from the registry (pattern fields from their regular expressions) validate,
//! and the typed model reproduces them exactly.

mod protocol_common;

use proptest::prelude::*;
use protocol_common::{arb_json, arb_message, edit};
use serde_json::Value;
use switchboard_core::protocol::{self, model::Message, Options};

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
