//! Incremental pane state: parsed, sorted rows that take new rows, acknowledgements
//! and replies without re-parsing or re-sorting what is already there.
//!
//! Equivalence: after `new(inbox, outbox, contacts, ...)` followed by any sequence of
//! accepted `add_*` batches, `acknowledge` calls and `set_view` calls,
//! [`PaneState::snapshot`] equals [`super::build_snapshot`] over payloads holding the
//! initial rows followed by the accepted batch rows, with the final acknowledged set
//! and view. A stream whose initial payload failed to parse stays failed with the
//! same text (a rebuild over the concatenation would report the same first failing
//! row); a batch that fails to parse is rejected and changes nothing.
//!
//! Rows are kept in a B-tree ordered by the pane's total row order, with a count
//! per distinct row (identical duplicate rows are legal input). Complexity, for `n`
//! rows already held and a batch of `k` rows of `b` bytes:
//! - `add_*`: O(b) parse + O(k log k) batch sort + O(k log n) insertion; nothing that
//!   is already held is parsed, sorted or moved again.
//! - `acknowledge`: O(log a) for `a` acknowledged ids.
//! - `snapshot`: O(n) in-order walk that clones the rows, then the linear assembly
//!   (filters, events, fingerprint); no parsing and no full sort (the thread view
//!   merges two sorted runs).
//!
//! A from-scratch rebuild costs O(B) parsing of all payload bytes plus O(n log n) sorting.

use super::build::{assemble, check_view, Stream};
use super::model::{
    ContactItem, Contract, Direction, FilterMode, MessageItem, PaneError, Snapshot,
};
use super::parse::{contact_order, message_order, parse_contacts, parse_messages};
use super::refresh::RefreshIdentity;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// A row type with the pane's total order.
trait RowOrder: Clone {
    fn order(&self, other: &Self) -> Ordering;
}

impl RowOrder for MessageItem {
    fn order(&self, other: &Self) -> Ordering {
        message_order(self, other)
    }
}

impl RowOrder for ContactItem {
    fn order(&self, other: &Self) -> Ordering {
        contact_order(self, other)
    }
}

/// B-tree key: a row ordered by [`RowOrder`] (equal only when every field is equal).
#[derive(Debug, Clone)]
struct Keyed<T>(T);

impl<T: RowOrder> PartialEq for Keyed<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.order(&other.0) == Ordering::Equal
    }
}

impl<T: RowOrder> Eq for Keyed<T> {}

impl<T: RowOrder> PartialOrd for Keyed<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: RowOrder> Ord for Keyed<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.order(&other.0)
    }
}

/// Distinct rows in order, each with its multiplicity; or the stream's parse failure.
type Rows<T> = Result<BTreeMap<Keyed<T>, usize>, String>;

/// Bulk-builds the tree from rows that are already sorted (linear).
fn tree<T: RowOrder>(sorted: Vec<T>) -> BTreeMap<Keyed<T>, usize> {
    let mut runs: Vec<(Keyed<T>, usize)> = Vec::with_capacity(sorted.len());
    for row in sorted {
        match runs.last_mut() {
            Some((last, count)) if last.0.order(&row) == Ordering::Equal => *count += 1,
            _ => runs.push((Keyed(row), 1)),
        }
    }
    runs.into_iter().collect()
}

fn insert<T: RowOrder>(rows: &mut Rows<T>, batch: Vec<T>) -> usize {
    let count = batch.len();
    if let Ok(tree) = rows {
        for row in batch {
            *tree.entry(Keyed(row)).or_insert(0) += 1;
        }
    }
    count
}

fn rows_vec<T: RowOrder>(rows: &Rows<T>) -> Stream<T> {
    match rows {
        Ok(tree) => Ok(tree
            .iter()
            .flat_map(|(row, count)| std::iter::repeat_n(&row.0, *count))
            .cloned()
            .collect()),
        Err(text) => Err(text.clone()),
    }
}

/// Incrementally maintained pane inputs (see the module docs for the guarantees).
#[derive(Debug, Clone)]
pub struct PaneState {
    contract: Contract,
    inbox: Rows<MessageItem>,
    outbox: Rows<MessageItem>,
    contacts: Rows<ContactItem>,
    acked: BTreeSet<u64>,
    active_thread: Option<String>,
    mode: FilterMode,
    /// The identity of the last snapshot [`PaneState::snapshot_if_changed`] returned.
    last_identity: Option<RefreshIdentity>,
}

impl PaneState {
    /// Parses the three payloads once and keeps the rows sorted.
    ///
    /// # Errors
    /// The same hard errors as [`super::build_snapshot`].
    pub fn new(
        contract: Contract,
        inbox_json: &str,
        outbox_json: &str,
        contacts_json: &str,
        active_thread: Option<&str>,
        mode: FilterMode,
        acked: &[u64],
    ) -> Result<Self, PaneError> {
        let active_thread = check_view(&contract, active_thread, mode)?;
        Ok(Self {
            inbox: parse_messages(inbox_json, "inbox", Direction::Inbox).map(tree),
            outbox: parse_messages(outbox_json, "outbox", Direction::Outbox).map(tree),
            contacts: parse_contacts(contacts_json).map(tree),
            contract,
            acked: acked.iter().copied().collect(),
            active_thread: active_thread.map(str::to_string),
            mode,
            last_identity: None,
        })
    }

    /// Changes the active thread and filter mode.
    ///
    /// # Errors
    /// [`PaneError::ThreadOnlyRequiresActiveThread`]; the view is then unchanged.
    pub fn set_view(
        &mut self,
        active_thread: Option<&str>,
        mode: FilterMode,
    ) -> Result<(), PaneError> {
        let active_thread = check_view(&self.contract, active_thread, mode)?;
        self.active_thread = active_thread.map(str::to_string);
        self.mode = mode;
        Ok(())
    }

    /// Adds a batch of inbox rows (array or `{"result": [...]}` payload).
    /// Returns how many rows it held.
    ///
    /// # Errors
    /// The batch's `parse_failure: inbox...` text (indices relative to the batch).
    pub fn add_inbox(&mut self, batch_json: &str) -> Result<usize, String> {
        let batch = parse_messages(batch_json, "inbox", Direction::Inbox)?;
        Ok(insert(&mut self.inbox, batch))
    }

    /// Adds a batch of outbox rows, e.g. a reply (see [`crate::agent_mail::replies`]).
    ///
    /// # Errors
    /// The batch's `parse_failure: outbox...` text.
    pub fn add_outbox(&mut self, batch_json: &str) -> Result<usize, String> {
        let batch = parse_messages(batch_json, "outbox", Direction::Outbox)?;
        Ok(insert(&mut self.outbox, batch))
    }

    /// Adds a batch of contact rows.
    ///
    /// # Errors
    /// The batch's `parse_failure: contacts...` text.
    pub fn add_contacts(&mut self, batch_json: &str) -> Result<usize, String> {
        let batch = parse_contacts(batch_json)?;
        Ok(insert(&mut self.contacts, batch))
    }

    /// Records an acknowledgement of message `id`.
    pub fn acknowledge(&mut self, id: u64) {
        self.acked.insert(id);
    }

    /// The acknowledged ids, ascending.
    #[must_use]
    pub fn acknowledged_ids(&self) -> Vec<u64> {
        self.acked.iter().copied().collect()
    }

    /// Derives the snapshot for the current rows, acknowledgements and view.
    ///
    /// # Errors
    /// Only [`PaneError::PendingAckOverflow`] (more than `u32::MAX` pending rows).
    pub fn snapshot(&self) -> Result<Snapshot, PaneError> {
        assemble(
            &self.contract,
            rows_vec(&self.inbox),
            rows_vec(&self.outbox),
            rows_vec(&self.contacts),
            self.active_thread.as_deref(),
            self.mode,
            |id| self.acked.contains(&id),
        )
    }

    /// The snapshot, when its [`RefreshIdentity`] differs from the one this method last
    /// returned (always on the first call); `None` when the refresh state is unchanged.
    /// Decided by the identity, never by `refresh_fingerprint`, whose raw joins let
    /// different snapshots collide.
    ///
    /// # Errors
    /// As [`PaneState::snapshot`].
    pub fn snapshot_if_changed(&mut self) -> Result<Option<Snapshot>, PaneError> {
        let snapshot = self.snapshot()?;
        let identity = snapshot.refresh_identity();
        if self.last_identity.as_ref() == Some(&identity) {
            return Ok(None);
        }
        self.last_identity = Some(identity);
        Ok(Some(snapshot))
    }
}
