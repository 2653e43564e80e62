//! The smoke transcript against the reference's own golden, library and CLI.

use serde_json::Value;
use switchboard_core::pane::{self, FilterMode};

const GOLDEN: &str = include_str!("fixtures/pane-smoke/transcript.json");
const CONTRACT_JSON: &str = include_str!("fixtures/pane-smoke/contract.json");

#[test]
fn smoke_transcript_equals_reference_golden() {
    let transcript = pane::run_smoke(&pane::contract()).expect("valid contract");
    let ours = serde_json::to_value(&transcript).expect("serializable");
    let golden: Value = serde_json::from_str(GOLDEN).expect("golden is JSON");
    assert_eq!(ours, golden);
}

#[test]
fn smoke_key_order_equals_reference() {
    // preserve_order keeps object key order, so the text itself must match.
    let transcript = pane::run_smoke(&pane::contract()).expect("valid contract");
    let ours = serde_json::to_string_pretty(&transcript).expect("serializable");
    let golden: Value = serde_json::from_str(GOLDEN).expect("golden is JSON");
    assert_eq!(
        ours,
        serde_json::to_string_pretty(&golden).expect("serializable")
    );
}

#[test]
fn smoke_is_deterministic() {
    let a = pane::run_smoke(&pane::contract()).expect("valid contract");
    let b = pane::run_smoke(&pane::contract()).expect("valid contract");
    assert_eq!(a, b);
    assert_eq!(a.steps.len(), 3);
    assert_eq!(a.steps[0].snapshot.pending_ack_count, 1);
    assert_eq!(a.steps[1].snapshot.pending_ack_count, 0);
    assert_eq!(a.steps[2].snapshot.thread_messages.len(), 2);
}

#[test]
fn contract_matches_reference_serialization() {
    let golden: Value = serde_json::from_str(CONTRACT_JSON).expect("JSON");
    assert_eq!(
        serde_json::to_value(pane::contract()).expect("serializable"),
        golden
    );
    let round: pane::Contract = serde_json::from_str(CONTRACT_JSON).expect("round trip");
    assert_eq!(round, pane::contract());
    assert!(pane::validate_contract(&round).is_ok());
}

#[test]
fn smoke_fixture_files_match_embedded_inputs() {
    for (embedded, file) in [
        (
            pane::SMOKE_INBOX,
            include_str!("fixtures/pane-smoke/inbox.json"),
        ),
        (
            pane::SMOKE_CONTACTS,
            include_str!("fixtures/pane-smoke/contacts.json"),
        ),
        (
            pane::SMOKE_OUTBOX_BEFORE_REPLY,
            include_str!("fixtures/pane-smoke/outbox_before_reply.json"),
        ),
        (
            pane::SMOKE_OUTBOX_AFTER_REPLY,
            include_str!("fixtures/pane-smoke/outbox_after_reply.json"),
        ),
    ] {
        assert_eq!(embedded, file);
    }
}

#[test]
fn scenario_file_drives_the_same_transcript() {
    let scenario: Value =
        serde_json::from_str(include_str!("fixtures/pane-smoke/scenario.json")).expect("JSON");
    let golden: Value = serde_json::from_str(GOLDEN).expect("JSON");
    let file = |name: &str| match name {
        "inbox.json" => pane::SMOKE_INBOX,
        "outbox_before_reply.json" => pane::SMOKE_OUTBOX_BEFORE_REPLY,
        "outbox_after_reply.json" => pane::SMOKE_OUTBOX_AFTER_REPLY,
        "contacts.json" => pane::SMOKE_CONTACTS,
        other => panic!("unknown fixture {other}"),
    };
    for (index, step) in scenario["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .enumerate()
    {
        let acked: Vec<u64> = step["acknowledged_message_ids"]
            .as_array()
            .expect("ids")
            .iter()
            .map(|id| id.as_u64().expect("u64"))
            .collect();
        let mode: FilterMode = step["thread_filter_mode"]
            .as_str()
            .expect("mode")
            .parse()
            .expect("mode");
        let snapshot = pane::build_snapshot(
            &pane::contract(),
            file(step["inbox"].as_str().expect("inbox")),
            file(step["outbox"].as_str().expect("outbox")),
            file(step["contacts"].as_str().expect("contacts")),
            step["active_thread"].as_str(),
            mode,
            &acked,
        )
        .expect("snapshot");
        assert_eq!(
            serde_json::to_value(&snapshot).expect("serializable"),
            golden["steps"][index]["snapshot"]
        );
    }
}
