//! Snapshot assembly: the reference's algorithm over already parsed, sorted rows.

use super::contract::validate_contract;
use super::model::{
    ContactItem, Contract, Event, EventKind, EventSource, FilterMode, MessageItem, PaneError,
    Snapshot,
};
use super::parse::message_order;
use super::refresh::fingerprint;

/// A parsed stream: sorted rows, or the stream's `parse_failure` text.
pub(crate) type Stream<T> = Result<Vec<T>, String>;

/// The hard checks done before anything is parsed: contract, then `thread_only`.
/// Returns the active thread to use: a blank one (empty or whitespace) is absent, as a
/// blank row `thread_id` is, so `thread_only` fails closed without a real thread.
pub(crate) fn check_view<'t>(
    contract: &Contract,
    active_thread: Option<&'t str>,
    mode: FilterMode,
) -> Result<Option<&'t str>, PaneError> {
    validate_contract(contract)?;
    let active_thread = active_thread.filter(|thread| !thread.trim().is_empty());
    if mode == FilterMode::ThreadOnly && active_thread.is_none() {
        return Err(PaneError::ThreadOnlyRequiresActiveThread);
    }
    Ok(active_thread)
}

fn event(
    event_kind: EventKind,
    source: EventSource,
    message_id: Option<u64>,
    thread_id: Option<String>,
    message: String,
) -> Event {
    Event {
        event_kind,
        source,
        message_id,
        thread_id,
        message,
    }
}

fn keep(message: &MessageItem, mode: FilterMode, active_thread: Option<&str>) -> bool {
    match mode {
        FilterMode::All => true,
        FilterMode::AckRequired => message.ack_required,
        FilterMode::UnackedOnly => message.ack_required && !message.acknowledged,
        FilterMode::ThreadOnly => message.thread_id.as_deref() == active_thread,
    }
}

/// Builds the snapshot from parsed streams (steps 1–14 of the reference).
/// `is_acked` tells whether an id is in the acknowledged set.
/// Cost: linear in the rows, plus sorting the thread view (two sorted runs, merged).
pub(crate) fn assemble(
    contract: &Contract,
    inbox: Stream<MessageItem>,
    outbox: Stream<MessageItem>,
    contacts: Stream<ContactItem>,
    active_thread: Option<&str>,
    mode: FilterMode,
    is_acked: impl Fn(u64) -> bool,
) -> Result<Snapshot, PaneError> {
    let active_thread = check_view(contract, active_thread, mode)?;
    let mut events = vec![
        event(
            EventKind::CommandInvoked,
            EventSource::Inbox,
            None,
            None,
            contract.fetch_inbox_command.clone(),
        ),
        event(
            EventKind::CommandInvoked,
            EventSource::Outbox,
            None,
            None,
            contract.fetch_outbox_command.clone(),
        ),
        event(
            EventKind::CommandInvoked,
            EventSource::Contacts,
            None,
            None,
            contract.list_contacts_command.clone(),
        ),
    ];
    let mut parse_errors = Vec::new();
    let mut settle = |stream: Stream<_>, source: EventSource| match stream {
        Ok(rows) => rows,
        Err(text) => {
            events.push(event(
                EventKind::ParseFailure,
                source,
                None,
                None,
                text.clone(),
            ));
            parse_errors.push(text);
            Vec::new()
        }
    };
    let mut inbox = settle(inbox, EventSource::Inbox);
    let mut outbox = settle(outbox, EventSource::Outbox);
    let contacts = match contacts {
        Ok(rows) => rows,
        Err(text) => {
            events.push(event(
                EventKind::ParseFailure,
                EventSource::Contacts,
                None,
                None,
                text.clone(),
            ));
            parse_errors.push(text);
            Vec::new()
        }
    };

    let mut pending = 0_usize;
    for message in &mut inbox {
        if message.ack_required && is_acked(message.id) {
            message.acknowledged = true;
            events.push(event(
                EventKind::AckTransition,
                EventSource::Inbox,
                Some(message.id),
                message.thread_id.clone(),
                format!("message {} acknowledged", message.id),
            ));
        }
        if !message.ack_required {
            message.acknowledged = true;
        }
        if message.ack_required && !message.acknowledged {
            pending += 1;
        }
    }
    for message in &mut outbox {
        if !message.ack_required {
            message.acknowledged = true;
        }
        if message.delivery_status == "failed" {
            events.push(event(
                EventKind::DeliveryFailure,
                EventSource::Outbox,
                Some(message.id),
                message.thread_id.clone(),
                format!("message {} delivery failed", message.id),
            ));
        }
    }
    let pending_ack_count = u32::try_from(pending).map_err(|_| PaneError::PendingAckOverflow)?;

    if mode != FilterMode::All {
        inbox.retain(|message| keep(message, mode, active_thread));
        outbox.retain(|message| keep(message, mode, active_thread));
    }

    let selected_thread: Option<String> = match active_thread {
        Some(thread) => Some(thread.to_string()),
        None => inbox
            .iter()
            .chain(&outbox)
            .filter_map(|message| message.thread_id.as_deref())
            .min()
            .map(str::to_string),
    };

    let mut thread_messages: Vec<MessageItem> = match selected_thread.as_deref() {
        Some(thread) => inbox
            .iter()
            .chain(&outbox)
            .filter(|message| message.thread_id.as_deref() == Some(thread))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    thread_messages.sort_by(message_order);

    if active_thread.is_some() && thread_messages.is_empty() {
        events.push(event(
            EventKind::ThreadContinuityGap,
            EventSource::Thread,
            None,
            selected_thread.clone(),
            "active thread has no visible messages in current snapshot".to_string(),
        ));
    } else if !thread_messages.is_empty() {
        events.push(event(
            EventKind::ThreadViewUpdated,
            EventSource::Thread,
            None,
            selected_thread.clone(),
            format!("thread view contains {} messages", thread_messages.len()),
        ));
    }

    for contact in &contacts {
        if contact.status != "approved" {
            events.push(event(
                EventKind::ContactAttentionRequired,
                EventSource::Contacts,
                None,
                None,
                format!("contact {} is in {} state", contact.peer, contact.status),
            ));
        }
    }

    let mut replay_commands = vec![
        contract.fetch_inbox_command.clone(),
        contract.fetch_outbox_command.clone(),
        contract.list_contacts_command.clone(),
    ];
    if pending_ack_count > 0 {
        replay_commands.push(contract.acknowledge_command.clone());
    }
    if selected_thread.is_some() {
        replay_commands.push(contract.reply_command.clone());
    }

    events.push(event(
        EventKind::SnapshotBuilt,
        EventSource::Snapshot,
        None,
        selected_thread.clone(),
        format!(
            "inbox={} outbox={} thread={} contacts={} pending_ack={} errors={}",
            inbox.len(),
            outbox.len(),
            thread_messages.len(),
            contacts.len(),
            pending_ack_count,
            parse_errors.len()
        ),
    ));

    let refresh_fingerprint =
        fingerprint(mode, selected_thread.as_deref(), &inbox, &outbox, &contacts);

    Ok(Snapshot {
        schema_version: contract.contract_version.clone(),
        thread_filter_mode: mode,
        active_thread: selected_thread,
        refresh_fingerprint,
        inbox,
        outbox,
        thread_messages,
        contacts,
        pending_ack_count,
        replay_commands,
        parse_errors,
        events,
    })
}
