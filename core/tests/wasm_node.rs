//! The core compiled to wasm32 gives the same results as the native build: run by
//! wasm-bindgen-test under Node (`scripts/test.sh`), against goldens the native tests also use.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use switchboard_core::pane;
use wasm_bindgen_test::wasm_bindgen_test;

const TRANSCRIPT: &str = include_str!("fixtures/pane-smoke/transcript.json");

#[wasm_bindgen_test]
fn pane_smoke_transcript_matches_the_reference_in_wasm() {
    let transcript = serde_json::to_value(pane::run_smoke(&pane::contract()).unwrap()).unwrap();
    let golden: Value = serde_json::from_str(TRANSCRIPT).unwrap();
    assert_eq!(transcript, golden);
}

#[wasm_bindgen_test]
fn pane_parse_failure_texts_are_the_serde_json_texts_in_wasm() {
    let snapshot = pane::build_snapshot(
        &pane::contract(),
        "{not-json}",
        "[]",
        "[]",
        None,
        pane::FilterMode::All,
        &[],
    )
    .unwrap();
    assert_eq!(
        snapshot.parse_errors,
        ["parse_failure: inbox JSON: key must be a string at line 1 column 2"]
    );
}
