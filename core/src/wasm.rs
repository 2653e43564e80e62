//! JavaScript binding of the pane (wasm32 only): raw payload strings in, snapshot
//! JSON out, so parse failures behave exactly as in native builds.

use crate::pane::{self, FilterMode, Snapshot};
use wasm_bindgen::prelude::*;

/// Largest integer a JS number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn ids(acked: &[f64]) -> Result<Vec<u64>, JsError> {
    acked
        .iter()
        .map(|&id| {
            let whole = id.is_finite() && id >= 0.0 && id.fract() == 0.0 && id <= MAX_SAFE_INTEGER;
            // The checks above make the cast exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            whole.then_some(id as u64).ok_or_else(|| {
                JsError::new(&format!("acknowledged id {id} is not an unsigned integer"))
            })
        })
        .collect()
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, JsError> {
    serde_json::to_string(value).map_err(|err| JsError::new(&err.to_string()))
}

fn build(
    inbox: &str,
    outbox: &str,
    contacts: &str,
    active_thread: Option<&str>,
    mode: &str,
    acked: &[f64],
) -> Result<Snapshot, JsError> {
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

/// Builds a `doctor-agent-mail-pane-v1` snapshot and returns it as JSON text.
/// Throws on a contract error (unknown mode, `thread_only` without a thread) or an
/// acknowledged id that is not an unsigned integer.
#[wasm_bindgen(js_name = buildPaneSnapshot)]
pub fn build_pane_snapshot(
    inbox: &str,
    outbox: &str,
    contacts: &str,
    active_thread: Option<String>,
    mode: &str,
    acked: &[f64],
) -> Result<String, JsError> {
    json(&build(
        inbox,
        outbox,
        contacts,
        active_thread.as_deref(),
        mode,
        acked,
    )?)
}

/// Builds the same snapshot as `buildPaneSnapshot` but returns only its sizes as JSON
/// (`inbox`, `outbox`, `thread_messages`, `contacts`, `pending_ack_count`, `events`,
/// `parse_errors`, `refresh_fingerprint_bytes`): for badges, and for snapshots whose
/// JSON would exceed the JS string limit (about 512 MiB in V8).
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
    )?;
    json(&serde_json::json!({
        "inbox": snapshot.inbox.len(),
        "outbox": snapshot.outbox.len(),
        "thread_messages": snapshot.thread_messages.len(),
        "contacts": snapshot.contacts.len(),
        "pending_ack_count": snapshot.pending_ack_count,
        "events": snapshot.events.len(),
        "parse_errors": snapshot.parse_errors,
        "refresh_fingerprint_bytes": snapshot.refresh_fingerprint.len(),
    }))
}

/// The reference smoke workflow transcript as JSON text.
#[wasm_bindgen(js_name = paneSmoke)]
pub fn pane_smoke() -> Result<String, JsError> {
    json(&pane::run_smoke(&pane::contract())?)
}

/// Benchmark baseline: parses the three payloads into `serde_json::Value` and returns
/// how many of them parsed (the "parse floor" of `core/benches/pane_wasm_bench.mjs`).
#[wasm_bindgen(js_name = parseValueFloor)]
pub fn parse_value_floor(inbox: &str, outbox: &str, contacts: &str) -> u32 {
    [inbox, outbox, contacts]
        .iter()
        .map(|text| u32::from(serde_json::from_str::<serde_json::Value>(text).is_ok()))
        .sum()
}

/// Size of the wasm linear memory in bytes (it only grows, so it is the peak).
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    // Pages of 64 KiB; exact as f64 below 2^53.
    #[allow(clippy::cast_precision_loss)]
    let bytes = (core::arch::wasm32::memory_size(0) * 65_536) as f64;
    bytes
}
