#!/usr/bin/env bash
# README command 2: installs what the tests need (scripts/setup.sh) and runs every suite, in
# order: formatting, clippy, native tests, wasm tests under Node and in headless Chromium,
# then the browser end-to-end tests against the release build. Stops at the first failure.
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
    suite "wasm tests under Node (switchboard-core)" \
        cargo test -p switchboard-core --no-default-features --target wasm32-unknown-unknown --test wasm_node
    suite "wasm tests in headless Chromium (switchboard-web)" \
        cargo test -p switchboard-web --target wasm32-unknown-unknown --test browser
    suite "trunk build --release" trunk build --release --quiet
)

say "all suites before end-to-end took $(($(date +%s) - START)) s"
# Last, so the output ends with the test runner's own summary.
step "browser end-to-end tests (playwright-core + Debian Chromium)"
release_target_dir
exec node --test --test-concurrency=1 tests/e2e/
