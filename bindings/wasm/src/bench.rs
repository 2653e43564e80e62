//! Exports only the pane benchmark uses (`core/benches/pane-wasm.sh`, feature `bench`).

use wasm_bindgen::prelude::*;

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
