#!/usr/bin/env bash
# README command 2: installs what the tests need (scripts/setup.sh) and runs every suite, in
# order: formatting, clippy, native tests, wasm tests in headless Chromium, the release
# console build, the npm package (built by scripts/npm-package.sh, packed, installed and
# tested under Node and in headless Chromium), then the browser end-to-end tests against the
# release build. Stops at the first failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
source scripts/lib.sh
claim_target_dir

START=$(date +%s)
suite() {
    local name="$1"
    shift
    step "$name"
    local t0
    t0=$(date +%s)
    "$@" || fail "$name"
    say "($name: $(($(date +%s) - t0)) s)"
}

suite "cargo fmt --check" cargo fmt --all --check
suite "cargo clippy --all-targets -- -D warnings" cargo clippy --workspace --all-targets --quiet -- -D warnings
suite "native tests" cargo test --workspace --quiet

# The wasm suites build for wasm32 with the route setup chose.
(
    source scripts/wasm-env.sh
    suite "wasm tests in headless Chromium (switchboard-web)" \
        cargo test -p switchboard-web --target wasm32-unknown-unknown --test browser
    suite "trunk build --release" trunk build --release --quiet
)
# The npm package: built as the README says, then its tarball installed and used from ESM,
# CommonJS, TypeScript and a browser page, and compared with the native CLI on the corpus.
suite "npm package (scripts/npm-package.sh)" env SWITCHBOARD_SKIP_SETUP=1 bash scripts/npm-package.sh
suite "cargo build --bin switchboard" cargo build --quiet -p switchboard-core --bin switchboard
suite "npm package tests (node --test bindings/wasm/tests/js/)" \
    env SWITCHBOARD_BIN="$CARGO_TARGET_DIR/debug/switchboard" node --test bindings/wasm/tests/js/

say "all suites before end-to-end took $(($(date +%s) - START)) s"
# Last, so the output ends with the test runner's own summary.
step "browser end-to-end tests (playwright-core + Debian Chromium)"
release_target_dir
exec node --test --test-concurrency=1 tests/e2e/
