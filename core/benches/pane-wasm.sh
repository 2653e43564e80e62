#!/usr/bin/env bash
# Pane scale benchmark in wasm under Node: builds the wasm binding (bindings/wasm) for wasm32
# (the route chosen by scripts/setup.sh, via scripts/wasm-env.sh), generates the Node glue with
# wasm-bindgen, and prints the same table as `cargo bench --bench pane`, one Node
# process per size (wasm memory only grows, so each size's peak is measured alone).
# Usage: core/benches/pane-wasm.sh [rows ...]   (default: 10000 100000 1000000)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=scripts/wasm-env.sh
source "$ROOT/scripts/wasm-env.sh"
# A speed benchmark: std is built for speed (the release profile), not for size.
unset CARGO_UNSTABLE_BUILD_STD_FEATURES
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET_DIR/pane-wasm-bench"

# The npm package's binding crate, with its benchmark-only exports (feature `bench`).
cargo build --quiet -p switchboard-wasm --lib --release --features bench \
    --target wasm32-unknown-unknown
wasm-bindgen --target nodejs --out-dir "$OUT" \
    "$TARGET_DIR/wasm32-unknown-unknown/release/switchboard_wasm.wasm"
# The glue is CommonJS; the repository's package.json says "type": "module".
echo '{"type": "commonjs"}' >"$OUT/package.json"

header=--header
for rows in "${@:-10000 100000 1000000}"; do
    for n in $rows; do
        node --max-old-space-size=8192 "$ROOT/core/benches/pane_wasm_bench.mjs" "$OUT/switchboard_wasm.js" "$n" $header
        header=
    done
done
