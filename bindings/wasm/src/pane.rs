//! Pane exports: raw payload strings in, snapshot JSON out, so parse failures behave exactly
//! as in native builds. The snapshot keeps the `doctor-agent-mail-pane-v1` wire names
//! (snake_case), byte for byte what `switchboard pane` prints.

use serde::Serialize;
use switchboard_core::pane::{self, FilterMode, PaneError, Snapshot};
use wasm_bindgen::prelude::*;

/// Largest integer a JS number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Why a pane call failed before building anything.
#[derive(Debug, PartialEq)]
pub enum PaneCallError {
    /// An acknowledged id that is not an unsigned integer.
    BadAckedId(f64),
    /// The core refused: unknown mode, `thread_only` without a thread, bad contract.
    Pane(PaneError),
}

impl std::fmt::Display for PaneCallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PaneCallError::BadAckedId(id) => {
                write!(f, "acknowledged id {id} is not an unsigned integer")
            }
            PaneCallError::Pane(err) => err.fmt(f),
        }
    }
}

impl From<PaneError> for PaneCallError {
    fn from(err: PaneError) -> Self {
        PaneCallError::Pane(err)
    }
}

fn to_js(err: PaneCallError) -> JsError {
    JsError::new(&err.to_string())
}

fn ids(acked: &[f64]) -> Result<Vec<u64>, PaneCallError> {
    acked
        .iter()
        .map(|&id| {
            let whole = id.is_finite() && id >= 0.0 && id.fract() == 0.0 && id <= MAX_SAFE_INTEGER;
            // The checks above make the cast exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            whole
                .then_some(id as u64)
                .ok_or(PaneCallError::BadAckedId(id))
        })
        .collect()
}

/// Builds a snapshot with the canonical contract.
pub fn build(
    inbox: &str,
    outbox: &str,
    contacts: &str,
    active_thread: Option<&str>,
    mode: &str,
    acked: &[f64],
) -> Result<Snapshot, PaneCallError> {
    let contract = pane::contract();
    pane::validate_contract(&contract)?;
    let mode: FilterMode = mode.parse()?;
    let acked = ids(acked)?;
    Ok(pane::build_snapshot(
        &contract,
        inbox,
        outbox,
        contacts,
        active_thread,
        mode,
        &acked,
    )?)
}

/// The sizes of a snapshot, for badges and for snapshots too large for one JS string.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary<'a> {
    inbox: usize,
    outbox: usize,
    thread_messages: usize,
    contacts: usize,
    pending_ack_count: u32,
    events: usize,
    parse_errors: &'a [String],
    refresh_fingerprint_bytes: usize,
}

impl<'a> Summary<'a> {
    /// The sizes of `snapshot`.
    pub fn of(snapshot: &'a Snapshot) -> Self {
        Summary {
            inbox: snapshot.inbox.len(),
            outbox: snapshot.outbox.len(),
            thread_messages: snapshot.thread_messages.len(),
            contacts: snapshot.contacts.len(),
            pending_ack_count: snapshot.pending_ack_count,
            events: snapshot.events.len(),
            parse_errors: &snapshot.parse_errors,
            refresh_fingerprint_bytes: snapshot.refresh_fingerprint.len(),
        }
    }
}

fn json<T: Serialize>(value: &T) -> Result<String, JsError> {
    serde_json::to_string(value).map_err(|err| JsError::new(&err.to_string()))
}

/// Builds a `doctor-agent-mail-pane-v1` snapshot and returns it as JSON text. Throws on an
/// unknown mode, `thread_only` without a thread, or an acknowledged id that is not an
/// unsigned integer.
#[wasm_bindgen(js_name = buildPaneSnapshot)]
pub fn build_pane_snapshot(
    inbox: &str,
    outbox: &str,
    contacts: &str,
    active_thread: Option<String>,
    mode: &str,
    acked: &[f64],
) -> Result<String, JsError> {
    let snapshot = build(
        inbox,
        outbox,
        contacts,
        active_thread.as_deref(),
        mode,
        acked,
    )
    .map_err(to_js)?;
    json(&snapshot)
}

/// Builds the same snapshot as `buildPaneSnapshot` but returns only its sizes as JSON
/// ([`Summary`]): for badges, and for snapshots whose JSON would exceed the JS string limit
/// (about 512 MiB in V8).
#[wasm_bindgen(js_name = buildPaneSummary)]
pub fn build_pane_summary(
    inbox: &str,
    outbox: &str,
    contacts: &str,
    active_thread: Option<String>,
    mode: &str,
    acked: &[f64],
) -> Result<String, JsError> {
    let snapshot = build(
        inbox,
        outbox,
        contacts,
        active_thread.as_deref(),
        mode,
        acked,
    )
    .map_err(to_js)?;
    json(&Summary::of(&snapshot))
}

/// The reference smoke workflow transcript as JSON text.
#[wasm_bindgen(js_name = runPaneSmoke)]
pub fn run_pane_smoke() -> Result<String, JsError> {
    let transcript =
        pane::run_smoke(&pane::contract()).map_err(|err| to_js(PaneCallError::from(err)))?;
    json(&transcript)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acked_ids_must_be_safe_unsigned_integers() {
        assert_eq!(ids(&[0.0, 7.0]), Ok(vec![0, 7]));
        for bad in [-1.0, 1.5, f64::NAN, f64::INFINITY, MAX_SAFE_INTEGER + 2.0] {
            assert!(ids(&[bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_summary_counts_the_snapshot() {
        let snapshot = build(
            pane::SMOKE_INBOX,
            "[]",
            pane::SMOKE_CONTACTS,
            None,
            "all",
            &[],
        )
        .unwrap();
        let summary = serde_json::to_value(Summary::of(&snapshot)).unwrap();
        assert_eq!(summary["inbox"], snapshot.inbox.len());
        assert_eq!(summary["pendingAckCount"], snapshot.pending_ack_count);
        assert!(build("[]", "[]", "[]", None, "sideways", &[]).is_err());
    }
}
