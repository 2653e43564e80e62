//! The MCP backend against scripted servers: agent tokens, messages, a project's traffic.

use super::traffic::GLANCE;
use super::*;
use crate::api::{Coverage, TrafficPage, TrafficProgress};
use crate::engine::traffic::Traffic;
use std::cell::RefCell;
use std::rc::Rc;

fn backend(variant: Variant, agent_tokens: bool) -> McpBackend {
    let mut config = ConnectConfig::default();
    config
        .agent_tokens
        .insert("BlueLake".into(), "t0k/=".into());
    McpBackend {
        config,
        root: "http://h".into(),
        endpoint: "http://h/mcp/".into(),
        tools: BTreeSet::new(),
        capabilities: Capabilities {
            variant,
            endpoint: "http://h/mcp/".into(),
            tool_count: 0,
            resource_templates: 0,
            agent_tokens,
            operator: false,
            overseer_send: false,
        },
        next_id: Cell::new(1),
        local_acks: RefCell::new(BTreeSet::new()),
    }
}

#[test]
fn agent_tokens_go_only_to_servers_that_take_them() {
    let tokens = backend(Variant::UpstreamTokens, true);
    let args = tokens.agent_args("p", "BlueLake", json!({"message_id": 1}));
    assert_eq!(args["registration_token"], "t0k/=");
    assert_eq!(args["message_id"], 1);
    assert_eq!(
        tokens.agent_query("p", "BlueLake"),
        "project=p&agent=BlueLake"
    );
    assert!(tokens
        .agent_args("p", "GreenCastle", json!({}))
        .get("registration_token")
        .is_none());
    let legacy = backend(Variant::UpstreamLegacy, false);
    assert!(legacy
        .agent_args("p", "BlueLake", json!({}))
        .get("registration_token")
        .is_none());
    assert_eq!(legacy.agent_query("p", "BlueLake"), "project=p");
}

/// Polls a backend future once (the scripted server answers at once).
fn block<T>(future: BackendFuture<'_, T>) -> Result<T, BackendError> {
    let mut future = future;
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(value) => value,
        std::task::Poll::Pending => panic!("the scripted server answers at once"),
    }
}

fn tool_reply(id: &Value, payload: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": {"structuredContent": {"result": payload}}})
        .to_string()
}

/// A token server whose inbox holds message 5; resources fail, echoing their URI.
fn token_server(request: &Value) -> String {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => tool_reply(
            id,
            json!([{"id": 5, "subject": "s", "from": "GreenCastle", "body_md": "hi",
                    "created_ts": "2026-01-01T00:00:00+00:00", "importance": "normal",
                    "ack_required": false}]),
        ),
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": 0, "message": format!(
            "Error reading resource from template '{}': not found",
            request["params"]["uri"].as_str().unwrap_or_default())}})
        .to_string(),
    }
}

fn token_backend() -> McpBackend {
    let mut backend = backend(Variant::UpstreamTokens, true);
    backend.tools = ["fetch_inbox".to_string()].into();
    backend
}

#[test]
fn a_message_in_the_inbox_is_read_with_the_token_as_a_tool_argument() {
    http::fake::serve(token_server);
    let message = block(token_backend().message("p", Some("BlueLake"), 5)).unwrap();
    assert_eq!(message.body_md, "hi");
    let sent = http::fake::sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["params"]["name"], "fetch_inbox");
    assert_eq!(
        sent[0]["params"]["arguments"]["registration_token"],
        "t0k/="
    );
    assert!(!sent[0].to_string().contains("agent_token"));
}

#[test]
fn a_token_in_a_resource_uri_never_reaches_an_error_text() {
    // Message 9 is not in the inbox: the message resource is the only way, and servers
    // take the token there only as agent_token in the URI (docs/console.md).
    http::fake::serve(token_server);
    let err = block(token_backend().message("p", Some("BlueLake"), 9)).unwrap_err();
    let sent = http::fake::sent();
    let uri = sent[1]["params"]["uri"].as_str().unwrap();
    assert_eq!(
        uri,
        "resource://message/9?project=p&agent=BlueLake&agent_token=t0k%2F%3D"
    );
    let text = err.to_string();
    assert!(text.contains("agent_token=<agent token>"), "{text}");
    assert!(!text.contains("t0k"), "{text}");
    // Servers without agent tokens never get one, in a URI or an argument.
    http::fake::serve(token_server);
    let mut legacy = backend(Variant::UpstreamLegacy, false);
    legacy.tools = ["fetch_inbox".to_string()].into();
    block(legacy.message("p", Some("BlueLake"), 5)).unwrap();
    assert!(http::fake::sent()
        .iter()
        .all(|r| !r.to_string().contains("t0k")));
}
/// A 0.2.1-like server with agents A and B: B's inbox fills fetch_inbox's 1000, and the
/// inbox resource ignores its query (20 rows, no bodies).
fn traffic_server(request: &Value) -> String {
    let id = &request["id"];
    let row = |id: u64, from: &str, ack: bool| {
        json!({"id": id, "subject": format!("m{id}"), "from": from, "body_md": format!("body {id}"),
               "created_ts": format!("2026-01-01T00:{:02}:{:02}+00:00", id / 60 % 60, id % 60),
               "importance": "normal", "ack_required": ack, "thread_id": null})
    };
    let resource = |payload: Value| {
        json!({"jsonrpc": "2.0", "id": id,
               "result": {"contents": [{"text": payload.to_string()}]}})
        .to_string()
    };
    let uri = request["params"]["uri"].as_str().unwrap_or_default();
    match request["method"].as_str() {
        Some("tools/call") => {
            let arguments = &request["params"]["arguments"];
            let limit = arguments["limit"].as_u64().unwrap_or(20);
            let rows: Vec<Value> = match arguments["agent_name"].as_str() {
                Some("A") => vec![row(2, "C", false), row(1, "B", true)],
                // Newest first, as 0.2.1 answers, at most `limit` (capped at 1000).
                _ => (10..1008)
                    .rev()
                    .map(|i| row(i, "C", false))
                    .chain([row(3, "A", true), row(2, "C", false)])
                    .take(limit.min(1000) as usize)
                    .collect(),
            };
            tool_reply(id, json!(rows))
        }
        _ if uri.starts_with("resource://agents/") => {
            resource(json!({"agents": [{"name": "A"}, {"name": "B"}]}))
        }
        _ if uri.starts_with("resource://views/ack-required/B") => {
            resource(json!({"messages": [row(3, "A", true)]}))
        }
        _ if uri.starts_with("resource://views/ack-required/") => resource(json!({"messages": []})),
        _ => resource(
            json!({"messages": (10..30).map(|i| json!({"id": i, "subject": "x"})).collect::<Vec<_>>()}),
        ),
    }
}

#[test]
fn a_projects_traffic_is_every_inbox_merged_with_recipients_and_acknowledgements() {
    http::fake::serve(traffic_server);
    let mut server = backend(Variant::UpstreamLegacy, false);
    server.tools = ["fetch_inbox".to_string()].into();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let pages = Rc::new(RefCell::new(Vec::<TrafficPage>::new()));
    let sink = {
        let (seen, pages) = (seen.clone(), pages.clone());
        TrafficSink {
            progress: Rc::new(move |p: TrafficProgress| seen.borrow_mut().push(p)),
            page: Rc::new(move |page| {
                pages.borrow_mut().push(page);
                Box::pin(async { Ok(()) })
            }),
        }
    };
    block(server.traffic("p", None, sink)).unwrap();
    let pages = pages.take();
    // The glance: A's two messages and B's newest 50, which hold B's mail after its 50th.
    let glance = &pages[0];
    assert_eq!(glance.rows.len(), 2 + GLANCE);
    // B's 50th newest, message 958.
    let b_reach = "2026-01-01T00:15:58+00:00".to_owned();
    assert_eq!(
        glance.coverage,
        Coverage::Reading(vec![("A".into(), None), ("B".into(), Some(b_reach))])
    );
    let last = pages.last().unwrap();
    assert_eq!(last.coverage, Coverage::Whole);
    assert_eq!(last.notes.len(), 1, "{:?}", last.notes);
    assert!(last.notes[0].starts_with("B's inbox holds more than the 1000 newest"));
    // As the engine merges the pages.
    let mut traffic = Traffic::default();
    for page in &pages {
        traffic.load(
            page.rows.clone(),
            page.agents.clone(),
            &page.coverage,
            false,
            page.pending.as_deref(),
        );
    }
    let message = |id: u64| traffic.envelope(traffic.entry_of(id).unwrap()).unwrap();
    assert_eq!(message(2).to, ["A", "B"], "found in both inboxes");
    assert!(message(1).acknowledged, "A's view no longer lists it");
    assert!(!message(3).acknowledged, "B still owes it");
    assert!(
        pages
            .iter()
            .flat_map(|p| &p.rows)
            .filter(|r| r.id == 1000)
            .all(|r| r.body_md == "body 1000"),
        "the resource's 20 rows were not used"
    );
    assert_eq!(traffic.envelopes().len(), 3 + 998);
    assert_eq!(seen.borrow().last().unwrap().mailboxes_read, 2);
}
