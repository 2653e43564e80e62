#!/usr/bin/env bash
# README command 3: compiles switchboard-core to wasm (the bindings/wasm crate, std built for
# size) twice: the whole core (default features, opt-level "z", then wasm-opt for size) and
# validation alone (--no-default-features --features speed: opt-level 3 with the hot functions
# inlined, then wasm-opt -O3; the module of `switchboard-protocol/validate`, which Node also uses
# for the main entry's validation), and writes the npm package switchboard-protocol to core/pkg/:
# wasm-bindgen glue for the web (ESM) and Node (CommonJS) over one optimized module each, the JS
# layer, the TypeScript declarations, package.json, README and licences. `npm pack core/pkg` then
# makes the tarball users install. Prints each module's size raw and gzip -9. Runs setup first
# (fast when done before) unless SWITCHBOARD_SKIP_SETUP=1 (scripts/test.sh has just run it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "${SWITCHBOARD_SKIP_SETUP:-}" = 1 ] || bash scripts/setup.sh
source scripts/lib.sh
PKG="$ROOT/core/pkg"
BUILT="$CARGO_TARGET_DIR/wasm32-unknown-unknown"
# The two modules, under the names wasm-bindgen gives their files.
MODULES="$CARGO_TARGET_DIR/npm-modules"

step "cargo build -p switchboard-wasm (wasm32): the whole core (profile npm-full), validation alone (release)"
claim_target_dir
mkdir -p "$MODULES"
(
    source scripts/wasm-env.sh
    npm_module_rustflags
    # The whole core at opt-level "z" (profile npm-full): the main entry's browser bundle stays
    # under 400 KB gzipped. Validation alone: build_validation_module (scripts/lib.sh).
    cargo build --quiet -p switchboard-wasm --lib --target wasm32-unknown-unknown --profile npm-full
    cp "$BUILT/npm-full/switchboard_wasm.wasm" "$MODULES/switchboard_wasm.wasm"
    build_validation_module
    cp "$BUILT/release/switchboard_wasm.wasm" "$MODULES/switchboard_validate.wasm"
)
release_target_dir

# Everything the package is made of; an unchanged set leaves core/pkg as it is.
stamp="$(cat "$MODULES"/*.wasm bindings/wasm/js/* bindings/wasm/assemble.mjs bindings/wasm/README.md \
    LICENSE-MIT LICENSE-APACHE Cargo.toml scripts/npm-package.sh scripts/lib.sh | sha256sum | cut -d' ' -f1)"
if [ -f "$PKG/package.json" ] && [ "$(cat "$PKG/.build-stamp" 2>/dev/null)" = "$stamp" ]; then
    ok "core/pkg is up to date"
else
    step "wasm-bindgen (web and nodejs glue), wasm-opt, package files"
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    rm -rf "$PKG"
    mkdir -p "$PKG/wasm"
    for module in switchboard_wasm switchboard_validate; do
        wasm-bindgen --target web --no-typescript --out-dir "$stage/web" "$MODULES/$module.wasm"
        wasm-bindgen --target nodejs --no-typescript --out-dir "$stage/node" "$MODULES/$module.wasm"
        # Both glues load the same module; ship it once.
        cmp -s "$stage/web/${module}_bg.wasm" "$stage/node/${module}_bg.wasm" ||
            fail "the web and nodejs targets produced different $module modules"
        # The main module: -Oz until it changes nothing more (--converge), about 2 KB gzipped
        # off for 40 s of build time; then its control flow rebuilt (--flatten --rereloop) and
        # -Oz once more: 3.2 KB gzipped off (387,298 -> 384,108) for about 30 s, validating at
        # the same speed (docs/benchmarks.md, "npm package"). The validation module's level and
        # the passes both take: VALIDATION_WASM_OPT and npm_wasm_opt (scripts/lib.sh).
        if [ "$module" = switchboard_validate ]; then optimize=("${VALIDATION_WASM_OPT[@]}"); else optimize=(-Oz --converge --flatten --rereloop -Oz); fi
        npm_wasm_opt "$stage/web/${module}_bg.wasm" "$PKG/wasm/${module}_bg.wasm" "${optimize[@]}"
        cp "$stage/web/$module.js" "$PKG/wasm/$module.js"
        cp "$stage/node/$module.js" "$PKG/wasm/$module.cjs"
    done
    node bindings/wasm/assemble.mjs "$PKG"
    echo "$stamp" >"$PKG/.build-stamp"
fi
for module in switchboard_wasm switchboard_validate; do
    raw=$(stat -c %s "$PKG/wasm/${module}_bg.wasm")
    gz=$(gzip -9c "$PKG/wasm/${module}_bg.wasm" | wc -c)
    say "${module}_bg.wasm: $raw bytes, $gz bytes gzip -9"
done
say "package: core/pkg (npm pack core/pkg makes the tarball)"
