//! Exports only benchmarks use (feature `bench`): the pane's (`core/benches/pane-wasm.sh`) and
//! the floor of validating text that the npm bench prints (`tests/bench/npm-floor.sh`).

use crate::validate::{with_input, BAD_CALL};
use serde::de::IgnoredAny;
use wasm_bindgen::prelude::*;

/// Benchmark floor of validating JSON text in wasm: serde_json reads the first `len` bytes of
/// the input buffer (written there as `validateInput`'s are) as one JSON value and skips it,
/// building nothing and checking no rule. Returns 1 when the bytes are one JSON value, 0 when
/// not, [`BAD_CALL`] past the buffer.
#[wasm_bindgen(js_name = skipInput)]
pub fn skip_input(len: usize) -> u32 {
    with_input(len, |bytes| {
        u32::from(serde_json::from_slice::<IgnoredAny>(bytes).is_ok())
    })
    .unwrap_or(BAD_CALL)
}

/// Benchmark baseline: parses the three payloads into `serde_json::Value` and returns how
/// many of them parsed (the "parse floor" of `core/benches/pane_wasm_bench.mjs`).
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
    #[cfg(target_arch = "wasm32")]
    let pages = core::arch::wasm32::memory_size(0);
    #[cfg(not(target_arch = "wasm32"))]
    let pages = 0;
    // Pages of 64 KiB; exact as f64 below 2^53.
    #[allow(clippy::cast_precision_loss)]
    let bytes = (pages * 65_536) as f64;
    bytes
}
