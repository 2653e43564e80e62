//! The session tables in `docs/protocol.md` are the ones rendered from the engine's data:
//! the Pair transition table, the timeout table and the violation codes.

use std::path::Path;
use switchboard_core::session::pair::rules::{Recipient, Sender, TRANSITIONS};
use switchboard_core::session::pair::timeout::{Awaited, GRACE_MINUTES, MAX_WARNINGS, TIMEOUTS};
use switchboard_core::session::violation::ViolationCode;

fn transitions() -> String {
    let mut out = String::from("| message | sent by | goes to | arrives in phase | phase after | opens | decides |\n|---|---|---|---|---|---|---|\n");
    for t in TRANSITIONS {
        let sender = match t.sender {
            Sender::Either => "either agent".to_owned(),
            Sender::Only(role) => role.wire().to_lowercase(),
            Sender::NotBuilder => "planner side (not the builder)".to_owned(),
        };
        let recipient = match t.recipient {
            Recipient::Partner => "the partner".to_owned(),
            Recipient::Only(role) => format!("the {}", role.wire().to_lowercase()),
            Recipient::Awaited => "the agent whose response is late".to_owned(),
            Recipient::Unnamed => "(not named)".to_owned(),
        };
        let from = if t.from.is_empty() {
            "(first message)".to_owned()
        } else {
            t.from
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let opt = |c: Option<switchboard_core::session::pair::checkpoint::Checkpoint>| {
            c.map_or("".to_owned(), |c| format!("#{} {}", c.number(), c.as_str()))
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            t.message,
            sender,
            recipient,
            from,
            t.to.map_or("(unchanged)", |p| p.as_str()),
            opt(t.opens),
            opt(t.closes),
        ));
    }
    out
}

fn timeouts() -> String {
    let mut out =
        String::from("| response to | awaited | minutes | what answers it |\n|---|---|---:|---|\n");
    for r in TIMEOUTS {
        let awaited = match r.awaited {
            Awaited::Recipient => "the recipient",
            Awaited::Planner => "the planner",
            Awaited::Builder => "the builder",
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            r.after, awaited, r.minutes, r.response
        ));
    }
    out.push_str(&format!(
        "| (each TIMEOUT_WARNING) | the same | {GRACE_MINUTES} | warning #2 after #1; SESSION_ABORT after #{MAX_WARNINGS} |\n"
    ));
    out
}

fn violations() -> String {
    let mut out = String::from("| code | meaning |\n|---|---|\n");
    for c in ViolationCode::ALL {
        out.push_str(&format!("| `{}` | {} |\n", c.as_str(), c.description()));
    }
    out
}

#[test]
fn docs_hold_the_engine_tables() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md"))
            .unwrap();
    let tables = [
        ("transition", transitions()),
        ("timeout", timeouts()),
        ("violation", violations()),
    ];
    let missing: Vec<String> = tables
        .into_iter()
        .filter(|(_, table)| !docs.contains(table))
        .map(|(name, table)| format!("the {name} table:\n{table}"))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/protocol.md must contain {}",
        missing.join("\nand ")
    );
}
