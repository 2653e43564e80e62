//! The reference's rules, one by one: upstream test cases, error texts, events.

mod pane_common;

use pane_common::{ref_contacts, ref_messages};
use serde_json::json;
use switchboard_core::pane::{
    self, build_snapshot, parse_contacts, parse_messages, Direction, EventKind, EventSource,
    FilterMode, PaneError,
};

fn inbox_err(raw: &str) -> String {
    parse_messages(raw, "inbox", Direction::Inbox).expect_err("must fail")
}

fn build(
    inbox: &str,
    outbox: &str,
    contacts: &str,
    thread: Option<&str>,
    mode: FilterMode,
    acked: &[u64],
) -> pane::Snapshot {
    build_snapshot(
        &pane::contract(),
        inbox,
        outbox,
        contacts,
        thread,
        mode,
        acked,
    )
    .expect("snapshot")
}

const ROW: &str = r#"{"id":1,"subject":"s","from":"A","created_ts":"t1","importance":"normal","ack_required":true}"#;

/// A contract mutation and the validation text it must produce.
type Case = (Box<dyn Fn(&mut pane::Contract)>, &'static str);

#[test]
fn contract_validates_and_rejects_with_reference_texts() {
    assert!(pane::validate_contract(&pane::contract()).is_ok());
    let cases: Vec<Case> = vec![
        (
            Box::new(|c| c.contract_version = "v2".into()),
            "unexpected contract_version v2",
        ),
        (
            Box::new(|c| c.reply_command = "  ".into()),
            "reply_command must be non-empty",
        ),
        (
            Box::new(|c| c.required_message_fields.clear()),
            "required_message_fields must be non-empty",
        ),
        (
            Box::new(|c| c.required_contact_fields.push(" ".into())),
            "required_contact_fields must not contain empty values",
        ),
        (
            Box::new(|c| c.event_taxonomy.push("ack_transition".into())),
            "event_taxonomy must be unique",
        ),
        (
            Box::new(|c| c.thread_filter_modes.reverse()),
            "thread_filter_modes must be lexically sorted",
        ),
        (
            Box::new(|c| c.required_message_fields.retain(|f| f != "id")),
            "required_message_fields missing id",
        ),
        (
            Box::new(|c| c.event_taxonomy.retain(|f| f != "snapshot_built")),
            "event_taxonomy missing snapshot_built",
        ),
    ];
    for (mutate, text) in cases {
        let mut contract = pane::contract();
        mutate(&mut contract);
        let err = pane::validate_contract(&contract).expect_err(text);
        assert_eq!(err.to_string(), text);
        let built = build_snapshot(&contract, "[]", "[]", "[]", None, FilterMode::All, &[]);
        assert_eq!(built.expect_err(text).to_string(), text);
    }
    // Extra members are allowed.
    let mut contract = pane::contract();
    contract.thread_filter_modes.push("zzz".into());
    assert!(pane::validate_contract(&contract).is_ok());
}

#[test]
fn filter_mode_parses_the_four_modes() {
    for mode in FilterMode::ALL {
        assert_eq!(mode.as_str().parse::<FilterMode>(), Ok(mode));
    }
    assert_eq!(
        "sideways"
            .parse::<FilterMode>()
            .expect_err("unknown")
            .to_string(),
        "unsupported thread_filter_mode sideways"
    );
}

#[test]
fn thread_only_fails_closed() {
    let err = build_snapshot(
        &pane::contract(),
        "[]",
        "[]",
        "[]",
        None,
        FilterMode::ThreadOnly,
        &[],
    );
    assert_eq!(err, Err(PaneError::ThreadOnlyRequiresActiveThread));
    assert_eq!(
        PaneError::ThreadOnlyRequiresActiveThread.to_string(),
        "thread_only filter requires active_thread"
    );
}

#[test]
fn a_blank_active_thread_is_absent() {
    let contract = pane::contract();
    let inbox = format!("[{ROW}]");
    for blank in ["", " ", "\t \n"] {
        // thread_only fails closed for every caller: build_snapshot, PaneState::new, set_view.
        let built = build_snapshot(
            &contract,
            &inbox,
            "[]",
            "[]",
            Some(blank),
            FilterMode::ThreadOnly,
            &[],
        );
        assert_eq!(
            built,
            Err(PaneError::ThreadOnlyRequiresActiveThread),
            "{blank:?}"
        );
        let state = pane::PaneState::new(
            contract.clone(),
            &inbox,
            "[]",
            "[]",
            Some(blank),
            FilterMode::ThreadOnly,
            &[],
        );
        assert_eq!(
            state.err(),
            Some(PaneError::ThreadOnlyRequiresActiveThread),
            "{blank:?}"
        );
        let mut state = pane::PaneState::new(
            contract.clone(),
            &inbox,
            "[]",
            "[]",
            None,
            FilterMode::All,
            &[],
        )
        .unwrap();
        assert_eq!(
            state.set_view(Some(blank), FilterMode::ThreadOnly),
            Err(PaneError::ThreadOnlyRequiresActiveThread)
        );
        // In the other modes a blank thread is no thread: the pane selects one itself.
        for mode in [
            FilterMode::All,
            FilterMode::AckRequired,
            FilterMode::UnackedOnly,
        ] {
            assert_eq!(
                build(&inbox, "[]", "[]", Some(blank), mode, &[]),
                build(&inbox, "[]", "[]", None, mode, &[]),
                "{blank:?} {mode}"
            );
            state.set_view(Some(blank), mode).unwrap();
            assert_eq!(
                state.snapshot().unwrap(),
                build(&inbox, "[]", "[]", None, mode, &[])
            );
        }
    }
}

#[test]
fn ack_required_variants_and_delivery_status() {
    let inbox = parse_messages(
        r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":true},
            {"id":2,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":0}]"#,
        "inbox",
        Direction::Inbox,
    )
    .expect("rows");
    assert!(inbox[0].ack_required);
    assert!(!inbox[1].ack_required);
    assert!(inbox
        .iter()
        .all(|m| m.delivery_status == "received" && !m.acknowledged));
    let outbox = parse_messages(
        r#"{"result":[{"id":3,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":1,"delivery_status":"sent"},
                      {"id":4,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":false,"delivery_status":"  "}]}"#,
        "outbox",
        Direction::Outbox,
    )
    .expect("rows");
    assert_eq!(outbox[0].delivery_status, "sent");
    assert_eq!(outbox[1].delivery_status, "sent");
}

#[test]
fn row_error_texts() {
    let cases = [
        (
            r#"[{"id":"1"}]"#,
            "parse_failure: inbox[0] field id must be an unsigned integer",
        ),
        (
            r#"[{"id":-1}]"#,
            "parse_failure: inbox[0] field id must be an unsigned integer",
        ),
        (
            r#"[{"id":1.0}]"#,
            "parse_failure: inbox[0] field id must be an unsigned integer",
        ),
        (r#"[{}]"#, "parse_failure: inbox[0] missing field id"),
        (r#"[7]"#, "parse_failure: inbox[0] missing field id"),
        (
            r#"[{"id":1}]"#,
            "parse_failure: inbox[0] missing field subject",
        ),
        (
            r#"[{"id":1,"subject":5}]"#,
            "parse_failure: inbox[0] field subject must be a string",
        ),
        (
            r#"[{"id":1,"subject":" \t"}]"#,
            "parse_failure: inbox[0] field subject must be non-empty",
        ),
        (
            r#"[{"id":1,"subject":"s","from":null}]"#,
            "parse_failure: inbox[0] field from must be a string",
        ),
        (
            r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":"true"}]"#,
            "parse_failure: inbox[0] field ack_required must be a bool or unsigned integer",
        ),
        (
            r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":2}]"#,
            "parse_failure: inbox[0] field ack_required must be 0 or 1 when numeric",
        ),
        (
            r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":-1}]"#,
            "parse_failure: inbox[0] field ack_required must be a bool or unsigned integer",
        ),
        (
            r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n"}]"#,
            "parse_failure: inbox[0] missing field ack_required",
        ),
        (
            r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":true,"thread_id":3}]"#,
            "parse_failure: inbox[0] field thread_id must be a string",
        ),
        (
            r#"{"rows":[]}"#,
            "parse_failure: inbox JSON must be an array or object containing result array",
        ),
        (
            r#"{"result":{}}"#,
            "parse_failure: inbox JSON must be an array or object containing result array",
        ),
        (
            r#""text""#,
            "parse_failure: inbox JSON must be an array or object containing result array",
        ),
        (
            "{not-json}",
            "parse_failure: inbox JSON: key must be a string at line 1 column 2",
        ),
        (
            "",
            "parse_failure: inbox JSON: EOF while parsing a value at line 1 column 0",
        ),
        (
            "[1,]",
            "parse_failure: inbox JSON: trailing comma at line 1 column 4",
        ),
        (
            "[] x",
            "parse_failure: inbox JSON: trailing characters at line 1 column 4",
        ),
        (
            "[1e999]",
            "parse_failure: inbox JSON: number out of range at line 1 column 6",
        ),
    ];
    for (raw, text) in cases {
        assert_eq!(inbox_err(raw), text, "payload {raw}");
        assert_eq!(
            ref_messages(raw, "inbox", Direction::Inbox).expect_err(raw),
            text
        );
    }
    // The first failing row (by input index) fails the whole stream.
    let raw = format!("[{ROW},{{\"id\":2}},{{\"id\":\"x\"}}]");
    assert_eq!(
        inbox_err(&raw),
        "parse_failure: inbox[1] missing field subject"
    );
}

#[test]
fn deep_nesting_fails_like_value() {
    let deep = format!("[{}{}]", "[".repeat(200), "]".repeat(200));
    let ours = inbox_err(&deep);
    assert_eq!(
        Err(ours.clone()),
        ref_messages(&deep, "inbox", Direction::Inbox)
    );
    assert!(ours.contains("recursion limit exceeded"), "{ours}");
}

#[test]
fn duplicate_keys_keep_the_last_value_like_value() {
    let raw = r#"{"result":[], "result":[{"id":"x","id":5,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":1}]}"#;
    let ours = parse_messages(raw, "inbox", Direction::Inbox).expect("rows");
    assert_eq!(
        Ok(ours.clone()),
        ref_messages(raw, "inbox", Direction::Inbox)
    );
    assert_eq!(ours[0].id, 5);
    let escaped = r#"[{"\u0069d":9,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":true}]"#;
    assert_eq!(
        parse_messages(escaped, "inbox", Direction::Inbox).expect("rows")[0].id,
        9
    );
}

#[test]
fn contacts_sort_and_optional_fields() {
    let raw = r#"[{"to":"Zulu","status":"approved","reason":"r","updated_ts":"t","expires_ts":""},
                  {"to":"Alpha","status":"pending","reason":"r","updated_ts":"t"}]"#;
    let rows = parse_contacts(raw).expect("rows");
    assert_eq!(rows[0].peer, "Alpha");
    assert_eq!(rows[1].peer, "Zulu");
    assert_eq!(rows[1].expires_ts, None);
    assert_eq!(Ok(rows), ref_contacts(raw));
    assert_eq!(
        parse_contacts(r#"[{"status":"approved"}]"#),
        Err("parse_failure: contacts[0] missing field to".to_string())
    );
}

fn inbox_fixture() -> String {
    json!([
        {"id":2449,"subject":"a","from":"BlackElk","created_ts":"2026-02-27T19:14","importance":"normal","ack_required":true,"thread_id":"coord"},
        {"id":2466,"subject":"b","from":"Sapphire","created_ts":"2026-02-27T19:59","importance":"normal","ack_required":false,"thread_id":"asup"}
    ])
    .to_string()
}

#[test]
fn ack_and_thread_filter() {
    let outbox = r#"[{"id":2507,"subject":"re","from":"V","created_ts":"2026-02-27T23:52","importance":"normal","ack_required":0,"thread_id":"coord"}]"#;
    let snap = build(
        &inbox_fixture(),
        outbox,
        "[]",
        Some("coord"),
        FilterMode::ThreadOnly,
        &[2449],
    );
    assert_eq!(snap.pending_ack_count, 0);
    assert_eq!(snap.thread_messages.len(), 2);
    let ack = snap
        .events
        .iter()
        .find(|e| e.event_kind == EventKind::AckTransition)
        .expect("ack event");
    assert_eq!(ack.message_id, Some(2449));
    assert_eq!(ack.message, "message 2449 acknowledged");
    assert_eq!(ack.thread_id.as_deref(), Some("coord"));
}

#[test]
fn unacked_only_adds_ack_replay_and_no_reply_without_thread() {
    let snap = build(
        &inbox_fixture(),
        "[]",
        "[]",
        None,
        FilterMode::UnackedOnly,
        &[],
    );
    assert_eq!(snap.pending_ack_count, 1);
    assert_eq!(snap.inbox.len(), 1);
    // The derived thread is the smallest visible thread id, so reply is offered.
    assert_eq!(snap.active_thread.as_deref(), Some("coord"));
    let contract = pane::contract();
    assert!(snap.replay_commands.contains(&contract.acknowledge_command));
    let empty = build("[]", "[]", "[]", None, FilterMode::All, &[]);
    assert_eq!(empty.replay_commands.len(), 3);
    assert_eq!(
        empty.refresh_fingerprint,
        "filter=all;thread=-;inbox=;outbox=;contacts="
    );
    assert_eq!(empty.active_thread, None);
}

#[test]
fn pending_ack_count_is_computed_before_filtering() {
    let snap = build(
        &inbox_fixture(),
        "[]",
        "[]",
        Some("asup"),
        FilterMode::ThreadOnly,
        &[],
    );
    assert_eq!(snap.inbox.len(), 1);
    assert_eq!(snap.pending_ack_count, 1);
}

#[test]
fn parse_failures_and_delivery_failure_events() {
    let outbox = r#"[{"id":4001,"subject":"s","from":"V","created_ts":"t","importance":"high","ack_required":false,"delivery_status":"failed","thread_id":"x"}]"#;
    let snap = build(
        &inbox_fixture(),
        outbox,
        "{not-json}",
        None,
        FilterMode::All,
        &[],
    );
    assert_eq!(
        snap.parse_errors,
        vec!["parse_failure: contacts JSON: key must be a string at line 1 column 2"]
    );
    let kinds: Vec<_> = snap
        .events
        .iter()
        .map(|e| (e.event_kind, e.source))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (EventKind::CommandInvoked, EventSource::Inbox),
            (EventKind::CommandInvoked, EventSource::Outbox),
            (EventKind::CommandInvoked, EventSource::Contacts),
            (EventKind::ParseFailure, EventSource::Contacts),
            (EventKind::DeliveryFailure, EventSource::Outbox),
            (EventKind::ThreadViewUpdated, EventSource::Thread),
            (EventKind::SnapshotBuilt, EventSource::Snapshot),
        ]
    );
    assert_eq!(snap.events[4].message, "message 4001 delivery failed");
    assert_eq!(
        snap.events.last().expect("built").message,
        "inbox=2 outbox=1 thread=1 contacts=0 pending_ack=1 errors=1"
    );
    assert_eq!(
        snap.refresh_fingerprint,
        "filter=all;thread=asup;inbox=2449:false,2466:true;outbox=4001:failed;contacts="
    );
}

#[test]
fn every_stream_failing_keeps_order_and_continuity_gap() {
    let snap = build(
        "[{",
        "{\"result\":3}",
        "[{\"to\":1}]",
        Some("t"),
        FilterMode::All,
        &[],
    );
    assert_eq!(snap.parse_errors.len(), 3);
    assert_eq!(
        snap.parse_errors[0],
        "parse_failure: inbox JSON: EOF while parsing an object at line 1 column 2"
    );
    assert_eq!(
        snap.parse_errors[1],
        "parse_failure: outbox JSON must be an array or object containing result array"
    );
    assert_eq!(
        snap.parse_errors[2],
        "parse_failure: contacts[0] field to must be a string"
    );
    let gap = &snap.events[6];
    assert_eq!(gap.event_kind, EventKind::ThreadContinuityGap);
    assert_eq!(gap.thread_id.as_deref(), Some("t"));
    assert_eq!(
        gap.message,
        "active thread has no visible messages in current snapshot"
    );
}

#[test]
fn contact_attention_and_ack_event_repeats_every_build() {
    let contacts = r#"[{"to":"B","status":"approved","reason":"r","updated_ts":"t"},{"to":"A","status":"denied","reason":"r","updated_ts":"t"}]"#;
    let snap = build(
        &inbox_fixture(),
        "[]",
        contacts,
        None,
        FilterMode::All,
        &[2449, 2466, 99],
    );
    let attention: Vec<_> = snap
        .events
        .iter()
        .filter(|e| e.event_kind == EventKind::ContactAttentionRequired)
        .collect();
    assert_eq!(attention.len(), 1);
    assert_eq!(attention[0].message, "contact A is in denied state");
    // 2466 is not ack_required: no transition event for it.
    let acks = snap
        .events
        .iter()
        .filter(|e| e.event_kind == EventKind::AckTransition)
        .count();
    assert_eq!(acks, 1);
}

#[test]
fn outbox_ack_required_rows_stay_unacknowledged() {
    let outbox = r#"[{"id":5,"subject":"s","from":"V","created_ts":"t","importance":"high","ack_required":1}]"#;
    let snap = build("[]", outbox, "[]", None, FilterMode::UnackedOnly, &[5]);
    assert_eq!(snap.outbox.len(), 1);
    assert!(!snap.outbox[0].acknowledged);
    assert_eq!(snap.pending_ack_count, 0);
}

#[test]
fn tricky_payloads_match_the_reference_model() {
    let row =
        r#""id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":true"#;
    let cases = [
        format!(r#"[{{{row},"x":"\ud800"}}]"#),
        format!(r#"[{{{row},"x":"\ud800\udc00"}}]"#),
        format!(r#"[{{{row},"x":1e400}}]"#),
        format!(r#"[{{{row},"x":-0}}]"#),
        format!(r#"[{{{row},"x":18446744073709551616}}]"#),
        r#"[{"id":18446744073709551615,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":true}]"#.to_string(),
        r#"[{"id":-0,"subject":"s"}]"#.to_string(),
        r#"[{"id":1,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":1.0}]"#.to_string(),
        format!(r#"{{"result":[{{{row}}}],"result":"x"}}"#),
        format!(r#"{{"result":"x","result":[{{{row}}}]}}"#),
        format!("\u{feff}[{{{row}}}]"),
        format!(" \n\t[{{{row}}}] \n"),
        format!(r#"[{{{row},"subject":"\u0020"}}]"#),
        format!(r#"[{{{row},"thread_id":"\u00a0"}}]"#),
    ];
    for raw in &cases {
        for direction in [Direction::Inbox, Direction::Outbox] {
            assert_eq!(
                parse_messages(raw, direction.as_str(), direction),
                ref_messages(raw, direction.as_str(), direction),
                "{raw}"
            );
        }
    }
}
