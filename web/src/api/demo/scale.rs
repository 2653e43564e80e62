//! The `scale` project: agents whose inboxes hold 1k, 10k and 100k synthetic messages, made
//! when an inbox is opened (never stored).

use super::dates::timestamp;
use crate::api::MailRow;

/// The project whose agents have synthetic inboxes.
pub const SCALE_PROJECT: &str = "scale";
/// The scale agents and their inbox sizes.
pub const SCALE_AGENTS: [(&str, u64); 3] = [
    ("Load1k", 1_000),
    ("Load10k", 10_000),
    ("Load100k", 100_000),
];
/// Ids of synthetic messages start here.
pub const SCALE_BASE: u64 = 1_000_000;

/// The inbox size of a scale agent.
#[must_use]
pub fn scale_size(agent: &str) -> Option<u64> {
    SCALE_AGENTS
        .iter()
        .find(|(name, _)| *name == agent)
        .map(|(_, n)| *n)
}

/// Synthetic message `i` of a scale inbox.
#[must_use]
pub fn scale_message(agent: &str, i: u64) -> MailRow {
    MailRow {
        id: SCALE_BASE + i,
        from: format!("Sender{}", i % 17),
        to: vec![agent.to_string()],
        subject: format!("Load message {i}"),
        body_md: format!("Synthetic message **{i}** of {agent}'s inbox."),
        created_ts: timestamp(i * 3),
        importance: if i.is_multiple_of(25) {
            "high"
        } else {
            "normal"
        }
        .to_string(),
        ack_required: i.is_multiple_of(10),
        thread_id: Some(format!("load-{}", i / 50)),
        ..MailRow::default()
    }
}

/// The rows of a scale inbox, as a mailbox lists them (without bodies).
#[must_use]
pub fn scale_rows(agent: &str, n: u64) -> Vec<MailRow> {
    (0..n)
        .map(|i| MailRow {
            body_md: String::new(),
            ..scale_message(agent, i)
        })
        .collect()
}
