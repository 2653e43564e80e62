//! One Agent Mail decoder: every former decoder path, kept here verbatim as the model, compared
//! with the one row decoder on generated rows.
//!
//! Before, four places read row members and disagreed: `Envelope::decode` (sender also from
//! `sender_id`, time also from `timestamp`, no `cc`), `MailRow::from_value` (`to` + `cc`, numeric
//! thread ids and senders, untrimmed texts), the pane's canonical rows (the first member
//! present, raw), and the ack flag three times (envelope, `MailRow`, the pane's strict
//! coercion). Now:
//! - the envelope is the former envelope, with `cc` read, naive times normalized and a
//!   numeric thread id read ([`adjusted_envelope`] applies exactly these to the model);
//! - `MailRow` and `Envelope` agree on every member they share, and `Envelope::from_row` of a
//!   decoded row is the envelope of the row's JSON;
//! - where the former `MailRow` read a member as text the former envelope also read, the row
//!   reads it alike;
//! - pane rows: the pane fed typed rows gives the snapshot its text contract gives for the
//!   rows' own members; wherever the former canonical rows (the text the pane was fed) parsed,
//!   the typed rows parse too, to the same messages (their members read as the decoder reads
//!   them: trimmed, naive times normalized, numeric thread ids);
//! - the ack flag: the pane's strict coercion and the lenient flag are the former ones.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use switchboard_core::agent_mail::{normalize_timestamp, Envelope, MailRow};
use switchboard_core::pane::{self, parse_messages, Direction, FilterMode};
use switchboard_core::protocol::Options;
use switchboard_core::time::Timestamp;

/// The transport members of the former `Envelope::decode` (agent_mail/mod.rs).
#[derive(Debug, Clone, PartialEq)]
struct OldEnvelope {
    id: Option<u64>,
    thread_id: Option<String>,
    from: Option<String>,
    to: Vec<String>,
    subject: Option<String>,
    created_ts: Option<String>,
    importance: Option<String>,
    ack_required: bool,
    acknowledged: bool,
    ack_at: Option<Timestamp>,
}

fn old_recipient_names(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Model: the former `Envelope::decode` member rules, verbatim.
fn old_envelope(obj: &Map<String, Value>) -> OldEnvelope {
    let text = |v: Option<&Value>| -> Option<String> {
        v.and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let g = |k: &str| obj.get(k);
    let from = text(g("from"))
        .or_else(|| text(g("sender_name")))
        .or_else(|| text(g("sender")))
        .or_else(|| text(g("sender_id")));
    let to = match g("to").or(g("recipients")) {
        Some(Value::String(s)) => old_recipient_names(s),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let created_ts = text(g("created_ts"))
        .or_else(|| text(g("created")))
        .or_else(|| text(g("timestamp")));
    let ack_ts = text(g("ack_ts"));
    let ack_at = ack_ts.as_deref().and_then(Timestamp::parse);
    let acknowledged = ack_ts.is_some() || g("acknowledged").and_then(Value::as_bool) == Some(true);
    let ack_required = match g("ack_required") {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_u64() == Some(1),
        _ => false,
    };
    OldEnvelope {
        id: g("id").and_then(Value::as_u64),
        thread_id: text(g("thread_id")).or_else(|| text(g("session_id"))),
        from,
        to,
        subject: text(g("subject")),
        created_ts,
        importance: text(g("importance")),
        ack_required,
        acknowledged,
        ack_at,
    }
}

/// The former envelope with the three documented changes: `cc` read after the recipients,
/// naive times normalized, a numeric `thread_id` read as text.
fn adjusted_envelope(obj: &Map<String, Value>) -> OldEnvelope {
    let mut e = old_envelope(obj);
    match obj.get("cc") {
        Some(Value::String(s)) => e.to.extend(old_recipient_names(s)),
        Some(Value::Array(items)) => e.to.extend(
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        ),
        _ => {}
    }
    e.created_ts = e.created_ts.as_deref().map(normalize_timestamp);
    let numeric = |k: &str| obj.get(k).and_then(Value::as_u64);
    let text = |k: &str| {
        obj.get(k)
            .and_then(Value::as_str)
            .is_some_and(|t| !t.trim().is_empty())
    };
    if let Some(n) = numeric("thread_id") {
        e.thread_id = Some(n.to_string());
    } else if let (false, Some(n)) = (text("thread_id"), numeric("session_id")) {
        e.thread_id = Some(n.to_string());
    }
    e
}

fn envelope_members(e: &Envelope) -> OldEnvelope {
    OldEnvelope {
        id: e.id,
        thread_id: e.thread_id.clone(),
        from: e.from.clone(),
        to: e.to.clone(),
        subject: e.subject.clone(),
        created_ts: e.created_ts.clone(),
        importance: e.importance.clone(),
        ack_required: e.ack_required,
        acknowledged: e.acknowledged,
        ack_at: e.ack_at,
    }
}

/// Model: the former `MailRow::from_value` (agent_mail/replies.rs), verbatim, as
/// `(id, thread_id, from, to, subject, created_ts, importance, ack_required, acknowledged)`.
type OldRow = (
    u64,
    Option<String>,
    String,
    Vec<String>,
    String,
    String,
    String,
    bool,
    bool,
);

fn old_mail_row(row: &Value) -> Option<OldRow> {
    let text_of = |keys: &[&str]| -> String {
        keys.iter()
            .find_map(|key| match row.get(*key) {
                Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                _ => None,
            })
            .unwrap_or_default()
    };
    let id = row.get("id").and_then(Value::as_u64)?;
    let mut to: Vec<String> = Vec::new();
    for key in ["to", "cc"] {
        if let Some(Value::Array(names)) = row.get(key) {
            to.extend(names.iter().filter_map(Value::as_str).map(str::to_string));
        }
    }
    if to.is_empty() {
        if let Some(Value::String(list)) = row.get("recipients") {
            to = old_recipient_names(list);
        }
    }
    let thread = text_of(&["thread_id"]);
    let ack_required = matches!(row.get("ack_required"), Some(Value::Bool(true)))
        || row.get("ack_required").and_then(Value::as_u64) == Some(1);
    Some((
        id,
        (!thread.is_empty()).then_some(thread),
        text_of(&["from", "sender_name", "sender"]),
        to,
        text_of(&["subject"]),
        normalize_timestamp(&text_of(&["created_ts", "created"])),
        text_of(&["importance"]),
        ack_required,
        row.get("ack_ts").is_some_and(|ts| !ts.is_null())
            || row.get("acknowledged").and_then(Value::as_bool) == Some(true),
    ))
}

/// Model: the former canonical pane row (agent_mail/replies.rs `canonical_message`), verbatim.
fn old_canonical(row: Value, outbox: bool, unified: bool) -> Value {
    fn take_first(row: &mut Map<String, Value>, keys: &[&str]) -> Option<Value> {
        keys.iter().find_map(|key| row.remove(*key))
    }
    let Value::Object(mut row) = row else {
        return row;
    };
    let mut out = Map::new();
    for key in ["id", "subject"] {
        if let Some(value) = row.remove(key) {
            out.insert(key.to_string(), value);
        }
    }
    if let Some(from) = take_first(&mut row, &["from", "sender_name", "sender"]) {
        out.insert("from".to_string(), from);
    }
    if let Some(created) = take_first(&mut row, &["created_ts", "created"]) {
        let created = match created {
            Value::String(text) if unified => Value::String(normalize_timestamp(&text)),
            other => other,
        };
        out.insert("created_ts".to_string(), created);
    }
    if let Some(importance) = row.remove("importance") {
        out.insert("importance".to_string(), importance);
    }
    match row.remove("ack_required") {
        Some(value) => {
            out.insert("ack_required".to_string(), value);
        }
        None if unified => {
            out.insert("ack_required".to_string(), Value::Bool(false));
        }
        None => {}
    }
    out.insert(
        "thread_id".to_string(),
        row.remove("thread_id").unwrap_or(Value::Null),
    );
    if outbox {
        out.insert(
            "delivery_status".to_string(),
            row.remove("delivery_status")
                .unwrap_or_else(|| Value::String("sent".to_string())),
        );
    }
    Value::Object(out)
}

/// Model: the pane's former strict `ack_required` coercion (pane/parse.rs `bool_or_binary`).
fn old_pane_flag(value: &Value) -> Result<bool, &'static str> {
    match value {
        Value::Bool(flag) => Ok(*flag),
        Value::Number(n) => match n.as_u64() {
            Some(0) => Ok(false),
            Some(1) => Ok(true),
            Some(_) => Err("must be 0 or 1 when numeric"),
            None => Err("must be a bool or unsigned integer"),
        },
        _ => Err("must be a bool or unsigned integer"),
    }
}

const KEYS: &[&str] = &[
    "id",
    "thread_id",
    "session_id",
    "from",
    "sender_name",
    "sender",
    "sender_id",
    "to",
    "cc",
    "recipients",
    "subject",
    "created_ts",
    "created",
    "timestamp",
    "ack_ts",
    "acknowledged",
    "ack_required",
    "importance",
    "delivery_status",
    "project",
];

/// A member value: mostly what servers write, sometimes anything.
fn member_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => prop::sample::select(vec![
            json!("BlueLake"),
            json!(" GreenCastle "),
            json!("Blue, Green ,, "),
            json!("2026-11-21T04:46:40.193112+00:00"),
            json!("2026-11-21 04:46:40.193112"),
            json!("2026-03-02T09:00:00Z"),
            json!("FEAT-1"),
            json!("high"),
            json!("CONTRACT_FINAL"),
            json!(["BlueLake", " ", 3, "RedStone"]),
            json!(["GreenCastle"]),
            json!(true),
            json!(false),
            json!(0),
            json!(1),
            json!(12),
        ]),
        1 => prop::sample::select(vec![
            json!(null),
            json!(""),
            json!("   "),
            json!(2),
            json!(-1),
            json!(1.5),
            json!("1"),
            json!([]),
            json!({"k": 1}),
        ]),
    ]
}

fn body() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!({"phase": "CONTRACT_GENERATION", "reason": "r", "status": "ABORTED", "cleanup_required": true}).to_string(),
        "just words".to_owned(),
        "{ broken".to_owned(),
        String::new(),
    ])
    .prop_map(Value::String)
}

/// A row: members from [`KEYS`] (each at most once), usually an id and a body.
fn row() -> impl Strategy<Value = Map<String, Value>> {
    (
        prop::collection::btree_map(prop::sample::select(KEYS), member_value(), 0..12),
        prop::option::weighted(0.9, 0u64..50),
        prop::option::weighted(0.8, body()),
    )
        .prop_map(|(members, id, body)| {
            let mut row: Map<String, Value> = members
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            if let Some(id) = id {
                row.insert("id".into(), json!(id));
            }
            if let Some(body) = body {
                row.insert("body_md".into(), body);
            }
            row
        })
}

/// A row the former canonical path would hand the pane whole: every required member a
/// non-blank string under its first name, the flag a boolean or 0/1.
fn clean_row() -> impl Strategy<Value = Map<String, Value>> {
    (
        0u64..50,
        prop::sample::select(vec!["from", "sender_name", "sender"]),
        prop::sample::select(vec!["BlueLake", "GreenCastle"]),
        prop::sample::select(vec!["created_ts", "created"]),
        prop::sample::select(vec!["2026-11-21T04:46:40+00:00", "2026-03-02T09:00:00Z"]),
        prop::sample::select(vec![json!(true), json!(false), json!(0), json!(1)]),
        prop::sample::select(vec![json!(null), json!("FEAT-1"), json!("")]),
        prop::sample::select(vec!["normal", "high"]),
    )
        .prop_map(
            |(id, sender_key, sender, created_key, created, ack, thread, importance)| {
                let mut row = Map::new();
                row.insert("id".into(), json!(id));
                row.insert("subject".into(), json!("CONTRACT_FINAL"));
                row.insert(sender_key.into(), json!(sender));
                row.insert(created_key.into(), json!(created));
                row.insert("importance".into(), json!(importance));
                row.insert("ack_required".into(), ack);
                row.insert("thread_id".into(), thread);
                row
            },
        )
}

/// The pane's text contract rows holding exactly the typed rows' members (a blank text is
/// absent, as the typed feed reads it).
fn own_text(rows: &[MailRow]) -> String {
    let rows: Vec<Value> = rows
        .iter()
        .map(|m| {
            let mut row = Map::new();
            row.insert("id".into(), json!(m.id));
            for (key, text) in [
                ("subject", &m.subject),
                ("from", &m.from),
                ("created_ts", &m.created_ts),
                ("importance", &m.importance),
            ] {
                if !text.is_empty() {
                    row.insert(key.into(), json!(text));
                }
            }
            row.insert("ack_required".into(), json!(m.ack_required));
            row.insert("thread_id".into(), json!(m.thread_id));
            Value::Object(row)
        })
        .collect();
    Value::Array(rows).to_string()
}

/// The pane-rows property: the pane fed typed rows gives the snapshot its text contract gives
/// for the rows' own members (in its order, exactly), and wherever the former canonical text
/// parsed, the typed rows parse too, to the same messages. The order of the messages is not
/// compared with the former text's: the pane orders by `created_ts`, which the decoder trims
/// and normalizes (a documented change), so the former untrimmed or naive times may sort
/// otherwise.
fn pane_rows_agree(rows: Vec<Map<String, Value>>) -> Result<(), TestCaseError> {
    // A row without an id is no row to the typed decoder: the stream is the others.
    let (rows, typed): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .filter_map(|r| Some((r.clone(), MailRow::from_value(&Value::Object(r)).ok()?)))
        .unzip();
    let contract = pane::contract();
    let snapshot = |text: &str| {
        pane::build_snapshot(&contract, text, "[]", "[]", None, FilterMode::All, &[]).unwrap()
    };
    let from_rows =
        pane::build_snapshot_from_rows(&contract, &typed, &[], &[], None, FilterMode::All, &[])
            .unwrap();
    // The pane's two feeds agree on the same members.
    prop_assert_eq!(&snapshot(&own_text(&typed)), &from_rows);
    // Where the former canonical text parsed, the typed rows parse, to the same messages.
    let old_text = Value::Array(
        rows.iter()
            .cloned()
            .map(|r| old_canonical(Value::Object(r), false, false))
            .collect(),
    )
    .to_string();
    let old = snapshot(&old_text);
    if old.parse_errors.is_empty() {
        prop_assert!(
            from_rows.parse_errors.is_empty(),
            "{:?}",
            from_rows.parse_errors
        );
        let ids = |s: &pane::Snapshot| {
            let mut ids = s.inbox.iter().map(|m| m.id).collect::<Vec<_>>();
            ids.sort_unstable();
            ids
        };
        prop_assert_eq!(ids(&old), ids(&from_rows));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn the_envelope_is_the_former_one_with_the_documented_changes(row in row()) {
        let value = Value::Object(row.clone());
        let e = Envelope::decode(0, value.clone(), &Options::default());
        prop_assert_eq!(envelope_members(&e), adjusted_envelope(&row));
        // From bytes, the same.
        let bytes = serde_json::to_vec(&value).unwrap();
        prop_assert_eq!(Envelope::decode_slice(0, &bytes, &Options::default()), e);
    }

    #[test]
    fn rows_and_envelopes_agree(row in row()) {
        let value = Value::Object(row.clone());
        let e = Envelope::decode(0, value.clone(), &Options::default());
        let Ok(m) = MailRow::from_value(&value) else {
            prop_assert_eq!(e.id, None);
            prop_assert_eq!(old_mail_row(&value), None);
            return Ok(());
        };
        let text = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        prop_assert_eq!(Some(m.id), e.id);
        prop_assert_eq!(&m.thread_id, &e.thread_id);
        prop_assert_eq!(text(&m.from), e.from.clone());
        prop_assert_eq!(&m.to, &e.to);
        prop_assert_eq!(text(&m.subject), e.subject.clone());
        prop_assert_eq!(text(&m.created_ts), e.created_ts.clone());
        prop_assert_eq!(text(&m.importance), e.importance.clone());
        prop_assert_eq!((m.ack_required, m.acknowledged), (e.ack_required, e.acknowledged));
        // A decoded row gives the envelope of its JSON.
        if row.get("body_md").is_some_and(Value::is_string) {
            prop_assert_eq!(Envelope::from_row(0, &m, &Options::default()), e);
        }
        // Where the former row read a member as text the former envelope read too, alike.
        let old = old_mail_row(&value).expect("an id");
        let o = old_envelope(&row);
        if o.from.as_deref() == Some(old.2.as_str()) {
            prop_assert_eq!(&m.from, &old.2);
        }
        if o.subject.as_deref() == Some(old.4.as_str()) {
            prop_assert_eq!(&m.subject, &old.4);
        }
        if o.importance.as_deref() == Some(old.6.as_str()) {
            prop_assert_eq!(&m.importance, &old.6);
        }
        prop_assert_eq!(m.ack_required, old.7);
        if row.get("cc").is_none() && o.to == old.3 {
            prop_assert_eq!(&m.to, &old.3);
        }
    }

    #[test]
    fn pane_rows_parse_wherever_they_did(rows in prop::collection::vec(prop_oneof![row(), clean_row()], 0..5)) {
        pane_rows_agree(rows)?;
    }

    #[test]
    fn the_ack_flag_is_the_former_one(flag in member_value()) {
        let row = json!({"id": 1, "subject": "s", "from": "a", "created_ts": "t", "importance": "normal", "ack_required": flag});
        let pane_rows = parse_messages(&Value::Array(vec![row.clone()]).to_string(), "inbox", Direction::Inbox);
        match old_pane_flag(&flag) {
            Ok(expected) => prop_assert_eq!(pane_rows.map(|r| r[0].ack_required), Ok(expected)),
            Err(what) => prop_assert_eq!(pane_rows, Err(format!("parse_failure: inbox[0] field ack_required {what}"))),
        }
        let lenient = old_envelope(row.as_object().unwrap()).ack_required;
        prop_assert_eq!(Envelope::decode(0, row.clone(), &Options::default()).ack_required, lenient);
        prop_assert_eq!(MailRow::from_value(&row).unwrap().ack_required, lenient);
    }
}

/// The case the former form of `pane_rows_parse_wherever_they_did` failed on (it compared the
/// former canonical text with the decoder's rows member for member): a padded sender is
/// trimmed by the one decoder, a documented change, where the former text kept the spaces.
#[test]
fn a_padded_sender_reads_trimmed_in_the_pane() {
    let row = json!({"ack_required": true, "created_ts": "BlueLake", "from": " GreenCastle ",
        "importance": "BlueLake", "subject": "BlueLake", "id": 0});
    let contract = pane::contract();
    let typed = vec![MailRow::from_value(&row).unwrap()];
    let from_rows =
        pane::build_snapshot_from_rows(&contract, &typed, &[], &[], None, FilterMode::All, &[])
            .unwrap();
    assert_eq!(from_rows.inbox[0].from, "GreenCastle");
    let old_text = Value::Array(vec![old_canonical(row, false, false)]).to_string();
    let old =
        pane::build_snapshot(&contract, &old_text, "[]", "[]", None, FilterMode::All, &[]).unwrap();
    assert_eq!(old.inbox[0].from, " GreenCastle ");
}

/// A case the former form of `pane_rows_parse_wherever_they_did` failed on (it compared the
/// order of the messages with the former canonical text's): the pane orders by `created_ts`,
/// which the decoder trims, so a padded time that sorted first as the former text wrote it
/// sorts by its text once trimmed. The same messages, in another order.
#[test]
fn a_padded_time_sorts_trimmed_in_the_pane() {
    let row = |id: u64, created: &str| {
        json!({"id": id, "subject": "BlueLake", "from": " GreenCastle ", "created_ts": created,
            "importance": "BlueLake", "ack_required": true})
    };
    let rows = [row(1, " GreenCastle "), row(0, "BlueLake")];
    let typed: Vec<MailRow> = rows
        .iter()
        .map(|r| MailRow::from_value(r).unwrap())
        .collect();
    let contract = pane::contract();
    let from_rows =
        pane::build_snapshot_from_rows(&contract, &typed, &[], &[], None, FilterMode::All, &[])
            .unwrap();
    let old_text = Value::Array(
        rows.iter()
            .map(|r| old_canonical(r.clone(), false, false))
            .collect(),
    )
    .to_string();
    let old =
        pane::build_snapshot(&contract, &old_text, "[]", "[]", None, FilterMode::All, &[]).unwrap();
    let ids = |s: &pane::Snapshot| s.inbox.iter().map(|m| m.id).collect::<Vec<_>>();
    assert_eq!(ids(&old), [1, 0]);
    assert_eq!(ids(&from_rows), [0, 1]);
    assert_eq!(from_rows.inbox[1].created_ts, "GreenCastle");
    let rows = rows.map(|r| r.as_object().unwrap().clone());
    pane_rows_agree(rows.to_vec()).unwrap();
}
