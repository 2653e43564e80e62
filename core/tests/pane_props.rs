//! Property tests: exactness against a `Value`-based model of the reference, no
//! panics on any input, order independence, and incremental == rebuild; for the adapters
//! over server replies, that every envelope carries the same payload and no reply panics.

mod pane_common;

use pane_common::{ref_contacts, ref_messages};
use proptest::prelude::*;
use serde_json::{json, Value};
use switchboard_core::agent_mail::replies::{self as adapters, AdapterError};
use switchboard_core::agent_mail::{Contact, MailRow};
use switchboard_core::pane::{
    self, build_snapshot, parse_contacts, parse_messages, Direction, FilterMode, PaneState,
};

fn pick<T: Clone + std::fmt::Debug + 'static>(items: &'static [T]) -> impl Strategy<Value = T> {
    prop::sample::select(items)
}

/// Any small JSON value, including the awkward ones.
fn junk() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        pick(&[0u64, 1, 2]).prop_map(|n| json!(n)),
        pick(&["", " ", "x", "true", "1", "\u{a0}", "é"]).prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,3}", inner), 0..3)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn thread() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        3 => pick(&["T1", "T2", "T3", "a", "b"]).prop_map(|t| Some(json!(t))),
        1 => Just(None),
        1 => Just(Some(Value::Null)),
        1 => Just(Some(json!("  "))),
    ]
}

/// A row that parses (values from small pools so ids, timestamps and threads collide).
fn valid_row() -> impl Strategy<Value = Value> {
    (
        0u64..12,
        pick(&["s1", "s2", "Re: s1"]),
        pick(&["Alpha", "Beta"]),
        pick(&[
            "2026-01-01T00:00:00+00:00",
            "2026-01-01T00:00:01+00:00",
            "2026-01-02 00:00:00",
        ]),
        pick(&["normal", "high"]),
        prop_oneof![
            any::<bool>().prop_map(|b| json!(b)),
            (0u64..2).prop_map(|n| json!(n))
        ],
        thread(),
        prop_oneof![
            Just(None),
            pick(&["sent", "failed", "queued", " "]).prop_map(|s| Some(json!(s)))
        ],
    )
        .prop_map(|(id, subject, from, ts, importance, ack, thread, status)| {
            let mut row = json!({
                "id": id, "subject": subject, "from": from, "created_ts": ts,
                "importance": importance, "ack_required": ack, "kind": "to"
            });
            if let Some(thread) = thread {
                row["thread_id"] = thread;
            }
            if let Some(status) = status {
                row["delivery_status"] = status;
            }
            row
        })
}

/// A row that may be malformed: a valid row with one field replaced or removed.
fn any_row() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => valid_row(),
        2 => (valid_row(), pick(&["id", "subject", "from", "created_ts", "importance", "ack_required", "thread_id", "delivery_status"]), prop::option::of(junk()))
            .prop_map(|(mut row, field, value)| {
                if let Some(map) = row.as_object_mut() {
                    match value {
                        Some(value) => { map.insert(field.to_string(), value); }
                        None => { map.remove(field); }
                    }
                }
                row
            }),
        1 => junk(),
    ]
}

fn contact_row() -> impl Strategy<Value = Value> {
    let valid = (
        pick(&["Alpha", "Beta", "Gamma"]),
        pick(&["approved", "pending", "denied"]),
        pick(&["r1", "r2"]),
        pick(&["t1", "t2"]),
        prop_oneof![
            Just(None),
            Just(Some(json!(""))),
            Just(Some(json!("e1"))),
            Just(Some(Value::Null))
        ],
    )
        .prop_map(|(to, status, reason, ts, expires)| {
            let mut row = json!({"to": to, "status": status, "reason": reason, "updated_ts": ts});
            if let Some(expires) = expires {
                row["expires_ts"] = expires;
            }
            row
        });
    prop_oneof![
        4 => valid,
        1 => (pick(&["to", "status", "reason", "updated_ts", "expires_ts"]), junk()).prop_map(|(field, value)| json!({ field: value })),
        1 => junk(),
    ]
}

fn wrap(rows: Vec<Value>, result_form: bool) -> String {
    if result_form {
        json!({ "meta": {"n": rows.len()}, "result": rows }).to_string()
    } else {
        Value::Array(rows).to_string()
    }
}

/// Payload text: well-formed (either form), cut short, with a byte flipped, or junk.
fn payload(rows: impl Strategy<Value = Vec<Value>>) -> impl Strategy<Value = String> {
    (
        rows,
        any::<bool>(),
        0usize..4,
        any::<prop::sample::Index>(),
        any::<u8>(),
    )
        .prop_map(|(rows, form, damage, at, byte)| {
            let text = wrap(rows, form);
            let cut = at.index(text.len().max(1));
            match damage {
                1 => text.get(..cut).unwrap_or_default().to_string(),
                2 => {
                    let mut bytes = text.into_bytes();
                    if let Some(slot) = bytes.get_mut(cut) {
                        *slot = byte;
                    }
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                _ => text,
            }
        })
}

fn mode() -> impl Strategy<Value = FilterMode> {
    prop::sample::select(FilterMode::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn messages_match_the_reference_model(text in payload(prop::collection::vec(any_row(), 0..6)), outbox in any::<bool>()) {
        let direction = if outbox { Direction::Outbox } else { Direction::Inbox };
        let source = direction.as_str();
        prop_assert_eq!(parse_messages(&text, source, direction), ref_messages(&text, source, direction));
    }

    #[test]
    fn contacts_match_the_reference_model(text in payload(prop::collection::vec(contact_row(), 0..6))) {
        prop_assert_eq!(parse_contacts(&text), ref_contacts(&text));
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,64}", thread in prop::option::of("[a-z]{0,2}"), mode in mode(), acked in prop::collection::vec(0u64..12, 0..4)) {
        let contract = pane::contract();
        let built = build_snapshot(&contract, &text, &text, &text, thread.as_deref(), mode, &acked);
        // A blank thread ("" here) is no thread.
        if mode == FilterMode::ThreadOnly && thread.as_deref().is_none_or(|t| t.trim().is_empty()) {
            prop_assert!(built.is_err());
        } else {
            let snap = built.expect("soft failures only");
            let failing = usize::from(parse_messages(&text, "inbox", Direction::Inbox).is_err())
                + usize::from(parse_messages(&text, "outbox", Direction::Outbox).is_err())
                + usize::from(parse_contacts(&text).is_err());
            prop_assert_eq!(snap.parse_errors.len(), failing);
            prop_assert!(serde_json::to_string(&snap).is_ok());
        }
    }

    #[test]
    fn snapshot_ignores_input_order(
        (inbox, inbox_shuffled) in prop::collection::vec(valid_row(), 0..10).prop_flat_map(|rows| (Just(rows.clone()), Just(rows).prop_shuffle())),
        (outbox, outbox_shuffled) in prop::collection::vec(valid_row(), 0..10).prop_flat_map(|rows| (Just(rows.clone()), Just(rows).prop_shuffle())),
        (contacts, contacts_shuffled) in prop::collection::vec(contact_row(), 0..5).prop_flat_map(|rows| (Just(rows.clone()), Just(rows).prop_shuffle())),
        thread in prop::option::of(pick(&["T1", "T2", "a", "zz"])),
        mode in mode(),
        acked in prop::collection::vec(0u64..12, 0..5),
    ) {
        prop_assume!(!(mode == FilterMode::ThreadOnly && thread.is_none()));
        let contract = pane::contract();
        let a = build_snapshot(&contract, &wrap(inbox, true), &wrap(outbox, false), &wrap(contacts, true), thread, mode, &acked);
        let mut reversed = acked.clone();
        reversed.reverse();
        let b = build_snapshot(&contract, &wrap(inbox_shuffled, false), &wrap(outbox_shuffled, true), &wrap(contacts_shuffled, false), thread, mode, &reversed);
        // Contact rows may be malformed: then both fail with an index that depends on order,
        // so compare everything but the texts of failing streams.
        let (mut a, mut b) = (a.expect("snapshot"), b.expect("snapshot"));
        if a.parse_errors.is_empty() && b.parse_errors.is_empty() {
            prop_assert_eq!(a, b);
        } else {
            a.parse_errors.clear();
            b.parse_errors.clear();
            a.events.retain(|e| e.event_kind != pane::EventKind::ParseFailure);
            b.events.retain(|e| e.event_kind != pane::EventKind::ParseFailure);
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn incremental_equals_rebuild(
        initial in prop::collection::vec(valid_row(), 0..8),
        batches in prop::collection::vec(prop::collection::vec(valid_row(), 0..40), 0..3),
        replies in prop::collection::vec(valid_row(), 0..3),
        outbox in prop::collection::vec(valid_row(), 0..6),
        contacts in prop::collection::vec(contact_row(), 0..4),
        new_contacts in prop::collection::vec(contact_row(), 0..3),
        acked in prop::collection::vec(0u64..12, 0..3),
        later_acks in prop::collection::vec(0u64..12, 0..3),
        thread in prop::option::of(pick(&["T1", "T2", "a"])),
        mode in mode(),
    ) {
        prop_assume!(!(mode == FilterMode::ThreadOnly && thread.is_none()));
        let contract = pane::contract();
        let contacts_text = wrap(contacts.clone(), true);
        let mut state = PaneState::new(contract.clone(), &wrap(initial.clone(), true), &wrap(outbox.clone(), false), &contacts_text, None, FilterMode::All, &acked).expect("state");
        let mut all_inbox = initial;
        for batch in &batches {
            prop_assert_eq!(state.add_inbox(&wrap(batch.clone(), false)), Ok(batch.len()));
            all_inbox.extend(batch.iter().cloned());
        }
        let mut all_outbox = outbox;
        for reply in &replies {
            prop_assert_eq!(state.add_outbox(&wrap(vec![reply.clone()], true)), Ok(1));
            all_outbox.push(reply.clone());
        }
        let mut all_contacts = contacts;
        let contacts_ok = parse_contacts(&contacts_text).is_ok();
        match state.add_contacts(&wrap(new_contacts.clone(), false)) {
            Ok(_) => all_contacts.extend(new_contacts.iter().cloned()),
            Err(_) => prop_assert!(parse_contacts(&wrap(new_contacts.clone(), false)).is_err()),
        }
        for id in &later_acks {
            state.acknowledge(*id);
        }
        state.set_view(thread, mode).expect("view");
        let all_acked: Vec<u64> = acked.iter().chain(&later_acks).copied().collect();
        let rebuilt = build_snapshot(&contract, &wrap(all_inbox, false), &wrap(all_outbox, true), &wrap(all_contacts, true), thread, mode, &all_acked).expect("rebuild");
        let incremental = state.snapshot().expect("snapshot");
        // A failed initial contacts stream stays failed, with the rebuild's text.
        prop_assert_eq!(incremental.parse_errors.is_empty(), contacts_ok);
        prop_assert_eq!(incremental, rebuilt);
    }
}

/// A payload as the servers put it on the wire: every envelope the adapters accept
/// (JSON-RPC with `structuredContent`, with only `content[0].text`, a resource's
/// `contents[0].text`, the fork's extra `{"result": ...}` layer, a bare tool result, the
/// payload itself).
fn envelopes(payload: &Value) -> Vec<String> {
    let text = payload.to_string();
    let rpc = |result: Value| json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string();
    vec![
        text.clone(),
        rpc(
            json!({"content": [{"type": "text", "text": text}], "structuredContent": payload, "isError": false}),
        ),
        rpc(json!({"content": [{"type": "text", "text": text}], "structuredContent": null})),
        rpc(
            json!({"contents": [{"uri": "resource://x", "mimeType": "application/json", "text": text}]}),
        ),
        rpc(json!({"structuredContent": {"result": payload}})),
        json!({"content": [{"type": "text", "text": json!({"result": payload}).to_string()}]})
            .to_string(),
    ]
}

/// Every reply decoder on one reply text; none may panic, and the typed rows feed the pane
/// (no hard error without a thread filter).
fn run_every_adapter(reply: &str) -> Result<(), TestCaseError> {
    let _ = adapters::reply_payload(reply);
    let pending = adapters::pending_ack_ids(reply).unwrap_or_default();
    let _ = adapters::acknowledged_message_id(reply);
    let rows = MailRow::rows(reply).unwrap_or_default();
    let contacts = Contact::rows(reply).unwrap_or_default();
    let acked = MailRow::acknowledged_ids(&rows, &pending);
    let snapshot = pane::build_snapshot_from_rows(
        &pane::contract(),
        &rows,
        &rows,
        &contacts,
        None,
        FilterMode::All,
        &acked,
    );
    prop_assert!(snapshot.is_ok(), "{:?}", snapshot.err());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn every_envelope_carries_the_same_payload(payload in junk(), rows in prop::collection::vec(any_row(), 0..4)) {
        for payload in [payload, Value::Array(rows.clone()), json!({"messages": rows})] {
            let expected = adapters::reply_payload(&payload.to_string());
            for reply in envelopes(&payload) {
                prop_assert_eq!(&adapters::reply_payload(&reply), &expected, "{}", reply);
            }
        }
    }

    #[test]
    fn adapters_never_panic_on_any_text(text in ".{0,64}") {
        run_every_adapter(&text)?;
    }

    #[test]
    fn adapters_never_panic_on_any_payload(payload in junk(), rows in prop::collection::vec(any_row(), 0..4)) {
        for payload in [payload, Value::Array(rows.clone()), json!({"messages": rows}), json!({"deliveries": [{"payload": rows}]})] {
            for reply in envelopes(&payload) {
                run_every_adapter(&reply)?;
            }
        }
    }

    #[test]
    fn rpc_and_tool_errors_are_reported_as_such(code in any::<i64>(), message in ".{0,24}") {
        let rpc = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}}).to_string();
        prop_assert_eq!(adapters::reply_payload(&rpc), Err(AdapterError::Rpc { code, message: message.clone() }));
        let tool = json!({"jsonrpc": "2.0", "id": 1, "result": {"isError": true, "content": [{"type": "text", "text": message}]}}).to_string();
        prop_assert_eq!(adapters::reply_payload(&tool), Err(AdapterError::Tool(message)));
    }

    #[test]
    fn timestamps_normalize_once_and_never_panic(text in ".{0,40}", date in "[0-9]{4}-[0-9]{2}-[0-9]{2}", time in "[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?") {
        let once = switchboard_core::agent_mail::normalize_timestamp(&text);
        prop_assert_eq!(switchboard_core::agent_mail::normalize_timestamp(&once), once.clone());
        let naive = format!("{date} {time}");
        prop_assert_eq!(switchboard_core::agent_mail::normalize_timestamp(&naive), format!("{date}T{time}+00:00"));
    }
}
