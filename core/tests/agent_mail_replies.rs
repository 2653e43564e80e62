//! The one decoder against replies recorded from real Agent Mail servers
//! (`tests/agent-mail/record_replies.py`): upstream 0.2.1 and the mcp-mail 0.1.19 fork. Typed
//! rows ([`MailRow::rows`], [`Contact::rows`]) feed the pane as the console feeds it.

use serde_json::Value;
use switchboard_core::agent_mail::replies::{
    self, acknowledged_message_id, pending_ack_ids, reply_payload, AdapterError,
};
use switchboard_core::agent_mail::{normalize_timestamp, Contact, MailRow};
use switchboard_core::pane::{
    self, build_snapshot, build_snapshot_from_rows, Direction, EventKind, FilterMode, MessageItem,
};

/// The recorded replies of one server variant.
struct Replies {
    fetch_inbox: &'static str,
    fetch_inbox_sender: &'static str,
    send_message: &'static str,
    views_before: &'static str,
    views_after: &'static str,
    views_error: &'static str,
    acknowledge: &'static str,
    reply: &'static str,
    search: &'static str,
    search_from: &'static str,
    list_contacts: &'static str,
    unified: &'static str,
}

macro_rules! replies {
    ($variant:literal) => {
        Replies {
            fetch_inbox: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/fetch_inbox.json"
            )),
            fetch_inbox_sender: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/fetch_inbox_sender.json"
            )),
            send_message: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/send_message.json"
            )),
            views_before: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/views_ack_required_before.json"
            )),
            views_after: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/views_ack_required.json"
            )),
            views_error: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/views_ack_required_unknown_agent.json"
            )),
            acknowledge: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/acknowledge_message.json"
            )),
            reply: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/reply_message.json"
            )),
            search: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/search_messages.json"
            )),
            search_from: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/search_messages_from.json"
            )),
            list_contacts: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/list_contacts.json"
            )),
            unified: include_str!(concat!(
                "fixtures/agent-mail-replies/",
                $variant,
                "/unified_inbox.json"
            )),
        }
    };
}

fn upstream() -> Replies {
    replies!("agent-mail-0.2.1")
}

fn fork() -> Replies {
    replies!("mcp-mail-0.1.19")
}

const AGENT: &str = "GreenCastle";

/// The typed rows of a reply.
fn mail(reply: &str, variant: &str) -> Vec<MailRow> {
    MailRow::rows(reply).expect(variant)
}

/// The rows one pane stream shows for typed rows (every row parses).
fn rows(rows: &[MailRow], direction: Direction) -> Vec<MessageItem> {
    let (inbox, outbox) = match direction {
        Direction::Inbox => (rows, &[][..]),
        Direction::Outbox => (&[][..], rows),
    };
    let snap = build_snapshot_from_rows(
        &pane::contract(),
        inbox,
        outbox,
        &[],
        None,
        FilterMode::All,
        &[],
    )
    .expect("snapshot");
    assert!(snap.parse_errors.is_empty(), "{:?}", snap.parse_errors);
    match direction {
        Direction::Inbox => snap.inbox,
        Direction::Outbox => snap.outbox,
    }
}

/// The rows `sender` sent (servers' search does not understand `from:<agent_name>`: search
/// broadly, keep the sender's rows).
fn sent_by(rows: Vec<MailRow>, sender: &str) -> Vec<MailRow> {
    rows.into_iter().filter(|m| m.from == sender).collect()
}

fn ids(rows: &[MessageItem]) -> Vec<u64> {
    rows.iter().map(|m| m.id).collect()
}

/// The id of the first recorded message (BlueLake -> GreenCastle, ack_required, FEAT-1).
fn first_id(r: &Replies) -> u64 {
    let payload = reply_payload(r.send_message).expect("send reply");
    payload["deliveries"][0]["payload"]["id"]
        .as_u64()
        .expect("id")
}

fn both() -> [(&'static str, Replies); 2] {
    [
        ("agent-mail-0.2.1", upstream()),
        ("mcp-mail-0.1.19", fork()),
    ]
}

#[test]
fn fetch_inbox_rows_parse_into_the_pane() {
    for (variant, r) in both() {
        let inbox = rows(&mail(r.fetch_inbox, variant), Direction::Inbox);
        assert_eq!(ids(&inbox), vec![1, 2, 3], "{variant}");
        assert!(inbox[0].ack_required && !inbox[1].ack_required && inbox[2].ack_required);
        assert_eq!(inbox[0].thread_id.as_deref(), Some("FEAT-1"));
        assert_eq!(inbox[1].thread_id, None, "{variant}: null thread_id");
        assert_eq!(inbox[0].from, "BlueLake");
        assert_eq!(inbox[0].importance, "high");
    }
}

#[test]
fn content_text_gives_the_same_rows_as_structured_content() {
    for (variant, r) in both() {
        for reply in [r.fetch_inbox, r.search, r.reply, r.acknowledge] {
            let mut value: Value = serde_json::from_str(reply).expect("JSON");
            let structured = reply_payload(reply).expect(variant);
            value["result"]
                .as_object_mut()
                .expect("result")
                .remove("structuredContent");
            let from_text = reply_payload(&value.to_string()).expect(variant);
            assert_eq!(structured, from_text, "{variant}");
            // A bare tool result (no JSON-RPC envelope) works too.
            assert_eq!(
                reply_payload(&value["result"].to_string()).expect(variant),
                structured
            );
        }
    }
}

#[test]
fn search_messages_gives_outbox_rows_with_numeric_ack_required() {
    for (variant, r) in both() {
        let raw = reply_payload(r.search).expect(variant);
        assert!(
            raw.as_array()
                .expect("rows")
                .iter()
                .all(|row| row["ack_required"].is_u64()),
            "{variant}: 0/1 ints"
        );
        let outbox = rows(&sent_by(mail(r.search, variant), AGENT), Direction::Outbox);
        assert_eq!(outbox.len(), 1, "{variant}");
        assert_eq!(outbox[0].from, AGENT);
        assert!(
            outbox[0].ack_required,
            "{variant}: inherited ack_required, coerced from 1"
        );
        assert_eq!(outbox[0].delivery_status, "sent");
        // The reply_message reply gives the same pane row.
        let replied = rows(&mail(r.reply, variant), Direction::Outbox);
        assert_eq!(replied, outbox, "{variant}");
    }
}

#[test]
fn contract_from_query_finds_nothing_on_real_servers() {
    let r = upstream();
    assert_eq!(MailRow::rows(r.search_from), Ok(Vec::new()));
    // The fork's extended search_messages fails on it.
    match MailRow::rows(fork().search_from) {
        Err(AdapterError::Tool(text)) => assert!(text.contains("call_extended_tool"), "{text}"),
        other => panic!("expected a tool error, got {other:?}"),
    }
}

#[test]
fn send_message_delivery_payload_matches_the_inbox_row() {
    for (variant, r) in both() {
        let sent = rows(&mail(r.send_message, variant), Direction::Outbox);
        let inbox = rows(&mail(r.fetch_inbox, variant), Direction::Inbox);
        assert_eq!(sent.len(), 1);
        let received = inbox
            .iter()
            .find(|m| m.id == sent[0].id)
            .expect("delivered");
        assert_eq!(
            (&sent[0].subject, &sent[0].created_ts, &sent[0].thread_id),
            (&received.subject, &received.created_ts, &received.thread_id)
        );
    }
}

#[test]
fn created_is_accepted_for_created_ts() {
    // Archive copies (and some send replies) name the timestamp `created`.
    let reply = r#"{"deliveries":[{"project":"p","payload":{"id":7,"subject":"s","from":"A","created":"2026-11-21T05:55:15+00:00","importance":"normal","ack_required":false,"thread_id":null}}],"count":1}"#;
    let outbox = rows(&mail(reply, "rows"), Direction::Outbox);
    assert_eq!(outbox[0].created_ts, "2026-11-21T05:55:15+00:00");
}

#[test]
fn acknowledgement_replies_give_the_message_id() {
    for (variant, r) in both() {
        assert_eq!(
            acknowledged_message_id(r.acknowledge),
            Ok(first_id(&r)),
            "{variant}"
        );
    }
    assert!(matches!(
        acknowledged_message_id(upstream().reply),
        Err(AdapterError::Shape(_))
    ));
}

#[test]
fn ack_state_comes_from_the_views() {
    for (variant, r) in both() {
        let inbox = mail(r.fetch_inbox, variant);
        let before = pending_ack_ids(r.views_before).expect(variant);
        assert_eq!(before, vec![1, 3], "{variant}");
        assert_eq!(
            MailRow::acknowledged_ids(&inbox, &before),
            Vec::<u64>::new()
        );
        let after = pending_ack_ids(r.views_after).expect(variant);
        assert_eq!(after, vec![3], "{variant}");
        assert_eq!(MailRow::acknowledged_ids(&inbox, &after), vec![1]);
        match pending_ack_ids(r.views_error) {
            Err(AdapterError::Rpc { code: 0, message }) => {
                assert!(message.contains("ack view"), "{message}")
            }
            other => panic!("{variant}: expected a JSON-RPC error, got {other:?}"),
        }
    }
}

#[test]
fn contacts_from_list_contacts() {
    let r = upstream();
    let contacts = Contact::rows(r.list_contacts).expect("rows");
    let snap = build_snapshot_from_rows(
        &pane::contract(),
        &[],
        &[],
        &contacts,
        None,
        FilterMode::All,
        &[],
    )
    .expect("snapshot");
    let peers: Vec<_> = snap
        .contacts
        .iter()
        .map(|c| (c.peer.as_str(), c.status.as_str()))
        .collect();
    assert_eq!(
        peers,
        vec![("BlueLake", "approved"), ("RedStone", "pending")]
    );
    // The fork has no contact tools.
    assert_eq!(
        Contact::rows(fork().list_contacts),
        Err(AdapterError::Tool(
            "Unknown tool: list_contacts".to_string()
        ))
    );
}

#[test]
fn unified_inbox_rows_match_the_tool_rows() {
    // The unified inbox lists every agent's mail: an agent's rows are those addressed to it.
    let addressed = |rows: Vec<MailRow>, agent: &str| -> Vec<MailRow> {
        rows.into_iter()
            .filter(|m| m.to.iter().any(|to| to == agent))
            .collect()
    };
    for (variant, r) in both() {
        let from_tool = rows(&mail(r.fetch_inbox, variant), Direction::Inbox);
        let pending = pending_ack_ids(r.views_before).expect(variant);
        let acks: Vec<u64> = from_tool
            .iter()
            .filter(|m| m.ack_required)
            .map(|m| m.id)
            .collect();
        // It has no ack flag; the views say which rows asked for one.
        let mut unified = addressed(mail(r.unified, variant), AGENT);
        assert!(unified.iter().all(|m| !m.ack_required), "{variant}");
        for m in &mut unified {
            m.ack_required = acks.contains(&m.id);
        }
        let unified = rows(&unified, Direction::Inbox);
        assert_eq!(ids(&unified), ids(&from_tool), "{variant}");
        for (u, t) in unified.iter().zip(&from_tool) {
            assert_eq!(
                u.created_ts, t.created_ts,
                "{variant}: normalized timestamp"
            );
            assert_eq!(
                (&u.from, &u.subject, &u.thread_id, u.ack_required),
                (&t.from, &t.subject, &t.thread_id, t.ack_required)
            );
        }
        assert!(pending.iter().all(|id| acks.contains(id)));
        // The sender's view of the same endpoint holds the reply.
        let sender = rows(
            &addressed(mail(r.unified, variant), "BlueLake"),
            Direction::Inbox,
        );
        let sender_tool = rows(&mail(r.fetch_inbox_sender, variant), Direction::Inbox);
        assert!(
            ids(&sender_tool).iter().all(|id| ids(&sender).contains(id)),
            "{variant}"
        );
    }
}

#[test]
fn naive_timestamps_are_normalized() {
    assert_eq!(
        normalize_timestamp("2026-11-21 04:46:40.193112"),
        "2026-11-21T04:46:40.193112+00:00"
    );
    assert_eq!(
        normalize_timestamp("2026-11-21T04:46:40+00:00"),
        "2026-11-21T04:46:40+00:00"
    );
    assert_eq!(
        normalize_timestamp("2026-11-21 04:46:40-05:00"),
        "2026-11-21 04:46:40-05:00"
    );
    assert_eq!(normalize_timestamp("soon"), "soon");
    assert_eq!(normalize_timestamp("é"), "é");
}

#[test]
fn real_replies_drive_a_full_snapshot() {
    for (variant, r) in both() {
        let inbox = mail(r.fetch_inbox, variant);
        let outbox = sent_by(mail(r.search, variant), AGENT);
        let contacts = Contact::rows(r.list_contacts).unwrap_or_default();
        let acked =
            MailRow::acknowledged_ids(&inbox, &pending_ack_ids(r.views_after).expect(variant));
        let snap = build_snapshot_from_rows(
            &pane::contract(),
            &inbox,
            &outbox,
            &contacts,
            Some("FEAT-1"),
            FilterMode::All,
            &acked,
        )
        .expect(variant);
        assert!(
            snap.parse_errors.is_empty(),
            "{variant}: {:?}",
            snap.parse_errors
        );
        assert_eq!(
            snap.pending_ack_count, 1,
            "{variant}: message 3 still waits"
        );
        assert_eq!(
            snap.thread_messages.len(),
            2,
            "{variant}: message 1 and the reply"
        );
        assert!(snap.events.iter().any(
            |e| e.event_kind == EventKind::AckTransition && e.message_id == Some(first_id(&r))
        ));
        // The acknowledge reply confirms the id the views no longer list.
        assert_eq!(
            acknowledged_message_id(r.acknowledge),
            Ok(acked[0]),
            "{variant}"
        );
    }
}

#[test]
fn adapter_errors_are_reported_not_panicked() {
    assert!(matches!(reply_payload("{"), Err(AdapterError::NotJson(_))));
    assert!(matches!(MailRow::rows("42"), Err(AdapterError::Shape(_))));
    assert!(matches!(
        Contact::rows(r#"{"a":1,"b":2}"#),
        Err(AdapterError::Shape(_))
    ));
    assert!(matches!(
        reply_payload(r#"{"jsonrpc":"2.0","id":1}"#),
        Err(AdapterError::Shape(_))
    ));
    assert_eq!(
        replies::AdapterError::Tool("x".into()).to_string(),
        "tool error: x"
    );
    // The pane's text contract (the CLI's and the wasm package's edge) reports a malformed
    // value itself.
    let snap = build_snapshot(
        &pane::contract(),
        r#"[{"id":"7","subject":"s"}]"#,
        "[]",
        "[]",
        None,
        FilterMode::All,
        &[],
    )
    .expect("snapshot");
    assert_eq!(
        snap.parse_errors,
        vec!["parse_failure: inbox[0] field id must be an unsigned integer"]
    );
}

#[test]
fn mail_rows_decode_tools_and_the_unified_inbox_alike() {
    for (variant, r) in both() {
        let inbox = MailRow::rows(r.fetch_inbox).expect(variant);
        assert_eq!(
            inbox.iter().map(|m| m.id).collect::<Vec<_>>(),
            [3, 2, 1],
            "{variant}"
        );
        let first = inbox.iter().find(|m| m.id == 1).expect("message 1");
        assert_eq!(
            (
                first.from.as_str(),
                first.thread_id.as_deref(),
                first.importance.as_str()
            ),
            ("BlueLake", Some("FEAT-1"), "high"),
            "{variant}"
        );
        assert!(first.ack_required && !first.acknowledged);
        assert_eq!(
            first.body_md,
            "Please review the **users** API. Ack when read."
        );
        assert_eq!(inbox[1].thread_id, None, "{variant}: null thread_id");
        let unified = MailRow::rows(r.unified).expect(variant);
        let reply = unified
            .iter()
            .find(|m| m.subject == "Re: API contract for /users")
            .expect("the reply");
        assert_eq!(reply.from, "GreenCastle", "{variant}: sender");
        // The fork also lists its global inbox agent among the recipients.
        assert_eq!(reply.to[0], "BlueLake", "{variant}: recipients text");
        assert!(
            reply.created_ts.ends_with("+00:00"),
            "{variant}: normalized"
        );
    }
    let row = serde_json::json!({"id": 4, "sender_name": "A", "to": ["B"], "cc": ["C"],
        "thread_id": 12, "ack_required": 1, "ack_ts": "2026-01-01T00:00:00Z", "created": "x"});
    let m = MailRow::from_value(&row).unwrap();
    assert_eq!(
        (m.from.as_str(), m.to.clone(), m.thread_id.as_deref()),
        ("A", vec!["B".into(), "C".into()], Some("12"))
    );
    assert!(m.ack_required && m.acknowledged);
    assert_eq!(m.created_ts, "x");
    assert!(MailRow::from_value(&serde_json::json!({"id": "4"})).is_err());
    let back = switchboard_core::agent_mail::Envelope::from_row(
        0,
        &m,
        &switchboard_core::protocol::Options::default(),
    );
    assert_eq!(
        (back.id, back.from.as_deref(), back.to.len()),
        (Some(4), Some("A"), 2)
    );
    assert!(back.acknowledged && back.ack_required);
}
