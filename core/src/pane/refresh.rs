//! Whether a pane changed: the reference's refresh fingerprint, kept byte for byte, and an
//! unambiguous [`RefreshIdentity`] over the same fields.
//!
//! The fingerprint joins raw strings with `:`, `,` and `;`, so different snapshots can share
//! it: one contact `{"to": "A:approved,B", "status": "pending"}` and two contacts
//! `A`/`approved` + `B`/`pending` both give `contacts=A:approved,B:pending`, and no thread
//! and the thread `-` both give `thread=-`. The identity encodes the same fields as JSON
//! (strings escaped, no thread as `null`), so two snapshots share it only when the
//! fingerprint's fields are equal.

use super::model::{ContactItem, FilterMode, MessageItem, Snapshot};
use serde::Serialize;
use std::fmt::{self, Write as _};

/// `filter={mode};thread={t|-};inbox={id:acknowledged,..};outbox={id:delivery_status,..};contacts={peer:status,..}`
pub(crate) fn fingerprint(
    mode: FilterMode,
    thread: Option<&str>,
    inbox: &[MessageItem],
    outbox: &[MessageItem],
    contacts: &[ContactItem],
) -> String {
    let mut out = String::with_capacity(64 + 16 * (inbox.len() + outbox.len() + contacts.len()));
    // Writing into a `String` cannot fail.
    let _ = write!(
        out,
        "filter={};thread={};inbox=",
        mode.as_str(),
        thread.unwrap_or("-")
    );
    for (index, message) in inbox.iter().enumerate() {
        let sep = if index == 0 { "" } else { "," };
        let _ = write!(out, "{sep}{}:{}", message.id, message.acknowledged);
    }
    out.push_str(";outbox=");
    for (index, message) in outbox.iter().enumerate() {
        let sep = if index == 0 { "" } else { "," };
        let _ = write!(out, "{sep}{}:{}", message.id, message.delivery_status);
    }
    out.push_str(";contacts=");
    for (index, contact) in contacts.iter().enumerate() {
        let sep = if index == 0 { "" } else { "," };
        let _ = write!(out, "{sep}{}:{}", contact.peer, contact.status);
    }
    out
}

/// An unambiguous identity of a snapshot's refresh state: the fields of
/// `refresh_fingerprint` (filter mode, selected thread, inbox `id`/`acknowledged`, outbox
/// `id`/`delivery_status`, contact `peer`/`status`, in snapshot order), encoded as compact
/// JSON. Equal identities mean equal fields; use it, not the fingerprint, to decide whether
/// a pane changed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefreshIdentity(String);

impl RefreshIdentity {
    /// The encoding: `["mode", "thread" | null, [[id, acknowledged], ..],
    /// [[id, "delivery_status"], ..], [["peer", "status"], ..]]`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RefreshIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The fields of the identity, in encoding order.
#[derive(Serialize)]
struct Fields<'a>(
    FilterMode,
    Option<&'a str>,
    Vec<(u64, bool)>,
    Vec<(u64, &'a str)>,
    Vec<(&'a str, &'a str)>,
);

impl Snapshot {
    /// This snapshot's [`RefreshIdentity`].
    #[must_use]
    pub fn refresh_identity(&self) -> RefreshIdentity {
        let fields = Fields(
            self.thread_filter_mode,
            self.active_thread.as_deref(),
            self.inbox.iter().map(|m| (m.id, m.acknowledged)).collect(),
            self.outbox
                .iter()
                .map(|m| (m.id, m.delivery_status.as_str()))
                .collect(),
            self.contacts
                .iter()
                .map(|c| (c.peer.as_str(), c.status.as_str()))
                .collect(),
        );
        // Serializing numbers, booleans and strings into a `String` cannot fail.
        RefreshIdentity(serde_json::to_string(&fields).unwrap_or_default())
    }
}
