//! The two ways of decoding an Agent Mail row agree: `Envelope::decode_slice` (the row read
//! straight from its bytes) and `Envelope::decode` of the parsed `Value`, on generated rows
//! whose members take every JSON type, repeat, carry escapes, and whose `body_md` is a valid
//! message, plain text, broken JSON or no string at all. And `read_log` never panics.

use proptest::prelude::*;
use serde_json::{json, Value};
use switchboard_core::agent_mail::{read_log, Carried, Envelope};
use switchboard_core::protocol::{IssueCode, Options};

const KEYS: &[&str] = &[
    "id",
    "thread_id",
    "session_id",
    "from",
    "sender_name",
    "sender",
    "sender_id",
    "to",
    "recipients",
    "cc",
    "subject",
    "created_ts",
    "created",
    "timestamp",
    "ack_ts",
    "acknowledged",
    "ack_required",
    "importance",
    "body_md",
    "project",
    "kind",
];

fn message_bodies() -> Vec<String> {
    vec![
        json!({"phase": "CONTRACT_GENERATION", "reason": "r", "status": "ABORTED", "cleanup_required": true}).to_string(),
        json!({"message_type": "PROGRESS_UPDATE", "agent_id": "agent-1", "task_id": "TASK-1", "timestamp": "2026-01-01T00:00:00Z", "status": "planning", "progress_percent": 5, "current_activity": "x"}).to_string(),
        json!({"type": "request_review", "context": "c"}).to_string(),
        "```json\n{\"allowed\": false, \"reason\": \"no\"}\n```".to_owned(),
        "just words".to_owned(),
        "{ broken".to_owned(),
        "[1, 2]".to_owned(),
        json!({"phase": 5}).to_string(),
        json!({"body_md": "nested"}).to_string(),
    ]
}

/// A member value as JSON text.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        Just("0".to_owned()),
        Just("1".to_owned()),
        Just("7".to_owned()),
        Just("-3".to_owned()),
        Just("1.0".to_owned()),
        Just("18446744073709551615".to_owned()),
        Just("\"\"".to_owned()),
        Just("\"  \"".to_owned()),
        Just("\"SESSION_ABORT\"".to_owned()),
        Just("\"2026-03-02T09:00:00Z\"".to_owned()),
        Just("\"2026-03-02 09:00:00.5\"".to_owned()),
        Just("\" Blue\\u004cake \"".to_owned()),
        // A comma-separated recipient text, with blanks between the commas.
        Just("\" Blue, Green ,, \"".to_owned()),
        Just("\",\"".to_owned()),
        Just("\"a\\\"b\"".to_owned()),
        Just("[\"a\", \" \", 3, null, [\"x\"], {\"k\": 1}, \"b\"]".to_owned()),
        Just("[]".to_owned()),
        Just("{\"a\": [1, {\"b\": null}]}".to_owned()),
        prop::sample::select(message_bodies()).prop_map(|b| Value::String(b).to_string()),
    ]
}

fn row() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(KEYS), value()), 0..14).prop_map(|members| {
        let inner: Vec<String> = members
            .iter()
            .map(|(k, v)| format!("\"{k}\": {v}"))
            .collect();
        format!("{{{}}}", inner.join(", "))
    })
}

/// A row whose members mostly have their usual types, so the byte path reads it itself.
fn usual_row() -> impl Strategy<Value = String> {
    let text = prop::sample::select(vec![
        "null",
        "\"\"",
        "\" x \"",
        "\"BlueLake\"",
        "\"SESSION_ABORT\"",
        "\"2026-03-02T09:00:00Z\"",
        "\"a\\u0041\\n\"",
    ]);
    let texts = prop::collection::vec(
        (
            prop::sample::select(
                KEYS.iter()
                    .copied()
                    .filter(|k| {
                        !matches!(
                            *k,
                            "id" | "to"
                                | "recipients"
                                | "acknowledged"
                                | "ack_required"
                                | "body_md"
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
            text,
        ),
        0..8,
    );
    let odd = (
        prop::sample::select(vec![
            "id",
            "to",
            "recipients",
            "acknowledged",
            "ack_required",
        ]),
        value(),
    );
    (
        texts,
        prop::collection::vec(odd, 0..4),
        prop::sample::select(message_bodies()),
    )
        .prop_map(|(texts, odd, body)| {
            let mut members: Vec<String> =
                texts.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
            members.extend(odd.iter().map(|(k, v)| format!("\"{k}\": {v}")));
            members.push(format!("\"body_md\": {}", Value::String(body)));
            format!("{{{}}}", members.join(", "))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn decoding_bytes_equals_decoding_the_value(text in prop_oneof![row(), usual_row()], lenient in any::<bool>(), mutate in prop::option::of((0usize..200, any::<u8>()))) {
        let mut bytes = text.into_bytes();
        if let Some((at, b)) = mutate {
            if !bytes.is_empty() {
                let i = at % bytes.len();
                bytes[i] = b;
            }
        }
        let options = if lenient { Options::lenient() } else { Options::strict() };
        let fast = Envelope::decode_slice(3, &bytes, &options);
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(v) => prop_assert_eq!(fast, Envelope::decode(3, v, &options)),
            Err(e) => {
                let Carried::Invalid(invalid) = &fast.carried else { panic!("{:?}", fast.carried) };
                prop_assert_eq!(invalid.report.issues.len(), 1);
                prop_assert_eq!(invalid.report.issues[0].code, IssueCode::NotJson);
                prop_assert_eq!(&invalid.report.issues[0].message, &format!("not JSON: {e}"));
            }
        }
    }

    #[test]
    fn read_log_never_panics_and_keeps_every_line(lines in prop::collection::vec(prop_oneof![row(), "[ -~]{0,20}", Just(String::new())], 0..12)) {
        let text = lines.join("\n");
        if let Ok(envelopes) = read_log(text.as_bytes(), &Options::default()) {
            for (i, e) in envelopes.iter().enumerate() {
                prop_assert_eq!(e.index, i);
            }
        }
    }
}
