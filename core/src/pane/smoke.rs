//! The reference smoke workflow (fetch, ack, reply) over embedded fixtures.

use super::build_snapshot;
use super::model::{Contract, FilterMode, PaneError, Transcript, WorkflowStep};

/// Inbox payload of the smoke workflow (`{"result": [...]}` form).
pub const SMOKE_INBOX: &str = include_str!("smoke/inbox.json");
/// Outbox payload before the reply (bare array form).
pub const SMOKE_OUTBOX_BEFORE_REPLY: &str = include_str!("smoke/outbox_before_reply.json");
/// Outbox payload after the in-thread reply 2507.
pub const SMOKE_OUTBOX_AFTER_REPLY: &str = include_str!("smoke/outbox_after_reply.json");
/// Contacts payload of the smoke workflow.
pub const SMOKE_CONTACTS: &str = include_str!("smoke/contacts.json");
/// The thread every smoke step selects.
pub const SMOKE_THREAD: &str = "coord-2026-02-27-blackelk";

/// Runs the reference smoke workflow: `fetch` (mode `all`, no acks), `ack`
/// (acks `[2449]`), `reply` (outbox after the reply, `thread_only`, acks `[2449]`).
///
/// # Errors
/// Only when `contract` is invalid.
pub fn run_smoke(contract: &Contract) -> Result<Transcript, PaneError> {
    let step = |step_id: &str, action: &str, outbox: &str, mode: FilterMode, acked: &[u64]| {
        build_snapshot(
            contract,
            SMOKE_INBOX,
            outbox,
            SMOKE_CONTACTS,
            Some(SMOKE_THREAD),
            mode,
            acked,
        )
        .map(|snapshot| WorkflowStep {
            step_id: step_id.to_string(),
            action: action.to_string(),
            snapshot,
        })
    };
    Ok(Transcript {
        scenario_id: "doctor-agent-mail-smoke".to_string(),
        steps: vec![
            step(
                "fetch",
                "fetch inbox/outbox/contact state",
                SMOKE_OUTBOX_BEFORE_REPLY,
                FilterMode::All,
                &[],
            )?,
            step(
                "ack",
                "acknowledge pending inbox item",
                SMOKE_OUTBOX_BEFORE_REPLY,
                FilterMode::All,
                &[2449],
            )?,
            step(
                "reply",
                "reply in-thread and verify continuity",
                SMOKE_OUTBOX_AFTER_REPLY,
                FilterMode::ThreadOnly,
                &[2449],
            )?,
        ],
    })
}
