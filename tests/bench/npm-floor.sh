#!/usr/bin/env bash
# The floor of validating text in wasm, for the npm bench: builds the package's validation
# module with the package's own build helpers (scripts/lib.sh), plus the benchmark-only export
# `skipInput` (feature `bench`: serde_json skips the text, checking nothing), with Node glue,
# and prints the glue's path. Usage:
#   node tests/bench/npm-bench.mjs 15 --floor "$(bash tests/bench/npm-floor.sh)"
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source scripts/lib.sh
OUT="$CARGO_TARGET_DIR/npm-floor"

step "cargo build -p switchboard-wasm (wasm32): validation alone with the bench exports" >&2
claim_target_dir
(
    source scripts/wasm-env.sh
    npm_module_rustflags
    build_validation_module bench
)
release_target_dir

step "wasm-bindgen (nodejs glue), wasm-opt ${VALIDATION_WASM_OPT[*]}: $OUT" >&2
wasm-bindgen --target nodejs --no-typescript --out-dir "$OUT" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/switchboard_wasm.wasm"
npm_wasm_opt "$OUT/switchboard_wasm_bg.wasm" "$OUT/switchboard_wasm_bg.wasm" "${VALIDATION_WASM_OPT[@]}"
# The glue is CommonJS; the repository's package.json says "type": "module".
echo '{"type": "commonjs"}' >"$OUT/package.json"
echo "$OUT/switchboard_wasm.js"
