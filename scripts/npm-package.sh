#!/usr/bin/env bash
# README command 3: compiles switchboard-core to wasm (the bindings/wasm crate, release profile:
# opt-level 3 for speed, std built for size, then wasm-opt -Oz) and writes the npm package
# switchboard-protocol to core/pkg/: wasm-bindgen glue for the web (ESM) and Node (CommonJS)
# over one wasm-opt -Oz module, the JS layer, the TypeScript declarations, package.json,
# README and licences. `npm pack core/pkg` then makes the tarball users install. Prints the
# wasm's size raw and gzip -9. Runs setup first (fast when done before) unless
# SWITCHBOARD_SKIP_SETUP=1 (scripts/test.sh has just run it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "${SWITCHBOARD_SKIP_SETUP:-}" = 1 ] || bash scripts/setup.sh
source scripts/lib.sh
PKG="$ROOT/core/pkg"
WASM="$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/switchboard_wasm.wasm"

step "cargo build -p switchboard-wasm (wasm32, release)"
claim_target_dir
(
    source scripts/wasm-env.sh
    # opt-level 3, not the console's size-first "z": validation runs about 2.9x faster for
    # about 30% more gzipped bytes (docs/benchmarks.md, "npm package").
    cargo build --quiet -p switchboard-wasm --lib --target wasm32-unknown-unknown --release
)
release_target_dir

# Everything the package is made of; an unchanged set leaves core/pkg as it is.
stamp="$(cat "$WASM" bindings/wasm/js/* bindings/wasm/assemble.mjs bindings/wasm/README.md \
    LICENSE-MIT LICENSE-APACHE Cargo.toml scripts/npm-package.sh | sha256sum | cut -d' ' -f1)"
if [ -f "$PKG/wasm/switchboard_wasm_bg.wasm" ] && [ "$(cat "$PKG/.build-stamp" 2>/dev/null)" = "$stamp" ]; then
    ok "core/pkg is up to date"
else
    step "wasm-bindgen (web and nodejs glue), wasm-opt -Oz, package files"
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    wasm-bindgen --target web --no-typescript --out-dir "$stage/web" "$WASM"
    wasm-bindgen --target nodejs --no-typescript --out-dir "$stage/node" "$WASM"
    # Both glues load the same module; ship it once.
    cmp -s "$stage/web/switchboard_wasm_bg.wasm" "$stage/node/switchboard_wasm_bg.wasm" ||
        fail "the web and nodejs targets produced different wasm modules"
    rm -rf "$PKG"
    mkdir -p "$PKG/wasm"
    "$ROOT/node_modules/.bin/wasm-opt" -Oz "$stage/web/switchboard_wasm_bg.wasm" \
        -o "$PKG/wasm/switchboard_wasm_bg.wasm"
    cp "$stage/web/switchboard_wasm.js" "$PKG/wasm/switchboard_wasm.js"
    cp "$stage/node/switchboard_wasm.js" "$PKG/wasm/switchboard_wasm.cjs"
    node bindings/wasm/assemble.mjs "$PKG"
    echo "$stamp" >"$PKG/.build-stamp"
fi
raw=$(stat -c %s "$PKG/wasm/switchboard_wasm_bg.wasm")
gz=$(gzip -9c "$PKG/wasm/switchboard_wasm_bg.wasm" | wc -c)
say "switchboard_wasm_bg.wasm: $raw bytes, $gz bytes gzip -9"
say "package: core/pkg (npm pack core/pkg makes the tarball)"
