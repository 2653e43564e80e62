//! The `doctor-agent-mail-pane-v1` pane: a deterministic normalizer from Agent Mail
//! inbox, outbox and contact payloads to one snapshot (rows, thread view, pending
//! acknowledgements, events, replay commands and a refresh fingerprint).
//!
//! It reproduces the reference implementation (asupersync `src/cli/doctor`) rule for
//! rule, including its error texts; see `docs/pane.md`. Library code is pure: no
//! I/O, no clock, no threads, no panics on any input.
//!
//! - [`contract()`], [`validate_contract`]: the contract and its checks.
//! - [`build_snapshot`]: one snapshot from raw payload strings (the reference's contract).
//! - [`build_snapshot_from_rows`]: the same snapshot from decoded rows ([`MailRow::rows`],
//!   [`Contact::rows`] of a live server's replies).
//! - [`PaneState`]: the same snapshot kept up to date incrementally.
//! - [`RefreshIdentity`] ([`Snapshot::refresh_identity`]): whether a pane changed.
//! - [`run_smoke`]: the reference smoke workflow transcript.
//!
//! Real servers' replies become pane inputs through [`crate::agent_mail`]'s typed rows; the
//! text contract is for the edges that take text (the CLI, the wasm package).

use crate::agent_mail::{Contact, MailRow};

mod build;
mod contract;
mod model;
mod parse;
mod refresh;
mod rows;
mod smoke;
mod state;

pub use contract::{contract, validate_contract, CONTRACT_VERSION};
pub use model::{
    ContactItem, Contract, Direction, Event, EventKind, EventSource, FilterMode, MessageItem,
    PaneError, Snapshot, Transcript, WorkflowStep,
};
pub use parse::{parse_contacts, parse_messages};
pub use refresh::RefreshIdentity;
pub use smoke::{
    run_smoke, SMOKE_CONTACTS, SMOKE_INBOX, SMOKE_OUTBOX_AFTER_REPLY, SMOKE_OUTBOX_BEFORE_REPLY,
    SMOKE_THREAD,
};
pub use state::PaneState;

/// Builds one snapshot from the raw inbox, outbox and contacts payloads.
///
/// Each payload is a JSON array of rows or `{"result": [...]}`. A stream that fails to
/// parse is not an error: it becomes empty and its text goes to `parse_errors` and a
/// `parse_failure` event. `acked` holds the acknowledged message ids.
///
/// A blank `active_thread` (empty or whitespace) is no active thread.
///
/// # Errors
/// An invalid contract, or [`FilterMode::ThreadOnly`] without a (non-blank) `active_thread`.
pub fn build_snapshot(
    contract: &Contract,
    inbox_json: &str,
    outbox_json: &str,
    contacts_json: &str,
    active_thread: Option<&str>,
    mode: FilterMode,
    acked: &[u64],
) -> Result<Snapshot, PaneError> {
    snapshot(contract, active_thread, mode, acked, || {
        (
            parse_messages(inbox_json, "inbox", Direction::Inbox),
            parse_messages(outbox_json, "outbox", Direction::Outbox),
            parse_contacts(contacts_json),
        )
    })
}

/// Builds one snapshot from decoded rows: the inbox and outbox as [`MailRow`]s, the contacts as
/// [`Contact`]s (e.g. [`MailRow::rows`] and [`Contact::rows`] of a live server's replies), the
/// same snapshot [`build_snapshot`] gives for their canonical text. A stream with a row that
/// lacks a required member (`from`, `subject`, `created_ts`, `importance`; a contact's `to`,
/// `status`, `reason`, `updated_ts`) becomes empty, its `parse_failure` text naming the row;
/// a row without `ack_required` reads as not requiring one ([`MailRow`]'s rule, where the
/// text contract requires the member).
///
/// # Errors
/// As [`build_snapshot`].
pub fn build_snapshot_from_rows(
    contract: &Contract,
    inbox: &[MailRow],
    outbox: &[MailRow],
    contacts: &[Contact],
    active_thread: Option<&str>,
    mode: FilterMode,
    acked: &[u64],
) -> Result<Snapshot, PaneError> {
    snapshot(contract, active_thread, mode, acked, || {
        (
            rows::messages(inbox, Direction::Inbox),
            rows::messages(outbox, Direction::Outbox),
            rows::contacts(contacts),
        )
    })
}

/// The inbox, outbox and contact streams of one snapshot.
type Streams = (
    build::Stream<MessageItem>,
    build::Stream<MessageItem>,
    build::Stream<ContactItem>,
);

/// The hard checks first, then the streams (read only when they pass), then the snapshot.
fn snapshot(
    contract: &Contract,
    active_thread: Option<&str>,
    mode: FilterMode,
    acked: &[u64],
    streams: impl FnOnce() -> Streams,
) -> Result<Snapshot, PaneError> {
    let active_thread = build::check_view(contract, active_thread, mode)?;
    let mut acked_sorted = acked.to_vec();
    acked_sorted.sort_unstable();
    let (inbox, outbox, contacts) = streams();
    build::assemble(
        contract,
        inbox,
        outbox,
        contacts,
        active_thread,
        mode,
        |id| acked_sorted.binary_search(&id).is_ok(),
    )
}
