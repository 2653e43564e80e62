#!/usr/bin/env bash
# The long fuzz run (not part of CI): builds core/examples/fuzz in release mode and feeds
# 10 million generated and mutated inputs (FUZZ_INPUTS to change) through validation, the
# pane and its adapters, the session engine and the audit's diff parser. Prints inputs, panics and the slowest input per byte per target;
# exits non-zero unless there is no panic and no input is slower than 10x the median per
# byte. Extra arguments go to the program (--seed N, --target NAME, --out DIR).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/lib.sh
claim_target_dir
step "cargo build --release --example fuzz"
cargo build --release --quiet -p switchboard-core --example fuzz
release_target_dir
step "fuzz run"
exec "$CARGO_TARGET_DIR/release/examples/fuzz" --inputs "${FUZZ_INPUTS:-10000000}" "$@"
